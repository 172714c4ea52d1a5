//! The sessions a node has read, in memory: every API request checks its session, so the
//! cache saves a query per request. The database stays the truth: a token is cached only
//! once read from (or written to) it, and dropped when it is deleted.
//!
//! On SQLite only this process writes the file, so nothing ends a session behind the
//! cache. On PostgreSQL another node may (a logout, a password change): every deletion is
//! announced on the [`CHANNEL`] channel in its own transaction, and each node drops that
//! account's cached sessions when the notice arrives. The cache is used only while this
//! node listens ([`SessionCache::listening`]): when the connection that listens is lost,
//! notices may have been missed, so the cache is emptied and not used until it listens
//! again. A read that began before a notice arrived is not cached (its answer may predate
//! the deletion): every notice moves a generation that a read compares when it ends. And a
//! shared cache keeps a session at most [`SHARED_AGE`], in case the connection that
//! listens broke without a word (a notice lost on a half-open connection).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The PostgreSQL channel on which a node announces the account whose sessions it deleted.
pub const CHANNEL: &str = "ostrov_sessions";

/// At most this many sessions are cached; past it the cache starts again empty.
const MOST: usize = 100_000;

/// How long a cache other nodes' deletions reach keeps a session before reading it again.
pub const SHARED_AGE: Duration = Duration::from_secs(30);

/// See the module's documentation. Cloned, it is the same cache.
#[derive(Clone, Debug)]
pub struct SessionCache(Arc<Inner>);

#[derive(Debug)]
struct Inner {
    /// By token: the account, when the session expires, and when it was read.
    tokens: Mutex<HashMap<String, Cached>>,
    /// Moved by every deletion this node hears of (and by every loss of the listener).
    generation: AtomicU64,
    /// Whether the cache may be used: always for a store only this process writes; on a
    /// shared store while its notices are heard.
    live: AtomicBool,
    /// How long a session is kept (`None`: until it is deleted or expires).
    age: Option<Duration>,
}

#[derive(Clone, Copy, Debug)]
struct Cached {
    user: i64,
    expires_at: i64,
    read: Instant,
}

/// What [`SessionCache::ticket`] gives a read, to hand back to [`SessionCache::remember`].
#[derive(Clone, Copy, Debug)]
pub struct Ticket(u64);

impl SessionCache {
    /// A cache for a store only this process writes: used at once.
    pub fn private() -> SessionCache {
        SessionCache::new(true, None)
    }

    /// A cache for a store other nodes also write: unused until [`SessionCache::listening`].
    pub fn shared() -> SessionCache {
        SessionCache::new(false, Some(SHARED_AGE))
    }

    fn new(live: bool, age: Option<Duration>) -> SessionCache {
        SessionCache(Arc::new(Inner {
            tokens: Mutex::default(),
            generation: AtomicU64::new(0),
            live: AtomicBool::new(live),
            age,
        }))
    }

    fn tokens(&self) -> MutexGuard<'_, HashMap<String, Cached>> {
        self.0.tokens.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The account of `token` if it is cached: `Some(None)` for a cached session that has
    /// expired by `now`, `None` when the database must be asked.
    pub fn get(&self, token: &str, now: i64) -> Option<Option<i64>> {
        if !self.0.live.load(Ordering::Acquire) {
            return None;
        }
        let c = *self.tokens().get(token)?;
        if self.0.age.is_some_and(|age| c.read.elapsed() > age) {
            return None;
        }
        Some((c.expires_at > now).then_some(c.user))
    }

    /// Taken before a read of the database, for [`SessionCache::remember`].
    pub fn ticket(&self) -> Ticket {
        Ticket(self.0.generation.load(Ordering::Acquire))
    }

    /// The account of `token` at `now`: from the cache, or from `read` (the session's row
    /// if it is live: its account and when it expires), which is then cached.
    pub async fn user_of<F, Fut, E>(&self, token: &str, now: i64, read: F) -> Result<Option<i64>, E>
    where
        F: FnOnce() -> Fut,
        Fut: std::future::Future<Output = Result<Option<(i64, i64)>, E>>,
    {
        if let Some(user) = self.get(token, now) {
            return Ok(user);
        }
        let ticket = self.ticket();
        let row = read().await?;
        if let Some((user, expires_at)) = row {
            self.remember(ticket, token, user, expires_at);
        }
        Ok(row.map(|(user, _)| user))
    }

    /// Caches a session read (or written) under `ticket`, unless a deletion was heard of
    /// since the ticket was taken.
    pub fn remember(&self, ticket: Ticket, token: &str, user: i64, expires_at: i64) {
        let mut tokens = self.tokens();
        // Checked under the lock that every forgetting takes: a notice heard after this
        // check removes what is inserted here.
        if !self.0.live.load(Ordering::Acquire) || self.0.generation.load(Ordering::Acquire) != ticket.0 {
            return;
        }
        if tokens.len() >= MOST {
            tokens.clear();
        }
        tokens.insert(token.to_string(), Cached { user, expires_at, read: Instant::now() });
    }

    /// The cached sessions, locked, for forgetting some: the generation moves under the
    /// lock, so a read begun before is not cached after (see [`SessionCache::remember`]).
    fn forgetting(&self) -> MutexGuard<'_, HashMap<String, Cached>> {
        let tokens = self.tokens();
        self.0.generation.fetch_add(1, Ordering::AcqRel);
        tokens
    }

    /// Drops a session deleted by this node.
    pub fn forget_token(&self, token: &str) {
        self.forgetting().remove(token);
    }

    /// Drops the cached sessions of account `user` but `keep` (`None`: all of them).
    pub fn forget_user(&self, user: i64, keep: Option<&str>) {
        self.forgetting().retain(|token, c| c.user != user || Some(token.as_str()) == keep);
    }

    /// A notice on [`CHANNEL`]: its payload is the account whose sessions were deleted
    /// (any other payload empties the cache).
    pub fn heard(&self, payload: &str) {
        match payload.parse() {
            Ok(user) => self.forget_user(user, None),
            Err(_) => self.forget_all(),
        }
    }

    /// Whether this node hears the notices now: when it stops (or starts again, notices
    /// may have been missed meanwhile) the cache is emptied.
    pub fn listening(&self, yes: bool) {
        let mut tokens = self.forgetting();
        tokens.clear();
        self.0.live.store(yes, Ordering::Release);
    }

    fn forget_all(&self) {
        self.forgetting().clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_private_cache_answers_until_a_session_is_deleted_or_expires() {
        let c = SessionCache::private();
        assert_eq!(c.get("t", 0), None, "not read yet");
        c.remember(c.ticket(), "t", 7, 100);
        c.remember(c.ticket(), "u", 7, 100);
        c.remember(c.ticket(), "v", 8, 100);
        assert_eq!(c.get("t", 10), Some(Some(7)));
        assert_eq!(c.get("t", 100), Some(None), "expired");
        c.forget_token("t");
        assert_eq!(c.get("t", 10), None, "read again: the database says it is gone");
        c.forget_user(7, Some("keep"));
        assert_eq!(c.get("u", 10), None);
        assert_eq!(c.get("v", 10), Some(Some(8)), "another account's session stays");
    }

    /// A read that began before a deletion was heard of may have read the row before it
    /// was deleted: its answer is not cached.
    #[test]
    fn a_read_older_than_a_deletion_is_not_cached() {
        let c = SessionCache::private();
        let ticket = c.ticket();
        c.forget_user(7, None);
        c.remember(ticket, "t", 7, 100);
        assert_eq!(c.get("t", 10), None);
        c.remember(c.ticket(), "t", 7, 100);
        assert_eq!(c.get("t", 10), Some(Some(7)), "a read begun after it is");
    }

    /// A shared cache is used only while the other nodes' deletions are heard; losing the
    /// listener empties it, and each notice drops its account's sessions.
    #[test]
    fn a_shared_cache_is_used_only_while_it_hears_the_other_nodes() {
        let c = SessionCache::shared();
        c.remember(c.ticket(), "t", 7, 100);
        assert_eq!(c.get("t", 10), None, "not listening yet: nothing cached");
        c.listening(true);
        c.remember(c.ticket(), "t", 7, 100);
        c.remember(c.ticket(), "u", 8, 100);
        assert_eq!(c.get("t", 10), Some(Some(7)));
        c.heard("7");
        assert_eq!(c.get("t", 10), None, "ended on another node");
        assert_eq!(c.get("u", 10), Some(Some(8)));
        c.heard("not a number");
        assert_eq!(c.get("u", 10), None, "a notice not understood empties the cache");
        c.remember(c.ticket(), "u", 8, 100);
        c.listening(false);
        assert_eq!(c.get("u", 10), None, "notices may be missed now");
        c.remember(c.ticket(), "u", 8, 100);
        assert_eq!(c.get("u", 10), None);
    }

    #[test]
    fn a_shared_cache_reads_a_session_again_after_its_age() {
        let c = SessionCache::new(true, Some(Duration::from_millis(20)));
        c.remember(c.ticket(), "t", 7, 100);
        assert_eq!(c.get("t", 10), Some(Some(7)));
        std::thread::sleep(Duration::from_millis(30));
        assert_eq!(c.get("t", 10), None);
    }

    #[test]
    fn the_cache_is_bounded() {
        let c = SessionCache::private();
        for i in 0..MOST + 1 {
            c.remember(c.ticket(), &i.to_string(), 1, 100);
        }
        assert!(c.tokens().len() <= MOST);
        assert_eq!(c.get(&MOST.to_string(), 10), Some(Some(1)), "the newest is kept");
    }
}
