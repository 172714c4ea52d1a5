//! `ostrov resolve FILE`: the newspapers, the JSON report, or one player's inbox.

use std::path::PathBuf;

use ostrov_engine::{Game, GameFile, Lang, Report};
use ostrov_paper::Format;

use crate::Failure;

/// The biggest game file read (a guard against reading a huge file by mistake).
const MAX_FILE: u64 = 64 * 1024 * 1024;

/// Resolve a game file: print the newspapers of every day (public view), the JSON
/// report (host's view, `--json`), or what one player was told (`--inbox`).
#[derive(clap::Args)]
pub struct Args {
    /// The game file (TOML or JSON, see GAME_FILE.md).
    file: PathBuf,
    /// Print the JSON report of GAME_FILE.md and nothing else.
    #[arg(long, conflicts_with_all = ["inbox", "format"])]
    json: bool,
    /// The newspaper format: markdown (CommonMark, the default), gfm (with tables), bbcode
    /// (for forums), html (a whole page), html-fragment (to embed) or plain.
    #[arg(long, value_parser = ["markdown", "gfm", "bbcode", "html", "html-fragment", "plain"])]
    format: Option<String>,
    /// The forum the BBCode is for: phpbb (default: no tables, no [s]), xenforo or ipb
    /// (with [table] and [s]).
    #[arg(long, value_parser = ["phpbb", "xenforo", "ipb"])]
    forum: Option<String>,
    /// Print only the newspapers of day N.
    #[arg(long, value_name = "N")]
    day: Option<u32>,
    /// Print the private messages of one player (role, item, seer results, items received).
    #[arg(long, value_name = "NAME")]
    inbox: Option<String>,
}

/// Reads and checks a game file.
pub fn load(path: &std::path::Path, lang: Lang) -> Result<Game, Failure> {
    let shown = path.display();
    let meta = std::fs::metadata(path).map_err(|e| Failure(format!("cannot read {shown}: {e}")))?;
    if meta.len() > MAX_FILE {
        return Err(Failure(format!("{shown}: the file is {} MB, too big for a game file", meta.len() / 1_000_000)));
    }
    let bytes = std::fs::read(path).map_err(|e| Failure(format!("cannot read {shown}: {e}")))?;
    let file = GameFile::parse_bytes(&bytes).map_err(|e| Failure(format!("{shown}: {e}")))?;
    Game::from_file(&file).map_err(|e| Failure(format!("{shown}: {e}")))
}

pub fn run(a: Args, lang: Lang) -> Result<(), Failure> {
    let game = load(&a.file, lang)?;
    let shown = a.file.display();
    let m = ostrov_engine::play(&game, true).map_err(|e| Failure(format!("{shown}: {e}")))?;
    if let Some(d) = a.day {
        if d == 0 || d as usize > m.days.len() {
            return Err(Failure(format!("--day {d}: the game file has {} day(s)", m.days.len())));
        }
    }
    if a.json {
        println!("{}", Report::of(&m).to_json());
        return Ok(());
    }
    let mut format: Format = a.format.as_deref().unwrap_or("markdown").parse()?;
    if let Some(forum) = &a.forum {
        format = format.for_forum(forum)?;
    }
    if let Some(name) = &a.inbox {
        let p = m.find(name).ok_or_else(|| Failure(format!("--inbox: no player named \"{name}\" in {shown}")))?;
        print!("{}", ostrov_paper::inbox(&m, p, a.day, format));
        return Ok(());
    }
    let text = match a.day {
        Some(d) => ostrov_paper::day(&m, d, format),
        None => ostrov_paper::all(&m, format),
    };
    print!("{text}");
    Ok(())
}
