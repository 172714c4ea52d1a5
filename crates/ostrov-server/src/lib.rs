//! Ostrov game server: an axum [`Router`] over a [`Store`].
//!
//! The server holds no game logic. Every accepted order and every host decision is a
//! [`GameEvent`] appended to the game's log in the store (durably, before the client is
//! told "accepted"); the game's state is the fold of that log ([`GameState`]), which is the
//! engine's [`ostrov_engine::Match`] fed with the log's orders. The scheduler appends the
//! 13:00 stage, the 21:00 resolution and the next day's opening on time, exactly once.
//!
//! ```no_run
//! # async fn run() -> Result<(), String> {
//! use std::sync::Arc;
//! use ostrov_server::{AppState, SystemClock};
//! let store = ostrov_store::SqliteStore::open("ostrov.db").await.map_err(|e| e.to_string())?;
//! let state = Arc::new(AppState::load(store, Arc::new(SystemClock)).await?);
//! ostrov_server::spawn_scheduler(state.clone());
//! let listener = ostrov_server::net::listen("127.0.0.1:8080").await.map_err(|e| e.to_string())?;
//! ostrov_server::serve(listener, state).await.map_err(|e| e.to_string())
//! # }
//! ```

pub mod auth;
pub mod cache;
pub mod client;
pub mod clock;
pub mod commit;
pub mod error;
pub mod game;
pub mod harden;
mod hex;
pub mod idempotency;
pub mod listing;
pub mod local;
pub mod net;
pub mod password;
pub mod process;
pub mod ratelimit;
pub mod registry;
pub mod routes;
pub mod schedule;
pub mod scheduler;
pub mod service;
pub mod view;
pub mod watcher;
pub mod web;

use std::collections::HashMap;
use std::sync::Arc;

use axum::Router;
use ostrov_store::Store;

pub use cache::{fold_stored, LoadedGame};
pub use clock::{Clock, FileClock, SystemClock};
pub use commit::{commit, commit_request, Committed, Staged, SHARED_PATIENCE};
pub use error::ApiError;
pub use game::{Config, GameEvent, GameState, Status};
pub(crate) use hex::hex;
pub use idempotency::{already_stored, durable_request, RequestId};
pub use registry::Summary;
pub use scheduler::{palms_penalties, run_due, spawn_scheduler};
pub use watcher::spawn_watcher;

/// Gives accounts made before names had keys their key (the look-alike-free form of the
/// name, [`ostrov_engine::skeleton`]), oldest first. Of old look-alike accounts only the
/// oldest gets the key; the others keep logging in by their exact name, and nobody can
/// sign up under any look-alike of theirs (the key is taken).
async fn key_old_accounts<S: Store>(store: &S) -> Result<(), String> {
    for (id, name) in store.users_without_key().await.map_err(|e| e.to_string())? {
        match store.set_user_key(id, &ostrov_engine::skeleton(&name)).await {
            Ok(()) => {}
            Err(ostrov_store::StoreError::Conflict(_)) => {
                eprintln!(
                    "ostrov-server: account {id} ({name:?}) looks like an older account: it logs in by its exact name"
                );
            }
            Err(e) => return Err(e.to_string()),
        }
    }
    Ok(())
}

/// Shared state of every handler.
pub struct AppState<S: Store> {
    pub store: S,
    pub clock: Arc<dyn Clock>,
    /// Every game; each folded on first use (see [`registry`]).
    pub games: registry::Registry,
    pub logins: ratelimit::Limiter,
    /// Sign-ups per client address.
    pub signups: ratelimit::Quota,
    /// Games created per host (user id) per day.
    pub creations: ratelimit::Quota<i64>,
    /// The threads that hash and check passwords (Argon2, one thread per core).
    pub passwords: password::Pool,
    /// How the server is reached (HTTPS, a trusted proxy): set before serving.
    pub options: harden::Options,
    /// The last failure the scheduler logged per game (each is logged once).
    scheduler_errors: std::sync::Mutex<HashMap<i64, String>>,
    /// Games whose memory may differ from their stored log (an append failed or was
    /// refused after the event was folded in), with the epoch of the fold it was staged
    /// on; refolded from the store when next locked.
    pub stale: std::sync::Mutex<HashMap<i64, u64>>,
    /// "Game `id` changed": sent after every event folded in, for the pages' live updates
    /// (server-sent events). Receivers that lag only miss a wake-up: they re-read the game.
    pub changes: tokio::sync::broadcast::Sender<i64>,
    /// Whether the scheduler has folded every unfinished game once (its first tick).
    warm: std::sync::atomic::AtomicBool,
}

impl<S: Store> AppState<S> {
    /// The state over a store. Nothing is folded yet: one query lists the games (a finished
    /// one with its stored summary); each game is folded from its log on first use, and the
    /// scheduler's first tick folds every unfinished one.
    pub async fn load(store: S, clock: Arc<dyn Clock>) -> Result<Self, String> {
        key_old_accounts(&store).await?;
        let mut listing = std::collections::BTreeMap::new();
        for row in store.games().await.map_err(|e| e.to_string())? {
            let finished = row.finished.and_then(|f| serde_json::from_value(f).ok());
            listing.insert(row.id, registry::Listing { host: row.host_id, finished });
        }
        Ok(AppState {
            store,
            clock,
            games: registry::Registry::new(listing),
            logins: ratelimit::Limiter::default(),
            signups: ratelimit::Quota::new(ratelimit::SIGNUPS_PER_HOUR, 3600),
            creations: ratelimit::Quota::new(ratelimit::GAMES_PER_DAY, 24 * 3600),
            passwords: password::Pool::new(std::thread::available_parallelism().map_or(2, |n| n.get()))
                .map_err(|e| format!("the password threads: {e}"))?,
            options: harden::Options::default(),
            scheduler_errors: Default::default(),
            stale: Default::default(),
            changes: tokio::sync::broadcast::channel(256).0,
            warm: Default::default(),
        })
    }
}

/// Serves [`app`] on `listener` until the server stops: each request knows its peer's
/// address (the login and sign-up limits, [`harden::ClientAddr`]).
pub async fn serve<S: Store>(listener: tokio::net::TcpListener, state: Arc<AppState<S>>) -> std::io::Result<()> {
    axum::serve(listener, app(state).into_make_service_with_connect_info::<std::net::SocketAddr>()).await
}

/// Largest accepted request body, in bytes.
pub const MAX_BODY: usize = 64 * 1024;

/// The whole HTTP API and the web pages.
pub fn app<S: Store>(state: Arc<AppState<S>>) -> Router {
    Router::new()
        .nest("/api", auth::routes::<S>().merge(routes::routes::<S>()))
        .merge(web::routes::<S>())
        .fallback(|| async { ApiError::NotFound })
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(state.clone(), harden::layer::<S>))
        .with_state(state)
}
