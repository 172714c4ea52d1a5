//! Three `ostrov serve` processes over one PostgreSQL database: the game is created on the
//! last node started (so the other two learn of it from the store), 100 players spread
//! over the three vote into it while the first node (the scheduler's lease holder) is
//! killed with SIGKILL and later started again (its players resend to another node, as a
//! client behind a proxy would), and the shared clock passes the 13:00 stage and the 21:00
//! deadline during the run. Every order answered "accepted" is in the log exactly once as
//! answered, the day is resolved exactly once, all three nodes show the same game, and the
//! exported game file resolves with `ostrov resolve --json` into the report the nodes
//! give. Runs when `OSTROV_TEST_PG` names a PostgreSQL server (it says so in one line and
//! passes otherwise).

mod support;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::thread;
use std::time::{Duration, Instant};

use ostrov_server::client::Client;
use ostrov_store::testdb::TestDb;
use serde_json::{json, Value};
use support::{join_all, ok, set_clock, Node, DEADLINE, T0};

const PLAYERS: usize = 100;
/// New orders a voter sends at most (a player may send 200 a day).
const MAX_VOTES: usize = 150;

/// Sends a request to node `node`; while that node does not answer (or answers 503), the
/// same request to the next. The reply and how many nodes did not answer.
fn on_any(
    c: &mut Client,
    addrs: &RwLock<Vec<SocketAddr>>,
    node: &mut usize,
    send: impl Fn(&mut Client) -> std::io::Result<ostrov_server::client::Reply>,
) -> (ostrov_server::client::Reply, usize) {
    let mut tries = 0;
    loop {
        c.addr = addrs.read().unwrap()[*node % 3];
        match send(c) {
            // A 503 (not saved: the game's owner died with the request, issue 34) is sent
            // again, as its message asks.
            Ok(r) if r.status != 0 && r.status != 503 => return (r, tries),
            _ => {
                *node += 1;
                tries += 1;
                assert!(tries < 200, "no node answers");
                thread::sleep(Duration::from_millis(5));
            }
        }
    }
}

#[test]
fn three_nodes_one_database_through_a_sigkill_and_a_deadline() {
    let Some(pg) = TestDb::create("nodes") else {
        ostrov_store::testdb::skipped_once();
        return;
    };
    let started = Instant::now();
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    let dir = std::env::temp_dir().join(format!("ostrov-nodes-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let clock = dir.join("clock");
    set_clock(&clock, T0);
    // Node 0 starts first: its scheduler takes the lease before the others are up.
    let mut nodes: Vec<Node> = Vec::new();
    for _ in 0..3 {
        nodes.push(Node::start(&pg.url, &clock));
        thread::sleep(Duration::from_millis(300));
    }
    let addrs: Arc<RwLock<Vec<SocketAddr>>> = Arc::new(RwLock::new(nodes.iter().map(|n| n.addr).collect()));
    let addr_of = |i: usize| addrs.read().unwrap()[i % 3];

    // The host signs up on node 0 and creates the game on node 2.
    let mut host = Client::new(addr_of(0));
    ok(host.post("/api/signup", json!({"name": "Ведущий", "password": "password-123"})), "signup");
    host.addr = addr_of(2);
    let g = ok(
        host.post(
            "/api/games",
            json!({"title": "Три узла", "slots": PLAYERS, "setup": "werewolf=15,seer,nurse", "seed": 9}),
        ),
        "create",
    );
    let game = g["id"].as_i64().unwrap();
    let invite = g["invite"].as_str().unwrap().to_string();
    // Sign-ups and joins spread over the three nodes (a game created on node 2 is joined
    // on nodes 0 and 1 at once).
    let names: Vec<String> = (0..PLAYERS).map(|i| format!("Игрок{i:03}")).collect();
    let players = join_all(&names, &invite, addr_of);
    // Every node lists the game (node 0 and 1 started before it was created).
    for i in 0..3 {
        let mut h = Client { addr: addr_of(i), ..host.clone() };
        let list = ok(h.get("/api/games"), "list");
        assert_eq!(list["games"][0]["id"], json!(game), "node {i} lists the game: {list}");
    }
    ok(host.post(&format!("/api/games/{game}/start"), json!({})), "start");
    eprintln!("set up in {:?}", started.elapsed());

    // Voters: a new request id each time, every fifth a resend of the last; a connection
    // that fails is tried again, same request id, on the next node (then the first node
    // may have stored it before it died: the answer is a duplicate of it).
    let accepted: Arc<Mutex<HashMap<String, String>>> = Arc::default();
    let stop = Arc::new(AtomicBool::new(false));
    let late = Arc::new(AtomicUsize::new(0));
    let retried = Arc::new(AtomicUsize::new(0));
    let killed = Arc::new(AtomicBool::new(false));
    let first_duplicates = Arc::new(AtomicUsize::new(0));
    let voters: Vec<_> = players
        .into_iter()
        .map(|(i, mut c, uid)| {
            let (accepted, stop, late, retried, names, addrs) =
                (accepted.clone(), stop.clone(), late.clone(), retried.clone(), names.clone(), addrs.clone());
            let (killed, first_duplicates) = (killed.clone(), first_duplicates.clone());
            thread::spawn(move || {
                let mut sent = 0usize;
                let mut last: Option<(String, String, String)> = None;
                let mut node = i % 3;
                let mut is_late = false;
                while !stop.load(Ordering::Relaxed) {
                    if is_late {
                        thread::sleep(Duration::from_millis(20));
                        continue;
                    }
                    if sent >= MAX_VOTES {
                        // Enough votes: only watch for the day's end.
                        thread::sleep(Duration::from_millis(50));
                        let (r, _) = on_any(&mut c, &addrs, &mut node, |c| c.get(&format!("/api/games/{game}/orders")));
                        if r.status == 200 && r.json()["day"].is_null() {
                            late.fetch_add(1, Ordering::Relaxed);
                            is_late = true;
                        }
                        continue;
                    }
                    let (rid, resend, target) = match &last {
                        Some((r, _, t)) if sent % 5 == 4 => (r.clone(), true, t.clone()),
                        _ => (format!("v{i}-{sent}"), false, names[(i + 1 + sent % (PLAYERS - 1)) % PLAYERS].clone()),
                    };
                    sent += 1;
                    let body = json!({"act": "vote", "target": target, "request_id": rid});
                    let (reply, tries) = on_any(&mut c, &addrs, &mut node, |c| {
                        c.post(&format!("/api/games/{game}/orders"), body.clone())
                    });
                    if tries > 0 {
                        retried.fetch_add(1, Ordering::Relaxed);
                    }
                    let v = reply.json();
                    if reply.status == 422 && ["late", "game_over"].contains(&v["error"].as_str().unwrap_or("")) {
                        late.fetch_add(1, Ordering::Relaxed);
                        is_late = true;
                        continue;
                    }
                    assert_eq!(reply.status, 200, "{}", reply.body);
                    assert_eq!(v["accepted"], json!(true), "{}", reply.body);
                    // No reply counts the log (issue 28): an order is known by what was stored.
                    let order = v["order"].to_string();
                    if resend {
                        assert_eq!(v["duplicate"], json!(true), "a resend is a duplicate: {}", reply.body);
                        assert_eq!(Some(&order), last.as_ref().map(|l| &l.1), "a resend answers the same order");
                    } else {
                        // Sent once, it is new; except around the kill, where a first send
                        // was once answered as a duplicate of itself on CI (a node had it
                        // stored before the answer came): the order must still be the one
                        // sent, and the checks below find it in the log once.
                        if tries == 0 && v["duplicate"] != json!(false) {
                            assert!(killed.load(Ordering::Relaxed), "new before the kill: {}", reply.body);
                            assert_eq!(v["order"]["target"], json!(target), "{}", reply.body);
                            first_duplicates.fetch_add(1, Ordering::Relaxed);
                        }
                        accepted.lock().unwrap().insert(format!("user{uid}:{rid}"), order.clone());
                        last = Some((rid, order, target));
                    }
                }
            })
        })
        .collect();

    let run = Instant::now();
    thread::sleep(Duration::from_millis(1500));
    // SIGKILL node 0 (the lease holder) mid-load; its players move on to the others.
    killed.store(true, Ordering::Relaxed);
    drop(nodes.remove(0));
    let before_kill = accepted.lock().unwrap().len();
    thread::sleep(Duration::from_millis(800));
    // 13:00 passes while node 0 is down.
    set_clock(&clock, T0 + 3 * 3600 + 120);
    thread::sleep(Duration::from_millis(500));
    let back = Node::start(&pg.url, &clock);
    addrs.write().unwrap()[0] = back.addr;
    nodes.insert(0, back);
    thread::sleep(Duration::from_millis(1500));
    // The deadline passes while everyone is still voting.
    set_clock(&clock, DEADLINE + 90);
    let until = Instant::now() + Duration::from_secs(20);
    while late.load(Ordering::Relaxed) < PLAYERS && Instant::now() < until {
        thread::sleep(Duration::from_millis(50));
    }
    stop.store(true, Ordering::Relaxed);
    for v in voters {
        v.join().expect("a voter");
    }
    let accepted = accepted.lock().unwrap().clone();
    eprintln!(
        "{} orders accepted in {:?} ({before_kill} before the kill, {} sent again to another node, {} answered as \
         duplicates of their first send), {} refused as late",
        accepted.len(),
        run.elapsed(),
        retried.load(Ordering::Relaxed),
        first_duplicates.load(Ordering::Relaxed),
        late.load(Ordering::Relaxed)
    );
    assert_eq!(late.load(Ordering::Relaxed), PLAYERS, "every voter was told the day is over");
    assert!(accepted.len() > before_kill, "orders went through after the kill");

    // Every accepted order once, as answered; the day resolved once.
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
    assert_eq!(log.iter().filter(|e| e["kind"] == "resolved").count(), 1, "no other resolution");
    // An order whose answer was lost with the killed node may be in the log unanswered.
    let orders = log.iter().filter(|e| e["kind"] == "order").count();
    assert!(
        orders >= accepted.len() && orders <= accepted.len() + PLAYERS,
        "{orders} orders, {} accepted",
        accepted.len()
    );

    // All three nodes show the same game, and its game file resolves into its report.
    let views = || -> Vec<(Value, String, String)> {
        (0..3)
            .map(|i| {
                let mut h = Client { addr: nodes[i].addr, ..host.clone() };
                let v = ok(h.get(&format!("/api/games/{game}")), "view");
                let report = ok(h.get(&format!("/api/games/{game}/report")), "report").to_string();
                let file = h.get(&format!("/api/games/{game}/gamefile")).unwrap().body;
                (v, report, file)
            })
            .collect()
    };
    let until = Instant::now() + Duration::from_secs(5);
    let mut seen = views();
    while !(seen[0] == seen[1] && seen[1] == seen[2]) {
        assert!(Instant::now() < until, "the nodes differ");
        thread::sleep(Duration::from_millis(50));
        seen = views();
    }
    assert!(seen[0].0["open"].is_null(), "day 1 is resolved: {}", seen[0].0["open"]);
    let file = dir.join("game.toml");
    std::fs::write(&file, &seen[0].2).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ostrov")).arg("resolve").arg(&file).arg("--json").output().unwrap();
    assert!(out.status.success(), "ostrov resolve: {}", String::from_utf8_lossy(&out.stderr));
    let replayed: Value = serde_json::from_slice(&out.stdout).expect("the report is JSON");
    let served: Value = serde_json::from_str(&seen[0].1).unwrap();
    assert_eq!(replayed, served, "the exported file replays into the nodes' report");

    drop(nodes);
    drop(pg);
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("the three-node test took {:?}", started.elapsed());
}
