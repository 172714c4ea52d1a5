//! The state every handler shares ([`AppState`]), and how it is loaded from a store.

use std::collections::HashMap;
use std::sync::Arc;

use ostrov_store::Store;

use crate::clock::Clock;
use crate::harden;
use crate::password;
use crate::ratelimit;
use crate::registry;

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
    /// Each account's pace of posts (issue 28, point 11).
    pub posts: ratelimit::PostRate,
    /// Sign-ups per client address.
    pub signups: ratelimit::Quota,
    /// Games created per host (user id) per day.
    pub creations: ratelimit::Quota<i64>,
    /// The balance hints: their cache and the ones running (issue 28, point 12).
    pub hints: Arc<crate::hints::Hints>,
    /// The threads that hash and check passwords (Argon2, one thread per core).
    pub passwords: password::Pool,
    /// How the server is reached (HTTPS, a trusted proxy): set before serving.
    pub options: harden::Options,
    /// The connections' timeouts and caps (from the descriptor limit at load).
    pub limits: crate::net::Limits,
    /// The live streams open, by account and address (issue 28, point 13).
    pub streams: crate::streams::Streams,
    /// The last failure the scheduler logged per game (each is logged once).
    pub(crate) scheduler_errors: std::sync::Mutex<HashMap<i64, String>>,
    /// Games whose memory may differ from their stored log (an append failed or was
    /// refused after the event was folded in), with the epoch of the fold it was staged
    /// on; refolded from the store when next locked.
    pub stale: std::sync::Mutex<HashMap<i64, u64>>,
    /// "Game `id` changed": sent after every event folded in, for the pages' live updates
    /// (server-sent events). Receivers that lag only miss a wake-up: they re-read the game.
    pub changes: tokio::sync::broadcast::Sender<i64>,
    /// Whether the scheduler has folded every unfinished game once (its first tick).
    pub(crate) warm: std::sync::atomic::AtomicBool,
    /// Where seats' accounts came from, by keyed hash (issue 30, point 5).
    pub sightings: crate::access::Sightings,
    /// How this server notifies (the site's address, the Telegram bot): set before serving.
    pub notify: crate::notify::Settings,
    /// What the notifier keeps between its ticks.
    pub notifier: crate::notify::Notifier,
    /// Telegram link codes per account per hour.
    pub link_codes: ratelimit::Quota<i64>,
    /// A practice server's settings (`ostrov demo`): `None` on a game server, which has
    /// no guests.
    pub demo: Option<crate::demo::Demo>,
}

impl<S: Store> AppState<S> {
    /// The state over a store. Nothing is folded yet: one query lists the games (a finished
    /// one with its stored summary); each game is folded from its log on first use, and the
    /// scheduler's first tick folds every unfinished one.
    pub async fn load(store: S, clock: Arc<dyn Clock>) -> Result<Self, String> {
        key_old_accounts(&store).await?;
        let secret = store.server_secret(&crate::access::new_secret()).await.map_err(|e| e.to_string())?;
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
            posts: ratelimit::PostRate::default(),
            signups: ratelimit::Quota::new(ratelimit::SIGNUPS_PER_HOUR, 3600),
            creations: ratelimit::Quota::new(ratelimit::GAMES_PER_DAY, 24 * 3600),
            hints: Arc::new(crate::hints::Hints::default()),
            passwords: password::Pool::new(std::thread::available_parallelism().map_or(2, |n| n.get()))
                .map_err(|e| format!("the password threads: {e}"))?,
            options: harden::Options::default(),
            limits: crate::net::Limits::for_process(),
            streams: Default::default(),
            scheduler_errors: Default::default(),
            stale: Default::default(),
            changes: tokio::sync::broadcast::channel(256).0,
            warm: Default::default(),
            sightings: crate::access::Sightings::new(secret),
            notify: Default::default(),
            notifier: crate::notify::Notifier::new(),
            link_codes: ratelimit::Quota::new(crate::notify::CODES_PER_HOUR, 3600),
            demo: None,
        })
    }
}
