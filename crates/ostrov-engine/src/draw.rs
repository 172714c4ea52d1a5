//! Random draws. Every draw takes the game's one seeded `ChaCha8Rng`, in a fixed order,
//! so a game replays bit-for-bit from its seed and orders.

use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::event::Event;
use crate::rules::Rules;

/// Draws the event of a day by the house-rule weights; `no_repeat` leaves out the
/// previous day's event. `None` when every weight is zero.
pub fn draw_event(rng: &mut ChaCha8Rng, rules: &Rules, previous: Option<Event>) -> Option<Event> {
    // Each event's weight, worked out once for the sum and the walk below.
    let mut weights = [0.0; Event::ALL.len()];
    for (w, &e) in weights.iter_mut().zip(Event::ALL) {
        *w = if rules.no_repeat && Some(e) == previous { 0.0 } else { rules.weight(e) };
    }
    let total: f64 = weights.iter().sum();
    if total <= 0.0 {
        return None;
    }
    let mut x = rng.gen::<f64>() * total;
    for (&e, &w) in Event::ALL.iter().zip(&weights) {
        if w > 0.0 {
            if x < w {
                return Some(e);
            }
            x -= w;
        }
    }
    Event::ALL.iter().zip(&weights).rev().find(|(_, &w)| w > 0.0).map(|(&e, _)| e)
}

/// One element of a non-empty slice, uniformly.
pub fn pick<T: Copy>(rng: &mut ChaCha8Rng, from: &[T]) -> T {
    from[index(rng, from.len())]
}

/// An index below `len` (`len > 0`), uniformly: the index [`pick`] would pick.
pub fn index(rng: &mut ChaCha8Rng, len: usize) -> usize {
    rng.gen_range(0..len)
}

/// Shuffles in place.
pub fn shuffle<T>(rng: &mut ChaCha8Rng, v: &mut [T]) {
    v.shuffle(rng);
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn no_repeat_never_draws_the_same_event_twice_running() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let rules = Rules::default();
        let mut prev = None;
        for _ in 0..2000 {
            let e = draw_event(&mut rng, &rules, prev);
            assert!(e.is_some());
            assert_ne!(e, prev);
            prev = e;
        }
    }

    #[test]
    fn zero_weight_events_are_never_drawn() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut rules = Rules { event_weights: [0.0; 14], ..Rules::default() };
        assert_eq!(draw_event(&mut rng, &rules, None), None);
        rules.event_weights[Event::FullMoon as usize] = 2.0;
        rules.event_weights[Event::Rage as usize] = 1.0;
        rules.no_repeat = false;
        for _ in 0..200 {
            let e = draw_event(&mut rng, &rules, None).unwrap();
            assert!(matches!(e, Event::FullMoon | Event::Rage));
        }
    }
}
