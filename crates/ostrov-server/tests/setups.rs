//! Setups against reality on the pages (issue 33, point 3): the create form's line under
//! the balance hint counts the finished games of that setup in the database, and `/stats`
//! shows the simulator's figure only once it is cached — a page request never simulates.
//! One test: the simulated-games counter is the process's.

mod support;

use ostrov_server::service::balance::SIMULATED;
use ostrov_store::{Accounts, EventLog, GameResult, SqliteStore};
use std::sync::atomic::Ordering;
use support::browser::{enc, location, Browser};
use support::{ok, Server};

const FIELDS: [(&str, &str); 12] = [
    ("title", "Расклад"),
    ("slots", "7"),
    ("setup", "custom"),
    ("role_werewolf", "2"),
    ("role_seer", "1"),
    ("tie", "random"),
    ("max_days", "40"),
    ("deck", ""),
    ("tz", "Europe/Moscow"),
    ("open", "22:00"),
    ("midday", "13:00"),
    ("deadline", "21:00"),
];

/// Stores `n` finished open games of the setup of `config`, the first `town` won by the
/// town, the rest by the pack (as the server stores a result when a game ends).
fn finished(db: &str, host: &str, config: &serde_json::Value, n: i64, town: i64) {
    let c: ostrov_server::game::Config = serde_json::from_value(config.clone()).unwrap();
    let key = ostrov_server::results::setup_key(&c, &c.deal(c.slots).unwrap());
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let store = SqliteStore::open(db).await.unwrap();
        let host = store.user_by_name(host).await.unwrap().unwrap().id;
        for i in 0..n {
            let id = store.create_game("Старая игра", host, &format!("old-{i}"), config, 1).await.unwrap();
            let winner = if i < town { "civilians" } else { "werewolves" };
            let r = GameResult {
                game_id: id,
                setup_key: key.clone(),
                winner: winner.into(),
                finished_at: 10 + i,
                private: false,
                seats: Vec::new(),
            };
            store.record_result(&r).await.unwrap();
        }
    });
}

#[test]
fn the_create_form_counts_the_setups_games_and_stats_never_simulates() {
    let server = Server::start();
    let mut host = server.user("Ведущая раскладов");
    let mut b = Browser::logged_in(server.addr, "Ведущая раскладов");
    let query = FIELDS.iter().map(|(k, v)| format!("{k}={}", enc(v))).collect::<Vec<_>>().join("&");
    // The host's game of this setup (from the form; no estimate of it is made) names the
    // settings the games count by; five finished games of it are in the database.
    let r = b.submit("/new", "/new", &FIELDS);
    assert_eq!(r.status, 303, "{}", r.body);
    let id: i64 = location(&r).trim_start_matches("/games/").parse().unwrap();
    let view = ok(&host.get(&format!("/api/games/{id}")).unwrap());
    finished(&server.db, "Ведущая раскладов", &view["setup"], 5, 3);

    // /stats: the setup's games, and no simulator figure while none is cached: the page
    // request simulates nothing.
    let before = SIMULATED.load(Ordering::Relaxed);
    let stats = b.get("/stats").body;
    assert_eq!(SIMULATED.load(Ordering::Relaxed), before, "/stats simulated games");
    assert!(stats.contains("Сыграно: 5 игр. Мирные: 3 — 60%"), "{stats}");
    assert!(stats.contains("Оценки симулятора для этого расклада пока нет"), "{stats}");
    assert!(!stats.contains("Симулятор: мирные выигрывают"), "{stats}");
    assert!(ok(&host.get("/api/stats").unwrap())[0].get("predicted").is_none());

    // The create form's line under the balance hint, with the right numbers (the hint
    // simulates and caches the estimate).
    let hint = b.get(&format!("/new/balance?{query}")).body;
    assert!(hint.contains("На этом сервере: 5 игр, мирные выиграли 3 (60%)."), "{hint}");
    assert!(SIMULATED.load(Ordering::Relaxed) > before, "the hint simulated");
    let api = ok(&host.get("/api/stats").unwrap());
    assert_eq!((api[0]["games"].as_u64(), api[0]["civilians"]["wins"].as_u64()), (Some(5), Some(3)), "{api}");

    // Now cached: /stats shows the figure, still without simulating.
    let before = SIMULATED.load(Ordering::Relaxed);
    let stats = b.get("/stats").body;
    assert_eq!(SIMULATED.load(Ordering::Relaxed), before, "/stats simulated games");
    assert!(stats.contains("Симулятор: мирные выигрывают"), "{stats}");

    // A setup never played: the line says so.
    let other = query.replace("role_seer=1", "role_seer=2");
    let hint = b.get(&format!("/new/balance?{other}")).body;
    assert!(hint.contains("На этом сервере в такой расклад ещё не играли."), "{hint}");
}
