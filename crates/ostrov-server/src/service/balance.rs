//! The balance hint (issue 28, point 12): the simulator's estimate of who wins with a
//! game's settings, made so that no client can make the server burn its cores with it.
//!
//! - **Bounded work**: at most [`games_for`] simulated games (fewer for bigger tables: a
//!   game's work grows with the square of its seats) and at most [`HINT_BUDGET`] of wall
//!   time, on one thread.
//! - **Stopped when the client leaves**: the games run on a blocking thread that checks a
//!   flag between two games; the flag is set when the request's future is dropped (the
//!   client hung up), so a dropped request stops within one game.
//! - **Cached per setup**: the last [`CACHED_HINTS`] estimates by their setup (seats, roles,
//!   deck, house rules: [`crate::results::setup_key`]), least recently used dropped first; a second request is instant.
//! - **Capped**: at most [`HINTS_PER_USER`] estimates of one account run at once and at
//!   most [`Hints::at_once`] in all (half the cores, at least two); past either, 429 in
//!   Russian ([`crate::hints`]).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ostrov_store::Store;

use crate::app::AppState;
use crate::error::ApiError;
use crate::game::Config;
pub use crate::hints::{Hints, CACHED_HINTS, HINTS_PER_USER};

/// The most simulated games of one estimate (a table of 8 or fewer).
pub const BALANCE_GAMES: u64 = 3000;
/// The fewest games a bigger table is given (the wall-time budget may still stop it sooner).
pub const MIN_GAMES: u64 = 20;
/// The longest an estimate runs (wall time); it says how many games it played.
pub const HINT_BUDGET: Duration = Duration::from_secs(3);
/// Games simulated by balance hints in this process (for tests and measurements).
pub static SIMULATED: AtomicU64 = AtomicU64::new(0);
/// A pause after each simulated game, in microseconds: 0 on a server. The tests of the
/// caps and of cancellation set it: the bots play a 100-seat game in milliseconds now
/// (issue 32, point 6), and a hint would be over before a test could hold it open.
pub static PAUSE_PER_GAME_US: AtomicU64 = AtomicU64::new(0);

/// How many games an estimate for `seats` seats plays at most: [`BALANCE_GAMES`] up to 40
/// seats (0.23 s of one core at 40), by the square of the seats fewer for more (a game's
/// cost grows with about the square of the seats), never under [`MIN_GAMES`].
pub fn games_for(seats: usize) -> u64 {
    let s = seats.max(40) as u64;
    (BALANCE_GAMES * 1600 / (s * s)).clamp(MIN_GAMES, BALANCE_GAMES)
}

/// The simulator's settings for `games` games of the roles `roles` with the deck and the
/// house rules of `game` (the settings' placeholder game), the sensible bots and the
/// hint's seed: the balance hint's and `ostrov simulate --db`'s.
pub fn sim_config(roles: Vec<ostrov_engine::Role>, game: &ostrov_engine::Game, games: u64) -> ostrov_bots::Config {
    ostrov_bots::Config {
        roles,
        rules: game.setup.rules.clone(),
        deck: game.setup.deck.clone(),
        games,
        bots: ostrov_bots::BotKind::Sensible,
        seed: 20261204,
    }
}

/// Set when the request's future is dropped: its games stop.
struct Hangup(Arc<AtomicBool>);

impl Drop for Hangup {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The simulator's estimate for the settings `config`, for the account `user`: from the
/// cache, or simulated within the bounds above. A setting the engine does not take is
/// `Invalid` (with its Russian message); a full cap is `TooMany`.
pub async fn estimate<S: Store>(
    st: &AppState<S>,
    user: i64,
    config: &Config,
) -> Result<Arc<ostrov_bots::Summary>, ApiError> {
    let bad = |e: String| ApiError::Invalid("bad_setup", e);
    let roles = config.deal(config.slots).map_err(bad)?;
    let game = config.placeholder().map_err(bad)?;
    // The setup an estimate depends on (not the title, the schedule or the seed): the same
    // key the setups played on the server are counted by, so the two meet on `/stats`.
    let key = crate::results::setup_key(config, &roles);
    if let Some(s) = st.hints.cached(&key) {
        return Ok(s);
    }
    let permit = st.hints.start(user)?;
    let cfg = sim_config(roles, &game, games_for(config.slots));
    let gone = Arc::new(AtomicBool::new(false));
    let hangup = Hangup(gone.clone());
    let work = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let until = Instant::now() + HINT_BUDGET;
        let s = ostrov_bots::simulate_while(&cfg, &mut |played| {
            // At least one game, unless the client has gone.
            let go = !gone.load(Ordering::Relaxed) && (played == 0 || Instant::now() < until);
            if go {
                SIMULATED.fetch_add(1, Ordering::Relaxed);
                let pause = PAUSE_PER_GAME_US.load(Ordering::Relaxed);
                if pause > 0 {
                    std::thread::sleep(std::time::Duration::from_micros(pause));
                }
            }
            go
        });
        (s, gone.load(Ordering::Relaxed))
    });
    let (summary, gone) = work.await.map_err(|e| ApiError::Internal(format!("the balance hint: {e}")))?;
    drop(hangup);
    let summary = Arc::new(summary);
    if !gone {
        st.hints.keep(key, summary.clone());
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bigger_tables_play_fewer_games() {
        assert_eq!(games_for(5), BALANCE_GAMES);
        assert_eq!(games_for(8), BALANCE_GAMES);
        assert_eq!(games_for(40), BALANCE_GAMES);
        assert_eq!(games_for(80), BALANCE_GAMES / 4);
        assert_eq!(games_for(100), 480);
        assert_eq!(games_for(1000), MIN_GAMES);
    }
}
