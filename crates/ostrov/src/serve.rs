//! `ostrov serve`: the game server over an embedded SQLite database, or as one of several
//! nodes over one PostgreSQL database (docs/DEPLOY.md).

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args as ClapArgs;
use ostrov_server::{spawn_scheduler, spawn_watcher, AppState, Clock, FileClock, SystemClock};
use ostrov_store::AnyStore;

use crate::Failure;

/// Serve games over HTTP: the JSON API under /api/ (crates/ostrov-server/API.md), over an
/// embedded SQLite database (created and migrated on first start) or a PostgreSQL database
/// shared by several nodes.
#[derive(ClapArgs)]
pub struct Args {
    /// The database: a SQLite file path, or postgres://user@host/dbname (then any number
    /// of nodes may serve the same database at once).
    #[arg(long, default_value = "ostrov.db")]
    db: String,
    /// The address to listen on (port 0: any free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    bind: String,
    /// The address players use, e.g. https://ostrov.example.org: with https the session
    /// cookie is marked Secure (sent over HTTPS only).
    #[arg(long, value_name = "URL")]
    public_url: Option<String>,
    /// Trust the reverse proxy in front (nginx, Caddy): the client's address is the last
    /// entry of X-Forwarded-For (for the login and sign-up limits), and
    /// X-Forwarded-Proto: https marks cookies Secure. Only behind a proxy that sets them.
    #[arg(long)]
    trust_proxy: bool,
    /// Sign-ups allowed from one client address per hour (0: no limit, e.g. for a test
    /// server that signs up many players from one machine).
    #[arg(long, value_name = "N", default_value_t = ostrov_server::ratelimit::SIGNUPS_PER_HOUR)]
    signups_per_hour: usize,
    /// For tests: read the current time (Unix seconds) from this file instead of the clock.
    #[arg(long, hide = true)]
    clock_file: Option<PathBuf>,
}

pub fn run(a: Args) -> Result<(), Failure> {
    // Before the runtime's threads start allocating (see the function's documentation).
    if let Err(e) = ostrov_server::process::small_pages() {
        eprintln!(
            "Предупреждение: не удалось отключить огромные страницы памяти ({e}); \
             под нагрузкой ответы могут задерживаться на несколько миллисекунд."
        );
    }
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    rt.block_on(async move {
        let store = AnyStore::open(&a.db).await.map_err(|e| Failure(format!("{}: {e}", a.db)))?;
        let kind = store.kind();
        let clock: Arc<dyn Clock> = match a.clock_file {
            Some(f) => Arc::new(FileClock(f)),
            None => Arc::new(SystemClock),
        };
        let https = match a.public_url.as_deref() {
            None => false,
            Some(u) if u.starts_with("https://") => true,
            Some(u) if u.starts_with("http://") => false,
            Some(u) => {
                return Err(Failure(format!("--public-url {u}: нужен адрес вида https://… или http://…")));
            }
        };
        let mut state = AppState::load(store, clock).await.map_err(Failure)?;
        state.options = ostrov_server::harden::Options { https, trust_proxy: a.trust_proxy };
        state.signups = ostrov_server::ratelimit::Quota::new(a.signups_per_hour, 3600);
        let state = Arc::new(state);
        spawn_scheduler(state.clone());
        spawn_watcher(state.clone());
        let listener = ostrov_server::net::listen(&a.bind)
            .await
            .map_err(|e| Failure(format!("cannot listen on {}: {e}", a.bind)))?;
        let addr = listener.local_addr()?;
        println!("Ostrov serves on http://{addr}/ (database {}, {kind})", shown(&a.db));
        ostrov_server::serve(listener, state).await.map_err(|e| Failure(format!("server stopped: {e}")))
    })
}

/// The database as it may be printed: a URL without its password.
pub(crate) fn shown(db: &str) -> String {
    match (db.find("://"), db.rfind('@')) {
        (Some(i), Some(at)) if at > i => match db[i + 3..at].split_once(':') {
            Some((user, _)) => format!("{}{user}:***{}", &db[..i + 3], &db[at..]),
            None => db.to_string(),
        },
        _ => db.to_string(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_password_in_the_database_url_is_not_printed() {
        assert_eq!(super::shown("postgres://u:secret@h/db"), "postgres://u:***@h/db");
        assert_eq!(super::shown("postgres://u@h/db"), "postgres://u@h/db");
        assert_eq!(super::shown("/var/lib/ostrov/ostrov.db"), "/var/lib/ostrov/ostrov.db");
    }
}
