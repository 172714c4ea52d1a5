//! A client that hangs up while its order is being stored: the order may or may not be
//! in the log, but the game in memory must be the fold of the log either way (the same
//! orders as the stored log, and a restart changes nothing). Also: a game row whose
//! `created` event never made it to the log (a crash between the two writes) does not
//! stop the server from loading. And on a store shared with other nodes, an order whose
//! appends keep losing the race for the next sequence number is retried for
//! `SHARED_PATIENCE`, however many races that is, then refused with 503 and nothing stored.

use std::io::Write;
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ostrov_server::client::Client;
use ostrov_server::local::ManualClock;
use ostrov_server::{spawn_scheduler, AppState};
use ostrov_store::{Accounts, Appended, Event, EventLog, GameRow, NewEvent, SqliteStore, Store, User};
use serde_json::{json, Value};

/// 2026-12-01 10:00 Moscow.
const T0: i64 = 1_796_108_400;

/// A SQLite store with faults on demand: appends that answer late (after the write is
/// durable), as a slow disk would; or, when `shared`, a store other nodes write too, whose
/// next `lose` appends are not written and answer that another node took the sequence
/// number first (after a millisecond, a round trip to the database).
#[derive(Clone)]
struct Slow {
    inner: SqliteStore,
    delay_ms: Arc<AtomicU64>,
    shared: bool,
    lose: Arc<AtomicU64>,
}

impl Slow {
    fn over(inner: SqliteStore) -> Slow {
        Slow { inner, delay_ms: Arc::default(), shared: false, lose: Arc::default() }
    }
}

type R<T> = ostrov_store::Result<T>;

/// No notifications in these tests: the notifier is not started.
impl ostrov_store::Notify for Slow {}

impl Accounts for Slow {
    async fn create_user(&self, name: &str, key: &str, hash: &str, at: i64) -> R<i64> {
        self.inner.create_user(name, key, hash, at).await
    }
    async fn user_by_key(&self, key: &str) -> R<Option<User>> {
        self.inner.user_by_key(key).await
    }
    async fn users_without_key(&self) -> R<Vec<(i64, String)>> {
        self.inner.users_without_key().await
    }
    async fn set_user_key(&self, id: i64, key: &str) -> R<()> {
        self.inner.set_user_key(id, key).await
    }
    async fn user_by_name(&self, name: &str) -> R<Option<User>> {
        self.inner.user_by_name(name).await
    }
    async fn user_by_id(&self, id: i64) -> R<Option<User>> {
        self.inner.user_by_id(id).await
    }
    async fn set_profile(&self, id: i64, gender: Option<&str>, forms: Option<&[String]>) -> R<()> {
        self.inner.set_profile(id, gender, forms).await
    }
    async fn create_session(&self, token: &str, user_id: i64, expires_at: i64) -> R<()> {
        self.inner.create_session(token, user_id, expires_at).await
    }
    async fn session_user(&self, token: &str, now: i64) -> R<Option<i64>> {
        self.inner.session_user(token, now).await
    }
    async fn delete_session(&self, token: &str) -> R<()> {
        self.inner.delete_session(token).await
    }
    async fn set_password(&self, id: i64, hash: &str, keep: &str) -> R<u64> {
        self.inner.set_password(id, hash, keep).await
    }
    async fn end_other_sessions(&self, id: i64, keep: &str) -> R<u64> {
        self.inner.end_other_sessions(id, keep).await
    }
}

impl EventLog for Slow {
    async fn create_game(&self, title: &str, host: i64, invite: &str, setup: &Value, now: i64) -> R<i64> {
        self.inner.create_game(title, host, invite, setup, now).await
    }
    async fn game(&self, id: i64) -> R<Option<GameRow>> {
        self.inner.game(id).await
    }
    async fn game_by_invite(&self, invite: &str) -> R<Option<GameRow>> {
        self.inner.game_by_invite(invite).await
    }
    async fn games(&self) -> R<Vec<GameRow>> {
        self.inner.games().await
    }
    async fn finish_game(&self, id: i64, summary: &Value) -> R<()> {
        self.inner.finish_game(id, summary).await
    }
    async fn record_result(&self, r: &ostrov_store::GameResult) -> R<()> {
        self.inner.record_result(r).await
    }
    async fn played(&self, user_id: i64, viewer: Option<i64>) -> R<Vec<ostrov_store::Played>> {
        self.inner.played(user_id, viewer).await
    }
    async fn setup_counts(&self, viewer: Option<i64>, key: Option<&str>) -> R<Vec<ostrov_store::SetupCount>> {
        self.inner.setup_counts(viewer, key).await
    }
    async fn unrecorded(&self, limit: i64) -> R<Vec<i64>> {
        self.inner.unrecorded(limit).await
    }
    fn append(
        &self,
        game_id: i64,
        expected_seq: i64,
        ev: NewEvent,
    ) -> impl std::future::Future<Output = R<Appended>> + Send + 'static {
        let lost = self.lose.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1)).is_ok();
        let pending = (!lost).then(|| self.inner.append(game_id, expected_seq, ev));
        let delay_ms = self.delay_ms.clone();
        async move {
            let Some(pending) = pending else {
                tokio::time::sleep(Duration::from_millis(1)).await;
                return Ok(Appended::Conflict { last: expected_seq });
            };
            let r = pending.await;
            let ms = delay_ms.load(Ordering::SeqCst);
            if ms > 0 {
                tokio::time::sleep(Duration::from_millis(ms)).await;
            }
            r
        }
    }
    async fn events(&self, game_id: i64) -> R<Vec<Event>> {
        self.inner.events(game_id).await
    }
    async fn event(&self, game_id: i64, seq: i64) -> R<Option<Event>> {
        self.inner.event(game_id, seq).await
    }
    fn shared(&self) -> bool {
        self.shared
    }
}

struct Running {
    addr: SocketAddr,
    rt: tokio::runtime::Runtime,
}

fn serve<S: Store + Clone>(store: S) -> Result<Running, String> {
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let addr = rt.block_on(async move {
        let mut state = AppState::load(store, Arc::new(ManualClock::new(T0))).await?;
        state.signups = ostrov_server::ratelimit::Quota::new(0, 3600);
        let state = Arc::new(state);
        spawn_scheduler(state.clone());
        let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = l.local_addr().unwrap();
        tokio::spawn(async move { ostrov_server::serve(l, state).await });
        Ok::<_, String>(addr)
    })?;
    Ok(Running { addr, rt })
}

fn ok(r: std::io::Result<ostrov_server::client::Reply>) -> Value {
    let r = r.expect("an answer");
    assert!(r.status == 200 || r.status == 201, "HTTP {}: {}", r.status, r.body);
    r.json()
}

fn user(addr: SocketAddr, name: &str) -> Client {
    let mut c = Client::new(addr);
    ok(c.post("/api/signup", json!({"name": name, "password": "password-123"})));
    c
}

fn temp_db(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ostrov-cancel-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("ostrov.db")
}

fn open(db: &std::path::Path) -> SqliteStore {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(SqliteStore::open(db.to_str().unwrap())).unwrap()
}

/// The names in the host view's `orders` (the game in memory) and in the log's orders.
fn orders(host: &mut Client, game: i64) -> (usize, usize) {
    let view = ok(host.get(&format!("/api/games/{game}")));
    let log = ok(host.get(&format!("/api/games/{game}/events")));
    let stored = log.as_array().unwrap().iter().filter(|e| e["kind"] == "order").count();
    (view["orders"].as_array().map_or(0, Vec::len), stored)
}

/// A server on `store` with a game of four titled `title`, joined and started: the server,
/// the host, the players (Аня, Боря, Вера, Гоша) and the game's id.
fn started_game(store: Slow, title: &str) -> (Running, Client, Vec<Client>, i64) {
    let server = serve(store).unwrap();
    let addr = server.addr;
    let mut host = user(addr, "Ведущий");
    let g = ok(host.post("/api/games", json!({"title": title, "slots": 4, "seed": 3})));
    let game = g["id"].as_i64().unwrap();
    let invite = g["invite"].as_str().unwrap().to_string();
    let players: Vec<Client> = ["Аня", "Боря", "Вера", "Гоша"]
        .iter()
        .map(|n| {
            let mut c = user(addr, n);
            ok(c.post(&format!("/api/invites/{invite}/join"), json!({})));
            c
        })
        .collect();
    ok(host.post(&format!("/api/games/{game}/start"), json!({})));
    (server, host, players, game)
}

#[test]
fn a_client_hanging_up_mid_append_leaves_memory_equal_to_the_log() {
    let db = temp_db("hangup");
    let store = Slow::over(open(&db));
    let delay = store.delay_ms.clone();
    let (server, mut host, mut players, game) = started_game(store, "Обрыв");
    let addr = server.addr;

    // Аня's vote: the client hangs up while the store is answering.
    delay.store(400, Ordering::SeqCst);
    let body = json!({"act": "vote", "target": "Боря", "request_id": "hangup"}).to_string();
    let cookie = players[0].cookie.clone().unwrap();
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "POST /api/games/{game}/orders HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
         X-Ostrov-Csrf: 1\r\nCookie: {cookie}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    std::thread::sleep(Duration::from_millis(100));
    drop(s);
    std::thread::sleep(Duration::from_millis(700));
    delay.store(0, Ordering::SeqCst);

    let (in_memory, stored) = orders(&mut host, game);
    assert_eq!(stored, 1, "the vote was stored before the hang-up");
    assert_eq!(in_memory, stored, "the game in memory lost an order that is in the log");

    // Resending the same request id: the same order, not a second one.
    let v = ok(players[0]
        .post(&format!("/api/games/{game}/orders"), json!({"act": "vote", "target": "Боря", "request_id": "hangup"})));
    assert_eq!(v["duplicate"], json!(true), "{v}");
    // Another vote goes on top, and memory and log still agree.
    ok(players[1].post(&format!("/api/games/{game}/orders"), json!({"act": "vote", "target": "Аня"})));
    assert_eq!(orders(&mut host, game), (2, 2));
    drop(server.rt);

    // After a restart the fold of the log is what memory was.
    let server = serve(open(&db)).unwrap();
    let mut host = Client { addr: server.addr, ..host };
    assert_eq!(orders(&mut host, game), (2, 2));
}

#[test]
fn a_game_row_without_its_created_event_does_not_stop_the_server() {
    let db = temp_db("orphan");
    let server = serve(open(&db)).unwrap();
    let mut host = user(server.addr, "Ведущий");
    let g = ok(host.post("/api/games", json!({"title": "Целая", "slots": 4})));
    let game = g["id"].as_i64().unwrap();
    drop(server.rt);

    // A crash between `create_game` and the append of `created`: the row alone.
    let store = open(&db);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let host_id = rt.block_on(store.user_by_name("Ведущий")).unwrap().unwrap().id;
    let orphan = rt.block_on(store.create_game("Сирота", host_id, "feedfeedfeed", &json!({}), T0)).unwrap();
    drop(store);

    let server = serve(open(&db)).expect("the server loads despite the orphan row");
    let mut host = Client { addr: server.addr, ..host };
    ok(host.get(&format!("/api/games/{game}")));
    assert_eq!(host.get(&format!("/api/games/{orphan}")).unwrap().status, 404);
}

/// A started game of four on a shared [`Slow`] store: the server, the store's `lose`
/// counter, the host, the players and the game's id.
fn shared_game(tag: &str) -> (Running, Arc<AtomicU64>, Client, Vec<Client>, i64) {
    let store = Slow { shared: true, ..Slow::over(open(&temp_db(tag))) };
    let lose = store.lose.clone();
    let (server, host, players, game) = started_game(store, "Гонка");
    (server, lose, host, players, game)
}

#[test]
fn an_order_that_loses_many_races_in_a_row_is_still_accepted() {
    let (_server, lose, mut host, mut players, game) = shared_game("races");
    // Far more lost races than the 64 tries the server used to give up after.
    lose.store(300, Ordering::SeqCst);
    let v = ok(players[0].post(&format!("/api/games/{game}/orders"), json!({"act": "vote", "target": "Боря"})));
    assert_eq!(v["accepted"], json!(true), "{v}");
    assert_eq!(lose.load(Ordering::SeqCst), 0, "every lost race was retried");
    assert_eq!(orders(&mut host, game), (1, 1));
}

#[test]
fn an_order_that_keeps_losing_is_refused_after_the_patience_and_not_stored() {
    let (_server, lose, mut host, mut players, game) = shared_game("patience");
    lose.store(u64::MAX, Ordering::SeqCst);
    let t = Instant::now();
    let r = players[0]
        .post(&format!("/api/games/{game}/orders"), json!({"act": "vote", "target": "Боря", "request_id": "p-1"}))
        .expect("an answer");
    let took = t.elapsed();
    assert_eq!(r.status, 503, "{}", r.body);
    assert_eq!(r.json()["error"], json!("not_saved"), "{}", r.body);
    assert!(r.body.contains("Запрос не сохранён"), "{}", r.body);
    assert!(took >= ostrov_server::SHARED_PATIENCE, "refused after {took:?}, before the patience ran out");
    assert!(took < ostrov_server::SHARED_PATIENCE + Duration::from_secs(5), "refused only after {took:?}");
    lose.store(0, Ordering::SeqCst);
    assert_eq!(orders(&mut host, game), (0, 0), "nothing of the refused order is kept");
    // Sent again with the same request id, it is stored once.
    let v = ok(players[0]
        .post(&format!("/api/games/{game}/orders"), json!({"act": "vote", "target": "Боря", "request_id": "p-1"})));
    assert_eq!(v["duplicate"], json!(false), "{v}");
    assert_eq!(orders(&mut host, game), (1, 1));
}
