//! `ostrov suggest`: search rosters for the most balanced setups.

use ostrov_bots::{simulate, BotKind, Config, Summary};
use ostrov_engine::{Role, Roster, Rules, Setup, MAX_RECOMMENDED, MIN_PLAYERS};

use crate::Failure;

/// Search setups (role counts) for the most balanced ones for N players.
///
/// Examples:
///   ostrov suggest --players 14
///   ostrov suggest --players 14 --games 5000 --bots random --top 10
///   ostrov suggest --table     # the RECOMMENDED table of crates/ostrov-engine/src/roster.rs
///
/// Candidates: 1..=N/3 werewolves, a halfblood (10+ players), a hamster (12+), and the first
/// k civilian roles of seer, nurse, witch, maniac, sleepwalker, authority, untouchable.
/// Balance = |P(civilians) − P(werewolves)| + P(hamster) + P(draw) (smaller is better).
/// The default deck (one of each item, repeated) and default house rules are used.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// Number of players.
    #[arg(long, required_unless_present = "table")]
    players: Option<usize>,
    /// Games per candidate.
    #[arg(long, default_value_t = 2000)]
    games: u64,
    /// random | sensible
    #[arg(long, default_value = "sensible")]
    bots: BotKind,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How many setups to print.
    #[arg(long, default_value_t = 5)]
    top: usize,
    /// Print the best setup for every player count 3..=40 as rows of the RECOMMENDED table.
    #[arg(long)]
    table: bool,
}

const CIVIL: [Role; 7] =
    [Role::Seer, Role::Nurse, Role::Witch, Role::Maniac, Role::Sleepwalker, Role::Authority, Role::Untouchable];

fn candidates(n: usize) -> Vec<Roster> {
    let mut out = Vec::new();
    for w in 1..=(n / 3).max(1) {
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

fn score(s: &Summary) -> f64 {
    (s.civilians.rate - s.werewolves.rate).abs() + s.hamster.rate + s.draw.rate
}

fn search(n: usize, a: &Args) -> Result<Vec<(f64, Roster, Summary)>, Failure> {
    let mut scored = Vec::new();
    for r in candidates(n) {
        let cfg = Config {
            roles: r.roles(n)?,
            rules: Rules::default(),
            deck: Setup::default_deck(n),
            games: a.games,
            bots: a.bots,
            seed: a.seed,
        };
        let s = simulate(&cfg);
        scored.push((score(&s), r, s));
    }
    scored.sort_by(|x, y| x.0.total_cmp(&y.0));
    Ok(scored)
}

pub fn run(a: Args) -> Result<(), Failure> {
    if a.table {
        for n in MIN_PLAYERS..=MAX_RECOMMENDED {
            let best = search(n, &a)?;
            let (_, r, s) = &best[0];
            println!(
                "    /* {n} */ \"{r}\", // civilians {:.1}%, werewolves {:.1}%",
                100.0 * s.civilians.rate,
                100.0 * s.werewolves.rate
            );
        }
        return Ok(());
    }
    let n = a.players.unwrap_or(15);
    let best = search(n, &a)?;
    println!("{n} players, {:?} bots, {} games per setup, seed {}", a.bots, a.games, a.seed);
    println!("{:<60} {:>10} {:>10} {:>8} {:>6}", "setup", "civilians", "werewolves", "hamster", "draw");
    for (_, r, s) in best.iter().take(a.top) {
        println!(
            "{:<60} {:>9.1}% {:>9.1}% {:>7.1}% {:>5.1}%",
            r.to_string(),
            100.0 * s.civilians.rate,
            100.0 * s.werewolves.rate,
            100.0 * s.hamster.rate,
            100.0 * s.draw.rate
        );
    }
    Ok(())
}
