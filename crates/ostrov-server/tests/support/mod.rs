//! Shared test support: a whole server on a loopback port over a fresh SQLite file in a
//! temporary directory (or a fresh PostgreSQL database), with a clock the test moves.
//!
//! ```ignore
//! mod support;
//! support::both_stores!(a_test);
//! fn a_test() {
//!     let server = support::Server::start();
//!     server.clock.set(support::START);
//!     let mut c = server.client();
//! }
//! ```
//!
//! `both_stores!` makes each test body two tests, `a_test::sqlite` and
//! `a_test::postgres`; the second runs when `OSTROV_TEST_PG` names a PostgreSQL server
//! (ostrov_store::testdb) and passes without running otherwise (the store crate's tests
//! print the one line saying so).
#![allow(dead_code)]

pub mod browser;
pub mod mail;
pub mod telegram;

use std::cell::Cell;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use ostrov_server::client::{Client, Reply};
use ostrov_server::local::LocalServer;
use ostrov_store::testdb::{self, TestDb};
use serde_json::{json, Value};

/// The test clock: Unix seconds, moved by `set` / `advance`.
pub type TestClock = ostrov_server::local::ManualClock;

/// 2026-12-01 22:00 Moscow time (19:00 UTC).
pub const START: i64 = 1_796_151_600;
pub const HOUR: i64 = 3600;

/// The store a test body runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Db {
    Sqlite,
    Postgres,
}

thread_local! {
    static DB: Cell<Db> = const { Cell::new(Db::Sqlite) };
}

/// Runs `body` with every [`Server::start`] in it on `db`; a PostgreSQL run without
/// `OSTROV_TEST_PG` returns at once.
pub fn with_store(db: Db, body: fn()) {
    if db == Db::Postgres && std::env::var(testdb::VAR).map_or(true, |v| v.is_empty()) {
        return;
    }
    DB.with(|d| d.set(db));
    body();
}

/// `both_stores!(a, b)`: the test bodies `fn a()` and `fn b()` (no `#[test]` of their
/// own) become the tests `a::sqlite`, `a::postgres`, `b::sqlite`, `b::postgres`.
#[allow(unused_macros)]
macro_rules! both_stores {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[test]
            fn sqlite() {
                super::support::with_store(super::support::Db::Sqlite, super::$name)
            }
            #[test]
            fn postgres() {
                super::support::with_store(super::support::Db::Postgres, super::$name)
            }
        }
    )*};
}
#[allow(unused_imports)]
pub(crate) use both_stores;

/// A running server; dropping it stops it and removes its directory (or database).
pub struct Server {
    pub addr: SocketAddr,
    pub clock: Arc<TestClock>,
    pub dir: PathBuf,
    /// What `--db` would be: the SQLite file, or the PostgreSQL URL.
    pub db: String,
    inner: Option<LocalServer>,
    pg: Option<TestDb>,
    /// Its notifications (none but for [`Server::start_notifying`]).
    notify: ostrov_server::notify::Settings,
}

impl Server {
    /// A server over an empty database (of the store [`with_store`] chose); the clock
    /// stands at [`START`] minus an hour.
    pub fn start() -> Server {
        Server::start_notifying(ostrov_server::notify::Settings::default())
    }

    /// [`Server::start`] with a Telegram bot at the stand-in `api` (its path `node`), the
    /// site at `https://ostrov.test`, ticking fast.
    pub fn with_bot(api: &telegram::BotApi, node: &str) -> Server {
        Server::start_notifying(bot_settings(api, node))
    }

    /// [`Server::start`] with these notifications.
    pub fn start_notifying(notify: ostrov_server::notify::Settings) -> Server {
        static N: AtomicU64 = AtomicU64::new(0);
        let dir = std::env::temp_dir().join(format!(
            "ostrov-test-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let clock = Arc::new(TestClock::new(START - HOUR));
        let pg = match DB.with(Cell::get) {
            Db::Sqlite => None,
            Db::Postgres => Some(TestDb::create("server").expect("OSTROV_TEST_PG is set")),
        };
        let db = match &pg {
            Some(pg) => pg.url.clone(),
            None => dir.join("ostrov.db").to_str().expect("a UTF-8 path").to_string(),
        };
        let inner =
            LocalServer::start_notifying(&db, clock.clone(), limits(), notify.clone()).expect("the server starts");
        Server { addr: inner.addr, clock, dir, db, inner: Some(inner), pg, notify }
    }

    /// A practice server (`ostrov demo`) over an empty SQLite file, a day lasting
    /// `day_minutes`; the clock stands at [`START`] minus an hour.
    pub fn demo(day_minutes: u32) -> Server {
        let mut s = Server::start();
        if let Some(inner) = s.inner.take() {
            inner.stop();
        }
        let inner = LocalServer::start_demo(&s.db, s.clock.clone(), day_minutes).expect("the practice server starts");
        s.addr = inner.addr;
        s.inner = Some(inner);
        s
    }

    /// Another node over the same database (PostgreSQL) with its own clock: any node
    /// serves any game.
    pub fn node(&self, clock: Arc<TestClock>) -> LocalServer {
        LocalServer::start(&self.db, clock).expect("another node starts")
    }

    /// Stops the server and starts it again on the same database and clock: it folds every
    /// game from the log again. Clients must be pointed at the new `addr`.
    pub fn restart(&mut self) {
        if let Some(inner) = self.inner.take() {
            inner.stop();
        }
        let inner = LocalServer::start_notifying(&self.db, self.clock.clone(), limits(), self.notify.clone())
            .expect("the server restarts");
        self.addr = inner.addr;
        self.inner = Some(inner);
    }

    /// [`Server::start`] with e-mail through the SMTP sink (and no Telegram).
    pub fn with_mail(sink: &mail::Sink) -> Server {
        Server::start_notifying(mail_settings(sink))
    }

    /// Another node over the same database with a Telegram bot at the stand-in.
    pub fn node_with_bot(&self, clock: Arc<TestClock>, api: &telegram::BotApi, node: &str) -> LocalServer {
        LocalServer::start_notifying(&self.db, clock, limits(), bot_settings(api, node)).expect("another node starts")
    }

    /// A new client with no session.
    pub fn client(&self) -> Client {
        Client::new(self.addr)
    }

    /// One signed-up client per name, each joined to the game of `invite` under that name.
    pub fn join_all(&self, invite: &str, names: &[&str]) -> Vec<Client> {
        names
            .iter()
            .map(|n| {
                let mut c = self.user(n);
                ok(&c.post(&format!("/api/invites/{invite}/join"), json!({})).unwrap());
                c
            })
            .collect()
    }

    /// A game «Маяк» of `names` (a werewolf, a seer and passengers, seed 5, no events)
    /// hosted by «Ведущая», every seat taken, not started yet: its id, the host, the players.
    pub fn lighthouse(&self, names: &[&str]) -> (i64, Client, Vec<Client>) {
        let mut host = self.user("Ведущая");
        let g = ok(&host
            .post(
                "/api/games",
                json!({"title": "Маяк", "slots": names.len(), "setup": "werewolf,seer", "seed": 5,
                       "rules": {"events": no_events()}}),
            )
            .unwrap());
        let (id, invite) = (g["id"].as_i64().unwrap(), g["invite"].as_str().unwrap().to_string());
        let players = self.join_all(&invite, names);
        (id, host, players)
    }

    /// A new client signed up (and so logged in) as `name`.
    pub fn user(&self, name: &str) -> Client {
        let mut c = self.client();
        ok(&c.post("/api/signup", json!({"name": name, "password": "пароль-для-теста"})).unwrap());
        c
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(inner) = self.inner.take() {
            inner.stop();
        }
        drop(self.pg.take());
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The connection limits of a test server (the process's, as `LocalServer::start`).
fn limits() -> ostrov_server::net::Limits {
    ostrov_server::net::Limits::for_process()
}

/// Notifications through a Telegram bot at the stand-in `api`, path `node`.
pub fn bot_settings(api: &telegram::BotApi, node: &str) -> ostrov_server::notify::Settings {
    use ostrov_server::telegram::{api as tg, Bot};
    let token = tg::Token::parse(telegram::TOKEN).unwrap();
    let client = tg::Api::new(&api.url(node), token).unwrap();
    ostrov_server::notify::Settings {
        site: Some("https://ostrov.test".into()),
        telegram: Some(Arc::new(Bot::new(client))),
        tick_ms: 100,
        poll_secs: 1,
        mail: None,
    }
}

/// Notifications by e-mail through the SMTP sink, from `ostrov@ostrov.test`, signing in.
pub fn mail_settings(sink: &mail::Sink) -> ostrov_server::notify::Settings {
    let mailer =
        ostrov_server::mail::Mailer::new(&sink.url(), "ostrov@ostrov.test", Some("ostrov"), Some("smtp-SECRET".into()))
            .unwrap();
    ostrov_server::notify::Settings {
        site: Some("https://ostrov.test".into()),
        mail: Some(Arc::new(mailer)),
        tick_ms: 100,
        ..Default::default()
    }
}

/// The JSON of a 200/201 reply (panics with the body otherwise).
pub fn ok(r: &Reply) -> Value {
    assert!(r.status == 200 || r.status == 201, "HTTP {}: {}", r.status, r.body);
    r.json()
}

/// The status and the `error` code of a reply.
pub fn error(r: &Reply) -> (u16, String) {
    (r.status, r.json()["error"].as_str().unwrap_or_default().to_string())
}

/// House rules' event weights with every event at 0: days without events (a later day's
/// event cannot be fixed once the evening newspaper announced it, so a test that wants
/// plain days asks for them here).
pub fn no_events() -> Value {
    let ids = [
        "bunker",
        "fear",
        "rage",
        "magnetic_storm",
        "tsunami",
        "exchange",
        "mystic_light",
        "choose_me",
        "solar_eclipse",
        "lunar_eclipse",
        "full_moon",
        "fog_night",
        "spirit_call",
        "palms_bloom",
    ];
    Value::Object(ids.iter().map(|i| (i.to_string(), json!(0))).collect())
}

/// A post from the game page's web form (the CSRF token read from the page), as `c`: the
/// reply (303 when the post was taken).
pub fn web_post(c: &mut Client, id: i64, room: &str, text: &str) -> Reply {
    let page = c.get(&format!("/games/{id}")).unwrap().body;
    let at = page.find("name=\"csrf\" value=\"").unwrap() + 19;
    let token = page[at..].split('"').next().unwrap().to_string();
    let enc = |s: &str| s.bytes().map(|b| format!("%{b:02X}")).collect::<String>();
    let body = format!("csrf={token}&room={room}&text={}", enc(text));
    c.raw("POST", &format!("/games/{id}/thread"), "application/x-www-form-urlencoded", body.as_bytes()).unwrap()
}

/// The host's one-click flag on post `no` (its place in the game's log) from the web page.
pub fn host_flag(c: &mut Client, id: i64, no: usize) -> Reply {
    let page = c.get(&format!("/games/{id}")).unwrap().body;
    let at = page.find("name=\"csrf\" value=\"").unwrap() + 19;
    let token = page[at..].split('"').next().unwrap().to_string();
    let body = format!("csrf={token}&action=flag&post={no}&confirm=1");
    c.raw("POST", &format!("/games/{id}/flag"), "application/x-www-form-urlencoded", body.as_bytes()).unwrap()
}

/// `c`'s live stream of game `id` (`/games/{id}/live`), past its `200` status line.
pub fn live(c: &Client, id: i64) -> std::io::BufReader<std::net::TcpStream> {
    use std::io::{BufRead, Write};
    let mut s = std::net::TcpStream::connect(c.addr).unwrap();
    let cookie = c.cookie.as_ref().map(|k| format!("Cookie: {k}\r\n")).unwrap_or_default();
    write!(s, "GET /games/{id}/live HTTP/1.1\r\nHost: x\r\n{cookie}\r\n").unwrap();
    let mut lines = std::io::BufReader::new(s);
    let mut status = String::new();
    lines.read_line(&mut status).unwrap();
    assert!(status.contains(" 200 "), "{status}");
    lines
}

/// Each player's name and role id, from a game view that shows every role (the host's).
pub fn roles(view: &Value) -> Vec<(String, String)> {
    view["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["name"].as_str().unwrap().to_string(), p["role"]["id"].as_str().unwrap().to_string()))
        .collect()
}

/// The mark a dead writer's posts carry: it agrees with the writer's gender, and one whose
/// gender is not known gets a mark that needs none, never «мёртвый» (issue 29, point 2).
pub fn dead_mark(name: &str) -> &'static str {
    let speech = ostrov_engine::ru::Speech::resolve(name, None, None).unwrap();
    match ostrov_engine::ru::Who::new(name, &speech).gender() {
        Some(ostrov_engine::ru::Gender::Male) => "мёртвый: только тематический флуд",
        Some(ostrov_engine::ru::Gender::Female) => "мёртвая: только тематический флуд",
        None => "вне игры: только тематический флуд",
    }
}

/// Every string in a JSON value, its keys too.
pub fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => o.iter().for_each(|(k, x)| {
            out.push(k.clone());
            strings(x, out)
        }),
        _ => {}
    }
}

/// A started game: its server, its host's and players' clients (in the order they
/// joined), its id and each seat's name and role id.
pub struct Table {
    pub server: Server,
    pub host: Client,
    pub players: Vec<Client>,
    pub id: i64,
    pub roles: Vec<(String, String)>,
}

impl Table {
    /// `host` signs up and creates the game `body` (`POST /api/games`), `names` join it,
    /// and the host starts it at [`START`].
    pub fn start(host: &str, body: Value, names: &[&str]) -> Table {
        let server = Server::start();
        let mut host = server.user(host);
        let g = ok(&host.post("/api/games", body).unwrap());
        let (id, invite) = (g["id"].as_i64().unwrap(), g["invite"].as_str().unwrap().to_string());
        let players = server.join_all(&invite, names);
        server.clock.set(START);
        ok(&host.post(&format!("/api/games/{id}/start"), json!({})).unwrap());
        let roles = roles(&ok(&host.get(&format!("/api/games/{id}")).unwrap()));
        Table { server, host, players, id, roles }
    }

    /// The game's API path, `/api/games/{id}`.
    pub fn base(&self) -> String {
        format!("/api/games/{}", self.id)
    }

    /// The seat (an index into `players`) of the first player with role `role`.
    pub fn seat(&self, role: &str) -> usize {
        self.roles.iter().position(|(_, r)| r == role).unwrap()
    }
}
