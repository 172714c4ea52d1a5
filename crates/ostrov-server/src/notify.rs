//! Notifications (issue 31): the notices derived from the games' logs
//! ([`crate::outbox::derive`]), kept in the store's outbox and sent by the node that holds
//! the scheduler's lease ([`crate::outbox`]), through the Telegram bot ([`crate::telegram`],
//! its conversation in [`crate::chat`]). This file holds what the server's state keeps of
//! them (it imports nothing of the server's above it).
//!
//! Delivery is at least once, with the window for a double as small as the protocol
//! allows (docs/RULINGS.md, O-NOTIFY-1): a notice is claimed (`sending`) before it is
//! sent and marked `sent` as soon as Telegram answers. A sender that dies between
//! Telegram's acceptance and the mark (milliseconds) leaves a notice that is sent again;
//! any other failure — a refused or lost request, a 429, an outage, a restart, a SIGKILL,
//! a change of lease holder — neither loses nor doubles one. Telegram's `sendMessage` has
//! no idempotency key, so nothing can close that last window; losing a reminder is worse
//! for a player than reading one twice.

use std::collections::HashMap;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

/// The reminder's default, in hours before the deadline (O-NOTIFY-2).
pub const DEFAULT_REMIND_HOURS: i64 = 2;

/// The reminder settings an account may choose (0: off).
pub const REMIND_CHOICES: [i64; 4] = [0, 1, 2, 6];

/// How long a Telegram link code works (seconds).
pub const CODE_SECS: i64 = 15 * 60;

/// Link codes one account may ask for in an hour.
pub const CODES_PER_HOUR: usize = 10;

pub use crate::telegram::cut;

/// What the notifier remembers between its ticks (see [`crate::outbox`]).
#[derive(Default)]
pub struct Notifier {
    /// How far each game's log was read for notices, as this node knows it.
    pub(crate) read: std::sync::Mutex<HashMap<i64, i64>>,
    /// Reminders already put in the outbox: (game, day, account).
    pub(crate) reminded: std::sync::Mutex<std::collections::HashSet<(i64, u32, i64)>>,
    /// Accounts' reminder settings read this tick (hours; 0: off).
    pub(crate) hours: std::sync::Mutex<HashMap<i64, i64>>,
    /// When each chat was last sent a message (milliseconds, wall clock): one a second.
    pub(crate) last_sent: std::sync::Mutex<HashMap<i64, u128>>,
    /// Until when Telegram asked everyone to wait (wall clock seconds).
    pub(crate) hold_until: std::sync::atomic::AtomicI64,
    /// This process's claims: unique across nodes and restarts.
    pub(crate) node: String,
    pub(crate) claims: AtomicU64,
    /// Whether this node still has to give back the claims a previous run of it left.
    pub(crate) released: std::sync::atomic::AtomicBool,
}

impl Notifier {
    pub fn new() -> Notifier {
        let mut b = [0u8; 8];
        rand_core::RngCore::fill_bytes(&mut rand_core::OsRng, &mut b);
        Notifier { node: crate::hex::hex(&b), ..Default::default() }
    }
}

/// How this server notifies: set before it starts serving.
#[derive(Clone, Default)]
pub struct Settings {
    /// The address players use (`--public-url`), for the link to a game's page.
    pub site: Option<String>,
    /// The Telegram bot, when `OSTROV_TELEGRAM_TOKEN` is set.
    pub telegram: Option<Arc<crate::telegram::Bot>>,
    /// E-mail, when `--smtp` is given.
    pub mail: Option<Arc<crate::mail::Mailer>>,
    /// How often the notifier looks for new notices and sends them (milliseconds; 0: the
    /// default, a second).
    pub tick_ms: u64,
    /// How long a `getUpdates` waits for an update (seconds; 0: the default, 25).
    pub poll_secs: u64,
}

impl Settings {
    /// Whether any channel is on: without one, no notice is derived.
    pub fn any(&self) -> bool {
        self.telegram.is_some() || self.mail.is_some()
    }

    /// The notices `notices` once per channel that is on: as they are for Telegram, and
    /// as mail rows (`mail:<kind>`) for e-mail.
    pub fn per_channel(&self, notices: Vec<ostrov_store::NewNotice>) -> Vec<ostrov_store::NewNotice> {
        let mut out = Vec::with_capacity(notices.len() * 2);
        for n in notices {
            if self.mail.is_some() {
                out.push(ostrov_store::NewNotice { kind: format!("{}{}", crate::mail::PREFIX, n.kind), ..n.clone() });
            }
            if self.telegram.is_some() {
                out.push(n);
            }
        }
        out
    }
}
