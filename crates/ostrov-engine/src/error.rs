//! Typed errors: why a game file is not a game, and why a resolution cannot go on.

use thiserror::Error;

/// A word (role, item, event, act …) that is not in the rules.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown {what} \"{word}\" (known: {known})")]
pub struct UnknownWord {
    pub what: &'static str,
    pub word: String,
    pub known: String,
}

/// Why a game file cannot be read as a game. Every message names the place in the file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GameFileError {
    /// The text is not valid TOML or JSON, or a field has the wrong type.
    #[error("{0}")]
    Syntax(String),
    /// Something is wrong at a named place (a player, a day, an order).
    #[error("{place}: {problem}")]
    At { place: String, problem: String },
    /// Something is wrong with the file as a whole.
    #[error("{0}")]
    Whole(String),
}

impl GameFileError {
    pub(crate) fn at(place: impl Into<String>, problem: impl Into<String>) -> Self {
        GameFileError::At { place: place.into(), problem: problem.into() }
    }
}

/// Why a resolution stopped: the file fixes a draw the rules cannot honour, or has
/// orders after the game ended.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ResolveError {
    #[error("day {day}: tie_break \"{name}\" is not among the tied ({tied})")]
    TieBreakNotTied { day: u32, name: String, tied: String },
    #[error("day {day}: `chosen` names {name}, who is not alive")]
    ChosenNotAlive { day: u32, name: String },
    #[error("day {day}: `deal` {problem}")]
    BadDeal { day: u32, problem: String },
    #[error("day {day}: the game already ended on day {ended} ({winner}); a game file may not continue after its end")]
    AfterEnd { day: u32, ended: u32, winner: String },
    #[error("day {day}: the day is not open")]
    NoDay { day: u32 },
}
