//! One player, one account (issue 30, point 5): the rules forbid playing two seats and
//! sharing one. While a game runs, every request a seat's account makes to it (a page, the
//! API, an order, a post) notes where it came from: its address prefix (an IPv6 address by
//! its /64; behind `--trust-proxy` the proxy's `X-Forwarded-For`, [`crate::harden`]) and its
//! browser (a long-lived random id in the [`BROWSER_COOKIE`], set at the first page).
//! Only a keyed hash of each is kept (BLAKE2s keyed with the server's secret, which lives
//! in the store), at most [`MAX_SIGHTINGS`] per account, kind and game, and all of a game's
//! are forgotten when it ends. The host is told only that two seats share one and since
//! when ([`SharedAccess`]); nobody is ever told the address, the id or the hash. The
//! requests are noted and the warnings read by [`crate::service::sightings`].

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;

use serde::Serialize;

use crate::game::GameState;

/// The cookie of a browser's random id (HttpOnly, SameSite=Lax, 400 days).
pub const BROWSER_COOKIE: &str = "ostrov_browser";
/// The browser cookie's life, in seconds (400 days, what browsers allow at most).
pub const BROWSER_COOKIE_SECS: i64 = 400 * 24 * 3600;
/// The most address prefixes (and, apart, browsers) kept per account and game: an account
/// that comes from more than this adds no more (its first ones stay).
pub const MAX_SIGHTINGS: i64 = 32;
/// The most warnings the host's view lists.
pub const MAX_WARNINGS: usize = 200;
/// How long one sighting is not written again (its `last_at` then moves).
const REWRITE_SECS: i64 = 600;
/// The most sightings remembered as written, before that memory is cleared.
const REMEMBERED: usize = 100_000;

tokio::task_local! {
    /// The client of the request being answered (set by [`crate::harden::layer`]).
    pub static CLIENT: Client;
}

/// Where a request comes from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Client {
    pub addr: Option<IpAddr>,
    /// The browser's id (32 hex digits), from its cookie.
    pub browser: Option<String>,
}

/// Whether `s` is a browser id as the server makes them.
pub fn is_browser_id(s: &str) -> bool {
    s.len() == 32 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// A new browser id.
pub fn new_browser_id() -> String {
    use argon2::password_hash::rand_core::{OsRng, RngCore};
    let mut b = [0u8; 16];
    OsRng.fill_bytes(&mut b);
    crate::hex::hex(&b)
}

/// A new server secret.
pub fn new_secret() -> String {
    use argon2::password_hash::rand_core::{OsRng, RngCore};
    let mut b = [0u8; 32];
    OsRng.fill_bytes(&mut b);
    crate::hex::hex(&b)
}

/// How two seats share: one address prefix or one browser.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Shared {
    Address,
    Browser,
}

impl Shared {
    pub fn id(self) -> &'static str {
        match self {
            Shared::Address => "address",
            Shared::Browser => "browser",
        }
    }

    fn of(id: &str) -> Option<Shared> {
        match id {
            "address" => Some(Shared::Address),
            "browser" => Some(Shared::Browser),
            _ => None,
        }
    }
}

/// A warning for the host: two seats came from one address prefix or one browser while
/// the game ran. Neither the address nor the browser, nor their hash, is in it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SharedAccess {
    /// The two seats' names, in the list's order.
    pub seats: [String; 2],
    pub kind: Shared,
    /// When the second of them first came from it (RFC 3339, the game's zone).
    pub since: String,
    /// «Аня и Боря заходили с одного адреса (2 декабря, 14:21)».
    pub text: String,
}

/// The server's key, what this node has written lately, and the writes under way.
pub struct Sightings {
    secret: String,
    written: Mutex<HashMap<(i64, i64, Shared, String), i64>>,
    /// Writes made apart from their requests and not finished yet: the host's reading
    /// waits for them, so that it sees every visit answered before it.
    in_flight: std::sync::atomic::AtomicUsize,
    settled: tokio::sync::Notify,
}

impl Sightings {
    pub fn new(secret: String) -> Sightings {
        Sightings {
            secret,
            written: Mutex::new(HashMap::new()),
            in_flight: Default::default(),
            settled: tokio::sync::Notify::new(),
        }
    }

    /// A write starts apart from its request.
    pub(crate) fn begin(&self) {
        self.in_flight.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }

    /// A write begun by [`Sightings::begin`] is over.
    pub(crate) fn end(&self) {
        self.in_flight.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
        self.settled.notify_waiters();
    }

    /// Waits (at most 2 s) until no write begun before is under way.
    pub(crate) async fn settle(&self) {
        let until = tokio::time::Instant::now() + std::time::Duration::from_secs(2);
        loop {
            let notified = self.settled.notified();
            if self.in_flight.load(std::sync::atomic::Ordering::SeqCst) == 0 {
                return;
            }
            if tokio::time::timeout_at(until, notified).await.is_err() {
                return;
            }
        }
    }

    /// The token a node puts on a request it forwards to another (crate::forward): a keyed
    /// hash with the server's secret, which only the nodes know.
    pub(crate) fn node_token(&self) -> String {
        use blake2::{Blake2s256, Digest};
        let mut h = Blake2s256::new();
        h.update(b"ostrov-node-forward\0");
        h.update(self.secret.as_bytes());
        crate::hex::hex(&h.finalize()[..16])
    }

    /// The keyed hash of `value` of kind `kind`.
    pub(crate) fn key(&self, kind: Shared, value: &str) -> String {
        use blake2::{Blake2s256, Digest};
        let mut h = Blake2s256::new();
        h.update(b"ostrov-sighting\0");
        h.update(self.secret.as_bytes());
        h.update([0]);
        h.update(kind.id().as_bytes());
        h.update([0]);
        h.update(value.as_bytes());
        crate::hex::hex(&h.finalize()[..16])
    }

    /// Whether the sighting is due to be written at `now` (not written in the last
    /// [`REWRITE_SECS`] by this node); remembers it as written.
    pub(crate) fn due(&self, k: (i64, i64, Shared, String), now: i64) -> bool {
        let mut w = self.written.lock().unwrap_or_else(|p| p.into_inner());
        if w.get(&k).is_some_and(|t| (now - t).abs() < REWRITE_SECS) {
            return false;
        }
        if w.len() >= REMEMBERED {
            w.clear();
        }
        w.insert(k, now);
        true
    }
}

/// The host's warnings of game `live` from its sightings `rows`: every two seats (held by
/// their accounts now) that came from one address prefix or one browser, the latest first
/// (read by [`crate::service::sightings::shared`]).
pub fn warnings(live: &GameState, rows: &[ostrov_store::Sighting]) -> Vec<SharedAccess> {
    // By kind and key: each seat (index) and when it first came from there.
    let mut groups: HashMap<(Shared, &str), Vec<(usize, i64)>> = HashMap::new();
    for r in rows {
        let (Some(kind), Some(seat)) = (Shared::of(&r.kind), live.seat_of(r.user_id)) else { continue };
        let g = groups.entry((kind, r.key.as_str())).or_default();
        match g.iter_mut().find(|(s, _)| *s == seat.index()) {
            Some((_, at)) => *at = (*at).min(r.first_at),
            None => g.push((seat.index(), r.first_at)),
        }
    }
    // Each pair and kind once, at the earliest time they shared.
    let mut pairs: HashMap<(usize, usize, Shared), i64> = HashMap::new();
    for ((kind, _), seats) in &groups {
        for (i, (a, at_a)) in seats.iter().enumerate() {
            for (b, at_b) in &seats[i + 1..] {
                let (x, y) = if a < b { (*a, *b) } else { (*b, *a) };
                let at = (*at_a).max(*at_b);
                pairs.entry((x, y, *kind)).and_modify(|t| *t = (*t).min(at)).or_insert(at);
            }
        }
    }
    let order = |i: usize| {
        let name = &live.members[i].name;
        let pos = live.m.as_ref().and_then(|m| {
            let p = m.find(name)?;
            m.state().list_order().iter().position(|q| *q == p)
        });
        (pos.unwrap_or(i), name.clone())
    };
    let mut out: Vec<(i64, SharedAccess)> = pairs
        .into_iter()
        .map(|((a, b, kind), at)| {
            let (mut first, mut second) = (order(a), order(b));
            if second < first {
                std::mem::swap(&mut first, &mut second);
            }
            let how = match kind {
                Shared::Address => "с одного адреса",
                Shared::Browser => "из одного браузера",
            };
            let text = format!("{} и {} заходили {how} ({})", first.1, second.1, live.times.dated(at));
            (at, SharedAccess { seats: [first.1, second.1], kind, since: live.times.show(at), text })
        })
        .collect();
    out.sort_by(|x, y| y.0.cmp(&x.0).then_with(|| x.1.text.cmp(&y.1.text)));
    out.into_iter().take(MAX_WARNINGS).map(|(_, w)| w).collect()
}
