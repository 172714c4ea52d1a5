//! The several-nodes benchmark, in one run: 100 clients voting in one game, spread evenly
//! over 1, 2 and 3 `ostrov serve` processes on one PostgreSQL database, beside one
//! `ostrov serve` on a SQLite file. Each client is an OS thread with a kept-alive
//! connection to its node, sending its next vote as soon as the last is answered (a closed
//! loop), for `--secs` seconds or `--votes` votes (a player may send 200 orders a day),
//! whichever comes first. Prints orders per second and p50/p99/max latency of each setup.
//!
//! ```text
//! cargo build --release -p ostrov
//! OSTROV_TEST_PG=postgres://postgres@127.0.0.1/test \
//!     cargo run --release -p ostrov --example nodes -- [--secs 5] [--votes 150]
//! ```
//!
//! The nodes are the `ostrov` binary next to this example (target/release/ostrov), each
//! PostgreSQL setup on a fresh database of its own (created on the server
//! `OSTROV_TEST_PG` names and dropped after); without `OSTROV_TEST_PG` only SQLite runs.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::{Duration, Instant};

use ostrov_server::client::Client;
use ostrov_store::testdb::TestDb;
use serde_json::json;

#[path = "../tests/support/mod.rs"]
mod support;
use support::{ok, Node};

const CLIENTS: usize = 100;
/// 2026-12-01 10:00 Moscow: day 1 is open until 21:00.
const T0: i64 = 1_796_108_400;

fn arg(args: &[String], name: &str, default: u64) -> u64 {
    match args.iter().position(|a| a == name) {
        Some(i) => args.get(i + 1).and_then(|v| v.parse().ok()).unwrap_or_else(|| {
            eprintln!("{name} wants a number");
            std::process::exit(2)
        }),
        None => default,
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// One setup: `nodes` servers on `db`, the game and its 100 players, then the votes.
fn run(label: &str, bin: &Path, db: &str, nodes: usize, dir: &Path, secs: u64, votes: usize) {
    let clock = dir.join(format!("clock-{nodes}-{}", db.len()));
    std::fs::write(&clock, T0.to_string()).unwrap();
    let servers: Vec<Node> = (0..nodes).map(|_| Node::start_with(bin, db, &clock)).collect();
    let addr = |i: usize| servers[i % nodes].addr;
    let mut host = Client::new(addr(0));
    ok(host.post("/api/signup", json!({"name": "Ведущий", "password": "password-123"})), "signup");
    let g = ok(
        host.post(
            "/api/games",
            json!({"title": "Узлы", "slots": CLIENTS, "setup": "werewolf=15,seer,nurse", "seed": 1}),
        ),
        "create",
    );
    let game = g["id"].as_i64().unwrap();
    let invite = g["invite"].as_str().unwrap().to_string();
    let names: Vec<String> = (0..CLIENTS).map(|i| format!("Игрок{i:03}")).collect();
    // Sign-ups and joins spread over the nodes, 25 at a time.
    let mut clients: Vec<Client> = Vec::new();
    for chunk in (0..CLIENTS).collect::<Vec<_>>().chunks(25) {
        clients.extend(thread::scope(|s| {
            let hs: Vec<_> = chunk
                .iter()
                .map(|&i| {
                    let (invite, name, a) = (&invite, &names[i], addr(i));
                    s.spawn(move || {
                        let mut c = Client::new(a);
                        ok(c.post("/api/signup", json!({"name": name, "password": "password-123"})), "signup");
                        ok(c.post(&format!("/api/invites/{invite}/join"), json!({})), "join");
                        c.keep_alive()
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect::<Vec<_>>()
        }));
    }
    ok(host.post(&format!("/api/games/{game}/start"), json!({})), "start");
    let gate = Arc::new(Barrier::new(CLIENTS + 1));
    let voters: Vec<_> = clients
        .into_iter()
        .enumerate()
        .map(|(i, mut c)| {
            let (gate, names) = (gate.clone(), names.clone());
            thread::spawn(move || {
                // One vote first, outside the measurement (the connection is opened).
                let first = json!({"act": "vote", "target": names[(i + 1) % CLIENTS]});
                ok(c.post(&format!("/api/games/{game}/orders"), first), "vote");
                gate.wait();
                let end = Instant::now() + Duration::from_secs(secs);
                let (mut lat, mut refused) = (Vec::with_capacity(votes), 0usize);
                for k in 0..votes {
                    if Instant::now() >= end {
                        break;
                    }
                    let body = json!({"act": "vote", "target": names[(i + 2 + k) % CLIENTS]});
                    let t = Instant::now();
                    let r = c.post(&format!("/api/games/{game}/orders"), body).expect("the node answers");
                    if r.status == 200 {
                        lat.push(t.elapsed());
                    } else {
                        refused += 1;
                    }
                }
                (lat, refused)
            })
        })
        .collect();
    gate.wait();
    let began = Instant::now();
    let (mut lat, mut refused) = (Vec::new(), 0);
    for v in voters {
        let (l, r) = v.join().expect("a voter");
        lat.extend(l);
        refused += r;
    }
    let wall = began.elapsed();
    lat.sort_unstable();
    let pct = |p: f64| lat[((lat.len() as f64 * p).ceil() as usize).clamp(1, lat.len()) - 1];
    println!(
        "{label:<28} {:>6} orders in {:>5.2} s = {:>6.0} orders/s ({refused} refused); p50 {:>7.2} ms, p99 {:>7.2} ms, max {:>7.2} ms",
        lat.len(),
        wall.as_secs_f64(),
        lat.len() as f64 / wall.as_secs_f64(),
        ms(pct(0.50)),
        ms(pct(0.99)),
        ms(*lat.last().unwrap()),
    );
    drop(servers);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let secs = arg(&args, "--secs", 5);
    let votes = arg(&args, "--votes", 150) as usize;
    let exe = std::env::current_exe().expect("this program's path");
    let bin: PathBuf = exe.parent().and_then(Path::parent).map(|d| d.join("ostrov")).expect("target dir");
    if !bin.exists() {
        eprintln!("{} is missing: cargo build --release -p ostrov first", bin.display());
        std::process::exit(2);
    }
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    let dir = std::env::temp_dir().join(format!("ostrov-nodes-bench-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    println!(
        "{CLIENTS} clients voting in one game, spread over the nodes; closed loop, at most {secs} s or {votes} votes each"
    );
    let sqlite = dir.join("ostrov.db");
    run("SQLite, 1 node", &bin, sqlite.to_str().expect("a UTF-8 path"), 1, &dir, secs, votes);
    for nodes in 1..=3 {
        let Some(pg) = TestDb::create("bench") else {
            println!("PostgreSQL: not run (set {} to a PostgreSQL server)", ostrov_store::testdb::VAR);
            break;
        };
        let label = format!("PostgreSQL, {nodes} node{}", if nodes == 1 { "" } else { "s" });
        run(&label, &bin, &pg.url, nodes, &dir, secs, votes);
        drop(pg);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
