//! The games in memory: each one folded from its stored log on first use, kept level with
//! the log (what this node appends, and on a shared store what other nodes append), and
//! refolded from the log whole when an append staged on it failed.

use std::collections::HashMap;

use std::sync::Arc;

use ostrov_store::Store;
use tokio::sync::Mutex;

use crate::app::AppState;
use crate::error::ApiError;
use crate::game::GameEvent;
use crate::game::GameState;
use crate::game::Status;
use crate::idempotency::StoredRequest;
use crate::registry;

pub use crate::loaded::LoadedGame;

/// The fold of a game's whole stored log; `None` for a game with an empty log (its row was
/// written but the server stopped before its `created` event was).
pub async fn fold_stored<S: Store>(store: &S, id: i64, host: i64) -> Result<Option<LoadedGame>, String> {
    let events = store.events(id).await.map_err(|e| e.to_string())?;
    if events.is_empty() {
        return Ok(None);
    }
    // Reading and folding a long log is work of the processor: on a blocking thread, so a
    // game with many entries never holds up the threads that answer everyone else.
    let fold = move || {
        let mut log = Vec::with_capacity(events.len());
        let mut requests = HashMap::new();
        let mut days = 0;
        for e in events {
            let ev = GameEvent::join(&e.kind, &e.payload)?;
            // Counted as the live commit counts them: the days opened once the entry is in
            // (a start or an opening counts itself), so a resend after a restart is a resend.
            if matches!(ev, GameEvent::Started { .. } | GameEvent::Opened { .. }) {
                days += 1;
            }
            if let Some(r) = e.client_request_id {
                requests.insert(r, StoredRequest { seq: e.seq, days, hash: e.request_hash });
            }
            log.push((e.at, ev));
        }
        let live = GameState::fold(id, host, &log)?;
        Ok::<_, String>(LoadedGame::new(live, requests))
    };
    match tokio::runtime::Handle::try_current() {
        Ok(_) => tokio::task::spawn_blocking(fold).await.map_err(|e| format!("game {id}: folding: {e}"))?.map(Some),
        Err(_) => fold().map(Some),
    }
}

impl<S: Store> AppState<S> {
    /// The game with this id, folded from its log if it is not in memory. On a shared
    /// store a game this node has not listed is looked up in the store first (another node
    /// may have created it since this one started); on a store only this node writes, the
    /// listing is the whole truth and a miss is answered at once.
    pub async fn game(&self, id: i64) -> Result<Arc<Mutex<LoadedGame>>, ApiError> {
        let (cell, host) = match self.games.cell(id) {
            Some(found) => found,
            None if self.store.shared() => {
                self.list_from_store(id).await?;
                self.games.cell(id).ok_or(ApiError::NotFound)?
            }
            None => return Err(ApiError::NotFound),
        };
        let slot = cell
            .slot
            .get_or_try_init(|| async {
                match fold_stored(&self.store, id, host).await.map_err(ApiError::Internal)? {
                    Some(slot) => {
                        self.games.note(&slot.live);
                        Ok(Arc::new(Mutex::new(slot)))
                    }
                    None => {
                        eprintln!("ostrov-server: game {id} has an empty log (its creation was cut short): skipped");
                        self.games.forget(id);
                        Err(ApiError::NotFound)
                    }
                }
            })
            .await?;
        Ok(slot.clone())
    }

    /// Lists a game from its row in the store (see [`registry::Registry::learn`]):
    /// `NotFound` if there is no such row.
    async fn list_from_store(&self, id: i64) -> Result<(), ApiError> {
        let row = self.store.game(id).await?.ok_or(ApiError::NotFound)?;
        self.list_row(&row);
        Ok(())
    }

    /// Lists the game of a stored row if this node has not listed it yet.
    pub(crate) fn list_row(&self, row: &ostrov_store::GameRow) {
        let finished = row.finished.clone().and_then(|f| serde_json::from_value(f).ok());
        self.games.learn(row.id, row.host_id, finished);
    }

    /// Marks the game's fold of `epoch` as differing from the log.
    pub(crate) fn mark_stale(&self, id: i64, epoch: u64) {
        if let Ok(mut s) = self.stale.lock() {
            let e = s.entry(id).or_insert(epoch);
            *e = (*e).max(epoch);
        }
    }

    /// Refolds the game from its stored log if an append staged on this fold failed.
    pub async fn repair(&self, slot: &mut LoadedGame) -> Result<(), ApiError> {
        let id = slot.live.id;
        let failed = self.stale.lock().map_err(|_| ApiError::Internal("stale lock".into()))?.get(&id).copied();
        let Some(failed) = failed else { return Ok(()) };
        if failed >= slot.epoch {
            self.refold(slot).await?;
            self.games.note(&slot.live);
        }
        let mut stale = self.stale.lock().map_err(|_| ApiError::Internal("stale lock".into()))?;
        if stale.get(&id).is_some_and(|e| *e < slot.epoch) {
            stale.remove(&id);
        }
        Ok(())
    }

    /// Folds in what the log holds beyond memory (see [`LoadedGame::catch_up`]); a game whose
    /// memory cannot take the new events is refolded from its whole log. Announces a
    /// change on [`AppState::changes`].
    ///
    /// The scheduler's index takes the game's next due time as it now stands (another node
    /// may have started the game or opened a day), and a game another node ended is noted
    /// finished here too.
    pub async fn refresh(&self, slot: &mut LoadedGame) -> Result<(), ApiError> {
        let (id, before) = (slot.live.id, slot.live.seq);
        let was_over = slot.live.status == Status::Over;
        if let Err(e) = slot.catch_up(&self.store).await {
            eprintln!("ostrov-server: {e}; refolding game {id} from its whole log");
            self.refold(slot).await?;
        }
        if slot.live.seq != before {
            self.after_new_entries(&slot.live, was_over).await;
            let _ = self.changes.send(id);
        }
        Ok(())
    }

    /// Replaces the game's memory with a fold of its whole stored log.
    pub(crate) async fn refold(&self, slot: &mut LoadedGame) -> Result<(), ApiError> {
        let id = slot.live.id;
        let fresh = fold_stored(&self.store, id, slot.live.host).await.map_err(ApiError::Internal)?;
        *slot = fresh.ok_or_else(|| ApiError::Internal(format!("game {id}: the log is empty")))?;
        Ok(())
    }

    /// After memory took entries that are in the log (`was_over`: whether the game was over
    /// before them): the scheduler's index takes the game's next due time, and a game that
    /// has just ended is noted finished.
    pub(crate) async fn after_new_entries(&self, live: &GameState, was_over: bool) {
        self.games.note(live);
        if !was_over && live.status == Status::Over {
            self.finish(live.id, registry::Summary::of(live), crate::results::result_of(live)).await;
        }
    }

    /// Notes a game over, in the store (so the next start need not fold it) and here, and
    /// stores its result (players' records and the setups' counts are made of it).
    pub(crate) async fn finish(&self, id: i64, summary: registry::Summary, result: Option<ostrov_store::GameResult>) {
        if let Some(r) = result {
            if let Err(e) = self.store.record_result(&r).await {
                eprintln!("ostrov-server: game {id}: storing its result: {e}");
            }
        }
        match serde_json::to_value(&summary) {
            Ok(v) => {
                if let Err(e) = self.store.finish_game(id, &v).await {
                    eprintln!("ostrov-server: game {id}: noting it finished: {e}");
                }
                // Who came from where is kept while the game runs only (issue 30, point 5).
                if let Err(e) = self.store.forget_sightings(id).await {
                    eprintln!("ostrov-server: game {id}: forgetting its sightings: {e}");
                }
            }
            Err(e) => eprintln!("ostrov-server: game {id}: its summary: {e}"),
        }
        self.games.finish(id, summary);
    }
}
