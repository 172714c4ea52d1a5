//! The bots: a private view, the `Bot` trait, a random and a sensible bot.

use ostrov_engine::{
    CheckResult, Command, DayRecord, Event, Held, Item, ItemKind, Match, NoticeKind, Order, PlayerId, Role, Side,
    Targets,
};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// What one player may see: their own seat, role, item and notices; the public records.
pub struct View<'a> {
    m: &'a Match,
    /// The player this view belongs to.
    pub me: PlayerId,
    /// The living players in list order, when the driver has them at hand.
    living: Option<&'a [PlayerId]>,
}

impl<'a> View<'a> {
    pub fn new(m: &'a Match, me: PlayerId) -> View<'a> {
        View { m, me, living: None }
    }

    /// A view with the living players (in list order, as [`View::living`] gives them)
    /// already gathered by the driver, shared by every bot of the day.
    pub fn with_living(m: &'a Match, me: PlayerId, living: &'a [PlayerId]) -> View<'a> {
        debug_assert!(living.iter().copied().eq(m.state.living()));
        View { m, me, living: Some(living) }
    }

    /// The role this player was told (the first `Role` notice), turned halfbloods count as werewolves.
    pub fn role(&self) -> Role {
        let mut role = Role::Passenger;
        for k in self.notices() {
            match k {
                NoticeKind::Role(r) => role = *r,
                NoticeKind::Turned => role = Role::Werewolf,
                _ => {}
            }
        }
        role
    }

    /// The private messages this player was told.
    pub fn notices(&self) -> impl Iterator<Item = &'a NoticeKind> + '_ {
        let me = self.me;
        self.m.state.notices.iter().filter(move |n| n.to == me).map(|n| &n.kind)
    }

    /// How many private messages have been sent so far, to anyone (a cursor for
    /// [`View::notices_since`]).
    pub fn notice_count(&self) -> usize {
        self.m.state.notices.len()
    }

    /// The private messages this player was told since the first `from` messages of the game.
    pub fn notices_since(&self, from: usize) -> impl Iterator<Item = &'a NoticeKind> + '_ {
        let me = self.me;
        self.m.state.notices.get(from..).unwrap_or_default().iter().filter(move |n| n.to == me).map(|n| &n.kind)
    }

    /// The living players in list order, if the driver gathered them (see [`View::with_living`]).
    pub fn living_slice(&self) -> Option<&'a [PlayerId]> {
        self.living
    }

    /// The player's own item, as they know it (R-ITEM-2).
    pub fn item(&self) -> Option<Held> {
        self.m.state.held(self.me)
    }

    /// The pack, if this player is told one.
    pub fn pack(&self) -> Vec<PlayerId> {
        self.notices()
            .filter_map(|k| match k {
                NoticeKind::Pack(v) => Some(v.clone()),
                _ => None,
            })
            .last()
            .unwrap_or_default()
    }

    /// Living players, in list order (public).
    pub fn living(&self) -> impl Iterator<Item = PlayerId> + 'a {
        self.m.state.living()
    }

    /// Fills `out` with the living players.
    pub fn living_into(&self, out: &mut Vec<PlayerId>) {
        out.clear();
        match self.living {
            Some(l) => out.extend_from_slice(l),
            None => out.extend(self.m.state.living()),
        }
    }

    /// A role the newspaper revealed (dead players, a revealed authority).
    pub fn public_role(&self, p: PlayerId) -> Option<Role> {
        let pl = self.m.state.player(p);
        pl.role_public.then_some(pl.role)
    }

    /// Today's event (public).
    pub fn event(&self) -> Option<Event> {
        self.m.state.event
    }

    /// The current day number.
    pub fn day(&self) -> u32 {
        self.m.state.day
    }

    /// The public records of the past days.
    pub fn days(&self) -> &'a [DayRecord] {
        &self.m.days
    }

    /// Whether the engine would take this order now.
    pub fn legal(&self, cmd: &Command) -> bool {
        self.m.check(&Order::new(self.me, cmd.clone())).is_ok()
    }
}

/// A scripted player: proposes the day's orders; the driver sends those the engine takes.
pub trait Bot: Send {
    fn orders(&mut self, view: &View, rng: &mut ChaCha8Rng, out: &mut Vec<Command>);
}

/// Which bots play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BotKind {
    Random,
    Sensible,
}

impl std::str::FromStr for BotKind {
    type Err = String;
    fn from_str(s: &str) -> Result<BotKind, String> {
        match s {
            "random" => Ok(BotKind::Random),
            "sensible" => Ok(BotKind::Sensible),
            _ => Err(format!("unknown bots \"{s}\" (random, sensible)")),
        }
    }
}

fn pick(rng: &mut ChaCha8Rng, v: &[PlayerId]) -> Option<PlayerId> {
    (!v.is_empty()).then(|| v[rng.gen_range(0..v.len())])
}

/// Uniformly random orders: a vote for any living player, a random night act of the
/// role, random item uses. Illegal ones are dropped by the driver (`Match::check`).
#[derive(Default)]
pub struct RandomBot {
    role: Option<Role>,
    living: Vec<PlayerId>,
    /// Notices read so far (a halfblood watches for `Turned`).
    seen: usize,
    turned: bool,
}

impl Bot for RandomBot {
    fn orders(&mut self, v: &View, rng: &mut ChaCha8Rng, out: &mut Vec<Command>) {
        let role = *self.role.get_or_insert_with(|| v.role());
        if role == Role::Halfblood && !self.turned {
            self.turned = v.notices_since(self.seen).any(|k| matches!(k, NoticeKind::Turned));
            self.seen = v.notice_count();
        }
        let role = if role == Role::Halfblood && self.turned { Role::Werewolf } else { role };
        let l: &[PlayerId] = match v.living_slice() {
            Some(l) => l,
            None => {
                v.living_into(&mut self.living);
                &self.living
            }
        };
        let Some(t) = pick(rng, l) else { return };
        let two = matches!(v.event(), Some(Event::Rage | Event::FogNight));
        out.push(Command::Vote(if two { Targets::two(t, pick(rng, l).unwrap_or(t)) } else { Targets::one(t) }));
        if let Some(h) = v.item() {
            if h.charged && h.item.kind() == ItemKind::Used && rng.gen_bool(0.5) {
                out.push(Command::Use { item: Some(h.item), target: pick(rng, l).unwrap_or(t) });
            }
            if h.item == Item::Megaphone {
                out.push(Command::Megaphone(pick(rng, l).unwrap_or(t)));
            }
        }
        if v.event() == Some(Event::Fear) {
            out.push(Command::Sentence(pick(rng, l).unwrap_or(t)));
        }
        let a = pick(rng, l).unwrap_or(t);
        let b = pick(rng, l).unwrap_or(t);
        let night = match role {
            Role::Werewolf | Role::Hamster => {
                Some(Command::Kill(if v.event() == Some(Event::FullMoon) && role == Role::Werewolf && a != b {
                    Targets::two(a, b)
                } else {
                    Targets::one(a)
                }))
            }
            Role::Seer => Some(Command::Check(a)),
            Role::Nurse => Some(Command::Heal(a)),
            Role::Maniac => Some(Command::Assault(a)),
            Role::Witch => match rng.gen_range(0..4) {
                0 => Some(Command::Kill(Targets::one(a))),
                1 => Some(Command::Cancel),
                _ => None,
            },
            Role::Sleepwalker => Some(if rng.gen_bool(0.5) { Command::Swap(a, b) } else { Command::Recharge(a) }),
            Role::Authority if rng.gen_range(0..4) == 0 => Some(Command::Authority { from: a, target: b }),
            _ => None,
        };
        out.extend(night);
    }
}

/// Sensible play per side (see the crate docs and issue 4).
#[derive(Default)]
pub struct SensibleBot {
    role: Option<Role>,
    pack: Vec<PlayerId>,
    /// Checked players and the result (true: werewolf).
    checked: Vec<(PlayerId, bool)>,
    living: Vec<PlayerId>,
    buf: Vec<PlayerId>,
}

/// The public suspicion of each player: revealed wolves top, revealed civilians bottom;
/// otherwise votes cast for players who turned out to be civilians count against the voter.
fn public_wolves(v: &View, living: &[PlayerId]) -> Vec<PlayerId> {
    living.iter().copied().filter(|p| v.public_role(*p).is_some_and(|r| r.side() == Side::Werewolves)).collect()
}

impl SensibleBot {
    fn learn(&mut self, v: &View) {
        if self.role.is_none() {
            self.role = Some(v.role());
            self.pack = v.pack();
        }
        if v.role() == Role::Werewolf {
            self.role = Some(Role::Werewolf);
        }
        self.checked.clear();
        for k in v.notices() {
            if let NoticeKind::Check { target, result } = k {
                self.checked.push((*target, *result == CheckResult::Werewolf));
            }
        }
    }

    /// A suspicion score from the public record: voting for revealed civilians is suspicious.
    fn suspect(&mut self, v: &View, rng: &mut ChaCha8Rng, exclude: &[PlayerId]) -> Option<PlayerId> {
        let mut best: Vec<PlayerId> = Vec::new();
        let mut best_score = i32::MIN;
        for &p in &self.living {
            if p == v.me || exclude.contains(&p) {
                continue;
            }
            if v.public_role(p).is_some_and(|r| r.side() != Side::Werewolves) {
                continue;
            }
            let mut s = 0;
            for d in v.days() {
                for b in &d.ballots {
                    if b.voter == p && d.lynched.contains(&b.target) {
                        if let Some(r) = v.public_role(b.target) {
                            s += if r.side() == Side::Werewolves { -1 } else { 1 };
                        }
                    }
                }
            }
            if s > best_score {
                best_score = s;
                best.clear();
            }
            if s == best_score {
                best.push(p);
            }
        }
        pick(rng, &best)
    }
}

impl Bot for SensibleBot {
    fn orders(&mut self, v: &View, rng: &mut ChaCha8Rng, out: &mut Vec<Command>) {
        self.learn(v);
        let role = self.role.unwrap_or(Role::Passenger);
        v.living_into(&mut self.living);
        let wolf_side = role.side() == Side::Werewolves;
        let pack: Vec<PlayerId> = self.pack.iter().copied().filter(|p| self.living.contains(p)).collect();
        // The day vote.
        let vote = if wolf_side {
            // The pack votes together: the day's common target, by a shared day-seeded choice.
            self.buf.clear();
            self.buf.extend(self.living.iter().copied().filter(|p| !pack.contains(p) && *p != v.me));
            let day = v.day() as usize;
            (!self.buf.is_empty())
                .then(|| self.buf[(day * 7919 + pack.first().map_or(0, |p| p.index())) % self.buf.len()])
        } else {
            let known: Vec<PlayerId> =
                self.checked.iter().filter(|c| c.1 && self.living.contains(&c.0)).map(|c| c.0).collect();
            let revealed = public_wolves(v, &self.living);
            let cleared: Vec<PlayerId> = self.checked.iter().filter(|c| !c.1).map(|c| c.0).collect();
            known.first().or(revealed.first()).copied().or_else(|| self.suspect(v, rng, &cleared))
        };
        if let Some(t) = vote {
            let two = matches!(v.event(), Some(Event::Rage | Event::FogNight));
            out.push(Command::Vote(if two { Targets::two(t, t) } else { Targets::one(t) }));
            if v.event() == Some(Event::Fear) {
                out.push(Command::Sentence(t));
            }
            if let Some(h) = v.item() {
                if h.item == Item::Megaphone {
                    out.push(Command::Megaphone(t));
                }
                if h.charged && matches!(h.item, Item::Shocker | Item::Voodoo) {
                    out.push(Command::Use { item: Some(h.item), target: t });
                }
            }
        }
        // The night.
        self.buf.clear();
        let others: Vec<PlayerId> = self.living.iter().copied().filter(|p| *p != v.me).collect();
        let night = match role {
            Role::Werewolf => {
                let prey: Vec<PlayerId> =
                    others.iter().copied().filter(|p| !pack.contains(p) && Some(*p) != vote).collect();
                let prey =
                    if prey.is_empty() { others.iter().copied().filter(|p| !pack.contains(p)).collect() } else { prey };
                pick(rng, &prey).map(|p| Command::Kill(Targets::one(p)))
            }
            Role::Hamster => pick(rng, &others).map(|p| Command::Kill(Targets::one(p))),
            Role::Seer => {
                let unchecked: Vec<PlayerId> =
                    others.iter().copied().filter(|p| !self.checked.iter().any(|c| c.0 == *p)).collect();
                pick(rng, &unchecked).map(Command::Check)
            }
            Role::Nurse => {
                let cleared: Vec<PlayerId> = others.iter().copied().filter(|p| v.public_role(*p).is_some()).collect();
                pick(rng, if cleared.is_empty() { &others } else { &cleared }).map(Command::Heal)
            }
            Role::Maniac => vote.or_else(|| pick(rng, &others)).map(Command::Assault),
            Role::Witch => vote.filter(|_| rng.gen_range(0..3) == 0).map(|t| Command::Kill(Targets::one(t))),
            _ => None,
        };
        out.extend(night);
    }
}

/// A fresh bot of a kind.
pub fn make(kind: BotKind) -> Box<dyn Bot> {
    match kind {
        BotKind::Random => Box::<RandomBot>::default(),
        BotKind::Sensible => Box::<SensibleBot>::default(),
    }
}
