//! Roles (Персонажи), RULES.md §1.

use crate::act::Act;
use crate::name::vocabulary;
use crate::side::Side;

vocabulary! {
    /// A role, dealt with an item at the start of the game.
    Role, "role" {
        Passenger = "passenger", "Пассажир", "мирный", "пассажирка", "пассажира", "пассажиры", "пассажиров", "мирная", "мирные", "мирных";
        Seer = "seer", "Ясновидящий", "провидец", "комиссар", "Ясновидящая", "ясновидящего", "ясновидящую", "провидица";
        Nurse = "nurse", "Медсестра", "доктор", "врач", "медсестру", "медсестры", "медбрат", "медбрата";
        Untouchable = "untouchable", "Неприкасаемый", "Неприкасаемая", "неприкасаемого", "неприкасаемую";
        Authority = "authority", "Авторитет", "авторитета";
        Witch = "witch", "Колдунья", "ведьма", "колдунью", "колдуньи", "колдун", "колдуна", "ведьму";
        Sleepwalker = "sleepwalker", "Лунатик", "лунатичка", "лунатика", "лунатичку";
        Maniac = "maniac", "Сексманьяк", "Секс-маньяк", "маньяк", "сексманьяка", "маньяка";
        Werewolf = "werewolf", "Оборотень", "оборотня", "оборотни", "оборотней", "оборотница";
        Halfblood = "halfblood", "Полукровка", "полукровку", "полукровки", "полукровок";
        Hamster = "hamster", "Хомяк-Мутант", "Хомяк", "мутант", "хомяка", "хомяка-мутанта";
    }
}

impl Role {
    /// The side the role plays for (R-SIDE-1: the maniac is a civilian).
    pub const fn side(self) -> Side {
        match self {
            Role::Werewolf | Role::Halfblood => Side::Werewolves,
            Role::Hamster => Side::Hamster,
            _ => Side::Civilians,
        }
    }

    /// Whether the role's night order may be this act (checked when an order is sent).
    pub const fn has_night_act(self, act: Act) -> bool {
        matches!(
            (self, act),
            (Role::Seer, Act::Check)
                | (Role::Nurse, Act::Heal)
                | (Role::Witch, Act::Kill)
                | (Role::Witch, Act::Cancel)
                | (Role::Sleepwalker, Act::Swap)
                | (Role::Sleepwalker, Act::Recharge)
                | (Role::Maniac, Act::Assault)
                | (Role::Werewolf, Act::Kill)
                | (Role::Halfblood, Act::Kill)
                | (Role::Hamster, Act::Kill)
        )
    }

    /// The role's name for a man and for a woman (issue 29, point 3), the one table every
    /// output takes a role's name from (through [`crate::ru::role`]); docs/RUSSIAN.md
    /// prints it. Where Russian has no second form both are the same. A player whose
    /// gender is unknown gets the role's own name, [`Role::ru`].
    pub const fn ru_genders(self) -> [&'static str; 2] {
        match self {
            Role::Passenger => ["Пассажир", "Пассажирка"],
            Role::Seer => ["Ясновидящий", "Ясновидящая"],
            Role::Nurse => ["Медбрат", "Медсестра"],
            Role::Untouchable => ["Неприкасаемый", "Неприкасаемая"],
            Role::Authority => ["Авторитет", "Авторитет"],
            Role::Witch => ["Колдун", "Колдунья"],
            Role::Sleepwalker => ["Лунатик", "Лунатичка"],
            Role::Maniac => ["Сексманьяк", "Сексманьяк"],
            Role::Werewolf => ["Оборотень", "Оборотень"],
            Role::Halfblood => ["Полукровка", "Полукровка"],
            Role::Hamster => ["Хомяк-Мутант", "Хомяк-Мутант"],
        }
    }
}

/// A seer's result (the report's `checks[].result`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckResult {
    Werewolf,
    NotWerewolf,
    Failed,
}

impl CheckResult {
    pub const fn id(self) -> &'static str {
        match self {
            CheckResult::Werewolf => "werewolf",
            CheckResult::NotWerewolf => "not_werewolf",
            CheckResult::Failed => "failed",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r_side_1_maniac_is_a_civilian() {
        assert_eq!(Role::Maniac.side(), Side::Civilians);
        assert_eq!(Role::Halfblood.side(), Side::Werewolves);
        assert_eq!(Role::Hamster.side(), Side::Hamster);
    }

    #[test]
    fn russian_aliases_parse() {
        assert_eq!(Role::parse("Ясновидящий"), Some(Role::Seer));
        assert_eq!(Role::parse("хомяк-мутант"), Some(Role::Hamster));
        assert_eq!(Role::parse("ХОМЯК МУТАНТ"), Some(Role::Hamster));
        assert_eq!(Role::parse("werewolf"), Some(Role::Werewolf));
        assert_eq!(Role::parse("дракон"), None);
    }
}
