//! `ostrov new`: start a real game — deal roles and items by a seed and write the game
//! file the host goes on filling in.

use std::path::PathBuf;

use ostrov_engine::{GameFile, Item, Lang, Match, PlayerEntry, Roster, Seat, Setup};
use ostrov_paper::Format;

use crate::Failure;

/// Start a new game: deal roles and items to the players by a seed and write a game
/// file (TOML) that the host continues to fill in with days and orders.
///
/// Examples:
///   ostrov new --players "Аня,Боря,Вика,Гена,Дима,Женя,Зоя" --seed 42 -o game.toml
///   ostrov new --players-file names.txt --setup "werewolf=2,seer,nurse,witch" --shuffle
///
/// Roles not named in --setup are passengers. Without --setup the recommended setup for
/// the player count is used (docs/SETUPS.md). The players keep the order given unless
/// --shuffle asks for a random order (fixed by the seed). Every player's role and item is
/// written into the file, so the host can mail each player their role and item.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// Player names, separated by commas.
    #[arg(long, value_delimiter = ',', required_unless_present = "players_file")]
    players: Vec<String>,
    /// A file with one player name per line (empty lines and lines starting with # skipped).
    #[arg(long, value_name = "FILE", conflicts_with = "players")]
    players_file: Option<PathBuf>,
    /// Role counts, e.g. "werewolf=3,seer,nurse,witch" (ids or Russian names); the rest are passengers.
    #[arg(long)]
    setup: Option<String>,
    /// The item deck, e.g. "trap,fang,bomb,none" (default: one of each item, repeated as needed).
    #[arg(long, value_delimiter = ',')]
    deck: Option<Vec<String>>,
    /// The seed of every random draw (roles, items, order, events). Default: a random seed.
    #[arg(long)]
    seed: Option<u64>,
    /// Seat the players in a random order (fixed by the seed) instead of the order given.
    #[arg(long)]
    shuffle: bool,
    /// The game's title.
    #[arg(long)]
    title: Option<String>,
    /// Where to write the game file (default: standard output). An existing file is not
    /// overwritten. With a file, the game's opening post (Markdown) goes to standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

pub fn run(a: Args, lang: Lang) -> Result<(), Failure> {
    let names: Vec<String> = match &a.players_file {
        Some(path) => std::fs::read_to_string(path)
            .map_err(|e| crate::io_failure(&e, path, crate::Io::Read, lang))?
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(String::from)
            .collect(),
        None => a.players.iter().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect(),
    };
    if names.len() < ostrov_engine::MIN_PLAYERS {
        let (n, min) = (names.len(), ostrov_engine::MIN_PLAYERS);
        return Err(Failure(match lang {
            Lang::Ru => format!(
                "{n} {}: в игре должно быть не меньше {min} игроков",
                ostrov_engine::plural::form(n as u64, "игрок", "игрока", "игроков")
            ),
            Lang::English => format!("{n} player(s) given: a game needs at least {min}"),
        }));
    }
    let roster = match &a.setup {
        Some(s) => Roster::parse(s)?,
        None => Roster::recommended(names.len())?,
    };
    let seed = a.seed.unwrap_or_else(fresh_seed);
    let roles = roster.deal(names.len(), seed)?;
    let file = GameFile {
        title: a.title.clone(),
        seed: Some(seed),
        deck: a.deck.clone(),
        shuffle: Some(a.shuffle),
        rules: None,
        players: names
            .iter()
            .zip(&roles)
            .map(|(n, r)| PlayerEntry { name: n.clone(), role: r.id().into(), ..Default::default() })
            .collect(),
        days: Vec::new(),
    };
    // The engine checks the file (duplicate names, bad deck) and deals the items and the order.
    let game = ostrov_engine::Game::from_file(&file).map_err(|e| Failure(e.text(lang).to_string()))?;
    let m = Match::new(&game.setup, false);
    let seats: Vec<Seat> = m
        .state()
        .list_order()
        .iter()
        .map(|&p| {
            let pl = m.state().player(p);
            Seat {
                name: pl.name.clone(),
                role: pl.role,
                item: Some(pl.item.map(|h| h.item)),
                speech: pl.speech.clone(),
            }
        })
        .collect();
    let dealt = Setup { seats, shuffle: false, ..game.setup.clone() };
    let text = render(&dealt, a.deck.is_some(), &roster);
    match &a.output {
        None => print!("{text}"),
        Some(path) => {
            use std::io::Write;
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(path)
                .map_err(|e| crate::io_failure(&e, path, crate::Io::Create, lang))?;
            f.write_all(text.as_bytes()).map_err(|e| crate::io_failure(&e, path, crate::Io::Write, lang))?;
            let n = dealt.seats.len();
            eprintln!(
                "ostrov: {}",
                match lang {
                    Lang::Ru => format!(
                        "записан {} ({n} {}, seed {seed}); ниже — первый пост игры для форума",
                        path.display(),
                        ostrov_engine::plural::form(n as u64, "игрок", "игрока", "игроков")
                    ),
                    Lang::English => format!(
                        "wrote {} ({n} players, seed {seed}); below is the game's opening post for the forum",
                        path.display()
                    ),
                }
            );
            // The opening post of the file as written, so that it is exactly what
            // `ostrov resolve FILE --day 0` prints.
            let shown = path.display().to_string();
            let parsed = ostrov_engine::Game::parse_bytes(text.as_bytes())
                .map_err(|e| Failure(format!("{shown}: {}", e.text(lang))))?;
            let post = crate::resolve::opening_post(&parsed.game, &parsed.lines, &shown, lang, Format::Markdown)?;
            print!("{post}");
        }
    }
    Ok(())
}

fn quote(s: &str) -> String {
    serde_json::to_string(s).expect("a string serialises")
}

/// The game file as a host would write it, with comments.
fn render(setup: &Setup, custom_deck: bool, roster: &Roster) -> String {
    let mut out = String::new();
    out.push_str("# Остров страха — файл игры (GAME_FILE.md). Дальше ведущий дописывает дни:\n");
    out.push_str("# [[days]] с event и orders; `ostrov resolve` этого файла печатает газеты.\n");
    out.push_str(&format!("# Расклад: {roster}, остальные — пассажиры.\n"));
    if let Some(t) = &setup.title {
        out.push_str(&format!("title = {}\n", quote(t)));
    }
    out.push_str(&format!("seed = {}\n", setup.seed));
    if custom_deck {
        let mut deck: Vec<String> = setup.deck.iter().map(|i| quote(i.id())).collect();
        deck.extend(std::iter::repeat_n(quote("none"), setup.blanks));
        out.push_str(&format!("deck = [{}]\n", deck.join(", ")));
    }
    for s in &setup.seats {
        let item = match s.item.flatten() {
            Some(i) => i.id(),
            None => "none",
        };
        out.push_str(&format!(
            "\n[[players]]\nname = {}\nrole = {}   # {}\nitem = {}   # {}\n",
            quote(&s.name),
            quote(s.role.id()),
            s.role.ru(),
            quote(item),
            s.item.flatten().map_or("нет вещи", Item::ru)
        ));
    }
    out.push_str("\n# [[days]]\n# event = \"full_moon\"   # или не указывать: событие вытянется по seed\n");
    out.push_str("# orders = [\n#   { by = \"Имя\", act = \"vote\", target = \"Имя\" },\n# ]\n");
    out
}

/// A seed for a new game when none is given: the time and the process id, mixed.
fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(nanos ^ u64::from(std::process::id()));
    h.finish() % 1_000_000_000
}
