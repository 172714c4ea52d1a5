//! The game file (GAME_FILE.md): the unchecked text form ([`GameFile`], `file.rs`), and
//! its one-time check into a [`Game`] (`game.rs`): the [`Setup`] fixed before day 1
//! (`setup.rs`) and each day's orders checked against its seats (`order.rs`).
//!
//! ```
//! use ostrov_engine::{Game, GameFile};
//! let text = r#"
//! [[players]]
//! name = "Аня"
//! role = "Ясновидящий"
//! item = "none"
//! [[players]]
//! name = "Боря"
//! role = "werewolf"
//! item = "none"
//! "#;
//! let game = Game::from_file(&GameFile::from_toml(text).unwrap()).unwrap();
//! assert_eq!(game.setup.seats.len(), 2);
//! ```

mod file;
mod game;
mod order;
mod setup;
#[cfg(test)]
mod tests;

pub use file::{DayEntry, GameFile, OneOrMany, OrderEntry, PlayerEntry, RulesEntry};
pub use game::{DayPlan, Game, Parsed, MAX_DAYS, MAX_PLAYERS};
pub use order::UnusedKey;
pub use setup::{Seat, SeatIndex, Setup};
