//! # ostrov-bots — scripted players and the balance simulator
//!
//! Bots send orders through the same [`Match`] API a real game uses, and see only a
//! player's private [`View`]: their own role, item and private notices, plus the public
//! day records and the roles the newspaper has revealed.

mod bot;
mod sim;

pub use bot::{Bot, BotKind, RandomBot, SensibleBot, View};
pub use sim::{
    game_seed, has_morning, play_match, play_one, play_with, simulate, simulate_bots, simulate_with, Config, Factory,
    GameResult, Rate, Summary, Survival,
};
