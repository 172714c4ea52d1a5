//! Group commit on PostgreSQL: one writer task per node takes every append waiting
//! (across games, up to [`BATCH`]), applies them in the order they were called in one
//! transaction, commits (one WAL flush) and only then answers each; a failed batch is
//! rolled back whole and each of its appends gets the error.
//!
//! Like SQLite's writer, it remembers the last number it wrote for each game (and the
//! epoch it wrote it under). A batch whose every append expects exactly that (the usual
//! case for the games this node owns) is one statement, [`QUICK_INSERT`], sent on the
//! writer's own session as a transaction of its own: one round trip, one prepared
//! statement, no read of the log first. The database still decides: the fence trigger
//! (`events_fenced`, see the `leases` module) refuses a row whose epoch is not its game's
//! lease's, the keys refuse a taken number or request id, and the statement writes no row
//! if a game's log does not end just before the batch's first row of it (entries lost
//! behind this node). Any of these, and the batch goes the careful way, in a transaction:
//! the fence read first under the lock of each game's lease row (an append whose epoch is
//! not its game's lease's is refused alone, "fenced", and the others go on), then one
//! append after another, reading the log's last number and request ids.

use std::collections::{HashMap, HashSet};

use sqlx::pool::PoolConnection;
use sqlx::{Connection, PgConnection, PgPool, Postgres};
use tokio::sync::{mpsc, oneshot};

use crate::leases::Leases;
use crate::{Appended, NewEvent, Result, StoreError};

/// One append waiting for the writer.
struct Job {
    game_id: i64,
    expected: i64,
    /// The epoch of this node's lease of the game when the append was issued.
    epoch: Option<i64>,
    ev: NewEvent,
    reply: oneshot::Sender<Result<Appended>>,
}

/// The queue to this node's writer task.
#[derive(Clone)]
pub(crate) struct Writer {
    queue: mpsc::UnboundedSender<Msg>,
}

enum Msg {
    Job(Job),
    /// Answered once everything queued before it is answered.
    Flush(oneshot::Sender<()>),
}

/// The most appends one transaction takes.
const BATCH: usize = 256;

/// What the writer knows of a game's log: the last number it wrote, and under which epoch.
type Known = HashMap<i64, (i64, Option<i64>)>;

impl Writer {
    pub fn start(pool: PgPool, leases: std::sync::Arc<Leases>) -> Writer {
        let (queue, mut rx) = mpsc::unbounded_channel::<Msg>();
        tokio::spawn(async move {
            let mut session = None;
            let mut known = Known::new();
            let mut flushes = Vec::new();
            while let Some(first) = rx.recv().await {
                let mut batch = Vec::new();
                let mut next = Some(first);
                while let Some(m) = next.take() {
                    match m {
                        Msg::Job(j) => batch.push(j),
                        Msg::Flush(f) => flushes.push(f),
                    }
                    if batch.len() < BATCH {
                        next = rx.try_recv().ok();
                    }
                }
                if !batch.is_empty() {
                    write_batch(&pool, &mut session, &leases, &mut known, batch).await;
                }
                for f in flushes.drain(..) {
                    let _ = f.send(());
                }
            }
        });
        Writer { queue }
    }

    pub fn append(
        &self,
        game_id: i64,
        expected: i64,
        epoch: Option<i64>,
        ev: NewEvent,
    ) -> impl std::future::Future<Output = Result<Appended>> + Send + 'static {
        let (reply, answer) = oneshot::channel();
        let queued = self.queue.send(Msg::Job(Job { game_id, expected, epoch, ev, reply })).is_ok();
        async move {
            if !queued {
                return Err(StoreError::Db("the writer has stopped".into()));
            }
            answer.await.map_err(|_| StoreError::Db("the writer has stopped".into()))?
        }
    }

    /// Waits until every append queued before this call is answered.
    pub async fn flush(&self) {
        let (tx, rx) = oneshot::channel();
        if self.queue.send(Msg::Flush(tx)).is_ok() {
            let _ = rx.await;
        }
    }
}

/// The writer's own session, kept from batch to batch (its prepared statements with it, and
/// no check of the connection before each batch); dropped after an error, so the next
/// batch takes a sound one from the pool.
type Session = Option<PoolConnection<Postgres>>;

/// Writes a batch and answers each of its appends.
async fn write_batch(pool: &PgPool, session: &mut Session, leases: &Leases, known: &mut Known, batch: Vec<Job>) {
    let answers = match write(pool, session, leases, known, &batch).await {
        Ok(a) => a,
        Err(e) => {
            *session = None;
            known.clear();
            batch.iter().map(|_| Err(e.clone())).collect()
        }
    };
    for (job, a) in batch.into_iter().zip(answers) {
        match &a {
            Ok(Appended::New(s)) => {
                known.insert(job.game_id, (*s, job.epoch));
            }
            Ok(Appended::Conflict { .. }) => {
                known.remove(&job.game_id);
            }
            Err(StoreError::Fenced(..)) => {
                known.remove(&job.game_id);
                if let Some(e) = job.epoch {
                    leases.lost(job.game_id, e);
                }
            }
            _ => {}
        }
        let _ = job.reply.send(a);
    }
}

async fn write(
    pool: &PgPool,
    session: &mut Session,
    leases: &Leases,
    known: &Known,
    batch: &[Job],
) -> Result<Vec<Result<Appended>>> {
    let c = match session {
        Some(c) => c,
        None => session.insert(pool.acquire().await?),
    };
    if let Some(seqs) = expected_as_known(batch, known) {
        match insert_all(c, batch, &seqs).await {
            Ok(true) => return Ok(seqs.into_iter().map(|s| Ok(Appended::New(s))).collect()),
            // A log that does not end where this node believed, or a row the database
            // refused (the fence, a taken number or request id): nothing of the batch was
            // written; the careful way tells each append why.
            Ok(false) | Err(sqlx::Error::Database(_)) => {}
            Err(e) => return Err(e.into()),
        }
    }
    let mut tx = Connection::begin(&mut **c).await?;
    // A node paused mid-batch (its lease rows locked) holds up the takeover of its games
    // at most this long: then the database ends its session, and the batch fails.
    if let Some(ms) = leases.lease_ms() {
        sqlx::query(&format!("SET LOCAL idle_in_transaction_session_timeout = {ms}")).execute(&mut *tx).await?;
    }
    let fenced = fence(&mut tx, batch).await?;
    let mut out = Vec::with_capacity(batch.len());
    for j in batch {
        if fenced.contains(&j.game_id) {
            out.push(Err(StoreError::Fenced(j.game_id, j.epoch.unwrap_or(0))));
            continue;
        }
        out.push(Ok(careful(&mut tx, j).await?));
    }
    tx.commit().await?;
    Ok(out)
}

/// The games of the batch whose lease moved on from the epoch their appends carry (or
/// that carry none while the game is leased), their lease rows locked until the commit.
async fn fence(c: &mut PgConnection, batch: &[Job]) -> Result<HashSet<i64>> {
    let games: Vec<i64> = batch.iter().map(|j| j.game_id).collect::<HashSet<_>>().into_iter().collect();
    let rows: Vec<(i64, i64)> =
        sqlx::query_as("SELECT game, epoch FROM game_leases WHERE game = ANY($1) ORDER BY game FOR SHARE")
            .bind(&games)
            .fetch_all(&mut *c)
            .await?;
    let leased: HashMap<i64, i64> = rows.into_iter().collect();
    Ok(batch
        .iter()
        .filter(|j| j.expected >= 0 && leased.get(&j.game_id).is_some_and(|e| Some(*e) != j.epoch))
        .map(|j| j.game_id)
        .collect())
}

/// The numbers of a batch whose every append expects the last number the writer wrote
/// for its game under the same epoch (counting the batch's earlier appends); `None` when
/// one does not.
fn expected_as_known(batch: &[Job], known: &Known) -> Option<Vec<i64>> {
    let mut next: HashMap<i64, i64> = HashMap::new();
    batch
        .iter()
        .map(|j| {
            let last = match next.get(&j.game_id) {
                Some(l) => *l,
                None => match known.get(&j.game_id) {
                    Some((l, e)) if *e == j.epoch => *l,
                    _ => return None,
                },
            };
            (last == j.expected).then(|| {
                next.insert(j.game_id, last + 1);
                last + 1
            })
        })
        .collect()
}

/// The rows of a batch, each at the number the writer expects, in one statement (a
/// transaction of its own), all or none: a taken number or request id is an error, the
/// fence trigger raises one, and no row is written if the log of one of the batch's games
/// does not hold the entry just before that game's first row (entries lost behind this
/// node, as in a restored backup: the careful way then finds where the log ends). One
/// primary-key probe per game of the batch. The rows go in by game (the fence trigger
/// locks each game's lease row as its first row goes in: in the order of the games, as
/// every statement locking several lease rows does; see `leases::IN_ORDER`).
const QUICK_INSERT: &str = "
    WITH b (game_id, seq, at, author, client_request_id, kind, payload, request_hash, epoch) AS (
        SELECT * FROM UNNEST($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::text[], $6::text[],
                             $7::text[], $8::text[], $9::bigint[])
    ), first AS (SELECT game_id, MIN(seq) AS seq FROM b GROUP BY game_id)
    INSERT INTO events (game_id, seq, at, author, client_request_id, kind, payload, request_hash, epoch)
    SELECT * FROM b
    WHERE NOT EXISTS (
        SELECT 1 FROM first f
        WHERE f.seq > 1 AND NOT EXISTS (SELECT 1 FROM events e WHERE e.game_id = f.game_id AND e.seq = f.seq - 1)
    )
    ORDER BY game_id, seq";

/// Inserts every append of the batch as the numbers given ([`QUICK_INSERT`]): whether
/// they went in (a log that does not end just before the batch keeps every row out; a
/// refused row is an error, and nothing is written).
async fn insert_all(c: &mut PgConnection, batch: &[Job], seqs: &[i64]) -> std::result::Result<bool, sqlx::Error> {
    if batch.iter().any(|j| !j.ev.client_request_id.as_deref().is_none_or(storable)) {
        return Ok(false);
    }
    let games: Vec<i64> = batch.iter().map(|j| j.game_id).collect();
    let at: Vec<i64> = batch.iter().map(|j| j.ev.at).collect();
    let author: Vec<Option<i64>> = batch.iter().map(|j| j.ev.author).collect();
    let rid: Vec<Option<&str>> = batch.iter().map(|j| j.ev.client_request_id.as_deref()).collect();
    let kind: Vec<&str> = batch.iter().map(|j| j.ev.kind.as_str()).collect();
    let payload: Vec<String> = batch.iter().map(|j| j.ev.payload.to_string()).collect();
    let hash: Vec<Option<&str>> = batch.iter().map(|j| j.ev.request_hash.as_deref()).collect();
    let epoch: Vec<Option<i64>> = batch.iter().map(|j| j.epoch).collect();
    let written = sqlx::query(QUICK_INSERT)
        .bind(&games)
        .bind(seqs)
        .bind(&at)
        .bind(&author)
        .bind(&rid)
        .bind(&kind)
        .bind(&payload)
        .bind(&hash)
        .bind(&epoch)
        .execute(&mut *c)
        .await?
        .rows_affected();
    Ok(written == batch.len() as u64)
}

/// One append, checked against the log as it is in the transaction.
async fn careful(c: &mut PgConnection, j: &Job) -> Result<Appended> {
    if let Some(seq) = seq_of_request(c, j.game_id, &j.ev).await? {
        return Ok(Appended::Duplicate(seq));
    }
    if j.expected < 0 {
        return Ok(Appended::Conflict { last: last_seq(c, j.game_id).await? });
    }
    // Only if the log ends exactly at the expected seq: the primary key refuses a seq
    // another node took, and the condition a seq past a hole (a log that ends before what
    // the node holds, as after an asynchronous fail-over lost events).
    let seq: Option<i64> = sqlx::query_scalar(
        "INSERT INTO events (game_id, seq, at, author, client_request_id, kind, payload, request_hash, epoch)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9
         WHERE COALESCE((SELECT MAX(seq) FROM events WHERE game_id = $1), 0) = $2 - 1
         ON CONFLICT DO NOTHING
         RETURNING seq",
    )
    .bind(j.game_id)
    .bind(j.expected + 1)
    .bind(j.ev.at)
    .bind(j.ev.author)
    .bind(j.ev.client_request_id.as_deref())
    .bind(&j.ev.kind)
    .bind(j.ev.payload.to_string())
    .bind(j.ev.request_hash.as_deref())
    .bind(j.epoch)
    .fetch_optional(&mut *c)
    .await?;
    Ok(match seq {
        Some(s) => Appended::New(s),
        // Another node took the seq or the request id first.
        None => match seq_of_request(c, j.game_id, &j.ev).await? {
            Some(s) => Appended::Duplicate(s),
            None => Appended::Conflict { last: last_seq(c, j.game_id).await? },
        },
    })
}

async fn seq_of_request(c: &mut PgConnection, game_id: i64, ev: &NewEvent) -> Result<Option<i64>> {
    let Some(id) = ev.client_request_id.as_deref() else { return Ok(None) };
    if !storable(id) {
        return Ok(None);
    }
    let seen = sqlx::query_scalar("SELECT seq FROM events WHERE game_id = $1 AND client_request_id = $2")
        .bind(game_id)
        .bind(id)
        .fetch_optional(c)
        .await?;
    Ok(seen)
}

async fn last_seq(c: &mut PgConnection, game_id: i64) -> Result<i64> {
    let s: Option<i64> =
        sqlx::query_scalar("SELECT MAX(seq) FROM events WHERE game_id = $1").bind(game_id).fetch_one(c).await?;
    Ok(s.unwrap_or(0))
}

/// PostgreSQL text cannot hold NUL: a key with one is in no row (SQLite would simply
/// find none), rather than an error.
pub(crate) fn storable(key: &str) -> bool {
    !key.contains('\0')
}
