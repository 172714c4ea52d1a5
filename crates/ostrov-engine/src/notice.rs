//! Private messages: what one player is told and nobody else (R-ITEM-2, the seer's results).

use crate::item::Held;
use crate::player::PlayerId;
use crate::role::{CheckResult, Role};

/// How an item came into a player's hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemSource {
    Dealt,
    Tsunami,
    Bunker,
    Exchange,
    Swap,
}

impl ItemSource {
    pub const fn id(self) -> &'static str {
        match self {
            ItemSource::Dealt => "dealt",
            ItemSource::Tsunami => "tsunami",
            ItemSource::Bunker => "bunker",
            ItemSource::Exchange => "exchange",
            ItemSource::Swap => "swap",
        }
    }
}

/// What a private message says.
#[derive(Clone, Debug, PartialEq)]
pub enum NoticeKind {
    /// The role dealt at the start.
    Role(Role),
    /// The pack: werewolves and halfbloods know each other (R-SIDE-2). One list shared by
    /// every packmate's notice.
    Pack(std::sync::Arc<[PlayerId]>),
    /// An item received (or `None`: left with no item).
    Item { item: Option<Held>, source: ItemSource },
    /// The own item was recharged.
    Recharged(Held),
    /// A seer's result.
    Check { target: PlayerId, result: CheckResult },
    /// A halfblood became a werewolf.
    Turned,
    /// The Spirit's answer, for the one who asked.
    Answer(bool),
    /// Visited by the maniac last night: no vote and no word today.
    Assaulted,
}

/// A private message to one player, on a day (0 = before day 1).
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub day: u32,
    pub to: PlayerId,
    pub kind: NoticeKind,
}
