//! `ostrov backup` end to end: a backup of the SQLite database a running `ostrov serve`
//! writes to (players voting all along) opens, holds a prefix of the game's log at least as
//! long as the log was when the backup started, and a server started on it serves the same
//! game; an existing file is never overwritten; a missing database is a clear error; for
//! PostgreSQL the pg_dump command is printed when pg_dump is missing, and (with
//! OSTROV_TEST_PG) a dump restored with pg_restore holds the same games and events.

mod support;

use std::net::SocketAddr;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use ostrov_server::client::Client;
use ostrov_store::{Accounts, EventLog, NewEvent, PgStore, SqliteStore};
use serde_json::{json, Value};
use support::{ok, temp_dir, Node, T0};

/// The binary in Russian (the default), whatever the locale of the machine running the tests.
fn ostrov(args: &[&str]) -> Output {
    ostrov_with(args, |_| {})
}

fn ostrov_with(args: &[&str], env: impl FnOnce(&mut Command)) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ostrov"));
    c.args(args).env_remove("LC_ALL").env_remove("LC_MESSAGES").env("LANG", "ru_RU.UTF-8");
    env(&mut c);
    c.output().expect("the binary runs")
}

/// Exit code 2, a message on stderr that contains `needle`, nothing on stdout, no panic.
fn assert_bad(o: &Output, needle: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "stderr: {err}");
    assert!(o.stdout.is_empty(), "stdout: {}", String::from_utf8_lossy(&o.stdout));
    assert!(err.contains(needle), "expected {needle:?} in: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

fn block_on<T>(f: impl std::future::Future<Output = T>) -> T {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(f)
}

fn signup(addr: SocketAddr, name: &str) -> Client {
    let mut c = Client::new(addr);
    ok(c.post("/api/signup", json!({"name": name, "password": "password-123"})), "signup");
    c
}

fn events(host: &mut Client, game: i64) -> Vec<Value> {
    ok(host.get(&format!("/api/games/{game}/events")), "events").as_array().expect("an array").clone()
}

#[test]
fn a_backup_of_the_database_a_running_server_writes_holds_its_game() {
    let dir = temp_dir("backup-live");
    let (db, clock, out) = (dir.join("ostrov.db"), dir.join("clock"), dir.join("копия.db"));
    std::fs::write(&clock, T0.to_string()).unwrap();
    let server = Node::start(&db, &clock);
    let addr = server.addr;
    let mut host = signup(addr, "Ведущий");
    let g = ok(
        host.post("/api/games", json!({"title": "Резерв", "slots": 6, "setup": "werewolf,seer", "seed": 7})),
        "create",
    );
    let game = g["id"].as_i64().unwrap();
    let invite = g["invite"].as_str().unwrap().to_string();
    let names: Vec<String> = (0..6).map(|i| format!("Игрок{i}")).collect();
    let players: Vec<Client> = names
        .iter()
        .map(|n| {
            let mut c = signup(addr, n);
            ok(c.post(&format!("/api/invites/{invite}/join"), json!({})), "join");
            c
        })
        .collect();
    ok(host.post(&format!("/api/games/{game}/start"), json!({})), "start");

    // The players vote all along, one vote each every 20 ms (200 orders a day each: for
    // at least 4 s), until told to stop.
    let stop = Arc::new(AtomicBool::new(false));
    let voters: Vec<_> = players
        .into_iter()
        .enumerate()
        .map(|(i, mut c)| {
            let (stop, names) = (stop.clone(), names.clone());
            thread::spawn(move || {
                // Staggered, so that some vote is on its way at any moment.
                thread::sleep(Duration::from_millis(3 * i as u64));
                let mut n = 0;
                while !stop.load(Ordering::Relaxed) {
                    let target = &names[(i + 1 + n % 5) % 6];
                    match c.post(&format!("/api/games/{game}/orders"), json!({"act": "vote", "target": target})) {
                        Ok(r) if r.status == 200 => {}
                        Ok(r) => panic!("vote {n} of {}: {} {}", names[i], r.status, r.body),
                        Err(e) => panic!("vote {n} of {}: {e}", names[i]),
                    }
                    n += 1;
                    thread::sleep(Duration::from_millis(20));
                }
                n
            })
        })
        .collect();
    thread::sleep(Duration::from_millis(100));
    // A backup is quick: if no vote happened to land while it ran (the voters sleep
    // between votes), it is taken again, to a new file, until one did.
    let mut tries = 0;
    let (o, before, after) = loop {
        let before = events(&mut host, game).len();
        let o = ostrov(&["backup", "--db", db.to_str().unwrap(), out.to_str().unwrap()]);
        let after = events(&mut host, game).len();
        tries += 1;
        if after > before || tries == 20 || !o.status.success() {
            break (o, before, after);
        }
        std::fs::remove_file(&out).unwrap();
    };
    stop.store(true, Ordering::Relaxed);
    let votes: usize = voters.into_iter().map(|v| v.join().unwrap()).sum();
    let said = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(o.status.success(), "backup failed: {}", String::from_utf8_lossy(&o.stderr));
    let log = events(&mut host, game);
    eprintln!(
        "{votes} votes; the log: {before} entries before the backup ({tries} taken), {after} after it, {} in the end",
        log.len()
    );
    assert!(after > before, "the players stopped voting before the backup ran");

    // The copy: one file (no -wal beside it), checked, a prefix of the live log at least as
    // long as the log was when the backup started; the counts printed are the copy's.
    assert!(!dir.join("копия.db-wal").exists());
    let (copied, counts) = block_on(async {
        let copy = SqliteStore::open_read_only(out.to_str().unwrap()).await.unwrap();
        copy.quick_check().await.unwrap();
        let r = (copy.events(game).await.unwrap(), copy.counts().await.unwrap());
        copy.close().await;
        r
    });
    assert!(copied.len() >= before && copied.len() <= log.len(), "{} entries in the copy", copied.len());
    for (c, l) in copied.iter().zip(&log) {
        assert_eq!((json!(c.seq), json!(c.kind), &c.payload), (l["seq"].clone(), l["kind"].clone(), &l["payload"]));
    }
    assert_eq!((counts.games, counts.users), (1, 7));
    assert_eq!(counts.events, copied.len() as i64);
    assert!(said.contains(&format!("1 игра, {} событ", counts.events)) && said.contains("7 пользователей"), "{said}");
    assert!(said.contains("копия.db"), "{said}");

    // A server started on the copy serves the game as the copy holds it (the host's
    // session is in the copy too).
    drop(server);
    let restored = Node::start(&out, &clock);
    let mut host = Client { addr: restored.addr, ..host };
    let served = events(&mut host, game);
    assert_eq!(served.len(), copied.len());
    assert_eq!(served, log[..copied.len()]);
    drop(restored);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_existing_file_is_never_overwritten() {
    let dir = temp_dir("backup-exists");
    let (db, out) = (dir.join("ostrov.db"), dir.join("old.db"));
    block_on(async {
        let s = SqliteStore::open(db.to_str().unwrap()).await.unwrap();
        s.create_user("Ведущий", "ведущий", "hash", 0).await.unwrap();
        s.close().await;
    });
    std::fs::write(&out, "the last backup").unwrap();
    let o = ostrov(&["backup", "--db", db.to_str().unwrap(), out.to_str().unwrap()]);
    assert_bad(&o, "такой файл уже есть; резервная копия не пишется поверх другого файла");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "the last backup");
    // The same for PostgreSQL, before anything is dumped.
    let o = ostrov(&["backup", "--db", "postgres://postgres@127.0.0.1:1/none", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "the last backup");
    let o = ostrov(&["--lang", "en", "backup", "--db", db.to_str().unwrap(), out.to_str().unwrap()]);
    assert_bad(&o, "the file exists; a backup is never written over another file");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_database_is_a_clear_error_and_is_not_created() {
    let dir = temp_dir("backup-missing");
    let (db, out) = (dir.join("нет.db"), dir.join("out.db"));
    let o = ostrov(&["backup", "--db", db.to_str().unwrap(), out.to_str().unwrap()]);
    assert_bad(&o, "нет такого файла базы данных; укажите базу сервера через --db");
    assert!(!db.exists() && !out.exists());
    // Without --db: ostrov.db in the current directory, as for ostrov serve.
    let o = ostrov_with(&["backup", "out.db"], |c| {
        c.current_dir(&dir);
    });
    assert_bad(&o, "ostrov.db: нет такого файла базы данных");
    // A file that is not a database: said, and the half-made copy removed.
    std::fs::write(&db, "not a database at all").unwrap();
    let o = ostrov(&["backup", "--db", db.to_str().unwrap(), out.to_str().unwrap()]);
    assert_bad(&o, "это не база данных Ostrov");
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn postgres_without_pg_dump_prints_the_command() {
    let dir = temp_dir("backup-nopgdump");
    let out = dir.join("ostrov.dump");
    let url = "postgres://ostrov:secret@db.example.org:5432/ostrov";
    let o = ostrov_with(&["backup", "--db", url, out.to_str().unwrap()], |c| {
        c.env("PATH", &dir);
    });
    let command = format!(
        "pg_dump --format=custom --file {} --dbname 'postgres://ostrov:***@db.example.org:5432/ostrov'",
        out.display()
    );
    assert_bad(&o, "PostgreSQL копируется программой pg_dump, а её нет в PATH");
    assert_bad(&o, &command);
    assert!(!String::from_utf8_lossy(&o.stderr).contains("secret"), "the password is printed");
    assert!(!out.exists(), "nothing is written");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_postgres_dump_restores_to_the_same_games_and_events() {
    let Some(live) = ostrov_store::testdb::TestDb::create("backup") else {
        ostrov_store::testdb::skipped_once();
        return;
    };
    let restored = ostrov_store::testdb::TestDb::create("restored").unwrap();
    let dir = temp_dir("backup-pg");
    let out = dir.join("ostrov.dump");
    let url = live.url.clone();
    block_on(async {
        let s = PgStore::open(&url).await.unwrap();
        let host = s.create_user("Ведущий", "ведущий", "hash", 0).await.unwrap();
        for g in 0..3 {
            let game = s.create_game("Остров", host, &format!("inv{g}"), &json!({"g": g}), 1).await.unwrap();
            for seq in 0..5 {
                let ev = NewEvent {
                    at: seq,
                    author: Some(host),
                    client_request_id: Some(format!("r{seq}")),
                    request_hash: None,
                    kind: "note".into(),
                    payload: json!({"n": seq}),
                };
                s.append(game, seq, ev).await.unwrap();
            }
        }
    });
    let o = ostrov(&["backup", "--db", &live.url, out.to_str().unwrap()]);
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(said.contains("3 игры, 15 событий, 1 пользователь"), "{said}");
    let r = Command::new("pg_restore")
        .args(["--no-owner", "--exit-on-error", "--dbname", &restored.url])
        .arg(&out)
        .status()
        .expect("pg_restore runs");
    assert!(r.success());
    let (a, b) = (live.url.clone(), restored.url.clone());
    block_on(async move {
        let (a, b) = (PgStore::open(&a).await.unwrap(), PgStore::open(&b).await.unwrap());
        let games = a.games().await.unwrap();
        assert_eq!(games.len(), 3);
        assert_eq!(b.games().await.unwrap(), games);
        for g in &games {
            assert_eq!(b.events(g.id).await.unwrap(), a.events(g.id).await.unwrap());
        }
        // The restored log is still append-only and takes the next entry.
        let ev = NewEvent {
            at: 9,
            author: None,
            client_request_id: None,
            request_hash: None,
            kind: "note".into(),
            payload: json!({}),
        };
        assert_eq!(b.append(games[0].id, 5, ev).await.unwrap(), ostrov_store::Appended::New(6));
    });
    // The restored log is append-only as the original: its triggers came back too.
    let delete = Command::new("psql")
        .args(["-v", "ON_ERROR_STOP=1", "-q", "--dbname", &restored.url, "-c", "DELETE FROM events"])
        .output()
        .expect("psql runs");
    assert!(!delete.status.success());
    assert!(String::from_utf8_lossy(&delete.stderr).contains("events are append-only"));
    drop(live);
    drop(restored);
    let _ = std::fs::remove_dir_all(&dir);
}
