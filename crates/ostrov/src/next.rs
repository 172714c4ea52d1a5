//! `ostrov next FILE`: what the next day will bring, for the host's 22:00 announcement.

use std::path::PathBuf;

use ostrov_engine::{DayPlan, Lang};

use crate::resolve::{format_of, load, play_failure};
use crate::Failure;

/// Tell what the day after the last day of the game file will bring: its event (drawn by
/// the seed), the chosen player on «Выбери меня!», the new items after a Tsunami — the
/// 22:00 announcement, ready to post. The draws are the ones `ostrov resolve` will make
/// when the host adds that day without fixing them.
#[derive(clap::Args)]
pub struct Args {
    /// The game file (TOML or JSON, see docs/GAME_FILE.md).
    file: PathBuf,
    /// The format: markdown (the default), gfm, bbcode, html, html-fragment or plain.
    #[arg(long, value_parser = ["markdown", "gfm", "bbcode", "html", "html-fragment", "plain"])]
    format: Option<String>,
    /// The forum the BBCode is for: phpbb (default), xenforo or ipb.
    #[arg(long, value_parser = ["phpbb", "xenforo", "ipb"])]
    forum: Option<String>,
}

pub fn run(a: Args, lang: Lang) -> Result<(), Failure> {
    let (game, lines) = load(&a.file, lang)?;
    let shown = a.file.display().to_string();
    let format = format_of(a.format.as_deref(), a.forum.as_deref())?;
    let m = ostrov_engine::play(&game, true).map_err(|e| play_failure(&e, &lines, &shown, lang))?;
    if let Some(w) = m.winner() {
        let day = m.state().last_day();
        return Err(Failure(match lang {
            Lang::Ru => format!("{shown}: игра окончена в день {day} ({}): следующего дня не будет", w.ru()),
            Lang::English => format!("{shown}: the game ended on day {day} ({}): there is no next day", w.id()),
        }));
    }
    let a = m.announce(&DayPlan::default()).map_err(|e| play_failure(&e, &lines, &shown, lang))?;
    let doc = if m.days.is_empty() { ostrov_paper::opening(&m, &a) } else { ostrov_paper::announcement(&m, &a) };
    print!("{}", doc.render(format));
    Ok(())
}
