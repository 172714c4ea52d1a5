//! What the host announces at 22:00 before a day: its event, the chosen player on
//! Choose me!, and the items in the living players' hands (after a Tsunami's re-deal).

use crate::{DayPlan, Event, Held, Match, PlayerId, ResolveError};

/// The opening of the next day, worked out in advance: exactly what
/// [`Match::open_day`] with the same plan will do, since the draws come from the same
/// seeded generator in the same order.
#[derive(Clone, Debug, PartialEq)]
pub struct Announcement {
    /// The day announced (1 for the game's first day).
    pub day: u32,
    pub event: Option<Event>,
    /// Choose me!: the player drawn (or fixed by the plan).
    pub chosen: Option<PlayerId>,
    /// Tsunami re-deals the living players' items when the day opens.
    pub tsunami: bool,
    /// The living players in the fixed list order, with the items they hold once the day
    /// has opened.
    pub living: Vec<(PlayerId, Option<Held>)>,
}

impl Match {
    /// What the next day will bring if it is opened with `plan`, without opening it: the
    /// match itself does not change.
    ///
    /// ```
    /// use ostrov_engine::{Game, Match};
    /// let game = Game::parse(include_str!("../../../games/sample.toml")).unwrap();
    /// let m = Match::new(&game.setup, true);
    /// let a = m.announce(&game.days[0]).unwrap();
    /// let mut opened = m.clone();
    /// opened.open_day(&game.days[0]).unwrap();
    /// assert_eq!((a.day, a.event), (1, opened.state().event()));
    /// assert_eq!(m.state().day(), 0);
    /// ```
    pub fn announce(&self, plan: &DayPlan) -> Result<Announcement, ResolveError> {
        let mut next = self.clone();
        if next.today().is_some() {
            next.close_day()?;
        }
        let opening = DayPlan { orders: Vec::new(), ..plan.clone() };
        next.open_day(&opening)?;
        let st = &next.state;
        let today = next.today().expect("the day was just opened");
        Ok(Announcement {
            day: st.day,
            event: st.event,
            chosen: today.chosen,
            tsunami: st.event == Some(Event::Tsunami),
            living: st.list_order.iter().filter(|&&p| st.alive(p)).map(|&p| (p, st.player(p).item)).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::{DayPlan, Event, Game, Match};

    fn sample() -> Game {
        Game::parse(include_str!("../../../games/sample.toml")).unwrap()
    }

    /// Every event, fixed or drawn, announced exactly as opening the day makes it (the
    /// Choose me! draw and the Tsunami re-deal included), and the match left as it was.
    #[test]
    fn the_announcement_is_the_opening_for_every_event() {
        let game = sample();
        for seed in 0..40 {
            let setup = crate::Setup { seed, ..game.setup.clone() };
            for event in Event::ALL.iter().map(|&e| Some(Some(e))).chain([None, Some(None)]) {
                let m = Match::new(&setup, true);
                let plan = DayPlan { event, ..DayPlan::default() };
                let a = m.announce(&plan).unwrap();
                let mut opened = m.clone();
                opened.open_day(&plan).unwrap();
                let st = &opened.state;
                assert_eq!((a.day, a.event), (1, st.event));
                assert_eq!(a.chosen, opened.today().unwrap().chosen);
                assert_eq!(a.chosen.is_some(), st.event == Some(Event::ChooseMe));
                assert_eq!(a.tsunami, st.event == Some(Event::Tsunami));
                let items: Vec<_> = st.list_order.iter().map(|&p| (p, st.player(p).item)).collect();
                assert_eq!(a.living, items);
                assert_eq!((m.state.day, m.today().is_none()), (0, true), "announcing opened nothing");
            }
        }
    }

    /// R-CHOOSE-1: a chosen player fixed in the plan is the one announced.
    #[test]
    fn a_fixed_chosen_player_is_announced() {
        let game = sample();
        let m = Match::new(&game.setup, true);
        let zoya = m.find("Зоя").unwrap();
        let plan = DayPlan { event: Some(Some(Event::ChooseMe)), chosen: Some(zoya), ..DayPlan::default() };
        assert_eq!(m.announce(&plan).unwrap().chosen, Some(zoya));
    }

    /// The day after the last day of a finished game cannot be announced.
    #[test]
    fn no_announcement_after_the_end() {
        let mut m = Match::new(&sample().setup, true);
        m.state.winner = Some(crate::Winner::Civilians);
        assert!(m.announce(&DayPlan::default()).is_err());
    }
}
