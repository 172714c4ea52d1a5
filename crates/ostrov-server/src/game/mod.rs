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
//! - [`state`]: the fold ([`GameState`]) and its small types; [`posts`]: the discussion's
//!   record; [`change`]: a decided event ([`Decision`]); the dispatch of an event to the
//!   modules below is `fold.rs`, which nothing here refers back to;
//! - [`lobby`]: seats and names before the start;
//! - [`table`]: the engine's match: the start, days opening, orders, 13:00, 21:00, fixes;
//! - [`clock`]: deadlines, extensions, pauses and what the scheduler runs when;
//! - [`talk`]: the day's thread and the pack's chat, the host's flags;
//! - [`seats`]: substitutes and the host's call for one;
//! - [`bots`]: seat bots in the lobby, and when each runs its rounds of the day.
//! - [`forum`]: a forum game's topics (the thread off); [`topic`]: a topic's link.

pub mod bots;
pub mod change;
pub mod clock;
pub mod event;
mod fold;
pub mod forum;
pub mod lobby;
pub mod posts;
pub mod seats;
pub mod state;
pub mod table;
pub mod talk;
pub mod topic;

pub use change::Decision;
pub use event::{
    BotSeat, Config, Fix, GameEvent, Post, Room, SeatSpeech, Visibility, MAX_POST, MAX_POSTS_PER_DAY,
    MAX_POSTS_PER_GAME, MAX_SLOTS, MAX_SPECTATOR_POSTS_PER_GAME,
};
pub use posts::Posted;
pub use state::{Audience, ChangeCounts, DayTimes, GameState, Member, PublicNote, Refused, Replacement, Status};
pub use table::resolve_error_ru;
pub use topic::{topic_url, Discussion};

#[cfg(test)]
pub(crate) mod tests;
