//! The dispatch of an event: [`GameState::decide`] asks the module of its kind
//! ([`super::table`], [`super::talk`], [`super::clock`], [`super::lobby`]) what it will
//! change, and [`GameState::evolve`] applies that; [`GameState::fold`] folds a whole log.

use super::change::{Change, Decision};
use super::event::{GameEvent, Room};
use super::state::{state, Audience, GameState, Refused};

impl GameState {
    /// Folds a whole log. An entry that does not apply is a corrupt log: the fold stops
    /// and says which game and which entry, in the server's words (the host sees the game
    /// fail to load rather than a game that silently differs from its log).
    pub fn fold(id: i64, host: i64, log: &[(i64, GameEvent)]) -> Result<GameState, String> {
        let Some((created, GameEvent::Created(config))) = log.first() else {
            return Err(format!("game {id}: the log does not start with `created`"));
        };
        let mut g = GameState::created(id, host, config.clone(), *created)?;
        g.seq = 1;
        for (at, ev) in &log[1..] {
            g.seq += 1;
            g.apply(ev, *at).map_err(|e| corrupt(id, g.seq, &e))?;
        }
        Ok(g)
    }

    /// Decides and evolves one event at time `at`; on a refusal nothing has changed.
    pub fn apply(&mut self, ev: &GameEvent, at: i64) -> Result<(), Refused> {
        let d = self.decide(ev, at)?;
        self.evolve(d, at);
        Ok(())
    }

    /// Whether `ev` applies to the game at time `at`, and what it will change: checked
    /// against the state as it is, changing nothing and copying no post. What runs the
    /// engine (the start, a day's opening and resolution, a fix, an afternoon order before
    /// the 13:00 stage ran) is worked out here on a copy of the match alone.
    pub fn decide(&self, ev: &GameEvent, at: i64) -> Result<Decision, Refused> {
        let everyone = |change| Decision { audience: Audience::Everyone, change };
        Ok(match ev {
            GameEvent::Created(_) => return Err(state("created", "Игра уже создана.")),
            GameEvent::Joined { user, name } => everyone(Change::Join(self.decide_join(*user, name)?)),
            GameEvent::Started { roles, speech } => everyone(Change::Start(self.decide_start(roles, speech, at)?)),
            GameEvent::Opened { day, midday_at, deadline_at, early } => {
                everyone(Change::Open(self.decide_open(*day, *midday_at, *deadline_at, *early, at)?))
            }
            GameEvent::Order { day, order } => {
                let accepted = self.decide_order(*day, order)?;
                let audience = self.order_audience(&accepted);
                Decision { audience, change: Change::Order(accepted) }
            }
            GameEvent::Midday { day, early } => everyone(self.decide_midday(*day, *early)?),
            GameEvent::Resolved { day, early } => everyone(self.decide_resolve(*day, *early)?),
            GameEvent::Fixed { day, fix } => {
                let change = self.decide_fix(*day, fix)?;
                // A fixed tie-break shows only in the day's resolution.
                let audience = if fix.only_ties() { Audience::Host } else { Audience::Everyone };
                Decision { audience, change }
            }
            GameEvent::Extended { day, deadline_at } => everyone(self.decide_extend(*day, *deadline_at)?),
            GameEvent::Paused {} => everyone(self.decide_pause()?),
            GameEvent::Resumed {} => everyone(self.decide_resume()?),
            GameEvent::Posted { day, post } => {
                let posted = self.decide_post(*day, post, at)?;
                let audience = if post.room == Room::Pack { Audience::Pack } else { Audience::Everyone };
                Decision { audience, change: Change::Post(Box::new(posted)) }
            }
            GameEvent::Flagged { post } => everyone(self.decide_flag(*post, false)?),
            GameEvent::Dismissed { post } => everyone(self.decide_flag(*post, true)?),
            GameEvent::Replaced { seat, user, name } => {
                everyone(Change::Replace(Box::new(self.decide_replace(seat, *user, name, at)?)))
            }
            GameEvent::Wanted { seat, wanted } => everyone(self.decide_wanted(seat, *wanted)?),
            GameEvent::Unflagged { post } => everyone(self.decide_unflag(*post)?),
            GameEvent::BotsAdded { bots } => everyone(self.decide_bots(bots)?),
            GameEvent::BotRemoved { name } => everyone(self.decide_unbot(name)?),
            GameEvent::Topic { day, url } => everyone(self.decide_topic(*day, url)?),
        })
    }

    /// Applies a decided event at time `at`. It cannot fail: everything that could was
    /// settled by [`GameState::decide`] against this same state.
    pub fn evolve(&mut self, d: Decision, at: i64) {
        match d.change {
            Change::Join(m) => self.members.push(m),
            Change::Start(s) => self.evolve_start(*s, at),
            Change::Open(o) => self.evolve_open(*o, at),
            Change::Order(a) => self.evolve_order(*a, at),
            Change::Midday { day, early } => self.evolve_midday(day, early, at),
            Change::Resolve { day, early, m } => self.evolve_resolve(day, early, *m, at),
            Change::Fix { day, entry, m } => self.evolve_fix(day, *entry, m),
            Change::Extend { day, deadline_at } => self.evolve_extend(day, deadline_at, at),
            Change::Pause => self.evolve_pause(at),
            Change::Resume => self.evolve_resume(at),
            Change::Post(p) => self.evolve_post(*p),
            Change::Flag { post, dismiss } => self.evolve_flag(post, dismiss, at),
            Change::Replace(r) => self.evolve_replace(*r),
            Change::Want { seat, wanted } => self.evolve_wanted(seat, wanted),
            Change::Unflag(u) => self.evolve_unflag(*u, at),
            Change::Bots(m) => self.evolve_bots(m),
            Change::Unseat(i) => self.evolve_unbot(i),
            Change::Topic { day, url } => self.evolve_topic(day, url, at),
        }
        self.changes.count(d.audience);
    }
}

/// The message of a corrupt log: an entry that does not apply to the fold before it.
fn corrupt(id: i64, seq: i64, e: &Refused) -> String {
    format!("game {id}: the log is corrupt: entry {seq} does not apply to the entries before it ({})", e.ru())
}
