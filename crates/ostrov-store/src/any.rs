//! [`AnyStore`]: the store `ostrov serve --db` names, SQLite or PostgreSQL. The server is
//! generic over [`Store`]; this picks one at start and dispatches every call to it.

use crate::{Accounts, Appended, Change, Event, EventLog, GameRow, NewEvent, PgStore, Result, SqliteStore, User};

/// SQLite (a file path, or `:memory:`) or PostgreSQL (a `postgres://` or `postgresql://` URL).
#[derive(Clone)]
pub enum AnyStore {
    Sqlite(SqliteStore),
    Postgres(PgStore),
}

/// Whether a `--db` value names a PostgreSQL database rather than a SQLite file.
pub fn is_postgres(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

impl AnyStore {
    /// Opens and migrates the store `db` names.
    pub async fn open(db: &str) -> Result<AnyStore> {
        Ok(if is_postgres(db) {
            AnyStore::Postgres(PgStore::open(db).await?)
        } else {
            AnyStore::Sqlite(SqliteStore::open(db).await?)
        })
    }

    /// "SQLite" or "PostgreSQL", for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            AnyStore::Sqlite(_) => "SQLite",
            AnyStore::Postgres(_) => "PostgreSQL",
        }
    }
}

/// The same call on whichever store it is.
macro_rules! each {
    ($self:ident, $s:ident => $e:expr) => {
        match $self {
            AnyStore::Sqlite($s) => $e,
            AnyStore::Postgres($s) => $e,
        }
    };
}

impl Accounts for AnyStore {
    async fn create_user(&self, name: &str, key: &str, password_hash: &str) -> Result<i64> {
        each!(self, s => s.create_user(name, key, password_hash).await)
    }
    async fn user_by_key(&self, key: &str) -> Result<Option<User>> {
        each!(self, s => s.user_by_key(key).await)
    }
    async fn users_without_key(&self) -> Result<Vec<(i64, String)>> {
        each!(self, s => s.users_without_key().await)
    }
    async fn set_user_key(&self, id: i64, key: &str) -> Result<()> {
        each!(self, s => s.set_user_key(id, key).await)
    }
    async fn user_by_name(&self, name: &str) -> Result<Option<User>> {
        each!(self, s => s.user_by_name(name).await)
    }
    async fn user_by_id(&self, id: i64) -> Result<Option<User>> {
        each!(self, s => s.user_by_id(id).await)
    }
    async fn set_profile(&self, id: i64, gender: Option<&str>, forms: Option<&[String]>) -> Result<()> {
        each!(self, s => s.set_profile(id, gender, forms).await)
    }
    async fn create_session(&self, token: &str, user_id: i64, expires_at: i64) -> Result<()> {
        each!(self, s => s.create_session(token, user_id, expires_at).await)
    }
    async fn session_user(&self, token: &str, now: i64) -> Result<Option<i64>> {
        each!(self, s => s.session_user(token, now).await)
    }
    async fn delete_session(&self, token: &str) -> Result<()> {
        each!(self, s => s.delete_session(token).await)
    }
}

impl EventLog for AnyStore {
    async fn create_game(
        &self,
        title: &str,
        host_id: i64,
        invite: &str,
        setup: &serde_json::Value,
        now: i64,
    ) -> Result<i64> {
        each!(self, s => s.create_game(title, host_id, invite, setup, now).await)
    }
    async fn game(&self, id: i64) -> Result<Option<GameRow>> {
        each!(self, s => s.game(id).await)
    }
    async fn game_by_invite(&self, invite: &str) -> Result<Option<GameRow>> {
        each!(self, s => s.game_by_invite(invite).await)
    }
    async fn games(&self) -> Result<Vec<GameRow>> {
        each!(self, s => s.games().await)
    }
    async fn finish_game(&self, id: i64, summary: &serde_json::Value) -> Result<()> {
        each!(self, s => s.finish_game(id, summary).await)
    }
    fn append(
        &self,
        game_id: i64,
        expected_seq: i64,
        ev: NewEvent,
    ) -> impl std::future::Future<Output = Result<Appended>> + Send + 'static {
        // Both arms issue the append now; the answer is one boxed future type.
        let f: std::pin::Pin<Box<dyn std::future::Future<Output = Result<Appended>> + Send>> =
            each!(self, s => Box::pin(s.append(game_id, expected_seq, ev)));
        f
    }
    async fn events(&self, game_id: i64) -> Result<Vec<Event>> {
        each!(self, s => s.events(game_id).await)
    }
    async fn events_after(&self, game_id: i64, after: i64) -> Result<Vec<Event>> {
        each!(self, s => s.events_after(game_id, after).await)
    }
    async fn event(&self, game_id: i64, seq: i64) -> Result<Option<Event>> {
        each!(self, s => s.event(game_id, seq).await)
    }
    fn shared(&self) -> bool {
        each!(self, s => s.shared())
    }
    fn changes(&self) -> Option<tokio::sync::mpsc::Receiver<Change>> {
        each!(self, s => s.changes())
    }
    async fn lead(&self) -> Result<bool> {
        each!(self, s => s.lead().await)
    }
}
