//! Criterion benches: one day of a 15-player game with every item in play, a whole random
//! 15-player game, a whole random 40-player game.
//!
//! The rosters are fixed here (every role in play), not taken from the recommended table,
//! so that the figures stay comparable when `ostrov suggest --table` changes the table.

use criterion::{criterion_group, criterion_main, Criterion};
use ostrov_bots::{play_one, BotKind, Config};
use ostrov_engine::{Roster, Rules, Setup};

/// Every role in play: 15 players, and 40 players (two of most roles).
fn roster(n: usize) -> &'static str {
    match n {
        15 => {
            "werewolf=3,halfblood=1,hamster=1,seer=1,nurse=1,witch=1,sleepwalker=1,authority=1,maniac=1,untouchable=1"
        }
        _ => "werewolf=9,halfblood=1,hamster=2,seer=2,nurse=2,witch=2,sleepwalker=2,authority=1,maniac=1,untouchable=1",
    }
}

fn config(n: usize) -> Config {
    Config {
        roles: Roster::parse(roster(n)).unwrap().roles(n).unwrap(),
        rules: Rules::default(),
        deck: Setup::default_deck(n),
        games: 1,
        bots: BotKind::Random,
        seed: 1,
    }
}

fn benches(c: &mut Criterion) {
    // One day: a game capped at one day (max_days = 1), 15 players, all 14 items dealt.
    let mut one_day = config(15);
    one_day.rules.max_days = 1;
    let mut i = 0u64;
    c.bench_function("one day, 15 players, every item", |b| {
        b.iter(|| {
            i += 1;
            play_one(&one_day, i)
        })
    });
    let g15 = config(15);
    c.bench_function("whole random game, 15 players", |b| {
        b.iter(|| {
            i += 1;
            play_one(&g15, i)
        })
    });
    let g40 = config(40);
    c.bench_function("whole random game, 40 players", |b| {
        b.iter(|| {
            i += 1;
            play_one(&g40, i)
        })
    });
}

criterion_group!(group, benches);
criterion_main!(group);
