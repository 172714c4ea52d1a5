//! The several-nodes benchmark, in one run: `ostrov serve` on a SQLite file, and 1, 2 and 3
//! `ostrov serve` processes on one PostgreSQL database, each with two loads:
//!
//! - one busy game: 100 clients voting in one game, spread evenly over the nodes (the
//!   game's owner takes the orders sent to it; the other nodes forward theirs to it);
//! - many games: 1,000 clients across 100 games of 10 players (100 accounts, each playing
//!   in 10 games), the games spread over the nodes (each game's clients on one node).
//!
//! The nodes run with `--trust-proxy` (as behind nginx), since 1,000 clients from one
//! address would pass the cap of connections per address.
//! Each client is an OS thread with a kept-alive connection to its node, sending its next
//! vote as soon as the last is answered (a closed loop), for `--secs` seconds or `--votes`
//! votes (a player may send 200 orders a day), whichever comes first. Prints orders per
//! second, p50/p99/max latency, and the processor time per order of the nodes and of
//! PostgreSQL (all its processes on this machine) during the votes.
//!
//! ```text
//! cargo build --release -p ostrov
//! OSTROV_TEST_PG=postgres://postgres@127.0.0.1/test \
//!     cargo run --release -p ostrov --example nodes -- [--secs 5] [--votes 150] [--one-busy] [--bin PATH]
//! ```
//!
//! `--one-busy` runs the busy game on one node only (SQLite, then PostgreSQL); `--bin` names
//! the `ostrov` binary to run (to compare two builds in alternation, in one session).
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

/// Processor time (user + system) of process `pid` so far, in seconds; 0 if it is gone.
fn cpu_of(pid: u32) -> f64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { return 0.0 };
    // The fields after the command's name (which ends with the last ')'): utime is the
    // 14th field of the line, stime the 15th.
    let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else { return 0.0 };
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 =
        f.get(11).and_then(|v| v.parse().ok()).unwrap_or(0.0) + f.get(12).and_then(|v| v.parse().ok()).unwrap_or(0.0);
    // SAFETY: sysconf has no preconditions.
    ticks / unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64
}

/// Processor time of every PostgreSQL process on this machine so far, in seconds.
fn postgres_cpu() -> f64 {
    let Ok(dir) = std::fs::read_dir("/proc") else { return 0.0 };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| std::fs::read_to_string(format!("/proc/{pid}/comm")).is_ok_and(|c| c.trim() == "postgres"))
        .map(cpu_of)
        .sum()
}

/// The load: `games` games of `CLIENTS / games` … players each.
#[derive(Clone, Copy)]
struct Load {
    /// Games.
    games: usize,
    /// Players per game.
    players: usize,
    /// Accounts (each plays in `games * players / accounts` games).
    accounts: usize,
}

const BUSY: Load = Load { games: 1, players: 100, accounts: 100 };
const MANY: Load = Load { games: 100, players: 10, accounts: 100 };

/// One setup: `nodes` servers on `db`, the games and their players, then the votes.
fn run(label: &str, bin: &Path, db: &str, nodes: usize, dir: &Path, (secs, votes): (u64, usize), load: Load) {
    let clock = dir.join(format!("clock-{nodes}-{}-{}", db.len(), load.games));
    std::fs::write(&clock, T0.to_string()).unwrap();
    // As behind a proxy (the clients all come from loopback): no cap of connections per
    // address, which 1,000 clients from one address would pass.
    let servers: Vec<Node> = (0..nodes).map(|_| Node::start_args(bin, db, &clock, &["--trust-proxy"])).collect();
    let addr = |i: usize| servers[i % nodes].addr;
    // Hosts: at most 10 open games each.
    let hosts: Vec<Client> = (0..load.games.div_ceil(10))
        .map(|h| {
            let mut c = Client::new(addr(h));
            ok(c.post("/api/signup", json!({"name": format!("Ведущий{h:02}"), "password": "password-123"})), "signup");
            c
        })
        .collect();
    let setup = if load.players >= 100 { "werewolf=15,seer,nurse" } else { "werewolf=2,seer,nurse" };
    let games: Vec<(i64, String)> = (0..load.games)
        .map(|g| {
            let mut host = hosts[g / 10].clone();
            let v = ok(
                host.post(
                    "/api/games",
                    json!({"title": format!("Узлы {g}"), "slots": load.players, "setup": setup, "seed": 1}),
                ),
                "create",
            );
            (v["id"].as_i64().unwrap(), v["invite"].as_str().unwrap().to_string())
        })
        .collect();
    let names: Vec<String> = (0..load.accounts).map(|i| format!("Игрок{i:03}")).collect();
    // Sign-ups spread over the nodes, 25 at a time.
    let mut accounts: Vec<Client> = Vec::new();
    for chunk in (0..load.accounts).collect::<Vec<_>>().chunks(25) {
        accounts.extend(thread::scope(|s| {
            let hs: Vec<_> = chunk
                .iter()
                .map(|&i| {
                    let (name, a) = (&names[i], addr(i));
                    s.spawn(move || {
                        let mut c = Client::new(a);
                        ok(c.post("/api/signup", json!({"name": name, "password": "password-123"})), "signup");
                        c
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect::<Vec<_>>()
        }));
    }
    // Seat `k` of game `g` is account `(g * players + k) % accounts`; one busy game's
    // clients go to every node in turn, many games' clients each to its game's node.
    let seat = |g: usize, k: usize| (g * load.players + k) % load.accounts;
    let node_of = |g: usize, k: usize| if load.games == 1 { addr(k) } else { addr(g) };
    let mut clients: Vec<(usize, usize, Client)> = Vec::new();
    for chunk in (0..load.games * load.players).collect::<Vec<_>>().chunks(50) {
        clients.extend(thread::scope(|s| {
            let hs: Vec<_> = chunk
                .iter()
                .map(|&n| {
                    let (g, k) = (n / load.players, n % load.players);
                    let mut c = accounts[seat(g, k)].clone();
                    c.addr = node_of(g, k);
                    let invite = &games[g].1;
                    s.spawn(move || {
                        ok(c.post(&format!("/api/invites/{invite}/join"), json!({})), "join");
                        (g, k, c.keep_alive())
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect::<Vec<_>>()
        }));
    }
    for (g, (id, _)) in games.iter().enumerate() {
        let mut host = hosts[g / 10].clone();
        host.addr = addr(g);
        ok(host.post(&format!("/api/games/{id}/start"), json!({})), "start");
    }
    let n = clients.len();
    let gate = Arc::new(Barrier::new(n + 1));
    let voters: Vec<_> = clients
        .into_iter()
        .map(|(g, k, mut c)| {
            let gate = gate.clone();
            let game = games[g].0;
            let targets: Vec<String> = (0..load.players).map(|j| names[seat(g, j)].clone()).collect();
            thread::spawn(move || {
                // One vote first, outside the measurement (the connection is opened).
                let first = json!({"act": "vote", "target": targets[(k + 1) % targets.len()]});
                ok(c.post(&format!("/api/games/{game}/orders"), first), "vote");
                gate.wait();
                let end = Instant::now() + Duration::from_secs(secs);
                let (mut lat, mut refused) = (Vec::with_capacity(votes), 0usize);
                for v in 0..votes {
                    if Instant::now() >= end {
                        break;
                    }
                    let body = json!({"act": "vote", "target": targets[(k + 2 + v) % targets.len()]});
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
    let cpu = |servers: &[Node]| servers.iter().map(|s| cpu_of(s.pid())).sum::<f64>();
    let (nodes_cpu, pg_cpu) = (cpu(&servers), postgres_cpu());
    let began = Instant::now();
    let (mut lat, mut refused) = (Vec::new(), 0);
    for v in voters {
        let (l, r) = v.join().expect("a voter");
        lat.extend(l);
        refused += r;
    }
    let wall = began.elapsed();
    let (nodes_cpu, pg_cpu) = (cpu(&servers) - nodes_cpu, postgres_cpu() - pg_cpu);
    lat.sort_unstable();
    let pct = |p: f64| lat[((lat.len() as f64 * p).ceil() as usize).clamp(1, lat.len()) - 1];
    let per = |s: f64| s * 1e6 / lat.len().max(1) as f64;
    println!(
        "{label:<22} {:>6} orders in {:>5.2} s = {:>6.0} orders/s ({refused} refused); p50 {:>6.2} ms, p99 {:>6.2} ms, \
         max {:>7.2} ms; CPU per order: nodes {:>4.0} µs, PostgreSQL {:>4.0} µs",
        lat.len(),
        wall.as_secs_f64(),
        lat.len() as f64 / wall.as_secs_f64(),
        ms(pct(0.50)),
        ms(pct(0.99)),
        ms(*lat.last().unwrap()),
        per(nodes_cpu),
        per(pg_cpu),
    );
    drop(servers);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let secs = arg(&args, "--secs", 5);
    let votes = arg(&args, "--votes", 150) as usize;
    let exe = std::env::current_exe().expect("this program's path");
    let bin: PathBuf = match args.iter().position(|a| a == "--bin") {
        Some(i) => PathBuf::from(args.get(i + 1).expect("--bin wants the path of an ostrov binary")),
        None => exe.parent().and_then(Path::parent).map(|d| d.join("ostrov")).expect("target dir"),
    };
    let one_busy = args.iter().any(|a| a == "--one-busy");
    if !bin.exists() {
        eprintln!("{} is missing: cargo build --release -p ostrov first", bin.display());
        std::process::exit(2);
    }
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    let dir = std::env::temp_dir().join(format!("ostrov-nodes-bench-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    println!("Closed loop, at most {secs} s or {votes} votes per client");
    let loads =
        [("One busy game: 100 clients, spread over the nodes", BUSY), ("Many games: 1,000 clients in 100 games", MANY)];
    for (title, load) in loads.into_iter().take(if one_busy { 1 } else { 2 }) {
        println!("{title}");
        let sqlite = dir.join(format!("ostrov-{}.db", load.games));
        run("SQLite, 1 node", &bin, sqlite.to_str().expect("a UTF-8 path"), 1, &dir, (secs, votes), load);
        for nodes in 1..=if one_busy { 1 } else { 3 } {
            let Some(pg) = TestDb::create("bench") else {
                println!("PostgreSQL: not run (set {} to a PostgreSQL server)", ostrov_store::testdb::VAR);
                break;
            };
            let label = format!("PostgreSQL, {nodes} node{}", if nodes == 1 { "" } else { "s" });
            run(&label, &bin, &pg.url, nodes, &dir, (secs, votes), load);
            drop(pg);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
