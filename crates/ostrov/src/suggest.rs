//! `ostrov suggest`: search rosters (and decks) for the most balanced setups.

use std::io::IsTerminal;

use ostrov_bots::{simulate_with, BotKind, Config, Summary};
use ostrov_engine::{plural, Item, Lang, Role, Roster, Rules, Setup, Side, MAX_RECOMMENDED, MIN_PLAYERS};
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
/// Candidates: from N/8 to N/3 werewolves (at least one), a halfblood (10 players or more),
/// a hamster (12 or more), and the first k civilian roles of seer, nurse, witch, maniac,
/// sleepwalker, authority, untouchable; everyone else is a passenger.
/// Balance = |P(civilians) - P(werewolves)| + P(hamster) + P(draw), smaller is better.
/// A setup is "even" when its balance is at most 10 points (each side within 5 points
/// of 50%). Even setups come first, those with more civilian special roles (seer, nurse,
/// witch, ...) before those with fewer, then by balance; the rest follow by balance.
/// Every candidate is screened with --games games; the --finalists first, and the two
/// most balanced ones, are played again with --final-games games on a fresh seed and
/// ranked by that second run.
/// Each setup is printed as `ostrov new` takes it, with a one-line verdict.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// Number of players.
    #[arg(long, required_unless_present = "table")]
    players: Option<usize>,
    /// Games per candidate in the screening round.
    #[arg(long, default_value_t = 2000)]
    games: u64,
    /// How many of the first screened setups are played again.
    #[arg(long, default_value_t = 5)]
    finalists: usize,
    /// Games per finalist [default: 5 times --games].
    #[arg(long)]
    final_games: Option<u64>,
    /// The bots: random or sensible.
    #[arg(long, default_value = "sensible", value_parser = crate::help::bots())]
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
    /// Write the recommended table for every player count from 3 to 40 (the format of
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

/// The widest balance an "even" setup may have: 10 points, each side within 5 points of
/// 50% (docs/SETUPS.md).
const EVEN: f64 = 0.10;

/// How many of the most balanced screened setups join the final round besides the
/// `--finalists` first ones.
const FALLBACKS: usize = 2;

/// One ranked setup: its score, roster, deck and the summary it was ranked by.
struct Ranked {
    score: f64,
    roster: Roster,
    deck: Deck,
    summary: Summary,
}

impl Ranked {
    /// The order hosts want (docs/SETUPS.md): even setups first, and among them more
    /// civilian special roles (seer, nurse, witch, …) before fewer; then by balance. The
    /// halfblood and the hamster earn no preference (a hamster's wins count against the
    /// balance). Equal keys keep the candidates' order (the sort is stable), so the
    /// ranking is the same on every machine.
    fn key(&self) -> (bool, std::cmp::Reverse<usize>, f64) {
        let even = self.score <= EVEN;
        let specials = |r: &Roster| {
            Role::ALL
                .iter()
                .filter(|role| role.side() == Side::Civilians && **role != Role::Passenger)
                .map(|role| r.count(*role))
                .sum::<usize>()
        };
        (!even, std::cmp::Reverse(if even { specials(&self.roster) } else { 0 }), self.score)
    }

    fn cmp(x: &Ranked, y: &Ranked) -> std::cmp::Ordering {
        let (a, b) = (x.key(), y.key());
        a.0.cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.total_cmp(&b.2))
    }

    fn rank(list: &mut [Ranked]) {
        list.sort_by(Ranked::cmp);
    }
}

fn run_one(n: usize, roster: &Roster, deck: &Deck, games: u64, bots: BotKind, seed: u64) -> Result<Summary, Failure> {
    let cfg = Config { roles: roster.roles(n)?, rules: Rules::default(), deck: deck.items.clone(), games, bots, seed };
    Ok(simulate_with(&cfg, &|_| {}))
}

/// The screening round over every candidate, then the final round of the first ones.
fn search(n: usize, a: &Args, decks: &[Deck]) -> Result<Vec<Ranked>, Failure> {
    let cands = candidates(n);
    let total = (cands.len() * decks.len()) as u64;
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(total + a.finalists as u64);
        b.set_message(format!("{n}"));
        b
    });
    // Every candidate on every core (each one deterministic for the seed); the order of
    // `pairs` is kept, so equal keys rank the same way on every machine.
    let pairs: Vec<(&Roster, &Deck)> = cands.iter().flat_map(|r| decks.iter().map(move |d| (r, d))).collect();
    let screened = pairs
        .into_par_iter()
        .map(|(r, d)| {
            let s = run_one(n, r, d, a.games, a.bots, a.seed)?;
            if let Some(b) = &bar {
                b.inc(1);
            }
            Ok(Ranked { score: score(&s), roster: r.clone(), deck: d.clone(), summary: s })
        })
        .collect::<Result<Vec<_>, Failure>>()?;
    // The finalists: the first by the hosts' order, and the two most balanced ones (a
    // setup the screening's luck put in the band may fall out of it in the final round;
    // then the most balanced setups are there to take its place).
    let mut by_balance: Vec<usize> = (0..screened.len()).collect();
    by_balance.sort_by(|&x, &y| screened[x].score.total_cmp(&screened[y].score));
    let mut order: Vec<usize> = (0..screened.len()).collect();
    order.sort_by(|&x, &y| Ranked::cmp(&screened[x], &screened[y]));
    let mut keep: Vec<usize> = order.into_iter().take(a.finalists.max(1)).collect();
    for i in by_balance.into_iter().take(FALLBACKS) {
        if !keep.contains(&i) {
            keep.push(i);
        }
    }
    let mut slots: Vec<Option<Ranked>> = screened.into_iter().map(Some).collect();
    let screened: Vec<Ranked> = keep.iter().map(|&i| slots[i].take().expect("each candidate once")).collect();
    // The final round on a fresh seed: the screening's luck does not carry over.
    let final_games = a.final_games.unwrap_or(5 * a.games);
    let final_seed = a.seed ^ 0x5EED_F1A1;
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
    Ranked::rank(&mut finals);
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

/// The one-line verdict on a setup's final numbers.
fn verdict(s: &Summary, lang: Lang) -> &'static str {
    let d = s.civilians.rate - s.werewolves.rate;
    if s.hamster.rate >= s.civilians.rate.max(s.werewolves.rate) {
        lang.pick("чаще всех побеждает хомяк", "the hamster wins most")
    } else if d.abs() <= 0.04 {
        lang.pick("почти равные шансы", "about even")
    } else if d.abs() <= EVEN {
        if d > 0.0 {
            lang.pick("мирные немного сильнее", "civilians slightly stronger")
        } else {
            lang.pick("оборотни немного сильнее", "werewolves slightly stronger")
        }
    } else if d > 0.0 {
        lang.pick("мирные сильнее", "civilians stronger")
    } else {
        lang.pick("оборотни сильнее", "werewolves stronger")
    }
}

/// The widest line `suggest` prints: a terminal's 80 columns.
const WIDTH: usize = 80;

/// `--setup "…"` (and `--deck …` unless it is the default deck) exactly as `ostrov new`
/// takes them, after `lead`; a setup too long for one line is broken after a comma
/// (inside the quotes: `--setup` reads a line break like a comma).
fn new_args(lead: &str, roster: &Roster, deck: &Deck) -> String {
    let deck = match deck.name.as_str() {
        "default" => String::new(),
        "none" => " --deck none".to_string(),
        list => format!(" --deck {}", list.replace(' ', "")),
    };
    let setup = roster.to_string();
    let one = format!("{lead}--setup \"{setup}\"{deck}");
    if one.chars().count() <= WIDTH {
        return one;
    }
    let indent = " ".repeat(lead.chars().count() + "--setup \"".len());
    let mut out = format!("{lead}--setup \"");
    let mut line = out.chars().count();
    let parts: Vec<&str> = setup.split(',').collect();
    for (i, part) in parts.iter().enumerate() {
        let piece = if i + 1 < parts.len() { format!("{part},") } else { format!("{part}\"{deck}") };
        if line + piece.chars().count() > WIDTH && line > indent.len() {
            out.push('\n');
            out.push_str(&indent);
            line = indent.len();
        }
        line += piece.chars().count();
        out.push_str(&piece);
    }
    out
}

/// "мирные 49.1%  оборотни 50.4%  ничья 0.5%" (the hamster only when the setup has one).
fn rates_line(r: &Ranked, lang: Lang) -> String {
    let s = &r.summary;
    let mut parts = vec![
        format!("{} {}", lang.pick("мирные", "civilians"), pct(s.civilians.rate)),
        format!("{} {}", lang.pick("оборотни", "werewolves"), pct(s.werewolves.rate)),
    ];
    if r.roster.count(Role::Hamster) > 0 {
        parts.push(format!("{} {}", lang.pick("хомяк", "hamster"), pct(s.hamster.rate)));
    }
    parts.push(format!("{} {}", lang.pick("ничья", "draw"), pct(s.draw.rate)));
    parts.join("  ")
}

fn players_label(n: usize, lang: Lang) -> String {
    match lang {
        Lang::Ru => format!("{n} {}", plural::form(n as u64, "игрок", "игрока", "игроков")),
        Lang::English => format!("{n} players"),
    }
}

fn games_label(n: u64, lang: Lang) -> String {
    match lang {
        Lang::Ru => format!("{n} {}", plural::form(n, "партия", "партии", "партий")),
        Lang::English => format!("{n} {}", if n == 1 { "game" } else { "games" }),
    }
}

/// The bots' name in the labels.
pub fn bots_label(k: BotKind, lang: Lang) -> &'static str {
    match (k, lang) {
        (BotKind::Random, Lang::Ru) => "случайные боты (random)",
        (BotKind::Sensible, Lang::Ru) => "разумные боты (sensible)",
        (BotKind::Random, Lang::English) => "random bots",
        (BotKind::Sensible, Lang::English) => "sensible bots",
    }
}

pub fn run(a: Args, lang: Lang) -> Result<(), Failure> {
    if a.games == 0 || a.final_games == Some(0) {
        return Err(Failure(
            lang.pick(
                "--games и --final-games: нужна хотя бы одна партия",
                "--games and --final-games must be at least 1",
            )
            .into(),
        ));
    }
    if a.table {
        let final_games = a.final_games.unwrap_or(5 * a.games);
        println!("# The recommended setups: for each player count, the even setup (balance at most 10 points) with the most civilian special roles, else the most balanced one; the default deck (docs/SETUPS.md).");
        println!(
            "# Written by: ostrov suggest --table --games {} --finalists {} --final-games {final_games} --bots {} --seed {} > crates/ostrov-engine/src/recommended.txt",
            a.games,
            a.finalists,
            bot_id(a.bots),
            a.seed
        );
        println!("# players\tsetup\twin rates in the final round ({final_games} games, {} bots)", bot_id(a.bots));
        for n in MIN_PLAYERS..=MAX_RECOMMENDED {
            let started = std::time::Instant::now();
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
            eprintln!("{n}: {} ({}, {:.0} s)", b.roster, rates_line(b, lang), started.elapsed().as_secs_f64());
        }
        return Ok(());
    }
    let n = a.players.unwrap_or(15);
    if n < MIN_PLAYERS {
        return Err(Failure(match lang {
            Lang::Ru => format!("--players {n}: в игре должно быть не меньше {MIN_PLAYERS} игроков"),
            Lang::English => format!("--players {n}: a game needs at least {MIN_PLAYERS} players"),
        }));
    }
    let ds = decks(&a.deck, n)?;
    let a = Args { finalists: a.finalists.max(a.top), ..a };
    let best = search(n, &a, &ds)?;
    let final_games = a.final_games.unwrap_or(5 * a.games);
    match lang {
        Lang::Ru => {
            println!("{}, {}, зерно {}.", players_label(n, lang), bots_label(a.bots, lang), a.seed);
            println!(
                "Отбор: {} на расклад; {} отобранных сыграны ещё раз, по {}.",
                games_label(a.games, lang),
                best.len(),
                games_label(final_games, lang)
            );
        }
        Lang::English => {
            println!("{}, {}, seed {}.", players_label(n, lang), bots_label(a.bots, lang), a.seed);
            println!(
                "Screening: {} per setup; the {} picked played again, {} each.",
                games_label(a.games, lang),
                best.len(),
                games_label(final_games, lang)
            );
        }
    }
    for (i, r) in best.iter().take(a.top).enumerate() {
        println!();
        println!("{}", new_args(&format!("{}. ", i + 1), &r.roster, &r.deck));
        println!("   {}", rates_line(r, lang));
        println!("   {}", verdict(&r.summary, lang));
    }
    Ok(())
}
