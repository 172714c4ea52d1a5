//! Shared test support: a whole server on a loopback port over a fresh SQLite file in a
//! temporary directory, with a clock the test moves.
//!
//! ```ignore
//! mod support;
//! let server = support::Server::start();
//! server.clock.set(support::START);
//! let mut c = server.client();
//! ```
#![allow(dead_code)]

pub mod browser;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use ostrov_server::client::{Client, Reply};
use ostrov_server::local::LocalServer;
use serde_json::{json, Value};

/// The test clock: Unix seconds, moved by `set` / `advance`.
pub type TestClock = ostrov_server::local::ManualClock;

/// 2026-12-01 22:00 Moscow time (19:00 UTC).
pub const START: i64 = 1_796_151_600;
pub const HOUR: i64 = 3600;

/// A running server; dropping it stops it and removes its directory.
pub struct Server {
    pub addr: SocketAddr,
    pub clock: Arc<TestClock>,
    pub dir: PathBuf,
    inner: Option<LocalServer>,
}

impl Server {
    /// A server over an empty database; the clock stands at [`START`] minus an hour.
    pub fn start() -> Server {
        static N: AtomicU64 = AtomicU64::new(0);
        let dir = std::env::temp_dir().join(format!(
            "ostrov-test-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let clock = Arc::new(TestClock::new(START - HOUR));
        let inner = LocalServer::start(&dir.join("ostrov.db"), clock.clone()).expect("the server starts");
        Server { addr: inner.addr, clock, dir, inner: Some(inner) }
    }

    /// Stops the server and starts it again on the same database and clock: it folds every
    /// game from the log again. Clients must be pointed at the new `addr`.
    pub fn restart(&mut self) {
        if let Some(inner) = self.inner.take() {
            inner.stop();
        }
        let inner = LocalServer::start(&self.dir.join("ostrov.db"), self.clock.clone()).expect("the server restarts");
        self.addr = inner.addr;
        self.inner = Some(inner);
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

    /// A new client signed up (and so logged in) as `name`.
    pub fn user(&self, name: &str) -> Client {
        let mut c = self.client();
        ok(&c.post("/api/signup", json!({"name": name, "password": "пароль-для-теста"})).unwrap());
        c
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        drop(self.inner.take());
        let _ = std::fs::remove_dir_all(&self.dir);
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
