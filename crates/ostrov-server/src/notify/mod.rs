//! Notifications (issue 31): the notices derived from the games' logs ([`derive`]), kept in
//! the store's outbox and sent by the node that holds the scheduler's lease ([`outbox`]),
//! through the Telegram bot ([`crate::telegram`]).
//!
//! Delivery is at least once, with the window for a double as small as the protocol
//! allows (docs/RULINGS.md, O-NOTIFY-1): a notice is claimed (`sending`) before it is
//! sent and marked `sent` as soon as Telegram answers. A sender that dies between
//! Telegram's acceptance and the mark (milliseconds) leaves a notice that is sent again;
//! any other failure — a refused or lost request, a 429, an outage, a restart, a SIGKILL,
//! a change of lease holder — neither loses nor doubles one. Telegram's `sendMessage` has
//! no idempotency key, so nothing can close that last window; losing a reminder is worse
//! for a player than reading one twice.

pub mod derive;
pub mod outbox;

use std::sync::Arc;

/// How this server notifies: set before it starts serving.
#[derive(Clone, Default)]
pub struct Settings {
    /// The address players use (`--public-url`), for the link to a game's page.
    pub site: Option<String>,
    /// The Telegram bot, when `OSTROV_TELEGRAM_TOKEN` is set.
    pub telegram: Option<Arc<crate::telegram::Bot>>,
    /// How often the notifier looks for new notices and sends them (milliseconds; 0: the
    /// default, a second).
    pub tick_ms: u64,
    /// How long a `getUpdates` waits for an update (seconds; 0: the default, 25).
    pub poll_secs: u64,
}

impl Settings {
    /// Whether any channel is on: without one, no notice is derived.
    pub fn any(&self) -> bool {
        self.telegram.is_some()
    }
}
