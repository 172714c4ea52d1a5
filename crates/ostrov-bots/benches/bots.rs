//! Criterion bench of the sensible bots by player count (issue 32, point 6): whole games
//! at 8, 15, 40 and 100 players, in games a second.
//!
//! The games are played one after another on one thread by `simulate_while`, as the
//! server's balance hint plays them (a worker's match and bots reused from game to game),
//! so the figure does not depend on how many cores are free. `simulate` spreads the same
//! games over every core.
//!
//! The rosters are fixed here (8, 15 and 40 are the recommended table's lines when this
//! bench was written; 100 players scale the 40-seat line up), with the default deck, so
//! that the figures stay comparable when `ostrov suggest --table` changes the table.
//!
//! `cargo bench -p ostrov-bots --bench bots`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use ostrov_bots::{simulate_while, BotKind, Config};
use ostrov_engine::{Roster, Rules, Setup};

fn roster(n: usize) -> &'static str {
    match n {
        8 => "werewolf=2,seer,nurse,witch,sleepwalker,maniac",
        15 => "werewolf=5,seer,nurse,untouchable,authority,witch,sleepwalker,maniac",
        40 => "werewolf=6,seer",
        _ => "werewolf=15,seer=2,nurse=2,witch,sleepwalker,maniac,authority,untouchable",
    }
}

fn config(n: usize, games: u64) -> Config {
    Config {
        roles: Roster::parse(roster(n)).unwrap().roles(n).unwrap(),
        rules: Rules::default(),
        deck: Setup::default_deck(n),
        games,
        bots: BotKind::Sensible,
        seed: 1,
    }
}

fn benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("sensible bots, whole games");
    for (n, games) in [(8usize, 200u64), (15, 100), (40, 20), (100, 4)] {
        let mut cfg = config(n, games);
        g.throughput(Throughput::Elements(games));
        let mut batch = 0u64;
        g.bench_with_input(BenchmarkId::new("players", n), &n, |b, _| {
            b.iter(|| {
                // Other games each batch (another seed), the same number of them.
                batch += 1;
                cfg.seed = batch;
                simulate_while(&cfg, &mut |_| true)
            })
        });
    }
    g.finish();
}

criterion_group!(group, benches);
criterion_main!(group);
