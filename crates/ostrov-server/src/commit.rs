//! Committing an event to a game: checked against the game in memory, folded in, and
//! appended to its log, durably before the client is told "accepted". On a store only
//! this node writes, and on a shared store for a game whose lease this node holds (issue
//! 34), appends are pipelined (staged under the game's lock, waited for after it); a game
//! another node holds is that node's to write (the request is forwarded to it); on a
//! shared store where nodes own no games, each append is waited for under the lock.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use ostrov_store::{Appended, NewEvent, Owner, Store};

use crate::app::AppState;
use crate::cache::LoadedGame;
use crate::error::ApiError;
use crate::game::GameEvent;
use crate::game::Status;
use crate::idempotency::RequestId;
use crate::registry;

/// What committing an event did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Committed {
    /// Appended as this sequence number.
    New(i64),
    /// The request id was already in the log at this sequence number: nothing done.
    Duplicate(i64),
}

impl Committed {
    pub fn seq(self) -> i64 {
        match self {
            Committed::New(s) | Committed::Duplicate(s) => s,
        }
    }
}

/// An event staged under its game's lock: checked, folded into memory and its append
/// issued. The caller releases the lock and then waits for [`Staged::durable`], so the
/// next request to the game is checked against the new state while this one syncs.
#[must_use = "the request is answered only once its event is durable"]
pub struct Staged(StagedWait);

enum StagedWait {
    Done(Committed),
    Pending(Detached),
}

type Follow = std::pin::Pin<Box<dyn std::future::Future<Output = Result<Committed, ApiError>> + Send>>;

/// The wait for an append and what follows it (the durable mark, a finished game's
/// summary, a refold after a failure). Its awaiter runs it, on the thread that runs the
/// request (a store may write the append right there, sparing the wake-up of another
/// thread); dropped before it is done (the client hung up), it goes on in a task of its
/// own, so a client hanging up changes nothing.
struct Detached(Option<Follow>);

impl Detached {
    fn new(f: impl std::future::Future<Output = Result<Committed, ApiError>> + Send + 'static) -> Detached {
        Detached(Some(Box::pin(f)))
    }
}

impl std::future::Future for Detached {
    type Output = Result<Committed, ApiError>;

    fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<Self::Output> {
        let Some(f) = self.0.as_mut() else {
            return std::task::Poll::Ready(Err(ApiError::Internal("a commit was awaited twice".into())));
        };
        let done = std::task::ready!(f.as_mut().poll(cx));
        self.0 = None;
        std::task::Poll::Ready(done)
    }
}

impl Drop for Detached {
    fn drop(&mut self) {
        if let Some(f) = self.0.take() {
            // Outside a runtime (the server shutting down) there is nothing to run it on;
            // the append itself is the store's and is written all the same.
            if let Ok(rt) = tokio::runtime::Handle::try_current() {
                rt.spawn(f);
            }
        }
    }
}

impl Staged {
    /// An answer known at once: nothing to wait for.
    pub(crate) fn done(c: Committed) -> Staged {
        Staged(StagedWait::Done(c))
    }

    /// An answer known once `wait` is done (see [`Detached`]).
    pub(crate) fn pending(
        wait: impl std::future::Future<Output = Result<Committed, ApiError>> + Send + 'static,
    ) -> Staged {
        Staged(StagedWait::Pending(Detached::new(wait)))
    }

    /// Waits until the event is durable (or is known to be in the log already). An error
    /// means nothing was accepted: the append failed, or one staged before it in the same
    /// game did (the game is then refolded from its log before its next use).
    pub async fn durable(self) -> Result<Committed, ApiError> {
        match self.0 {
            StagedWait::Done(c) => Ok(c),
            StagedWait::Pending(wait) => wait.await,
        }
    }
}

/// Stages an event (see [`Staged`]): checked first (on a copy, or by the engine's check for
/// an order), folded in, and its append issued to the store with the sequence number it
/// must follow. A request id already in the log is a no-op (answered once that earlier
/// append is durable).
///
/// The appends of one game are issued in the order of their folds, each expecting the
/// last; the store applies them in that order. If one fails, every later one of the same
/// game fails too (its expected sequence number is no longer the log's last), so no reply
/// is ever acknowledged out of order, and the first request to lock the game refolds it.
/// A client hanging up changes nothing: the wait goes on in a task of its own.
pub async fn commit<S: Store>(
    st: &Arc<AppState<S>>,
    slot: &mut LoadedGame,
    ev: GameEvent,
    author: Option<i64>,
    request: Option<String>,
    now: i64,
) -> Result<Staged, ApiError> {
    commit_request(st, slot, ev, author, request.map(RequestId::named), now).await
}

/// [`commit`] with a request id and the digest of its request: a resend of the id with
/// another request is refused (409 `request_id_reused`).
pub async fn commit_request<S: Store>(
    st: &Arc<AppState<S>>,
    slot: &mut LoadedGame,
    ev: GameEvent,
    author: Option<i64>,
    request: Option<RequestId>,
    now: i64,
) -> Result<Staged, ApiError> {
    st.repair(slot).await?;
    let id = slot.live.id;
    // On a shared store only the node holding the game's lease writes it (issue 34).
    // Not known (the database unreachable, this node draining): nothing stored, sent again.
    match st.store.own(id).await.map_err(|e| ApiError::NotSaved(format!("game {id}: {e}")))? {
        Owner::Here { taken } => {
            if taken && st.store.shared() {
                // What the previous holder wrote up to the moment its lease moved.
                st.refresh(slot).await?;
            }
        }
        Owner::There(addr) => {
            crate::forward::note(&addr);
            return Err(ApiError::Elsewhere(addr));
        }
        Owner::Shared => {
            return commit_shared(st, slot, ev, author, request, now).await.map(|c| Staged(StagedWait::Done(c)));
        }
    }
    let (kind, payload) = ev.split();
    if let Some(r) = &request {
        if let Some(seq) = already_stored(slot, r)? {
            return Ok(durable_request(st, slot, r.id.clone(), seq));
        }
    }
    // Decided against the game as it is (nothing copied but, for what runs the engine,
    // the match), then evolved: nothing is stored that the fold would refuse.
    let was_over = slot.live.status == Status::Over;
    let decision = slot.live.decide(&ev, now)?;
    slot.live.evolve(decision, now);
    let expected = slot.live.seq;
    let seq = expected + 1;
    slot.live.seq = seq;
    st.games.note(&slot.live);
    let ended = (was_over != (slot.live.status == Status::Over))
        .then(|| (registry::Summary::of(&slot.live), crate::results::result_of(&slot.live)));
    let (client_request_id, request_hash) = match request {
        Some(r) => {
            slot.remember(&r, seq);
            (Some(r.id), Some(r.hash))
        }
        None => (None, None),
    };
    let new = NewEvent { at: now, author, client_request_id, request_hash, kind, payload };
    let pending = st.store.append(id, expected, new);
    let _ = st.changes.send(id);
    let (st, epoch, durable) = (st.clone(), slot.epoch, slot.durable.clone());
    Ok(Staged(StagedWait::Pending(Detached::new(async move {
        match pending.await {
            Ok(Appended::New(s)) if s == seq => {
                durable.fetch_max(s, Ordering::AcqRel);
                if let Some((summary, result)) = ended {
                    st.finish(id, summary, result).await;
                }
                Ok(Committed::New(s))
            }
            // In the log but not in memory as such: memory is behind, and is refolded.
            Ok(Appended::Duplicate(s)) => {
                st.mark_stale(id, epoch);
                Ok(Committed::Duplicate(s))
            }
            // The log ends before what this node holds (entries lost behind it, as in a
            // restored backup): nothing is written past the log's end; the request is
            // refused as not saved (sent again), and the game refolded from the log before
            // its next use, as a node that does not own it would.
            Ok(Appended::Conflict { last }) if last < expected => {
                eprintln!("ostrov-server: game {id}: the log ends at {last}, before this node's {expected}: refolded from the log");
                st.mark_stale(id, epoch);
                Err(ApiError::NotSaved(format!("game {id}, seq {seq}: the log ends at {last}")))
            }
            other => {
                st.mark_stale(id, epoch);
                Err(ApiError::NotSaved(format!("game {id}, seq {seq}: {other:?}")))
            }
        }
    }))))
}

/// How long a commit on a shared store goes on folding in what other nodes appended first,
/// checking the request again and retrying, before it is refused as not saved (503). A
/// bound in time rather than in tries: on a loaded 2-core machine running three nodes, one
/// node lost 64 races in a row to the other two in 2 of 17 runs of the three-node test
/// (`crates/ostrov/tests/nodes.rs`), and its player was told to send the order again.
pub const SHARED_PATIENCE: std::time::Duration = std::time::Duration::from_secs(5);

/// [`commit`] on a store other nodes also append to: each append is waited for under the
/// game's lock (no pipelining: a fold never runs ahead of the log), carrying the seq
/// memory was checked at. If another node appended first, the new events are folded in
/// and the event is checked again: the client only sees the final answer.
async fn commit_shared<S: Store>(
    st: &Arc<AppState<S>>,
    slot: &mut LoadedGame,
    ev: GameEvent,
    author: Option<i64>,
    request: Option<RequestId>,
    now: i64,
) -> Result<Committed, ApiError> {
    let id = slot.live.id;
    let (kind, payload) = ev.split();
    let until = tokio::time::Instant::now() + SHARED_PATIENCE;
    let mut lost = 0u32;
    loop {
        if lost > 0 && tokio::time::Instant::now() >= until {
            return Err(ApiError::NotSaved(format!(
                "game {id}: {lost} appends in a row lost to other nodes in {} s",
                SHARED_PATIENCE.as_secs()
            )));
        }
        // In memory means durable here: memory only takes what the log holds.
        if let Some(seq) = request.as_ref().map(|r| already_stored(slot, r)).transpose()?.flatten() {
            return Ok(Committed::Duplicate(seq));
        }
        // Decided without changing memory; evolved only once it is in the log (the game
        // is locked meanwhile, so the decision still holds).
        let decision = slot.live.decide(&ev, now)?;
        let new = NewEvent {
            at: now,
            author,
            client_request_id: request.as_ref().map(|r| r.id.clone()),
            request_hash: request.as_ref().map(|r| r.hash.clone()),
            kind: kind.clone(),
            payload: payload.clone(),
        };
        let answer = st.store.append(id, slot.live.seq, new).await;
        match answer {
            Ok(Appended::New(seq)) if seq == slot.live.seq + 1 => {
                let was_over = slot.live.status == Status::Over;
                slot.live.evolve(decision, now);
                slot.live.seq = seq;
                slot.durable.fetch_max(seq, Ordering::AcqRel);
                if let Some(r) = &request {
                    slot.remember(r, seq);
                }
                st.after_new_entries(&slot.live, was_over).await;
                let _ = st.changes.send(id);
                return Ok(Committed::New(seq));
            }
            Ok(Appended::Duplicate(seq)) => {
                st.refresh(slot).await?;
                return Ok(Committed::Duplicate(seq));
            }
            // The log ends before what this node holds (a promoted replica that had not
            // received the last events): the log is the truth, so the game is refolded
            // from it and the request checked again against what it holds.
            Ok(Appended::Conflict { last }) if last < slot.live.seq => {
                eprintln!(
                    "ostrov-server: game {id}: the log ends at {last}, before this node's {}: refolded from the log",
                    slot.live.seq
                );
                st.refold(slot).await?;
                st.games.note(&slot.live);
                let _ = st.changes.send(id);
                lost += 1;
            }
            Ok(Appended::Conflict { .. }) => {
                st.refresh(slot).await?;
                lost += 1;
            }
            Ok(other) => {
                st.mark_stale(id, slot.epoch);
                return Err(ApiError::NotSaved(format!("game {id}: {other:?}")));
            }
            // Nothing of it is in the log (or, if the answer was lost after the commit, the
            // next append conflicts and folds it in).
            Err(e) => return Err(ApiError::NotSaved(format!("game {id}: {e}"))),
        }
    }
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
