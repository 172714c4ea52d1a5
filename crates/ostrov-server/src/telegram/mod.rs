//! The Telegram bot (issue 31): its client of the Bot API ([`api`]) and what it keeps per
//! chat; its conversation is [`crate::chat`]. A front-end beside `routes/` and `web/`: it links a chat
//! to an account (`/start <code>`, `/stop`), sends the notices of the outbox
//! ([`crate::notify`]), and takes orders (`/vote`, `/night`) through the same service as
//! the pages ([`crate::service::send_order`]), with the same Russian refusals.
//!
//! It speaks to Telegram's Bot API ([`api`]) with long polling: only the node holding the
//! scheduler's lease polls, as Telegram allows one `getUpdates` per bot. Every message is
//! plain text (no parse mode), so nothing a player wrote is read as markup.

pub mod api;

use std::collections::HashMap;
use std::time::Duration;

use serde_json::{json, Value};

use api::{Api, ApiFailure};

/// Messages (commands and button presses) one chat may send in a minute.
pub const CHAT_MESSAGES_PER_MINUTE: usize = 20;

/// The longest message the bot reads (characters); a longer one is refused.
pub const MAX_MESSAGE: usize = 500;

/// Chats whose unfinished choice (which game) the bot remembers.
const MAX_PENDING: usize = 10_000;

/// A command waiting for the player to pick a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pending {
    /// `vote` or `night`.
    pub what: &'static str,
    /// The name given, if any.
    pub target: Option<String>,
}

/// The bot: its API client, its name, and what it keeps per chat.
pub struct Bot {
    pub api: Api,
    username: tokio::sync::OnceCell<String>,
    /// Messages per chat.
    pub chats: crate::ratelimit::Quota<i64>,
    /// Commands waiting for a game to be picked, by chat.
    pub pending: std::sync::Mutex<HashMap<i64, Pending>>,
    /// Chats already told they send too much this minute.
    pub warned: std::sync::Mutex<HashMap<i64, i64>>,
}

impl Bot {
    pub fn new(api: Api) -> Bot {
        Bot {
            api,
            username: tokio::sync::OnceCell::new(),
            chats: crate::ratelimit::Quota::new(CHAT_MESSAGES_PER_MINUTE, 60),
            pending: Default::default(),
            warned: Default::default(),
        }
    }

    /// The bot's user name (`getMe`, asked once).
    pub async fn username(&self) -> Result<String, ApiFailure> {
        self.username
            .get_or_try_init(|| async {
                let me = self.api.call("getMe", &json!({}), Duration::from_secs(15)).await?;
                me["username"]
                    .as_str()
                    .map(str::to_string)
                    .ok_or_else(|| ApiFailure::Unreachable("getMe: no username".into()))
            })
            .await
            .cloned()
    }

    /// Sends `text` (plain) to `chat`, with buttons (`reply_markup`) if given.
    pub async fn send(&self, chat: i64, text: &str, keyboard: Option<Value>) -> Result<Value, ApiFailure> {
        let mut body = json!({
            "chat_id": chat,
            "text": cut(text, 4000),
            "link_preview_options": {"is_disabled": true},
        });
        if let Some(k) = keyboard {
            body["reply_markup"] = k;
        }
        self.api.call("sendMessage", &body, Duration::from_secs(20)).await
    }

    /// Remembers a command waiting for a game (the oldest forgotten past the bound).
    pub fn wait_for_game(&self, chat: i64, p: Pending) {
        let mut m = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        if m.len() >= MAX_PENDING && !m.contains_key(&chat) {
            m.clear();
        }
        m.insert(chat, p);
    }
}

/// An inline keyboard of `(label, data)` buttons, one a row.
pub fn keyboard(buttons: &[(String, String)]) -> Value {
    let rows: Vec<Value> = buttons.iter().map(|(t, d)| json!([{"text": t, "callback_data": d}])).collect();
    json!({ "inline_keyboard": rows })
}

/// `s` cut to `max` characters (with «…»).
pub fn cut(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max - 1).collect();
    out.push('…');
    out
}
