//! The fold of a game's log ([`GameState`]) and the small types it is made of: what the
//! fold's modules ([`super::table`], [`super::talk`], [`super::clock`], [`super::lobby`])
//! extend, and what the dispatch of an event ([`super::fold`]) decides and evolves.

use std::collections::HashMap;

use ostrov_engine::{DayEntry, Game, GameFile, Match, PlayerId, SeatIndex, Winner};
use serde::Serialize;

use super::event::Config;
use super::posts::{Counts, Posted};
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
    /// A seat bot's gender (`m` or `f`); `None` for a person's seat.
    pub bot: Option<String>,
}

impl Member {
    /// Whether a bot holds the seat.
    pub fn is_bot(&self) -> bool {
        self.bot.is_some()
    }
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

impl DayTimes {
    /// A day opened at `at`, with its 13:00 and its deadline, nothing run yet.
    pub fn opened(at: i64, midday_at: i64, deadline_at: i64) -> DayTimes {
        DayTimes {
            opened_at: at,
            midday_at,
            deadline_at,
            midday_done: false,
            resolved_at: None,
            last_at: ostrov_engine::Clock(0),
        }
    }
}

/// A host action the rules make public, for the game's history.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PublicNote {
    pub at: i64,
    pub day: u32,
    pub text: String,
}

/// A substitute seated by the host (issue 30, point 4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replacement {
    /// The seat's index.
    pub seat: usize,
    /// The account that held the seat, and the one that holds it now.
    pub from: i64,
    pub to: i64,
    /// The substitute's account name, as the event stored it.
    pub name: String,
    /// The day whose evening newspaper says so: the open day, or the next one between a
    /// resolution and the next opening (a published newspaper never changes).
    pub day: u32,
    pub at: i64,
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
    pub(super) fn count(&mut self, audience: Audience) {
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
    /// When each order of a day was taken, by the server's clock, in the order of that
    /// day's entries in the game file (the page says «в 14:21», not the game clock's
    /// clamped time; issue 29, point 4).
    pub sent_at: Vec<Vec<i64>>,
    /// The discussion: every post, in order.
    pub posts: Vec<Posted>,
    /// How many posts each account wrote on each day, and in each room: what the caps and
    /// the numbers readers see count without reading every post again.
    pub(crate) post_counts: Counts,
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
    /// Each seat's profile forms left out at the start, to tell the player (issue 28,
    /// point 6); empty for a seat whose forms were taken, and before the start.
    pub dropped_forms: Vec<Vec<String>>,
    /// Every substitute seated, in order (issue 30, point 4).
    pub replaced: Vec<Replacement>,
    /// The seats (by index, in order) the host calls for a substitute for.
    pub wanted: Vec<usize>,
    /// How many bots the host has seated in this game so far (taken back ones too): the
    /// next bot's id, and what the lobby's cap counts.
    pub bots_added: usize,
    /// The bots' rounds of orders and posts already run (day, seat, round), kept by the
    /// server, not by the fold: after a restart a round runs again and sends the same
    /// requests, which the log answers as already stored.
    pub bot_rounds: std::collections::BTreeSet<(u32, usize, u8)>,
    /// The forum topics the host set, by day, in the order first set (a forum game).
    pub topics: Vec<(u32, String)>,
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
            sent_at: Vec::new(),
            posts: Vec::new(),
            post_counts: Counts::default(),
            sent_today: HashMap::new(),
            seq: 0,
            changes: ChangeCounts::default(),
            broken: None,
            dropped_forms: Vec::new(),
            replaced: Vec::new(),
            wanted: Vec::new(),
            bots_added: 0,
            bot_rounds: Default::default(),
            topics: Vec::new(),
        })
    }

    /// A game from its `created` event at `at` (where a fast clock starts).
    pub fn created(id: i64, host: i64, config: Config, at: i64) -> Result<GameState, String> {
        let mut g = GameState::new(id, host, config)?;
        g.times = g.times.anchored(at);
        Ok(g)
    }

    /// The open day's number, if a day is open.
    pub fn open_day(&self) -> Option<u32> {
        let d = self.days.len();
        (self.status == Status::Running && d > 0 && self.days[d - 1].resolved_at.is_none()).then_some(d as u32)
    }

    /// The seat of a user.
    /// Whether `user` (`None`: nobody signed in) may find this game at all (O-PRIVATE-1):
    /// anyone an open game; a private one only its host and its players. Whoever may not
    /// gets 404, as for a game that does not exist.
    pub fn reachable(&self, user: Option<i64>) -> bool {
        self.config.visibility.is_open() || user.is_some_and(|u| u == self.host || self.seat_of(u).is_some())
    }

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

    /// Whether the seat `p` is in the pack (werewolves and the halfblood, dead or alive:
    /// the engine's [`Match::pack`]); nobody is before the start.
    pub fn in_pack(&self, p: PlayerId) -> bool {
        self.m.as_ref().is_some_and(|m| !m.pack(p).is_empty())
    }

    pub(super) fn day_entry(&mut self, day: u32) -> &mut DayEntry {
        while self.file.days.len() < day as usize {
            self.file.days.push(DayEntry::default());
        }
        &mut self.file.days[day as usize - 1]
    }
}
