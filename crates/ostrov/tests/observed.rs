//! `ostrov simulate --db` (issue 33, point 3): for each setup played on a server's
//! database, the games observed and each side's wins with an interval, beside the
//! simulator's prediction; a private game is not counted; a missing database is a clear
//! Russian error and is not created.

mod support;

use std::process::{Command, Output};

use ostrov_store::{Accounts, EventLog, GameResult, SqliteStore};
use support::temp_dir;

fn ostrov(args: &[&str]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ostrov"));
    c.args(args).env_remove("LC_ALL").env_remove("LC_MESSAGES").env("LANG", "ru_RU.UTF-8");
    c.output().expect("the binary runs")
}

/// A database with five open games of one 8-player setup (3 won by the town, 2 by the
/// pack) and one private game of it won by the pack.
fn database(path: &std::path::Path) {
    let config: ostrov_server::game::Config = serde_json::from_value(
        serde_json::json!({"title": "Игра", "slots": 8, "setup": "werewolf=2,seer,nurse,halfblood"}),
    )
    .unwrap();
    let roles = config.deal(8).unwrap();
    let key = ostrov_server::results::setup_key(&config, &roles);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let store = SqliteStore::open(path.to_str().unwrap()).await.unwrap();
        let host = store.create_user("Ведущая", "ведущая", "-", 1).await.unwrap();
        let setup = serde_json::to_value(&config).unwrap();
        for i in 0..6 {
            let id = store.create_game("Игра", host, &format!("invite-{i}"), &setup, 1).await.unwrap();
            let winner = if i < 3 { "civilians" } else { "werewolves" };
            let r = GameResult {
                game_id: id,
                setup_key: key.clone(),
                winner: winner.into(),
                finished_at: 100 + i,
                private: i == 5,
                seats: Vec::new(),
            };
            store.record_result(&r).await.unwrap();
        }
    });
}

#[test]
fn simulate_db_prints_each_setup_observed_beside_the_simulator() {
    let dir = temp_dir("simulate-db");
    let db = dir.join("ostrov.db");
    database(&db);
    let o = ostrov(&["simulate", "--db", db.to_str().unwrap(), "--games", "200"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.starts_with("8 игроков: "), "{out}");
    assert!(out.contains("на сервере: 5 игр; мирные 3 (60% ["), "the private game is not counted: {out}");
    assert!(out.contains("оборотни 2 (40% ["), "{out}");
    assert!(out.contains("симулятор (200 партий): мирные "), "{out}");
    let o = ostrov(&["simulate", "--db", db.to_str().unwrap(), "--games", "100", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!((v[0]["games"].as_u64(), v[0]["civilians"]["wins"].as_u64()), (Some(5), Some(3)), "{v}");
    assert!(v[0]["predicted"]["rate"].as_f64().is_some_and(|r| (0.0..=1.0).contains(&r)), "{v}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn simulate_db_of_a_missing_file_is_a_russian_error_and_creates_nothing() {
    let dir = temp_dir("simulate-db-missing");
    let db = dir.join("нет.db");
    let o = ostrov(&["simulate", "--db", db.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("файла базы") && !err.contains("panicked"), "{err}");
    assert!(!db.exists(), "the database was not created");
    let o = ostrov(&["simulate", "--db", db.to_str().unwrap(), "--players", "8"]);
    assert_eq!(o.status.code(), Some(2), "--db goes without --players");
    let _ = std::fs::remove_dir_all(&dir);
}
