//! Group commit and pipelined games, in-process over a real SQLite file: a batch that
//! fails (injected through the store's test hook) answers every waiting client with 503
//! and leaves every game it touched, and every order pipelined on top of it, equal to the
//! fold of its log; and a restarted server folds games lazily (a finished one not at all)
//! while its scheduler still reaches a running game nobody asked for.

use std::net::SocketAddr;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use ostrov_server::client::Client;
use ostrov_server::local::ManualClock;
use ostrov_server::{fold_stored, spawn_scheduler, AppState, Status};
use ostrov_store::{EventLog, NewEvent, SqliteStore};
use serde_json::{json, Value};

/// 2026-12-01 10:00 Moscow: day 1 open, before the 13:00 stage.
const T0: i64 = 1_796_108_400;
/// Its deadline, 21:00 Moscow.
const DEADLINE: i64 = 1_796_148_000;

struct Running {
    addr: SocketAddr,
    state: Arc<AppState<SqliteStore>>,
    rt: tokio::runtime::Runtime,
}

fn serve(db: &std::path::Path, clock: Arc<ManualClock>) -> Running {
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let path = db.to_str().unwrap().to_string();
    let (addr, state) = rt.block_on(async move {
        let store = SqliteStore::open(&path).await.unwrap();
        let mut state = AppState::load(store, clock).await.unwrap();
        state.signups = ostrov_server::ratelimit::Quota::new(0, 3600);
        let state = Arc::new(state);
        spawn_scheduler(state.clone());
        let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = l.local_addr().unwrap();
        let s = state.clone();
        tokio::spawn(async move { ostrov_server::serve(l, s).await });
        (addr, state)
    });
    Running { addr, state, rt }
}

fn ok(r: std::io::Result<ostrov_server::client::Reply>) -> Value {
    let r = r.expect("an answer");
    assert!(r.status == 200 || r.status == 201, "HTTP {}: {}", r.status, r.body);
    r.json()
}

fn user(addr: SocketAddr, name: &str) -> Client {
    let mut c = Client::new(addr);
    ok(c.post("/api/signup", json!({"name": name, "password": "password-123"})));
    c
}

fn temp_db(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ostrov-group-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("ostrov.db")
}

const NAMES: [&str; 4] = ["Аня", "Боря", "Вера", "Гоша"];

/// A started game of the four players (each of them may be in several games).
fn game(host: &mut Client, players: &mut [Client], title: &str, setup: &str) -> i64 {
    let g = ok(host.post("/api/games", json!({"title": title, "slots": 4, "setup": setup, "seed": 5})));
    let id = g["id"].as_i64().unwrap();
    let invite = g["invite"].as_str().unwrap();
    for p in players.iter_mut() {
        ok(p.post(&format!("/api/invites/{invite}/join"), json!({})));
    }
    ok(host.post(&format!("/api/games/{id}/start"), json!({})));
    id
}

/// The game in memory (after the repair its next use does) equals the fold of its log.
fn assert_memory_is_the_log(run: &Running, id: i64) {
    run.rt.block_on(async {
        let game = run.state.game(id).await.unwrap();
        let mut slot = game.lock().await;
        run.state.repair(&mut slot).await.unwrap();
        let fresh = fold_stored(&run.state.store, id, slot.live.host).await.unwrap().unwrap();
        assert_eq!(slot.live.seq, fresh.live.seq, "game {id}: memory and log end at other seqs");
        assert_eq!(slot.live.file, fresh.live.file, "game {id}: memory is not the fold of the log");
        assert_eq!(slot.requests, fresh.requests, "game {id}: request ids");
    });
}

fn stored_orders(host: &mut Client, id: i64) -> usize {
    let log = ok(host.get(&format!("/api/games/{id}/events")));
    log.as_array().unwrap().iter().filter(|e| e["kind"] == "order").count()
}

/// Sends votes from threads at once; the answers' statuses.
fn votes(addr: SocketAddr, sessions: &[(String, i64, &'static str, String)]) -> Vec<u16> {
    let hs: Vec<_> = sessions
        .iter()
        .cloned()
        .map(|(cookie, game, target, rid)| {
            thread::spawn(move || {
                let mut c = Client { cookie: Some(cookie), ..Client::new(addr) };
                let r = c
                    .post(
                        &format!("/api/games/{game}/orders"),
                        json!({"act": "vote", "target": target, "request_id": rid}),
                    )
                    .unwrap();
                if r.status != 200 {
                    assert_eq!((r.status, r.json()["error"].clone()), (503, json!("not_saved")), "{}", r.body);
                }
                r.status
            })
        })
        .collect();
    hs.into_iter().map(|h| h.join().unwrap()).collect()
}

#[test]
fn a_failed_batch_answers_every_waiting_client_with_503_and_leaves_each_game_its_log() {
    let db = temp_db("failed");
    let clock = Arc::new(ManualClock::new(T0));
    let run = serve(&db, clock);
    let addr = run.addr;
    let mut host = user(addr, "Ведущий");
    let mut players: Vec<Client> = NAMES.iter().map(|n| user(addr, n)).collect();
    let a = game(&mut host, &mut players, "Первая", "werewolf");
    let b = game(&mut host, &mut players, "Вторая", "werewolf");
    let cookies: Vec<String> = players.iter().map(|p| p.cookie.clone().unwrap()).collect();
    let wave = |tag: &str| -> Vec<(String, i64, &'static str, String)> {
        let mut v = Vec::new();
        for (i, c) in cookies.iter().enumerate() {
            for g in [a, b] {
                v.push((c.clone(), g, NAMES[(i + 1) % 4], format!("{tag}-{g}")));
            }
        }
        v
    };

    // The writer holds each batch 300 ms. A lookup (which never writes) occupies it; then
    // the next batch to start is made to fail, and two waves of orders are sent: the first
    // lands in the failing batch, the second is pipelined on top of it (checked against the
    // first wave's state while that waits for its sync).
    let store = run.state.store.clone();
    store.hold_batches(300);
    let lookup = NewEvent {
        at: 0,
        author: None,
        client_request_id: Some("x".into()),
        request_hash: None,
        kind: "x".into(),
        payload: json!(null),
    };
    let primer = store.append(a, -1, lookup);
    thread::sleep(Duration::from_millis(40));
    store.fail_next_batches(1);
    let first = thread::spawn({
        let w = wave("w1");
        move || votes(addr, &w)
    });
    thread::sleep(Duration::from_millis(420));
    let second = votes(addr, &wave("w2"));
    let first = first.join().unwrap();
    store.hold_batches(0);
    run.rt.block_on(primer).unwrap();
    assert_eq!(first, vec![503; 8], "the failed batch: every client gets an error");
    assert_eq!(second, vec![503; 8], "pipelined on the failed batch: every client gets an error");

    for g in [a, b] {
        assert_eq!(stored_orders(&mut host, g), 0, "nothing of a failed batch is in the log");
        assert_memory_is_the_log(&run, g);
    }
    // The games go on: an order is accepted, and a resent request id of the failed wave is
    // a new order now (it was never accepted).
    let v = ok(players[0].post(
        &format!("/api/games/{a}/orders"),
        json!({"act": "vote", "target": "Боря", "request_id": format!("w1-{a}")}),
    ));
    assert_eq!(v["duplicate"], json!(false), "{v}");
    let statuses = votes(addr, &wave("w3"));
    assert_eq!(statuses, vec![200; 8]);
    for g in [a, b] {
        assert_memory_is_the_log(&run, g);
    }
    assert_eq!((stored_orders(&mut host, a), stored_orders(&mut host, b)), (5, 4));
    drop(run.rt);
}

#[test]
fn a_restarted_server_folds_lazily_and_its_scheduler_reaches_every_running_game() {
    let db = temp_db("lazy");
    let clock = Arc::new(ManualClock::new(T0));
    let run = serve(&db, clock.clone());
    let addr = run.addr;
    let mut host = user(addr, "Ведущий");
    let mut players: Vec<Client> = NAMES.iter().map(|n| user(addr, n)).collect();
    let over = game(&mut host, &mut players, "Окончена", "werewolf");
    let running = game(&mut host, &mut players, "Идёт", "werewolf");
    // Everybody votes for the werewolf of the first game and the host resolves the day: over.
    let view = ok(host.get(&format!("/api/games/{over}")));
    let wolf = view["players"].as_array().unwrap().iter().find(|p| p["role"]["id"] == "werewolf").unwrap()["name"]
        .as_str()
        .unwrap()
        .to_string();
    let other = NAMES.iter().find(|n| **n != wolf).unwrap();
    for (i, p) in players.iter_mut().enumerate() {
        let target = if NAMES[i] == wolf { other } else { wolf.as_str() };
        ok(p.post(&format!("/api/games/{over}/orders"), json!({"act": "vote", "target": target})));
    }
    ok(host.post(&format!("/api/games/{over}/host/resolve"), json!({})));
    assert_eq!(ok(host.get(&format!("/api/games/{over}")))["status"], "over");
    drop(run.rt);

    let run = serve(&db, clock.clone());
    let mut host = Client { addr: run.addr, ..host };
    // The list shows the finished game from its stored summary, without folding it.
    let until = Instant::now() + Duration::from_secs(5);
    while run.state.games.folded() < 1 {
        assert!(Instant::now() < until, "the scheduler's first tick folds the running game");
        thread::sleep(Duration::from_millis(20));
    }
    let list = ok(host.get("/api/games"));
    let listed = list["games"].as_array().unwrap().iter().find(|g| g["id"] == over).unwrap().clone();
    assert_eq!(listed["status"], "over");
    assert_eq!(listed["joined"], 4);
    assert_eq!(listed["yours"], true);
    assert_eq!(run.state.games.folded(), 1, "only the running game is folded");
    // Past the deadline the scheduler resolves the running game, which nobody asked for.
    clock.set(DEADLINE + 61);
    let until = Instant::now() + Duration::from_secs(5);
    loop {
        let resolved = run.rt.block_on(async {
            let g = run.state.game(running).await.unwrap();
            let slot = g.lock().await;
            slot.live.days.first().is_some_and(|d| d.resolved_at.is_some())
        });
        if resolved {
            break;
        }
        assert!(Instant::now() < until, "the scheduler did not reach the running game");
        thread::sleep(Duration::from_millis(50));
    }
    // Opening the finished game folds it on demand.
    let v = ok(host.get(&format!("/api/games/{over}")));
    assert_eq!(v["status"], "over");
    assert_eq!(run.state.games.folded(), 2);
    let status = run.rt.block_on(async { run.state.game(over).await.unwrap().lock().await.live.status });
    assert_eq!(status, Status::Over);
    drop(run.rt);
}
