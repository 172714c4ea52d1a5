//! Orders: one act sent by a player or the host at a time of the day.

use crate::act::Act;
use crate::item::Item;
use crate::player::PlayerId;

/// A time of the game day, in minutes after midnight, Moscow time by default.
///
/// The game day opens at 22:00 the evening before (RULES.md §7), so a time from 22:00 to
/// 23:59 is that evening and comes *before* the morning's times: clocks are ordered from
/// 22:00 to 21:59 (O-TIME-4). An order after 21:00 and before 22:00 is late.
///
/// ```
/// use ostrov_engine::Clock;
/// let evening = Clock::parse("23:30").unwrap();
/// assert!(evening < Clock::parse("00:10").unwrap());
/// assert!(evening < Clock::MIDDAY && evening < Clock::DEADLINE);
/// assert!(Clock::parse("21:30").unwrap() > Clock::DEADLINE);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Clock(pub u16);

impl Ord for Clock {
    fn cmp(&self, other: &Clock) -> std::cmp::Ordering {
        self.since_opening().cmp(&other.since_opening())
    }
}

impl PartialOrd for Clock {
    fn partial_cmp(&self, other: &Clock) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Clock {
    /// 12:00, the time of an order that gives none.
    pub const NOON: Clock = Clock(12 * 60);
    /// 13:00: the intermediate stage (R-EVENT-1).
    pub const MIDDAY: Clock = Clock(13 * 60);
    /// 21:00: the deadline and the resolution.
    pub const DEADLINE: Clock = Clock(21 * 60);

    /// Parses `HH:MM` (or `H:MM`).
    ///
    /// ```
    /// use ostrov_engine::Clock;
    /// assert_eq!(Clock::parse("13:05"), Some(Clock(13 * 60 + 5)));
    /// assert_eq!(Clock::parse("25:00"), None);
    /// ```
    pub fn parse(s: &str) -> Option<Clock> {
        let (h, m) = s.trim().split_once(':')?;
        if h.is_empty() || h.len() > 2 || m.len() != 2 {
            return None;
        }
        let h: u16 = h.parse().ok()?;
        let m: u16 = m.parse().ok()?;
        (h < 24 && m < 60).then_some(Clock(h * 60 + m))
    }

    /// Minutes since the day opened at 22:00 the evening before.
    pub const fn since_opening(self) -> u16 {
        (self.0 + 2 * 60) % (24 * 60)
    }

    /// Whether the time is the evening before the day (22:00–23:59).
    pub const fn is_evening(self) -> bool {
        self.0 >= 22 * 60
    }

    pub const fn hm(hour: u16, minute: u16) -> Clock {
        Clock(hour * 60 + minute)
    }
}

impl std::fmt::Display for Clock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:02}:{:02}", self.0 / 60, self.0 % 60)
    }
}

/// Who sends an order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Actor {
    Host,
    Player(PlayerId),
}

/// One or two targets (votes on Rage and Fog night, the pack on Full moon, `swap`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Targets {
    pub first: PlayerId,
    pub second: Option<PlayerId>,
}

impl Targets {
    pub const fn one(p: PlayerId) -> Targets {
        Targets { first: p, second: None }
    }
    pub const fn two(a: PlayerId, b: PlayerId) -> Targets {
        Targets { first: a, second: Some(b) }
    }
    pub fn len(&self) -> usize {
        1 + self.second.is_some() as usize
    }
    pub fn is_empty(&self) -> bool {
        false
    }
    pub fn iter(&self) -> impl Iterator<Item = PlayerId> + '_ {
        std::iter::once(self.first).chain(self.second)
    }
    pub fn contains(&self, p: PlayerId) -> bool {
        self.first == p || self.second == Some(p)
    }
}

/// What an order asks for, with its fields already resolved to players and ids.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    Vote(Targets),
    Megaphone(PlayerId),
    Authority {
        from: PlayerId,
        target: PlayerId,
    },
    Sentence(PlayerId),
    Kill(Targets),
    Check(PlayerId),
    Heal(PlayerId),
    Cancel,
    Swap(PlayerId, PlayerId),
    Recharge(PlayerId),
    Assault(PlayerId),
    Use {
        item: Option<Item>,
        target: PlayerId,
    },
    /// `Some(item)` fixes the draw from the reserve.
    Bunker {
        item: Option<Item>,
    },
    Exchange(PlayerId),
    Light,
    Pair(PlayerId),
    Ask(String),
    Answer(bool),
    Penalty {
        target: PlayerId,
        reason: Option<String>,
    },
    Remove {
        target: PlayerId,
        reason: Option<String>,
    },
    /// Takes back the sender's order in force of this kind (O-ORDER-4).
    Withdraw(Act),
}

impl Command {
    /// The act of this command.
    pub const fn act(&self) -> Act {
        match self {
            Command::Vote(_) => Act::Vote,
            Command::Megaphone(_) => Act::Megaphone,
            Command::Authority { .. } => Act::Authority,
            Command::Sentence(_) => Act::Sentence,
            Command::Kill(_) => Act::Kill,
            Command::Check(_) => Act::Check,
            Command::Heal(_) => Act::Heal,
            Command::Cancel => Act::Cancel,
            Command::Swap(..) => Act::Swap,
            Command::Recharge(_) => Act::Recharge,
            Command::Assault(_) => Act::Assault,
            Command::Use { .. } => Act::Use,
            Command::Bunker { .. } => Act::Bunker,
            Command::Exchange(_) => Act::Exchange,
            Command::Light => Act::Light,
            Command::Pair(_) => Act::Pair,
            Command::Ask(_) => Act::Ask,
            Command::Answer(_) => Act::Answer,
            Command::Penalty { .. } => Act::Penalty,
            Command::Remove { .. } => Act::Remove,
            Command::Withdraw(_) => Act::Withdraw,
        }
    }

    /// Every player the command names.
    pub fn named(&self) -> Vec<PlayerId> {
        self.named_iter().collect()
    }

    /// Every player the command names, without allocating (the same players as [`Command::named`]).
    pub fn named_iter(&self) -> impl Iterator<Item = PlayerId> {
        self.named_pair().iter()
    }

    /// Whether `ok` holds for every player the command names (those of
    /// [`Command::named_iter`], without the iterator: every order sent is checked so).
    #[inline]
    pub fn all_named(&self, ok: impl Fn(PlayerId) -> bool) -> bool {
        self.named_pair().all(ok)
    }

    /// The (at most two) players the command names.
    #[inline]
    fn named_pair(&self) -> Named {
        Named(match self {
            Command::Vote(t) | Command::Kill(t) => (Some(t.first), t.second),
            Command::Megaphone(p)
            | Command::Sentence(p)
            | Command::Check(p)
            | Command::Heal(p)
            | Command::Recharge(p)
            | Command::Assault(p)
            | Command::Exchange(p)
            | Command::Pair(p) => (Some(*p), None),
            Command::Use { target, .. } | Command::Penalty { target, .. } | Command::Remove { target, .. } => {
                (Some(*target), None)
            }
            Command::Authority { from, target } => (Some(*from), Some(*target)),
            Command::Swap(a, b) => (Some(*a), Some(*b)),
            Command::Cancel
            | Command::Bunker { .. }
            | Command::Light
            | Command::Ask(_)
            | Command::Answer(_)
            | Command::Withdraw(_) => (None, None),
        })
    }
}

/// The (at most two) players an order names: what [`Command`] and the night's orders
/// list and check them by.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Named(pub (Option<PlayerId>, Option<PlayerId>));

impl Named {
    /// The players, in order.
    pub fn iter(self) -> impl Iterator<Item = PlayerId> {
        let (a, b) = self.0;
        a.into_iter().chain(b)
    }

    /// Whether `ok` holds for every one of them (without the iterator).
    #[inline]
    pub fn all(self, ok: impl Fn(PlayerId) -> bool) -> bool {
        let (a, b) = self.0;
        a.is_none_or(&ok) && b.is_none_or(&ok)
    }
}

/// An order: who, when, what.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Order {
    pub by: Actor,
    pub at: Clock,
    pub command: Command,
}

impl Order {
    /// An order by a player at 12:00.
    pub fn new(by: PlayerId, command: Command) -> Order {
        Order { by: Actor::Player(by), at: Clock::NOON, command }
    }
    /// An order by the host at 12:00.
    pub fn host(command: Command) -> Order {
        Order { by: Actor::Host, at: Clock::NOON, command }
    }
    /// The same order at another time.
    pub fn at(mut self, at: Clock) -> Order {
        self.at = at;
        self
    }
}
