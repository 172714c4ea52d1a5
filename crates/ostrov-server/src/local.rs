//! A whole server on a loopback port in its own runtime, over a real SQLite file or a
//! PostgreSQL database, with a clock the caller moves: for tests and load measurements.
//!
//! ```no_run
//! use std::sync::Arc;
//! use ostrov_server::local::{LocalServer, ManualClock};
//! let clock = Arc::new(ManualClock::new(1_796_151_600));
//! let server = LocalServer::start("/tmp/t.db", clock.clone()).unwrap();
//! let mut c = server.client();
//! let r = c.get("/api/me").unwrap();
//! assert_eq!(r.status, 401);
//! clock.advance(3600);
//! ```

use std::net::SocketAddr;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use ostrov_store::{AnyStore, EventLog};

use crate::app::AppState;
use crate::client::Client;
use crate::clock::Clock;
use crate::ticker::spawn_scheduler;
use crate::watcher::spawn_watcher;

/// A clock that stands still until moved.
pub struct ManualClock(AtomicI64);

impl ManualClock {
    pub fn new(now: i64) -> ManualClock {
        ManualClock(AtomicI64::new(now))
    }
    pub fn set(&self, now: i64) {
        self.0.store(now, Ordering::SeqCst);
    }
    pub fn advance(&self, secs: i64) {
        self.0.fetch_add(secs, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// A running server; dropping it stops it (its runtime shuts down).
pub struct LocalServer {
    pub addr: SocketAddr,
    runtime: Option<tokio::runtime::Runtime>,
}

impl LocalServer {
    /// Opens (or creates) the database `db` names (a SQLite file path, or a `postgres://`
    /// URL), folds every game in it, starts the scheduler (and, on a shared store, the
    /// watcher of other nodes' appends) and serves on a free loopback port.
    pub fn start(db: &str, clock: Arc<dyn Clock>) -> Result<LocalServer, String> {
        LocalServer::start_with(db, clock, crate::net::Limits::for_process())
    }

    /// [`LocalServer::start`] with these connection limits (short timeouts for a test).
    pub fn start_with(db: &str, clock: Arc<dyn Clock>, limits: crate::net::Limits) -> Result<LocalServer, String> {
        LocalServer::start_notifying(db, clock, limits, crate::notify::Settings::default())
    }

    /// [`LocalServer::start_with`] with notifications (a Telegram bot, usually at a
    /// stand-in of the Bot API on loopback).
    pub fn start_notifying(
        db: &str,
        clock: Arc<dyn Clock>,
        limits: crate::net::Limits,
        notify: crate::notify::Settings,
    ) -> Result<LocalServer, String> {
        LocalServer::start_as(db, clock, limits, notify, None)
    }

    /// A practice server (`ostrov demo`), a day lasting `day_minutes`.
    pub fn start_demo(db: &str, clock: Arc<dyn Clock>, day_minutes: u32) -> Result<LocalServer, String> {
        let (limits, notify) = (crate::net::Limits::for_process(), crate::notify::Settings::default());
        LocalServer::start_as(db, clock, limits, notify, Some(day_minutes))
    }

    fn start_as(
        db: &str,
        clock: Arc<dyn Clock>,
        limits: crate::net::Limits,
        notify: crate::notify::Settings,
        practice: Option<u32>,
    ) -> Result<LocalServer, String> {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        let db = db.to_string();
        let addr = rt.block_on(async move {
            let store = AnyStore::open(&db).await.map_err(|e| e.to_string())?;
            // A test server signs up every player from the loopback address: no per-address limit.
            let mut state = AppState::load(store, clock).await?;
            state.signups = crate::ratelimit::Quota::new(0, 3600);
            state.limits = limits;
            state.notify = notify;
            if let Some(minutes) = practice {
                crate::service::demo::enable(&mut state, minutes).await.map_err(|e| e.message())?;
            }
            let state = Arc::new(state);
            spawn_scheduler(state.clone());
            spawn_watcher(state.clone());
            crate::outbox::spawn_notifier(state.clone());
            let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.map_err(|e| e.to_string())?;
            let addr = l.local_addr().map_err(|e| e.to_string())?;
            let lease = std::time::Duration::from_secs(crate::forward::LEASE_SECONDS);
            state.store.join_nodes(addr.to_string(), lease).map_err(|e| e.to_string())?;
            tokio::spawn(async move {
                if let Err(e) = crate::serve(l, state).await {
                    eprintln!("ostrov-server: {e}");
                }
            });
            Ok::<_, String>(addr)
        })?;
        Ok(LocalServer { addr, runtime: Some(rt) })
    }

    /// A new client of this server, with no session yet.
    pub fn client(&self) -> Client {
        Client::new(self.addr)
    }

    /// Stops the server now.
    pub fn stop(mut self) {
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_timeout(std::time::Duration::from_secs(5));
        }
    }
}

impl Drop for LocalServer {
    fn drop(&mut self) {
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_background();
        }
    }
}
