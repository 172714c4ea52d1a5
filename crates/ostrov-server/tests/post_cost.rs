//! A post costs the same work however many posts a game holds (issue 27.3), counted, not
//! timed: the allocations made by folding a log of 1,000 and of 10,000 thread posts, and by
//! appending one more post to each. Copying the post list for each post would make the
//! work per post grow with the discussion; counting it grow means a copy came back. The
//! speed itself is benches/posts.rs.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use ostrov_server::game::{
    Config, GameEvent, GameState, Post, Refused, Room, MAX_POSTS_PER_DAY, MAX_POSTS_PER_GAME,
    MAX_SPECTATOR_POSTS_PER_GAME,
};
use ostrov_server::schedule::Schedule;

/// The system allocator, counting the allocations of each thread (tests run in parallel).
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
    static BYTES: Cell<u64> = const { Cell::new(0) };
}

fn count(size: usize) {
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
    let _ = BYTES.try_with(|n| n.set(n.get() + size as u64));
}

// SAFETY: every call goes to the system allocator unchanged; counting allocates nothing.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size);
        // SAFETY: the caller's contract, passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The allocations and bytes allocated by `f` on this thread, and what it returned.
fn counted<T>(f: impl FnOnce() -> T) -> (u64, u64, T) {
    let (a, b) = (ALLOCATIONS.with(Cell::get), BYTES.with(Cell::get));
    let out = f();
    (ALLOCATIONS.with(Cell::get) - a, BYTES.with(Cell::get) - b, out)
}

/// 2026-12-01 22:00 Moscow: the start; day 1 opens with it.
const START: i64 = 1_796_151_600;
const HOST: i64 = 1000;
const PLAYERS: usize = 15;
/// The accounts that write, in turn: the seated players, then spectators (250 posts each
/// at 10,000).
const AUTHORS: usize = 40;

fn name(seat: usize) -> String {
    format!("{}{seat}", ["Агата", "Богдан", "Варвара", "Гордей", "Дарина"][seat % 5])
}

/// A thread post of day 1 by `user` (a seated player below [`PLAYERS`], else a spectator).
fn post_by(user: usize, k: usize) -> (i64, GameEvent) {
    let (name, speaker) =
        if user < PLAYERS { (name(user), "free") } else { (format!("Зритель{user}"), "spectator") };
    let text: String = format!("Сообщение {k}: кто-то слишком уверенно защищал соседа, и это подозрительно. ")
        .repeat(3)
        .chars()
        .take(200)
        .collect();
    let post = Post { user: user as i64, name, room: Room::Thread, speaker: speaker.into(), text, banned: Vec::new() };
    (START + 3600 + k as i64, GameEvent::Posted { day: 1, post })
}

/// The `k`-th post of day 1 (from 0).
fn post(k: usize) -> (i64, GameEvent) {
    post_by(k % AUTHORS, k)
}

/// The log of a started 15-player game with `posts` thread posts on day 1.
fn log(posts: usize) -> Vec<(i64, GameEvent)> {
    let mut log = table(PLAYERS);
    log.extend((0..posts).map(post));
    log
}

/// The log of a started game of `players` players, before any post.
fn table(players: usize) -> Vec<(i64, GameEvent)> {
    let config = Config {
        title: "Остров страха: длинное обсуждение".into(),
        slots: players,
        setup: None,
        deck: None,
        rules: None,
        seed: Some(20261204),
        shuffle: false,
        schedule: Schedule::default(),
        visibility: Default::default(),
        discussion: Default::default(),
    };
    let roles = config.deal(players).unwrap().iter().map(|r| r.id().to_string()).collect();
    let mut log = vec![(START - 7200, GameEvent::Created(config))];
    for seat in 0..players {
        log.push((START - 3600, GameEvent::Joined { user: seat as i64, name: name(seat) }));
    }
    log.push((START, GameEvent::Started { roles, speech: Vec::new() }));
    log
}

/// A short thread post of day 1 by account `user`, as a player or a spectator.
fn short(user: usize, spectator: bool, k: usize) -> (i64, GameEvent) {
    let (name, speaker) = if spectator { (format!("Зритель{user}"), "spectator") } else { (name(user), "free") };
    let post = Post {
        user: user as i64,
        name,
        room: Room::Thread,
        speaker: speaker.into(),
        text: format!("№{k}"),
        banned: vec![],
    };
    (START + 3600 + k as i64, GameEvent::Posted { day: 1, post })
}

/// The refusal's code of applying `(at, ev)`.
fn refused(g: &mut GameState, (at, ev): (i64, GameEvent)) -> &'static str {
    match g.apply(&ev, at) {
        Err(Refused::State(code, _)) => code,
        other => panic!("taken: {other:?}"),
    }
}

#[test]
fn ten_thousand_posts_fold_with_every_number_shown() {
    let g = GameState::fold(1, HOST, &log(10_000)).unwrap();
    assert_eq!(g.posts.len(), 10_000);
    for (i, p) in g.posts.iter().enumerate() {
        assert_eq!(p.shown, i + 1, "post {i}");
        assert_eq!(g.shown_number(i), Some(i + 1));
    }
    assert_eq!(g.posts[9_999].post.speaker, "spectator", "a spectator's post is allowed");
    assert_eq!(g.posts[0].post.speaker, "free");
}

#[test]
fn a_post_costs_the_same_work_at_1000_and_10000_posts() {
    let base = log(0);
    let (small, large) = (log(1_000), log(10_000));
    let (a0, b0, _) = counted(|| GameState::fold(1, HOST, &base).unwrap());
    let (a1, b1, g1) = counted(|| GameState::fold(1, HOST, &small).unwrap());
    let (a10, b10, g10) = counted(|| GameState::fold(1, HOST, &large).unwrap());
    let per = |a: u64, n: u64| (a - a0) as f64 / n as f64;
    let per_byte = |b: u64, n: u64| (b - b0) as f64 / n as f64;
    let (allocs1, allocs10) = (per(a1, 1_000), per(a10, 10_000));
    let (bytes1, bytes10) = (per_byte(b1, 1_000), per_byte(b10, 10_000));
    println!("per post: {allocs1:.2} allocations, {bytes1:.0} bytes at 1,000; {allocs10:.2}, {bytes10:.0} at 10,000");
    // A post is copied once into the record: a few allocations each, whatever the count.
    // (The post list's growth by doubling adds a little per post, more bytes at 10,000.)
    assert!(allocs10 <= allocs1 * 1.1, "allocations per post: {allocs1:.2} at 1,000, {allocs10:.2} at 10,000");
    assert!(bytes10 <= bytes1 * 2.0, "bytes per post: {bytes1:.0} at 1,000, {bytes10:.0} at 10,000");

    // One more post on a copy of each game: the same allocations (the post list may grow
    // once).
    let (at1, next1) = post(1_000);
    let (at10, next10) = post(10_000);
    let mut g1 = g1.clone();
    let mut g10 = g10.clone();
    let (one1, _, r1) = counted(|| g1.apply(&next1, at1));
    let (one10, _, r10) = counted(|| g10.apply(&next10, at10));
    r1.unwrap();
    r10.unwrap();
    assert!(one10 <= one1 + 1, "allocations of one post: {one1} after 1,000, {one10} after 10,000");
    assert_eq!((g1.posts[1_000].shown, g10.posts[10_000].shown), (1_001, 10_001));
}

#[test]
fn a_post_over_the_daily_cap_is_refused() {
    let mut g = GameState::fold(1, HOST, &log(0)).unwrap();
    for k in 0..MAX_POSTS_PER_DAY {
        let (at, ev) = post_by(3, k);
        g.apply(&ev, at).unwrap();
    }
    let (at, ev) = post_by(3, MAX_POSTS_PER_DAY);
    match g.apply(&ev, at) {
        Err(Refused::State(code, _)) => assert_eq!(code, "too_many_posts"),
        other => panic!("the post over the cap: {other:?}"),
    }
    assert_eq!(g.posts.len(), MAX_POSTS_PER_DAY, "a refused post changes nothing");
    // The cap is per account: a spectator still writes.
    let (at, ev) = post_by(20, MAX_POSTS_PER_DAY + 1);
    g.apply(&ev, at).unwrap();
    assert_eq!(g.posts.last().unwrap().shown, MAX_POSTS_PER_DAY + 1);
}

/// Issue 28, point 11: a game's record holds at most MAX_POSTS_PER_GAME posts, of which
/// spectators write at most MAX_SPECTATOR_POSTS_PER_GAME: a flood of spectators cannot
/// close the discussion to the players.
#[test]
fn a_games_record_is_capped_and_spectators_fill_only_part_of_it() {
    let mut g = GameState::fold(1, HOST, &table(40)).unwrap();
    let mut k = 0;
    for _ in 0..MAX_SPECTATOR_POSTS_PER_GAME {
        let (at, ev) = short(1000 + k / MAX_POSTS_PER_DAY, true, k);
        g.apply(&ev, at).unwrap();
        k += 1;
    }
    assert_eq!(refused(&mut g, short(5000, true, k)), "spectators_full");
    // Players write on until the whole record is full.
    while g.posts.len() < MAX_POSTS_PER_GAME {
        let (at, ev) = short(g.posts.len() % 40, false, k);
        g.apply(&ev, at).unwrap_or_else(|e| panic!("post {}: {e:?}", g.posts.len()));
        k += 1;
    }
    assert_eq!(refused(&mut g, short(7, false, k)), "game_full");
    assert_eq!(g.posts.len(), MAX_POSTS_PER_GAME);
}
