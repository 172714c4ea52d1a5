//! Login rate limiting: after [`MAX_FAILURES`] wrong passwords for one account name within
//! [`WINDOW`] seconds, further logins for that name are refused (429) until the oldest
//! failure leaves the window. A right password does not get through a lock either.

use std::collections::HashMap;
use std::sync::Mutex;

/// Wrong passwords allowed per window.
pub const MAX_FAILURES: usize = 5;
/// The window, in seconds.
pub const WINDOW: i64 = 300;

#[derive(Default)]
pub struct Limiter {
    failures: Mutex<HashMap<String, Vec<i64>>>,
}

impl Limiter {
    /// `Err(seconds to wait)` when `key` is locked at `now`.
    pub fn check(&self, key: &str, now: i64) -> Result<(), i64> {
        let mut map = self.failures.lock().unwrap_or_else(|p| p.into_inner());
        let Some(v) = map.get_mut(key) else { return Ok(()) };
        v.retain(|t| now - t < WINDOW);
        if v.len() >= MAX_FAILURES {
            return Err(v[0] + WINDOW - now);
        }
        if v.is_empty() {
            map.remove(key);
        }
        Ok(())
    }

    /// Counts a wrong password for `key`.
    pub fn fail(&self, key: &str, now: i64) {
        let mut map = self.failures.lock().unwrap_or_else(|p| p.into_inner());
        if map.len() > 100_000 {
            map.retain(|_, v| v.last().is_some_and(|t| now - t < WINDOW));
        }
        map.entry(key.to_string()).or_default().push(now);
    }

    /// Forgets the failures of `key` (after a successful login).
    pub fn clear(&self, key: &str) {
        self.failures.lock().unwrap_or_else(|p| p.into_inner()).remove(key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn five_failures_lock_the_name_for_the_window() {
        let l = Limiter::default();
        for i in 0..MAX_FAILURES as i64 {
            assert!(l.check("вика", 100 + i).is_ok());
            l.fail("вика", 100 + i);
        }
        assert_eq!(l.check("вика", 110), Err(100 + WINDOW - 110));
        assert!(l.check("боря", 110).is_ok());
        assert!(l.check("вика", 100 + WINDOW).is_ok());
    }
}
