//! `ostrov simulate`: play a setup out many times with scripted players.

use std::io::IsTerminal;
use std::path::PathBuf;

use ostrov_bots::{simulate_with, BotKind, Config, Rate, Summary};
use ostrov_engine::{plural, Lang, Role, Roster, Rules, Setup, TieRule};

use crate::Failure;

/// Play a setup out many times with bots and report each side's chances.
///
/// Without --setup or --file the setup is the recommended one for the player count,
/// and the bots are the sensible ones the recommended table was searched with
/// (docs/SETUPS.md). The first lines say which setup, deck and bots were played.
///
/// Examples:
///   ostrov simulate --players 15 --games 100000 --bots random
///   ostrov simulate --players 12 --setup "werewolf=3,seer,nurse" --bots sensible --json
///   ostrov simulate --file game.toml --games 20000
///   ostrov simulate --db ostrov.db --games 3000
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
    /// The bots: sensible (what the recommended table was searched with) or random.
    #[arg(long, default_value = "sensible", value_parser = crate::help::bots())]
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
    /// A server's database (a SQLite file or a postgres:// URL): for each setup played
    /// there, the games observed and each side's wins beside the simulator's prediction.
    #[arg(long, value_name = "DB", conflicts_with_all = ["file", "setup", "players", "svg"])]
    pub db: Option<String>,
}

/// Where the played setup came from, for the first lines of the output.
enum Source {
    File(PathBuf),
    Given,
    Recommended,
}

/// The simulation config the arguments describe, and where its setup came from.
fn config(a: &Args, lang: Lang) -> Result<(Config, Source), Failure> {
    let (roles, mut rules, mut deck, source) = match &a.file {
        Some(path) => {
            let (g, _) = crate::resolve::load(path, lang)?;
            let s: Setup = g.setup;
            (s.seats.iter().map(|x| x.role).collect::<Vec<_>>(), s.rules, s.deck, Source::File(path.clone()))
        }
        None => {
            let n = a.players.unwrap_or(15);
            let (roster, source) = match &a.setup {
                Some(t) => (Roster::parse(t)?, Source::Given),
                None => (Roster::recommended(n)?, Source::Recommended),
            };
            (roster.roles(n)?, Rules::default(), Setup::default_deck(n), source)
        }
    };
    if let Some(t) = &a.tie {
        rules.tie = TieRule::parse(t).ok_or_else(|| {
            Failure(match lang {
                Lang::Ru => format!("--tie: неизвестное правило ничьей «{t}» (random, none, all)"),
                Lang::English => format!("--tie: unknown tie rule \"{t}\" (random, none, all)"),
            })
        })?;
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
    Ok((Config { roles, rules, deck, games: a.games, bots: a.bots, seed: a.seed }, source))
}

fn pct(r: &Rate) -> String {
    format!("{:5.1}%  [{:.1}–{:.1}]", 100.0 * r.rate, 100.0 * r.low, 100.0 * r.high)
}

/// The roster the roles make, in the form `--setup` takes.
fn roster_of(roles: &[Role]) -> Roster {
    let mut r = Roster::new();
    for role in Role::ALL.iter().filter(|r| **r != Role::Passenger) {
        r = r.with(*role, roles.iter().filter(|x| *x == role).count() as u16);
    }
    r
}

/// "сыграно: werewolf=4 (рекомендуемый расклад на 15 игроков), колода по умолчанию".
fn setup_line(cfg: &Config, source: &Source, lang: Lang) -> String {
    let n = cfg.roles.len();
    let setup = roster_of(&cfg.roles);
    let from = match (source, lang) {
        (Source::Recommended, Lang::Ru) => {
            format!("рекомендуемый расклад для {n} {}", plural::form(n as u64, "игрока", "игроков", "игроков"))
        }
        (Source::Recommended, Lang::English) => format!("the recommended setup for {n} players"),
        (Source::Given, Lang::Ru) => "расклад из --setup".to_string(),
        (Source::Given, Lang::English) => "the setup of --setup".to_string(),
        (Source::File(p), Lang::Ru) => format!("расклад из {}", p.display()),
        (Source::File(p), Lang::English) => format!("the setup of {}", p.display()),
    };
    let deck = match (cfg.deck.is_empty(), lang) {
        (true, Lang::Ru) => "без вещей".to_string(),
        (true, Lang::English) => "no items".to_string(),
        (false, Lang::Ru) => {
            format!("колода: {} {}", cfg.deck.len(), plural::form(cfg.deck.len() as u64, "вещь", "вещи", "вещей"))
        }
        (false, Lang::English) => format!("a deck of {} items", cfg.deck.len()),
    };
    match lang {
        Lang::Ru => format!("расклад: {setup} ({from}); {deck}"),
        Lang::English => format!("setup: {setup} ({from}); {deck}"),
    }
}

pub fn run(a: Args, lang: Lang) -> Result<(), Failure> {
    if let Some(db) = &a.db {
        return crate::observed::run(db, a.games, a.json, lang);
    }
    let (cfg, source) = config(&a, lang)?;
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
        std::fs::write(path, svg(&summary)).map_err(|e| {
            Failure(match lang {
                Lang::Ru => format!("не удалось записать {}: {e}", path.display()),
                Lang::English => format!("cannot write {}: {e}", path.display()),
            })
        })?;
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&summary)?);
        return Ok(());
    }
    let n = cfg.roles.len();
    let speed = summary.games as f64 / secs.max(1e-9);
    let bots = crate::suggest::bots_label(cfg.bots, lang);
    let label = |ru: &str, en: &str| format!("{:<12}", lang.pick(ru, en));
    match lang {
        Lang::Ru => println!(
            "{} {}, {n} {}, {bots}, зерно {}: {secs:.2} с ({speed:.0} партий/с)",
            summary.games,
            plural::form(summary.games, "партия", "партии", "партий"),
            plural::form(n as u64, "игрок", "игрока", "игроков"),
            cfg.seed,
        ),
        Lang::English => {
            println!("{} games, {n} players, {bots}, seed {}: {secs:.2}s ({speed:.0} games/s)", summary.games, cfg.seed)
        }
    }
    println!("{}", setup_line(&cfg, &source, lang));
    println!("{}{}", label("мирные", "civilians"), pct(&summary.civilians));
    println!("{}{}", label("оборотни", "werewolves"), pct(&summary.werewolves));
    if summary.hamster.wins > 0 {
        println!("{}{}", label("хомяк", "hamster"), pct(&summary.hamster));
    }
    println!("{}{}", label("ничья", "draw"), pct(&summary.draw));
    match lang {
        // A fractional number of days takes the genitive singular: «7,23 дня».
        Lang::Ru => println!("{}{:.2} дня в среднем", label("длина", ""), summary.mean_days),
        Lang::English => println!("{}{:.2} days on average", label("", "length"), summary.mean_days),
    }
    let max = summary.length.iter().copied().max().unwrap_or(1).max(1);
    for (d, k) in summary.length.iter().enumerate().filter(|(_, k)| **k > 0) {
        println!(
            "  {} {d:2} {:6.2}% {}",
            lang.pick("день", "day"),
            100.0 * *k as f64 / summary.games as f64,
            "#".repeat((40 * k / max) as usize)
        );
    }
    println!("{}", lang.pick("доля выживших по ролям", "survival by role"));
    for s in &summary.survival {
        let role = match lang {
            Lang::Ru => s.role.parse::<Role>().map(Role::ru).unwrap_or(&s.role).to_string(),
            Lang::English => s.role.clone(),
        };
        println!("  {:14} {:5.1}%", role, 100.0 * s.rate);
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
