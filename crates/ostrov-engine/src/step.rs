//! The steps of a game day that the log tags its sentences with: the 21 steps of the 21:00
//! resolution in RULES.md's order (§3: 1–7, §4: 8–21), and the parts of the day before it
//! (the opening at 22:00, the 13:00 stage, the host's decisions), which are step 0.

/// A step of the day (the log's tag). The report prints its [`Step::number`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Step {
    /// The day opens at 22:00: its event, Tsunami's re-deal, the Choose me! draw (step 0).
    Opening,
    /// The 13:00 stage (R-EVENT-1): Bunker, Exchange, Mystic light, the pair, the question,
    /// item uses sent before 13:00 (step 0).
    Midday,
    /// A host's decision during the day: an answer to the Spirit, a penalty, a removal (step 0).
    Host,
    /// 1. Finalise the day's item actions: shocker, love note.
    FinaliseDayItems,
    /// 2. Correct the votes for events: Magnetic storm, Fear, Palms bloom.
    EventCorrections,
    /// 3. Correct for items: shocker, love note, poison thorn, totem, handcuffs, megaphone.
    ItemCorrections,
    /// 4. Correct for the authority's order.
    Authority,
    /// 5. Correct for trap, fang, sheep skin.
    TrapFangSheepSkin,
    /// 6. Correct for the bomb.
    Bomb,
    /// 7. Apply Rage and lynch.
    RageAndLynch,
    /// 8. Fog night: targeted night orders need a vote on their target.
    FogNight,
    /// 9. Voodoo doll: the target's night ability is void.
    Voodoo,
    /// 10. Witch: kill or cancel.
    Witch,
    /// 11. Sleepwalker: swap or recharge.
    Sleepwalker,
    /// 12. Werewolves kill.
    Werewolves,
    /// 13. The untouchable survives a werewolf attack.
    Untouchable,
    /// 14. Moon fern saves its holder from the werewolves.
    MoonFern,
    /// 15. Seer checks a target.
    Seer,
    /// 16. Black glasses: the check fails.
    BlackGlasses,
    /// 17. Maniac assaults a target.
    Maniac,
    /// 18. Camo robe saves its holder from the maniac.
    CamoRobe,
    /// 19. Hamster kills a target.
    Hamster,
    /// 20. Nurse heals a target.
    Nurse,
    /// 21. The next day's event is drawn.
    NextEvent,
}

impl Step {
    /// Every step, in the order of the day.
    pub const ALL: [Step; 24] = [
        Step::Opening,
        Step::Midday,
        Step::Host,
        Step::FinaliseDayItems,
        Step::EventCorrections,
        Step::ItemCorrections,
        Step::Authority,
        Step::TrapFangSheepSkin,
        Step::Bomb,
        Step::RageAndLynch,
        Step::FogNight,
        Step::Voodoo,
        Step::Witch,
        Step::Sleepwalker,
        Step::Werewolves,
        Step::Untouchable,
        Step::MoonFern,
        Step::Seer,
        Step::BlackGlasses,
        Step::Maniac,
        Step::CamoRobe,
        Step::Hamster,
        Step::Nurse,
        Step::NextEvent,
    ];

    /// The step's number in RULES.md (1–21); 0 for the day before the resolution (the
    /// opening, the 13:00 stage, the host's decisions). The report's `step`.
    ///
    /// ```
    /// use ostrov_engine::Step;
    /// assert_eq!(Step::FinaliseDayItems.number(), 1);
    /// assert_eq!(Step::NextEvent.number(), 21);
    /// assert_eq!(Step::Midday.number(), 0);
    /// ```
    pub const fn number(self) -> u8 {
        match self {
            Step::Opening | Step::Midday | Step::Host => 0,
            Step::FinaliseDayItems => 1,
            Step::EventCorrections => 2,
            Step::ItemCorrections => 3,
            Step::Authority => 4,
            Step::TrapFangSheepSkin => 5,
            Step::Bomb => 6,
            Step::RageAndLynch => 7,
            Step::FogNight => 8,
            Step::Voodoo => 9,
            Step::Witch => 10,
            Step::Sleepwalker => 11,
            Step::Werewolves => 12,
            Step::Untouchable => 13,
            Step::MoonFern => 14,
            Step::Seer => 15,
            Step::BlackGlasses => 16,
            Step::Maniac => 17,
            Step::CamoRobe => 18,
            Step::Hamster => 19,
            Step::Nurse => 20,
            Step::NextEvent => 21,
        }
    }

    /// A step of the day vote and the lynch (1–7, RULES.md §3).
    pub const fn is_day_vote(self) -> bool {
        matches!(self.number(), 1..=7)
    }

    /// A step of the night (8–20, RULES.md §4).
    pub const fn is_night(self) -> bool {
        matches!(self.number(), 8..=20)
    }

    /// What the step does, in Russian.
    pub const fn ru(self) -> &'static str {
        match self {
            Step::Opening => "начало дня",
            Step::Midday => "13:00",
            Step::Host => "решение ведущего",
            Step::FinaliseDayItems => "вещи дня: Шокер, Любовная записка",
            Step::EventCorrections => "поправки на событие",
            Step::ItemCorrections => "поправки на вещи",
            Step::Authority => "ход Авторитета",
            Step::TrapFangSheepSkin => "Капкан, Клык оборотня, Овечья шкура",
            Step::Bomb => "Бомба",
            Step::RageAndLynch => "Ярость и линчевание",
            Step::FogNight => "Туманная ночь",
            Step::Voodoo => "Кукла вуду",
            Step::Witch => "Колдунья",
            Step::Sleepwalker => "Лунатик",
            Step::Werewolves => "оборотни",
            Step::Untouchable => "Неприкасаемый",
            Step::MoonFern => "Лунный папоротник",
            Step::Seer => "Ясновидящий",
            Step::BlackGlasses => "Чёрные очки",
            Step::Maniac => "Сексманьяк",
            Step::CamoRobe => "Маскхалат",
            Step::Hamster => "Хомяк-Мутант",
            Step::Nurse => "Медсестра",
            Step::NextEvent => "событие следующего дня",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The steps are listed in the order of the day, numbered 0 and then 1–21 once each.
    #[test]
    fn steps_are_numbered_in_order() {
        let numbers: Vec<u8> = Step::ALL.iter().map(|s| s.number()).collect();
        assert!(numbers.windows(2).all(|w| w[0] <= w[1]), "{numbers:?}");
        let resolution: Vec<u8> = numbers.iter().copied().filter(|&n| n > 0).collect();
        assert_eq!(resolution, (1..=21).collect::<Vec<u8>>());
        assert!(Step::ALL.windows(2).all(|w| w[0] < w[1]), "the derived order is the day's");
        let day: Vec<Step> = Step::ALL.iter().copied().filter(|s| s.is_day_vote()).collect();
        assert_eq!(day.first(), Some(&Step::FinaliseDayItems));
        assert_eq!(day.last(), Some(&Step::RageAndLynch));
        let night: Vec<Step> = Step::ALL.iter().copied().filter(|s| s.is_night()).collect();
        assert_eq!((night.first(), night.last(), night.len()), (Some(&Step::FogNight), Some(&Step::Nurse), 13));
    }
}
