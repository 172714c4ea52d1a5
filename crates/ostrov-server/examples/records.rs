//! The records benchmark (issue 33): a SQLite database with 10,000 finished games of 8
//! seats (1,000 of them private) among 200 accounts, their results stored as a server
//! stores them when a game ends; then the server's start (the time to the first answered
//! request), and the p50/p99 of a player's record page, its API, and the setups page, as an
//! outsider sees them (so the private games are filtered out per viewer).
//!
//! The start is measured twice: over the database with every game's result stored, and
//! over the same games with no result stored (as a database is on its first start after
//! the upgrade; the results are filled in the background after the first scheduler tick,
//! so the start itself never waits for them).
//!
//! ```text
//! cargo run --release -p ostrov-server --example records -- [--requests 500]
//! ```

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::sync::Arc;
use std::time::{Duration, Instant};

use ostrov_server::client::Client;
use ostrov_server::local::{LocalServer, ManualClock};
use ostrov_store::{EventLog, GameResult, SeatResult, SqliteStore};
use serde_json::json;
use sqlx::{ConnectOptions, Connection};

const T0: i64 = 1_796_108_400;
const GAMES: i64 = 10_000;
const USERS: i64 = 200;
const SEATS: i64 = 8;

/// Writes the users, the finished games and (with `results`) their results.
async fn fill(db: &str, results: bool) {
    drop(SqliteStore::open(db).await.unwrap());
    let mut c = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(db)
        .journal_mode(sqlx::sqlite::SqliteJournalMode::Wal)
        .connect()
        .await
        .unwrap();
    let mut tx = c.begin().await.unwrap();
    for u in 1..=USERS {
        sqlx::query("INSERT INTO users (id, name, password_hash) VALUES (?, ?, 'x')")
            .bind(u)
            .bind(format!("Игрок{u}"))
            .execute(&mut *tx)
            .await
            .unwrap();
    }
    let roles = ["werewolf", "werewolf", "seer", "nurse", "passenger", "passenger", "passenger", "passenger"];
    // Three setups (8, 9 and 10 players by key; all written with 8 seats for the bench).
    let keys: Vec<String> = (8..11)
        .map(|n| json!({"players": n, "roles": {"werewolf": 2, "seer": 1, "nurse": 1, "passenger": n - 4}}).to_string())
        .collect();
    let mut results_of = Vec::new();
    for id in 1..=GAMES {
        let private = id % 10 == 0;
        let seats: Vec<i64> = (0..SEATS).map(|s| 1 + (id * 7 + s * 13) % USERS).collect();
        let civilians = id % 2 == 0;
        let summary = json!({"title": format!("Архив {id}"), "slots": SEATS, "joined": SEATS, "day": 3,
                             "members": seats, "winner": if civilians { "победили мирные жители" } else { "победили оборотни" },
                             "private": private});
        sqlx::query(
            "INSERT INTO games (id, title, host_id, invite, setup, created_at, finished) VALUES (?, ?, 1, ?, '{}', ?, ?)",
        )
        .bind(id)
        .bind(format!("Архив {id}"))
        .bind(format!("inv{id}"))
        .bind(T0)
        .bind(summary.to_string())
        .execute(&mut *tx)
        .await
        .unwrap();
        if !results {
            continue;
        }
        let r = GameResult {
            game_id: id,
            setup_key: keys[(id % 3) as usize].clone(),
            winner: if civilians { "civilians" } else { "werewolves" }.into(),
            finished_at: T0 + id * 60,
            private,
            seats: seats
                .iter()
                .zip(roles)
                .map(|(&u, role)| {
                    let side = if role == "werewolf" { "werewolves" } else { "civilians" };
                    SeatResult {
                        user_id: u,
                        role: role.into(),
                        side: side.into(),
                        won: (side == "civilians") == civilians,
                        survived: (id + u) % 3 == 0,
                    }
                })
                .collect(),
        };
        results_of.push(r);
    }
    tx.commit().await.unwrap();
    c.close().await.unwrap();
    // The results, each stored as the server stores it when a game ends.
    let s = SqliteStore::open(db).await.unwrap();
    for r in &results_of {
        s.record_result(r).await.unwrap();
    }
    let n = s.played(1, None).await.unwrap().len();
    if results {
        assert!(n > 300, "player 1 has {n} open games");
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Starts a server over `db`: the server and the time to its first answered request.
fn start(db: &str) -> (LocalServer, Duration) {
    let t = Instant::now();
    let s = LocalServer::start(db, Arc::new(ManualClock::new(T0 + GAMES * 60 + 3600))).unwrap();
    let r = s.client().get("/rules").unwrap();
    assert_eq!(r.status, 200);
    (s, t.elapsed())
}

fn measure(c: &mut Client, path: &str, n: usize) -> (f64, f64, usize) {
    let mut times = Vec::with_capacity(n);
    let mut size = 0;
    for _ in 0..n {
        let t = Instant::now();
        let r = c.get(path).unwrap();
        times.push(t.elapsed());
        assert_eq!(r.status, 200, "{path}: {}", r.body);
        size = r.body.len();
    }
    times.sort();
    (ms(times[n / 2]), ms(times[n * 99 / 100]), size)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize =
        args.iter().position(|a| a == "--requests").and_then(|i| args.get(i + 1)?.parse().ok()).unwrap_or(500);
    let dir = std::env::temp_dir().join(format!("ostrov-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let with = dir.join("with.db").to_str().unwrap().to_string();
    let without = dir.join("without.db").to_str().unwrap().to_string();
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let t = Instant::now();
    rt.block_on(fill(&with, true));
    let filled = t.elapsed();
    rt.block_on(fill(&without, false));
    drop(rt);
    println!("filled: {GAMES} finished games, {USERS} accounts, {SEATS} seats a game ({:.1} s)", filled.as_secs_f64());

    let (s, before) = start(&without);
    s.stop();
    let (s, after) = start(&with);
    println!(
        "start (first request answered): {:.0} ms with no results stored, {:.0} ms with 10,000 results stored",
        ms(before),
        ms(after)
    );
    let mut c = s.client();
    let r = c.post("/api/signup", json!({"name": "Зритель", "password": "пароль-для-замера"})).unwrap();
    assert!((200..300).contains(&r.status), "{}", r.body);
    for (what, path) in [
        ("a record page (/users/Игрок1)", "/users/Игрок1"),
        ("a record's API (/api/users/Игрок1/stats)", "/api/users/Игрок1/stats"),
        ("the setups page (/stats)", "/stats"),
        ("the setups' API (/api/stats)", "/api/stats"),
    ] {
        let (p50, p99, size) = measure(&mut c, path, n);
        println!("{what}: p50 {p50:.2} ms, p99 {p99:.2} ms ({n} requests, {size} bytes)");
    }
    s.stop();
    let _ = std::fs::remove_dir_all(&dir);
}
