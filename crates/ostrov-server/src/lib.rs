//! Ostrov game server: an axum [`Router`] over a [`Store`].
//!
//! This first piece serves accounts only (sign-up, login, logout, who am I);
//! games, orders, host actions and the scheduler are not built yet.

pub mod auth;
pub mod error;

use std::sync::Arc;

use axum::Router;
use ostrov_store::Store;

pub use error::ApiError;

/// The server's clock, injectable so tests do not wait. Unix seconds.
pub trait Clock: Send + Sync + 'static {
    fn now(&self) -> i64;
}

/// The real clock.
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> i64 {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
    }
}

/// Shared state of every handler.
pub struct AppState<S: Store> {
    pub store: S,
    pub clock: Arc<dyn Clock>,
}

/// Largest accepted request body, in bytes.
pub const MAX_BODY: usize = 64 * 1024;

/// The whole HTTP API.
pub fn app<S: Store>(state: AppState<S>) -> Router {
    Router::new()
        .nest("/api", auth::routes::<S>())
        .fallback(|| async { ApiError::NotFound })
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
        .with_state(Arc::new(state))
}
