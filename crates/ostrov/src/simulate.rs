//! `ostrov simulate`: play a setup out many times with scripted players.

use std::io::IsTerminal;
use std::path::PathBuf;

use ostrov_bots::{simulate_with, BotKind, Config, Rate, Summary};
use ostrov_engine::{Rules, Setup, TieRule};

use crate::Failure;

/// Play a setup out many times with bots and report each side's chances.
///
/// Examples:
///   ostrov simulate --players 15 --games 100000 --bots random
///   ostrov simulate --players 12 --setup "werewolf=3,seer,nurse" --bots sensible --json
///   ostrov simulate --file game.toml --games 20000
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// Number of players (default: the game file's, else 15).
    #[arg(long)]
    pub players: Option<usize>,
    /// Role counts, e.g. "werewolf=3,seer,nurse" (default: the recommended setup).
    #[arg(long)]
    pub setup: Option<String>,
    /// Take roles, deck and house rules from a game file.
    #[arg(long, value_name = "GAME_FILE", conflicts_with_all = ["setup", "players"])]
    pub file: Option<PathBuf>,
    /// Number of games.
    #[arg(long, default_value_t = 10_000)]
    pub games: u64,
    /// random | sensible
    #[arg(long, default_value = "random")]
    pub bots: BotKind,
    /// Base seed; game i uses a seed derived from it and i.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// House rule `tie`: random | none | all.
    #[arg(long)]
    pub tie: Option<String>,
    /// House rule `parity`.
    #[arg(long)]
    pub parity: bool,
    /// House rule `max_days`.
    #[arg(long)]
    pub max_days: Option<u32>,
    /// No events (every event weight 0).
    #[arg(long)]
    pub no_events: bool,
    /// No items (empty deck).
    #[arg(long)]
    pub no_items: bool,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
    /// Write an SVG chart of win rates by day.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

/// The simulation config the arguments describe.
pub fn config(a: &Args) -> Result<Config, Failure> {
    let (roles, mut rules, mut deck) = match &a.file {
        Some(path) => {
            let g = crate::resolve::load(path)?;
            let s: Setup = g.setup;
            (s.seats.iter().map(|x| x.role).collect::<Vec<_>>(), s.rules, s.deck)
        }
        None => {
            let n = a.players.unwrap_or(15);
            let roster = match &a.setup {
                Some(t) => ostrov_engine::Roster::parse(t)?,
                None => ostrov_engine::Roster::recommended(n)?,
            };
            (roster.roles(n)?, Rules::default(), Setup::default_deck(n))
        }
    };
    if let Some(t) = &a.tie {
        rules.tie = TieRule::parse(t).ok_or_else(|| Failure(format!("unknown tie rule \"{t}\"")))?;
    }
    rules.parity |= a.parity;
    if let Some(d) = a.max_days {
        rules.max_days = d;
    }
    if a.no_events {
        rules.event_weights = [0.0; 14];
    }
    if a.no_items {
        deck.clear();
    }
    Ok(Config { roles, rules, deck, games: a.games, bots: a.bots, seed: a.seed })
}

fn pct(r: &Rate) -> String {
    format!("{:5.1}%  [{:.1}–{:.1}]", 100.0 * r.rate, 100.0 * r.low, 100.0 * r.high)
}

pub fn run(a: Args) -> Result<(), Failure> {
    let cfg = config(&a)?;
    let start = std::time::Instant::now();
    let summary = if std::io::stderr().is_terminal() && !a.json {
        let bar = indicatif::ProgressBar::new(cfg.games);
        let s = simulate_with(&cfg, &|k| bar.inc(k));
        bar.finish_and_clear();
        s
    } else {
        simulate_with(&cfg, &|_| {})
    };
    let secs = start.elapsed().as_secs_f64();
    if let Some(path) = &a.svg {
        std::fs::write(path, svg(&summary)).map_err(|e| Failure(format!("cannot write {}: {e}", path.display())))?;
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&summary)?);
        return Ok(());
    }
    println!(
        "{} games, {} players, {:?} bots, seed {}: {:.2}s ({:.0} games/s)",
        summary.games,
        cfg.roles.len(),
        cfg.bots,
        cfg.seed,
        secs,
        summary.games as f64 / secs.max(1e-9)
    );
    println!("civilians   {}", pct(&summary.civilians));
    println!("werewolves  {}", pct(&summary.werewolves));
    if summary.hamster.wins > 0 {
        println!("hamster     {}", pct(&summary.hamster));
    }
    println!("draw        {}", pct(&summary.draw));
    println!("length      {:.2} days on average", summary.mean_days);
    let max = summary.length.iter().copied().max().unwrap_or(1).max(1);
    for (d, k) in summary.length.iter().enumerate().filter(|(_, k)| **k > 0) {
        println!(
            "  day {d:2} {:6.2}% {}",
            100.0 * *k as f64 / summary.games as f64,
            "#".repeat((40 * k / max) as usize)
        );
    }
    println!("survival by role");
    for s in &summary.survival {
        println!("  {:12} {:5.1}%", s.role, 100.0 * s.rate);
    }
    Ok(())
}

/// A bar chart: share of games each side won, by the day the game ended.
fn svg(s: &Summary) -> String {
    let days = s.wins_by_day.len().max(1);
    let (w, h, pad) = (40.0 * days as f64 + 60.0, 300.0, 30.0);
    let colours = ["#3a7", "#c33", "#d90", "#888"];
    let n = s.games.max(1) as f64;
    let peak = s.wins_by_day.iter().map(|d| d.iter().sum::<u64>()).max().unwrap_or(1).max(1) as f64 / n;
    let mut out = format!("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\">\n");
    for (d, wins) in s.wins_by_day.iter().enumerate() {
        let mut y = h - pad;
        for (i, k) in wins.iter().enumerate() {
            let bh = (h - 2.0 * pad) * (*k as f64 / n) / peak;
            y -= bh;
            let x = pad + 40.0 * d as f64;
            out += &format!("<rect x=\"{x}\" y=\"{y:.1}\" width=\"30\" height=\"{bh:.1}\" fill=\"{}\"/>\n", colours[i]);
        }
        out +=
            &format!("<text x=\"{}\" y=\"{}\" font-size=\"10\">{d}</text>\n", pad + 40.0 * d as f64 + 10.0, h - 10.0);
    }
    out += "<text x=\"10\" y=\"15\" font-size=\"12\">wins by day: civilians green, werewolves red, hamster orange, draw grey</text>\n</svg>\n";
    out
}
