//! Client request ids: a request sent again under the id it was first sent with makes no
//! second log entry. Each id is stored in the game's log with the entry it made and the
//! digest of the request, so a resend is answered as the first send was, and the id
//! resent with another request is refused (`request_id_reused`).

use std::sync::atomic::Ordering;
use std::sync::Arc;

use ostrov_store::{Appended, NewEvent, Store};

use crate::cache::LoadedGame;
use crate::commit::{Committed, Staged};
use crate::hex::hex;
use crate::error::ApiError;
use crate::app::AppState;

/// A client request id with the digest of what the request asked: resending the same id
/// with the same request is a no-op; with another request it is refused
/// (`request_id_reused`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestId {
    pub id: String,
    pub hash: String,
}

impl RequestId {
    /// The request whose JSON is `what` (the route and its body without the id, see
    /// [`crate::routes::client_request`]), under the id `id`: the digest is the first 16
    /// bytes of its SHA-256, in lowercase hexadecimal.
    pub fn of_bytes(id: String, what: &[u8]) -> RequestId {
        use sha2::Digest;
        RequestId { id, hash: hex(&sha2::Sha256::digest(what)[..16]) }
    }

    /// An id that names what it does (a scheduler step, a form's flag): nothing else to
    /// compare.
    pub fn named(id: String) -> RequestId {
        RequestId { id, hash: String::new() }
    }
}

/// A client request id already in a game's log, with the entry it made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredRequest {
    /// The log entry it made.
    pub seq: i64,
    /// How many days had opened when it was sent: an id sent again on a later day is reused.
    pub days: usize,
    /// The digest of the request ([`RequestId::hash`]); `None` for entries stored
    /// before digests were kept.
    pub hash: Option<String>,
}

/// The log entry of a request id already in the game's log: `Ok(Some(seq))` when it is the
/// same request (a resend), 409 `request_id_reused` when the id came with another request
/// or on an earlier day, `Ok(None)` for a new id.
pub fn already_stored(slot: &LoadedGame, r: &RequestId) -> Result<Option<i64>, ApiError> {
    let Some(s) = slot.requests.get(&r.id) else { return Ok(None) };
    let same = s.hash.as_ref().is_none_or(|h| *h == r.hash) && s.days == slot.live.days.len();
    if !same {
        return Err(ApiError::Conflict(
            "request_id_reused",
            "Этот request_id уже использован для другого запроса: для нового запроса нужен новый request_id.".into(),
        ));
    }
    Ok(Some(s.seq))
}

/// Waits for the append of a request id that is already folded into the game (at `seq`):
/// at once if it is durable, else behind it in the store's queue, with a lookup that can
/// never be written (expected sequence number -1): the store answers `Duplicate` once the
/// first append is durable, and a conflict if it failed (then this fails too).
pub fn durable_request<S: Store>(st: &Arc<AppState<S>>, slot: &LoadedGame, request: String, seq: i64) -> Staged {
    if seq <= slot.durable.load(Ordering::Acquire) {
        return Staged::done(Committed::Duplicate(seq));
    }
    let id = slot.live.id;
    let lookup = NewEvent {
        at: 0,
        author: None,
        client_request_id: Some(request),
        request_hash: None,
        kind: "lookup".into(),
        payload: serde_json::Value::Null,
    };
    let pending = st.store.append(id, -1, lookup);
    let (st, epoch) = (st.clone(), slot.epoch);
    Staged::pending(async move {
        match pending.await {
            Ok(Appended::Duplicate(s)) => Ok(Committed::Duplicate(s)),
            other => {
                st.mark_stale(id, epoch);
                Err(ApiError::NotSaved(format!("game {id}: the first append of a resent request: {other:?}")))
            }
        }
    })
}
