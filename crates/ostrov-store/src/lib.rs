//! Durable storage for the Ostrov server, behind one narrow trait ([`Store`]).
//!
//! Games are event-sourced: the `events` table is append-only (never updated
//! in place). Each append is committed with SQLite in WAL mode and
//! `synchronous=FULL`, so it is on disk before [`Store::append`] returns.
//! A PostgreSQL implementation can be added later behind the same trait.

use std::future::Future;
use std::str::FromStr;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Row, SqlitePool};

/// A storage error. `Conflict` means a uniqueness rule refused the write
/// (a taken user name, a repeated client request id).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("conflict: {0}")]
    Conflict(String),
    #[error("not found")]
    NotFound,
    #[error("storage: {0}")]
    Db(String),
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        if let sqlx::Error::Database(d) = &e {
            if d.is_unique_violation() {
                return StoreError::Conflict(d.message().to_string());
            }
        }
        if let sqlx::Error::RowNotFound = e {
            return StoreError::NotFound;
        }
        StoreError::Db(e.to_string())
    }
}

pub type Result<T> = std::result::Result<T, StoreError>;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    pub id: i64,
    pub name: String,
    pub password_hash: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    pub id: i64,
    pub title: String,
    pub host_id: i64,
    pub invite: String,
    /// The game's setup as JSON (slots, roster, seed, schedule, house rules).
    pub setup: serde_json::Value,
    pub created_at: i64,
}

/// One entry of a game's append-only log.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub game_id: i64,
    /// 1, 2, 3 … in order of append, per game.
    pub seq: i64,
    /// Unix seconds, from the server's (injectable) clock.
    pub at: i64,
    /// The user who caused it; `None` for the scheduler.
    pub author: Option<i64>,
    /// Unique per game: a retried request with the same id is not appended twice.
    pub client_request_id: Option<String>,
    pub kind: String,
    pub payload: serde_json::Value,
}

/// An event to append; `seq` is assigned by the store.
#[derive(Debug, Clone, PartialEq)]
pub struct NewEvent {
    pub at: i64,
    pub author: Option<i64>,
    pub client_request_id: Option<String>,
    pub kind: String,
    pub payload: serde_json::Value,
}

/// What appending did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Appended {
    /// Stored as this sequence number, durably.
    New(i64),
    /// The client request id was already in the log at this sequence number: nothing added.
    Duplicate(i64),
}

/// The narrow storage interface the server uses. Game code sees only this.
pub trait Store: Send + Sync + 'static {
    fn create_user(&self, name: &str, password_hash: &str) -> impl Future<Output = Result<i64>> + Send;
    fn user_by_name(&self, name: &str) -> impl Future<Output = Result<Option<User>>> + Send;
    fn user_by_id(&self, id: i64) -> impl Future<Output = Result<Option<User>>> + Send;

    fn create_session(&self, token: &str, user_id: i64, expires_at: i64) -> impl Future<Output = Result<()>> + Send;
    /// The user of a live session (expired sessions count as absent).
    fn session_user(&self, token: &str, now: i64) -> impl Future<Output = Result<Option<i64>>> + Send;
    fn delete_session(&self, token: &str) -> impl Future<Output = Result<()>> + Send;

    fn create_game(
        &self,
        title: &str,
        host_id: i64,
        invite: &str,
        setup: &serde_json::Value,
        now: i64,
    ) -> impl Future<Output = Result<i64>> + Send;
    fn game(&self, id: i64) -> impl Future<Output = Result<Option<GameRow>>> + Send;
    fn game_by_invite(&self, invite: &str) -> impl Future<Output = Result<Option<GameRow>>> + Send;
    fn games(&self) -> impl Future<Output = Result<Vec<GameRow>>> + Send;

    /// Append one event; durable (committed, fsynced) before it returns.
    fn append(&self, game_id: i64, ev: &NewEvent) -> impl Future<Output = Result<Appended>> + Send;
    /// The whole log of a game, in sequence order.
    fn events(&self, game_id: i64) -> impl Future<Output = Result<Vec<Event>>> + Send;
}

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
];

/// SQLite implementation of [`Store`].
#[derive(Clone)]
pub struct SqliteStore {
    pool: SqlitePool,
}

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
        let pool = SqlitePoolOptions::new().max_connections(if memory { 1 } else { 4 }).connect_with(opts).await?;
        let store = SqliteStore { pool };
        store.migrate().await?;
        Ok(store)
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

    /// The SQLite pragmas in force (journal mode, synchronous level), for checks.
    pub async fn pragmas(&self) -> Result<(String, i64)> {
        let j: String = sqlx::query_scalar("PRAGMA journal_mode").fetch_one(&self.pool).await?;
        let s: i64 = sqlx::query_scalar("PRAGMA synchronous").fetch_one(&self.pool).await?;
        Ok((j, s))
    }
}

fn user_of(r: &sqlx::sqlite::SqliteRow) -> User {
    User { id: r.get("id"), name: r.get("name"), password_hash: r.get("password_hash") }
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
    })
}

impl Store for SqliteStore {
    async fn create_user(&self, name: &str, password_hash: &str) -> Result<i64> {
        let r = sqlx::query("INSERT INTO users (name, password_hash) VALUES (?, ?)")
            .bind(name)
            .bind(password_hash)
            .execute(&self.pool)
            .await?;
        Ok(r.last_insert_rowid())
    }

    async fn user_by_name(&self, name: &str) -> Result<Option<User>> {
        let r = sqlx::query("SELECT id, name, password_hash FROM users WHERE name = ?")
            .bind(name)
            .fetch_optional(&self.pool)
            .await?;
        Ok(r.as_ref().map(user_of))
    }

    async fn user_by_id(&self, id: i64) -> Result<Option<User>> {
        let r = sqlx::query("SELECT id, name, password_hash FROM users WHERE id = ?")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(r.as_ref().map(user_of))
    }

    async fn create_session(&self, token: &str, user_id: i64, expires_at: i64) -> Result<()> {
        sqlx::query("INSERT INTO sessions (token, user_id, expires_at) VALUES (?, ?, ?)")
            .bind(token)
            .bind(user_id)
            .bind(expires_at)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn session_user(&self, token: &str, now: i64) -> Result<Option<i64>> {
        let r: Option<i64> = sqlx::query_scalar("SELECT user_id FROM sessions WHERE token = ? AND expires_at > ?")
            .bind(token)
            .bind(now)
            .fetch_optional(&self.pool)
            .await?;
        Ok(r)
    }

    async fn delete_session(&self, token: &str) -> Result<()> {
        sqlx::query("DELETE FROM sessions WHERE token = ?").bind(token).execute(&self.pool).await?;
        Ok(())
    }

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

    async fn append(&self, game_id: i64, ev: &NewEvent) -> Result<Appended> {
        // One statement, so one round trip to the database thread: in autocommit mode it
        // takes the write lock before it reads MAX(seq) (so concurrent appends queue on
        // busy_timeout and get distinct numbers), and it has committed durably (WAL +
        // synchronous=FULL) once stepped to the end, which `fetch_all` does. A repeated
        // client request id inserts nothing (the UNIQUE constraint, DO NOTHING) and
        // returns no row; then its stored seq is looked up.
        let seq: Vec<i64> = sqlx::query_scalar(
            "INSERT INTO events (game_id, seq, at, author, client_request_id, kind, payload)
             SELECT ?1, COALESCE(MAX(seq), 0) + 1, ?2, ?3, ?4, ?5, ?6 FROM events WHERE game_id = ?1
             ON CONFLICT DO NOTHING
             RETURNING seq",
        )
        .bind(game_id)
        .bind(ev.at)
        .bind(ev.author)
        .bind(ev.client_request_id.as_deref())
        .bind(&ev.kind)
        .bind(ev.payload.to_string())
        .fetch_all(&self.pool)
        .await?;
        if let Some(seq) = seq.first() {
            return Ok(Appended::New(*seq));
        }
        let id = ev.client_request_id.as_deref().ok_or_else(|| StoreError::Db("append: nothing inserted".into()))?;
        let seen: Option<i64> =
            sqlx::query_scalar("SELECT seq FROM events WHERE game_id = ? AND client_request_id = ?")
                .bind(game_id)
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
        seen.map(Appended::Duplicate).ok_or_else(|| StoreError::Db("append: nothing inserted".into()))
    }

    async fn events(&self, game_id: i64) -> Result<Vec<Event>> {
        let rows = sqlx::query(
            "SELECT game_id, seq, at, author, client_request_id, kind, payload
             FROM events WHERE game_id = ? ORDER BY seq",
        )
        .bind(game_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let payload: String = r.get("payload");
                Ok(Event {
                    game_id: r.get("game_id"),
                    seq: r.get("seq"),
                    at: r.get("at"),
                    author: r.get("author"),
                    client_request_id: r.get("client_request_id"),
                    kind: r.get("kind"),
                    payload: serde_json::from_str(&payload).map_err(|e| StoreError::Db(e.to_string()))?,
                })
            })
            .collect()
    }
}
