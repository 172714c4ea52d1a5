//! The server's clock: what time it is, in Unix seconds, injectable so tests do not wait.

/// The server's clock, injectable so tests do not wait. Unix seconds.
pub trait Clock: Send + Sync + 'static {
    fn now(&self) -> i64;
}

/// The real clock.
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> i64 {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
    }
}

/// A clock that reads Unix seconds from a file on every call (for tests of the real
/// process: the test moves time by rewriting the file). Falls back to the system clock
/// when the file does not read.
pub struct FileClock(pub std::path::PathBuf);

impl Clock for FileClock {
    fn now(&self) -> i64 {
        std::fs::read_to_string(&self.0).ok().and_then(|s| s.trim().parse().ok()).unwrap_or_else(|| SystemClock.now())
    }
}
