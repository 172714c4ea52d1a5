//! SQLite implementation of [`Store`](crate::Store): one file (WAL, `synchronous=FULL`),
//! appends group-committed by the `writer` module, sessions cached in memory.

use std::future::Future;
use std::str::FromStr;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Row, SqlitePool};

use crate::{
    forms_of, forms_text, writer, Accounts, Appended, Event, EventLog, GameRow, NewEvent, Result, StoreError, User,
};

const MIGRATIONS: &[&str] = &[
    "CREATE TABLE users (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL
    )",
    "CREATE TABLE sessions (
        token TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id),
        expires_at INTEGER NOT NULL
    )",
    "CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        title TEXT NOT NULL,
        host_id INTEGER NOT NULL REFERENCES users(id),
        invite TEXT NOT NULL UNIQUE,
        setup TEXT NOT NULL,
        created_at INTEGER NOT NULL
    )",
    "CREATE TABLE events (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        at INTEGER NOT NULL,
        author INTEGER,
        client_request_id TEXT,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        PRIMARY KEY (game_id, seq),
        UNIQUE (game_id, client_request_id)
    )",
    // The log is append-only: the database itself refuses updates and deletes.
    "CREATE TRIGGER events_no_update BEFORE UPDATE ON events BEGIN SELECT RAISE(ABORT, 'events are append-only'); END",
    "CREATE TRIGGER events_no_delete BEFORE DELETE ON events BEGIN SELECT RAISE(ABORT, 'events are append-only'); END",
    // The summary of a finished game (JSON), so a server can start without folding it.
    "ALTER TABLE games ADD COLUMN finished TEXT",
    // A digest of the request that carried a client request id (older rows: NULL).
    "ALTER TABLE events ADD COLUMN request_hash TEXT",
    // One account per look-alike-free name (the server fills older rows at start).
    "ALTER TABLE users ADD COLUMN name_key TEXT",
    "CREATE UNIQUE INDEX users_one_per_name_key ON users (name_key)",
    // The profile: the gender (`m`/`f`) and the name's six forms (a JSON list).
    "ALTER TABLE users ADD COLUMN gender TEXT",
    "ALTER TABLE users ADD COLUMN forms TEXT",
    // When the account was made (Unix seconds, by the server's clock; older rows: NULL):
    // a new account posts at a slower pace (issue 28, point 11).
    "ALTER TABLE users ADD COLUMN created_at INTEGER",
    // Notifications (issue 31): the outbox of notices derived from the games' logs, one row
    // per (game, seq, recipient, kind), so that deriving again never doubles one; `status`
    // is `pending`, `sending` (claimed by `claim` at `claimed_at`), `sent` or `dropped`.
    "CREATE TABLE outbox (
        id INTEGER PRIMARY KEY,
        game_id BIGINT NOT NULL,
        seq BIGINT NOT NULL,
        recipient BIGINT NOT NULL,
        kind TEXT NOT NULL,
        text TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending',
        claim TEXT,
        claimed_at BIGINT,
        attempts BIGINT NOT NULL DEFAULT 0,
        next_at BIGINT NOT NULL,
        sent_at BIGINT,
        last_error TEXT,
        UNIQUE (game_id, seq, recipient, kind)
    )",
    "CREATE INDEX outbox_due ON outbox (status, next_at)",
    // How far each game's log has been read for notices.
    "CREATE TABLE outbox_cursor (game_id BIGINT PRIMARY KEY, seq BIGINT NOT NULL)",
    // Telegram: the chat linked to an account (private: never shown), the one-time codes
    // that link one, each account's reminder setting, and the bot's getUpdates offset.
    "CREATE TABLE telegram_chats (user_id BIGINT PRIMARY KEY, chat_id BIGINT NOT NULL UNIQUE, linked_at BIGINT NOT NULL)",
    "CREATE TABLE telegram_codes (code TEXT PRIMARY KEY, user_id BIGINT NOT NULL, expires_at BIGINT NOT NULL)",
    "CREATE TABLE notify_prefs (user_id BIGINT PRIMARY KEY, remind_hours BIGINT NOT NULL)",
    "CREATE TABLE bot_state (name TEXT PRIMARY KEY, value BIGINT NOT NULL)",
];

/// SQLite implementation of [`Store`](crate::Store).
#[derive(Clone)]
pub struct SqliteStore {
    pub(crate) pool: SqlitePool,
    /// None for a database opened read-only: every append is refused.
    pub(crate) writer: Option<writer::Writer>,
    /// Sessions already read, by token: `(user, expires_at)`. Every API request checks
    /// its session, so this saves a query per request. The database stays the truth: a
    /// token is cached only once read from (or written to) it, and removed with it. Only
    /// this process writes the file, so nothing else can end a session behind the cache.
    pub(crate) sessions: std::sync::Arc<std::sync::Mutex<std::collections::HashMap<String, (i64, i64)>>>,
}

/// At most this many sessions are cached; past it the cache starts again empty.
const SESSION_CACHE: usize = 100_000;

impl SqliteStore {
    /// Open (creating if missing) the database at `path` and migrate it.
    /// `":memory:"` opens a private in-memory database (one connection).
    pub async fn open(path: &str) -> Result<Self> {
        let memory = path == ":memory:";
        let opts = if memory {
            SqliteConnectOptions::from_str("sqlite::memory:")?
        } else {
            SqliteConnectOptions::new().filename(path).create_if_missing(true)
        };
        let opts = opts
            .journal_mode(if memory { SqliteJournalMode::Memory } else { SqliteJournalMode::Wal })
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(std::time::Duration::from_secs(5));
        // A SQLite connection is a handle on a local file: it cannot go stale as a network
        // connection can, so a connection is not pinged before each use (the ping is a
        // round trip to the connection's worker thread, a tenth of an order's latency).
        let pool = SqlitePoolOptions::new()
            .max_connections(if memory { 1 } else { 4 })
            .test_before_acquire(false)
            .connect_with(opts.clone())
            .await?;
        let writer = Some(writer::Writer::start(&opts, memory)?);
        let store = SqliteStore { pool, writer, sessions: Default::default() };
        store.migrate().await?;
        if !memory {
            store.probe_write(path).await?;
        }
        Ok(store)
    }

    /// Refuses a database the server could read but never write (a read-only file or
    /// directory): one clear error at start instead of a failing write per request.
    async fn probe_write(&self, path: &str) -> Result<()> {
        let mut tx = self.pool.begin().await?;
        let probe = sqlx::query("INSERT INTO schema_version (version) VALUES (-1)").execute(&mut *tx).await;
        let _ = tx.rollback().await;
        probe.map(|_| ()).map_err(|e| {
            StoreError::Db(format!(
                "в базу данных нельзя записывать (файл или его папка только для чтения?): {path}: {e}"
            ))
        })
    }

    fn remember_session(&self, token: &str, user: i64, expires_at: i64) {
        let mut cache = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= SESSION_CACHE {
            cache.clear();
        }
        cache.insert(token.to_string(), (user, expires_at));
    }

    /// Drops the cached sessions of account `user` but `keep` (after they were deleted from
    /// the file), so that the next request of one reads the file and finds it gone.
    fn forget_sessions(&self, user: i64, keep: &str) {
        let mut cache = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        cache.retain(|token, (u, _)| *u != user || token == keep);
    }

    async fn migrate(&self) -> Result<()> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)").execute(&mut *tx).await?;
        let v: Option<i64> = sqlx::query_scalar("SELECT MAX(version) FROM schema_version").fetch_one(&mut *tx).await?;
        let v = v.unwrap_or(0) as usize;
        for (i, m) in MIGRATIONS.iter().enumerate().skip(v) {
            sqlx::query(m).execute(&mut *tx).await?;
            sqlx::query("INSERT INTO schema_version (version) VALUES (?)")
                .bind((i + 1) as i64)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Writes a consistent copy of the whole database to the new file `out` while the
    /// server runs (`VACUUM INTO`: one read transaction, so every event committed before
    /// it is in the copy and none half-written).
    pub async fn backup(&self, out: &str) -> Result<()> {
        sqlx::query("VACUUM INTO ?").bind(out).execute(&self.pool).await?;
        Ok(())
    }

    /// The SQLite pragmas in force (journal mode, synchronous level), for checks.
    pub async fn pragmas(&self) -> Result<(String, i64)> {
        let j: String = sqlx::query_scalar("PRAGMA journal_mode").fetch_one(&self.pool).await?;
        let s: i64 = sqlx::query_scalar("PRAGMA synchronous").fetch_one(&self.pool).await?;
        Ok((j, s))
    }

    /// For tests: the next `n` batches of appends to start fail (rolled back, every append in them
    /// answered with an error), as a full disk or a read-only database would.
    pub fn fail_next_batches(&self, n: u32) {
        if let Some(w) = &self.writer {
            w.faults().fail.store(n, std::sync::atomic::Ordering::SeqCst);
        }
    }

    /// For tests: the writer holds each batch this long before committing it (a slow disk),
    /// so that appends pile up behind it.
    pub fn hold_batches(&self, ms: u64) {
        if let Some(w) = &self.writer {
            w.faults().hold_ms.store(ms, std::sync::atomic::Ordering::SeqCst);
        }
    }

    /// How many batches the writer has committed and how many appends they held.
    pub fn batch_counts(&self) -> (u64, u64) {
        use std::sync::atomic::Ordering::Relaxed;
        self.writer.as_ref().map_or((0, 0), |w| (w.faults().batches.load(Relaxed), w.faults().appends.load(Relaxed)))
    }

    /// How many of those batches were written by the task that awaited an append (the
    /// database idle) rather than by the writer thread.
    pub fn batches_by_tasks(&self) -> u64 {
        self.writer.as_ref().map_or(0, |w| w.faults().by_tasks.load(std::sync::atomic::Ordering::Relaxed))
    }
}

/// The columns of [`User`].
const USER_COLUMNS: &str = "id, name, password_hash, gender, forms, created_at";

fn user_of(r: &sqlx::sqlite::SqliteRow) -> Result<User> {
    Ok(User {
        id: r.get("id"),
        name: r.get("name"),
        password_hash: r.get("password_hash"),
        gender: r.get("gender"),
        forms: forms_of(r.get("forms"))?,
        created_at: r.get("created_at"),
    })
}

fn game_of(r: &sqlx::sqlite::SqliteRow) -> Result<GameRow> {
    let setup: String = r.get("setup");
    Ok(GameRow {
        id: r.get("id"),
        title: r.get("title"),
        host_id: r.get("host_id"),
        invite: r.get("invite"),
        setup: serde_json::from_str(&setup).map_err(|e| StoreError::Db(e.to_string()))?,
        created_at: r.get("created_at"),
        finished: r
            .get::<Option<String>, _>("finished")
            .map(|f| serde_json::from_str(&f))
            .transpose()
            .map_err(|e| StoreError::Db(e.to_string()))?,
    })
}

impl Accounts for SqliteStore {
    async fn create_user(&self, name: &str, key: &str, password_hash: &str, created_at: i64) -> Result<i64> {
        let r = sqlx::query("INSERT INTO users (name, name_key, password_hash, created_at) VALUES (?, ?, ?, ?)")
            .bind(name)
            .bind(key)
            .bind(password_hash)
            .bind(created_at)
            .execute(&self.pool)
            .await?;
        Ok(r.last_insert_rowid())
    }

    async fn user_by_key(&self, key: &str) -> Result<Option<User>> {
        let r = sqlx::query(&format!("SELECT {USER_COLUMNS} FROM users WHERE name_key = ?"))
            .bind(key)
            .fetch_optional(&self.pool)
            .await?;
        r.as_ref().map(user_of).transpose()
    }

    async fn users_without_key(&self) -> Result<Vec<(i64, String)>> {
        let rows =
            sqlx::query("SELECT id, name FROM users WHERE name_key IS NULL ORDER BY id").fetch_all(&self.pool).await?;
        Ok(rows.iter().map(|r| (r.get("id"), r.get("name"))).collect())
    }

    async fn set_user_key(&self, id: i64, key: &str) -> Result<()> {
        sqlx::query("UPDATE users SET name_key = ? WHERE id = ?").bind(key).bind(id).execute(&self.pool).await?;
        Ok(())
    }

    async fn user_by_name(&self, name: &str) -> Result<Option<User>> {
        let r = sqlx::query(&format!("SELECT {USER_COLUMNS} FROM users WHERE name = ?"))
            .bind(name)
            .fetch_optional(&self.pool)
            .await?;
        r.as_ref().map(user_of).transpose()
    }

    async fn user_by_id(&self, id: i64) -> Result<Option<User>> {
        let r = sqlx::query(&format!("SELECT {USER_COLUMNS} FROM users WHERE id = ?"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        r.as_ref().map(user_of).transpose()
    }

    async fn set_profile(&self, id: i64, gender: Option<&str>, forms: Option<&[String]>) -> Result<()> {
        sqlx::query("UPDATE users SET gender = ?, forms = ? WHERE id = ?")
            .bind(gender)
            .bind(forms_text(forms))
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn create_session(&self, token: &str, user_id: i64, expires_at: i64) -> Result<()> {
        sqlx::query("INSERT INTO sessions (token, user_id, expires_at) VALUES (?, ?, ?)")
            .bind(token)
            .bind(user_id)
            .bind(expires_at)
            .execute(&self.pool)
            .await?;
        self.remember_session(token, user_id, expires_at);
        Ok(())
    }

    async fn session_user(&self, token: &str, now: i64) -> Result<Option<i64>> {
        let cached = self.sessions.lock().unwrap_or_else(|e| e.into_inner()).get(token).copied();
        if let Some((user, expires_at)) = cached {
            return Ok((expires_at > now).then_some(user));
        }
        let r: Option<(i64, i64)> =
            sqlx::query_as("SELECT user_id, expires_at FROM sessions WHERE token = ? AND expires_at > ?")
                .bind(token)
                .bind(now)
                .fetch_optional(&self.pool)
                .await?;
        if let Some((user, expires_at)) = r {
            self.remember_session(token, user, expires_at);
        }
        Ok(r.map(|(user, _)| user))
    }

    async fn delete_session(&self, token: &str) -> Result<()> {
        sqlx::query("DELETE FROM sessions WHERE token = ?").bind(token).execute(&self.pool).await?;
        self.sessions.lock().unwrap_or_else(|e| e.into_inner()).remove(token);
        Ok(())
    }

    async fn set_password(&self, id: i64, password_hash: &str, keep: &str) -> Result<u64> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE users SET password_hash = ? WHERE id = ?")
            .bind(password_hash)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        let ended = sqlx::query("DELETE FROM sessions WHERE user_id = ? AND token <> ?")
            .bind(id)
            .bind(keep)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        tx.commit().await?;
        self.forget_sessions(id, keep);
        Ok(ended)
    }

    async fn end_other_sessions(&self, id: i64, keep: &str) -> Result<u64> {
        let ended = sqlx::query("DELETE FROM sessions WHERE user_id = ? AND token <> ?")
            .bind(id)
            .bind(keep)
            .execute(&self.pool)
            .await?
            .rows_affected();
        self.forget_sessions(id, keep);
        Ok(ended)
    }
}

impl EventLog for SqliteStore {
    async fn create_game(
        &self,
        title: &str,
        host_id: i64,
        invite: &str,
        setup: &serde_json::Value,
        now: i64,
    ) -> Result<i64> {
        let r = sqlx::query("INSERT INTO games (title, host_id, invite, setup, created_at) VALUES (?, ?, ?, ?, ?)")
            .bind(title)
            .bind(host_id)
            .bind(invite)
            .bind(setup.to_string())
            .bind(now)
            .execute(&self.pool)
            .await?;
        Ok(r.last_insert_rowid())
    }

    async fn game(&self, id: i64) -> Result<Option<GameRow>> {
        let r = sqlx::query("SELECT * FROM games WHERE id = ?").bind(id).fetch_optional(&self.pool).await?;
        r.as_ref().map(game_of).transpose()
    }

    async fn game_by_invite(&self, invite: &str) -> Result<Option<GameRow>> {
        let r = sqlx::query("SELECT * FROM games WHERE invite = ?").bind(invite).fetch_optional(&self.pool).await?;
        r.as_ref().map(game_of).transpose()
    }

    async fn games(&self) -> Result<Vec<GameRow>> {
        let rows = sqlx::query("SELECT * FROM games ORDER BY id").fetch_all(&self.pool).await?;
        rows.iter().map(game_of).collect()
    }

    async fn finish_game(&self, id: i64, summary: &serde_json::Value) -> Result<()> {
        sqlx::query("UPDATE games SET finished = ? WHERE id = ?")
            .bind(summary.to_string())
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    fn append(
        &self,
        game_id: i64,
        expected_seq: i64,
        ev: NewEvent,
    ) -> impl Future<Output = Result<Appended>> + Send + 'static {
        let queued = self.writer.as_ref().map(|w| w.append(game_id, expected_seq, ev));
        async move {
            match queued {
                Some(answer) => answer.await,
                None => Err(StoreError::Db("the database is open read-only".into())),
            }
        }
    }

    async fn events(&self, game_id: i64) -> Result<Vec<Event>> {
        self.events_after(game_id, 0).await
    }

    async fn events_after(&self, game_id: i64, after: i64) -> Result<Vec<Event>> {
        let rows =
            sqlx::query(&format!("SELECT {EVENT_COLUMNS} FROM events WHERE game_id = ? AND seq > ? ORDER BY seq"))
                .bind(game_id)
                .bind(after)
                .fetch_all(&self.pool)
                .await?;
        rows.iter().map(event_of).collect()
    }

    async fn event(&self, game_id: i64, seq: i64) -> Result<Option<Event>> {
        let r = sqlx::query(&format!("SELECT {EVENT_COLUMNS} FROM events WHERE game_id = ? AND seq = ?"))
            .bind(game_id)
            .bind(seq)
            .fetch_optional(&self.pool)
            .await?;
        r.as_ref().map(event_of).transpose()
    }
}

const EVENT_COLUMNS: &str = "game_id, seq, at, author, client_request_id, request_hash, kind, payload";

fn event_of(r: &sqlx::sqlite::SqliteRow) -> Result<Event> {
    let payload: String = r.get("payload");
    Ok(Event {
        game_id: r.get("game_id"),
        seq: r.get("seq"),
        at: r.get("at"),
        author: r.get("author"),
        client_request_id: r.get("client_request_id"),
        request_hash: r.get("request_hash"),
        kind: r.get("kind"),
        payload: serde_json::from_str(&payload).map_err(|e| StoreError::Db(e.to_string()))?,
    })
}
