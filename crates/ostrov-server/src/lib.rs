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

pub mod auth;
pub mod client;
pub mod error;
pub mod game;
pub mod harden;
pub mod listing;
pub mod local;
pub mod net;
pub mod password;
pub mod process;
pub mod ratelimit;
pub mod registry;
pub mod routes;
pub mod schedule;
pub mod service;
pub mod view;
pub mod web;

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::Arc;

use axum::Router;
use ostrov_store::{Appended, NewEvent, Store};
use tokio::sync::Mutex;

pub use error::ApiError;
pub use game::{Config, GameEvent, GameState, Status};
pub use registry::Summary;

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

/// A clock that reads Unix seconds from a file on every call (for tests of the real
/// process: the test moves time by rewriting the file). Falls back to the system clock
/// when the file does not read.
pub struct FileClock(pub std::path::PathBuf);

impl Clock for FileClock {
    fn now(&self) -> i64 {
        std::fs::read_to_string(&self.0).ok().and_then(|s| s.trim().parse().ok()).unwrap_or_else(|| SystemClock.now())
    }
}

/// A game in memory: its fold and the client request ids already in its log.
pub struct Slot {
    pub live: GameState,
    pub requests: HashMap<String, Seen>,
    /// Which fold this is: a failure of an append staged on an older fold is already
    /// repaired by the refold since. Unique across the server.
    pub epoch: u64,
    /// The highest sequence number of this game known to be durable.
    pub durable: Arc<AtomicI64>,
}

static EPOCHS: AtomicU64 = AtomicU64::new(1);

impl Slot {
    /// A game folded from its whole log (up to `live.seq`, all of it durable).
    pub fn new(live: GameState, requests: HashMap<String, Seen>) -> Slot {
        let durable = Arc::new(AtomicI64::new(live.seq));
        Slot { live, requests, epoch: EPOCHS.fetch_add(1, Ordering::Relaxed), durable }
    }

    /// Notes that request `r` made log entry `seq`, once the entry is folded in (so the
    /// day count is the one [`seen`] compares with).
    fn remember(&mut self, r: &ClientRequest, seq: i64) {
        let days = self.live.days.len();
        self.requests.insert(r.id.clone(), Seen { seq, days, hash: Some(r.hash.clone()) });
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
                self.requests.insert(r, Seen { seq: e.seq, days, hash: e.request_hash });
            }
        }
        Ok(())
    }
}

/// A client request id already in a game's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seen {
    /// The log entry it made.
    pub seq: i64,
    /// How many days had opened when it was sent: an id sent again on a later day is reused.
    pub days: usize,
    /// The digest of the request ([`ClientRequest::hash`]); `None` for entries stored
    /// before digests were kept.
    pub hash: Option<String>,
}

/// A client request id with the digest of what the request asked: resending the same id
/// with the same request is a no-op; with another request it is refused
/// (`request_id_reused`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientRequest {
    pub id: String,
    pub hash: String,
}

/// `bytes` in lowercase hexadecimal, two digits a byte: digests, session tokens, invite
/// codes.
pub(crate) fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    out
}

impl ClientRequest {
    /// The request whose JSON is `what` (the route and its body without the id, see
    /// [`routes::client_request`]), under the id `id`: the digest is the first 16 bytes of
    /// its SHA-256, in lowercase hexadecimal.
    pub fn of_bytes(id: String, what: &[u8]) -> ClientRequest {
        use sha2::Digest;
        ClientRequest { id, hash: hex(&sha2::Sha256::digest(what)[..16]) }
    }

    /// An id that names what it does (a scheduler step, a form's flag): nothing else to
    /// compare.
    pub fn named(id: String) -> ClientRequest {
        ClientRequest { id, hash: String::new() }
    }
}

/// The log entry of a request id already in the game's log: `Ok(Some(seq))` when it is the
/// same request (a resend), 409 `request_id_reused` when the id came with another request
/// or on an earlier day, `Ok(None)` for a new id.
pub fn seen(slot: &Slot, r: &ClientRequest) -> Result<Option<i64>, ApiError> {
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

/// The fold of a game's whole stored log; `None` for a game with an empty log (its row was
/// written but the server stopped before its `created` event was).
pub async fn fold_stored<S: Store>(store: &S, id: i64, host: i64) -> Result<Option<Slot>, String> {
    let events = store.events(id).await.map_err(|e| e.to_string())?;
    if events.is_empty() {
        return Ok(None);
    }
    let mut log = Vec::with_capacity(events.len());
    let mut requests = HashMap::new();
    let mut days = 0;
    for e in &events {
        let ev = GameEvent::join(&e.kind, &e.payload)?;
        // Counted as the live commit counts them: the days opened once the entry is in
        // (a start or an opening counts itself), so a resend after a restart is a resend.
        if matches!(ev, GameEvent::Started { .. } | GameEvent::Opened { .. }) {
            days += 1;
        }
        if let Some(r) = &e.client_request_id {
            requests.insert(r.clone(), Seen { seq: e.seq, days, hash: e.request_hash.clone() });
        }
        log.push((e.at, ev));
    }
    let live = GameState::fold(id, host, &log)?;
    Ok(Some(Slot::new(live, requests)))
}

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
    /// Sign-ups per client address.
    pub signups: ratelimit::Quota,
    /// Games created per host (user id) per day.
    pub creations: ratelimit::Quota<i64>,
    /// The threads that hash and check passwords (Argon2, one thread per core).
    pub passwords: password::Pool,
    /// How the server is reached (HTTPS, a trusted proxy): set before serving.
    pub options: harden::Options,
    /// The last failure the scheduler logged per game (each is logged once).
    scheduler_errors: std::sync::Mutex<HashMap<i64, String>>,
    /// Games whose memory may differ from their stored log (an append failed or was
    /// refused after the event was folded in), with the epoch of the fold it was staged
    /// on; refolded from the store when next locked.
    pub stale: std::sync::Mutex<HashMap<i64, u64>>,
    /// "Game `id` changed": sent after every event folded in, for the pages' live updates
    /// (server-sent events). Receivers that lag only miss a wake-up: they re-read the game.
    pub changes: tokio::sync::broadcast::Sender<i64>,
    /// Whether the scheduler has folded every unfinished game once (its first tick).
    warm: std::sync::atomic::AtomicBool,
}

impl<S: Store> AppState<S> {
    /// The state over a store. Nothing is folded yet: one query lists the games (a finished
    /// one with its stored summary); each game is folded from its log on first use, and the
    /// scheduler's first tick folds every unfinished one.
    pub async fn load(store: S, clock: Arc<dyn Clock>) -> Result<Self, String> {
        key_old_accounts(&store).await?;
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
            signups: ratelimit::Quota::new(ratelimit::SIGNUPS_PER_HOUR, 3600),
            creations: ratelimit::Quota::new(ratelimit::GAMES_PER_DAY, 24 * 3600),
            passwords: password::Pool::new(std::thread::available_parallelism().map_or(2, |n| n.get()))
                .map_err(|e| format!("the password threads: {e}"))?,
            options: harden::Options::default(),
            scheduler_errors: Default::default(),
            stale: Default::default(),
            changes: tokio::sync::broadcast::channel(256).0,
            warm: Default::default(),
        })
    }

    /// The game with this id, folded from its log if it is not in memory. On a shared
    /// store a game this node has not listed is looked up in the store first (another node
    /// may have created it since this one started); on a store only this node writes, the
    /// listing is the whole truth and a miss is answered at once.
    pub async fn game(&self, id: i64) -> Result<Arc<Mutex<Slot>>, ApiError> {
        let (cell, host) = match self.games.cell(id) {
            Some(found) => found,
            None if self.store.shared() => {
                self.learn(id).await?;
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
    async fn learn(&self, id: i64) -> Result<(), ApiError> {
        let row = self.store.game(id).await?.ok_or(ApiError::NotFound)?;
        self.learn_row(&row);
        Ok(())
    }

    /// Lists the game of a stored row if this node has not listed it yet.
    fn learn_row(&self, row: &ostrov_store::GameRow) {
        let finished = row.finished.clone().and_then(|f| serde_json::from_value(f).ok());
        self.games.learn(row.id, row.host_id, finished);
    }

    /// Marks the game's fold of `epoch` as differing from the log.
    fn mark_stale(&self, id: i64, epoch: u64) {
        if let Ok(mut s) = self.stale.lock() {
            let e = s.entry(id).or_insert(epoch);
            *e = (*e).max(epoch);
        }
    }

    /// Refolds the game from its stored log if an append staged on this fold failed.
    pub async fn repair(&self, slot: &mut Slot) -> Result<(), ApiError> {
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

    /// Folds in what the log holds beyond memory (see [`Slot::catch_up`]); a game whose
    /// memory cannot take the new events is refolded from its whole log. Announces a
    /// change on [`AppState::changes`].
    ///
    /// The scheduler's index takes the game's next due time as it now stands (another node
    /// may have started the game or opened a day), and a game another node ended is noted
    /// finished here too.
    pub async fn refresh(&self, slot: &mut Slot) -> Result<(), ApiError> {
        let (id, before) = (slot.live.id, slot.live.seq);
        let was_over = slot.live.status == Status::Over;
        if let Err(e) = slot.catch_up(&self.store).await {
            eprintln!("ostrov-server: {e}; refolding game {id} from its whole log");
            self.refold(slot).await?;
        }
        if slot.live.seq != before {
            self.took(&slot.live, was_over).await;
            let _ = self.changes.send(id);
        }
        Ok(())
    }

    /// Replaces the game's memory with a fold of its whole stored log.
    async fn refold(&self, slot: &mut Slot) -> Result<(), ApiError> {
        let id = slot.live.id;
        let fresh = fold_stored(&self.store, id, slot.live.host).await.map_err(ApiError::Internal)?;
        *slot = fresh.ok_or_else(|| ApiError::Internal(format!("game {id}: the log is empty")))?;
        Ok(())
    }

    /// After memory took entries that are in the log (`was_over`: whether the game was over
    /// before them): the scheduler's index takes the game's next due time, and a game that
    /// has just ended is noted finished.
    async fn took(&self, live: &GameState, was_over: bool) {
        self.games.note(live);
        if !was_over && live.status == Status::Over {
            self.finish(live.id, registry::Summary::of(live)).await;
        }
    }
}

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
    slot: &mut Slot,
    ev: GameEvent,
    author: Option<i64>,
    request: Option<String>,
    now: i64,
) -> Result<Staged, ApiError> {
    commit_request(st, slot, ev, author, request.map(ClientRequest::named), now).await
}

/// [`commit`] with a request id and the digest of its request: a resend of the id with
/// another request is refused (409 `request_id_reused`).
pub async fn commit_request<S: Store>(
    st: &Arc<AppState<S>>,
    slot: &mut Slot,
    ev: GameEvent,
    author: Option<i64>,
    request: Option<ClientRequest>,
    now: i64,
) -> Result<Staged, ApiError> {
    st.repair(slot).await?;
    if st.store.shared() {
        return commit_shared(st, slot, ev, author, request, now).await.map(|c| Staged(StagedWait::Done(c)));
    }
    let id = slot.live.id;
    let (kind, payload) = ev.split();
    if let Some(r) = &request {
        if let Some(seq) = seen(slot, r)? {
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
    let ended = (was_over != (slot.live.status == Status::Over)).then(|| registry::Summary::of(&slot.live));
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
                if let Some(summary) = ended {
                    st.finish(id, summary).await;
                }
                Ok(Committed::New(s))
            }
            // In the log but not in memory as such: memory is behind, and is refolded.
            Ok(Appended::Duplicate(s)) => {
                st.mark_stale(id, epoch);
                Ok(Committed::Duplicate(s))
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
    slot: &mut Slot,
    ev: GameEvent,
    author: Option<i64>,
    request: Option<ClientRequest>,
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
        if let Some(seq) = request.as_ref().map(|r| seen(slot, r)).transpose()?.flatten() {
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
                st.took(&slot.live, was_over).await;
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

/// Waits for the append of a request id that is already folded into the game (at `seq`):
/// at once if it is durable, else behind it in the store's queue, with a lookup that can
/// never be written (expected sequence number -1): the store answers `Duplicate` once the
/// first append is durable, and a conflict if it failed (then this fails too).
pub fn durable_request<S: Store>(st: &Arc<AppState<S>>, slot: &Slot, request: String, seq: i64) -> Staged {
    if seq <= slot.durable.load(Ordering::Acquire) {
        return Staged(StagedWait::Done(Committed::Duplicate(seq)));
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
    Staged(StagedWait::Pending(Detached::new(async move {
        match pending.await {
            Ok(Appended::Duplicate(s)) => Ok(Committed::Duplicate(s)),
            other => {
                st.mark_stale(id, epoch);
                Err(ApiError::NotSaved(format!("game {id}: the first append of a resent request: {other:?}")))
            }
        }
    })))
}

/// Before the host resolves the open day early: the standing Palms bloom flags become
/// host penalties, each once and durable (the same entries as at the deadline).
pub async fn palms_penalties<S: Store>(st: &Arc<AppState<S>>, slot: &mut Slot, now: i64) -> Result<(), ApiError> {
    for _ in 0..game::MAX_SLOTS {
        let Some(GameEvent::Order { day, order }) = slot.live.palms_due(now) else { return Ok(()) };
        let rid = format!("sched:palms:{day}:{}", order.target.as_deref().unwrap_or(""));
        let staged = commit(st, slot, GameEvent::Order { day, order }, None, Some(rid), now).await?;
        if let Committed::Duplicate(_) = staged.durable().await? {
            return Ok(());
        }
    }
    Ok(())
}

/// A scheduler step that could not run: which, and why.
#[derive(Debug)]
pub struct StepFailed {
    /// The step, in Russian ("подведение итогов дня 2").
    pub step: String,
    pub error: ApiError,
}

impl StepFailed {
    /// What the host is shown: the step and the reason (never an internal detail).
    pub fn reason(&self) -> String {
        let why = match &self.error {
            ApiError::Internal(_) | ApiError::NotSaved(_) => {
                "внутренняя ошибка сервера; сервер повторяет попытку".to_string()
            }
            e => e.message(),
        };
        format!("Не удалось выполнить шаг «{}»: {why}", self.step)
    }

    /// What the server's log gets: the reason with the internal detail.
    pub fn detail(&self) -> String {
        match &self.error {
            ApiError::Internal(d) | ApiError::NotSaved(d) => format!("{}: {d}", self.step),
            e => format!("{}: {}", self.step, e.message()),
        }
    }
}

/// Runs every scheduler step of a game that is due at `now` (the 13:00 stage, the
/// resolution, the next opening), each exactly once: its request id names the step. Each
/// step is durable before the next is staged (they are rare; the lock is held).
pub async fn advance<S: Store>(st: &Arc<AppState<S>>, slot: &mut Slot, now: i64) -> Result<(), StepFailed> {
    st.repair(slot).await.map_err(|error| StepFailed { step: "чтение журнала игры".into(), error })?;
    // Each step, and before a resolution each standing Palms bloom flag, is one entry.
    for _ in 0..8 + game::MAX_SLOTS {
        let Some(ev) = slot.live.due(now) else { return Ok(()) };
        let (rid, step) = match &ev {
            GameEvent::Midday { day } => (format!("sched:midday:{day}"), format!("промежуточный этап дня {day}")),
            GameEvent::Resolved { day, .. } => (format!("sched:resolve:{day}"), format!("подведение итогов дня {day}")),
            GameEvent::Opened { day, .. } => (format!("sched:open:{day}"), format!("открытие дня {day}")),
            GameEvent::Order { day, order } => (
                format!("sched:palms:{day}:{}", order.target.as_deref().unwrap_or("")),
                format!("штраф за цветение пальм, день {day}"),
            ),
            _ => return Ok(()),
        };
        let done = match commit(st, slot, ev, None, Some(rid), now).await {
            Ok(staged) => staged.durable().await,
            Err(e) => Err(e),
        };
        match done {
            // A step already in the log: done here; on a shared store memory has caught
            // up with it (another node ran it) and the next due step is looked at.
            Ok(Committed::Duplicate(_)) if !st.store.shared() => return Ok(()),
            Ok(_) => {}
            Err(error) => return Err(StepFailed { step, error }),
        }
    }
    Ok(())
}

/// Runs the game's due steps and keeps the outcome in [`GameState::broken`]: a step that fails
/// leaves the game readable (and open to the host's fixes), marked broken with the reason
/// until the step runs. Returns the failure when it is new (to be logged once, not on
/// every tick).
pub async fn run_due<S: Store>(st: &Arc<AppState<S>>, slot: &mut Slot, now: i64) -> Option<StepFailed> {
    match advance(st, slot, now).await {
        Ok(()) => {
            slot.live.broken = None;
            None
        }
        Err(f) => {
            let reason = f.reason();
            let new = slot.live.broken.as_deref() != Some(reason.as_str());
            slot.live.broken = Some(reason);
            new.then_some(f)
        }
    }
}

impl<S: Store> AppState<S> {
    /// Notes a game over, in the store (so the next start need not fold it) and here.
    async fn finish(&self, id: i64, summary: registry::Summary) {
        match serde_json::to_value(&summary) {
            Ok(v) => {
                if let Err(e) = self.store.finish_game(id, &v).await {
                    eprintln!("ostrov-server: game {id}: noting it finished: {e}");
                }
            }
            Err(e) => eprintln!("ostrov-server: game {id}: its summary: {e}"),
        }
        self.games.finish(id, summary);
    }
}

/// Folds every unfinished game once (the scheduler's first tick), a few at a time, so that
/// each is in the scheduler's index; a game found over whose summary was not stored (the
/// server stopped in between) gets it now.
async fn warm<S: Store>(st: &Arc<AppState<S>>) {
    let ids: Vec<i64> = st.games.list().into_iter().filter(|(_, l)| l.finished.is_none()).map(|(id, _)| id).collect();
    for chunk in ids.chunks(8) {
        let mut set = tokio::task::JoinSet::new();
        for &id in chunk {
            let st = st.clone();
            set.spawn(async move {
                let Ok(game) = st.game(id).await else { return };
                let over = {
                    let slot = game.lock().await;
                    (slot.live.status == Status::Over).then(|| registry::Summary::of(&slot.live))
                };
                if let Some(summary) = over {
                    st.finish(id, summary).await;
                }
            });
        }
        while set.join_next().await.is_some() {}
    }
}

/// Runs the scheduler once: every game with a step due now (from the index of next due
/// times; the first tick folds every unfinished game to fill it), and drops finished games
/// long unused.
pub async fn tick<S: Store>(st: &Arc<AppState<S>>) {
    // Of nodes sharing a store, only the lease holder runs the deadlines (exactly once
    // rests on the request ids and expected seqs, not on the lease).
    match st.store.lead().await {
        Ok(true) => {}
        Ok(false) => return,
        Err(e) => {
            eprintln!("ostrov-server: scheduler lease: {e}");
            return;
        }
    }
    if !st.warm.swap(true, Ordering::AcqRel) {
        warm(st).await;
    }
    let now = st.clock.now();
    for id in st.games.due(now) {
        let Ok(game) = st.game(id).await else { continue };
        let mut slot = game.lock().await;
        let now = st.clock.now();
        let failure = run_due(st, &mut slot, now).await.map(|f| f.detail());
        // The cause of a failing step is logged once (when it starts or changes), not on
        // every tick while it lasts.
        let mut logged = st.scheduler_errors.lock().unwrap_or_else(|p| p.into_inner());
        match failure {
            Some(why) if logged.get(&id) != Some(&why) => {
                eprintln!("ostrov-server: scheduler, game {id}: {why}");
                logged.insert(id, why);
            }
            Some(_) => {}
            None => {
                if logged.remove(&id).is_some() {
                    eprintln!("ostrov-server: scheduler, game {id}: the due step has run");
                }
            }
        }
        drop(logged);
        st.games.note(&slot.live);
    }
    st.games.evict_idle();
}

/// Starts the scheduler: every second, every game's due steps.
pub fn spawn_scheduler<S: Store>(st: Arc<AppState<S>>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(std::time::Duration::from_millis(500));
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        loop {
            every.tick().await;
            tick(&st).await;
        }
    })
}

/// Keeps this node's games up to date with what other nodes append, when the store is
/// shared (PostgreSQL `LISTEN/NOTIFY`): each announced append is folded in (only the new
/// events) and announced on [`AppState::changes`] (the pages' live updates); a game
/// another node created is listed (so the game lists and the scheduler's index of this
/// node have it) and folded from its log. Nothing for a store only this node writes.
pub fn spawn_watcher<S: Store>(st: Arc<AppState<S>>) -> Option<tokio::task::JoinHandle<()>> {
    let mut heard = st.store.changes()?;
    Some(tokio::spawn(async move {
        while let Some(c) = heard.recv().await {
            let ids = match c {
                ostrov_store::Change::Appended { game_id, seq } => match st.game(game_id).await {
                    Ok(g) if g.lock().await.live.seq >= seq => continue,
                    _ => vec![game_id],
                },
                // Every game the store holds is listed (some may be new to this node);
                // the unfinished ones and those in memory are caught up.
                ostrov_store::Change::Missed => match st.store.games().await {
                    Ok(rows) => {
                        for r in &rows {
                            st.learn_row(r);
                        }
                        rows.iter().filter(|r| r.finished.is_none() || st.games.is_folded(r.id)).map(|r| r.id).collect()
                    }
                    Err(e) => {
                        eprintln!("ostrov-server: catching up: {e}");
                        continue;
                    }
                },
            };
            for id in ids {
                if let Err(e) = catch_up_game(&st, id).await {
                    eprintln!("ostrov-server: catching up game {id}: {}", e.message());
                }
            }
        }
    }))
}

async fn catch_up_game<S: Store>(st: &Arc<AppState<S>>, id: i64) -> Result<(), ApiError> {
    let game = match st.game(id).await {
        Err(ApiError::NotFound) => return Ok(()), // its `created` entry is not stored yet
        g => g?,
    };
    let mut slot = game.lock().await;
    st.refresh(&mut slot).await
}

/// Serves [`app`] on `listener` until the server stops: each request knows its peer's
/// address (the login and sign-up limits, [`harden::ClientAddr`]).
pub async fn serve<S: Store>(listener: tokio::net::TcpListener, state: Arc<AppState<S>>) -> std::io::Result<()> {
    axum::serve(listener, app(state).into_make_service_with_connect_info::<std::net::SocketAddr>()).await
}

/// Largest accepted request body, in bytes.
pub const MAX_BODY: usize = 64 * 1024;

/// The whole HTTP API and the web pages.
pub fn app<S: Store>(state: Arc<AppState<S>>) -> Router {
    Router::new()
        .nest("/api", auth::routes::<S>().merge(routes::routes::<S>()))
        .merge(web::routes::<S>())
        .fallback(|| async { ApiError::NotFound })
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(state.clone(), harden::layer::<S>))
        .with_state(state)
}
