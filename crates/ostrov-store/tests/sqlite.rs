mod common;

use ostrov_store::{Accounts, Appended, EventLog, NewEvent, SqliteStore, StoreError};
use serde_json::json;

fn temp_db(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("ostrov-store-{}-{}", name, std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("ostrov.db").to_string_lossy().into_owned()
}

/// A store opened at `path` (a file or `:memory:`) with one host and one game in it: the
/// game's id.
async fn store_with_game(path: &str) -> (SqliteStore, i64) {
    let s = SqliteStore::open(path).await.unwrap();
    let u = s.create_user("host", "HOST", "h", 0).await.unwrap();
    let g = s.create_game("a", u, "i1", &json!({}), 0).await.unwrap();
    (s, g)
}

fn ev(at: i64, req: Option<&str>, kind: &str) -> NewEvent {
    NewEvent {
        at,
        author: Some(1),
        client_request_id: req.map(str::to_string),
        request_hash: None,
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
    common::users_sessions_games(&s).await;
}

/// `AnyStore` forwards every method to the store it holds: over SQLite it is the one
/// writer of its logs (not shared, no announcements, always the lead).
#[tokio::test]
async fn any_store_is_the_sqlite_store_it_holds() {
    let s = ostrov_store::AnyStore::open(&temp_db("any")).await.unwrap();
    assert_eq!(s.kind(), "SQLite");
    assert!(!s.shared());
    assert!(s.changes().is_none());
    assert!(s.lead().await.unwrap());
    let (_, g) = common::users_sessions_games(&s).await;
    assert_eq!(s.append(g, 0, ev(1, Some("r1"), "created")).await.unwrap(), Appended::New(1));
    assert_eq!(s.append(g, 0, ev(2, Some("r1"), "created")).await.unwrap(), Appended::Duplicate(1));
    assert_eq!(s.event(g, 1).await.unwrap().unwrap().kind, "created");
    assert!(s.events_after(g, 1).await.unwrap().is_empty());
}

#[tokio::test]
async fn events_are_append_only_ordered_and_idempotent_per_request_id() {
    let path = temp_db("events");
    let s = SqliteStore::open(&path).await.unwrap();
    let u = s.create_user("host", "HOST", "h", 0).await.unwrap();
    let g1 = s.create_game("a", u, "i1", &json!({}), 0).await.unwrap();
    let g2 = s.create_game("b", u, "i2", &json!({}), 0).await.unwrap();

    assert_eq!(s.append(g1, 0, ev(1, Some("r1"), "order")).await.unwrap(), Appended::New(1));
    assert_eq!(s.append(g1, 1, ev(2, None, "resolve")).await.unwrap(), Appended::New(2));
    assert_eq!(s.append(g1, 2, ev(3, Some("r1"), "order")).await.unwrap(), Appended::Duplicate(1));
    // The request id is checked before the expected sequence number.
    assert_eq!(s.append(g1, 7, ev(3, Some("r1"), "order")).await.unwrap(), Appended::Duplicate(1));
    // A stale expectation adds nothing.
    assert_eq!(s.append(g1, 1, ev(3, Some("r2"), "order")).await.unwrap(), Appended::Conflict { last: 2 });
    assert_eq!(s.append(g1, 3, ev(3, Some("r2"), "order")).await.unwrap(), Appended::Conflict { last: 2 });
    // The same request id in another game is another request.
    assert_eq!(s.append(g2, 0, ev(3, Some("r1"), "order")).await.unwrap(), Appended::New(1));

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
    let (s, g) = store_with_game(&path).await;
    s.append(g, 0, ev(1, None, "order")).await.unwrap();
    drop(s);
    // Go around the trait: even raw SQL cannot rewrite history.
    use sqlx::Connection;
    let mut c = sqlx::SqliteConnection::connect(&format!("sqlite://{path}")).await.unwrap();
    assert!(sqlx::query("UPDATE events SET kind = 'x'").execute(&mut c).await.is_err());
    assert!(sqlx::query("DELETE FROM events").execute(&mut c).await.is_err());
}

#[tokio::test]
async fn pipelined_appends_of_many_games_are_grouped_into_few_commits() {
    let path = temp_db("group");
    let s = SqliteStore::open(&path).await.unwrap();
    let u = s.create_user("host", "HOST", "h", 0).await.unwrap();
    let mut games = Vec::new();
    for i in 0..5 {
        games.push(s.create_game("a", u, &format!("i{i}"), &json!({}), 0).await.unwrap());
    }
    let (b0, _) = s.batch_counts();
    // Every append is issued when called: 5 games x 40 appends in call order, expected
    // sequence numbers chained, before any answer is awaited.
    let mut pending = Vec::new();
    for k in 0..40 {
        for &g in &games {
            pending.push((g, k + 1, s.append(g, k, ev(k, Some(&format!("r{k}")), "order"))));
        }
    }
    // A duplicate and a conflict queued behind them.
    let dup = s.append(games[0], 40, ev(0, Some("r3"), "order"));
    let stale = s.append(games[1], 3, ev(0, Some("x"), "order"));
    for (_, seq, p) in pending {
        assert_eq!(p.await.unwrap(), Appended::New(seq));
    }
    assert_eq!(dup.await.unwrap(), Appended::Duplicate(4));
    assert_eq!(stale.await.unwrap(), Appended::Conflict { last: 40 });
    let (b1, n) = s.batch_counts();
    assert_eq!(n, 202);
    assert!(b1 - b0 < 100, "{} commits for 202 appends: not grouped", b1 - b0);
    for &g in &games {
        let log = s.events(g).await.unwrap();
        assert_eq!(log.iter().map(|e| e.seq).collect::<Vec<_>>(), (1..=40).collect::<Vec<_>>());
        assert_eq!(log[5].client_request_id.as_deref(), Some("r5"));
        assert_eq!(log[5].author, Some(1));
        assert_eq!(log[5].payload, json!({"k": "order"}));
    }
}

/// A lone append is written by the task that awaits it, on the thread that runs it. One
/// issued while another is unanswered is the writer thread's, even if awaited first: a
/// runtime thread never waits for a sync while other requests wait for it.
#[tokio::test]
async fn a_lone_append_is_written_by_its_own_task_and_one_among_others_by_the_writer_thread() {
    let (s, g) = store_with_game(&temp_db("lone")).await;
    // The first append of a game is checked against the log by the writer thread.
    assert_eq!(s.append(g, 0, ev(0, None, "order")).await.unwrap(), Appended::New(1));
    let t0 = s.batches_by_tasks();
    for k in 1..6 {
        assert_eq!(s.append(g, k, ev(k, None, "order")).await.unwrap(), Appended::New(k + 1));
    }
    assert_eq!(s.batches_by_tasks() - t0, 5, "each lone append is written by its task");
    let (b0, _) = s.batch_counts();
    let first = s.append(g, 6, ev(6, None, "order"));
    let second = s.append(g, 7, ev(7, None, "order"));
    assert_eq!(second.await.unwrap(), Appended::New(8));
    assert_eq!(first.await.unwrap(), Appended::New(7));
    assert_eq!(s.batches_by_tasks() - t0, 5, "the second was issued behind the first: the writer thread wrote both");
    assert_eq!(s.batch_counts().0 - b0, 1, "both in one batch");
}

#[tokio::test]
async fn a_failed_batch_adds_nothing_and_answers_every_append_with_an_error() {
    let path = temp_db("failed");
    let (s, g) = store_with_game(&path).await;
    assert_eq!(s.append(g, 0, ev(1, None, "created")).await.unwrap(), Appended::New(1));
    s.hold_batches(100);
    s.fail_next_batches(1);
    let first = s.append(g, 1, ev(2, Some("a"), "order"));
    tokio::time::sleep(std::time::Duration::from_millis(30)).await;
    // Queued while the first batch is held: pipelined on top of it.
    let second = s.append(g, 2, ev(3, Some("b"), "order"));
    let third = s.append(g, 3, ev(4, Some("c"), "order"));
    assert!(matches!(first.await, Err(StoreError::Db(_))));
    assert_eq!(second.await.unwrap(), Appended::Conflict { last: 1 }, "built on the failed append");
    assert_eq!(third.await.unwrap(), Appended::Conflict { last: 1 });
    s.hold_batches(0);
    assert_eq!(s.events(g).await.unwrap().len(), 1);
    assert_eq!(s.append(g, 1, ev(5, Some("a"), "order")).await.unwrap(), Appended::New(2));
}

#[tokio::test]
async fn a_finished_game_keeps_its_summary() {
    let (s, g) = store_with_game(":memory:").await;
    assert_eq!(s.append(g, 0, ev(1, None, "created")).await.unwrap(), Appended::New(1));
    assert_eq!(s.game(g).await.unwrap().unwrap().finished, None);
    s.finish_game(g, &json!({"day": 3})).await.unwrap();
    assert_eq!(s.games().await.unwrap()[0].finished, Some(json!({"day": 3})));
}

#[tokio::test]
async fn a_backup_is_the_whole_database_taken_while_it_runs() {
    let path = temp_db("backup");
    let (s, g) = store_with_game(&path).await;
    s.append(g, 0, ev(1, Some("r1"), "order")).await.unwrap();
    let out = format!("{path}.backup");
    s.backup(&out).await.unwrap();
    s.append(g, 1, ev(2, None, "order")).await.unwrap();
    let copy = SqliteStore::open(&out).await.unwrap();
    assert_eq!(copy.events(g).await.unwrap().len(), 1, "the copy is the database at the backup");
    assert_eq!(s.events_after(g, 1).await.unwrap().len(), 1);
    assert!(!s.shared() && s.changes().is_none(), "one node alone: nothing to hear");
    assert!(s.lead().await.unwrap(), "one node alone holds the lease");
    assert!(s.backup(&out).await.is_err(), "an existing file is not overwritten");
}

#[tokio::test]
async fn one_event_by_seq_with_its_request_digest() {
    let (s, g) = store_with_game(":memory:").await;
    let mut e = ev(1, Some("r1"), "order");
    e.request_hash = Some("abc".into());
    s.append(g, 0, e).await.unwrap();
    s.append(g, 1, ev(2, None, "resolve")).await.unwrap();
    let one = s.event(g, 1).await.unwrap().unwrap();
    assert_eq!((one.seq, one.request_hash.as_deref(), one.kind.as_str()), (1, Some("abc"), "order"));
    assert_eq!(s.event(g, 2).await.unwrap().unwrap().request_hash, None);
    assert!(s.event(g, 3).await.unwrap().is_none());
}

#[tokio::test]
async fn a_database_of_the_first_schema_migrates_and_keeps_its_log() {
    let path = temp_db("oldschema");
    {
        use sqlx::Connection;
        let mut c = sqlx::SqliteConnection::connect(&format!("sqlite://{path}?mode=rwc")).await.unwrap();
        for q in [
            "CREATE TABLE schema_version (version INTEGER NOT NULL)",
            "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL)",
            "CREATE TABLE games (id INTEGER PRIMARY KEY, title TEXT NOT NULL, host_id INTEGER NOT NULL, \
             invite TEXT NOT NULL UNIQUE, setup TEXT NOT NULL, created_at INTEGER NOT NULL)",
            "CREATE TABLE sessions (token TEXT PRIMARY KEY, user_id INTEGER NOT NULL, expires_at INTEGER NOT NULL)",
            "CREATE TABLE events (game_id INTEGER NOT NULL, seq INTEGER NOT NULL, at INTEGER NOT NULL, author INTEGER, \
             client_request_id TEXT, kind TEXT NOT NULL, payload TEXT NOT NULL, PRIMARY KEY (game_id, seq), \
             UNIQUE (game_id, client_request_id))",
            "CREATE TRIGGER events_no_update BEFORE UPDATE ON events BEGIN SELECT RAISE(ABORT, 'append-only'); END",
            "CREATE TRIGGER events_no_delete BEFORE DELETE ON events BEGIN SELECT RAISE(ABORT, 'append-only'); END",
            "INSERT INTO schema_version (version) VALUES (1), (2), (3), (4), (5), (6)",
            "INSERT INTO users (name, password_hash) VALUES ('host', 'h')",
            "INSERT INTO games (title, host_id, invite, setup, created_at) VALUES ('a', 1, 'i1', '{}', 0)",
            "INSERT INTO events VALUES (1, 1, 5, 1, 'user1:r1', 'order', '{\"k\": 1}')",
        ] {
            sqlx::query(q).execute(&mut c).await.unwrap();
        }
    }
    let s = SqliteStore::open(&path).await.unwrap();
    let old = s.event(1, 1).await.unwrap().unwrap();
    assert_eq!((old.client_request_id.as_deref(), old.request_hash), (Some("user1:r1"), None));
    let mut e = ev(6, Some("r2"), "order");
    e.request_hash = Some("d".into());
    assert_eq!(s.append(1, 1, e).await.unwrap(), Appended::New(2));
}

/// Sessions are cached in memory, but the file stays the truth: a restarted store (empty
/// cache) reads them back with their expiry, and a logout ends one for good.
#[tokio::test]
async fn cached_sessions_agree_with_the_file() {
    let path = temp_db("session-cache");
    let s = SqliteStore::open(&path).await.unwrap();
    let u = s.create_user("Аня", "АНЯ", "hash", 0).await.unwrap();
    s.create_session("kept", u, 100).await.unwrap();
    s.create_session("ended", u, 100).await.unwrap();
    assert_eq!(s.session_user("ended", 10).await.unwrap(), Some(u));
    s.delete_session("ended").await.unwrap();
    drop(s);
    let s = SqliteStore::open(&path).await.unwrap();
    assert_eq!(s.session_user("kept", 10).await.unwrap(), Some(u), "read back from the file");
    assert_eq!(s.session_user("kept", 10).await.unwrap(), Some(u), "then from the cache");
    assert_eq!(s.session_user("kept", 100).await.unwrap(), None, "expired, cached or not");
    assert_eq!(s.session_user("ended", 10).await.unwrap(), None, "a logout is final");
    assert_eq!(s.session_user("never", 10).await.unwrap(), None);
}

/// The writer remembers each game's last number to write a batch as one statement; when
/// another writer appended meanwhile (a second store on the same file), the remembered
/// number is stale: the statement fails on the log's keys and the careful way answers.
#[tokio::test]
async fn a_stale_remembered_number_is_caught_by_the_log_keys() {
    let path = temp_db("stale-known");
    let a = SqliteStore::open(&path).await.unwrap();
    let b = SqliteStore::open(&path).await.unwrap();
    let u = a.create_user("host", "HOST", "h", 0).await.unwrap();
    let g = a.create_game("a", u, "i1", &json!({}), 0).await.unwrap();
    assert_eq!(a.append(g, 0, ev(1, Some("a1"), "order")).await.unwrap(), Appended::New(1));
    assert_eq!(a.append(g, 1, ev(2, Some("a2"), "order")).await.unwrap(), Appended::New(2), "a knows 2 now");
    assert_eq!(b.append(g, 2, ev(3, Some("b1"), "order")).await.unwrap(), Appended::New(3));
    // a still believes the last is 2: its one-statement insert of seq 3 fails, nothing is
    // written twice, and the answer is the conflict with the real last number.
    assert_eq!(a.append(g, 2, ev(4, Some("a3"), "order")).await.unwrap(), Appended::Conflict { last: 3 });
    assert_eq!(a.append(g, 3, ev(4, Some("a3"), "order")).await.unwrap(), Appended::New(4));
    // A request id the other writer stored is a duplicate, not a second row.
    assert_eq!(b.append(g, 3, ev(5, Some("b2"), "order")).await.unwrap(), Appended::Conflict { last: 4 });
    assert_eq!(b.append(g, 4, ev(5, Some("b2"), "order")).await.unwrap(), Appended::New(5));
    assert_eq!(a.append(g, 5, ev(6, Some("b2"), "order")).await.unwrap(), Appended::Duplicate(5));
    let log = a.events(g).await.unwrap();
    assert_eq!(log.iter().map(|e| e.seq).collect::<Vec<_>>(), vec![1, 2, 3, 4, 5]);
    assert_eq!(
        log.iter().map(|e| e.client_request_id.clone().unwrap()).collect::<Vec<_>>(),
        vec!["a1", "a2", "b1", "a3", "b2"]
    );
}

/// Issue 16 (point 12): a database file the server could read but not write is refused
/// when it is opened, with a message saying so (not a failing write per request later).
#[tokio::test]
async fn a_read_only_database_is_refused_at_open() {
    let dir = std::env::temp_dir().join(format!("ostrov-ro-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("ro.db");
    let p = path.to_str().unwrap().to_string();
    let s = SqliteStore::open(&p).await.unwrap();
    s.create_user("Вика", "ВИКА", "hash", 0).await.unwrap();
    drop(s);
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    // Root may write a file without write permission: make it immutable instead.
    let immutable = std::process::Command::new("chattr").arg("+i").arg(&path).status().is_ok_and(|s| s.success());
    if !immutable {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    }
    if std::fs::OpenOptions::new().append(true).open(&path).is_ok() {
        eprintln!("a_read_only_database_is_refused_at_open: not run (this user can write any file)");
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    let e = SqliteStore::open(&p).await.err().expect("a read-only database is refused");
    let _ = std::process::Command::new("chattr").arg("-i").arg(&path).status();
    let _ = std::fs::remove_dir_all(&dir);
    let text = e.to_string();
    assert!(text.contains("только для чтения") || text.contains("readonly") || text.contains("read-only"), "{text}");
}

/// An append whose future is dropped before it is ever polled is written all the same
/// (the writer thread is woken by the drop), on a file and in memory.
#[tokio::test]
async fn an_append_dropped_unpolled_is_still_written() {
    for path in [temp_db("unpolled"), ":memory:".to_string()] {
        let (s, g) = store_with_game(&path).await;
        drop(s.append(g, 0, ev(1, Some("first"), "created")));
        // Nothing else is appended (a later append would write it too): it comes alone.
        let until = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while s.events(g).await.unwrap().is_empty() {
            assert!(std::time::Instant::now() < until, "{path}: a dropped append was never written");
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        assert_eq!(s.append(g, 1, ev(2, Some("second"), "order")).await.unwrap(), Appended::New(2), "{path}");
        let log = s.events(g).await.unwrap();
        assert_eq!(
            log.iter().map(|e| e.client_request_id.as_deref()).collect::<Vec<_>>(),
            [Some("first"), Some("second")]
        );
    }
}

/// An append made while another connection holds the database's write lock is not
/// refused: the task that awaits it does not wait for the lock (it never blocks on
/// another connection), the writer thread does, and writes it once the lock is free.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_append_waits_for_a_write_lock_another_connection_holds() {
    use sqlx::{ConnectOptions, Connection};
    let path = temp_db("locked");
    let (s, g) = store_with_game(&path).await;
    assert_eq!(s.append(g, 0, ev(1, None, "created")).await.unwrap(), Appended::New(1));
    let mut other = sqlx::sqlite::SqliteConnectOptions::new().filename(&path).connect().await.unwrap();
    let mut tx = other.begin_with("BEGIN IMMEDIATE").await.unwrap();
    let pending = tokio::spawn(s.append(g, 1, ev(2, Some("a"), "order")));
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    assert!(!pending.is_finished(), "written while another connection held the write lock");
    sqlx::query("INSERT INTO schema_version (version) VALUES (-2)").execute(&mut *tx).await.unwrap();
    tx.rollback().await.unwrap();
    assert_eq!(pending.await.unwrap().unwrap(), Appended::New(2));
    assert_eq!(s.events(g).await.unwrap().len(), 2);
}
