//! Criterion benches: one day of a 15-player game with every item in play, a whole random
//! 15-player game, a whole random 40-player game.

use criterion::{criterion_group, criterion_main, Criterion};
use ostrov_bots::{play_one, BotKind, Config};
use ostrov_engine::{Roster, Rules, Setup};

fn config(n: usize) -> Config {
    Config {
        roles: Roster::recommended(n).unwrap().roles(n).unwrap(),
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
