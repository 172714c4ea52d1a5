//! What every service does first: lock the game (running its due scheduler steps), and
//! read the client's request id.

use std::sync::Arc;

use ostrov_store::Store;
use tokio::sync::OwnedMutexGuard;

use crate::app::AppState;
use crate::cache::LoadedGame;
use crate::error::ApiError;
use crate::idempotency::RequestId;
use crate::scheduler::run_due;

/// The game `id`, locked, with its due scheduler steps run first (so a request after a
/// deadline sees the resolved day even between two scheduler ticks). A step that fails
/// does not fail the request: the game is marked broken for the host
/// ([`crate::game::GameState::broken`]) and the cause is logged once.
///
/// On a store other nodes share, what the log holds beyond memory is folded in first (one
/// query): a request answered here sees every entry another node had accepted before it
/// came, without waiting for the announcement to arrive (a player who joined on one node
/// may vote on another at once).
pub async fn locked<S: Store>(st: &Arc<AppState<S>>, id: i64) -> Result<(OwnedMutexGuard<LoadedGame>, i64), ApiError> {
    let game = st.game(id).await?;
    let mut slot = game.lock_owned().await;
    // A game whose lease this node holds is written by this node alone: nothing to read.
    if st.store.shared() && !st.store.owns(id) {
        st.refresh(&mut slot).await?;
    }
    let now = st.clock.now();
    if let Some(f) = run_due(st, &mut slot, now).await {
        eprintln!("ostrov-server: game {id}: {}", f.detail());
    }
    Ok((slot, now))
}

/// The game `id` as `user` (`None`: nobody signed in) reaches it: [`locked`], and 404 for
/// a private game `user` neither hosts nor plays (O-PRIVATE-1), the same answer as for a
/// game that does not exist, so that nobody learns which ids are private games. Every
/// channel that shows or changes a game for a viewer asks this, not [`locked`].
pub async fn reach<S: Store>(
    st: &Arc<AppState<S>>,
    id: i64,
    user: Option<i64>,
) -> Result<(OwnedMutexGuard<LoadedGame>, i64), ApiError> {
    let (slot, now) = locked(st, id).await?;
    if !slot.live.reachable(user) {
        return Err(ApiError::NotFound);
    }
    if let Some(u) = user {
        super::sightings::note(st, &slot.live, u, now).await;
    }
    Ok((slot, now))
}

/// The game `id` for reading its newspapers: as [`reach`], and in a private game also for
/// anyone who has the newspaper link's `key` ([`paper_key`]).
pub async fn reach_papers<S: Store>(
    st: &Arc<AppState<S>>,
    id: i64,
    user: Option<i64>,
    key: Option<&str>,
) -> Result<(OwnedMutexGuard<LoadedGame>, i64), ApiError> {
    let (slot, now) = locked(st, id).await?;
    if slot.live.reachable(user) {
        return Ok((slot, now));
    }
    let invite = st.store.game(id).await?.ok_or(ApiError::NotFound)?.invite;
    match key {
        Some(k) if same(k.as_bytes(), paper_key(&invite).as_bytes()) => Ok((slot, now)),
        _ => Err(ApiError::NotFound),
    }
}

/// The key of a private game's newspaper links (`?key=…`), made from its invite code: as
/// unguessable as the invite, and telling nothing of it (a reader of the newspapers
/// cannot join). 24 hex digits.
pub fn paper_key(invite: &str) -> String {
    use blake2::{Blake2s256, Digest};
    let mut h = Blake2s256::new();
    h.update(b"ostrov-paper-link\0");
    h.update(invite.as_bytes());
    crate::hex::hex(&h.finalize()[..12])
}

/// Equal bytes, compared in a time that does not depend on where they differ.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// A client request id: at most 100 printable characters; kept per user, so one user's
/// ids never collide with another's or with the scheduler's.
pub fn request_id(user: i64, r: Option<String>) -> Result<Option<String>, ApiError> {
    match r {
        Some(r) if r.is_empty() || r.chars().count() > 100 || r.chars().any(char::is_control) => {
            Err(ApiError::BadRequest("request_id: от 1 до 100 печатных символов.".into()))
        }
        r => Ok(r.map(|r| format!("user{user}:{r}"))),
    }
}

/// [`request_id`] with the digest of its request: the route and `what` it asked (the body
/// without the id), so that a resend with another body is refused.
pub fn client_request(
    user: i64,
    r: Option<String>,
    route: &str,
    what: &serde_json::Value,
) -> Result<Option<RequestId>, ApiError> {
    let Some(id) = request_id(user, r)? else { return Ok(None) };
    // What is digested is the JSON of `{"body": …, "route": …}` (its keys in order), written
    // straight out rather than built as a value: no copy of the body unless it has an id.
    let without_id;
    let body = match what.as_object() {
        Some(o) if o.contains_key("request_id") => {
            let mut o = o.clone();
            o.remove("request_id");
            without_id = serde_json::Value::Object(o);
            &without_id
        }
        _ => what,
    };
    let failed = |e: serde_json::Error| ApiError::Internal(format!("the request's digest: {e}"));
    let mut asked = b"{\"body\":".to_vec();
    serde_json::to_writer(&mut asked, body).map_err(failed)?;
    asked.extend_from_slice(b",\"route\":");
    serde_json::to_writer(&mut asked, route).map_err(failed)?;
    asked.push(b'}');
    Ok(Some(RequestId::of_bytes(id, &asked)))
}

#[cfg(test)]
mod tests {
    use super::client_request;
    use serde_json::json;

    /// The digest of a request is stored in the log with it and compared with a resend's,
    /// also after a restart or an upgrade: it must never change for the same request.
    #[test]
    fn a_request_digest_is_the_same_as_the_one_stored_before() {
        let digest = |route: &str, what: serde_json::Value| {
            client_request(7, Some("r-1".into()), route, &what).unwrap().unwrap().hash
        };
        let vote = json!({"act": "vote", "target": "Аня", "day": 2});
        assert_eq!(digest("orders", vote.clone()), "7e645404a7705104d2d41b850a570a8a");
        // The id itself is not part of what was asked.
        let mut with_id = vote;
        with_id["request_id"] = json!("r-1");
        assert_eq!(digest("orders", with_id), "7e645404a7705104d2d41b850a570a8a");
        assert_eq!(digest("join", json!({"name": "Аня \"Ё\" \\ 😀"})), "f87ee97bb84b6848beb829cbde832c44");
        assert_eq!(digest("host/pause", json!(null)), "0870a67441b6e73d2c7d91235aec3458");
        assert_eq!(
            digest("host/penalty", json!({"target": "Боря", "list": [1, 2.5, true]})),
            "7b195f2648566d456134030c8f393900"
        );
        let r = client_request(7, Some("r-1".into()), "orders", &json!({})).unwrap().unwrap();
        assert_eq!(r.id, "user7:r-1");
        assert_eq!(r.hash.len(), 32);
    }
}
