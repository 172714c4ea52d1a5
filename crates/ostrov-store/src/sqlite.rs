//! SQLite implementation of [`Store`](crate::Store): one file (WAL, `synchronous=FULL`),
//! appends group-committed by the `writer` module, sessions cached in memory.

use std::future::Future;
use std::str::FromStr;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Row, SqlitePool};

use crate::sessions::SessionCache;
use crate::{
    forms_of, forms_text, writer, Accounts, Appended, Event, EventLog, GameResult, GameRow, NewEvent, Played, Result,
    SetupCount, Sighting, StoreError, User,
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
    // Issue 30, point 5: who came to a game from one address prefix or one browser, by a
    // keyed hash only, and the server's secret that keys it.
    "CREATE TABLE sightings (
        game_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        key TEXT NOT NULL,
        first_at INTEGER NOT NULL,
        last_at INTEGER NOT NULL,
        PRIMARY KEY (game_id, user_id, kind, key)
    )",
    "CREATE TABLE server_secret (id INTEGER PRIMARY KEY, secret TEXT NOT NULL)",
    // The result of each finished game and of its seats (issue 33): players' records and
    // the setups' counts are read from these, never by folding games.
    "CREATE TABLE game_results (
        game_id INTEGER PRIMARY KEY REFERENCES games(id),
        setup_key TEXT NOT NULL,
        winner TEXT NOT NULL,
        finished_at INTEGER NOT NULL,
        private INTEGER NOT NULL
    )",
    "CREATE TABLE seat_results (
        game_id INTEGER NOT NULL REFERENCES game_results(game_id),
        seat INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        role TEXT NOT NULL,
        side TEXT NOT NULL,
        won INTEGER NOT NULL,
        survived INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat)
    )",
    "CREATE INDEX seat_results_by_user ON seat_results (user_id, game_id)",
    "CREATE INDEX game_results_by_setup ON game_results (setup_key)",
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
    // E-mail (issue 31, point 5): one address per account, mailed nothing but its
    // confirmation (`token`, single use, until `token_expires`) until `confirmed_at`;
    // `unsub` is the secret of its one-click unsubscribe link.
    "CREATE TABLE mail_addresses (
        user_id BIGINT PRIMARY KEY,
        address TEXT NOT NULL,
        confirmed_at BIGINT,
        token TEXT UNIQUE,
        token_expires BIGINT,
        unsub TEXT NOT NULL UNIQUE,
        set_at BIGINT NOT NULL
    )",
    // A player's requests to the host (issue 31, point 3): private to the sender and the host.
    "CREATE TABLE host_requests (
        id INTEGER PRIMARY KEY,
        game_id BIGINT NOT NULL,
        user_id BIGINT NOT NULL,
        text TEXT NOT NULL,
        created_at BIGINT NOT NULL
    )",
    "CREATE INDEX host_requests_by_game ON host_requests (game_id, id)",
];

/// SQLite implementation of [`Store`](crate::Store).
#[derive(Clone)]
pub struct SqliteStore {
    pub(crate) pool: SqlitePool,
    /// None for a database opened read-only: every append is refused.
    pub(crate) writer: Option<writer::Writer>,
    /// Sessions already read (see the `sessions` module). Only this process writes the
    /// file, so nothing else can end a session behind the cache.
    pub(crate) sessions: SessionCache,
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
        // A SQLite connection is a handle on a local file: it cannot go stale as a network
        // connection can, so a connection is not pinged before each use (the ping is a
        // round trip to the connection's worker thread, a tenth of an order's latency).
        let pool = SqlitePoolOptions::new()
            .max_connections(if memory { 1 } else { 4 })
            .test_before_acquire(false)
            .connect_with(opts.clone())
            .await?;
        let writer = Some(writer::Writer::start(&opts, memory)?);
        let store = SqliteStore { pool, writer, sessions: SessionCache::private() };
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
        let ticket = self.sessions.ticket();
        sqlx::query("INSERT INTO sessions (token, user_id, expires_at) VALUES (?, ?, ?)")
            .bind(token)
            .bind(user_id)
            .bind(expires_at)
            .execute(&self.pool)
            .await?;
        self.sessions.remember(ticket, token, user_id, expires_at);
        Ok(())
    }

    async fn session_user(&self, token: &str, now: i64) -> Result<Option<i64>> {
        let read = || {
            sqlx::query_as("SELECT user_id, expires_at FROM sessions WHERE token = ? AND expires_at > ?")
                .bind(token)
                .bind(now)
                .fetch_optional(&self.pool)
        };
        Ok(self.sessions.user_of(token, now, read).await?)
    }

    async fn delete_session(&self, token: &str) -> Result<()> {
        sqlx::query("DELETE FROM sessions WHERE token = ?").bind(token).execute(&self.pool).await?;
        self.sessions.forget_token(token);
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
        self.sessions.forget_user(id, Some(keep));
        Ok(ended)
    }

    async fn end_other_sessions(&self, id: i64, keep: &str) -> Result<u64> {
        let ended = sqlx::query("DELETE FROM sessions WHERE user_id = ? AND token <> ?")
            .bind(id)
            .bind(keep)
            .execute(&self.pool)
            .await?
            .rows_affected();
        self.sessions.forget_user(id, Some(keep));
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

    async fn server_secret(&self, fresh: &str) -> Result<String> {
        sqlx::query("INSERT INTO server_secret (id, secret) VALUES (1, ?) ON CONFLICT (id) DO NOTHING")
            .bind(fresh)
            .execute(&self.pool)
            .await?;
        let (secret,): (String,) =
            sqlx::query_as("SELECT secret FROM server_secret WHERE id = 1").fetch_one(&self.pool).await?;
        Ok(secret)
    }

    async fn note_sighting(&self, game_id: i64, user_id: i64, kind: &str, key: &str, at: i64, cap: i64) -> Result<()> {
        let moved =
            sqlx::query("UPDATE sightings SET last_at = ? WHERE game_id = ? AND user_id = ? AND kind = ? AND key = ?")
                .bind(at)
                .bind(game_id)
                .bind(user_id)
                .bind(kind)
                .bind(key)
                .execute(&self.pool)
                .await?;
        if moved.rows_affected() > 0 {
            return Ok(());
        }
        let (n,): (i64,) =
            sqlx::query_as("SELECT COUNT(*) FROM sightings WHERE game_id = ? AND user_id = ? AND kind = ?")
                .bind(game_id)
                .bind(user_id)
                .bind(kind)
                .fetch_one(&self.pool)
                .await?;
        if n >= cap {
            return Ok(());
        }
        sqlx::query(
            "INSERT INTO sightings (game_id, user_id, kind, key, first_at, last_at) VALUES (?, ?, ?, ?, ?, ?) \
             ON CONFLICT (game_id, user_id, kind, key) DO UPDATE SET last_at = excluded.last_at",
        )
        .bind(game_id)
        .bind(user_id)
        .bind(kind)
        .bind(key)
        .bind(at)
        .bind(at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn sightings(&self, game_id: i64) -> Result<Vec<Sighting>> {
        let rows: Vec<(i64, String, String, i64, i64)> = sqlx::query_as(
            "SELECT user_id, kind, key, first_at, last_at FROM sightings WHERE game_id = ? ORDER BY first_at, user_id",
        )
        .bind(game_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|(user_id, kind, key, first_at, last_at)| Sighting { user_id, kind, key, first_at, last_at })
            .collect())
    }

    async fn forget_sightings(&self, game_id: i64) -> Result<()> {
        sqlx::query("DELETE FROM sightings WHERE game_id = ?").bind(game_id).execute(&self.pool).await?;
        Ok(())
    }

    async fn record_result(&self, r: &GameResult) -> Result<()> {
        let mut tx = self.pool.begin().await?;
        let new = sqlx::query(
            "INSERT INTO game_results (game_id, setup_key, winner, finished_at, private) VALUES (?, ?, ?, ?, ?)
             ON CONFLICT (game_id) DO NOTHING",
        )
        .bind(r.game_id)
        .bind(&r.setup_key)
        .bind(&r.winner)
        .bind(r.finished_at)
        .bind(r.private)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if new == 1 {
            for (i, s) in r.seats.iter().enumerate() {
                sqlx::query(
                    "INSERT INTO seat_results (game_id, seat, user_id, role, side, won, survived)
                     VALUES (?, ?, ?, ?, ?, ?, ?)",
                )
                .bind(r.game_id)
                .bind(i as i64)
                .bind(s.user_id)
                .bind(&s.role)
                .bind(&s.side)
                .bind(s.won)
                .bind(s.survived)
                .execute(&mut *tx)
                .await?;
            }
        }
        tx.commit().await?;
        Ok(())
    }

    async fn played(&self, user_id: i64, viewer: Option<i64>) -> Result<Vec<Played>> {
        let rows = sqlx::query(
            "SELECT r.game_id, g.title, r.finished_at, r.winner, s.role, s.side, s.won, s.survived
             FROM seat_results s JOIN game_results r ON r.game_id = s.game_id JOIN games g ON g.id = s.game_id
             WHERE s.user_id = ?1 AND (r.private = 0 OR g.host_id = ?2
                OR EXISTS (SELECT 1 FROM seat_results m WHERE m.game_id = s.game_id AND m.user_id = ?2))
             ORDER BY r.finished_at DESC, r.game_id DESC",
        )
        .bind(user_id)
        .bind(viewer.unwrap_or(-1))
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| Played {
                game_id: r.get("game_id"),
                title: r.get("title"),
                finished_at: r.get("finished_at"),
                winner: r.get("winner"),
                role: r.get("role"),
                side: r.get("side"),
                won: r.get("won"),
                survived: r.get("survived"),
            })
            .collect())
    }

    async fn setup_counts(&self, viewer: Option<i64>, setup_key: Option<&str>) -> Result<Vec<SetupCount>> {
        let rows = sqlx::query(
            "SELECT r.setup_key, r.winner, COUNT(*) AS n
             FROM game_results r JOIN games g ON g.id = r.game_id
             WHERE (?1 IS NULL OR r.setup_key = ?1) AND (r.private = 0 OR g.host_id = ?2
                OR EXISTS (SELECT 1 FROM seat_results m WHERE m.game_id = r.game_id AND m.user_id = ?2))
             GROUP BY r.setup_key, r.winner
             ORDER BY r.setup_key, r.winner",
        )
        .bind(setup_key)
        .bind(viewer.unwrap_or(-1))
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| SetupCount { setup_key: r.get("setup_key"), winner: r.get("winner"), games: r.get("n") })
            .collect())
    }

    async fn unrecorded(&self, limit: i64) -> Result<Vec<i64>> {
        let rows = sqlx::query(
            "SELECT g.id FROM games g WHERE g.finished IS NOT NULL
             AND NOT EXISTS (SELECT 1 FROM game_results r WHERE r.game_id = g.id) ORDER BY g.id LIMIT ?",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(|r| r.get("id")).collect())
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
