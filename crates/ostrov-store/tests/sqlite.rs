use ostrov_store::{Appended, NewEvent, SqliteStore, Store, StoreError};
use serde_json::json;

fn temp_db(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("ostrov-store-{}-{}", name, std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("ostrov.db").to_string_lossy().into_owned()
}

fn ev(at: i64, req: Option<&str>, kind: &str) -> NewEvent {
    NewEvent {
        at,
        author: Some(1),
        client_request_id: req.map(str::to_string),
        kind: kind.to_string(),
        payload: json!({"k": kind}),
    }
}

#[tokio::test]
async fn migrates_on_first_start_with_wal_and_full_sync() {
    let path = temp_db("pragmas");
    let s = SqliteStore::open(&path).await.unwrap();
    let (journal, sync) = s.pragmas().await.unwrap();
    assert_eq!(journal.to_lowercase(), "wal");
    assert_eq!(sync, 2, "synchronous=FULL is 2");
    drop(s);
    // Reopening does not re-run migrations.
    let s = SqliteStore::open(&path).await.unwrap();
    assert!(s.user_by_name("nobody").await.unwrap().is_none());
}

#[tokio::test]
async fn users_sessions_games() {
    let s = SqliteStore::open(":memory:").await.unwrap();
    let u = s.create_user("Вика", "hash").await.unwrap();
    assert!(matches!(s.create_user("Вика", "x").await, Err(StoreError::Conflict(_))));
    assert_eq!(s.user_by_name("Вика").await.unwrap().unwrap().id, u);
    assert_eq!(s.user_by_id(u).await.unwrap().unwrap().name, "Вика");

    s.create_session("tok", u, 100).await.unwrap();
    assert_eq!(s.session_user("tok", 50).await.unwrap(), Some(u));
    assert_eq!(s.session_user("tok", 100).await.unwrap(), None, "expired");
    s.delete_session("tok").await.unwrap();
    assert_eq!(s.session_user("tok", 50).await.unwrap(), None);

    let g = s.create_game("Остров", u, "inv1", &json!({"slots": 8}), 7).await.unwrap();
    let row = s.game(g).await.unwrap().unwrap();
    assert_eq!(row.setup, json!({"slots": 8}));
    assert_eq!(s.game_by_invite("inv1").await.unwrap().unwrap().id, g);
    assert!(s.game(999).await.unwrap().is_none());
    assert_eq!(s.games().await.unwrap().len(), 1);
}

#[tokio::test]
async fn events_are_append_only_ordered_and_idempotent_per_request_id() {
    let path = temp_db("events");
    let s = SqliteStore::open(&path).await.unwrap();
    let u = s.create_user("host", "h").await.unwrap();
    let g1 = s.create_game("a", u, "i1", &json!({}), 0).await.unwrap();
    let g2 = s.create_game("b", u, "i2", &json!({}), 0).await.unwrap();

    assert_eq!(s.append(g1, &ev(1, Some("r1"), "order")).await.unwrap(), Appended::New(1));
    assert_eq!(s.append(g1, &ev(2, None, "resolve")).await.unwrap(), Appended::New(2));
    assert_eq!(s.append(g1, &ev(3, Some("r1"), "order")).await.unwrap(), Appended::Duplicate(1));
    // The same request id in another game is another request.
    assert_eq!(s.append(g2, &ev(3, Some("r1"), "order")).await.unwrap(), Appended::New(1));

    drop(s);
    // Durable: a fresh open sees everything that was acknowledged.
    let s = SqliteStore::open(&path).await.unwrap();
    let log = s.events(g1).await.unwrap();
    assert_eq!(log.iter().map(|e| e.seq).collect::<Vec<_>>(), vec![1, 2]);
    assert_eq!(log[0].kind, "order");
    assert_eq!(log[0].payload, json!({"k": "order"}));
    assert_eq!(log[1].client_request_id, None);
    assert_eq!(s.events(g2).await.unwrap().len(), 1);
}

#[tokio::test]
async fn the_database_refuses_updates_and_deletes_of_events() {
    let path = temp_db("appendonly");
    let s = SqliteStore::open(&path).await.unwrap();
    let u = s.create_user("host", "h").await.unwrap();
    let g = s.create_game("a", u, "i1", &json!({}), 0).await.unwrap();
    s.append(g, &ev(1, None, "order")).await.unwrap();
    drop(s);
    // Go around the trait: even raw SQL cannot rewrite history.
    use sqlx::Connection;
    let mut c = sqlx::SqliteConnection::connect(&format!("sqlite://{path}")).await.unwrap();
    assert!(sqlx::query("UPDATE events SET kind = 'x'").execute(&mut c).await.is_err());
    assert!(sqlx::query("DELETE FROM events").execute(&mut c).await.is_err());
}

#[tokio::test]
async fn concurrent_appends_get_distinct_sequence_numbers() {
    let path = temp_db("concurrent");
    let s = SqliteStore::open(&path).await.unwrap();
    let u = s.create_user("host", "h").await.unwrap();
    let g = s.create_game("a", u, "i1", &json!({}), 0).await.unwrap();
    let mut tasks = Vec::new();
    for i in 0..20 {
        let s = s.clone();
        tasks.push(tokio::spawn(async move { s.append(g, &ev(i, Some(&format!("r{i}")), "order")).await }));
    }
    for t in tasks {
        t.await.unwrap().unwrap();
    }
    let seqs: Vec<i64> = s.events(g).await.unwrap().iter().map(|e| e.seq).collect();
    assert_eq!(seqs, (1..=20).collect::<Vec<_>>());
}
