//! The balance hints' cache and the ones running (issue 28, point 12), kept in the shared
//! state; the estimate itself is [`crate::service::balance`].

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::error::ApiError;

/// Estimates of one account running at once.
pub const HINTS_PER_USER: usize = 1;
/// Estimates kept, by setup.
pub const CACHED_HINTS: usize = 256;

/// How long a full server asks a client to wait before asking again, in seconds.
const RETRY: i64 = 3;

/// The estimates in memory and the ones running.
pub struct Hints {
    cache: Mutex<Cache>,
    running: Mutex<Running>,
    at_once: usize,
}

#[derive(Default)]
struct Cache {
    tick: u64,
    map: HashMap<String, (u64, Arc<ostrov_bots::Summary>)>,
}

#[derive(Default)]
struct Running {
    total: usize,
    by_user: HashMap<i64, usize>,
}

impl Default for Hints {
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Hints::new((cores / 2).max(2))
    }
}

impl Hints {
    /// At most `at_once` estimates running at once (at least one).
    pub fn new(at_once: usize) -> Hints {
        Hints { cache: Default::default(), running: Default::default(), at_once: at_once.max(1) }
    }

    /// How many estimates may run at once in all.
    pub fn at_once(&self) -> usize {
        self.at_once
    }

    pub(crate) fn cached(&self, key: &str) -> Option<Arc<ostrov_bots::Summary>> {
        let mut c = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        c.tick += 1;
        let tick = c.tick;
        let e = c.map.get_mut(key)?;
        e.0 = tick;
        Some(e.1.clone())
    }

    pub(crate) fn keep(&self, key: String, s: Arc<ostrov_bots::Summary>) {
        let mut c = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        c.tick += 1;
        let tick = c.tick;
        if c.map.len() >= CACHED_HINTS && !c.map.contains_key(&key) {
            if let Some(oldest) = c.map.iter().min_by_key(|(_, (t, _))| *t).map(|(k, _)| k.clone()) {
                c.map.remove(&oldest);
            }
        }
        c.map.insert(key, (tick, s));
    }

    pub(crate) fn start(self: &Arc<Self>, user: i64) -> Result<Permit, ApiError> {
        let mut r = self.running.lock().unwrap_or_else(|p| p.into_inner());
        if r.by_user.get(&user).copied().unwrap_or(0) >= HINTS_PER_USER {
            return Err(ApiError::TooMany(
                "Оценка баланса для ваших прежних настроек ещё считается: подождите пару секунд и повторите.".into(),
                RETRY,
            ));
        }
        if r.total >= self.at_once {
            return Err(ApiError::TooMany(
                "Сервер сейчас считает много оценок баланса: повторите через несколько секунд.".into(),
                RETRY,
            ));
        }
        r.total += 1;
        *r.by_user.entry(user).or_default() += 1;
        Ok(Permit { hints: self.clone(), user })
    }

    /// How many estimates are running now.
    pub fn running(&self) -> usize {
        self.running.lock().unwrap_or_else(|p| p.into_inner()).total
    }
}

/// A running estimate's place; given back when its games stop.
pub(crate) struct Permit {
    hints: Arc<Hints>,
    user: i64,
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut r = self.hints.running.lock().unwrap_or_else(|p| p.into_inner());
        r.total -= 1;
        if let Some(n) = r.by_user.get_mut(&self.user) {
            *n -= 1;
            if *n == 0 {
                r.by_user.remove(&self.user);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cache_drops_the_least_recently_used() {
        let h = Hints::new(1);
        let s = Arc::new(ostrov_bots::simulate_while(
            &ostrov_bots::Config {
                roles: vec![],
                rules: Default::default(),
                deck: vec![],
                games: 0,
                bots: ostrov_bots::BotKind::Sensible,
                seed: 0,
            },
            &mut |_| false,
        ));
        for i in 0..CACHED_HINTS {
            h.keep(i.to_string(), s.clone());
        }
        assert!(h.cached("0").is_some(), "used again: kept");
        h.keep("new".into(), s.clone());
        assert!(h.cached("0").is_some() && h.cached("1").is_none() && h.cached("new").is_some());
    }
}
