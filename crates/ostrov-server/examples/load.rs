//! Order latency under load: the server in-process on a loopback port over a real SQLite
//! file (WAL, synchronous=FULL) in a temp dir, one game of `--clients` players, each
//! player an OS thread sending `--orders` votes (each with its own request id) through
//! [`ostrov_server::client::Client`], one connection per request.
//!
//! ```text
//! cargo run --release -p ostrov-server --example load -- [--clients 100] [--orders 50]
//! ```
//!
//! Prints the p50/p99/max latency of an accepted order and the orders per second.

use std::net::SocketAddr;
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::{Duration, Instant};

use ostrov_server::client::Client;
use ostrov_server::{app, spawn_scheduler, AppState, Clock};
use serde_json::{json, Value};

/// 2026-12-01 10:00 Moscow: day 1 is open until 21:00, whatever the real time.
struct Fixed;

impl Clock for Fixed {
    fn now(&self) -> i64 {
        1_796_108_400
    }
}

fn ok(r: std::io::Result<ostrov_server::client::Reply>, what: &str) -> Value {
    let r = r.unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!((200..300).contains(&r.status), "{what}: {} {}", r.status, r.body);
    r.json()
}

fn signup(addr: SocketAddr, name: &str) -> Client {
    let mut c = Client::new(addr);
    ok(c.post("/api/signup", json!({"name": name, "password": "password-123"})), "signup");
    c
}

fn arg(args: &[String], name: &str, default: usize) -> usize {
    match args.iter().position(|a| a == name) {
        Some(i) => args.get(i + 1).and_then(|v| v.parse().ok()).unwrap_or_else(|| {
            eprintln!("{name} wants a number");
            std::process::exit(2)
        }),
        None => default,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let clients = arg(&args, "--clients", 100);
    let orders = arg(&args, "--orders", 50);
    assert!((4..=ostrov_server::live::MAX_SLOTS).contains(&clients), "--clients: 4 to 100");

    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    let dir = std::env::temp_dir().join(format!("ostrov-load-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("ostrov.db");

    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let addr = rt.block_on(async {
        let store = ostrov_store::SqliteStore::open(db.to_str().unwrap()).await.expect("the database opens");
        let state = Arc::new(AppState::load(store, Arc::new(Fixed)).await.expect("state"));
        spawn_scheduler(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app(state)).await });
        addr
    });

    let t = Instant::now();
    let mut host = signup(addr, "Ведущий");
    let wolves = (clients / 6).max(1);
    let g = ok(
        host.post(
            "/api/games",
            json!({"title": "Нагрузка", "slots": clients, "setup": format!("werewolf={wolves},seer,nurse"), "seed": 1}),
        ),
        "create",
    );
    let game = g["id"].as_i64().unwrap();
    let invite = g["invite"].as_str().unwrap().to_string();
    let names: Vec<String> = (0..clients).map(|i| format!("Игрок{i:03}")).collect();
    let players: Vec<Client> = thread::scope(|s| {
        let hs: Vec<_> = names
            .iter()
            .map(|n| {
                let invite = &invite;
                s.spawn(move || {
                    let mut c = signup(addr, n);
                    ok(c.post(&format!("/api/invites/{invite}/join"), json!({})), "join");
                    c
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    ok(host.post(&format!("/api/games/{game}/start"), json!({})), "start");
    eprintln!("{clients} players signed up and joined, game started, in {:.1?}", t.elapsed());

    let go = Arc::new(Barrier::new(clients + 1));
    let threads: Vec<_> = players
        .into_iter()
        .enumerate()
        .map(|(i, mut c)| {
            let (go, names) = (go.clone(), names.clone());
            thread::spawn(move || {
                let mut lat = Vec::with_capacity(orders);
                let mut refused = 0usize;
                go.wait();
                for k in 0..orders {
                    let target = &names[(i + 1 + k % (clients - 1)) % clients];
                    let body = json!({"act": "vote", "target": target, "request_id": format!("load-{k}")});
                    let t = Instant::now();
                    let r = c.post(&format!("/api/games/{game}/orders"), body).expect("an answer");
                    let d = t.elapsed();
                    if r.status == 200 && r.json()["accepted"] == json!(true) {
                        lat.push(d);
                    } else {
                        refused += 1;
                        if refused == 1 {
                            eprintln!("refused: {} {}", r.status, r.body);
                        }
                    }
                }
                (lat, refused)
            })
        })
        .collect();
    go.wait();
    let t = Instant::now();
    let mut lat: Vec<Duration> = Vec::new();
    let mut refused = 0;
    for h in threads {
        let (l, r) = h.join().unwrap();
        lat.extend(l);
        refused += r;
    }
    let wall = t.elapsed();
    lat.sort_unstable();
    let pct = |p: f64| lat[((lat.len() as f64 * p).ceil() as usize).clamp(1, lat.len()) - 1];
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{clients} clients × {orders} orders: {} accepted, {refused} refused in {:.2} s = {:.0} orders/s; \
         latency of an accepted order p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        lat.len(),
        wall.as_secs_f64(),
        lat.len() as f64 / wall.as_secs_f64(),
        ms(pct(0.50)),
        ms(pct(0.99)),
        ms(*lat.last().unwrap()),
    );
    let log = ok(host.get(&format!("/api/games/{game}/events")), "events");
    let n = log.as_array().map_or(0, |l| l.iter().filter(|e| e["kind"] == "order").count());
    assert_eq!(n, lat.len(), "every accepted order is in the log once");
    drop(rt);
    let _ = std::fs::remove_dir_all(&dir);
}
