//! Per-game ownership over PostgreSQL (issue 34), with three `ostrov serve` processes and
//! a lease of one second: 30 players vote in one game through any node (a node forwards
//! to the game's owner) while
//!
//! - the owner is killed with SIGKILL five times over (each time another node takes the
//!   game within a few seconds and the killed one is started again),
//! - the owner is drained with SIGTERM (its lease is given up: another node takes the game
//!   at once, without waiting for the lease to run out),
//! - the owner is paused with SIGSTOP past its lease while orders are under way, another
//!   node takes the game (waited for: the other nodes stop forwarding to the silent
//!   owner and ask the database again), and the paused one is resumed (the fence: nothing
//!   it had queued is written under its old epoch; the epochs in the log never go down)
//!   and writes again (a game of its own),
//!
//! and the shared clock passes the 13:00 stage and the 21:00 deadline. Every order answered
//! "accepted" is in the log exactly once as answered; the stage and the resolution are
//! there once. Runs when `OSTROV_TEST_PG` names a PostgreSQL server (it says so in one line
//! and passes otherwise).

mod support;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicIsize, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::thread;
use std::time::{Duration, Instant};

use ostrov_server::client::Client;
use ostrov_store::testdb::TestDb;
use ostrov_store::{Lease, PgStore};
use serde_json::json;
use support::{join_all, ok, set_clock, Node, DEADLINE, T0};

const PLAYERS: usize = 30;
const LEASE: &[&str] = &["--lease-seconds", "1"];

fn node(db: &str, clock: &Path) -> Node {
    Node::start_args(Path::new(env!("CARGO_BIN_EXE_ostrov")), db, clock, LEASE)
}

/// Runs `f` on the store in a runtime of its own.
fn db<T: Send + 'static>(
    url: &str,
    f: impl FnOnce(PgStore) -> std::pin::Pin<Box<dyn std::future::Future<Output = T> + Send>> + Send + 'static,
) -> T {
    let url = url.to_string();
    thread::spawn(move || {
        tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async move {
            let store = PgStore::open(&url).await.expect("the test database opens");
            let out = f(store.clone()).await;
            store.pool().close().await;
            out
        })
    })
    .join()
    .unwrap()
}

fn lease(url: &str, game: i64) -> Option<Lease> {
    db(url, move |s| Box::pin(async move { s.lease(game).await.expect("the lease reads") }))
}

/// Which of `nodes` holds the game's live lease.
fn owner(url: &str, game: i64, nodes: &[Node]) -> Option<usize> {
    let l = lease(url, game).filter(|l| l.live)?;
    nodes.iter().position(|n| n.addr.to_string() == l.addr)
}

/// Waits until one of the nodes holds the game's lease (a vote through `c` makes one take
/// it): its index.
fn wait_owner(url: &str, game: i64, nodes: &[Node], c: &mut Client) -> usize {
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(i) = owner(url, game, nodes) {
            return i;
        }
        assert!(Instant::now() < until, "no node owns the game");
        let _ = c.get(&format!("/api/games/{game}"));
        thread::sleep(Duration::from_millis(50));
    }
}

struct Load {
    accepted: Arc<Mutex<HashMap<String, String>>>,
    stop: Arc<AtomicBool>,
    /// New orders the voters may still send (`progress` hands them out), so that the
    /// voters send what the test waits for and no more: a player may send at most 200
    /// orders a day, and a slow machine must not bring a voter near that.
    tokens: Arc<AtomicIsize>,
    /// Past the deadline: every voter sends one more order, to be told the day is over.
    after: Arc<AtomicBool>,
    /// Orders answered "accepted", in all.
    answered: Arc<AtomicUsize>,
    /// Answers 503 (not saved; the client sends again).
    unavailable: Arc<AtomicUsize>,
    late: Arc<AtomicUsize>,
    voters: Vec<thread::JoinHandle<()>>,
}

/// The voters: each sends a new order (with a request id) when the last is answered and
/// a token is free (or, past the deadline, at once), to node `i % 3`; an order not answered (its node is gone) or answered 503 is sent
/// again, same request id, to the next node.
fn load(players: Vec<(usize, Client, i64)>, names: &[String], game: i64, addrs: &Arc<RwLock<Vec<SocketAddr>>>) -> Load {
    let accepted: Arc<Mutex<HashMap<String, String>>> = Arc::default();
    let stop = Arc::new(AtomicBool::new(false));
    let tokens = Arc::new(AtomicIsize::new(0));
    let after = Arc::new(AtomicBool::new(false));
    let (answered, unavailable, late) =
        (Arc::<AtomicUsize>::default(), Arc::<AtomicUsize>::default(), Arc::<AtomicUsize>::default());
    let voters = players
        .into_iter()
        .map(|(i, mut c, uid)| {
            let (accepted, stop, tokens, after, answered, unavailable, late, names, addrs) = (
                accepted.clone(),
                stop.clone(),
                tokens.clone(),
                after.clone(),
                answered.clone(),
                unavailable.clone(),
                late.clone(),
                names.to_vec(),
                addrs.clone(),
            );
            thread::spawn(move || {
                let mut node = i % 3;
                let mut sent = 0usize;
                while !stop.load(Ordering::Relaxed) {
                    if !after.load(Ordering::Relaxed) && tokens.fetch_sub(1, Ordering::Relaxed) <= 0 {
                        tokens.fetch_add(1, Ordering::Relaxed);
                        thread::sleep(Duration::from_millis(2));
                        continue;
                    }
                    let rid = format!("v{i}-{sent}");
                    let target = names[(i + 1 + sent % (PLAYERS - 1)) % PLAYERS].clone();
                    sent += 1;
                    let body = json!({"act": "vote", "target": target, "request_id": rid});
                    let reply = loop {
                        c.addr = addrs.read().unwrap()[node % 3];
                        match c.post(&format!("/api/games/{game}/orders"), body.clone()) {
                            Ok(r) if r.status == 503 => {
                                unavailable.fetch_add(1, Ordering::Relaxed);
                                node += 1;
                                thread::sleep(Duration::from_millis(20));
                            }
                            Ok(r) if r.status != 0 => break r,
                            _ => {
                                node += 1;
                                thread::sleep(Duration::from_millis(20));
                            }
                        }
                        if stop.load(Ordering::Relaxed) {
                            return;
                        }
                    };
                    let v = reply.json();
                    if reply.status == 422 && ["late", "game_over"].contains(&v["error"].as_str().unwrap_or("")) {
                        late.fetch_add(1, Ordering::Relaxed);
                        return;
                    }
                    assert_eq!(reply.status, 200, "{}", reply.body);
                    assert_eq!(v["accepted"], json!(true), "{}", reply.body);
                    answered.fetch_add(1, Ordering::Relaxed);
                    accepted.lock().unwrap().insert(format!("user{uid}:{rid}"), v["order"].to_string());
                }
            })
        })
        .collect();
    Load { accepted, stop, tokens, after, answered, unavailable, late, voters }
}

/// Hands the voters `n` more orders and waits until `n` more are answered "accepted": how
/// long that took.
fn progress(l: &Load, n: usize) -> Duration {
    let (from, t) = (l.answered.load(Ordering::Relaxed), Instant::now());
    l.tokens.fetch_add(n as isize, Ordering::Relaxed);
    while l.answered.load(Ordering::Relaxed) < from + n {
        assert!(t.elapsed() < Duration::from_secs(15), "no order accepted for 15 s");
        thread::sleep(Duration::from_millis(5));
    }
    t.elapsed()
}

#[test]
fn a_games_owner_moves_on_sigkill_and_on_a_drain_and_a_paused_owner_is_fenced() {
    let Some(pg) = TestDb::create("owners") else {
        ostrov_store::testdb::skipped_once();
        return;
    };
    let started = Instant::now();
    let dir = support::temp_dir("owners");
    let clock = dir.join("clock");
    set_clock(&clock, T0);
    let mut nodes: Vec<Node> = (0..3).map(|_| node(&pg.url, &clock)).collect();
    let addrs = Arc::new(RwLock::new(nodes.iter().map(|n| n.addr).collect::<Vec<_>>()));
    let addr_of = |i: usize| addrs.read().unwrap()[i % 3];

    let mut host = Client::new(addr_of(0));
    ok(host.post("/api/signup", json!({"name": "Ведущий", "password": "password-123"})), "signup");
    let g = ok(
        host.post(
            "/api/games",
            json!({"title": "Владельцы", "slots": PLAYERS, "setup": "werewolf=4,seer,nurse", "seed": 3}),
        ),
        "create",
    );
    let game = g["id"].as_i64().unwrap();
    let invite = g["invite"].as_str().unwrap().to_string();
    let names: Vec<String> = (0..PLAYERS).map(|i| format!("Игрок{i:02}")).collect();
    let players: Vec<(usize, Client, i64)> =
        join_all(&names, &invite, addr_of).into_iter().map(|(i, c, id)| (i, c.keep_alive(), id)).collect();
    ok(host.post(&format!("/api/games/{game}/start"), json!({})), "start");
    let l = load(players, &names, game, &addrs);
    progress(&l, 200);

    // Five SIGKILLs of the owner under load: another node takes the game over.
    let mut takeovers = Vec::new();
    for round in 0..5 {
        let o = wait_owner(&pg.url, game, &nodes, &mut host);
        let epoch = lease(&pg.url, game).unwrap().epoch;
        let t = Instant::now();
        nodes[o].signal(libc::SIGKILL);
        progress(&l, 50);
        let back = t.elapsed();
        let l2 = lease(&pg.url, game).unwrap();
        assert!(l2.epoch > epoch, "round {round}: the lease moved on from epoch {epoch}: {l2:?}");
        assert_ne!(l2.addr, nodes[o].addr.to_string(), "round {round}: another node holds the game");
        takeovers.push(back);
        // The killed node is started again (as a supervisor would); its players go on.
        let fresh = node(&pg.url, &clock);
        addrs.write().unwrap()[o] = fresh.addr;
        drop(std::mem::replace(&mut nodes[o], fresh));
        if round == 2 {
            // 13:00 passes during the rounds.
            set_clock(&clock, T0 + 3 * 3600 + 120);
        }
        progress(&l, 100);
    }
    eprintln!("taken over after a SIGKILL in {takeovers:?}");
    assert!(takeovers.iter().all(|t| *t < Duration::from_secs(5)), "the game answers again within 5 s: {takeovers:?}");

    // A drain (SIGTERM): the lease is given up, the next node takes the game at once.
    let o = wait_owner(&pg.url, game, &nodes, &mut host);
    let epoch = lease(&pg.url, game).unwrap().epoch;
    let drained = nodes.remove(o);
    let t = Instant::now();
    let gone = drained.addr.to_string();
    assert!(drained.terminate(), "a drained node ends well");
    let released = t.elapsed();
    let fresh = node(&pg.url, &clock);
    addrs.write().unwrap()[o] = fresh.addr;
    nodes.insert(o, fresh);
    progress(&l, 50);
    let l2 = lease(&pg.url, game).unwrap();
    assert!(l2.epoch > epoch && l2.addr != gone, "the drained node's game moved: {l2:?}");
    eprintln!("drained in {released:?}");

    // SIGSTOP past the lease, under load, then SIGCONT: the fence.
    let o = wait_owner(&pg.url, game, &nodes, &mut host);
    let epoch = lease(&pg.url, game).unwrap().epoch;
    let paused = nodes[o].addr.to_string();
    nodes[o].signal(libc::SIGSTOP);
    // Orders under way while it sleeps: those sent to it wait in its sockets; the other
    // nodes forward theirs to it, get no answer within its lease time, answer 503, ask the
    // store again and take the game over once its lease has run out. A voter answered 503
    // goes to another node than the sleeping one (as nginx's `max_fails` takes a node
    // that times out out of the `upstream`).
    let other = addr_of(o + 1);
    addrs.write().unwrap()[o] = other;
    l.tokens.fetch_add(60, Ordering::Relaxed);
    let t = Instant::now();
    let taken = loop {
        let now = lease(&pg.url, game).unwrap();
        if now.epoch > epoch && now.addr != paused {
            break now;
        }
        assert!(t.elapsed() < Duration::from_secs(15), "no node took the game of the paused owner: {now:?}");
        thread::sleep(Duration::from_millis(50));
    };
    eprintln!("taken from the paused owner in {:?}: epoch {epoch} then {taken:?}", t.elapsed());
    nodes[o].signal(libc::SIGCONT);
    addrs.write().unwrap()[o] = nodes[o].addr;
    progress(&l, 100);
    eprintln!("after the pause: {:?}", lease(&pg.url, game).unwrap());
    // The resumed node writes again (its sessions that were idle in a transaction while it
    // slept were ended by the database; the pool connects anew): it stores a new game and
    // takes that game's lease for a join.
    let mut host_o = Client { addr: nodes[o].addr, ..host.clone() };
    let g2 = ok(
        host_o.post("/api/games", json!({"title": "После паузы", "slots": 5, "setup": "werewolf,seer", "seed": 4})),
        "a game created on the resumed node",
    );
    let (game2, invite2) = (g2["id"].as_i64().unwrap(), g2["invite"].as_str().unwrap().to_string());
    let mut joiner = Client::new(nodes[o].addr);
    ok(joiner.post("/api/signup", json!({"name": "Новенький", "password": "password-123"})), "signup");
    ok(joiner.post(&format!("/api/invites/{invite2}/join"), json!({})), "join on the resumed node");
    let l3 = lease(&pg.url, game2).expect("the new game is leased");
    assert_eq!((l3.addr, l3.live), (paused.clone(), true), "the resumed node owns the game it wrote");
    // The deadline passes; every voter is told the day is over.
    set_clock(&clock, DEADLINE + 90);
    l.after.store(true, Ordering::Relaxed);
    let until = Instant::now() + Duration::from_secs(20);
    while l.late.load(Ordering::Relaxed) < PLAYERS && Instant::now() < until {
        thread::sleep(Duration::from_millis(50));
    }
    l.stop.store(true, Ordering::Relaxed);
    for v in l.voters {
        v.join().expect("a voter");
    }
    let accepted = l.accepted.lock().unwrap().clone();
    eprintln!(
        "{} orders accepted, {} answers 503 (sent again), {} voters told the day is over",
        accepted.len(),
        l.unavailable.load(Ordering::Relaxed),
        l.late.load(Ordering::Relaxed)
    );
    assert_eq!(l.late.load(Ordering::Relaxed), PLAYERS, "every voter was told the day is over");

    // Every accepted order once, as answered; the stage and the resolution once.
    host.addr = addr_of(0);
    let log = ok(host.get(&format!("/api/games/{game}/events")), "events");
    let log = log.as_array().unwrap();
    let mut stored = HashMap::new();
    for (i, e) in log.iter().enumerate() {
        assert_eq!(e["seq"].as_i64(), Some(i as i64 + 1), "the log's seqs run 1, 2, 3 …");
        if let Some(r) = e["request_id"].as_str() {
            assert!(stored.insert(r.to_string(), e["payload"]["order"].to_string()).is_none(), "{r} twice in the log");
        }
    }
    for (rid, order) in &accepted {
        assert_eq!(stored.get(rid), Some(order), "accepted {rid} ({order}) is not in the log as answered");
    }
    let count = |kind: &str| log.iter().filter(|e| e["kind"] == kind && e["payload"]["day"] == 1).count();
    assert_eq!(count("midday"), 1, "the 13:00 stage of day 1, once");
    assert_eq!(count("resolved"), 1, "the resolution of day 1, once");
    // The fence: no entry was written under an epoch older than one before it.
    let url = pg.url.clone();
    let epochs = db(&url, move |s| Box::pin(async move { s.epochs(game).await.expect("the epochs read") }));
    let mut high = 0;
    for (i, e) in epochs.iter().enumerate() {
        if let Some(e) = *e {
            assert!(e >= high, "entry {} was written under epoch {e}, after epoch {high}", i + 1);
            high = e;
        }
    }
    assert!(high >= 7, "the lease moved at least six times: epoch {high}");
    drop(nodes);
    drop(pg);
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("the ownership test took {:?}", started.elapsed());
}
