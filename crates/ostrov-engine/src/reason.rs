//! Why a vote does not count as sent (R-VOTE-2): the engine decides the reason, the
//! Russian sentence that says it is written in [`crate::ru::say`].

use crate::item::Item;

/// Why a vote is blocked (R-VOTE-2): it stays on its owner (on Fear it does not exist).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Blocked {
    /// The maniac assaulted the voter the night before.
    Assaulted,
    /// The host flagged a violation (poison thorn, Palms bloom, talking while silenced).
    Penalty,
    /// A shocker was used on the voter today.
    Shocked,
}

/// Why a vote for a target is void (R-VOTE-2): it breaks an item's rule and stays on its
/// owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Void {
    /// A love note binds its sender and its target: neither votes against the other.
    LoveNote,
    /// The totem's holder voted as neither living neighbour sent (R-ITEM-6).
    Totem,
    /// The handcuffs' holder voted against a living neighbour.
    Handcuffs,
}

impl Void {
    /// The item whose rule the vote breaks.
    pub const fn item(self) -> Item {
        match self {
            Void::LoveNote => Item::LoveNote,
            Void::Totem => Item::Totem,
            Void::Handcuffs => Item::Handcuffs,
        }
    }
}
