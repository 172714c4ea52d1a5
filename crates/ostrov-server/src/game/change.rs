//! A decided event ([`Decision`]): what it will change, worked out by the fold's modules
//! and applied by [`super::fold`].

use ostrov_engine::{DayEntry, Game, Match, OrderEntry, SeatIndex};

use super::posts::Posted;
use super::state::{Audience, DayTimes, Member, Replacement};

/// A decided event: what it will change, with everything that could fail worked out.
/// Only [`GameState::decide`] makes one, and [`GameState::evolve`] applies it.
#[derive(Debug)]
pub struct Decision {
    pub(super) audience: Audience,
    pub(super) change: Change,
}

#[derive(Debug)]
pub(super) enum Change {
    Join(Member),
    Start(Box<Started>),
    Open(Box<Opening>),
    Order(Box<Accepted>),
    Midday { day: u32, early: bool },
    Resolve { day: u32, early: bool, m: Box<Match> },
    Fix { day: u32, entry: Box<DayEntry>, m: Option<Box<Match>> },
    Extend { day: u32, deadline_at: i64 },
    Pause,
    Resume,
    Post(Box<Posted>),
    Flag { post: usize, dismiss: bool },
    Replace(Box<Replacement>),
    Want { seat: usize, wanted: bool },
    Unflag(Box<Unflag>),
    Bots(Vec<Member>),
    Unseat(usize),
    Topic { day: u32, url: String },
}

/// A decided withdrawal of a flag: the post, and, when the flag gave its author the
/// day's penalty, the open day without that penalty order (O-FLAG-1).
#[derive(Debug)]
pub struct Unflag {
    pub(super) post: usize,
    /// The index of the penalty order in the day's orders, and the match replayed without it.
    pub(super) penalty: Option<(usize, Box<Match>)>,
}

/// A decided start: the game file with its players, the match with day 1 open.
#[derive(Debug)]
pub struct Started {
    pub(super) file: ostrov_engine::GameFile,
    pub(super) game: Game,
    pub(super) seats: SeatIndex,
    pub(super) m: Match,
    pub(super) before: Box<Match>,
    pub(super) day: DayTimes,
    /// Each seat's profile forms left out at the start (issue 28, point 6).
    pub(super) dropped: Vec<Vec<String>>,
}

/// A decided opening of the next day: the match with the day open, and as it was before.
#[derive(Debug)]
pub struct Opening {
    pub(super) m: Match,
    pub(super) before: Match,
    pub(super) day: DayTimes,
    /// Opened by the host before its time.
    pub(super) early: bool,
}

/// A decided order: as the game file writes it, and as the engine takes it.
#[derive(Debug)]
pub struct Accepted {
    pub(super) day: u32,
    pub(super) entry: OrderEntry,
    pub(super) order: ostrov_engine::Order,
    /// The match with the 13:00 stage run, for an afternoon order that came before the
    /// scheduler ran the stage (the engine runs it first, then takes the order).
    pub(super) after_midday: Option<Box<Match>>,
}
