//! Items (Вещи), RULES.md §2.

use crate::name::vocabulary;

vocabulary! {
    /// An item. Every player holds at most one.
    Item, "item" {
        Trap = "trap", "Капкан";
        PoisonThorn = "poison_thorn", "Ядовитый шип", "шип";
        Totem = "totem", "Тотем безволия", "тотем";
        Handcuffs = "handcuffs", "Наручники";
        Bomb = "bomb", "Бомба";
        BlackGlasses = "black_glasses", "Чёрные очки", "Черные очки", "очки";
        Fang = "fang", "Клык оборотня", "клык";
        Megaphone = "megaphone", "Рупор";
        SheepSkin = "sheep_skin", "Овечья шкура", "шкура";
        MoonFern = "moon_fern", "Лунный папоротник", "папоротник";
        CamoRobe = "camo_robe", "Маскхалат";
        Shocker = "shocker", "Шокер";
        LoveNote = "love_note", "Любовная записка", "записка";
        Voodoo = "voodoo", "Кукла вуду", "вуду";
    }
}

/// How an item works (RULES.md §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemKind {
    /// Public from the start, always on.
    Passive,
    /// Secret; triggers by itself when its holder would suffer the effect, then is spent.
    Automatic,
    /// Secret; used by its holder with a `use` order, then is spent.
    Used,
}

impl Item {
    /// The Russian name in the accusative («применяет Любовную записку»).
    pub const fn ru_acc(self) -> &'static str {
        match self {
            Item::Bomb => "Бомбу",
            Item::SheepSkin => "Овечью шкуру",
            Item::LoveNote => "Любовную записку",
            Item::Voodoo => "Куклу вуду",
            other => other.ru(),
        }
    }

    /// Whether the item is passive, automatic or used by order.
    pub const fn kind(self) -> ItemKind {
        match self {
            Item::Trap
            | Item::PoisonThorn
            | Item::Totem
            | Item::Handcuffs
            | Item::Bomb
            | Item::BlackGlasses
            | Item::Fang
            | Item::Megaphone => ItemKind::Passive,
            Item::SheepSkin | Item::MoonFern | Item::CamoRobe => ItemKind::Automatic,
            Item::Shocker | Item::LoveNote | Item::Voodoo => ItemKind::Used,
        }
    }

    /// Passive items are public: the newspaper shows them next to the holder.
    pub const fn is_passive(self) -> bool {
        matches!(self.kind(), ItemKind::Passive)
    }

    /// Activated items (automatic or used) work once and are then spent until recharged.
    pub const fn is_activated(self) -> bool {
        !self.is_passive()
    }

    /// Harmful items (вредные) as opposed to useful ones.
    pub const fn is_harmful(self) -> bool {
        matches!(self, Item::Trap | Item::PoisonThorn | Item::Totem | Item::Handcuffs | Item::Bomb)
    }

    /// Parses an item id, a Russian alias, or `none` (no item).
    pub fn parse_slot(s: &str) -> Result<Option<Item>, crate::error::UnknownWord> {
        let f = crate::name::fold_id(s);
        if matches!(f.as_str(), "none" | "нет" | "ничего" | "") {
            return Ok(None);
        }
        s.parse().map(Some)
    }
}

/// An item in a player's hands: the item and whether it is charged.
///
/// Passive items are always charged; an activated item is spent after it works.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Held {
    pub item: Item,
    pub charged: bool,
}

impl Held {
    /// A fresh, charged item.
    pub const fn new(item: Item) -> Held {
        Held { item, charged: true }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fourteen_items_with_their_kinds() {
        assert_eq!(Item::ALL.len(), 14);
        assert_eq!(Item::ALL.iter().filter(|i| i.is_passive()).count(), 8);
        assert_eq!(Item::Shocker.kind(), ItemKind::Used);
        assert_eq!(Item::MoonFern.kind(), ItemKind::Automatic);
    }

    #[test]
    fn none_is_a_valid_item_slot() {
        // R-DECK-1: `none` is a valid item.
        assert_eq!(Item::parse_slot("none").unwrap(), None);
        assert_eq!(Item::parse_slot("Чёрные очки").unwrap(), Some(Item::BlackGlasses));
        assert!(Item::parse_slot("меч").is_err());
    }
}
