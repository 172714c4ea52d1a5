//! Throw-away PostgreSQL databases for tests. The server to use is named by the
//! `OSTROV_TEST_PG` environment variable (for example `postgres://postgres@127.0.0.1/test`);
//! each [`TestDb`] is a database of its own, created empty and dropped when the value is
//! dropped. Without the variable there is no database and the PostgreSQL tests skip;
//! [`skipped_once`] says so in one line per test run.

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};

use sqlx::{Connection, PgConnection};

/// The environment variable naming the PostgreSQL server of the tests.
pub const VAR: &str = "OSTROV_TEST_PG";

/// A database of its own on the test server; dropped with this value.
pub struct TestDb {
    /// The URL of the new database, for `--db` or [`crate::PgStore::open`].
    pub url: String,
    admin: String,
    name: String,
}

fn with_db(url: &str, db: &str) -> String {
    // postgres://user@host[:port]/dbname[?options] → the same with another database.
    let (base, query) = url.split_once('?').map_or((url, None), |(b, q)| (b, Some(q)));
    let head = match base.find("://").map(|i| i + 3) {
        Some(i) => match base[i..].find('/') {
            Some(j) => &base[..i + j],
            None => base,
        },
        None => base,
    };
    match query {
        Some(q) => format!("{head}/{db}?{q}"),
        None => format!("{head}/{db}"),
    }
}

fn block_on<T>(f: impl std::future::Future<Output = T> + Send + 'static) -> T
where
    T: Send + 'static,
{
    // On a thread of its own: the caller may be inside a runtime already.
    std::thread::spawn(move || {
        tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime").block_on(f)
    })
    .join()
    .expect("the database thread")
}

impl TestDb {
    /// A new empty database, or `None` when `OSTROV_TEST_PG` is not set. Panics (loudly)
    /// when it is set but the server does not answer: a test run that was asked for
    /// PostgreSQL must not pass without it.
    pub fn create(tag: &str) -> Option<TestDb> {
        static N: AtomicU64 = AtomicU64::new(0);
        let admin = std::env::var(VAR).ok().filter(|v| !v.is_empty())?;
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
        let tag: String = tag.chars().filter(|c| c.is_ascii_alphanumeric()).take(20).collect();
        let name = format!(
            "ostrov_{}_{}_{}_{}",
            tag.to_lowercase(),
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst),
            nanos
        );
        let (a, n) = (admin.clone(), name.clone());
        block_on(async move {
            let mut c = PgConnection::connect(&a).await.map_err(|e| format!("{VAR}={a}: {e}"))?;
            sqlx::query(&format!("CREATE DATABASE {n}")).execute(&mut c).await.map_err(|e| e.to_string())?;
            c.close().await.map_err(|e| e.to_string())
        })
        .unwrap_or_else(|e| panic!("PostgreSQL for the tests is not reachable: {e}"));
        Some(TestDb { url: with_db(&admin, &name), admin, name })
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        let (a, n) = (self.admin.clone(), self.name.clone());
        let r = block_on(async move {
            let mut c = PgConnection::connect(&a).await?;
            sqlx::query(&format!("DROP DATABASE IF EXISTS {n} WITH (FORCE)")).execute(&mut c).await?;
            c.close().await
        });
        if let Err(e) = r {
            eprintln!("test database {} not dropped: {e}", self.name);
        }
    }
}

/// Says, once per test process and past the test harness's capture, that the PostgreSQL
/// tests were not run; for the one test of the workspace that reports it.
pub fn skipped_once() {
    let _ = writeln!(
        std::io::stderr(),
        "PostgreSQL tests not run: set {VAR} (for example postgres://postgres@127.0.0.1/test) to run them"
    );
}

#[cfg(test)]
mod tests {
    #[test]
    fn another_database_on_the_same_server() {
        assert_eq!(super::with_db("postgres://postgres@127.0.0.1/test", "x"), "postgres://postgres@127.0.0.1/x");
        assert_eq!(super::with_db("postgres://u@h:5433", "x"), "postgres://u@h:5433/x");
        assert_eq!(super::with_db("postgres://u@h/db?sslmode=disable", "x"), "postgres://u@h/x?sslmode=disable");
    }
}
