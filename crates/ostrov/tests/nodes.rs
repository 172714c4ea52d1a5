//! Three `ostrov serve` processes over one PostgreSQL database: 100 players spread over
//! the three vote into one game while one node is killed with SIGKILL and later started
//! again (its players resend to another node, as a client behind a proxy would), and the
//! shared clock passes the 13:00 stage and the 21:00 deadline during the run. Every order
//! answered "accepted" is in the log exactly once at its seq, the day is resolved exactly
//! once, all three nodes show the same game, and the exported game file resolves into the
//! same report. Runs when `OSTROV_TEST_PG` names a PostgreSQL server.

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::thread;
use std::time::{Duration, Instant};

use ostrov_server::client::Client;
use ostrov_store::testdb::TestDb;
use serde_json::{json, Value};

const PLAYERS: usize = 100;
/// 2026-12-01 10:00 Moscow: day 1 opens at the start, before the 13:00 stage.
const T0: i64 = 1_796_108_400;
/// Its deadline, 21:00 Moscow.
const DEADLINE: i64 = 1_796_148_000;

struct Node {
    child: Child,
    addr: SocketAddr,
}

impl Node {
    fn start(db: &str, clock: &Path) -> Node {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ostrov"))
            .args(["serve", "--bind", "127.0.0.1:0", "--db", db, "--clock-file"])
            .arg(clock)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the node starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("the first line");
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        Node { child, addr }
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn ok(r: std::io::Result<ostrov_server::client::Reply>, what: &str) -> Value {
    let r = r.unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!((200..300).contains(&r.status), "{what}: {} {}", r.status, r.body);
    r.json()
}

fn set_clock(path: &Path, t: i64) {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, t.to_string()).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

#[test]
fn three_nodes_one_database_through_a_sigkill_and_a_deadline() {
    let Some(pg) = TestDb::create("nodes") else { return };
    let started = Instant::now();
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    let dir = std::env::temp_dir().join(format!("ostrov-nodes-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let clock = dir.join("clock");
    set_clock(&clock, T0);
    let mut nodes: Vec<Node> = (0..3).map(|_| Node::start(&pg.url, &clock)).collect();
    let addrs: Arc<RwLock<Vec<SocketAddr>>> = Arc::new(RwLock::new(nodes.iter().map(|n| n.addr).collect()));
    let addr_of = |i: usize| addrs.read().unwrap()[i % 3];

    let mut host = Client::new(addr_of(0));
    ok(host.post("/api/signup", json!({"name": "Ведущий", "password": "password-123"})), "signup");
    let g = ok(
        host.post(
            "/api/games",
            json!({"title": "Три узла", "slots": PLAYERS, "setup": "werewolf=15,seer,nurse", "seed": 9}),
        ),
        "create",
    );
    let game = g["id"].as_i64().unwrap();
    let invite = g["invite"].as_str().unwrap().to_string();
    // Sign-ups and joins spread over the three nodes (a game created on node 0 is joined
    // on nodes 1 and 2 at once).
    let names: Vec<String> = (0..PLAYERS).map(|i| format!("Игрок{i:03}")).collect();
    let players: Vec<(usize, Client, i64)> = thread::scope(|s| {
        let hs: Vec<_> = (0..PLAYERS)
            .map(|i| {
                let (invite, name, addr) = (&invite, &names[i], addr_of(i));
                s.spawn(move || {
                    let mut c = Client::new(addr);
                    let v = ok(c.post("/api/signup", json!({"name": name, "password": "password-123"})), "signup");
                    ok(c.post(&format!("/api/invites/{invite}/join"), json!({})), "join");
                    (i, c, v["id"].as_i64().unwrap())
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    ok(host.post(&format!("/api/games/{game}/start"), json!({})), "start");
    eprintln!("set up in {:?}", started.elapsed());

    // Voters: a new request id each time, every fifth a resend of the last; a connection
    // that fails is tried again, same request id, on the next node.
    let accepted: Arc<Mutex<HashMap<String, i64>>> = Arc::default();
    let stop = Arc::new(AtomicBool::new(false));
    let late = Arc::new(AtomicUsize::new(0));
    let voters: Vec<_> = players
        .into_iter()
        .map(|(i, mut c, uid)| {
            let (accepted, stop, late, names, addrs) =
                (accepted.clone(), stop.clone(), late.clone(), names.clone(), addrs.clone());
            thread::spawn(move || {
                let mut sent = 0usize;
                let mut last: Option<(String, i64)> = None;
                let mut node = i % 3;
                while !stop.load(Ordering::Relaxed) {
                    let (rid, resend) = match &last {
                        Some((r, _)) if sent % 5 == 4 => (r.clone(), true),
                        _ => (format!("v{i}-{sent}"), false),
                    };
                    sent += 1;
                    let target = &names[(i + 1 + sent % (PLAYERS - 1)) % PLAYERS];
                    let body = json!({"act": "vote", "target": target, "request_id": rid});
                    let reply = loop {
                        c.addr = addrs.read().unwrap()[node % 3];
                        match c.post(&format!("/api/games/{game}/orders"), body.clone()) {
                            Ok(r) if r.status != 0 => break r,
                            _ => node += 1, // that node is down: the same request to the next
                        }
                    };
                    let v = reply.json();
                    if reply.status == 422 && ["late", "game_over"].contains(&v["error"].as_str().unwrap_or("")) {
                        late.fetch_add(1, Ordering::Relaxed);
                        thread::sleep(Duration::from_millis(20));
                        continue;
                    }
                    assert_eq!(reply.status, 200, "{}", reply.body);
                    assert_eq!(v["accepted"], json!(true), "{}", reply.body);
                    let seq = v["seq"].as_i64().expect("seq");
                    if resend {
                        assert_eq!(v["duplicate"], json!(true), "a resend is a duplicate: {}", reply.body);
                        assert_eq!(Some(seq), last.as_ref().map(|l| l.1), "a resend answers the same seq");
                    } else {
                        assert_eq!(v["duplicate"], json!(false), "{}", reply.body);
                        accepted.lock().unwrap().insert(format!("user{uid}:{rid}"), seq);
                        last = Some((rid, seq));
                    }
                }
            })
        })
        .collect();

    let run = Instant::now();
    thread::sleep(Duration::from_millis(800));
    // SIGKILL node 1 mid-load; its players move on to the others.
    let killed = nodes.remove(1);
    drop(killed);
    let before_kill = accepted.lock().unwrap().len();
    thread::sleep(Duration::from_millis(600));
    // 13:00 passes while node 1 is down.
    set_clock(&clock, T0 + 3 * 3600 + 120);
    thread::sleep(Duration::from_millis(400));
    let back = Node::start(&pg.url, &clock);
    addrs.write().unwrap()[1] = back.addr;
    nodes.insert(1, back);
    thread::sleep(Duration::from_millis(800));
    // The deadline passes while everyone is still voting.
    set_clock(&clock, DEADLINE + 90);
    let until = Instant::now() + Duration::from_secs(10);
    while late.load(Ordering::Relaxed) < PLAYERS && Instant::now() < until {
        thread::sleep(Duration::from_millis(50));
    }
    stop.store(true, Ordering::Relaxed);
    for v in voters {
        v.join().expect("a voter");
    }
    let accepted = accepted.lock().unwrap().clone();
    eprintln!(
        "{} orders accepted in {:?} ({before_kill} before the kill), {} refused as late",
        accepted.len(),
        run.elapsed(),
        late.load(Ordering::Relaxed)
    );
    assert!(accepted.len() > before_kill, "orders went through after the kill");

    // Every accepted order once, at its seq; the day resolved once.
    let log = ok(host.get(&format!("/api/games/{game}/events")), "events");
    let log = log.as_array().unwrap();
    let mut stored = HashMap::new();
    for (i, e) in log.iter().enumerate() {
        assert_eq!(e["seq"].as_i64(), Some(i as i64 + 1), "the log's seqs run 1, 2, 3 …");
        if let Some(r) = e["request_id"].as_str() {
            assert!(stored.insert(r.to_string(), e["seq"].as_i64().unwrap()).is_none(), "{r} twice in the log");
        }
    }
    for (rid, seq) in &accepted {
        assert_eq!(stored.get(rid), Some(seq), "accepted {rid} (seq {seq}) is not in the log at that seq");
    }
    let count = |kind: &str| log.iter().filter(|e| e["kind"] == kind && e["payload"]["day"] == 1).count();
    assert_eq!(count("midday"), 1, "the 13:00 stage of day 1, once");
    assert_eq!(count("resolved"), 1, "the resolution of day 1, once");
    assert_eq!(log.iter().filter(|e| e["kind"] == "order").count(), accepted.len(), "no order but the accepted");

    // All three nodes show the same game, and its game file resolves into its report.
    let views = || -> Vec<(Value, String, String)> {
        (0..3)
            .map(|i| {
                let mut h = Client { addr: nodes[i].addr, ..host.clone() };
                let v = ok(h.get(&format!("/api/games/{game}")), "view");
                let report = h.get(&format!("/api/games/{game}/report")).unwrap().body;
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
    let parsed = ostrov_engine::Game::parse(&seen[0].2).expect("the exported game file is valid");
    let replayed = ostrov_engine::resolve(&parsed).expect("it resolves");
    assert_eq!(replayed.to_json(), seen[0].1, "the exported file replays into the nodes' report");

    drop(nodes);
    drop(pg);
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("the three-node test took {:?}", started.elapsed());
}
