//! # ostrov-engine — the rules of *Остров страха* (Island of Fear)
//!
//! A pure rules engine: no IO, no clock, no global RNG. Every random draw comes from a
//! seeded `ChaCha8Rng`, so a game replays bit-for-bit from its seed and its orders.
//!
//! The flow is *parse, don't validate*: an unchecked [`GameFile`] (TOML or JSON, as a
//! host types it) becomes a checked [`Game`] once, with a typed [`GameFileError`] saying
//! why not; a [`Game`] is then played by a [`Match`] — day by day, order by order — and
//! described by a [`Report`] (the JSON contract of GAME_FILE.md).
//!
//! The 21 resolution steps of RULES.md are one explicit sequence in [`Match::close_day`].
//!
//! Callers ask the match questions instead of re-deriving a rule from its fields: what a
//! seat may send now ([`Match::legal_orders`]), which of its orders stand
//! ([`Match::standing_orders`]), whom it knows ([`Match::pack`]), what a viewer may see
//! ([`Match::sight`]) and how a player speaks ([`Match::speech`]).
//!
//! ```
//! use ostrov_engine::{resolve, Game};
//!
//! let game = Game::parse(r#"
//! [[players]]
//! name = "Аня"
//! role = "seer"
//! item = "none"
//! [[players]]
//! name = "Боря"
//! role = "werewolf"
//! item = "none"
//! [[players]]
//! name = "Вика"
//! role = "passenger"
//! item = "none"
//!
//! [[days]]
//! event = "none"
//! orders = [
//!   { by = "Аня", act = "vote", target = "Боря" },
//!   { by = "Вика", act = "vote", target = "Боря" },
//!   { by = "Боря", act = "vote", target = "Аня" },
//! ]
//! "#).unwrap();
//! let report = resolve(&game).unwrap();
//! assert_eq!(report.winner.as_deref(), Some("civilians"));
//! assert_eq!(report.days[0].lynched, ["Боря"]);
//! assert_eq!(report.days[0].tally.get("Боря"), 2);
//! ```

mod act;
mod announce;
mod day;
mod draw;
mod error;
mod event;
mod gamefile;
mod item;
mod lang;
mod legal;
mod locate;
mod log;
mod lynch;
mod midday;
mod name;
mod night;
mod notice;
mod order;
mod palms;
mod play;
mod player;
pub mod plural;
mod reader;
mod reason;
mod record;
mod refusal;
mod report;
mod resolution;
mod role;
mod roster;
pub mod ru;
mod rules;
mod side;
mod sight;
mod skeleton;
mod speech;
mod standing;
mod state;
mod step;
mod vote;
mod win;

pub use act::Act;
pub use announce::Announcement;
pub use day::{NightOrder, Phase, Sent, Today};
pub use error::{GameFileError, ResolveError, UnknownWord};
pub use event::Event;
pub use gamefile::{
    DayEntry, DayPlan, Game, GameFile, OneOrMany, OrderEntry, Parsed, PlayerEntry, RulesEntry, Seat, SeatIndex, Setup,
    UnusedKey, MAX_DAYS, MAX_PLAYERS,
};
pub use item::{Held, Item, ItemKind};
pub use lang::Lang;
pub use legal::{Aim, LegalOrder};
pub use locate::Lines;
pub use log::LogEntry;
pub use name::{fold_name, nearest, SeatName};
pub use notice::{ItemSource, Notice, NoticeKind};
pub use order::{Actor, Clock, Command, Order, Targets};
pub use palms::{palms_violations, BANNED as PALMS_BANNED};
pub use play::{play, Match};
pub use player::{Death, Player, PlayerId, Spent};
pub use reason::{Blocked, Void};
pub use record::{Ballot, BallotKind, Check, DayRecord, ItemUse, Rejected, Snapshot, Stage};
pub use refusal::Refusal;
pub use report::{
    notice_text, resolve, AuthorityReport, BallotReport, CheckReport, DayReport, HostActionReport, ItemUseReport,
    LogReport, NoticeReport, PlayerReport, QuestionReport, RejectedReport, Report, Tally,
};
pub use role::{CheckResult, Role};
pub use roster::{Roster, RosterError, MAX_RECOMMENDED, MIN_PLAYERS};
pub use rules::{Rules, TieRule};
pub use side::Side;
pub use sight::{Sight, Viewer};
pub use skeleton::{clean_line, clean_name, is_invisible, skeleton, NameProblem, MAX_NAME_CHARS};
pub use speech::{Silence, Speech};
pub use standing::{Duty, Standing};
pub use state::State;
pub use step::Step;
pub use win::{winner, Winner};
