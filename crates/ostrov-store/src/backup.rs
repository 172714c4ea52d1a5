//! Online backups (`ostrov backup`): what a database holds, a SQLite database opened as it
//! is (read-only, never migrated) while a server writes it, and a PostgreSQL snapshot held
//! open for `pg_dump --snapshot`, so that the dump holds exactly what was counted.

use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};
use sqlx::{Connection, PgConnection, Row};

use crate::{Result, SqliteStore, StoreError};

/// How much a database holds: accounts, games and log entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    pub users: i64,
    pub games: i64,
    pub events: i64,
}

const COUNT: &str = "SELECT (SELECT COUNT(*) FROM users) AS users, (SELECT COUNT(*) FROM games) AS games, \
                     (SELECT COUNT(*) FROM events) AS events";

impl SqliteStore {
    /// Opens the existing database at `path` read-only, as it is: never created, never
    /// migrated, and SQLite refuses every write through it. For a backup or a check of a
    /// file a server may be writing at the same time (WAL readers do not block it).
    pub async fn open_read_only(path: &str) -> Result<Self> {
        let opts = SqliteConnectOptions::new()
            .filename(path)
            .read_only(true)
            .create_if_missing(false)
            .busy_timeout(Duration::from_secs(5));
        let pool = SqlitePoolOptions::new().max_connections(1).connect_with(opts).await?;
        Ok(SqliteStore { pool, writer: None, sessions: crate::sessions::SessionCache::private() })
    }

    /// The accounts, games and log entries the database holds (one read transaction).
    /// An error for a file that is not an Ostrov database.
    pub async fn counts(&self) -> Result<Counts> {
        let r = sqlx::query(COUNT).fetch_one(&self.pool).await?;
        Ok(Counts { users: r.get("users"), games: r.get("games"), events: r.get("events") })
    }

    /// SQLite's own check of the file's structure (`PRAGMA quick_check`).
    pub async fn quick_check(&self) -> Result<()> {
        let answer: Vec<String> = sqlx::query_scalar("PRAGMA quick_check").fetch_all(&self.pool).await?;
        if answer == ["ok"] {
            Ok(())
        } else {
            Err(StoreError::Db(format!("quick_check: {}", answer.join("; "))))
        }
    }

    /// Closes the database's connections, waiting for them (so that nothing is left open
    /// on a file about to be handed over, such as a fresh backup).
    pub async fn close(&self) {
        self.pool.close().await;
    }
}

/// A read-only transaction on a PostgreSQL database whose snapshot is exported: `pg_dump
/// --snapshot=<id>` run while it is open dumps exactly this snapshot, the one
/// [`PgSnapshot::counts`] were taken in.
pub struct PgSnapshot {
    conn: PgConnection,
    /// The snapshot's name, for `pg_dump --snapshot`.
    pub id: String,
    /// What the snapshot holds.
    pub counts: Counts,
}

impl PgSnapshot {
    /// Connects to `url` and exports a snapshot of the database (REPEATABLE READ, READ
    /// ONLY: every statement of the transaction sees the snapshot of its first one).
    pub async fn take(url: &str) -> Result<PgSnapshot> {
        let mut conn = PgConnection::connect(url).await?;
        sqlx::raw_sql("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY").execute(&mut conn).await?;
        let id: String = sqlx::query_scalar("SELECT pg_export_snapshot()").fetch_one(&mut conn).await?;
        let r = sqlx::query(COUNT).fetch_one(&mut conn).await?;
        let counts = Counts { users: r.get("users"), games: r.get("games"), events: r.get("events") };
        Ok(PgSnapshot { conn, id, counts })
    }

    /// Ends the transaction (the snapshot can no longer be imported) and disconnects.
    pub async fn release(mut self) -> Result<()> {
        sqlx::raw_sql("COMMIT").execute(&mut self.conn).await?;
        self.conn.close().await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Accounts, EventLog, NewEvent};

    async fn populated(path: &str) -> SqliteStore {
        let s = SqliteStore::open(path).await.unwrap();
        let host = s.create_user("Ведущий", "ведущий", "hash", 0).await.unwrap();
        let game = s.create_game("Остров", host, "inv", &serde_json::json!({}), 1).await.unwrap();
        for seq in 0..3 {
            let ev = NewEvent {
                at: 1,
                author: Some(host),
                client_request_id: None,
                request_hash: None,
                kind: "note".into(),
                payload: serde_json::json!({}),
            };
            s.append(game, seq, ev).await.unwrap();
        }
        s
    }

    #[tokio::test]
    async fn a_backup_holds_what_the_database_held_and_the_copy_opens_read_only() {
        let dir = std::env::temp_dir().join(format!("ostrov-store-backup-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (db, out) = (dir.join("live.db"), dir.join("copy.db"));
        let _ = std::fs::remove_file(&out);
        let live = populated(db.to_str().unwrap()).await;
        let reader = SqliteStore::open_read_only(db.to_str().unwrap()).await.unwrap();
        assert_eq!(reader.counts().await.unwrap(), Counts { users: 1, games: 1, events: 3 });
        reader.backup(out.to_str().unwrap()).await.unwrap();
        reader.close().await;
        let copy = SqliteStore::open_read_only(out.to_str().unwrap()).await.unwrap();
        copy.quick_check().await.unwrap();
        assert_eq!(copy.counts().await.unwrap(), live.counts().await.unwrap());
        assert_eq!(copy.events(1).await.unwrap(), live.events(1).await.unwrap());
        assert!(copy.create_user("Новый", "новый", "hash", 0).await.is_err(), "a read-only store refuses writes");
        copy.close().await;
        let missing = SqliteStore::open_read_only(dir.join("missing.db").to_str().unwrap()).await;
        assert!(missing.is_err(), "a missing file is not created");
        assert!(!dir.join("missing.db").exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
