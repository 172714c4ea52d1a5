//! Players: a stable id, a seat (name, role, item) and the state during the game.

use crate::item::Held;
use crate::role::Role;

/// A player's stable identity: the index in the game file's `players` list.
///
/// The *list order* (the fixed newspaper order) may differ when the file asks to
/// shuffle it; see [`crate::State::list_order`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlayerId(pub u16);

impl PlayerId {
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// How a player died (the report's `death`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Death {
    Lynch,
    Night,
    Removed,
}

impl Death {
    pub const fn id(self) -> &'static str {
        match self {
            Death::Lynch => "lynch",
            Death::Night => "night",
            Death::Removed => "removed",
        }
    }
}

/// Once-per-game abilities, used up only when they take effect (R-ONCE-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Spent {
    pub witch_kill: bool,
    pub witch_cancel: bool,
    pub nurse_self_heal: bool,
    pub authority: bool,
}

/// A player during the game.
#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    pub name: String,
    /// The name's gender and forms, for the Russian text.
    pub speech: crate::ru::Speech,
    pub role: Role,
    /// A halfblood who became a werewolf (R-HALF-1).
    pub turned: bool,
    pub alive: bool,
    pub item: Option<Held>,
    pub died_on_day: Option<u32>,
    pub death: Option<Death>,
    pub spent: Spent,
    /// The role is public: revealed by death (unless a Solar eclipse hid it) or by the authority.
    pub role_public: bool,
}

impl Player {
    /// Kills with the pack: a werewolf, or a halfblood who has turned.
    pub const fn is_wolf(&self) -> bool {
        matches!(self.role, Role::Werewolf) || (matches!(self.role, Role::Halfblood) && self.turned)
    }

    /// What the seer sees: a werewolf or a turned halfblood.
    pub const fn looks_like_wolf(&self) -> bool {
        self.is_wolf()
    }
}
