//! The group-commit benchmark, in one run, on real SQLite files (WAL, synchronous=FULL) in
//! one temp dir (the same disk for every part):
//!
//! - (a) a raw SQLite loop committing one row per transaction, with the store's pragmas,
//!   and (a') the store's own `append` of an order event, one after another (no HTTP);
//! - (b) the server in-process on a loopback port, 1 client sending votes one after another
//!   ((a), (a') and (b) are each timed after a warm-up: see `WARM_PAGES`), and (b') the same
//!   client asking for a short answer that writes nothing (the floor under (b));
//! - (c) 100 clients in one game, each sending votes over its own kept-alive connection,
//!   as a browser does (the clients are tasks on one thread of their own, so that they take
//!   as little as they can of the cores the server runs on);
//! - (d) 1,000 clients across 50 games (20 players' sessions, each seated in every game),
//!   each sending its next vote as soon as the last is answered (a closed loop);
//! - (d') the same 1,000 clients, each sending one vote a second (the 21:00 rush as people
//!   make it: a thousand votes a second), and (d'') five votes a second each (five thousand a
//!   second: five times that rush);
//! - (e) a cold start over 10,000 games (9,000 finished, 1,000 running): the time to the
//!   first answered request, the time until the scheduler has every running game folded,
//!   resident memory, and the time the scheduler takes to resolve all 1,000 at 21:00.
//!
//! ```text
//! cargo run --release -p ostrov-server --example load -- [--orders 100] [--raw 500] [--parts abcde]
//! ```
//!
//! `--orders` is how many votes each client of (c) sends (a third of it in (d); (b) sends
//! 190 from each of four players). The default, 100, makes (c) 10,000 orders: long enough
//! that its latencies are those of the steady rush, not of the first milliseconds, when a
//! hundred clients connect and send at the same instant. `--parts` runs only the parts
//! named (`--parts b` for one client under a profiler).
//!
//! Each part prints p50/p99/max latency and orders (or commits) per second; (b) and (b')
//! also their p50 latency over (a)'s, and (c) and (d) their throughput over (a)'s.

/// The allocator `ostrov serve` runs with (see crates/ostrov/src/main.rs).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use ostrov_server::client::Client;
use ostrov_server::game::{Config, GameEvent, GameState};
use ostrov_server::local::ManualClock;
use ostrov_server::{spawn_scheduler, AppState, Summary};
use ostrov_store::SqliteStore;
use serde_json::{json, Value};
use sqlx::{ConnectOptions, Connection};

/// 2026-12-01 10:00 Moscow: day 1 is open until 21:00.
const T0: i64 = 1_796_108_400;
/// Its deadline, 21:00 Moscow.
const DEADLINE: i64 = 1_796_148_000;

fn ok(r: std::io::Result<ostrov_server::client::Reply>, what: &str) -> Value {
    let r = r.unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!((200..300).contains(&r.status), "{what}: {} {}", r.status, r.body);
    r.json()
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

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// What a part measured: its rate per second and its median latency.
#[derive(Clone, Copy)]
struct Measured {
    rate: f64,
    p50: Duration,
}

/// Prints one line of results.
fn report(what: &str, mut lat: Vec<Duration>, wall: Duration, refused: usize) -> Measured {
    lat.sort_unstable();
    let pct = |p: f64| lat[((lat.len() as f64 * p).ceil() as usize).clamp(1, lat.len()) - 1];
    let rate = lat.len() as f64 / wall.as_secs_f64();
    println!(
        "{what}: {} in {:.2} s = {rate:.0}/s ({refused} refused); latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        lat.len(),
        wall.as_secs_f64(),
        ms(pct(0.50)),
        ms(pct(0.99)),
        ms(*lat.last().unwrap()),
    );
    Measured { rate, p50: pct(0.50) }
}

/// Pages written before (a), (a') and (b) are timed. SQLite's log (WAL) grows on a fresh
/// file until its first checkpoint, at 1,000 pages, and then starts again from its
/// beginning, overwriting blocks the file already has; a sync that grows a file costs more.
/// A server that has run for a day is past that point, so the parts are timed past it too.
const WARM_PAGES: usize = 1_200;

/// (a) One row per transaction on a fresh file, WAL and synchronous=FULL, straight through
/// SQLite's C interface (rusqlite, the library the store's writer uses): no server, no
/// thread but the caller's.
fn raw_commits(dir: &Path, n: usize) -> Measured {
    let c = rusqlite::Connection::open(dir.join("raw.db")).unwrap();
    c.pragma_update(None, "journal_mode", "WAL").unwrap();
    c.pragma_update(None, "synchronous", "FULL").unwrap();
    c.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)", []).unwrap();
    let mut insert = c.prepare("INSERT INTO t (id, payload) VALUES (?1, ?2)").unwrap();
    let payload = r#"{"by":"Игрок001","act":"vote","target":"Игрок002","at":"10:00"}"#;
    // The warm-up (one page a commit): the log reaches its working size and starts again.
    for i in 0..WARM_PAGES as i64 {
        insert.execute(rusqlite::params![-1 - i, payload]).unwrap();
    }
    let mut lat = Vec::with_capacity(n);
    let cpu = cpu_ms();
    let t = Instant::now();
    for i in 0..n {
        let s = Instant::now();
        insert.execute(rusqlite::params![i as i64, payload]).unwrap();
        lat.push(s.elapsed());
    }
    let wall = t.elapsed();
    let cpu = cpu_ms() - cpu;
    let raw = report("(a) raw SQLite, one row per commit", lat, wall, 0);
    println!("    CPU {:.0} µs a commit", cpu * 1000.0 / n as f64);
    raw
}

/// (a') The store's own `append`, one after another from a task on a runtime like the
/// server's, on a fresh file: what an order's commit costs without HTTP or the game's
/// checks (the difference between (a) and (b) is then the rest).
fn store_appends(rt: &tokio::runtime::Runtime, dir: &Path, n: usize) {
    use ostrov_store::{Accounts, EventLog, NewEvent};
    let path = dir.join("append.db").to_str().unwrap().to_string();
    let (lat, wall) = rt.block_on(async move {
        let store = SqliteStore::open(&path).await.expect("the database opens");
        let host = store.create_user("Ведущий", "ведущий", "-", 0).await.unwrap();
        let game = store.create_game("Нагрузка", host, "append", &json!({}), T0).await.unwrap();
        tokio::spawn(async move {
            // The warm-up: an order's event writes three pages.
            let warm = (WARM_PAGES / 3) as i64;
            let mut lat = Vec::with_capacity(n);
            let mut t = Instant::now();
            for i in 0..warm + n as i64 {
                if i == warm {
                    lat.clear();
                    t = Instant::now();
                }
                let ev = NewEvent {
                    at: T0,
                    author: Some(host),
                    client_request_id: Some(format!("user{host}:a-{i}")),
                    request_hash: Some("0".repeat(64)),
                    kind: "order".into(),
                    payload: json!({"day": 1, "order": {"by": "Игрок001", "act": "vote", "target": "Игрок002", "at": "10:00"}}),
                };
                let s = Instant::now();
                store.append(game, i, ev).await.expect("appended");
                lat.push(s.elapsed());
            }
            (lat, t.elapsed())
        })
        .await
        .unwrap()
    });
    report("(a') the store's append, one after another (no HTTP)", lat, wall, 0);
}

struct Bench {
    addr: SocketAddr,
    /// Each game's host: a host may keep only 10 unfinished games, so each game has its own.
    hosts: std::collections::HashMap<i64, Client>,
    users: Vec<Client>,
}

fn signup(addr: SocketAddr, name: &str) -> Client {
    let mut c = Client::new(addr);
    ok(c.post("/api/signup", json!({"name": name, "password": "password-123"})), "signup");
    c
}

impl Bench {
    /// A started game of `players` of the users (each seated under their account name).
    fn game(&mut self, players: usize) -> i64 {
        let wolves = (players / 6).max(1);
        let mut host = signup(self.addr, &format!("Ведущий{}", self.hosts.len()));
        let g = ok(
            host.post(
                "/api/games",
                json!({"title": "Нагрузка", "slots": players, "setup": format!("werewolf={wolves},seer,nurse"), "seed": 1}),
            ),
            "create",
        );
        let game = g["id"].as_i64().unwrap();
        let invite = g["invite"].as_str().unwrap().to_string();
        let addr = self.addr;
        thread::scope(|s| {
            for chunk in self.users[..players].chunks(25) {
                let invite = &invite;
                s.spawn(move || {
                    for u in chunk {
                        let mut c = Client { addr, ..u.clone() };
                        ok(c.post(&format!("/api/invites/{invite}/join"), json!({})), "join");
                    }
                });
            }
        });
        ok(host.post(&format!("/api/games/{game}/start"), json!({})), "start");
        self.hosts.insert(game, host);
        game
    }

    /// Every (user, game) pair a client sending `orders` votes; when each accepted one was
    /// sent (from the start) and its latency. Without
    /// `pace` each client sends its next vote as soon as the last is answered (a closed
    /// loop: the worst case); with it, each sends one vote per `pace`, its start spread
    /// over the first interval, as people do.
    ///
    /// The clients share these 2 cores with the server, so they should take as little of
    /// them as they can: each is a task with its own kept-alive connection, and all of them
    /// run on one thread of their own (as a load generator such as `wrk` does), not on a
    /// thread each whose switching the server would pay for.
    fn run(
        &self,
        pairs: &[(usize, i64, usize)],
        orders: usize,
        tag: &str,
        pace: Option<Duration>,
        ask: Ask,
    ) -> (Vec<Sample>, Duration, usize) {
        let clients = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let n = pairs.len() as u32;
        let addr = self.addr;
        let jobs: Vec<_> = pairs
            .iter()
            .enumerate()
            .map(|(i, &(u, game, players))| (i, u, game, players, self.users[u].clone().keep_alive()))
            .collect();
        clients.block_on(async move {
            // Every client connects first, so that the clock starts with all of them ready.
            let mut conns = Vec::with_capacity(jobs.len());
            for _ in &jobs {
                conns.push(connect(addr).await);
            }
            let t0 = Instant::now();
            let mut set = tokio::task::JoinSet::new();
            for ((i, u, game, players, client), conn) in jobs.into_iter().zip(conns) {
                let tag = tag.to_string();
                set.spawn(async move {
                    let mut conn = Some(conn);
                    let mut lat = Vec::with_capacity(orders);
                    let mut refused = 0usize;
                    let start = tokio::time::Instant::now() + pace.map_or(Duration::ZERO, |p| p * i as u32 / n);
                    let path = match ask {
                        Ask::Vote => format!("/api/games/{game}/orders"),
                        Ask::Read => format!("/api/games/{game}/newspapers"),
                    };
                    for k in 0..orders {
                        if let Some(p) = pace {
                            tokio::time::sleep_until(start + p * k as u32).await;
                        }
                        let request = match ask {
                            Ask::Vote => {
                                let target = format!("Игрок{:03}", (u + 1 + k % (players - 1)) % players);
                                let body = json!({"act": "vote", "target": target, "request_id": format!("{tag}-{k}")});
                                client.request("POST", &path, "application/json", body.to_string().as_bytes())
                            }
                            Ask::Read => client.request("GET", &path, "", b""),
                        };
                        let t = Instant::now();
                        // A connection refused or reset (a full accept queue under a
                        // thousand connects) is retried with the same request id; the
                        // latency counts from the first try.
                        let mut tries = 0;
                        let (status, reply) = loop {
                            let c = match conn.take() {
                                Some(c) => c,
                                None => connect(addr).await,
                            };
                            match exchange(c, &request).await {
                                Ok((c, status, reply)) => {
                                    conn = Some(c);
                                    break (status, reply);
                                }
                                Err(e) if tries < 20 => {
                                    tries += 1;
                                    if tries == 1 {
                                        eprintln!("retrying after: {e}");
                                    }
                                    tokio::time::sleep(Duration::from_millis(5)).await;
                                }
                                Err(e) => panic!("no answer after 20 tries: {e}"),
                            }
                        };
                        let d = t.elapsed();
                        let v: Value = serde_json::from_slice(&reply).unwrap_or(Value::Null);
                        let answered = match ask {
                            Ask::Vote => v["accepted"] == json!(true),
                            Ask::Read => v.is_array(),
                        };
                        if status == 200 && answered {
                            lat.push((t - t0, d));
                        } else {
                            refused += 1;
                            if refused == 1 {
                                eprintln!("refused: {status} {}", String::from_utf8_lossy(&reply));
                            }
                        }
                    }
                    (lat, refused)
                });
            }
            let mut lat = Vec::new();
            let mut refused = 0;
            while let Some(r) = set.join_next().await {
                let (l, r) = r.unwrap();
                lat.extend(l);
                refused += r;
            }
            (lat, t0.elapsed(), refused)
        })
    }

    fn stored_orders(&mut self, game: i64) -> usize {
        let log =
            ok(self.hosts.get_mut(&game).expect("the game's host").get(&format!("/api/games/{game}/events")), "events");
        log.as_array().map_or(0, |l| l.iter().filter(|e| e["kind"] == "order").count())
    }
}

/// What each client of a part asks, again and again.
#[derive(Clone, Copy)]
enum Ask {
    /// Sends a vote (`POST /api/games/{id}/orders`): checked, written and synced.
    Vote,
    /// Reads the list of the game's newspapers (`GET /api/games/{id}/newspapers`, a short
    /// answer): the same session check and game lock, nothing written.
    Read,
}

/// One accepted order: when it was sent (from the start of its part) and its latency.
type Sample = (Duration, Duration);

fn took(samples: &[Sample]) -> Vec<Duration> {
    samples.iter().map(|&(_, d)| d).collect()
}

/// When the slowest percent of a part's orders were sent, in stretches of 10 ms: whether
/// they are spread over the run (the server is slow throughout) or bunched (a few pauses).
fn slowest(samples: &[Sample], wall: Duration) -> String {
    let mut lat = took(samples);
    lat.sort_unstable();
    let Some(&p99) = lat.get(lat.len() * 99 / 100) else { return String::new() };
    let mut at: Vec<u128> = samples.iter().filter(|&&(_, d)| d >= p99).map(|&(t, _)| t.as_millis() / 10 * 10).collect();
    at.sort_unstable();
    at.dedup();
    let list = at.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(", ");
    format!("the slowest 1% were sent in {} stretches of 10 ms, at {list} ms (of {} ms)", at.len(), wall.as_millis())
}

/// A kept-alive connection to the server, retried for a while (a thousand clients connect at
/// once; a full accept queue refuses some).
async fn connect(addr: SocketAddr) -> tokio::net::TcpStream {
    let mut tries = 0;
    loop {
        match tokio::net::TcpStream::connect(addr).await {
            Ok(s) => {
                s.set_nodelay(true).unwrap();
                return s;
            }
            Err(e) if tries < 100 => {
                tries += 1;
                if tries == 1 {
                    eprintln!("connecting again after: {e}");
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            Err(e) => panic!("cannot connect: {e}"),
        }
    }
}

/// Appends what the connection has next to `buf`; the end of the connection is an error.
async fn read_more(conn: &mut tokio::net::TcpStream, buf: &mut Vec<u8>) -> std::io::Result<()> {
    use tokio::io::AsyncReadExt;
    let mut chunk = [0u8; 4096];
    match conn.read(&mut chunk).await? {
        0 => Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "the server closed the connection")),
        n => {
            buf.extend_from_slice(&chunk[..n]);
            Ok(())
        }
    }
}

/// Sends one request and reads its response (the server's JSON answers have a
/// `Content-Length`): the connection back, the status and the body.
async fn exchange(
    mut conn: tokio::net::TcpStream,
    request: &[u8],
) -> std::io::Result<(tokio::net::TcpStream, u16, Vec<u8>)> {
    use tokio::io::AsyncWriteExt;
    let bad = |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_string());
    conn.write_all(request).await?;
    let mut buf = Vec::with_capacity(1024);
    let head_end = loop {
        if let Some(p) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break p + 4;
        }
        read_more(&mut conn, &mut buf).await?;
    };
    let head = std::str::from_utf8(&buf[..head_end]).map_err(|_| bad("a head that is not UTF-8"))?;
    let status = head.split_whitespace().nth(1).and_then(|c| c.parse().ok()).ok_or_else(|| bad("no status"))?;
    let length: usize = ostrov_server::client::header_in(head, "content-length")
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| bad("no Content-Length"))?;
    while buf.len() < head_end + length {
        read_more(&mut conn, &mut buf).await?;
    }
    let body = buf[head_end..head_end + length].to_vec();
    Ok((conn, status, body))
}

fn serve(rt: &tokio::runtime::Runtime, db: &Path, clock: Arc<ManualClock>) -> (SocketAddr, Arc<AppState<SqliteStore>>) {
    let db = db.to_str().unwrap().to_string();
    rt.block_on(async move {
        let store = SqliteStore::open(&db).await.expect("the database opens");
        let mut state = AppState::load(store, clock).await.expect("state");
        // A thousand clients sign up from this one machine.
        state.signups = ostrov_server::ratelimit::Quota::new(0, 3600);
        let state = Arc::new(state);
        spawn_scheduler(state.clone());
        let listener = ostrov_server::net::listen("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let s = state.clone();
        tokio::spawn(async move { ostrov_server::serve(listener, s).await });
        (addr, state)
    })
}

/// The CPU time this process has used (user and system, every thread), in ms: Linux's
/// `/proc/self/stat`, in ticks of 10 ms (USER_HZ); 0 where there is none.
fn cpu_ms() -> f64 {
    let Ok(s) = std::fs::read_to_string("/proc/self/stat") else { return 0.0 };
    // The fields after the command name in parentheses: utime and stime are the 12th and 13th.
    let f: Vec<&str> = s.rsplit(')').next().unwrap_or_default().split_whitespace().collect();
    let tick = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (tick(11) + tick(12)) * 10.0
}

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmRSS:")).and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// The log of a game of `n` players, started at `T0`, where each player votes once; with
/// `finish`, the wolf is voted out and the host resolves the day (the game is over).
fn template(n: usize, finish: bool) -> (Vec<(i64, GameEvent)>, GameState) {
    let setup = if finish { "werewolf".to_string() } else { format!("werewolf={},seer,nurse", (n / 6).max(1)) };
    let config: Config =
        serde_json::from_value(json!({"title": "Архив", "slots": n, "setup": setup, "seed": 3})).unwrap();
    let mut log = vec![(T0, GameEvent::Created(config.clone()))];
    let mut live = GameState::new(1, 1, config).unwrap();
    let mut push = |live: &mut GameState, ev: GameEvent| {
        live.apply(&ev, T0).unwrap();
        log.push((T0, ev));
    };
    for i in 0..n {
        push(&mut live, GameEvent::Joined { user: i as i64 + 2, name: format!("Игрок{i:03}") });
    }
    let roles = live.config.deal(n).unwrap().iter().map(|r| r.id().to_string()).collect();
    push(&mut live, GameEvent::Started { roles, speech: Vec::new() });
    let wolf = live.file.players.iter().position(|p| p.role == "werewolf").unwrap();
    for i in 0..n {
        let target = if finish {
            if i == wolf {
                (wolf + 1) % n
            } else {
                wolf
            }
        } else {
            (i + 1) % n
        };
        let order = ostrov_engine::OrderEntry {
            by: format!("Игрок{i:03}"),
            act: "vote".into(),
            target: Some(format!("Игрок{target:03}")),
            at: Some(json!("10:00")),
            ..Default::default()
        };
        push(&mut live, GameEvent::Order { day: 1, order });
    }
    if finish {
        push(&mut live, GameEvent::Resolved { day: 1, early: true });
        assert_eq!(live.status, ostrov_server::Status::Over);
    }
    (log, live)
}

/// (e) 10,000 games written straight into a fresh database (one transaction), then a cold
/// start over it.
fn cold_start(dir: &Path) {
    let db = dir.join("cold.db");
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    rt.block_on(async {
        drop(SqliteStore::open(db.to_str().unwrap()).await.unwrap());
        let mut c = sqlx::sqlite::SqliteConnectOptions::new()
            .filename(&db)
            .journal_mode(sqlx::sqlite::SqliteJournalMode::Wal)
            .connect()
            .await
            .unwrap();
        let mut tx = c.begin().await.unwrap();
        for u in 1..=16 {
            sqlx::query("INSERT INTO users (id, name, password_hash) VALUES (?, ?, 'x')")
                .bind(u)
                .bind(format!("u{u}"))
                .execute(&mut *tx)
                .await
                .unwrap();
        }
        sqlx::query("INSERT INTO sessions (token, user_id, expires_at) VALUES ('cold', 1, ?)")
            .bind(T0 + 86_400 * 30)
            .execute(&mut *tx)
            .await
            .unwrap();
        let (finished, over) = template(5, true);
        let summary = serde_json::to_string(&Summary::of(&over)).unwrap();
        let (running, _) = template(15, false);
        for id in 1..=10_000i64 {
            let done = id <= 9_000;
            sqlx::query("INSERT INTO games (id, title, host_id, invite, setup, created_at, finished) VALUES (?, 'Архив', 1, ?, '{}', ?, ?)")
                .bind(id)
                .bind(format!("inv{id}"))
                .bind(T0)
                .bind(done.then_some(summary.as_str()))
                .execute(&mut *tx)
                .await
                .unwrap();
            let log = if done { &finished } else { &running };
            for (i, (at, ev)) in log.iter().enumerate() {
                let (kind, payload) = ev.split();
                sqlx::query("INSERT INTO events (game_id, seq, at, author, kind, payload) VALUES (?, ?, ?, 1, ?, ?)")
                    .bind(id)
                    .bind(i as i64 + 1)
                    .bind(at)
                    .bind(kind)
                    .bind(payload.to_string())
                    .execute(&mut *tx)
                    .await
                    .unwrap();
            }
        }
        tx.commit().await.unwrap();
        c.close().await.unwrap();
    });
    drop(rt);
    let before = rss_kib();
    let clock = Arc::new(ManualClock::new(T0));
    let t = Instant::now();
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let (addr, state) = serve(&rt, &db, clock.clone());
    let mut c = Client { cookie: Some("ostrov_session=cold".into()), ..Client::new(addr) };
    ok(c.get("/api/games/10000"), "a running game");
    let first = t.elapsed();
    while state.games.folded() < 1_000 {
        thread::sleep(Duration::from_millis(10));
    }
    let warm = t.elapsed();
    let rss = rss_kib();
    let list = ok(c.get("/api/games?all=true"), "the list");
    assert_eq!(list["total"], 10_000);
    assert_eq!(list["games"].as_array().map(Vec::len), Some(ostrov_server::listing::PER_PAGE));
    println!(
        "(e) cold start over 10,000 games (9,000 finished, 1,000 running, 15 players and 15 orders each): \
         first request answered {:.0} ms after start; every running game folded after {:.2} s; \
         resident memory {} MiB (+{} MiB over before the start, {:.0} KiB per running game)",
        ms(first),
        warm.as_secs_f64(),
        rss / 1024,
        rss.saturating_sub(before) / 1024,
        rss.saturating_sub(before) as f64 / 1_000.0
    );
    clock.set(DEADLINE + 61);
    let t = Instant::now();
    let until = t + Duration::from_secs(60);
    while !state.games.due(DEADLINE + 61).is_empty() && Instant::now() < until {
        thread::sleep(Duration::from_millis(20));
    }
    println!(
        "    21:01 (the deadline's minute over): the scheduler resolved all 1,000 running games in {:.2} s",
        t.elapsed().as_secs_f64()
    );
    drop(rt);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let orders = arg(&args, "--orders", 100);
    let raw = arg(&args, "--raw", 500);
    let parts = match args.iter().position(|a| a == "--parts") {
        Some(i) => match args.get(i + 1) {
            Some(p) if !p.is_empty() && p.chars().all(|c| "abcde".contains(c)) => p.clone(),
            _ => {
                eprintln!("--parts wants letters of abcde, as in --parts bc");
                std::process::exit(2)
            }
        },
        None => "abcde".to_string(),
    };
    let part = |c: char| parts.contains(c);
    // As `ostrov serve` does at start.
    ostrov_server::process::small_pages().expect("transparent huge pages turned off");

    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    let dir: PathBuf = std::env::temp_dir().join(format!("ostrov-load-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();

    let base = part('a').then(|| raw_commits(&dir, raw));
    if part('a') {
        store_appends(&rt, &dir, raw);
    }

    if parts.contains(['b', 'c', 'd']) {
        let (addr, _state) = serve(&rt, &dir.join("ostrov.db"), Arc::new(ManualClock::new(T0)));
        let t = Instant::now();
        // As many players as the parts run need: (c) seats 100, (d) 20, (b) 8.
        let needed = if part('c') {
            100
        } else if part('d') {
            20
        } else {
            8
        };
        let users: Vec<Client> = thread::scope(|s| {
            let hs: Vec<_> = (0..needed)
                .collect::<Vec<usize>>()
                .chunks(10)
                .map(|chunk| {
                    let chunk = chunk.to_vec();
                    s.spawn(move || chunk.iter().map(|i| signup(addr, &format!("Игрок{i:03}"))).collect::<Vec<_>>())
                })
                .collect();
            hs.into_iter().flat_map(|h| h.join().unwrap()).collect()
        });
        let mut b = Bench { addr, hosts: Default::default(), users };
        let solo = part('b').then(|| b.game(8));
        let one = part('c').then(|| b.game(100));
        let many: Vec<i64> = if part('d') { (0..50).map(|_| b.game(20)).collect() } else { Vec::new() };
        eprintln!(
            "{needed} users signed up, {} games created, joined and started in {:.1?}",
            b.hosts.len(),
            t.elapsed()
        );
        let ratio = |what: &str, rate: f64| {
            if let Some(base) = base {
                println!("    throughput over (a): {what} {:.1}x", rate / base.rate);
            }
        };

        if let Some(solo) = solo {
            // At most 200 orders a player a day (issue 16): each of four of the game's eight
            // players in turn sends up to 190, one after another, timed; first, as a
            // warm-up, the other four send as many as make `WARM_PAGES` (an order's event
            // writes three pages).
            let each = (orders * 10).min(190);
            for u in 4..8 {
                if (u - 4) * each * 3 < WARM_PAGES {
                    b.run(&[(u, solo, 8)], each, "w", None, Ask::Vote);
                }
            }
            let (mut lat, mut wall, mut refused) = (Vec::new(), Duration::ZERO, 0);
            let cpu = cpu_ms();
            for u in 0..4 {
                let (l, w, r) = b.run(&[(u, solo, 8)], each, "b", None, Ask::Vote);
                lat.extend(took(&l));
                wall += w;
                refused += r;
            }
            let n = lat.len();
            let one = report("(b) server, 1 client", lat, wall, refused);
            println!("    CPU {:.0} µs an order (server and client together)", (cpu_ms() - cpu) * 1000.0 / n as f64);
            // The same exchange with nothing to write: what HTTP, the session check and the
            // game's lock cost on their own, the floor under (b).
            let cpu = cpu_ms();
            let (l, w, r) = b.run(&[(0, solo, 8)], n, "r", None, Ask::Read);
            let floor =
                report("(b') server, 1 client, reading the list of newspapers (nothing written)", took(&l), w, r);
            println!("    CPU {:.0} µs a request (server and client together)", (cpu_ms() - cpu) * 1000.0 / n as f64);
            if let Some(base) = base {
                let over = |m: Measured| m.p50.as_secs_f64() / base.p50.as_secs_f64();
                println!("    p50 latency over (a)'s p50: (b) {:.1}x, (b') {:.1}x", over(one), over(floor));
            }
        }
        if let Some(one) = one {
            let pairs: Vec<_> = (0..100).map(|u| (u, one, 100)).collect();
            let (samples, wall, refused) = b.run(&pairs, orders, "c", None, Ask::Vote);
            let accepted = samples.len();
            let m = report("(c) server, 100 clients in one game", took(&samples), wall, refused);
            ratio("(c)", m.rate);
            println!("    {}", slowest(&samples, wall));
            assert_eq!(b.stored_orders(one), accepted, "every accepted order is in the log once");
        }
        if !many.is_empty() {
            let pairs: Vec<_> = many.iter().flat_map(|&g| (0..20).map(move |u| (u, g, 20))).collect();
            let (lat, wall, refused) = b.run(&pairs, orders.div_ceil(3), "d", None, Ask::Vote);
            let m = report("(d) server, 1,000 clients across 50 games", took(&lat), wall, refused);
            ratio("(d)", m.rate);
            let (lat, wall, refused) = b.run(&pairs, 5, "p", Some(Duration::from_secs(1)), Ask::Vote);
            report("(d') server, 1,000 clients across 50 games, each one vote a second", took(&lat), wall, refused);
            let (lat, wall, refused) = b.run(&pairs, 15, "q", Some(Duration::from_millis(200)), Ask::Vote);
            report("(d'') server, 1,000 clients across 50 games, each five votes a second", took(&lat), wall, refused);
        }
    }
    drop(rt);

    if part('e') {
        cold_start(&dir);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
