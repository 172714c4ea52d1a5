//! A checked game ([`Game`]): a game file's players, rules, deck and days checked once,
//! names turned into players and words into ids; every error names its line.

use std::collections::HashMap;

use crate::act::Act;
use crate::error::{GameFileError, Place, What};
use crate::event::Event;
use crate::item::Item;
use crate::locate::Lines;
use crate::name::SeatName;
use crate::order::Order;
use crate::player::PlayerId;
use crate::role::Role;
use crate::ru::Speech;
use crate::rules::{Rules, TieRule};
use crate::skeleton::{clean_line, NameProblem};

use super::file::{is_json, text_of, DayEntry, GameFile};
use super::order::{check_order, describe, slot, word, UnusedKey};
use super::setup::{host_names, Names, Seat, Setup};

/// The largest game the engine accepts.
pub const MAX_PLAYERS: usize = 500;
/// The most days a game file may hold.
pub const MAX_DAYS: usize = 1000;

/// What a game file fixes for one day: its event, the random draws, its orders.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DayPlan {
    /// `None`: drawn by the seed; `Some(None)`: no event.
    pub event: Option<Option<Event>>,
    pub chosen: Option<PlayerId>,
    /// Fixed results of the day's `random` ties, in order.
    pub tie_breaks: Vec<PlayerId>,
    /// The Tsunami re-deal.
    pub deal: Option<Vec<(PlayerId, Option<Item>)>>,
    /// Orders in the order written; the resolution takes them by time (R-ORDER-1).
    pub orders: Vec<Order>,
}

/// A game file's text read and checked ([`Game::parse_bytes`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed {
    pub game: Game,
    /// The line of every key, for later messages.
    pub lines: Lines,
    /// The keys of orders their act does not read, in the file's order: warnings.
    pub unused: Vec<UnusedKey>,
}

/// A checked game: a [`Setup`] and the days played so far.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    pub setup: Setup,
    pub days: Vec<DayPlan>,
}

impl Game {
    /// Checks a game file once, turning names into players and words into ids. Errors
    /// name the place (player, day, order) but no line: see [`Game::parse`].
    pub fn from_file(file: &GameFile) -> Result<Game, GameFileError> {
        Game::check(file, &Lines::default())
    }

    /// Parses and checks a game file's text in one go; every error names its line.
    pub fn parse(text: &str) -> Result<Game, GameFileError> {
        let file = GameFile::parse(text)?;
        let lines = if is_json(text) { Lines::of_json(text) } else { Lines::of_toml(text) };
        Game::check(&file, &lines)
    }

    /// [`Game::parse`] of a file's bytes (UTF-8 checked), with the lines of the text for
    /// the messages of what comes later (a resolution's errors, refused orders) and the
    /// keys of orders that change nothing, for a warning.
    pub fn parse_bytes(bytes: &[u8]) -> Result<Parsed, GameFileError> {
        let text = text_of(bytes)?;
        let file = GameFile::parse(text)?;
        let lines = if is_json(text) { Lines::of_json(text) } else { Lines::of_toml(text) };
        let game = Game::check(&file, &lines)?;
        let mut unused = Vec::new();
        for (d, day) in file.days.iter().enumerate() {
            for (i, o) in day.orders.iter().enumerate() {
                let Some(act) = Act::parse(&o.act) else { continue };
                for key in o.unused_keys() {
                    let line = lines.get(&format!("days.{d}.orders.{i}.{key}"));
                    let (day, order, written) = (d as u32 + 1, i + 1, describe(o));
                    unused.push(UnusedKey { line, day, order, written, act, key });
                }
            }
        }
        Ok(Parsed { game, lines, unused })
    }

    fn check(file: &GameFile, lines: &Lines) -> Result<Game, GameFileError> {
        let whole = Place::new(None, What::File);
        if file.players.is_empty() {
            return Err(GameFileError::at(
                &whole,
                "нет ни одного игрока [[players]]",
                "the game file has no [[players]]",
            ));
        }
        if file.players.len() > MAX_PLAYERS {
            let n = file.players.len();
            return Err(GameFileError::at(
                &whole,
                format!("{n} игроков, а можно не больше {MAX_PLAYERS}"),
                format!("{n} players: at most {MAX_PLAYERS} are supported"),
            ));
        }
        if file.days.len() > MAX_DAYS {
            let n = file.days.len();
            return Err(GameFileError::at(
                &whole,
                format!("{n} дней, а можно не больше {MAX_DAYS}"),
                format!("{n} days: at most {MAX_DAYS} are supported"),
            ));
        }
        let mut seats = Vec::with_capacity(file.players.len());
        // Every name so far, with its seat: a look-alike of one is that name (SeatName's `Eq`).
        let mut seen: HashMap<SeatName, usize> = HashMap::new();
        for (i, p) in file.players.iter().enumerate() {
            let key = |k: &str| lines.get(&format!("players.{i}.{k}"));
            let place = Place::new(key("name"), What::Player(i + 1, clean_line(&p.name)));
            let name = SeatName::parse(&p.name).map_err(|e| {
                let en = match e {
                    NameProblem::Empty => "the name is empty".to_string(),
                    NameProblem::TooLong { max, len } => format!("the name is longer than {max} characters ({len})"),
                    NameProblem::NoLetters => "the name has no letter or digit".to_string(),
                };
                GameFileError::at(&place, e.to_string(), en)
            })?;
            if host_names().contains(&name) {
                return Err(GameFileError::at(
                    &place,
                    format!("имя «{name}» занято приказами ведущего (host, ведущий, автор)"),
                    format!("\"{name}\" is reserved for the host's orders (host, ведущий, автор)"),
                ));
            }
            if let Some((other, j)) = seen.get_key_value(&name) {
                let at_ru =
                    lines.get(&format!("players.{j}.name")).map(|l| format!(", строка {l}")).unwrap_or_default();
                let at_en = lines.get(&format!("players.{j}.name")).map(|l| format!(", line {l}")).unwrap_or_default();
                let (d_ru, d_en) = look_alike(&file.players[*j].name, &p.name);
                return Err(GameFileError::at(
                    &place,
                    format!(
                        "имя «{name}» не отличить от имени игрока {} («{other}»{at_ru}): {d_ru}; похожие буквы, \
                         регистр, ё/е, невидимые символы и пробелы не делают имя другим",
                        j + 1
                    ),
                    format!(
                        "the name \"{name}\" cannot be told from player {}'s (\"{other}\"{at_en}): {d_en}; look-alike \
                         letters, case, ё/е, invisible characters and spaces do not make another name",
                        j + 1
                    ),
                ));
            }
            let shown = name.as_str().to_string();
            seen.insert(name, i);
            let name = shown;
            let role: Role = word(&Place { line: key("role"), ..place.clone() }, &p.role)?;
            let item = match &p.item {
                None => None,
                Some(s) => Some(slot(&Place { line: key("item"), ..place.clone() }, s)?),
            };
            // The problem names its key (`gender`, `forms`); it is told in Russian only.
            let speech = Speech::resolve(&name, p.gender.as_deref(), p.forms.as_deref()).map_err(|e| {
                let line = if p.forms.is_some() && e.0.contains("форм") { key("forms") } else { key("gender") };
                GameFileError::at(&Place { line, ..place.clone() }, e.to_string(), e.to_string())
            })?;
            seats.push(Seat { name, role, item, speech });
        }
        let mut rules = Rules::default();
        if let Some(r) = &file.rules {
            let at = |k: &str| Place::new(lines.get(&format!("rules.{k}")), What::Key(format!("[rules] {k}")));
            if let Some(t) = &r.tie {
                rules.tie = TieRule::parse(t).ok_or_else(|| {
                    GameFileError::at(
                        &at("tie"),
                        format!("«{t}» — не одно из random, none, all"),
                        format!("\"{t}\" is not one of random, none, all"),
                    )
                })?;
            }
            if let Some(p) = r.parity {
                rules.parity = p;
            }
            if let Some(m) = r.max_days {
                if m == 0 {
                    return Err(GameFileError::at(&at("max_days"), "должно быть не меньше 1", "must be at least 1"));
                }
                rules.max_days = m;
            }
            if let Some(n) = r.no_repeat {
                rules.no_repeat = n;
            }
            if let Some(ev) = &r.events {
                for (k, w) in ev {
                    let place = Place::new(lines.get(&format!("rules.events.{k}")), What::Key("[rules] events".into()));
                    let e: Event = word(&place, k)?;
                    if !w.is_finite() || *w < 0.0 {
                        return Err(GameFileError::at(
                            &place,
                            format!("вес события {k} должен быть числом ≥ 0, а не {w}"),
                            format!("the weight of {k} must be a number ≥ 0, not {w}"),
                        ));
                    }
                    rules.event_weights[e as usize] = *w;
                }
                let total: f64 = rules.event_weights.iter().sum();
                if !total.is_finite() {
                    return Err(GameFileError::at(
                        &at("events"),
                        "веса слишком велики: их сумма должна быть конечным числом",
                        "the weights are too large: their sum must be a finite number",
                    ));
                }
            }
        }
        let (deck, blanks) = match &file.deck {
            None => (Setup::default_deck(seats.len()), 0),
            Some(d) => {
                let (mut out, mut blanks) = (Vec::new(), 0);
                for (i, s) in d.iter().enumerate() {
                    let place =
                        Place::new(lines.get(&format!("deck.{i}")), What::Key(format!("deck, карта {}", i + 1)));
                    match slot(&place, s)? {
                        Some(it) => out.push(it),
                        None => blanks += 1,
                    }
                }
                (out, blanks)
            }
        };
        let setup = Setup {
            title: file.title.clone(),
            seed: file.seed.unwrap_or(0),
            rules,
            seats,
            deck,
            blanks,
            shuffle: file.shuffle.unwrap_or(false),
        };
        let names = Names::of(&setup);
        let mut days = Vec::with_capacity(file.days.len());
        for (d, day) in file.days.iter().enumerate() {
            days.push(check_day(&names, lines, d as u32 + 1, day)?);
        }
        Ok(Game { setup, days })
    }
}

/// What tells two names with one skeleton apart, for the error message: the first
/// character that differs (a Latin letter, an invisible character …).
fn look_alike(a: &str, b: &str) -> (String, String) {
    let describe = |c: char| -> (String, String) {
        let code = format!("U+{:04X}", c as u32);
        if c.is_ascii_alphabetic() {
            (format!("латинская буква «{c}» ({code})"), format!("the Latin letter \"{c}\" ({code})"))
        } else if c.is_whitespace() {
            (format!("лишний пробел ({code})"), format!("an extra space ({code})"))
        } else if c.is_alphanumeric() {
            (format!("буква «{c}» ({code})"), format!("the letter \"{c}\" ({code})"))
        } else {
            (format!("невидимый или составной символ {code}"), format!("the invisible or combining character {code}"))
        }
    };
    let (x, y): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let k = x.iter().zip(&y).take_while(|(p, q)| p == q).count();
    // The odd one of the two characters where the names part: an invisible or Latin one.
    let odd = |c: char| !c.is_alphanumeric() || c.is_ascii_alphabetic();
    let second = |c: char| {
        let (ru, en) = describe(c);
        (format!("во втором имени {ru}"), format!("the second name has {en}"))
    };
    let first = |c: char| {
        let (ru, en) = describe(c);
        (format!("в первом имени {ru}"), format!("the first name has {en}"))
    };
    match (x.get(k), y.get(k)) {
        (Some(&c), Some(&d)) if odd(c) && !odd(d) => first(c),
        (_, Some(&d)) => second(d),
        (Some(&c), None) => first(c),
        (None, None) => ("имена записаны одинаково".into(), "the names are written alike".into()),
    }
}

pub(super) fn check_day(names: &Names, lines: &Lines, n: u32, day: &DayEntry) -> Result<DayPlan, GameFileError> {
    let at = |k: &str| Place::new(lines.day_key(n, k), What::Day(n));
    let event = match &day.event {
        None => None,
        Some(s) if matches!(crate::name::fold_id(s).as_str(), "none" | "нет" | "") => Some(None),
        Some(s) => Some(Some(word::<Event>(&at("event"), s)?)),
    };
    let chosen = day.chosen.as_deref().map(|c| names.player(&at("chosen"), "`chosen`", c)).transpose()?;
    let tie_breaks = match &day.tie_break {
        None => vec![],
        Some(t) => {
            t.names().into_iter().map(|c| names.player(&at("tie_break"), "`tie_break`", c)).collect::<Result<_, _>>()?
        }
    };
    let deal = match &day.deal {
        None => None,
        Some(m) => {
            let mut v = Vec::new();
            for (name, item) in m {
                let place = Place::new(lines.get(&format!("days.{}.deal.{name}", n - 1)), What::Day(n));
                let p = names.player(&place, "`deal`", name)?;
                v.push((p, slot(&place, item)?));
            }
            Some(v)
        }
    };
    let mut orders = Vec::with_capacity(day.orders.len());
    for (i, o) in day.orders.iter().enumerate() {
        let place = Place::new(lines.order(n, i), What::Order(n, i + 1, describe(o)));
        orders.push(check_order(names, &place, o)?);
    }
    Ok(DayPlan { event, chosen, tie_breaks, deal, orders })
}
