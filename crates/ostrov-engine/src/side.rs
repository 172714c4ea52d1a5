//! The three sides of the island.

use crate::name::vocabulary;

vocabulary! {
    /// A side: who a role wins with (RULES.md §1).
    Side, "side" {
        Civilians = "civilians", "Мирные", "мирные жители";
        Werewolves = "werewolves", "Оборотни", "мафия";
        Hamster = "hamster", "Хомяк-Мутант", "одиночка";
    }
}
