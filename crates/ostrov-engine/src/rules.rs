//! House rules (the `[rules]` table of a game file), with the defaults of RULES.md.

use crate::event::Event;

/// What a lynch tie that the items do not settle leads to (R-TIE-1, step 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TieRule {
    /// One of the tied, by the game's seeded RNG (or the file's `tie_break`).
    #[default]
    Random,
    /// Nobody is lynched.
    None,
    /// Everyone tied is lynched.
    All,
}

impl TieRule {
    pub fn parse(s: &str) -> Option<TieRule> {
        match crate::name::fold_id(s).as_str() {
            "random" | "случайно" => Some(TieRule::Random),
            "none" | "никто" => Some(TieRule::None),
            "all" | "все" => Some(TieRule::All),
            _ => None,
        }
    }
    pub const fn id(self) -> &'static str {
        match self {
            TieRule::Random => "random",
            TieRule::None => "none",
            TieRule::All => "all",
        }
    }
}

/// The house rules of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    /// R-TIE-1 step 3.
    pub tie: TieRule,
    /// R-WIN-2: werewolves also win at parity.
    pub parity: bool,
    /// R-WIN-3: the game ends in a draw after this day.
    pub max_days: u32,
    /// The same event never two days running.
    pub no_repeat: bool,
    /// Weight of each event in the daily draw, indexed like [`Event::ALL`].
    pub event_weights: [f64; 14],
}

impl Default for Rules {
    fn default() -> Self {
        Rules { tie: TieRule::Random, parity: false, max_days: 40, no_repeat: true, event_weights: [1.0; 14] }
    }
}

impl Rules {
    /// The weight of one event.
    pub fn weight(&self, e: Event) -> f64 {
        self.event_weights[e as usize]
    }
}
