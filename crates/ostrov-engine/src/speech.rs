//! Who may say what in the day's discussion (the seed's speech rules): the dead post only
//! "тематический флуд"; a poison-thorn holder, a shocked player and the maniac's victim
//! "speak like the dead". On Palms bloom days the banned words of R-PALMS-1 apply.

use crate::event::Event;
use crate::item::Item;
use crate::palms::palms_violations;
use crate::play::Match;
use crate::player::PlayerId;

/// How a player speaks in the day's discussion now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Speech {
    /// Speaks freely.
    Free,
    /// Out of the game: only "тематический флуд".
    Dead,
    /// Alive, but speaks like the dead today, for this reason.
    LikeDead(Silence),
}

/// Why a living player speaks like the dead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Silence {
    /// Holds a poison thorn (it works today).
    Thorn,
    /// Shocked today.
    Shocked,
    /// Assaulted by the maniac last night.
    Assaulted,
}

impl Speech {
    /// The stable id (`free`, `dead`, `thorn`, `shocked`, `assaulted`).
    pub const fn id(self) -> &'static str {
        match self {
            Speech::Free => "free",
            Speech::Dead => "dead",
            Speech::LikeDead(Silence::Thorn) => "thorn",
            Speech::LikeDead(Silence::Shocked) => "shocked",
            Speech::LikeDead(Silence::Assaulted) => "assaulted",
        }
    }

    /// The speech of a stable id.
    pub fn parse(id: &str) -> Option<Speech> {
        Some(match id {
            "free" => Speech::Free,
            "dead" => Speech::Dead,
            "thorn" => Speech::LikeDead(Silence::Thorn),
            "shocked" => Speech::LikeDead(Silence::Shocked),
            "assaulted" => Speech::LikeDead(Silence::Assaulted),
            _ => return None,
        })
    }

    /// The mark shown on a post, in Russian (empty for free speech), agreeing with the
    /// speaker's gender (issue 29, point 2): «говорит как мёртвая» for a woman; a speaker
    /// of unknown gender «говорит как мёртвые», «выбыл из игры» never hedged with «(а)».
    pub fn ru(self, g: Option<crate::ru::Gender>) -> &'static str {
        use crate::ru::Gender::{Female, Male};
        match (self, g) {
            (Speech::Free, _) => "",
            (Speech::Dead, Some(Male)) => "мёртвый: только тематический флуд",
            (Speech::Dead, Some(Female)) => "мёртвая: только тематический флуд",
            (Speech::Dead, None) => "вне игры: только тематический флуд",
            (Speech::LikeDead(why), g) => match (why, g) {
                (Silence::Thorn, Some(Male)) => "ядовитый шип: говорит как мёртвый",
                (Silence::Thorn, Some(Female)) => "ядовитый шип: говорит как мёртвая",
                (Silence::Thorn, None) => "ядовитый шип: говорит как мёртвые",
                (Silence::Shocked, Some(Male)) => "шокер: говорит как мёртвый",
                (Silence::Shocked, Some(Female)) => "шокер: говорит как мёртвая",
                (Silence::Shocked, None) => "шокер: говорит как мёртвые",
                (Silence::Assaulted, Some(Male)) => "жертва маньяка: говорит как мёртвый",
                (Silence::Assaulted, Some(Female)) => "жертва маньяка: говорит как мёртвая",
                (Silence::Assaulted, None) => "жертва маньяка: говорит как мёртвые",
            },
        }
    }
}

impl Match {
    /// How `p` speaks in the discussion now: dead, like the dead (a working poison thorn,
    /// shocked today, assaulted last night), or freely.
    pub fn speech(&self, p: PlayerId) -> Speech {
        let st = &self.state;
        if !st.alive(p) {
            return Speech::Dead;
        }
        if let Some(t) = self.today() {
            if t.uses.iter().any(|u| u.item == Item::Shocker && u.target == p) {
                return Speech::LikeDead(Silence::Shocked);
            }
        }
        if st.assaulted.get(p.index()).copied().unwrap_or(false) {
            return Speech::LikeDead(Silence::Assaulted);
        }
        if self.item_works(p, Item::PoisonThorn) {
            return Speech::LikeDead(Silence::Thorn);
        }
        Speech::Free
    }

    /// Why `p`'s vote will not count today, if it will not (R-VOTE-2, step 2): assaulted
    /// by the maniac last night, penalised by the host, or shocked today (items work:
    /// not on a Magnetic storm). The vote is still taken when sent; the page says it is
    /// void instead of offering it. `None` when no day is open or `p` is out of the game.
    pub fn vote_blocked(&self, p: PlayerId) -> Option<crate::Blocked> {
        let t = self.today()?;
        let st = &self.state;
        if !st.alive(p) {
            return None;
        }
        if st.assaulted.get(p.index()).copied().unwrap_or(false) {
            return Some(crate::Blocked::Assaulted);
        }
        if t.sent.get(p.index()).is_some_and(|s| s.penalty) {
            return Some(crate::Blocked::Penalty);
        }
        let shocked = t.uses.iter().any(|u| u.item == Item::Shocker && u.target == p);
        (shocked && t.event != Some(Event::MagneticStorm)).then_some(crate::Blocked::Shocked)
    }

    /// The banned words of a post on a Palms bloom day (R-PALMS-1), as written; empty on
    /// any other day or when no day is open.
    pub fn banned_words<'a>(&self, text: &'a str) -> Vec<&'a str> {
        match self.today() {
            Some(t) if t.event == Some(Event::PalmsBloom) => palms_violations(text),
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gamefile::{DayEntry, Game};

    const FILE: &str = r#"
[[players]]
name = "Аня"
role = "maniac"
item = "poison_thorn"
[[players]]
name = "Боря"
role = "werewolf"
item = "shocker"
[[players]]
name = "Вика"
role = "passenger"
item = "none"
[[players]]
name = "Гоша"
role = "passenger"
item = "none"
[[players]]
name = "Дина"
role = "passenger"
item = "none"
"#;

    /// Issue 29, point 2: «жертва маньяка: говорит как мёртвая» for a woman; none of the
    /// marks hedges for an unknown gender.
    #[test]
    fn the_speech_mark_agrees_with_the_speaker() {
        use crate::ru::Gender::{Female, Male};
        let assaulted = Speech::LikeDead(Silence::Assaulted);
        assert_eq!(assaulted.ru(Some(Female)), "жертва маньяка: говорит как мёртвая");
        assert_eq!(assaulted.ru(Some(Male)), "жертва маньяка: говорит как мёртвый");
        assert_eq!(assaulted.ru(None), "жертва маньяка: говорит как мёртвые");
        assert_eq!(Speech::Dead.ru(Some(Female)), "мёртвая: только тематический флуд");
        assert_eq!(Speech::Dead.ru(None), "вне игры: только тематический флуд");
    }

    #[test]
    fn the_dead_thorn_shocked_and_assaulted_speak_like_the_dead_and_palms_ban_words() {
        let game = Game::parse(FILE).unwrap();
        let mut m = Match::new(&game.setup, true);
        let day1 = DayEntry { event: Some("palms_bloom".into()), ..DayEntry::default() };
        m.open_day(&game.setup.plan(1, &day1).unwrap()).unwrap();
        let id = |n: &str| m.find(n).unwrap();
        let (anya, borya, vika, gosha, dina) = (id("Аня"), id("Боря"), id("Вика"), id("Гоша"), id("Дина"));
        assert_eq!(m.speech(anya), Speech::LikeDead(Silence::Thorn));
        assert_eq!(m.speech(vika), Speech::Free);
        assert_eq!(m.banned_words("Это НЕ я, ёлки"), ["НЕ", "я"], "R-PALMS-1");
        let shock = crate::Command::Use { item: Some(Item::Shocker), target: vika };
        m.try_send(crate::Actor::Player(borya), crate::Clock::hm(10, 0), &shock).unwrap();
        assert_eq!(m.speech(vika), Speech::LikeDead(Silence::Shocked));
        let vote = crate::Command::Vote(crate::Targets::one(gosha));
        for p in [anya, borya, vika, gosha, dina] {
            m.try_send(crate::Actor::Player(p), crate::Clock::hm(11, 0), &vote).unwrap();
        }
        m.try_send(crate::Actor::Player(anya), crate::Clock::hm(12, 0), &crate::Command::Assault(vika)).unwrap();
        m.close_day().unwrap();
        assert_eq!(m.speech(gosha), Speech::Dead, "lynched");
        m.open_day(&game.setup.plan(2, &DayEntry { event: Some("none".into()), ..DayEntry::default() }).unwrap())
            .unwrap();
        assert_eq!(m.speech(vika), Speech::LikeDead(Silence::Assaulted));
        assert!(m.banned_words("я").is_empty(), "not a Palms day");
        for s in [Speech::Free, Speech::Dead, Speech::LikeDead(Silence::Thorn), Speech::LikeDead(Silence::Assaulted)] {
            assert_eq!(Speech::parse(s.id()), Some(s));
        }
    }
}
