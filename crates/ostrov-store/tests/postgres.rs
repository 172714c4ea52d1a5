//! The PostgreSQL store keeps the SQLite store's guarantees: versioned migrations run on
//! start (once, however many nodes start together), append-only events refused even to raw
//! SQL, `(game, seq)` ordered per game, a request id once per game, optimistic appends
//! that report the conflict, and an announcement of every append on `LISTEN`. These need
//! a PostgreSQL server named by `OSTROV_TEST_PG` (see `ostrov_store::testdb`); without it
//! they skip, and `postgres_tests_need_the_server_variable` says so in one line.

mod common;

use ostrov_store::testdb::{self, TestDb};
use ostrov_store::{Accounts, AnyStore, Appended, Change, EventLog, NewEvent, PgStore, StoreError};
use serde_json::json;

fn ev(at: i64, req: Option<&str>, kind: &str) -> NewEvent {
    NewEvent {
        at,
        author: Some(1),
        client_request_id: req.map(str::to_string),
        request_hash: None,
        kind: kind.to_string(),
        payload: json!({"k": kind, "text": "Ёжик «в тумане»"}),
    }
}

#[test]
fn postgres_tests_need_the_server_variable() {
    if std::env::var(testdb::VAR).is_err() {
        testdb::skipped_once();
    }
}

#[tokio::test]
async fn migrates_once_even_when_nodes_start_together() {
    let Some(db) = TestDb::create("migrate") else { return };
    let opens: Vec<_> = (0..4).map(|_| tokio::spawn(PgStore::open_owned(db.url.clone()))).collect();
    for o in opens {
        o.await.unwrap().unwrap();
    }
    let s = PgStore::open(&db.url).await.unwrap();
    let versions: Vec<i64> =
        sqlx::query_scalar("SELECT version FROM schema_version ORDER BY version").fetch_all(s.pool()).await.unwrap();
    assert_eq!(versions, (1..=versions.len() as i64).collect::<Vec<_>>(), "each migration once");
    // `--db postgres://…` picks this store.
    assert_eq!(AnyStore::open(&db.url).await.unwrap().kind(), "PostgreSQL");
}

/// `AnyStore` forwards every method to the store it holds, the ones with a default in the
/// trait too: over PostgreSQL it is shared, announces appends and takes the lease.
#[tokio::test]
async fn any_store_is_the_postgres_store_it_holds() {
    let Some(db) = TestDb::create("any") else { return };
    let s = AnyStore::open(&db.url).await.unwrap();
    assert!(s.shared(), "not the trait's default");
    assert!(s.lead().await.unwrap());
    let mut changes = s.changes().expect("a shared store announces appends");
    assert_eq!(changes.recv().await, Some(Change::Missed), "listening");
    let (u, g) = common::users_sessions_games(&s).await;
    assert_eq!(s.append(g, 0, ev(1, Some("a"), "created")).await.unwrap(), Appended::New(1));
    assert_eq!(changes.recv().await, Some(Change::Appended { game_id: g, seq: 1 }));
    assert_eq!(s.events_after(g, 0).await.unwrap()[0].author, Some(1));
    assert_eq!(s.user_by_id(u).await.unwrap().unwrap().name, "Вика");
}

#[tokio::test]
async fn users_sessions_games() {
    let Some(db) = TestDb::create("users") else { return };
    let s = PgStore::open(&db.url).await.unwrap();
    let (u, g) = common::users_sessions_games(&s).await;
    let row = s.game(g).await.unwrap().unwrap();
    assert_eq!((row.setup, row.created_at, row.host_id), (json!({"slots": 8}), 7, u));
    assert!(matches!(s.create_game("b", u, "inv1", &json!({}), 0).await, Err(StoreError::Conflict(_))));
    assert_eq!(s.games().await.unwrap().len(), 1);
    // PostgreSQL text holds no NUL: such a key is simply in no row.
    assert!(s.user_by_name("Ви\0ка").await.unwrap().is_none());
    assert!(s.game_by_invite("inv\0").await.unwrap().is_none());
    assert!(s.session_user("t\0k", 0).await.unwrap().is_none());
}

#[tokio::test]
async fn events_are_append_only_ordered_and_idempotent_per_request_id() {
    let Some(db) = TestDb::create("events") else { return };
    let s = PgStore::open(&db.url).await.unwrap();
    let u = s.create_user("host", "HOST", "h", 0).await.unwrap();
    let g1 = s.create_game("a", u, "i1", &json!({}), 0).await.unwrap();
    let g2 = s.create_game("b", u, "i2", &json!({}), 0).await.unwrap();
    assert_eq!(s.append(g1, 0, ev(1, Some("r1"), "order")).await.unwrap(), Appended::New(1));
    assert_eq!(s.append(g1, 1, ev(2, None, "resolve")).await.unwrap(), Appended::New(2));
    assert_eq!(s.append(g1, 2, ev(3, Some("r1"), "order")).await.unwrap(), Appended::Duplicate(1));
    assert_eq!(s.append(g2, 0, ev(3, Some("r1"), "order")).await.unwrap(), Appended::New(1));
    drop(s);
    let s = PgStore::open(&db.url).await.unwrap();
    let log = s.events(g1).await.unwrap();
    assert_eq!(log.iter().map(|e| e.seq).collect::<Vec<_>>(), vec![1, 2]);
    assert_eq!(log[0].payload, json!({"k": "order", "text": "Ёжик «в тумане»"}));
    assert_eq!((log[0].author, log[0].at), (Some(1), 1));
    assert_eq!(log[1].client_request_id, None);
    assert_eq!(s.events_after(g1, 1).await.unwrap().iter().map(|e| e.seq).collect::<Vec<_>>(), vec![2]);
    // Raw SQL cannot rewrite history either.
    for sql in ["UPDATE events SET kind = 'x'", "DELETE FROM events", "TRUNCATE events"] {
        let e = sqlx::query(sql).execute(s.pool()).await.expect_err(sql).to_string();
        assert!(e.contains("append-only"), "{sql}: {e}");
    }
    assert_eq!(s.events(g1).await.unwrap().len(), 2);
}

#[tokio::test]
async fn an_append_checked_against_an_old_seq_is_a_conflict() {
    let Some(db) = TestDb::create("conflict") else { return };
    let s = PgStore::open(&db.url).await.unwrap();
    let u = s.create_user("host", "HOST", "h", 0).await.unwrap();
    let g = s.create_game("a", u, "i1", &json!({}), 0).await.unwrap();
    assert_eq!(s.append(g, 0, ev(1, None, "created")).await.unwrap(), Appended::New(1));
    assert_eq!(s.append(g, 1, ev(1, Some("a"), "order")).await.unwrap(), Appended::New(2));
    // Another node, still at seq 1, appends: refused, told where the log is.
    assert_eq!(s.append(g, 1, ev(1, Some("b"), "order")).await.unwrap(), Appended::Conflict { last: 2 });
    // A node ahead of the log (as after an asynchronous fail-over lost events) is refused
    // too: nothing is written past a hole.
    assert_eq!(s.append(g, 3, ev(1, Some("b"), "order")).await.unwrap(), Appended::Conflict { last: 2 });
    assert_eq!(s.append(g, 9, ev(1, None, "order")).await.unwrap(), Appended::Conflict { last: 2 });
    // A resent request id is a duplicate, whatever seq it was checked against; -1 looks up.
    assert_eq!(s.append(g, 1, ev(1, Some("a"), "order")).await.unwrap(), Appended::Duplicate(2));
    assert_eq!(s.append(g, -1, ev(1, Some("a"), "lookup")).await.unwrap(), Appended::Duplicate(2));
    assert_eq!(s.append(g, -1, ev(1, Some("z"), "lookup")).await.unwrap(), Appended::Conflict { last: 2 });
    // Appends issued one after another without waiting are applied in call order.
    let pipelined: Vec<_> = (2..6).map(|n| s.append(g, n, ev(1, Some(&format!("p{n}")), "order"))).collect();
    for (n, p) in (2..6).zip(pipelined) {
        assert_eq!(p.await.unwrap(), Appended::New(n + 1));
    }
    // Two nodes, twenty writers each, racing for the same seq: exactly one wins.
    let other = PgStore::open(&db.url).await.unwrap();
    let racing: Vec<_> = (0..40)
        .map(|i| {
            let node = if i % 2 == 0 { &s } else { &other };
            node.append(g, 6, ev(1, Some(&format!("r{i}")), "order"))
        })
        .collect();
    let mut won = 0;
    for r in racing {
        match r.await.unwrap() {
            Appended::New(7) => won += 1,
            Appended::Conflict { last: 7 } => {}
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(won, 1);
    assert_eq!(s.events(g).await.unwrap().len(), 7);
    // A finished game's summary.
    s.finish_game(g, &json!({"winner": "town"})).await.unwrap();
    assert_eq!(s.game(g).await.unwrap().unwrap().finished, Some(json!({"winner": "town"})));
}

#[tokio::test]
async fn another_node_hears_every_append_and_one_node_holds_the_lease() {
    let Some(db) = TestDb::create("notify") else { return };
    let a = PgStore::open(&db.url).await.unwrap();
    let b = PgStore::open(&db.url).await.unwrap();
    let mut heard = b.changes().expect("PostgreSQL announces appends");
    assert_eq!(heard.recv().await, Some(Change::Missed), "listening starts with a catch-up");
    let u = a.create_user("host", "HOST", "h", 0).await.unwrap();
    let g = a.create_game("a", u, "i1", &json!({}), 0).await.unwrap();
    for i in 0..3 {
        a.append(g, i, ev(i, None, "order")).await.unwrap();
    }
    for seq in 1..=3 {
        let c = tokio::time::timeout(std::time::Duration::from_secs(2), heard.recv()).await.expect("in time");
        assert_eq!(c, Some(Change::Appended { game_id: g, seq }));
    }
    // The scheduler lease: one holder; it passes on when the holder goes away.
    assert!(a.lead().await.unwrap());
    assert!(a.lead().await.unwrap(), "kept");
    assert!(!b.lead().await.unwrap());
    drop(a);
    let until = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while !b.lead().await.unwrap() {
        assert!(std::time::Instant::now() < until, "the lease did not pass on");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// Sessions are cached on each node (a query less per request), and a session one node
/// ends is ended on the others as soon as its notice arrives: a logout, a password change
/// and "end my other sessions" each reach a node that had the session cached.
#[tokio::test]
async fn a_session_ended_on_one_node_is_ended_on_every_node() {
    let Some(db) = TestDb::create("sessions") else { return };
    let (a, b) = (PgStore::open(&db.url).await.unwrap(), PgStore::open(&db.url).await.unwrap());
    let mut heard = b.changes().expect("a shared store listens");
    assert_eq!(heard.recv().await, Some(Change::Missed), "b listens");
    let u = a.create_user("Аня", "АНЯ", "hash", 0).await.unwrap();
    for t in ["logout", "phone", "laptop", "kept"] {
        a.create_session(t, u, 1_000).await.unwrap();
    }
    // b reads each once, then answers from memory: the rows are gone behind its back
    // (deleted as no node would, without a notice), and b still knows them.
    for t in ["logout", "phone", "laptop", "kept"] {
        assert_eq!(b.session_user(t, 10).await.unwrap(), Some(u));
    }
    sqlx::query("DELETE FROM sessions WHERE token = 'phone'").execute(a.pool()).await.unwrap();
    assert_eq!(b.session_user("phone", 10).await.unwrap(), Some(u), "cached on b");
    assert_eq!(a.session_user("phone", 10).await.unwrap(), None, "a does not listen: it reads the table");
    assert_eq!(b.session_user("kept", 1_000).await.unwrap(), None, "expired, cached or not");

    // Each way of ending sessions on a reaches b.
    let gone = |token: &'static str| {
        let b = b.clone();
        async move {
            for _ in 0..200 {
                if b.session_user(token, 10).await.unwrap().is_none() {
                    return true;
                }
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            }
            false
        }
    };
    a.delete_session("logout").await.unwrap();
    assert!(gone("logout").await, "a logout on a ends the session on b");
    a.create_session("laptop-2", u, 1_000).await.unwrap();
    assert_eq!(b.session_user("laptop-2", 10).await.unwrap(), Some(u));
    assert_eq!(a.end_other_sessions(u, "kept").await.unwrap(), 2, "laptop and laptop-2");
    assert!(gone("laptop").await && gone("laptop-2").await && gone("phone").await, "ended on b");
    assert_eq!(b.session_user("kept", 10).await.unwrap(), Some(u), "the one that asked is kept");
    a.create_session("other", u, 1_000).await.unwrap();
    assert_eq!(b.session_user("other", 10).await.unwrap(), Some(u));
    assert_eq!(a.set_password(u, "new-hash", "kept").await.unwrap(), 1);
    assert!(gone("other").await, "a password change ends the other sessions on b");
    assert_eq!(b.session_user("kept", 10).await.unwrap(), Some(u));
}

/// A node renews its leases while its writer appends to the same games: both lock lease
/// rows, always in the order of the games, so they never wait for each other in a circle.
/// (They did: the renewal took the rows in the order the database found them and the
/// writer's fence trigger in the order of its batch, and PostgreSQL broke the deadlock by
/// failing one of them.) Forty games written at once in batches of every order, their
/// leases renewed ten times a second: every append goes in, and the database counts no
/// deadlock (`pg_stat_database.deadlocks`: a failed renewal is only logged).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn renewing_leases_while_writing_many_games_never_deadlocks() {
    use std::time::{Duration, Instant};
    let Some(db) = TestDb::create("lease_order") else { return };
    let s = PgStore::open(&db.url).await.unwrap();
    s.join_nodes("127.0.0.1:9".into(), Duration::from_millis(300)).unwrap();
    let u = s.create_user("host", "HOST", "h", 0).await.unwrap();
    let mut games = Vec::new();
    for i in 0..40 {
        let g = s.create_game("g", u, &format!("inv{i}"), &json!({}), 0).await.unwrap();
        assert!(matches!(s.own(g).await.unwrap(), ostrov_store::Owner::Here { .. }));
        games.push(g);
    }
    let until = Instant::now() + Duration::from_secs(4);
    let writers: Vec<_> = games
        .iter()
        .map(|&g| {
            let s = s.clone();
            tokio::spawn(async move {
                let mut seq = 0;
                while Instant::now() < until {
                    match s.append(g, seq, ev(seq, None, "order")).await {
                        Ok(Appended::New(n)) => seq = n,
                        other => panic!("game {g} after {seq}: {other:?}"),
                    }
                }
                seq
            })
        })
        .collect();
    let mut written = 0;
    for w in writers {
        written += w.await.expect("a writer");
    }
    assert!(written > 400, "{written} appends");
    // A session's counts reach the statistics when it is idle, within a second.
    let deadlocks = || async {
        let _ = sqlx::query("SELECT pg_stat_clear_snapshot()").execute(s.pool()).await;
        sqlx::query_scalar::<_, i64>("SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()")
            .fetch_one(s.pool())
            .await
            .unwrap()
    };
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(deadlocks().await, 0, "the renewal and the writer deadlocked");
}
