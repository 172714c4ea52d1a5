//! Events (События), RULES.md §5: one opens every game day.

use crate::name::vocabulary;

vocabulary! {
    /// The event of a game day.
    Event, "event" {
        Bunker = "bunker", "Бункер";
        Fear = "fear", "Страх";
        Rage = "rage", "Ярость";
        MagneticStorm = "magnetic_storm", "Магнитная буря", "буря";
        Tsunami = "tsunami", "Цунами";
        Exchange = "exchange", "Обмен";
        MysticLight = "mystic_light", "Мистический свет", "свет";
        ChooseMe = "choose_me", "Выбери меня!", "выбери меня";
        SolarEclipse = "solar_eclipse", "Солнечное затмение";
        LunarEclipse = "lunar_eclipse", "Лунное затмение";
        FullMoon = "full_moon", "Полнолуние";
        FogNight = "fog_night", "Туманная ночь", "туман";
        SpiritCall = "spirit_call", "Вызов духа", "дух";
        PalmsBloom = "palms_bloom", "Пальмы цветут", "пальмы";
    }
}

impl Event {
    /// How many votes each living player has on a day with this event.
    pub fn votes_per_player(event: Option<Event>) -> usize {
        match event {
            Some(Event::Rage) | Some(Event::FogNight) => 2,
            _ => 1,
        }
    }

    /// What the event means, in one Russian sentence for the newspaper.
    pub const fn meaning_ru(self) -> &'static str {
        match self {
            Event::Bunker => "игроки нашли бункер: до 13:00 каждый может подать заявку на смену своей вещи.",
            Event::Fear => "голосованием выбирается лидер, который лично решает, кого линчевать. Вещи не меняют голоса, голоса на себе не остаются.",
            Event::Rage => "у каждого по два голоса, линчуют сразу двоих.",
            Event::MagneticStorm => "ни одна вещь не работает до следующего утра.",
            Event::Tsunami => "все вещи живых игроков смешаны и розданы заново.",
            Event::Exchange => "до 13:00 игроки по взаимной договорённости могут обменяться вещами; использованные вещи перезаряжаются.",
            Event::MysticLight => "до 13:00 владельцы использованных вещей могут их перезарядить.",
            Event::ChooseMe => "один случайный игрок получает иммунитет на линч и до 13:00 может выбрать себе пару, которая тоже будет спасена.",
            Event::SolarEclipse => "роли убитых прошлой ночью и линчёванного сегодня не откроются до конца игры.",
            Event::LunarEclipse => "у оборотней праздник: этой ночью они никого не съедят.",
            Event::FullMoon => "у оборотней прилив сил: этой ночью они могут съесть двоих.",
            Event::FogNight => "у каждого по два голоса; ночью можно действовать только против того, за кого днём отдан голос.",
            Event::SpiritCall => "до 13:00 можно задать Духу Острова один вопрос с ответом «да» или «нет».",
            Event::PalmsBloom => "в обсуждении запрещены слова «я, ты, он, она, они, мы, вы», их формы, а также «да, не, нет»; нарушитель лишается голоса.",
        }
    }
}
