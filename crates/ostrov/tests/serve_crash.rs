//! `ostrov serve` survives SIGKILL under group commit: the real server process on a SQLite
//! file (and, when `OSTROV_TEST_PG` names a PostgreSQL server, on a PostgreSQL database of
//! its own: the same run, the same assertions), 100 players voting from 100 threads (their orders pipelined and written in
//! batches), killed mid-load three times and restarted on the same database. Every order
//! answered "accepted" is in the log exactly once as answered, an order that got no answer
//! is there at most once, a refused order is never there, a resent request id answers the
//! same order without a new event, and the day's resolution (the clock moved past
//! the deadline, the server killed and restarted around it) happens exactly once. And the
//! process runs without transparent huge pages, whose zeroing stalled a thread for
//! milliseconds under that load.

mod support;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use ostrov_server::client::Client;
use ostrov_store::testdb::TestDb;
use serde_json::{json, Value};
use support::{ok, set_clock, temp_dir, Node, DEADLINE, T0};

const PLAYERS: usize = 100;

/// The most new orders one voter sends in a round: three rounds and the one fresh order
/// after them stay under the 200 a player may send in a day, however fast the machine.
const PER_ROUND: u32 = 60;

/// Orders accepted (in all, over the rounds so far) before each round's kill: a third of
/// what the voters could send, so that they are still sending when the server is killed.
const KILL_AT: [usize; 3] = [2_000, 3_000, 4_000];

fn signup(addr: SocketAddr, name: &str) -> (Client, i64) {
    let mut c = Client::new(addr);
    let v = ok(c.post("/api/signup", json!({"name": name, "password": "password-123"})), "signup");
    (c, v["id"].as_i64().expect("user id"))
}

fn events(host: &mut Client, game: i64) -> Vec<Value> {
    let v = ok(host.get(&format!("/api/games/{game}/events")), "events");
    v.as_array().expect("an array").clone()
}

/// The log's request ids: each must be there once; the stored order (as JSON) by request id.
fn request_orders(log: &[Value]) -> HashMap<String, String> {
    let mut out = HashMap::new();
    for (i, e) in log.iter().enumerate() {
        assert_eq!(e["seq"].as_i64(), Some(i as i64 + 1), "the log's seqs run 1, 2, 3 …");
        if let Some(r) = e["request_id"].as_str() {
            let order = e["payload"]["order"].to_string();
            assert!(out.insert(r.to_string(), order).is_none(), "request id {r} twice in the log");
        }
    }
    out
}

#[test]
#[cfg(target_os = "linux")]
fn the_server_process_runs_without_transparent_huge_pages() {
    let dir = temp_dir("serve-pages");
    let clock = dir.join("clock");
    set_clock(&clock, T0);
    let server = Node::start(dir.join("ostrov.db"), &clock);
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.pid())).expect("the process's status");
    server.kill();
    std::fs::remove_dir_all(&dir).unwrap();
    let line =
        status.lines().find(|l| l.starts_with("THP_enabled:")).expect("a THP_enabled line (Linux 5.0 and later)");
    assert_eq!(line.split_whitespace().nth(1), Some("0"), "{line}");
}

#[test]
fn accepted_orders_and_the_resolution_survive_sigkill() {
    let dir = temp_dir("serve-crash");
    let db = dir.join("ostrov.db");
    crash_test(db.to_str().expect("a UTF-8 path"), &dir);
}

#[test]
fn accepted_orders_and_the_resolution_survive_sigkill_on_postgres() {
    let Some(pg) = TestDb::create("crash") else {
        ostrov_store::testdb::skipped_once();
        return;
    };
    crash_test(&pg.url, &temp_dir("serve-crash"));
    drop(pg);
}

/// The crash test on the database `db` (a SQLite file or a PostgreSQL URL); `dir` holds the
/// clock file and is removed at the end.
fn crash_test(db: &str, dir: &Path) {
    let started = Instant::now();
    let db = db.to_string();
    let clock = dir.join("clock");
    set_clock(&clock, T0);
    let server = Node::start(&db, &clock);
    let addr = server.addr;

    let (mut host, _) = signup(addr, "Ведущий");
    let g = ok(
        host.post(
            "/api/games",
            json!({"title": "Краш-тест", "slots": PLAYERS, "setup": "werewolf=8,seer,nurse", "seed": 7}),
        ),
        "create",
    );
    let game = g["id"].as_i64().unwrap();
    let invite = g["invite"].as_str().unwrap().to_string();

    // Sign-ups (argon2) and joins, in parallel.
    let names: Vec<String> = (0..PLAYERS).map(|i| format!("Игрок{i:02}")).collect();
    let players: Vec<(Client, i64)> = thread::scope(|s| {
        let hs: Vec<_> = names
            .iter()
            .map(|n| {
                let invite = &invite;
                s.spawn(move || {
                    let (mut c, uid) = signup(addr, n);
                    ok(c.post(&format!("/api/invites/{invite}/join"), json!({})), "join");
                    (c, uid)
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    ok(host.post(&format!("/api/games/{game}/start"), json!({})), "start");

    // 100 voters until each kill (three rounds); every accepted request id (as stored)
    // with its order as answered, and every refused one (a vote for nobody, every seventh order).
    let accepted: Arc<Mutex<HashMap<String, String>>> = Arc::default();
    let refusals: Arc<Mutex<Vec<String>>> = Arc::default();
    // Each accepted request's body, to be resent as it was.
    let bodies: Arc<Mutex<HashMap<String, serde_json::Value>>> = Arc::default();
    let mut server = server;
    let mut players = players;
    let mut log = Vec::new();
    for (round, kill_at) in KILL_AT.into_iter().enumerate() {
        let stop = Arc::new(AtomicBool::new(false));
        // Resends answered so far this round: the first round is killed only once some
        // resend was answered, so that round 0 always checks one.
        let answered_resends = Arc::new(AtomicU32::new(0));
        let voters: Vec<_> = players
            .iter()
            .cloned()
            .enumerate()
            .map(|(i, (mut c, uid))| {
                let (accepted, refusals, bodies, stop, names, answered_resends) = (
                    accepted.clone(),
                    refusals.clone(),
                    bodies.clone(),
                    stop.clone(),
                    names.clone(),
                    answered_resends.clone(),
                );
                thread::spawn(move || {
                    let (mut sent, mut resent, mut refused) = (0u32, 0u32, 0u32);
                    // The last new request: its id, its order as answered and its target (a resend repeats the
                    // body: the same id with another body is refused as `request_id_reused`).
                    let mut last: Option<(String, String, String)> = None;
                    let mut new = 0u32;
                    while !stop.load(Ordering::Relaxed) && new < PER_ROUND {
                        let (rid, resend, again) = match &last {
                            Some((r, _, t)) if sent % 5 == 4 => (r.clone(), true, Some(t.clone())),
                            _ => (format!("v{round}-{i}-{sent}"), false, None),
                        };
                        let bad = !resend && sent % 7 == 6;
                        sent += 1;
                        if !resend {
                            new += 1;
                        }
                        let target = match &again {
                            Some(t) => t.as_str(),
                            None if bad => "Никто",
                            None => &names[(i + 1 + sent as usize % (PLAYERS - 1)) % PLAYERS],
                        };
                        let body = json!({"act": "vote", "target": target, "request_id": rid});
                        let Ok(r) = c.post(&format!("/api/games/{game}/orders"), body.clone()) else { break };
                        if r.status == 0 {
                            break; // the connection died mid-answer
                        }
                        let v = r.json();
                        if bad {
                            assert_eq!(r.status, 422, "a vote for nobody is refused: {}", r.body);
                            refusals.lock().unwrap().push(format!("user{uid}:{rid}"));
                            refused += 1;
                            continue;
                        }
                        if r.status != 200 || v["accepted"] != json!(true) {
                            assert!(r.status >= 400, "an odd answer: {} {}", r.status, r.body);
                            refused += 1;
                            continue;
                        }
                        // No reply counts the log (issue 28): an order is known by what was stored.
                        assert!(v.get("seq").is_none(), "{}", r.body);
                        let order = v["order"].to_string();
                        if resend {
                            resent += 1;
                            answered_resends.fetch_add(1, Ordering::Relaxed);
                            assert_eq!(v["duplicate"], json!(true), "a resend is a duplicate: {}", r.body);
                            assert_eq!(Some(&order), last.as_ref().map(|l| &l.1), "a resend answers the same order");
                        } else {
                            assert_eq!(v["duplicate"], json!(false), "a new request id is not a duplicate: {}", r.body);
                            accepted.lock().unwrap().insert(format!("user{uid}:{rid}"), order.clone());
                            bodies.lock().unwrap().insert(format!("user{uid}:{rid}"), body);
                            last = Some((rid, order, target.to_string()));
                        }
                    }
                    (sent, resent, refused)
                })
            })
            .collect();
        // Killed once enough orders went through (and, in the first round, some resend was
        // answered), not after a fixed time: a fast machine would reach the day's limit of
        // orders, a slow one would send too few. At most a minute.
        let until = Instant::now() + Duration::from_secs(60);
        while (accepted.lock().unwrap().len() < kill_at
            || (round == 0 && answered_resends.load(Ordering::Relaxed) == 0))
            && Instant::now() < until
        {
            thread::sleep(Duration::from_millis(5));
        }
        server.kill();
        stop.store(true, Ordering::Relaxed);
        let (mut sent, mut resent, mut refused) = (0, 0, 0);
        for v in voters {
            let (s, r, f) = v.join().expect("a voter thread");
            sent += s;
            resent += r;
            refused += f;
        }
        let accepted = accepted.lock().unwrap().clone();
        eprintln!(
            "round {round}, before the kill: {sent} sent, {} accepted in all, {resent} resent, {refused} refused",
            accepted.len()
        );
        assert!(accepted.len() >= PLAYERS * (round + 1) / 2, "too few orders went through: {}", accepted.len());
        if round == 0 {
            assert!(resent > 0);
        }

        // Restart on the same database: every accepted order is there, once, as answered;
        // no refused one is.
        server = Node::start(&db, &clock);
        let addr = server.addr;
        host = Client { addr, ..host };
        players = players.into_iter().map(|(c, u)| (Client { addr, ..c }, u)).collect();
        log = events(&mut host, game);
        let stored = request_orders(&log);
        for (rid, order) in &accepted {
            assert_eq!(stored.get(rid), Some(order), "accepted {rid} ({order}) is not in the log as answered");
        }
        for rid in refusals.lock().unwrap().iter() {
            assert!(!stored.contains_key(rid), "refused {rid} is in the log");
        }
        let orders = log.iter().filter(|e| e["kind"] == "order").count();
        assert!(orders >= accepted.len(), "{orders} orders in the log, {} accepted", accepted.len());
    }
    let accepted = accepted.lock().unwrap().clone();

    // Resending accepted request ids after the restart: duplicate, same order, no new event.
    let bodies = bodies.lock().unwrap().clone();
    let mut by_user: HashMap<i64, Vec<(&str, &str)>> = HashMap::new();
    for (rid, order) in &accepted {
        let user = rid.strip_prefix("user").unwrap().split_once(':').unwrap().0;
        by_user.entry(user.parse().unwrap()).or_default().push((rid, order));
    }
    for (c, uid) in players.iter_mut() {
        for (rid, order) in by_user.get(uid).into_iter().flatten().take(5) {
            let body = bodies[*rid].clone();
            let v = ok(c.post(&format!("/api/games/{game}/orders"), body), "resend after restart");
            assert_eq!(v["accepted"], json!(true));
            assert_eq!(v["duplicate"], json!(true), "{v}");
            assert_eq!(v["order"].to_string(), *order);
        }
    }
    assert_eq!(events(&mut host, game).len(), log.len(), "resends added events");

    // A fresh order still goes through after the restart.
    let (c, uid) = &mut players[1];
    let v = ok(
        c.post(
            &format!("/api/games/{game}/orders"),
            json!({"act": "vote", "target": "Игрок00", "request_id": "after"}),
        ),
        "vote",
    );
    assert_eq!(v["duplicate"], json!(false));
    let after = events(&mut host, game);
    assert_eq!(after.len(), log.len() + 1);
    assert_eq!(after.last().unwrap()["request_id"], json!(format!("user{uid}:after")));

    // Past the deadline, with kills around the scheduler's steps: one resolution of day 1.
    let view = ok(host.get(&format!("/api/games/{game}")), "game view");
    assert_eq!(view["open"]["day"], 1);
    assert!(view["open"]["deadline"].as_str().is_some_and(|d| d.contains("21:00")), "{}", view["open"]);
    let deadline = DEADLINE;
    set_clock(&clock, deadline + 90);
    server.kill();
    for pause in [0, 150, 400] {
        let s = Node::start(&db, &clock);
        thread::sleep(Duration::from_millis(pause));
        s.kill();
    }
    let server = Node::start(&db, &clock);
    let mut host = Client { addr: server.addr, ..host };
    // Any request to the game runs its due steps; then give the scheduler a few ticks.
    let until = Instant::now() + Duration::from_secs(10);
    while ok(host.get(&format!("/api/games/{game}")), "game view")["open"].is_object() {
        assert!(Instant::now() < until, "day 1 is not resolved");
        thread::sleep(Duration::from_millis(100));
    }
    thread::sleep(Duration::from_millis(1200));
    let log = events(&mut host, game);
    request_orders(&log);
    let count = |kind: &str, day: u32| log.iter().filter(|e| e["kind"] == kind && e["payload"]["day"] == day).count();
    assert_eq!(count("midday", 1), 1, "the 13:00 stage of day 1, once");
    assert_eq!(count("resolved", 1), 1, "the resolution of day 1, once");
    assert_eq!(count("opened", 2), 0, "day 2 opens at 22:00, not yet");
    assert_eq!(log.iter().filter(|e| e["kind"] == "resolved").count(), 1);
    let view = ok(host.get(&format!("/api/games/{game}")), "game view");
    assert!(view["open"].is_null(), "no day is open after the resolution: {}", view["open"]);
    assert!(
        view["newspapers"].as_array().unwrap().contains(&json!({"day": 1, "kind": "evening"})),
        "{}",
        view["newspapers"]
    );
    assert!(view["next_day_opens"].is_string() || view["status"] == "over", "{view}");

    drop(server);
    let _ = std::fs::remove_dir_all(dir);
    eprintln!("the crash test took {:?}", started.elapsed());
}
