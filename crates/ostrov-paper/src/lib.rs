//! # ostrov-paper — the newspapers of Island of Fear
//!
//! The public view of a game, in Russian, as a forum host posts it: the 13:00 bulletin,
//! the evening newspaper after the 21:00 resolution, and the final newspaper that reveals
//! every role. Only public information goes in: the fixed player order, passive items next
//! to names, the dead with their roles (unless a Solar eclipse hides them), item uses with
//! who and on whom, the vote table, the lynched and the night's dead, the table of all
//! lynches, statistics, the Spirit's question and answer and the next day's event.
//!
//! The papers are made from a [`Match`] played with `detail` on (it keeps a snapshot of
//! every day). Private messages of one player are [`inbox`].
//!
//! ```
//! use ostrov_engine::{play, Game};
//! use ostrov_paper::{all, Format};
//! let game = Game::parse(include_str!("../../../games/sample.toml")).unwrap();
//! let m = play(&game, true).unwrap();
//! let text = all(&m, Format::Markdown);
//! assert!(text.contains("День 1"));
//! ```

mod doc;
mod format;
mod inbox;
mod opening;
mod paper;

pub use doc::{md_escape, Block, Doc, Line, Span};
pub use format::Format;
pub use inbox::{inbox, inbox_doc};
pub use opening::{announcement, opening};
pub use paper::{bulletin, evening, evening_with, final_paper, revealed, Substitute};

use ostrov_engine::Match;

/// The newspapers of day `day` (1-based): the 13:00 bulletin, the evening newspaper, and
/// the final newspaper if the game ended that day. Empty for a day not played.
pub fn day_doc(m: &Match, day: u32) -> Doc {
    let mut d = Doc::default();
    if day == 0 || day as usize > m.days.len() {
        return d;
    }
    d.append(bulletin(m, day));
    d.rule();
    d.append(evening(m, day));
    if m.days.last().is_some_and(|r| r.day == day && r.winner.is_some()) {
        d.rule();
        d.append(final_paper(m));
    }
    d
}

/// [`day_doc`], rendered.
pub fn day(m: &Match, day: u32, f: Format) -> String {
    day_doc(m, day).render(f)
}

/// Every newspaper of the game so far, day by day.
pub fn all_doc(m: &Match) -> Doc {
    let mut d = Doc::default();
    for (i, r) in m.days.iter().enumerate() {
        if i > 0 {
            d.rule();
        }
        d.append(day_doc(m, r.day));
    }
    if m.days.is_empty() {
        d.h(1, title(m, "до начала игры"));
        d.text(format!("Игра ещё не началась. Игроков: {}.", m.state().players().len()));
    }
    d
}

/// [`all_doc`], rendered.
pub fn all(m: &Match, f: Format) -> String {
    all_doc(m).render(f)
}

pub(crate) fn title(m: &Match, what: &str) -> String {
    match &m.title {
        Some(t) => format!("{t} — {what}"),
        None => format!("Остров страха — {what}"),
    }
}
