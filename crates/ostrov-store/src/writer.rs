//! Group commit: one writer per database, with a connection of its own. Every append is
//! queued when [`EventLog::append`](crate::EventLog::append) is called; whoever writes takes
//! everything waiting (across all games, up to [`MAX_BATCH`]), checks and writes it in one
//! transaction, commits (one WAL sync under `synchronous=FULL`) and only then answers each
//! append. Nothing waits for a batch to fill. A batch that fails is rolled back whole and
//! every append in it gets the error.
//!
//! Who writes: the writer thread, or, when the database is idle, the task that awaits the
//! append. A lone order under light load is then written on the thread that already runs
//! its request, so its answer does not wait for two more threads to wake after the sync
//! (on a virtual machine each such wake-up costs a good part of the sync itself). Only an
//! append issued while no other is unanswered is written so: under load, a task that wrote
//! would keep one of the runtime's few threads waiting for a sync while other requests
//! wait for that thread. That task writes at most one batch and never waits for a lock: if
//! the connection is busy or more appends are waiting after its batch, the writer thread is
//! woken to go on. The writer thread alone writes while a test hook is set, and for an
//! in-memory database.
//!
//! The writer remembers the last number it wrote for each game: a batch whose every append
//! expects exactly that is written as it comes (one `INSERT` for a lone append: its own
//! transaction, one sync) instead of first reading the log's last numbers and request ids.
//! The log's keys, `(game, seq)` and `(game, request id)`, still decide: if that write
//! fails (another writer appended, a request id is taken) nothing of it is kept and the
//! batch goes the careful way.

use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, TryLockError};
use std::time::Duration;

use rusqlite::{params, Connection, OpenFlags, OptionalExtension, TransactionBehavior};
use tokio::sync::oneshot;

use crate::{Appended, NewEvent, Result, StoreError};

/// The most appends one transaction takes.
pub const MAX_BATCH: usize = 1024;

/// How long the writer thread waits for a database another process holds.
const BUSY: Duration = Duration::from_secs(5);

struct Job {
    game: i64,
    expected: i64,
    ev: NewEvent,
    reply: oneshot::Sender<Result<Appended>>,
}

/// Fault injection for tests, and counters (one of which, `unanswered`, decides who writes:
/// see the module's documentation).
#[derive(Default)]
pub(crate) struct Faults {
    pub fail: AtomicU32,
    pub hold_ms: AtomicU64,
    pub batches: AtomicU64,
    pub appends: AtomicU64,
    /// Appends queued and not yet answered.
    pub unanswered: AtomicU64,
    /// Batches written by the task that awaited an append rather than the writer thread.
    pub by_tasks: AtomicU64,
}

impl Faults {
    fn hooked(&self) -> bool {
        self.fail.load(Ordering::SeqCst) > 0 || self.hold_ms.load(Ordering::SeqCst) > 0
    }
}

/// The connection and what the writer knows of each game's log.
struct Db {
    conn: Connection,
    /// The last sequence number of each game this writer has seen written.
    known: HashMap<i64, i64>,
}

struct Shared {
    queue: Mutex<VecDeque<Job>>,
    db: Mutex<Db>,
    /// Set to wake the writer thread; `stop` once every handle is gone.
    wake: Mutex<Wake>,
    bell: Condvar,
    /// Whether a task may write its own batch (a file database: an in-memory one shares its
    /// cache with the readers' connection, whose locks a task must never wait for).
    inline: bool,
    faults: Faults,
}

#[derive(Default)]
struct Wake {
    rung: bool,
    stop: bool,
}

/// The handle the store keeps; the writer thread ends (after writing what is queued) when
/// every clone is dropped.
#[derive(Clone)]
pub(crate) struct Writer(Arc<StopOnDrop>);

struct StopOnDrop(Arc<Shared>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        let mut w = lock(&self.0.wake);
        w.stop = true;
        self.0.bell.notify_one();
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn db_error(e: rusqlite::Error) -> StoreError {
    StoreError::Db(e.to_string())
}

impl Writer {
    /// Opens the writer's connection to the database sqlx opened as `opts` and starts the
    /// writer thread.
    pub fn start(opts: &sqlx::sqlite::SqliteConnectOptions, memory: bool) -> Result<Writer> {
        let name = opts.get_filename().to_string_lossy().into_owned();
        let mut flags =
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_URI | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        if memory {
            // sqlx's in-memory database is a named one with a shared cache: the same name
            // and flags open that same database.
            flags |= OpenFlags::SQLITE_OPEN_MEMORY | OpenFlags::SQLITE_OPEN_SHARED_CACHE;
        }
        let conn = Connection::open_with_flags(&name, flags).map_err(db_error)?;
        conn.pragma_update(None, "synchronous", "FULL").map_err(db_error)?;
        conn.pragma_update(None, "foreign_keys", "ON").map_err(db_error)?;
        conn.busy_timeout(BUSY).map_err(db_error)?;
        let shared = Arc::new(Shared {
            queue: Mutex::new(VecDeque::new()),
            db: Mutex::new(Db { conn, known: HashMap::new() }),
            wake: Mutex::new(Wake::default()),
            bell: Condvar::new(),
            inline: !memory,
            faults: Faults::default(),
        });
        let s = shared.clone();
        std::thread::Builder::new()
            .name("ostrov-store-writer".into())
            .spawn(move || run(&s))
            .map_err(|e| StoreError::Db(format!("the writer thread: {e}")))?;
        Ok(Writer(Arc::new(StopOnDrop(shared))))
    }

    /// The test hooks and counters.
    pub fn faults(&self) -> &Faults {
        &self.0 .0.faults
    }

    /// Queues the append now; the future waits for its answer (and, the database being
    /// idle, writes it).
    pub fn append(
        &self,
        game: i64,
        expected: i64,
        ev: NewEvent,
    ) -> impl Future<Output = Result<Appended>> + Send + 'static {
        let (reply, answer) = oneshot::channel();
        let s = self.0 .0.clone();
        let others = s.faults.unanswered.fetch_add(1, Ordering::AcqRel);
        lock(&s.queue).push_back(Job { game, expected, ev, reply });
        // Decided once: either the writer thread is woken now, or the awaiting task writes
        // (only a lone append; see the module's documentation).
        let inline = s.inline && !s.faults.hooked() && others == 0;
        if !inline {
            s.ring();
        }
        // Dropped before it is first polled, the future wakes the writer thread: the append
        // is written all the same.
        let unpolled = Unpolled(Some(s));
        async move {
            if let Some(s) = unpolled.disarm() {
                if inline {
                    s.lead();
                }
            }
            answer.await.map_err(|_| StoreError::Db("the writer stopped before answering".into()))?
        }
    }
}

struct Unpolled(Option<Arc<Shared>>);

impl Unpolled {
    fn disarm(mut self) -> Option<Arc<Shared>> {
        self.0.take()
    }
}

impl Drop for Unpolled {
    fn drop(&mut self) {
        if let Some(s) = self.0.take() {
            s.ring();
        }
    }
}

impl Shared {
    fn ring(&self) {
        let mut w = lock(&self.wake);
        w.rung = true;
        self.bell.notify_one();
    }

    /// The waiting appends, oldest first, at most [`MAX_BATCH`].
    fn take(&self) -> Vec<Job> {
        let mut q = lock(&self.queue);
        let n = q.len().min(MAX_BATCH);
        q.drain(..n).collect()
    }

    /// A task's turn: one batch, if nobody is writing and it can be written at once without
    /// waiting for a lock; whatever is left goes to the writer thread.
    fn lead(&self) {
        let mut db = match self.db.try_lock() {
            Ok(db) => db,
            Err(TryLockError::Poisoned(e)) => e.into_inner(),
            // The holder looks at the queue after it lets go.
            Err(TryLockError::WouldBlock) => return,
        };
        let batch = self.take();
        if !batch.is_empty() {
            match quick(&mut db, batch, &self.faults) {
                Ok(()) => {
                    self.faults.by_tasks.fetch_add(1, Ordering::Relaxed);
                }
                Err(batch) => {
                    // Not written (the database is busy, or the batch needs the careful
                    // way): back to the front of the queue, in order, for the writer thread.
                    let mut q = lock(&self.queue);
                    for j in batch.into_iter().rev() {
                        q.push_front(j);
                    }
                }
            }
        }
        drop(db);
        self.ring_if_waiting();
    }

    /// Called after letting go of the connection: an append queued while it was held, by a
    /// task that found it taken, is the writer thread's. Whether any was.
    fn ring_if_waiting(&self) -> bool {
        let waiting = !lock(&self.queue).is_empty();
        if waiting {
            self.ring();
        }
        waiting
    }
}

/// The writer thread: woken, it writes until the queue is empty; asked to stop, it writes
/// what is left and ends.
fn run(s: &Shared) {
    loop {
        let stop = {
            let mut w = lock(&s.wake);
            while !w.rung && !w.stop {
                w = s.bell.wait(w).unwrap_or_else(|e| e.into_inner());
            }
            w.rung = false;
            w.stop
        };
        {
            let mut db = lock(&s.db);
            loop {
                let batch = s.take();
                if batch.is_empty() {
                    break;
                }
                write_batch(&mut db, batch, &s.faults);
            }
        }
        if !s.ring_if_waiting() && stop {
            return;
        }
    }
}

/// Writes a batch and answers every append in it.
fn write_batch(db: &mut Db, batch: Vec<Job>, faults: &Faults) {
    let batch = match quick(db, batch, faults) {
        Ok(()) => return,
        Err(batch) => batch,
    };
    let outcome = careful(&mut db.conn, &batch, faults);
    answer(db, batch, outcome, faults);
}

/// Writes a batch whose every append expects the last number the writer knows for its
/// game, as it comes, and answers it; gives the batch back untouched when it is not such a
/// batch, while a test hook is set, or when the write fails (the database busy, a key
/// taken: the careful way decides).
fn quick(db: &mut Db, batch: Vec<Job>, faults: &Faults) -> std::result::Result<(), Vec<Job>> {
    let Some(answers) = expected_as_known(&batch, &db.known, faults) else { return Err(batch) };
    match insert_alone(&mut db.conn, &batch, &answers) {
        Ok(()) => {
            answer(db, batch, Ok(answers), faults);
            Ok(())
        }
        Err(_) => Err(batch),
    }
}

fn answer(db: &mut Db, batch: Vec<Job>, outcome: Result<Vec<Appended>>, faults: &Faults) {
    faults.batches.fetch_add(1, Ordering::Relaxed);
    faults.appends.fetch_add(batch.len() as u64, Ordering::Relaxed);
    faults.unanswered.fetch_sub(batch.len() as u64, Ordering::AcqRel);
    match outcome {
        Ok(answers) => {
            for (j, a) in batch.into_iter().zip(answers) {
                match a {
                    Appended::New(last) | Appended::Conflict { last } => {
                        db.known.insert(j.game, last);
                    }
                    Appended::Duplicate(_) => {}
                }
                let _ = j.reply.send(Ok(a));
            }
        }
        Err(e) => {
            db.known.clear();
            for j in batch {
                let _ = j.reply.send(Err(e.clone()));
            }
        }
    }
}

/// The answers of a batch whose every append expects the last number `known` holds for
/// its game (counting the batch's earlier appends): all new. `None` when one does not, or
/// while a test hook is set (the careful way honours them).
fn expected_as_known(batch: &[Job], known: &HashMap<i64, i64>, faults: &Faults) -> Option<Vec<Appended>> {
    if faults.hooked() {
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

const INSERT: &str = "INSERT INTO events (game_id, seq, at, author, client_request_id, kind, payload, request_hash)
                      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";

fn insert(conn: &Connection, j: &Job, seq: i64) -> rusqlite::Result<()> {
    let e = &j.ev;
    conn.prepare_cached(INSERT)?.execute(params![
        j.game,
        seq,
        e.at,
        e.author,
        e.client_request_id,
        e.kind,
        e.payload.to_string(),
        e.request_hash
    ])?;
    Ok(())
}

/// Inserts every new append of the batch without waiting for a lock: a lone one as one
/// statement (its own transaction), several in one transaction. Nothing is kept on error.
fn insert_alone(conn: &mut Connection, batch: &[Job], answers: &[Appended]) -> rusqlite::Result<()> {
    conn.busy_timeout(Duration::ZERO)?;
    let done = (|| {
        let rows = batch.iter().zip(answers).filter_map(|(j, a)| match a {
            Appended::New(seq) => Some((j, *seq)),
            _ => None,
        });
        if batch.len() == 1 {
            for (j, seq) in rows {
                insert(conn, j, seq)?;
            }
            return Ok(());
        }
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        for (j, seq) in rows {
            insert(&tx, j, seq)?;
        }
        tx.commit()
    })();
    conn.busy_timeout(BUSY)?;
    done
}

/// Checks and writes one batch in one transaction, reading the log's last numbers and
/// request ids first; the answers in the batch's order.
fn careful(conn: &mut Connection, batch: &[Job], faults: &Faults) -> Result<Vec<Appended>> {
    let fail = faults.fail.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1)).is_ok();
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(db_error)?;
    let mut last: HashMap<i64, i64> = HashMap::new();
    let mut seen: HashMap<(i64, String), i64> = HashMap::new();
    let mut answers = Vec::with_capacity(batch.len());
    for j in batch {
        if let std::collections::hash_map::Entry::Vacant(e) = last.entry(j.game) {
            let l: Option<i64> = tx
                .prepare_cached("SELECT MAX(seq) FROM events WHERE game_id = ?1")
                .and_then(|mut s| s.query_row([j.game], |r| r.get(0)))
                .map_err(db_error)?;
            e.insert(l.unwrap_or(0));
        }
        if let Some(r) = &j.ev.client_request_id {
            let key = (j.game, r.clone());
            if !seen.contains_key(&key) {
                let earlier: Option<i64> = tx
                    .prepare_cached("SELECT seq FROM events WHERE game_id = ?1 AND client_request_id = ?2")
                    .and_then(|mut s| s.query_row(params![j.game, r], |row| row.get(0)).optional())
                    .map_err(db_error)?;
                if let Some(seq) = earlier {
                    seen.insert(key.clone(), seq);
                }
            }
            if let Some(seq) = seen.get(&key) {
                answers.push(Appended::Duplicate(*seq));
                continue;
            }
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
        insert(&tx, j, *l).map_err(db_error)?;
        answers.push(Appended::New(*l));
    }
    let hold = faults.hold_ms.load(Ordering::SeqCst);
    if hold > 0 {
        std::thread::sleep(Duration::from_millis(hold));
    }
    if fail {
        tx.rollback().map_err(db_error)?;
        return Err(StoreError::Db("injected write failure (test hook)".into()));
    }
    tx.commit().map_err(db_error)?;
    Ok(answers)
}
