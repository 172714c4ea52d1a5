//! Winning (RULES.md §6).

use crate::player::Player;
use crate::role::Role;
use crate::rules::Rules;
use crate::side::Side;

/// Who won the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    Civilians,
    Werewolves,
    Hamster,
    Draw,
}

impl Winner {
    pub const fn id(self) -> &'static str {
        match self {
            Winner::Civilians => "civilians",
            Winner::Werewolves => "werewolves",
            Winner::Hamster => "hamster",
            Winner::Draw => "draw",
        }
    }

    pub const fn ru(self) -> &'static str {
        match self {
            Winner::Civilians => "победили мирные жители",
            Winner::Werewolves => "победили оборотни",
            Winner::Hamster => "победил Хомяк-Мутант",
            Winner::Draw => "ничья",
        }
    }

    pub fn parse(s: &str) -> Option<Winner> {
        [Winner::Civilians, Winner::Werewolves, Winner::Hamster, Winner::Draw].into_iter().find(|w| w.id() == s)
    }
}

/// R-WIN-1 and R-WIN-2: the winner, if the game is over with these players alive.
pub fn winner(players: &[Player], rules: &Rules) -> Option<Winner> {
    debug_assert!(players.iter().all(|p| p.role != Role::Hamster || p.role.side() == Side::Hamster));
    decide(living_by_side(players), rules)
}

/// The living players of each side, indexed by `Side as usize`.
pub fn living_by_side(players: &[Player]) -> [usize; 3] {
    let mut n = [0; 3];
    for p in players.iter().filter(|p| p.alive) {
        n[p.role.side() as usize] += 1;
    }
    n
}

/// R-WIN-1 and R-WIN-2 from the number of living players of each side (indexed by
/// `Side as usize`).
pub fn decide(living: [usize; 3], rules: &Rules) -> Option<Winner> {
    let [civ, wolves, hamsters] = [Side::Civilians, Side::Werewolves, Side::Hamster].map(|s| living[s as usize]);
    match (civ, wolves, hamsters) {
        (0, 0, 0) => Some(Winner::Draw),
        (c, 0, 0) if c > 0 => Some(Winner::Civilians),
        (0, w, 0) if w > 0 => Some(Winner::Werewolves),
        (0, 0, h) if h > 0 => Some(Winner::Hamster),
        (c, w, h) if rules.parity && w > 0 && w >= c + h => Some(Winner::Werewolves),
        _ => None,
    }
}
