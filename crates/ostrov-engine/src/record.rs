//! What happened on one day, in ids: the engine's record, from which the report and
//! the newspapers are made.

use crate::act::Act;
use crate::event::Event;
use crate::item::{Held, Item};
use crate::log::LogEntry;
use crate::order::{Actor, Clock, Command};
use crate::player::PlayerId;
use crate::refusal::Refusal;
use crate::role::{CheckResult, Role};
use crate::win::Winner;

/// When an item use became known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Announced at 13:00 (sent before it).
    Midday,
    /// Announced at the 21:00 resolution.
    Evening,
    /// Triggered during the lynch or the night.
    Resolution,
}

impl Stage {
    pub const fn id(self) -> &'static str {
        match self {
            Stage::Midday => "13:00",
            Stage::Evening => "21:00",
            Stage::Resolution => "resolution",
        }
    }
}

/// An activation or automatic trigger of an item (the report's `items_used[]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ItemUse {
    pub by: PlayerId,
    pub item: Item,
    pub target: Option<PlayerId>,
    pub stage: Stage,
    /// Whether it changed anything (a voodoo whose user was lynched is spent for nothing).
    pub effective: bool,
}

/// Why a vote ended where it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BallotKind {
    /// Cast as sent.
    Cast,
    /// Not sent: counts on its owner (R-VOTE-1).
    Missing,
    /// Blocked (shocker, maniac, host penalty): counts on its owner (R-VOTE-2).
    Blocked,
    /// Breaks the totem, handcuffs or love-note rule: counts on its owner (R-VOTE-2).
    Void,
    /// The megaphone's extra vote (R-ITEM-5).
    Megaphone,
    /// Taken by the authority and cast for another player (R-AUTH-1).
    Authority,
}

impl BallotKind {
    pub const fn id(self) -> &'static str {
        match self {
            BallotKind::Cast => "cast",
            BallotKind::Missing => "missing",
            BallotKind::Blocked => "blocked",
            BallotKind::Void => "void",
            BallotKind::Megaphone => "megaphone",
            BallotKind::Authority => "authority",
        }
    }
}

/// One counted vote: from whom, for whom, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ballot {
    pub voter: PlayerId,
    pub target: PlayerId,
    pub kind: BallotKind,
}

/// One check by a seer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Check {
    pub seer: PlayerId,
    pub target: PlayerId,
    pub result: CheckResult,
}

/// An order that did not count, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejected {
    pub by: Actor,
    pub act: Act,
    pub at: Clock,
    pub reason: Refusal,
    /// The order as sent; `None` for a Bunker draw that failed at the 13:00 stage.
    pub command: Option<Command>,
}

/// A player as they stood at the end of a day (for the newspaper of that day).
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    pub id: PlayerId,
    pub role: Role,
    pub turned: bool,
    pub alive: bool,
    pub item: Option<Held>,
    pub role_public: bool,
}

/// The whole record of one game day and the night after it.
#[derive(Clone, Debug, Default)]
pub struct DayRecord {
    pub day: u32,
    pub event: Option<Event>,
    /// Choose me!: the chosen player and their pair.
    pub chosen: Option<PlayerId>,
    pub pair: Option<PlayerId>,
    /// Tsunami took place this morning.
    pub tsunami: bool,
    /// Bunker: who changed their item at 13:00.
    pub bunker: Vec<PlayerId>,
    /// Exchange: who swapped items with whom at 13:00.
    pub exchanges: Vec<(PlayerId, PlayerId)>,
    /// Mystic light: who recharged their item.
    pub lights: Vec<PlayerId>,
    /// Spirit call: who asked what, and the answer (`None`: not answered).
    pub question: Option<(PlayerId, String)>,
    pub answer: Option<bool>,
    pub items_used: Vec<ItemUse>,
    pub penalties: Vec<(PlayerId, Option<String>)>,
    pub removed: Vec<(PlayerId, Option<String>)>,
    /// Every counted vote, voters in list order.
    pub ballots: Vec<Ballot>,
    /// Players with at least one vote, in list order, and their votes.
    pub tally: Vec<(PlayerId, u32)>,
    /// Fear: the elected leader and the sentence carried out.
    pub leader: Option<PlayerId>,
    pub sentence: Option<PlayerId>,
    /// The authority who revealed themself today: (authority, whose vote, for whom).
    pub authority: Option<(PlayerId, PlayerId, PlayerId)>,
    /// Lynched players, in list order.
    pub lynched: Vec<PlayerId>,
    /// Who died in the night, in list order.
    pub night_deaths: Vec<PlayerId>,
    pub checks: Vec<Check>,
    pub assaulted: Vec<PlayerId>,
    pub rejected: Vec<Rejected>,
    pub log: Vec<LogEntry>,
    /// What the newspaper explains publicly (ties, a bomb, a sheep skin, a moon fern, the
    /// maniac's visit …), with its step, in the order of the steps.
    pub public: Vec<(crate::step::Step, crate::ru::Phrase)>,
    /// Whether a night followed the lynch.
    pub night: bool,
    /// The event drawn for the next day (step 21).
    pub next_event: Option<Event>,
    /// The winner, when the game ended on this day.
    pub winner: Option<Winner>,
    /// Every player at the end of the day (only when detail is on).
    pub snapshot: Vec<Snapshot>,
    /// The day's fixed draws that had nothing to decide, by their game-file key
    /// (`tie_break` with no random tie left to settle, `chosen` on a day that is not
    /// Choose me!, `deal` on a day without Tsunami): for the host's warning.
    pub unused_fixes: Vec<&'static str>,
}

impl DayRecord {
    /// Makes this record what `DayRecord { day, event, ..DayRecord::default() }` is,
    /// keeping its buffers.
    pub(crate) fn reset(&mut self, day: u32, event: Option<Event>) {
        let DayRecord {
            day: d,
            event: e,
            chosen,
            pair,
            tsunami,
            bunker,
            exchanges,
            lights,
            question,
            answer,
            items_used,
            penalties,
            removed,
            ballots,
            tally,
            leader,
            sentence,
            authority,
            lynched,
            night_deaths,
            checks,
            assaulted,
            rejected,
            log,
            public,
            night,
            next_event,
            winner,
            snapshot,
            unused_fixes,
        } = self;
        *d = day;
        *e = event;
        *chosen = None;
        *pair = None;
        *tsunami = false;
        bunker.clear();
        exchanges.clear();
        lights.clear();
        *question = None;
        *answer = None;
        items_used.clear();
        penalties.clear();
        removed.clear();
        ballots.clear();
        tally.clear();
        *leader = None;
        *sentence = None;
        *authority = None;
        lynched.clear();
        night_deaths.clear();
        checks.clear();
        assaulted.clear();
        rejected.clear();
        log.clear();
        public.clear();
        *night = false;
        *next_event = None;
        *winner = None;
        snapshot.clear();
        unused_fixes.clear();
    }
}
