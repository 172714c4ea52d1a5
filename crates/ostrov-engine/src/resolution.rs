//! The resolution context: the state, the open day and the RNG that steps 1–21 work on.
//! The steps themselves live in [`crate::vote`] (1–4), [`crate::lynch`] (5–7) and
//! [`crate::night`] (8–20); their order is written once, in [`crate::Match::close_day`].

use rand_chacha::ChaCha8Rng;

use crate::day::Today;
use crate::draw;
use crate::event::Event;
use crate::item::Item;
use crate::player::PlayerId;
use crate::ru::Phrase;
use crate::state::State;
use crate::step::Step;
use crate::win::{self, Winner};

pub(crate) struct Resolution<'a> {
    pub st: &'a mut State,
    pub day: &'a mut Today,
    pub rng: &'a mut ChaCha8Rng,
}

impl Resolution<'_> {
    /// Logs a sentence. It is made from the state (the names it needs are read then), and
    /// only when the log is on: a bulk simulation names nobody.
    #[inline]
    pub(crate) fn say(&mut self, step: Step, text: impl FnOnce(&State) -> Phrase) {
        let st = &*self.st;
        self.day.log.add(step, || text(st).to_string());
    }

    /// Logs a sentence that the newspaper also prints, to explain the day (a tie, a bomb,
    /// a sheep skin …): public knowledge only.
    pub(crate) fn tell(&mut self, step: Step, text: impl FnOnce(&State) -> Phrase) {
        debug_assert!(step.is_day_vote() || step.is_night(), "the newspaper explains the lynch and the night");
        if self.day.log.on {
            // A tie settled again (Rage fills two places) is told once.
            let ph = text(self.st);
            if !self.day.record.public.iter().any(|(_, p)| *p == ph) {
                self.day.log.add(step, || ph.to_string());
                self.day.record.public.push((step, ph));
            }
        }
    }

    #[inline]
    pub(crate) fn log(&mut self, step: Step, text: impl FnOnce() -> String) {
        self.day.log.add(step, text);
    }

    /// A use that came to nothing (its user or target gone): spent anyway (R-ITEM-3).
    pub(crate) fn mark_ineffective(&mut self, by: PlayerId, item: Item) {
        if let Some(u) = self.day.record.items_used.iter_mut().rev().find(|u| u.by == by && u.item == item) {
            u.effective = false;
        }
    }

    /// R-WIN-1/2 after a lynch (step 7) or a night (step 20).
    pub(crate) fn check_win(&mut self, step: Step) -> bool {
        if self.st.winner.is_some() {
            return true;
        }
        debug_assert_eq!(win::living_by_side(&self.st.players), self.st.living_by_side.map(usize::from));
        match win::decide(self.st.living_by_side.map(usize::from), &self.st.rules) {
            Some(w) => {
                self.st.winner = Some(w);
                self.st.ended_on = Some(self.st.day);
                self.day.record.winner = Some(w);
                self.log(step, || format!("Игра окончена: {}", w.ru()));
                true
            }
            None => false,
        }
    }

    /// R-WIN-3: a draw after day `max_days`.
    pub(crate) fn check_max_days(&mut self) -> bool {
        if self.st.day < self.st.rules.max_days {
            return false;
        }
        self.st.winner = Some(Winner::Draw);
        self.st.ended_on = Some(self.st.day);
        let d = self.st.day;
        self.log(Step::Nurse, || format!("Прошло {d} игровых дней — предел игры: ничья"));
        true
    }

    /// Step 21: the next day's event is drawn — or, when the host fixed it in the game
    /// file (`fixed`: `Some(None)` for a day without an event), it is the fixed one. The
    /// draw is made either way, so a fixed event leaves every later draw as it was.
    pub(crate) fn step_21_next_event(&mut self, fixed: Option<Option<Event>>) {
        let drawn = draw::draw_event(self.rng, &self.st.rules, self.day.event);
        let next = fixed.unwrap_or(drawn);
        self.st.next_event = next;
        self.log(Step::NextEvent, || match (next, fixed.is_some()) {
            (Some(e), false) => format!("Событие следующего дня: {}", e.ru()),
            (Some(e), true) => format!("Событие следующего дня (задано ведущим): {}", e.ru()),
            (None, false) => "Следующий день без события".into(),
            (None, true) => "Следующий день без события (так задал ведущий)".into(),
        });
    }
}
