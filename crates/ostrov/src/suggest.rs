//! `ostrov suggest`: search rosters (and decks) for the most balanced setups.

use std::io::IsTerminal;

use ostrov_bots::{simulate_with, BotKind, Config, Summary};
use ostrov_engine::{Item, Role, Roster, Rules, Setup, MAX_RECOMMENDED, MIN_PLAYERS};
use rayon::prelude::*;

use crate::Failure;

/// Search setups (role counts and deck) for the most balanced ones for N players.
///
/// Examples:
///   ostrov suggest --players 14
///   ostrov suggest --players 14 --games 5000 --bots random --top 10
///   ostrov suggest --players 12 --deck both     # with the default deck and with no items
///   ostrov suggest --table > crates/ostrov-engine/src/recommended.txt
///
/// Candidates: N/8..=N/3 werewolves (at least one), a halfblood (10+ players), a hamster (12+), and the first
/// k civilian roles of seer, nurse, witch, maniac, sleepwalker, authority, untouchable.
/// Balance = |P(civilians) − P(werewolves)| + P(hamster) + P(draw) (smaller is better).
/// Every candidate is screened with --games games; the --finalists best are played again
/// with --final-games games on a fresh seed, and ranked by that second run.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// Number of players.
    #[arg(long, required_unless_present = "table")]
    players: Option<usize>,
    /// Games per candidate in the screening round.
    #[arg(long, default_value_t = 2000)]
    games: u64,
    /// How many of the best screened setups are played again.
    #[arg(long, default_value_t = 5)]
    finalists: usize,
    /// Games per finalist (default: 5 × --games).
    #[arg(long)]
    final_games: Option<u64>,
    /// random | sensible
    #[arg(long, default_value = "sensible")]
    bots: BotKind,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How many setups to print.
    #[arg(long, default_value_t = 5)]
    top: usize,
    /// The item deck: "default" (one of each item, repeated), "none" (no items), "both"
    /// (try every roster with each of those two), or item ids, e.g. "trap,fang,bomb".
    #[arg(long, default_value = "default")]
    deck: String,
    /// Write the recommended table for every player count 3..=40 (the format of
    /// crates/ostrov-engine/src/recommended.txt) to standard output. Uses the default deck,
    /// which is what `ostrov new` and the server deal.
    #[arg(long, conflicts_with_all = ["players", "top"])]
    table: bool,
}

const CIVIL: [Role; 7] =
    [Role::Seer, Role::Nurse, Role::Witch, Role::Maniac, Role::Sleepwalker, Role::Authority, Role::Untouchable];

fn candidates(n: usize) -> Vec<Roster> {
    let mut out = Vec::new();
    for w in (n / 8).max(1)..=(n / 3).max(1) {
        for half in 0..=usize::from(n >= 10) {
            for ham in 0..=usize::from(n >= 12) {
                for k in 0..=CIVIL.len() {
                    if w + half + ham + k > n || w + half + ham >= n {
                        continue;
                    }
                    let mut r = Roster::new().with(Role::Werewolf, w as u16);
                    r = r.with(Role::Halfblood, half as u16).with(Role::Hamster, ham as u16);
                    for role in &CIVIL[..k] {
                        r = r.with(*role, 1);
                    }
                    out.push(r);
                }
            }
        }
    }
    out
}

/// A deck to try: its name in the output and the items.
#[derive(Clone)]
struct Deck {
    name: String,
    items: Vec<Item>,
}

fn decks(spec: &str, n: usize) -> Result<Vec<Deck>, Failure> {
    let default = || Deck { name: "default".into(), items: Setup::default_deck(n) };
    let none = || Deck { name: "none".into(), items: Vec::new() };
    Ok(match spec.trim() {
        "default" => vec![default()],
        "none" => vec![none()],
        "both" => vec![default(), none()],
        list => {
            let mut items = Vec::new();
            for word in list.split(',').map(str::trim).filter(|w| !w.is_empty()) {
                let item: Item = word.parse().map_err(|e| {
                    Failure(format!("--deck: {e} (use default, none, both or item ids such as trap,fang)"))
                })?;
                items.push(item);
            }
            if items.is_empty() {
                return Err(Failure("--deck is empty (use default, none, both or item ids)".into()));
            }
            vec![Deck { name: list.into(), items }]
        }
    })
}

fn score(s: &Summary) -> f64 {
    (s.civilians.rate - s.werewolves.rate).abs() + s.hamster.rate + s.draw.rate
}

/// One ranked setup: its score, roster, deck and the summary it was ranked by.
struct Ranked {
    score: f64,
    roster: Roster,
    deck: Deck,
    summary: Summary,
}

fn run_one(n: usize, roster: &Roster, deck: &Deck, games: u64, bots: BotKind, seed: u64) -> Result<Summary, Failure> {
    let cfg = Config { roles: roster.roles(n)?, rules: Rules::default(), deck: deck.items.clone(), games, bots, seed };
    Ok(simulate_with(&cfg, &|_| {}))
}

/// The screening round over every candidate, then the final round of the best.
fn search(n: usize, a: &Args, decks: &[Deck]) -> Result<Vec<Ranked>, Failure> {
    let cands = candidates(n);
    let total = (cands.len() * decks.len()) as u64;
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(total + a.finalists as u64);
        b.set_message(format!("{n} players"));
        b
    });
    // Every candidate on every core (each one deterministic for the seed); the order of
    // `pairs` is kept, so equal scores rank the same way on every machine.
    let pairs: Vec<(&Roster, &Deck)> = cands.iter().flat_map(|r| decks.iter().map(move |d| (r, d))).collect();
    let mut screened = pairs
        .into_par_iter()
        .map(|(r, d)| {
            let s = run_one(n, r, d, a.games, a.bots, a.seed)?;
            if let Some(b) = &bar {
                b.inc(1);
            }
            Ok(Ranked { score: score(&s), roster: r.clone(), deck: d.clone(), summary: s })
        })
        .collect::<Result<Vec<_>, Failure>>()?;
    screened.sort_by(|x, y| x.score.total_cmp(&y.score));
    // The final round on a fresh seed: the screening's luck does not carry over.
    let final_games = a.final_games.unwrap_or(5 * a.games);
    let final_seed = a.seed ^ 0x5EED_F1A1;
    let keep = a.finalists.max(1);
    screened.truncate(keep);
    let mut finals = screened
        .into_par_iter()
        .map(|c| {
            let s = run_one(n, &c.roster, &c.deck, final_games, a.bots, final_seed)?;
            if let Some(b) = &bar {
                b.inc(1);
            }
            Ok(Ranked { score: score(&s), summary: s, ..c })
        })
        .collect::<Result<Vec<_>, Failure>>()?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    finals.sort_by(|x, y| x.score.total_cmp(&y.score));
    Ok(finals)
}

fn bot_id(k: BotKind) -> &'static str {
    match k {
        BotKind::Random => "random",
        BotKind::Sensible => "sensible",
    }
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

pub fn run(a: Args) -> Result<(), Failure> {
    if a.games == 0 || a.final_games == Some(0) {
        return Err(Failure("--games and --final-games must be at least 1".into()));
    }
    if a.table {
        let final_games = a.final_games.unwrap_or(5 * a.games);
        println!("# The recommended setups: the most balanced roster for each player count, with the default deck.");
        println!(
            "# Written by: ostrov suggest --table --games {} --finalists {} --final-games {final_games} --bots {} --seed {} > crates/ostrov-engine/src/recommended.txt",
            a.games,
            a.finalists,
            bot_id(a.bots),
            a.seed
        );
        println!("# players\tsetup\twin rates in the final round ({final_games} games, {} bots)", bot_id(a.bots));
        for n in MIN_PLAYERS..=MAX_RECOMMENDED {
            let best = search(n, &a, &decks("default", n)?)?;
            let b = &best[0];
            let s = &b.summary;
            println!(
                "{n}\t{}\tcivilians {}, werewolves {}, hamster {}, draw {}",
                b.roster,
                pct(s.civilians.rate),
                pct(s.werewolves.rate),
                pct(s.hamster.rate),
                pct(s.draw.rate)
            );
            eprintln!("{n} players: {} (civilians {})", b.roster, pct(s.civilians.rate));
        }
        return Ok(());
    }
    let n = a.players.unwrap_or(15);
    if n < MIN_PLAYERS {
        return Err(Failure(format!("--players {n}: a game needs at least {MIN_PLAYERS} players")));
    }
    let ds = decks(&a.deck, n)?;
    let a = Args { finalists: a.finalists.max(a.top), ..a };
    let best = search(n, &a, &ds)?;
    println!(
        "{n} players, {} bots, {} games per setup, the best {} again with {} games, seed {}",
        bot_id(a.bots),
        a.games,
        a.finalists,
        a.final_games.unwrap_or(5 * a.games),
        a.seed
    );
    println!("{:<60} {:>8} {:>10} {:>10} {:>8} {:>6}", "setup", "deck", "civilians", "werewolves", "hamster", "draw");
    for r in best.iter().take(a.top) {
        let s = &r.summary;
        println!(
            "{:<60} {:>8} {:>10} {:>10} {:>8} {:>6}",
            r.roster.to_string(),
            r.deck.name,
            pct(s.civilians.rate),
            pct(s.werewolves.rate),
            pct(s.hamster.rate),
            pct(s.draw.rate)
        );
    }
    Ok(())
}
