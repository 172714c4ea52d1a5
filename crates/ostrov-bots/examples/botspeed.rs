//! Games a second of the sensible bots by player count (issue 32, point 6), wall clock:
//! `games` games (default 3,000, as the server's balance hint plays) with the bench's
//! rosters and the default deck, on every core (`simulate`) and on one thread
//! (`simulate_while`, the balance hint's way).
//!
//! ```text
//! cargo run --release -p ostrov-bots --example botspeed [games] [players,...] [one|all]
//! ```
//!
//! Under `valgrind --tool=callgrind` (instruction counts, repeatable on a busy machine),
//! play few games on one thread: `... --example botspeed 50 40 one`.

use std::time::Instant;

use ostrov_bots::{simulate, simulate_while, BotKind, Config};
use ostrov_engine::{Roster, Rules, Setup};

/// The rosters of `benches/bots.rs`.
fn roster(n: usize) -> String {
    match n {
        8 => "werewolf=2,seer,nurse,witch,sleepwalker,maniac".into(),
        15 => "werewolf=5,seer,nurse,untouchable,authority,witch,sleepwalker,maniac".into(),
        40 => "werewolf=6,seer".into(),
        100 => "werewolf=15,seer=2,nurse=2,witch,sleepwalker,maniac,authority,untouchable".into(),
        n => format!("werewolf={},seer,nurse", (n / 6).max(1)),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u64 = args.first().map_or(3000, |a| a.parse().expect("games: a number"));
    let counts: Vec<usize> = args
        .get(1)
        .map_or("8,15,40,100", String::as_str)
        .split(',')
        .map(|n| n.parse().expect("players: numbers"))
        .collect();
    let how = args.get(2).map_or("both", String::as_str);
    for n in counts {
        let cfg = Config {
            roles: Roster::parse(&roster(n)).unwrap().roles(n).unwrap(),
            rules: Rules::default(),
            deck: Setup::default_deck(n),
            games,
            bots: BotKind::Sensible,
            seed: 1,
        };
        if how != "one" {
            let t = Instant::now();
            let s = simulate(&cfg);
            let e = t.elapsed().as_secs_f64();
            println!(
                "{n:>3} players, {games} games, every core: {e:.3} s = {:.0} games/s (civilians {:.1}%, mean {:.2} days)",
                games as f64 / e,
                s.civilians.rate * 100.0,
                s.mean_days
            );
        }
        if how != "all" {
            let t = Instant::now();
            let s = simulate_while(&cfg, &mut |_| true);
            let e = t.elapsed().as_secs_f64();
            println!(
                "{n:>3} players, {games} games, one thread: {e:.3} s = {:.0} games/s (civilians {:.1}%, mean {:.2} days)",
                games as f64 / e,
                s.civilians.rate * 100.0,
                s.mean_days
            );
        }
    }
}
