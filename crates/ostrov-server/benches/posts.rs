//! Criterion benches: a post costs the same however many posts a game holds (issue 27.3).
//!
//! A started 15-player game whose day 1 thread holds 1,000 and then 10,000 posts, written
//! in turn by 40 accounts (the 15 seated players and 25 spectators: 250 posts each at
//! 10,000, under the cap of 300 a day). Two measures, for both sizes:
//!
//! - `fold`: folding the whole log ([`GameState::fold`]), reported per post; `start` is the
//!   same log with no post, the fixed cost inside each fold (the start runs the engine), so
//!   a post's share of a fold is `(fold - start) / n`;
//! - `append`: applying [`MORE`] more posts to the folded game ([`GameState::apply`]), on
//!   a copy made outside the timed loop, reported per post. A copy's post list has no room
//!   to spare (a live game's grows by doubling), so the copy reserves room first: otherwise
//!   the timed push would copy the whole list, a cost of the bench's copy, not of the game.
//!   Appending a hundred rather than one spreads the first touch of the fresh memory (a
//!   page fault every 4 KiB, about 27 posts) as a live game does; one post alone measures
//!   mostly that fault.
//!
//! Both report elements per second: equal figures at 1,000 and 10,000 mean a post's cost
//! does not grow with the discussion.
//!
//! ```text
//! cargo bench -p ostrov-server --bench posts -- --warm-up-time 1 --measurement-time 3
//! ```

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use ostrov_server::game::{Config, GameEvent, GameState, Post, Room};
use ostrov_server::schedule::Schedule;

/// 2026-12-01 22:00 Moscow: the start; day 1 opens with it.
const START: i64 = 1_796_151_600;
const HOST: i64 = 1000;
const PLAYERS: usize = 15;
/// The accounts that write, in turn: the seated players, then spectators.
const AUTHORS: usize = 40;
const SIZES: [usize; 2] = [1_000, 10_000];
/// The posts `append` adds to the folded game.
const MORE: usize = 100;

fn name(seat: usize) -> String {
    format!("{}{seat}", ["Агата", "Богдан", "Варвара", "Гордей", "Дарина"][seat % 5])
}

/// The `k`-th post of day 1 (from 0), 200 characters.
fn post(k: usize) -> (i64, GameEvent) {
    let user = k % AUTHORS;
    let (name, speaker) =
        if user < PLAYERS { (name(user), "free") } else { (format!("Зритель{user}"), "spectator") };
    let text: String =
        format!("Сообщение {k}: кто-то слишком уверенно защищал соседа по списку, и это подозрительно. ")
            .repeat(3)
            .chars()
            .take(200)
            .collect();
    let post = Post { user: user as i64, name, room: Room::Thread, speaker: speaker.into(), text, banned: Vec::new() };
    (START + 3600 + k as i64, GameEvent::Posted { day: 1, post })
}

/// The log of a started game with `posts` thread posts on day 1.
fn log(posts: usize) -> Vec<(i64, GameEvent)> {
    let config = Config {
        title: "Остров страха: длинное обсуждение".into(),
        slots: PLAYERS,
        setup: None,
        deck: None,
        rules: None,
        seed: Some(20261204),
        shuffle: false,
        schedule: Schedule::default(),
        visibility: Default::default(),
        discussion: Default::default(),
    };
    let roles = config.deal(PLAYERS).unwrap().iter().map(|r| r.id().to_string()).collect();
    let mut log = vec![(START - 7200, GameEvent::Created(config))];
    for seat in 0..PLAYERS {
        log.push((START - 3600, GameEvent::Joined { user: seat as i64, name: name(seat) }));
    }
    log.push((START, GameEvent::Started { roles, speech: Vec::new() }));
    log.extend((0..posts).map(post));
    log
}

fn benches(c: &mut Criterion) {
    let empty = log(0);
    c.bench_function("start", |b| b.iter(|| GameState::fold(1, HOST, &empty).unwrap()));

    let mut fold = c.benchmark_group("fold");
    for n in SIZES {
        let log = log(n);
        fold.throughput(Throughput::Elements(n as u64));
        fold.bench_with_input(BenchmarkId::new("posts", n), &log, |b, log| {
            b.iter(|| GameState::fold(1, HOST, log).unwrap())
        });
    }
    fold.finish();

    let mut append = c.benchmark_group("append");
    for n in SIZES {
        let game = GameState::fold(1, HOST, &log(n)).unwrap();
        assert_eq!(game.posts.len(), n);
        let more: Vec<(i64, GameEvent)> = (n..n + MORE).map(post).collect();
        append.throughput(Throughput::Elements(MORE as u64));
        append.bench_with_input(BenchmarkId::new("posts after", n), &game, |b, game| {
            b.iter_batched(
                || {
                    let mut g = game.clone();
                    g.posts.reserve(MORE);
                    g
                },
                |mut g| {
                    for (at, ev) in &more {
                        g.apply(ev, *at).unwrap();
                    }
                    g
                },
                BatchSize::LargeInput,
            )
        });
    }
    append.finish();
}

criterion_group!(group, benches);
criterion_main!(group);
