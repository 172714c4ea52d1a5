//! `ostrov serve`: the game server over an embedded SQLite database.

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args as ClapArgs;
use ostrov_server::{app, spawn_scheduler, AppState, Clock, FileClock, SystemClock};
use ostrov_store::SqliteStore;

use crate::Failure;

/// Serve games over HTTP: the JSON API under /api/ (crates/ostrov-server/API.md), with an
/// embedded SQLite database created and migrated on first start.
#[derive(ClapArgs)]
pub struct Args {
    /// The database file.
    #[arg(long, default_value = "ostrov.db")]
    db: PathBuf,
    /// The address to listen on (port 0: any free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    bind: String,
    /// For tests: read the current time (Unix seconds) from this file instead of the clock.
    #[arg(long, hide = true)]
    clock_file: Option<PathBuf>,
}

pub fn run(a: Args) -> Result<(), Failure> {
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    rt.block_on(async move {
        let path = a.db.to_str().ok_or_else(|| Failure(format!("{}: the path is not UTF-8", a.db.display())))?;
        let store = SqliteStore::open(path).await.map_err(|e| Failure(format!("{}: {e}", a.db.display())))?;
        let clock: Arc<dyn Clock> = match a.clock_file {
            Some(f) => Arc::new(FileClock(f)),
            None => Arc::new(SystemClock),
        };
        let state = Arc::new(AppState::load(store, clock).await.map_err(Failure)?);
        spawn_scheduler(state.clone());
        let listener = tokio::net::TcpListener::bind(&a.bind)
            .await
            .map_err(|e| Failure(format!("cannot listen on {}: {e}", a.bind)))?;
        let addr = listener.local_addr()?;
        println!("Ostrov serves on http://{addr}/ (database {})", a.db.display());
        axum::serve(listener, app(state)).await.map_err(|e| Failure(format!("server stopped: {e}")))
    })
}
