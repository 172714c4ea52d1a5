//! A game in memory ([`LoadedGame`]): its fold and the request ids in its log.

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::Arc;

use ostrov_store::Store;

use crate::game::GameEvent;
use crate::game::GameState;
use crate::idempotency::{RequestId, StoredRequest};

/// A game in memory: its fold and the client request ids already in its log.
pub struct LoadedGame {
    pub live: GameState,
    pub requests: HashMap<String, StoredRequest>,
    /// Which fold this is: a failure of an append staged on an older fold is already
    /// repaired by the refold since. Unique across the server.
    pub epoch: u64,
    /// The highest sequence number of this game known to be durable.
    pub durable: Arc<AtomicI64>,
    /// The host's preview of the open day ([`crate::preview::preview`]) and the sequence
    /// number of the state it was made from.
    pub preview: crate::preview::Cached,
}

static EPOCHS: AtomicU64 = AtomicU64::new(1);

impl LoadedGame {
    /// A game folded from its whole log (up to `live.seq`, all of it durable).
    pub fn new(live: GameState, requests: HashMap<String, StoredRequest>) -> LoadedGame {
        let durable = Arc::new(AtomicI64::new(live.seq));
        LoadedGame { live, requests, epoch: EPOCHS.fetch_add(1, Ordering::Relaxed), durable, preview: None }
    }

    /// Notes that request `r` made log entry `seq`, once the entry is folded in (so the
    /// day count is the one [`crate::commit::already_stored`] compares with).
    pub(crate) fn remember(&mut self, r: &RequestId, seq: i64) {
        let days = self.live.days.len();
        self.requests.insert(r.id.clone(), StoredRequest { seq, days, hash: Some(r.hash.clone()) });
    }

    /// Folds in what the store holds after this fold's last seq (what another node
    /// appended): only the new events. An error leaves the fold to be made again whole.
    pub async fn catch_up<S: Store>(&mut self, store: &S) -> Result<(), String> {
        let id = self.live.id;
        for e in store.events_after(id, self.live.seq).await.map_err(|e| e.to_string())? {
            if e.seq != self.live.seq + 1 {
                return Err(format!("game {id}: the log jumps from {} to {}", self.live.seq, e.seq));
            }
            let ev = GameEvent::join(&e.kind, &e.payload)?;
            self.live.apply(&ev, e.at).map_err(|r| format!("game {id}, entry {}: {r:?}", e.seq))?;
            self.live.seq = e.seq;
            self.durable.fetch_max(e.seq, Ordering::AcqRel);
            if let Some(r) = e.client_request_id {
                let days = self.live.days.len();
                self.requests.insert(r, StoredRequest { seq: e.seq, days, hash: e.request_hash });
            }
        }
        Ok(())
    }
}
