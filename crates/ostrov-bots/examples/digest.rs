//! A determinism digest for engine speed work: one hash per configuration (5–40 players,
//! random and sensible bots, with and without items) over simulated summaries and over
//! whole detailed games (every record, log line, player and notice).
//!
//! Run it before and after a change that should not change results; the output must be
//! identical line for line:
//!
//! ```text
//! cargo run --release -p ostrov-bots --example digest > before.txt
//! # ... change the engine ...
//! cargo run --release -p ostrov-bots --example digest > after.txt && diff before.txt after.txt
//! ```
//!
//! The hashes are of `Debug` output, so they change with the Rust version; compare runs
//! made with one toolchain.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use ostrov_bots::{game_seed, play_one, BotKind, Config, View};
use ostrov_engine::{DayPlan, Match, Order, Roster, Rules, Seat, Setup};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn config(n: usize, bots: BotKind, deck: bool) -> Config {
    Config {
        roles: Roster::parse(match n {
            5 => "werewolf=1,seer=1,nurse=1",
            8 => "werewolf=2,seer=1,nurse=1",
            15 => "werewolf=3,halfblood=1,seer=1,nurse=1,witch=1,sleepwalker=1,authority=1",
            24 => "werewolf=5,halfblood=1,hamster=1,seer=2,nurse=1,witch=1,sleepwalker=1,authority=1,maniac=1,untouchable=1",
            _ => "werewolf=9,halfblood=1,hamster=2,seer=2,nurse=2,witch=2,sleepwalker=2,authority=1,maniac=1,untouchable=1",
        })
        .unwrap()
        .roles(n)
        .unwrap(),
        rules: Rules::default(),
        deck: if deck { Setup::default_deck(n) } else { vec![] },
        games: 1,
        bots,
        seed: 3,
    }
}

/// One game with the detail on (every log line written), which the simulator never
/// turns on: its own loop, so that the log's code paths are in the hash too.
fn detailed(cfg: &Config, index: u64) -> String {
    let seed = game_seed(cfg.seed, index);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(7);
    let mut roles = cfg.roles.clone();
    rand::seq::SliceRandom::shuffle(roles.as_mut_slice(), &mut rng);
    let setup = Setup {
        title: None,
        seed,
        rules: cfg.rules.clone(),
        seats: roles.iter().enumerate().map(|(i, r)| Seat::new(format!("p{i}"), *r, None)).collect(),
        deck: cfg.deck.clone(),
        blanks: 0,
        shuffle: false,
    };
    let mut m = Match::new(&setup, true);
    let mut bots: Vec<_> = setup.seats.iter().map(|_| cfg.bots.make()).collect();
    let plan = DayPlan::default();
    let mut cmds = Vec::new();
    while m.winner().is_none() {
        if m.open_day(&plan).is_err() {
            break;
        }
        let living: Vec<_> = m.state().living().collect();
        for &p in &living {
            cmds.clear();
            bots[p.index()].orders(&View::with_living(&m, p, &living), &mut rng, &mut cmds);
            for c in cmds.drain(..) {
                let _ = m.try_submit(&Order::new(p, c));
            }
        }
        if m.close_day().is_err() {
            break;
        }
    }
    format!("{:?}|{:?}|{:?}", m.days, m.state().players(), m.state().notices())
}

fn main() {
    for n in [5usize, 8, 15, 24, 40] {
        for bots in [BotKind::Random, BotKind::Sensible] {
            for deck in [true, false] {
                let mut cfg = config(n, bots, deck);
                let mut h = DefaultHasher::new();
                cfg.games = 3000;
                let s = ostrov_bots::simulate(&cfg);
                format!("{:?}", s).hash(&mut h);
                for i in 0..40 {
                    format!("{:?}", play_one(&cfg, i).survivors).hash(&mut h);
                    detailed(&cfg, i).hash(&mut h);
                }
                cfg.rules.max_days = 3;
                for i in 0..20 {
                    detailed(&cfg, i).hash(&mut h);
                }
                println!("{n} {bots:?} deck={deck} {:016x}", h.finish());
            }
        }
    }
}
