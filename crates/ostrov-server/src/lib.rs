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

pub mod access;
pub mod app;
pub mod auth;
pub mod cache;
pub mod chat;
pub mod client;
pub mod clock;
pub mod commit;
pub mod demo;
pub mod desk;
pub mod error;
pub mod extract;
pub mod forward;
pub mod game;
pub mod harden;
mod hex;
pub mod hints;
pub mod idempotency;
pub mod listing;
pub mod loaded;
pub mod local;
pub mod mail;
pub mod net;
pub mod notify;
pub mod outbox;
pub mod password;
pub mod preview;
pub mod process;
pub mod ratelimit;
pub mod registry;
pub mod results;
pub mod review;
pub mod routes;
pub mod schedule;
pub mod scheduler;
pub mod service;
pub mod streams;
pub mod telegram;
pub mod ticker;
pub mod view;
pub mod watcher;
pub mod web;

use std::sync::Arc;

use axum::Router;
use ostrov_store::Store;

pub use app::AppState;
pub use cache::{fold_stored, LoadedGame};
pub use clock::{Clock, FileClock, SystemClock};
pub use commit::{already_stored, commit, commit_request, durable_request, Committed, Staged, SHARED_PATIENCE};
pub use error::ApiError;
pub use game::{Config, GameEvent, GameState, Status};
pub use idempotency::RequestId;
pub use outbox::spawn_notifier;
pub use registry::Summary;
pub use scheduler::{palms_penalties, run_due};
pub use ticker::spawn_scheduler;
pub use watcher::spawn_watcher;

/// Serves [`app`] on `listener` until the server stops, with the state's connection
/// limits ([`net::Limits`]: header and idle timeouts, connections per address and in all):
/// each request knows its peer's address (the login and sign-up limits,
/// [`harden::ClientAddr`]).
pub async fn serve<S: Store>(listener: tokio::net::TcpListener, state: Arc<AppState<S>>) -> std::io::Result<()> {
    let (limits, trust_proxy) = (state.limits, state.options.trust_proxy);
    net::serve(listener, app(state), limits, trust_proxy).await
}

pub use harden::MAX_BODY;

/// The whole HTTP API and the web pages.
pub fn app<S: Store>(state: Arc<AppState<S>>) -> Router {
    Router::new()
        .nest("/api", auth::routes::<S>().merge(routes::routes::<S>()))
        .merge(web::routes::<S>())
        .fallback(|| async { error::ApiError::NotFound })
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(state.clone(), forward::layer::<S>))
        .layer(axum::middleware::from_fn_with_state(state.limits.body, harden::body_in_time))
        .layer(axum::middleware::from_fn_with_state(state.options.clone(), harden::layer))
        .with_state(state)
}
