//! A game on the server: the typed events of its append-only log ([`event`]) and their
//! fold into the game's state ([`GameState`]). The fold holds no rules: every rule is the
//! engine's ([`Match`]), and [`table`] is the only module here that calls it.
//!
//! Every event is first *decided* ([`GameState::decide`]: checked against the state as it
//! is, changing nothing, with whatever could fail worked out), then *evolved*
//! ([`GameState::evolve`]: applied, which cannot fail). Deciding copies no posts, so an
//! event costs the same however long the game's discussion is, live and in replay; a
//! stored event that does not decide is a corrupt log ([`GameState::fold`]).
//!
//! - [`lobby`]: seats and names before the start;
//! - [`table`]: the engine's match: the start, days opening, orders, 13:00, 21:00, fixes;
//! - [`clock`]: deadlines, extensions, pauses and what the scheduler runs when;
//! - [`talk`]: the day's thread and the pack's chat, the host's flags.

pub mod clock;
pub mod event;
pub mod lobby;
pub mod table;
pub mod talk;

use std::collections::HashMap;

use ostrov_engine::{DayEntry, Game, GameFile, Match, PlayerId, SeatIndex, Winner};
use serde::Serialize;

pub use event::{Config, Fix, GameEvent, Post, Room, SeatSpeech, MAX_POST, MAX_POSTS_PER_DAY, MAX_SLOTS};
pub use table::resolve_error_ru;
pub use talk::Posted;

use crate::schedule::Times;

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Players are joining.
    Lobby,
    Running,
    Over,
}

/// A seat and the account that holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    pub user: i64,
    pub name: String,
}

/// The times of one day.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DayTimes {
    pub opened_at: i64,
    pub midday_at: i64,
    pub deadline_at: i64,
    pub midday_done: bool,
    pub resolved_at: Option<i64>,
    /// The game-day time of the day's latest order (00:00 before any).
    pub last_at: ostrov_engine::Clock,
}

/// A host action the rules make public, for the game's history.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PublicNote {
    pub at: i64,
    pub day: u32,
    pub text: String,
}

/// Why an event cannot be applied.
#[derive(Clone, Debug, PartialEq)]
pub enum Refused {
    /// The engine refuses the order.
    Rule(ostrov_engine::Refusal),
    /// The event does not fit where the game is; a Russian message.
    State(&'static str, String),
}

impl Refused {
    /// The refusal in Russian.
    pub fn ru(&self) -> String {
        match self {
            Refused::Rule(r) => r.ru().to_string(),
            Refused::State(_, m) => m.clone(),
        }
    }
}

pub(crate) fn state(code: &'static str, msg: impl Into<String>) -> Refused {
    Refused::State(code, msg.into())
}

/// Who may see what one event changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// Everyone who may look at the game.
    Everyone,
    /// The pack (werewolves and the halfblood, dead or alive) and the host.
    Pack,
    /// One seat (by its index) and the host.
    Seat(usize),
    /// The host alone.
    Host,
}

/// How many folded events each audience could see the effect of. The host sees every
/// event ([`GameState::seq`]); a viewer's own count is what [`crate::view::stamp`] reads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChangeCounts {
    pub everyone: u64,
    pub pack: u64,
    /// By seat index.
    pub seats: Vec<u64>,
}

impl ChangeCounts {
    fn count(&mut self, audience: Audience) {
        match audience {
            Audience::Everyone => self.everyone += 1,
            Audience::Pack => self.pack += 1,
            Audience::Seat(i) => {
                if self.seats.len() <= i {
                    self.seats.resize(i + 1, 0);
                }
                self.seats[i] += 1;
            }
            Audience::Host => {}
        }
    }
}

/// A decided event: what it will change, with everything that could fail worked out.
/// Only [`GameState::decide`] makes one, and [`GameState::evolve`] applies it.
#[derive(Debug)]
pub struct Decision {
    audience: Audience,
    change: Change,
}

#[derive(Debug)]
enum Change {
    Join(Member),
    Start(Box<table::Started>),
    Open(Box<table::Opening>),
    Order(Box<table::Accepted>),
    Midday { day: u32 },
    Resolve { day: u32, early: bool, m: Box<Match> },
    Fix { day: u32, entry: Box<DayEntry>, m: Option<Box<Match>> },
    Extend { day: u32, deadline_at: i64 },
    Pause,
    Resume,
    Post(Box<Posted>),
    Flag { post: usize, dismiss: bool },
}

/// The fold of a game's log.
#[derive(Clone, Debug)]
pub struct GameState {
    pub id: i64,
    pub host: i64,
    pub config: Config,
    pub times: Times,
    pub members: Vec<Member>,
    pub status: Status,
    pub started_at: Option<i64>,
    /// The game file: setup, players, and every day's fixed draws and orders.
    pub file: GameFile,
    pub game: Option<Game>,
    /// The seats by their names' skeletons, made once at the start: an order is checked
    /// against it without computing every seat's skeleton again under the game's lock.
    pub seats: SeatIndex,
    pub m: Option<Match>,
    /// The match as it stood just before the open day opened: a fix of the open day replays
    /// only that day from here, so the days already resolved are never played again.
    pub before_open: Option<Box<Match>>,
    pub days: Vec<DayTimes>,
    /// When the next day opens, between a resolution and the next opening.
    pub next_open_at: Option<i64>,
    pub paused_at: Option<i64>,
    pub history: Vec<PublicNote>,
    /// The discussion: every post, in order.
    pub posts: Vec<Posted>,
    /// How many posts each account wrote on each day, and in each room: what the caps and
    /// the numbers readers see count without reading every post again.
    pub(crate) post_counts: talk::Counts,
    /// The orders each sender has sent on the open day (changes included), by name: what
    /// the cap of orders a day counts without reading the day's orders.
    pub sent_today: HashMap<String, usize>,
    /// The last sequence number folded.
    pub seq: i64,
    /// How many folded events each audience could see the effect of: what the live
    /// stream compares to tell a viewer only of what that viewer may see (issue 28).
    pub changes: ChangeCounts,
    /// Why the game cannot go on by itself, for the host: a scheduler step that fails (the
    /// server retries it). Set by the server, not by the fold.
    pub broken: Option<String>,
}

impl GameState {
    /// A game from its `created` event.
    pub fn new(id: i64, host: i64, config: Config) -> Result<GameState, String> {
        let times = config.check()?;
        let file = config.file(&[]);
        Ok(GameState {
            id,
            host,
            config,
            times,
            members: Vec::new(),
            status: Status::Lobby,
            started_at: None,
            file,
            game: None,
            seats: SeatIndex::default(),
            m: None,
            before_open: None,
            days: Vec::new(),
            next_open_at: None,
            paused_at: None,
            history: Vec::new(),
            posts: Vec::new(),
            post_counts: talk::Counts::default(),
            sent_today: HashMap::new(),
            seq: 0,
            changes: ChangeCounts::default(),
            broken: None,
        })
    }

    /// Folds a whole log. An entry that does not apply is a corrupt log: the fold stops
    /// and says which game and which entry, in the server's words (the host sees the game
    /// fail to load rather than a game that silently differs from its log).
    pub fn fold(id: i64, host: i64, log: &[(i64, GameEvent)]) -> Result<GameState, String> {
        let Some((_, GameEvent::Created(config))) = log.first() else {
            return Err(format!("game {id}: the log does not start with `created`"));
        };
        let mut g = GameState::new(id, host, config.clone())?;
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
            GameEvent::Opened { day, midday_at, deadline_at } => {
                everyone(Change::Open(self.decide_open(*day, *midday_at, *deadline_at, at)?))
            }
            GameEvent::Order { day, order } => {
                let accepted = self.decide_order(*day, order)?;
                // A player's order is theirs and the host's (a host's order is public: its
                // effects are in the history and the papers).
                let audience = match accepted.order.by {
                    ostrov_engine::Actor::Player(p) => Audience::Seat(p.index()),
                    ostrov_engine::Actor::Host => Audience::Everyone,
                };
                Decision { audience, change: Change::Order(accepted) }
            }
            GameEvent::Midday { day } => everyone(self.decide_midday(*day)?),
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
            Change::Midday { day } => self.evolve_midday(day),
            Change::Resolve { day, early, m } => self.evolve_resolve(day, early, *m, at),
            Change::Fix { day, entry, m } => self.evolve_fix(day, *entry, m),
            Change::Extend { day, deadline_at } => self.evolve_extend(day, deadline_at, at),
            Change::Pause => self.evolve_pause(at),
            Change::Resume => self.evolve_resume(at),
            Change::Post(p) => self.evolve_post(*p),
            Change::Flag { post, dismiss } => self.evolve_flag(post, dismiss, at),
        }
        self.changes.count(d.audience);
    }

    /// The open day's number, if a day is open.
    pub fn open_day(&self) -> Option<u32> {
        let d = self.days.len();
        (self.status == Status::Running && d > 0 && self.days[d - 1].resolved_at.is_none()).then_some(d as u32)
    }

    /// The seat of a user.
    pub fn seat_of(&self, user: i64) -> Option<PlayerId> {
        self.members.iter().position(|m| m.user == user).map(|i| PlayerId(i as u16))
    }

    /// The name of the seat `name` names, however it is written (a look-alike of a seat's
    /// name is that seat); `None` before the start or when no seat matches.
    pub fn seated_as(&self, name: &str) -> Option<&str> {
        let seat = self.seats.find(name)?;
        Some(self.game.as_ref()?.setup.seats.get(seat.index())?.name.as_str())
    }

    /// The game file that replays the game: the days that have opened (a fix of the next
    /// day, waiting for it to open, is not a day of the game yet).
    pub fn exported(&self) -> GameFile {
        let mut file = self.file.clone();
        file.days.truncate(self.days.len());
        file
    }

    /// The winner, once the game is over.
    pub fn winner(&self) -> Option<Winner> {
        self.m.as_ref().and_then(Match::winner)
    }

    fn day_entry(&mut self, day: u32) -> &mut DayEntry {
        while self.file.days.len() < day as usize {
            self.file.days.push(DayEntry::default());
        }
        &mut self.file.days[day as usize - 1]
    }
}

/// The message of a corrupt log: an entry that does not apply to the fold before it.
fn corrupt(id: i64, seq: i64, e: &Refused) -> String {
    format!("game {id}: the log is corrupt: entry {seq} does not apply to the entries before it ({})", e.ru())
}

#[cfg(test)]
mod tests;
