//! The server's use cases, one function each, over typed input: what every front-end
//! calls — the JSON API ([`crate::routes`]), the web pages ([`crate::web`]), and the
//! Telegram bot and the seat bots. A front-end parses its request into these types,
//! calls the service, and renders what it returns; the checks, the commit and the
//! idempotency of a request are here, once.
//!
//! - [`lobby`]: create a game, join it, start it;
//! - [`orders`]: a player's order;
//! - [`host`]: the host's powers ([`HostAction`]);
//! - [`talk`]: a post to the thread or the pack's chat, the host's flag;
//! - [`desk`]: the host's board and the preview of the open day resolved now;
//! - [`balance`]: the simulator's estimate for a game's settings, bounded and cached;
//! - [`records`]: players' records and the setups against reality, from stored results;
//! - [`sightings`]: where seats' accounts come from, for the host (issue 30, point 5).
//! - [`notify`]: linking a Telegram chat, the reminder setting;
//! - [`bots`]: seat bots: seated by the host, playing and speaking through the services above;
//! - [`demo`]: the practice server's guests and their games (`ostrov demo`).
//!
//! A service that changes a game answers once the change is durable. Where the caller
//! shows the game afterwards it passes `show`, called on the game as it stands right
//! after the change (under the game's lock), so what it renders is what the change made.

pub mod balance;
mod bot_talk;
pub mod bots;
pub mod demo;
pub mod desk;
pub mod host;
pub mod lobby;
mod locking;
pub mod mail;
pub mod notify;
pub mod orders;
pub mod records;
pub mod requests;
pub mod sightings;
pub mod talk;

pub use host::{host_action, HostAction, HostDone};
pub use lobby::{by_invite, create_game, join, start, Created};
pub use locking::{client_request, locked, paper_key, reach, reach_papers, request_id};
pub use orders::{send_order, OrderAccepted, OrderRequest, MAX_ORDERS_PER_DAY};
pub use talk::{flag, post, Anchor, Flag};
