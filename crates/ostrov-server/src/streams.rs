//! The live streams open (`GET /games/{id}/live`, issue 28, point 13): each holds a
//! connection and a descriptor for as long as the page is open, so one account, one
//! address and the whole server each hold a bounded number. Past a cap the stream is
//! refused with a 429 in Russian; a page without its stream still works (it is reloaded
//! by hand).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use crate::error::ApiError;

/// Live streams one account may hold open (a few tabs of a few games).
pub const STREAMS_PER_ACCOUNT: usize = 8;
/// Live streams one client address may hold open (a household or an office behind one
/// address); an IPv6 address counts by its /64.
pub const STREAMS_PER_ADDRESS: usize = 64;

#[derive(Default)]
struct Open {
    total: usize,
    by_account: HashMap<i64, usize>,
    by_address: HashMap<IpAddr, usize>,
}

/// The open streams, by account and address.
#[derive(Clone, Default)]
pub struct Streams {
    open: Arc<Mutex<Open>>,
}

/// An open stream's place; given back when the stream ends (its client left).
pub struct Stream {
    open: Arc<Mutex<Open>>,
    account: i64,
    address: Option<IpAddr>,
}

fn less<K: std::hash::Hash + Eq>(m: &mut HashMap<K, usize>, k: &K) {
    if let Some(n) = m.get_mut(k) {
        *n -= 1;
        if *n == 0 {
            m.remove(k);
        }
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        let mut o = self.open.lock().unwrap_or_else(|p| p.into_inner());
        o.total -= 1;
        less(&mut o.by_account, &self.account);
        if let Some(a) = &self.address {
            less(&mut o.by_address, a);
        }
    }
}

impl Streams {
    /// A place for a stream of `account` from `address` (`None`: in-process, or behind a
    /// proxy that did not say), at most `total` in all; `TooMany` in Russian past a cap.
    pub fn open(&self, account: i64, address: Option<IpAddr>, total: usize) -> Result<Stream, ApiError> {
        let mut o = self.open.lock().unwrap_or_else(|p| p.into_inner());
        let full = |m: &str| Err(ApiError::TooMany(m.to_string(), 30));
        if o.by_account.get(&account).copied().unwrap_or(0) >= STREAMS_PER_ACCOUNT {
            return full(
                "Слишком много открытых страниц с живыми обновлениями: закройте лишние вкладки \
                 (обновления приходят не больше чем в восемь сразу).",
            );
        }
        let address = address.map(crate::net::bucket);
        if let Some(a) = &address {
            if o.by_address.get(a).copied().unwrap_or(0) >= STREAMS_PER_ADDRESS {
                return full("С вашего адреса открыто слишком много живых обновлений: закройте лишние вкладки.");
            }
        }
        if o.total >= total {
            return full("Сервер сейчас держит слишком много живых обновлений: обновите страницу чуть позже.");
        }
        o.total += 1;
        *o.by_account.entry(account).or_default() += 1;
        if let Some(a) = address {
            *o.by_address.entry(a).or_default() += 1;
        }
        Ok(Stream { open: self.open.clone(), account, address })
    }

    /// How many streams are open.
    pub fn count(&self) -> usize {
        self.open.lock().unwrap_or_else(|p| p.into_inner()).total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 28, point 13.
    #[test]
    fn streams_are_capped_per_account_per_address_and_in_all() {
        let s = Streams::default();
        let a: Option<IpAddr> = Some("10.0.0.1".parse().unwrap());
        let mine: Vec<Stream> = (0..STREAMS_PER_ACCOUNT).map(|_| s.open(1, a, 1000).unwrap()).collect();
        let e = s.open(1, a, 1000).err().unwrap();
        assert_eq!(e.status().as_u16(), 429);
        assert!(e.message().contains("закройте лишние вкладки"), "{}", e.message());
        drop(mine);
        assert_eq!(s.count(), 0, "a stream that ends gives its place back");
        let many: Vec<Stream> = (0..STREAMS_PER_ADDRESS as i64).map(|u| s.open(u, a, 1000).unwrap()).collect();
        assert!(s.open(999, a, 1000).is_err(), "the address is full");
        assert!(s.open(999, Some("10.0.0.2".parse().unwrap()), 1000).is_ok());
        assert!(s.open(998, None, STREAMS_PER_ADDRESS).is_err(), "the server is full");
        drop(many);
    }
}
