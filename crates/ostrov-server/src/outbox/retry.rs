//! When the notifier tries again: the wall clock (claims and retries are about the
//! network, not the game's clock) and the backoff after a failed send.

use std::time::{SystemTime, UNIX_EPOCH};

/// The longest wait before a failed notice is tried again (seconds).
const MAX_BACKOFF: i64 = 600;

/// The real clock (Unix seconds).
pub(super) fn wall() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

/// The wait before the `attempts`-th try again (seconds): doubling, at most [`MAX_BACKOFF`].
pub(super) fn backoff(attempts: i64) -> i64 {
    (1i64 << attempts.clamp(1, 10)).min(MAX_BACKOFF)
}
