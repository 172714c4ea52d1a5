//! Per-game ownership on PostgreSQL (issue 34): of the nodes sharing a database, one at a
//! time writes a game's log, the holder of the game's lease (`game_leases`: the game, the
//! node, the address it serves on, the lease's epoch and when it expires, in the
//! database's clock, milliseconds).
//!
//! A node takes a game's lease when it first needs to write the game (a free lease, or one
//! expired), renews the leases of the games it uses every third of the lease time, lets
//! the idle ones go, and gives every one up when it is drained. A lease taken from
//! another node gets the next epoch. Every append carries the epoch of the lease it was
//! issued under, and the database refuses (a trigger, under the lease row's lock) an
//! append to a leased game whose epoch is not the lease's: a node whose lease was taken
//! over cannot write, even before it learns of it (a node paused past its lease).
//!
//! A node believes it holds a lease only until four fifths of the lease time after it
//! last renewed it (by its own monotonic clock), so it stops writing before any other
//! node may take the lease; the fence covers what was already queued.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use sqlx::PgPool;

use crate::Result;

/// Milliseconds by the database's clock (every node reads the same one).
pub(crate) const NOW_MS: &str = "(extract(epoch FROM clock_timestamp()) * 1000)::bigint";

/// Who may append to a game now ([`EventLog::own`](crate::EventLog::own)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Owner {
    /// This node: it holds the game's lease (`taken`: just taken, so memory may be behind
    /// what the previous holder wrote), or the store is this node's alone.
    Here { taken: bool },
    /// Another node holds the lease; it serves on this address (`host:port`).
    There(String),
    /// Nobody owns games on this store (a node that did not name its address): every
    /// append races the other nodes' for the next sequence number.
    Shared,
}

/// This node's name in the lease rows, its address and its lease time.
#[derive(Clone)]
struct Me {
    node: String,
    addr: String,
    lease: Duration,
}

/// A lease this node holds.
#[derive(Clone, Copy)]
struct Held {
    epoch: i64,
    /// Until when this node writes under it without renewing it.
    valid_until: Instant,
    /// When a request last needed it (idle leases are let go).
    used: Instant,
}

/// A lease unused this long is given up.
const IDLE: Duration = Duration::from_secs(60);

/// This node's leases.
#[derive(Default)]
pub(crate) struct Leases {
    me: Mutex<Option<Me>>,
    held: Mutex<HashMap<i64, Held>>,
    /// The games another node was found to hold, its address, and until when this node
    /// forwards to it without asking the database again (a third of the lease time, and
    /// never past the lease's end as read; forgotten sooner when the node does not answer).
    elsewhere: Mutex<HashMap<i64, (String, Instant)>>,
    pub(crate) draining: AtomicBool,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Leases {
    fn me(&self) -> Option<Me> {
        lock(&self.me).clone()
    }

    /// The lease time in milliseconds, once this node has joined the others.
    pub fn lease_ms(&self) -> Option<i64> {
        lock(&self.me).as_ref().map(|m| m.lease.as_millis() as i64)
    }

    /// The epoch to write game `game` under: the lease this node holds (or held: a lease
    /// lost meanwhile is refused by the fence), `None` for a game it never held.
    pub fn epoch(&self, game: i64) -> Option<i64> {
        lock(&self.held).get(&game).map(|h| h.epoch)
    }

    /// Whether this node holds the game's lease now (no query).
    pub fn holds(&self, game: i64) -> bool {
        let now = Instant::now();
        let mut held = lock(&self.held);
        match held.get_mut(&game) {
            Some(h) if h.valid_until > now && !self.draining.load(Ordering::Acquire) => {
                h.used = now;
                true
            }
            _ => false,
        }
    }

    /// The node another node was lately found to hold game `game` (no query).
    pub fn elsewhere(&self, game: i64) -> Option<String> {
        let now = Instant::now();
        let mut e = lock(&self.elsewhere);
        match e.get(&game) {
            Some((a, until)) if *until > now => Some(a.clone()),
            Some(_) => {
                e.remove(&game);
                None
            }
            None => None,
        }
    }

    /// Forgets that game `game` was found held at `addr` (see
    /// [`EventLog::forget_owner`](crate::EventLog::forget_owner)).
    pub fn forget(&self, game: i64, addr: &str) -> bool {
        let mut e = lock(&self.elsewhere);
        let named = e.get(&game).is_some_and(|(a, _)| a == addr);
        if named {
            e.remove(&game);
        }
        named
    }

    /// The lease was found taken over (a fenced append): forgotten.
    pub fn lost(&self, game: i64, epoch: i64) {
        let mut held = lock(&self.held);
        if held.get(&game).is_some_and(|h| h.epoch == epoch) {
            held.remove(&game);
        }
    }

    fn keep(&self, game: i64, epoch: i64, since: Instant, lease: Duration) {
        let valid_until = since + lease * 4 / 5;
        lock(&self.held).insert(game, Held { epoch, valid_until, used: Instant::now() });
    }
}

/// Takes the lease of `game` if it is free, expired or this node's already.
const TAKE: &str = "INSERT INTO game_leases AS l (game, node, addr, epoch, expires)
     VALUES ($1, $2, $3, 1, NOW_MS + $4)
     ON CONFLICT (game) DO UPDATE
     SET epoch = CASE WHEN l.node = excluded.node THEN l.epoch ELSE l.epoch + 1 END,
         node = excluded.node, addr = excluded.addr, expires = excluded.expires
     WHERE l.node = excluded.node OR l.expires < NOW_MS
     RETURNING epoch";

fn sql(q: &str) -> String {
    q.replace("NOW_MS", NOW_MS)
}

/// Names this node (`addr`: where the other nodes forward its games' requests) and starts
/// renewing its leases every third of `lease`.
pub(crate) fn join(leases: &Arc<Leases>, pool: &PgPool, addr: String, lease: Duration) {
    let node = format!("{addr}/{}/{}", std::process::id(), nonce());
    *lock(&leases.me) = Some(Me { node, addr, lease });
    let (leases, pool) = (Arc::downgrade(leases), pool.clone());
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(lease / 3).await;
            let Some(l) = leases.upgrade() else { return };
            if l.draining.load(Ordering::Acquire) {
                return;
            }
            if let Err(e) = renew(&l, &pool).await {
                eprintln!("ostrov-store: renewing the game leases: {e}");
            }
        }
    });
}

/// A number that tells this process's start apart from an earlier one with the same id.
fn nonce() -> u128 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos())
}

/// A game and this node's lease on it.
type HeldGame = (i64, Held);

/// Renews the leases in use; lets the idle ones go; forgets those another node took.
/// This node's leases of the games `$2`, locked in the order of the games. Every statement
/// that locks several lease rows locks them in that order (the writer's fence and its
/// insert's trigger too), so that the renewal and this node's own writer never wait for
/// each other in a circle: they did, as a "deadlock detected" that PostgreSQL broke by
/// failing the renewal, with 100 games on 3 nodes in the nodes benchmark.
const IN_ORDER: &str = "SELECT game FROM game_leases WHERE node = $1 AND game = ANY($2) ORDER BY game FOR UPDATE";

async fn renew(l: &Leases, pool: &PgPool) -> Result<()> {
    let Some(me) = l.me() else { return Ok(()) };
    let now = Instant::now();
    let (used, idle): (Vec<HeldGame>, Vec<HeldGame>) =
        lock(&l.held).iter().map(|(g, h)| (*g, *h)).partition(|(_, h)| now.duration_since(h.used) < IDLE);
    if !idle.is_empty() {
        let games: Vec<i64> = idle.iter().map(|(g, _)| *g).collect();
        {
            let mut held = lock(&l.held);
            for g in &games {
                held.remove(g);
            }
        }
        sqlx::query(&format!("UPDATE game_leases SET expires = 0 WHERE game IN ({IN_ORDER})"))
            .bind(&me.node)
            .bind(&games)
            .execute(pool)
            .await?;
    }
    if used.is_empty() {
        return Ok(());
    }
    let games: Vec<i64> = used.iter().map(|(g, _)| *g).collect();
    let since = Instant::now();
    let kept: Vec<(i64, i64)> = sqlx::query_as(&sql(&format!(
        "UPDATE game_leases SET expires = NOW_MS + $3 WHERE game IN ({IN_ORDER}) RETURNING game, epoch"
    )))
    .bind(&me.node)
    .bind(&games)
    .bind(me.lease.as_millis() as i64)
    .fetch_all(pool)
    .await?;
    let kept: HashMap<i64, i64> = kept.into_iter().collect();
    let mut held = lock(&l.held);
    for (g, h) in used {
        match kept.get(&g) {
            Some(e) if *e == h.epoch => {
                if let Some(x) = held.get_mut(&g) {
                    x.valid_until = since + me.lease * 4 / 5;
                }
            }
            _ => {
                held.remove(&g);
            }
        }
    }
    Ok(())
}

/// Who may write `game` now, taking its lease if it is free (see [`Owner`]).
pub(crate) async fn own(l: &Leases, pool: &PgPool, game: i64) -> Result<Owner> {
    let Some(me) = l.me() else { return Ok(Owner::Shared) };
    if l.holds(game) {
        return Ok(Owner::Here { taken: false });
    }
    if let Some(a) = l.elsewhere(game) {
        return Ok(Owner::There(a));
    }
    // Twice at most: a lease that expires between the two queries is taken the second time.
    for _ in 0..2 {
        if !l.draining.load(Ordering::Acquire) {
            let since = Instant::now();
            let epoch: Option<i64> = sqlx::query_scalar(&sql(TAKE))
                .bind(game)
                .bind(&me.node)
                .bind(&me.addr)
                .bind(me.lease.as_millis() as i64)
                .fetch_optional(pool)
                .await?;
            if let Some(epoch) = epoch {
                l.keep(game, epoch, since, me.lease);
                return Ok(Owner::Here { taken: true });
            }
        }
        let held: Option<(String, i64)> = sqlx::query_as(&sql(
            "SELECT addr, expires - NOW_MS FROM game_leases WHERE game = $1 AND expires >= NOW_MS AND node <> $2",
        ))
        .bind(game)
        .bind(&me.node)
        .fetch_optional(pool)
        .await?;
        if let Some((a, left)) = held {
            // Believed no longer than the lease as read runs (a node paused or gone does
            // not renew it), and no longer than a third of the lease time.
            let left = Duration::from_millis(left.max(0) as u64).min(me.lease / 3);
            lock(&l.elsewhere).insert(game, (a.clone(), Instant::now() + left));
            return Ok(Owner::There(a));
        }
    }
    Err(crate::StoreError::Db(format!("game {game}: no node holds its lease (this one is draining)")))
}

/// Drains this node: no lease is taken or renewed any more, and every one it holds is
/// given up (the next node to need a game takes it at once).
pub(crate) async fn release(l: &Leases, pool: &PgPool) -> Result<()> {
    l.draining.store(true, Ordering::Release);
    let Some(me) = l.me() else { return Ok(()) };
    lock(&l.held).clear();
    sqlx::query(
        "UPDATE game_leases SET expires = 0
         WHERE game IN (SELECT game FROM game_leases WHERE node = $1 ORDER BY game FOR UPDATE)",
    )
    .bind(&me.node)
    .execute(pool)
    .await?;
    Ok(())
}

/// A game's lease as stored, for operators and tests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lease {
    /// The address the holder serves on.
    pub addr: String,
    pub epoch: i64,
    /// Whether it is still running (by the database's clock).
    pub live: bool,
}

impl crate::PgStore {
    /// The lease of game `game`, if one was ever taken.
    pub async fn lease(&self, game: i64) -> Result<Option<Lease>> {
        let row: Option<(String, i64, bool)> =
            sqlx::query_as(&sql("SELECT addr, epoch, expires >= NOW_MS FROM game_leases WHERE game = $1"))
                .bind(game)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map(|(addr, epoch, live)| Lease { addr, epoch, live }))
    }

    /// The epoch each entry of game `game`'s log was written under, in sequence order
    /// (`None`: written by no lease holder, as the `created` entry).
    pub async fn epochs(&self, game: i64) -> Result<Vec<Option<i64>>> {
        let rows: Vec<(Option<i64>,)> = sqlx::query_as("SELECT epoch FROM events WHERE game_id = $1 ORDER BY seq")
            .bind(game)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.into_iter().map(|(e,)| e).collect())
    }
}
