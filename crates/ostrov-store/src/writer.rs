//! Group commit: one writer per database. Every append is queued to it when
//! [`Store::append`](crate::Store::append) is called; the writer takes everything waiting
//! (across all games, up to [`MAX_BATCH`]), checks and writes it in one `BEGIN IMMEDIATE`
//! transaction, commits (one WAL sync under `synchronous=FULL`) and only then answers each
//! append. Nothing waits for a batch to fill: a lone append is written as soon as it comes.
//! A batch that fails is rolled back whole and every append in it gets the error.
//!
//! The writer remembers the last number it wrote for each game: a batch whose every append
//! expects exactly that is written as one `INSERT` (its own transaction: one statement, one
//! sync) instead of a transaction of four. The log's keys, `(game, seq)` and
//! `(game, request id)`, still decide: if that `INSERT` fails (another writer appended, a
//! request id is taken) nothing of it is written and the batch goes the careful way.

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;

use sqlx::{Connection, Row, SqlitePool};
use tokio::sync::{mpsc, oneshot};

use crate::{Appended, NewEvent, Result, StoreError};

/// The most appends one transaction takes (each is one element of a JSON array bound as
/// one parameter, so the statement stays small).
pub const MAX_BATCH: usize = 1024;

struct Job {
    game: i64,
    expected: i64,
    ev: NewEvent,
    reply: oneshot::Sender<Result<Appended>>,
}

/// Fault injection for tests, and counters.
#[derive(Default)]
pub(crate) struct Faults {
    pub fail: AtomicU32,
    pub hold_ms: AtomicU64,
    pub batches: AtomicU64,
    pub appends: AtomicU64,
}

/// The queue to the writer thread; the thread ends when every clone is dropped.
#[derive(Clone)]
pub(crate) struct Writer {
    queue: mpsc::UnboundedSender<Job>,
    pub faults: Arc<Faults>,
}

impl Writer {
    /// Starts the writer on a thread of its own (with its own small runtime, so it does not
    /// depend on the runtime that opened the store staying alive).
    pub fn start(pool: SqlitePool) -> Result<Writer> {
        let (queue, rx) = mpsc::unbounded_channel();
        let faults = Arc::new(Faults::default());
        let f = faults.clone();
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| StoreError::Db(format!("the writer's runtime: {e}")))?;
        std::thread::Builder::new()
            .name("ostrov-store-writer".into())
            .spawn(move || rt.block_on(run(pool, rx, f)))
            .map_err(|e| StoreError::Db(format!("the writer thread: {e}")))?;
        Ok(Writer { queue, faults })
    }

    /// Queues the append now; the future waits for its answer.
    pub fn append(
        &self,
        game: i64,
        expected: i64,
        ev: NewEvent,
    ) -> impl Future<Output = Result<Appended>> + Send + 'static {
        let (reply, answer) = oneshot::channel();
        let queued = self.queue.send(Job { game, expected, ev, reply });
        async move {
            if queued.is_err() {
                return Err(StoreError::Db("the writer has stopped".into()));
            }
            answer.await.map_err(|_| StoreError::Db("the writer stopped before answering".into()))?
        }
    }
}

async fn run(pool: SqlitePool, mut rx: mpsc::UnboundedReceiver<Job>, faults: Arc<Faults>) {
    let mut batch = Vec::new();
    // The last sequence number of each game this writer has seen written: when every
    // append of a batch expects exactly what is known, the batch is one INSERT statement
    // (its own transaction: one sync). Anything else, or that INSERT failing (another
    // writer got there first: the key (game, seq) or a request id is taken), goes the
    // careful way, which reads the log's last numbers and request ids in a transaction.
    let mut known: HashMap<i64, i64> = HashMap::new();
    while let Some(first) = rx.recv().await {
        batch.push(first);
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(j) => batch.push(j),
                Err(_) => break,
            }
        }
        let fast = match expected_as_known(&batch, &known, &faults) {
            Some(answers) => insert(&pool, &rows(&batch, &answers)).await.ok().map(|_| answers),
            None => None,
        };
        let outcome = match fast {
            Some(answers) => Ok(answers),
            None => write(&pool, &batch, &faults).await,
        };
        faults.batches.fetch_add(1, Ordering::Relaxed);
        faults.appends.fetch_add(batch.len() as u64, Ordering::Relaxed);
        match outcome {
            Ok(answers) => {
                for (j, a) in batch.drain(..).zip(answers) {
                    match a {
                        Appended::New(last) | Appended::Conflict { last } => {
                            known.insert(j.game, last);
                        }
                        Appended::Duplicate(_) => {}
                    }
                    let _ = j.reply.send(Ok(a));
                }
            }
            Err(e) => {
                known.clear();
                for j in batch.drain(..) {
                    let _ = j.reply.send(Err(e.clone()));
                }
            }
        }
    }
}

/// The answers of a batch whose every append expects the last number `known` holds for
/// its game (counting the batch's earlier appends): all new. `None` when one does not, or
/// while a test hook is set (the careful way honours them).
fn expected_as_known(batch: &[Job], known: &HashMap<i64, i64>, faults: &Faults) -> Option<Vec<Appended>> {
    if faults.fail.load(Ordering::SeqCst) > 0 || faults.hold_ms.load(Ordering::SeqCst) > 0 {
        return None;
    }
    let mut next: HashMap<i64, i64> = HashMap::new();
    batch
        .iter()
        .map(|j| {
            let last = next.get(&j.game).or_else(|| known.get(&j.game)).copied()?;
            (last == j.expected).then(|| {
                next.insert(j.game, last + 1);
                Appended::New(last + 1)
            })
        })
        .collect()
}

/// The rows to insert: each new append with its number.
fn rows(batch: &[Job], answers: &[Appended]) -> Vec<serde_json::Value> {
    batch
        .iter()
        .zip(answers)
        .filter_map(|(j, a)| match a {
            Appended::New(seq) => Some(row(j, *seq)),
            _ => None,
        })
        .collect()
}

fn row(j: &Job, seq: i64) -> serde_json::Value {
    let e = &j.ev;
    serde_json::json!([j.game, seq, e.at, e.author, e.client_request_id, e.kind, e.payload.to_string(), e.request_hash])
}

/// One statement inserting every row (in a transaction the caller holds, or its own).
async fn insert<'c, E: sqlx::SqliteExecutor<'c>>(db: E, rows: &[serde_json::Value]) -> Result<()> {
    sqlx::query(
        "INSERT INTO events (game_id, seq, at, author, client_request_id, kind, payload, request_hash)
         SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'),
                json_extract(value, '$[3]'), json_extract(value, '$[4]'), json_extract(value, '$[5]'),
                json_extract(value, '$[6]'), json_extract(value, '$[7]')
         FROM json_each(?1)",
    )
    .bind(serde_json::Value::Array(rows.to_vec()).to_string())
    .execute(db)
    .await?;
    Ok(())
}

/// Checks and writes one batch in one transaction; the answers in the batch's order.
async fn write(pool: &SqlitePool, batch: &[Job], faults: &Faults) -> Result<Vec<Appended>> {
    let fail = faults.fail.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1)).is_ok();
    let mut conn = pool.acquire().await?;
    let mut tx = conn.begin_with("BEGIN IMMEDIATE").await?;
    let mut games: Vec<i64> = batch.iter().map(|j| j.game).collect();
    games.sort_unstable();
    games.dedup();
    let mut last: HashMap<i64, i64> = HashMap::new();
    for r in sqlx::query(
        "SELECT game_id, MAX(seq) AS last FROM events
         WHERE game_id IN (SELECT value FROM json_each(?1)) GROUP BY game_id",
    )
    .bind(serde_json::to_string(&games).map_err(|e| StoreError::Db(e.to_string()))?)
    .fetch_all(&mut *tx)
    .await?
    {
        last.insert(r.get("game_id"), r.get("last"));
    }
    let keys: Vec<(i64, &str)> =
        batch.iter().filter_map(|j| j.ev.client_request_id.as_deref().map(|r| (j.game, r))).collect();
    let mut seen: HashMap<(i64, String), i64> = HashMap::new();
    if !keys.is_empty() {
        for r in sqlx::query(
            "SELECT game_id, client_request_id, seq FROM events
             WHERE (game_id, client_request_id) IN
                   (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?1))",
        )
        .bind(serde_json::to_string(&keys).map_err(|e| StoreError::Db(e.to_string()))?)
        .fetch_all(&mut *tx)
        .await?
        {
            seen.insert((r.get("game_id"), r.get("client_request_id")), r.get("seq"));
        }
    }
    let mut answers = Vec::with_capacity(batch.len());
    let mut rows = Vec::with_capacity(batch.len());
    for j in batch {
        if let Some(seq) = j.ev.client_request_id.as_ref().and_then(|r| seen.get(&(j.game, r.clone()))) {
            answers.push(Appended::Duplicate(*seq));
            continue;
        }
        let l = last.entry(j.game).or_insert(0);
        if *l != j.expected {
            answers.push(Appended::Conflict { last: *l });
            continue;
        }
        *l += 1;
        if let Some(r) = &j.ev.client_request_id {
            seen.insert((j.game, r.clone()), *l);
        }
        rows.push(row(j, *l));
        answers.push(Appended::New(*l));
    }
    if !rows.is_empty() {
        insert(&mut *tx, &rows).await?;
    }
    let hold = faults.hold_ms.load(Ordering::SeqCst);
    if hold > 0 {
        tokio::time::sleep(std::time::Duration::from_millis(hold)).await;
    }
    if fail {
        tx.rollback().await?;
        return Err(StoreError::Db("injected write failure (test hook)".into()));
    }
    tx.commit().await?;
    Ok(answers)
}
