//! Login rate limiting, per account and per client address, with backoff.
//!
//! - **Per account** (keyed by the name's skeleton, so `Вика`, `ВИКА` and `Bика` with a
//!   Latin B are one key): [`FREE_FAILURES`] wrong passwords are free; each further one
//!   makes the next attempt wait, 1 s after the first, doubling up to [`MAX_WAIT`].
//! - **Per address**: the same with [`FREE_FAILURES_PER_ADDRESS`], so that one client
//!   guessing many names is slowed too.
//! - **The owner is not locked out**: from an address the account logged in from within
//!   [`KNOWN_FOR`], the account's wait is that address's own count for the account (the
//!   same [`FREE_FAILURES`], the same backoff), not the count of guesses from elsewhere; a
//!   known address never means unlimited guesses (issue 28, point 14).
//! - **IPv6 by /64**: an address is counted by its /64 network, what one host is given.
//!
//! Failures are forgotten [`WINDOW`] seconds after the last one; a right password clears
//! only that account's own counts (never the address's: logging into one's own account
//! between guesses at others buys nothing). Each table keeps at most [`MAX_KEYS`] keys
//! (the oldest are dropped first), so failed logins cannot fill the memory.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;

/// Wrong passwords for one account before attempts have to wait.
pub const FREE_FAILURES: u32 = 5;
/// Wrong passwords from one address before its attempts have to wait.
pub const FREE_FAILURES_PER_ADDRESS: u32 = 20;
/// The longest wait between attempts, in seconds.
pub const MAX_WAIT: i64 = 60;
/// Failures are forgotten this many seconds after the last one.
pub const WINDOW: i64 = 900;
/// How long an address the account logged in from stays known (90 days), in seconds.
pub const KNOWN_FOR: i64 = 90 * 24 * 3600;
/// The most keys each table holds.
pub const MAX_KEYS: usize = 10_000;

#[derive(Clone, Copy, Debug)]
struct Count {
    failures: u32,
    last: i64,
}

impl Count {
    /// Seconds left to wait at `now` with `free` failures allowed, if any.
    fn wait(&self, free: u32, now: i64) -> Option<i64> {
        if now - self.last >= WINDOW || self.failures < free {
            return None;
        }
        let wait = (1i64 << (self.failures - free).min(6)).min(MAX_WAIT);
        let left = self.last + wait - now;
        (left > 0).then_some(left)
    }
}

/// A table of at most [`MAX_KEYS`] keys; when full, stale keys go first, then the oldest.
struct Table<K> {
    map: HashMap<K, Count>,
}

impl<K: std::hash::Hash + Eq + Clone> Table<K> {
    fn new() -> Self {
        Table { map: HashMap::new() }
    }

    fn fail(&mut self, key: &K, now: i64) {
        if let Some(c) = self.map.get_mut(key) {
            if now - c.last >= WINDOW {
                c.failures = 0;
            }
            c.failures = c.failures.saturating_add(1);
            c.last = now;
            return;
        }
        if self.map.len() >= MAX_KEYS {
            self.map.retain(|_, c| now - c.last < WINDOW);
        }
        if self.map.len() >= MAX_KEYS {
            if let Some(oldest) = self.map.iter().min_by_key(|(_, c)| c.last).map(|(k, _)| k.clone()) {
                self.map.remove(&oldest);
            }
        }
        self.map.insert(key.clone(), Count { failures: 1, last: now });
    }

    fn wait(&self, key: &K, free: u32, now: i64) -> Option<i64> {
        self.map.get(key).and_then(|c| c.wait(free, now))
    }
}

struct Inner {
    accounts: Table<String>,
    addresses: Table<IpAddr>,
    /// Failures for an account from one address: what a known address is held to.
    pairs: Table<(String, IpAddr)>,
    /// (account key, address) → the last login from there.
    known: HashMap<(String, IpAddr), i64>,
}

/// The key of a client address: an IPv4 address itself, an IPv6 address its /64 network.
fn bucket(a: IpAddr) -> IpAddr {
    match a {
        IpAddr::V4(_) => a,
        IpAddr::V6(v6) => {
            let s = v6.segments();
            IpAddr::V6(std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
        }
    }
}

pub struct Limiter {
    inner: Mutex<Inner>,
}

impl Default for Limiter {
    fn default() -> Self {
        Limiter {
            inner: Mutex::new(Inner {
                accounts: Table::new(),
                addresses: Table::new(),
                pairs: Table::new(),
                known: HashMap::new(),
            }),
        }
    }
}

impl Limiter {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// `Err(seconds to wait)` when an attempt for `key` from `addr` must wait at `now`.
    pub fn check(&self, key: &str, addr: Option<IpAddr>, now: i64) -> Result<(), i64> {
        let inner = self.lock();
        if let Some(a) = addr.map(bucket) {
            if let Some(w) = inner.addresses.wait(&a, FREE_FAILURES_PER_ADDRESS, now) {
                return Err(w);
            }
            let pair = (key.to_string(), a);
            let known = inner.known.get(&pair).is_some_and(|&t| now - t < KNOWN_FOR);
            if known {
                return match inner.pairs.wait(&pair, FREE_FAILURES, now) {
                    Some(w) => Err(w),
                    None => Ok(()),
                };
            }
        }
        match inner.accounts.wait(&key.to_string(), FREE_FAILURES, now) {
            Some(w) => Err(w),
            None => Ok(()),
        }
    }

    /// Counts a wrong password (or an unknown name) for `key` from `addr`.
    pub fn fail(&self, key: &str, addr: Option<IpAddr>, now: i64) {
        let mut inner = self.lock();
        inner.accounts.fail(&key.to_string(), now);
        if let Some(a) = addr.map(bucket) {
            inner.addresses.fail(&a, now);
            inner.pairs.fail(&(key.to_string(), a), now);
        }
    }

    /// A right password: the account's own counts are cleared (never the address's) and
    /// the address is known for the account from now on.
    pub fn succeed(&self, key: &str, addr: Option<IpAddr>, now: i64) {
        let mut inner = self.lock();
        inner.accounts.map.remove(key);
        if let Some(a) = addr.map(bucket) {
            inner.pairs.map.remove(&(key.to_string(), a));
            if inner.known.len() >= MAX_KEYS {
                inner.known.retain(|_, t| now - *t < KNOWN_FOR);
            }
            if inner.known.len() >= MAX_KEYS {
                if let Some(k) = inner.known.iter().min_by_key(|(_, t)| **t).map(|(k, _)| k.clone()) {
                    inner.known.remove(&k);
                }
            }
            inner.known.insert((key.to_string(), a), now);
        }
    }

    /// How many keys the tables hold (accounts, addresses, known addresses).
    pub fn size(&self) -> (usize, usize, usize) {
        let inner = self.lock();
        (inner.accounts.map.len(), inner.addresses.map.len(), inner.known.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> Option<IpAddr> {
        Some(s.parse().unwrap())
    }

    #[test]
    fn failures_after_the_free_ones_wait_longer_and_longer() {
        let l = Limiter::default();
        let a = ip("10.0.0.1");
        for i in 0..FREE_FAILURES as i64 {
            assert!(l.check("ВИКА", a, 100 + i).is_ok());
            l.fail("ВИКА", a, 100 + i);
        }
        // The 5th failure at 104: the next attempt waits 1 s, then 2, 4 … up to 60.
        assert_eq!(l.check("ВИКА", a, 104), Err(1));
        assert!(l.check("ВИКА", a, 105).is_ok());
        l.fail("ВИКА", a, 105);
        assert_eq!(l.check("ВИКА", a, 105), Err(2));
        let mut t = 107;
        for _ in 0..10 {
            l.fail("ВИКА", a, t);
            t += 60;
        }
        assert_eq!(l.check("ВИКА", a, t - 60), Err(MAX_WAIT));
        assert!(l.check("БОРЯ", a, t - 60).is_ok(), "another account is not slowed");
        // Forgotten after the window.
        assert!(l.check("ВИКА", a, t - 60 + WINDOW).is_ok());
    }

    #[test]
    fn the_owner_logs_in_from_a_known_address_while_the_account_waits() {
        let l = Limiter::default();
        let (home, attacker) = (ip("10.0.0.1"), ip("10.6.6.6"));
        l.succeed("ВИКА", home, 10);
        for i in 0..20 {
            l.fail("ВИКА", attacker, 100 + i);
        }
        assert!(l.check("ВИКА", attacker, 120).is_err());
        assert!(l.check("ВИКА", ip("10.0.0.2"), 120).is_err(), "an unknown address waits");
        assert!(l.check("ВИКА", home, 120).is_ok(), "the owner's address passes");
        assert!(l.check("ВИКА", home, 10 + KNOWN_FOR).is_ok(), "the window has passed too");
    }

    #[test]
    fn an_address_guessing_many_names_waits() {
        let l = Limiter::default();
        let a = ip("10.6.6.6");
        for i in 0..FREE_FAILURES_PER_ADDRESS {
            l.fail(&format!("ИМЯ{i}"), a, 100);
        }
        assert_eq!(l.check("НОВОЕ", a, 100), Err(1));
        assert!(l.check("НОВОЕ", ip("10.0.0.1"), 100).is_ok());
    }

    #[test]
    fn the_tables_stay_bounded() {
        let l = Limiter::default();
        for i in 0..(MAX_KEYS as i64 + 500) {
            l.fail(&format!("ИМЯ{i}"), Some(IpAddr::from([10, (i >> 16) as u8, (i >> 8) as u8, i as u8])), i);
        }
        let (accounts, addresses, _) = l.size();
        assert!(accounts <= MAX_KEYS && addresses <= MAX_KEYS, "{accounts} {addresses}");
    }

    /// Issue 28, point 14: logging into one's own account between guesses at others does
    /// not clear the address's count.
    #[test]
    fn a_right_password_does_not_clear_the_addresss_count() {
        let l = Limiter::default();
        let a = ip("10.0.0.9");
        // 60 guesses sprayed over 30 accounts in one second, a right login to one's own
        // account after every 15 (the attack of issue 28): the address waits after 20.
        let t = 1000;
        let mut let_through = 0;
        for round in 0..4 {
            for k in 0..15 {
                let name = format!("ЖЕРТВА{}", (round * 15 + k) % 30);
                if l.check(&name, a, t).is_ok() {
                    let_through += 1;
                    l.fail(&name, a, t);
                }
            }
            l.succeed("СВОЙ", a, t);
        }
        assert_eq!(let_through, FREE_FAILURES_PER_ADDRESS);
        assert!(l.check("ЕЩЁ", a, t).is_err(), "20 sprayed guesses: the address waits whatever the own logins");
    }

    /// Issue 28, point 14: a known address gets the account's own allowance, not unlimited
    /// guesses.
    #[test]
    fn a_known_address_is_not_unlimited() {
        let l = Limiter::default();
        let home = ip("10.0.0.1");
        l.succeed("ВИКА", home, 10);
        for i in 0..FREE_FAILURES as i64 {
            assert!(l.check("ВИКА", home, 100 + i).is_ok());
            l.fail("ВИКА", home, 100 + i);
        }
        assert!(l.check("ВИКА", home, 100 + FREE_FAILURES as i64 - 1).is_err(), "the known address waits too");
        // The owner's right password there clears it.
        l.succeed("ВИКА", home, 200);
        assert!(l.check("ВИКА", home, 200).is_ok());
    }

    /// Issue 28, point 14: IPv6 addresses of one /64 are one client.
    #[test]
    fn ipv6_is_counted_by_its_64() {
        let l = Limiter::default();
        for i in 0..FREE_FAILURES_PER_ADDRESS {
            let a: IpAddr = format!("2001:db8:1:2::{:x}", i + 1).parse().unwrap();
            l.fail(&format!("ИМЯ{i}"), Some(a), 100);
        }
        assert!(l.check("ДРУГОЕ", ip("2001:db8:1:2:ffff::1"), 100).is_err());
        assert!(l.check("ДРУГОЕ", ip("2001:db8:1:3::1"), 100).is_ok(), "another /64 is another client");
    }
}

/// Sign-ups allowed per client address per hour.
pub const SIGNUPS_PER_HOUR: usize = 10;
/// Games one host may create in a day.
pub const GAMES_PER_DAY: usize = 30;
/// Games one host may have unfinished at once.
pub const OPEN_GAMES: usize = 10;

/// At most `max` events per key in any `per` seconds (sign-ups per address; `max` 0: no
/// limit); at most [`MAX_KEYS`] keys are kept.
pub struct Quota<K = IpAddr> {
    max: usize,
    per: i64,
    map: Mutex<HashMap<K, Vec<i64>>>,
}

impl<K: std::hash::Hash + Eq + Copy> Quota<K> {
    pub fn new(max: usize, per: i64) -> Quota<K> {
        Quota { max, per, map: Mutex::new(HashMap::new()) }
    }

    /// Takes one event for `key` at `now`, or `Err(seconds to wait)`.
    pub fn take(&self, key: K, now: i64) -> Result<(), i64> {
        if self.max == 0 {
            return Ok(());
        }
        let mut map = self.map.lock().unwrap_or_else(|p| p.into_inner());
        if map.len() >= MAX_KEYS && !map.contains_key(&key) {
            map.retain(|_, v| v.last().is_some_and(|t| now - t < self.per));
            if map.len() >= MAX_KEYS {
                if let Some(k) = map.iter().min_by_key(|(_, v)| v.last().copied()).map(|(k, _)| *k) {
                    map.remove(&k);
                }
            }
        }
        let v = map.entry(key).or_default();
        v.retain(|t| now - t < self.per);
        if v.len() >= self.max {
            return Err((v[0] + self.per - now).max(1));
        }
        v.push(now);
        Ok(())
    }
}

#[cfg(test)]
mod quota_tests {
    use super::*;

    #[test]
    fn ten_signups_an_hour_from_one_address() {
        let q = Quota::new(SIGNUPS_PER_HOUR, 3600);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        for i in 0..SIGNUPS_PER_HOUR as i64 {
            assert!(q.take(a, 100 + i).is_ok());
        }
        assert_eq!(q.take(a, 200), Err(3600 - 100));
        assert!(q.take("10.0.0.2".parse().unwrap(), 200).is_ok());
        assert!(q.take(a, 100 + 3600).is_ok());
    }
}

/// How fast an account may post (issue 28, point 11): a burst of `burst` posts, then one
/// more each `60 / per_minute` seconds, by the server's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pace {
    pub burst: u32,
    pub per_minute: u32,
}

/// A seated player or the host, with an account older than [`NEW_ACCOUNT`].
pub const PLAYER_PACE: Pace = Pace { burst: 10, per_minute: 20 };
/// A spectator, or a player with a new account.
pub const SPECTATOR_PACE: Pace = Pace { burst: 5, per_minute: 6 };
/// A spectator with a new account (the throwaway accounts of a flood).
pub const NEW_SPECTATOR_PACE: Pace = Pace { burst: 3, per_minute: 2 };
/// An account is new for this long after it was made, in seconds (an account made before
/// the server kept the time is not new).
pub const NEW_ACCOUNT: i64 = 24 * 3600;

/// The pace of a post: by the author's part in the game and the age of the account. The
/// host posts at a player's pace whatever the account's age.
pub fn pace(host: bool, spectator: bool, created_at: Option<i64>, now: i64) -> Pace {
    let new = !host && created_at.is_some_and(|t| now - t < NEW_ACCOUNT);
    match (spectator && !host, new) {
        (false, false) => PLAYER_PACE,
        (true, true) => NEW_SPECTATOR_PACE,
        _ => SPECTATOR_PACE,
    }
}

/// Each account's posts as a token bucket across all games, in sixtieths of a post (a
/// bucket fills by `per_minute` sixtieths a second); at most [`MAX_KEYS`] accounts are
/// kept (a full bucket is the same as none).
#[derive(Default)]
pub struct PostRate {
    map: Mutex<HashMap<i64, (i64, i64)>>,
}

impl PostRate {
    /// Takes one post of `user` at `now` at `pace`, or `Err(seconds until the next)`.
    pub fn take(&self, user: i64, pace: Pace, now: i64) -> Result<(), i64> {
        let (full, per_sec) = (i64::from(pace.burst) * 60, i64::from(pace.per_minute).max(1));
        let mut map = self.map.lock().unwrap_or_else(|p| p.into_inner());
        if map.len() >= MAX_KEYS && !map.contains_key(&user) {
            map.retain(|_, (tokens, at)| *tokens + (now - *at) * per_sec < full);
            if map.len() >= MAX_KEYS {
                if let Some(k) = map.iter().min_by_key(|(_, (_, at))| *at).map(|(k, _)| *k) {
                    map.remove(&k);
                }
            }
        }
        let (tokens, at) = map.entry(user).or_insert((full, now));
        let have = (*tokens + (now - *at).max(0) * per_sec).min(full);
        if have < 60 {
            return Err((60 - have + per_sec - 1) / per_sec);
        }
        *tokens = have - 60;
        *at = now.max(*at);
        Ok(())
    }
}

#[cfg(test)]
mod pace_tests {
    use super::*;

    /// Issue 28, point 11: a burst, then one post per refill; tighter for spectators and new
    /// accounts.
    #[test]
    fn posts_come_at_a_pace_by_part_and_age() {
        let r = PostRate::default();
        for _ in 0..PLAYER_PACE.burst {
            assert!(r.take(1, PLAYER_PACE, 100).is_ok());
        }
        assert_eq!(r.take(1, PLAYER_PACE, 100), Err(3), "20 a minute: one each 3 s");
        assert!(r.take(1, PLAYER_PACE, 103).is_ok());
        assert!(r.take(2, PLAYER_PACE, 100).is_ok(), "another account has its own");
        for _ in 0..NEW_SPECTATOR_PACE.burst {
            assert!(r.take(3, NEW_SPECTATOR_PACE, 100).is_ok());
        }
        assert_eq!(r.take(3, NEW_SPECTATOR_PACE, 100), Err(30));
        let day = NEW_ACCOUNT;
        assert_eq!(pace(false, true, Some(0), 10), NEW_SPECTATOR_PACE);
        assert_eq!(pace(false, true, Some(0), day), SPECTATOR_PACE);
        assert_eq!(pace(false, false, Some(0), 10), SPECTATOR_PACE, "a new account's player");
        assert_eq!(pace(false, false, None, 10), PLAYER_PACE, "an account from before");
        assert_eq!(pace(true, true, Some(0), 10), PLAYER_PACE, "the host");
    }
}

/// A wait in Russian: «12 с», «3 мин».
pub fn retry_in(wait: i64) -> String {
    let wait = wait.max(1);
    if wait < 120 {
        format!("{wait} с")
    } else {
        format!("{} мин", (wait + 59) / 60)
    }
}
