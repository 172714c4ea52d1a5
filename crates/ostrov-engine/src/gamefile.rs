//! The game file (GAME_FILE.md): the unchecked text form, and its one-time check into a
//! [`Game`].
//!
//! ```
//! use ostrov_engine::{Game, GameFile};
//! let text = r#"
//! [[players]]
//! name = "Аня"
//! role = "Ясновидящий"
//! item = "none"
//! [[players]]
//! name = "Боря"
//! role = "werewolf"
//! item = "none"
//! "#;
//! let game = Game::from_file(&GameFile::from_toml(text).unwrap()).unwrap();
//! assert_eq!(game.setup.seats.len(), 2);
//! ```

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::act::Act;
use crate::error::{GameFileError, Place, UnknownWord, What};
use crate::event::Event;
use crate::item::Item;
use crate::lang::Lang;
use crate::locate::Lines;
use crate::name::{nearest, SeatName};
use crate::order::{Actor, Clock, Command, Order, Targets};
use crate::player::PlayerId;
use crate::role::Role;
use crate::ru::Speech;
use crate::rules::{Rules, TieRule};
use crate::skeleton::{clean_line, NameProblem};

/// The largest game the engine accepts.
pub const MAX_PLAYERS: usize = 500;
/// The most days a game file may hold.
pub const MAX_DAYS: usize = 1000;

/// A game file as written: names and ids as text, nothing checked yet.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameFile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shuffle: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<RulesEntry>,
    #[serde(default)]
    pub players: Vec<PlayerEntry>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub days: Vec<DayEntry>,
}

/// The `[rules]` table.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesEntry {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tie: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parity: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_days: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_repeat: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub events: Option<BTreeMap<String, f64>>,
}

/// One `[[players]]` entry.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerEntry {
    pub name: String,
    pub role: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item: Option<String>,
    /// `m`/`f` (also `м`/`ж`, `male`/`female`): verbs and roles agree with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gender: Option<String>,
    /// The name's six forms by case: nominative, genitive, dative, accusative,
    /// instrumental, prepositional (`["Лев", "Льва", "Льву", "Льва", "Львом", "Льве"]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forms: Option<Vec<String>>,
}

/// `tie_break`: one name or a list of names.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    fn names(&self) -> Vec<&str> {
        match self {
            OneOrMany::One(s) => vec![s.as_str()],
            OneOrMany::Many(v) => v.iter().map(String::as_str).collect(),
        }
    }
}

/// One `[[days]]` entry.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DayEntry {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chosen: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tie_break: Option<OneOrMany>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal: Option<BTreeMap<String, String>>,
    #[serde(default)]
    pub orders: Vec<OrderEntry>,
}

/// One order as written.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrderEntry {
    pub by: String,
    pub act: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub targets: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<Value>,
}

fn shorten(s: &str) -> String {
    // A garbage file may have one huge line: keep messages readable.
    let mut out = String::new();
    for line in s.lines() {
        let mut l: String = line.chars().take(160).collect();
        if line.chars().count() > 160 {
            l.push('…');
        }
        out.push_str(&l);
        out.push('\n');
        if out.len() > 2000 {
            out.push_str("…\n");
            break;
        }
    }
    out.trim_end().to_string()
}

impl GameFile {
    /// Reads a TOML game file. An unknown key anywhere is an error that names its line
    /// and the nearest known key.
    pub fn from_toml(text: &str) -> Result<GameFile, GameFileError> {
        toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| crate::locate::line_of(&crate::locate::line_starts(text), s.start));
            crate::locate::reader_error(&shorten(e.message()), line, "TOML")
        })
    }

    /// Reads a JSON game file.
    pub fn from_json(text: &str) -> Result<GameFile, GameFileError> {
        serde_json::from_str(text).map_err(|e| {
            let line = (e.line() > 0).then_some(e.line());
            let msg = e.to_string();
            let msg = msg.rsplit_once(" at line ").map_or(msg.as_str(), |(m, _)| m);
            crate::locate::reader_error(&shorten(msg), line, "JSON")
        })
    }

    /// Reads either form: JSON when the text starts with `{`, TOML otherwise.
    pub fn parse(text: &str) -> Result<GameFile, GameFileError> {
        if is_json(text) {
            Self::from_json(text)
        } else {
            Self::from_toml(text)
        }
    }

    /// Reads bytes (checking they are UTF-8) in either form.
    pub fn parse_bytes(bytes: &[u8]) -> Result<GameFile, GameFileError> {
        Self::parse(text_of(bytes)?)
    }

    /// Writes the file as TOML.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a game file always serialises to TOML")
    }
}

fn is_json(text: &str) -> bool {
    text.trim_start().starts_with('{')
}

/// The text of a file's bytes: UTF-8, without a byte order mark.
fn text_of(bytes: &[u8]) -> Result<&str, GameFileError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()].iter().filter(|&&b| b == b'\n').count() + 1;
        GameFileError::new(
            Some(line),
            format!("строка {line}: файл не в кодировке UTF-8 (байт {})", e.valid_up_to()),
            format!("line {line}: the file is not UTF-8 text (byte {})", e.valid_up_to()),
        )
    })?;
    Ok(text.strip_prefix('\u{feff}').unwrap_or(text))
}

/// A player's seat in a checked game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    pub name: String,
    pub role: Role,
    /// `None`: dealt from the deck by the seed; `Some(None)`: no item.
    pub item: Option<Option<Item>>,
    /// The name's gender and forms, as given or as the first-name table knows them.
    pub speech: Speech,
}

impl Seat {
    /// A seat whose name's gender and forms are not given (a common first name is still
    /// declined: [`Speech::resolve`]).
    pub fn new(name: impl Into<String>, role: Role, item: Option<Option<Item>>) -> Seat {
        let name = name.into();
        let speech = Speech::resolve(&name, None, None).unwrap_or_default();
        Seat { name, role, item, speech }
    }
}

/// Everything fixed before day 1.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    pub title: Option<String>,
    pub seed: u64,
    pub rules: Rules,
    pub seats: Vec<Seat>,
    /// The item deck (R-DECK-1).
    pub deck: Vec<Item>,
    /// How many `none` cards the deck holds besides `deck` (R-DECK-1: `none` is a valid
    /// item). They are dealt like items — a player who draws one has no item — and are
    /// not part of the reserve that Bunker draws from.
    pub blanks: usize,
    /// Shuffle the list order by the seed.
    pub shuffle: bool,
}

impl Setup {
    /// The default deck: one of each item, again and again, enough for `players`.
    pub fn default_deck(players: usize) -> Vec<Item> {
        let rounds = players.div_ceil(Item::ALL.len()).max(1);
        (0..rounds).flat_map(|_| Item::ALL.iter().copied()).collect()
    }

    /// Finds a player by name: names that look alike are one name ([`SeatName`]: case,
    /// `ё` = `е`, a Latin «a» for the Cyrillic one, invisible characters, spaces).
    pub fn find(&self, name: &str) -> Option<PlayerId> {
        self.seats.iter().position(|s| SeatName::key_of(&s.name) == SeatName::key_of(name)).map(|i| PlayerId(i as u16))
    }

    /// Checks one order as written (names, act, fields) against this setup's players,
    /// exactly as a game file's order is checked. The rules are not applied here: that is
    /// [`crate::Match::check`].
    ///
    /// ```
    /// use ostrov_engine::{Command, Game, OrderEntry};
    /// let game = Game::parse("[[players]]\nname = \"Аня\"\nrole = \"seer\"\n[[players]]\nname = \"Боря\"\nrole = \"werewolf\"\n").unwrap();
    /// let entry = OrderEntry { by: "аня".into(), act: "check".into(), target: Some("Боря".into()), ..Default::default() };
    /// let order = game.setup.order(&entry).unwrap();
    /// assert!(matches!(order.command, Command::Check(_)));
    /// ```
    pub fn order(&self, entry: &OrderEntry) -> Result<Order, GameFileError> {
        let place = Place::new(None, What::Sent(describe(entry)));
        check_order(&Names::of(self), &place, entry)
    }

    /// The players' names by their keys ([`SeatName`]), made once for checking many orders
    /// with [`Setup::order_in`] (a server checks every order of a game against one index).
    pub fn seat_index(&self) -> SeatIndex {
        SeatIndex::of(self)
    }

    /// [`Setup::order`] with the names looked up in `index`, made by [`Setup::seat_index`]
    /// of this setup: the same answer without computing every seat's skeleton again.
    ///
    /// ```
    /// use ostrov_engine::{Game, OrderEntry};
    /// let game = Game::parse("[[players]]\nname = \"Аня\"\nrole = \"seer\"\n[[players]]\nname = \"Боря\"\nrole = \"werewolf\"\n").unwrap();
    /// let index = game.setup.seat_index();
    /// let entry = OrderEntry { by: "Аня".into(), act: "check".into(), target: Some("БОРЯ".into()), ..Default::default() };
    /// assert_eq!(game.setup.order_in(&index, &entry).unwrap(), game.setup.order(&entry).unwrap());
    /// ```
    pub fn order_in(&self, index: &SeatIndex, entry: &OrderEntry) -> Result<Order, GameFileError> {
        let place = Place::new(None, What::Sent(describe(entry)));
        check_order(&Names { setup: self, index: Cow::Borrowed(index) }, &place, entry)
    }

    /// Checks day `n`'s entry (its fixed draws and orders) against this setup.
    pub fn plan(&self, n: u32, entry: &DayEntry) -> Result<DayPlan, GameFileError> {
        check_day(&Names::of(self), &Lines::default(), n, entry)
    }
}

/// The seats of a setup by their names' keys ([`SeatName::key`], [`Setup::seat_index`]).
#[derive(Clone, Debug, Default)]
pub struct SeatIndex {
    keys: HashMap<String, PlayerId>,
}

impl SeatIndex {
    /// The index of `setup`'s seats. Of two seats with one key (a setup made in code; a
    /// game file refuses them) the first is found, as [`Setup::find`] finds it.
    fn of(setup: &Setup) -> SeatIndex {
        let mut keys = HashMap::with_capacity(setup.seats.len());
        for (i, s) in setup.seats.iter().enumerate() {
            keys.entry(SeatName::key_of(&s.name)).or_insert(PlayerId(i as u16));
        }
        SeatIndex { keys }
    }

    /// The seat `name` names, however it is written (a look-alike of a seat's name is
    /// that seat).
    ///
    /// ```
    /// use ostrov_engine::{Game, PlayerId};
    /// let file = "[[players]]\nname = \"Аня\"\nrole = \"seer\"\n[[players]]\nname = \"Боря\"\nrole = \"werewolf\"\n";
    /// let index = Game::parse(file).unwrap().setup.seat_index();
    /// assert_eq!(index.find("БОРЯ"), Some(PlayerId(1)));
    /// assert_eq!(index.find("Aня"), Some(PlayerId(0))); // a Latin A
    /// assert_eq!(index.find("Вика"), None);
    /// ```
    pub fn find(&self, name: &str) -> Option<PlayerId> {
        self.keys.get(&SeatName::key_of(name)).copied()
    }
}

/// A setup's seats with their index, for finding the player an order names.
struct Names<'a> {
    setup: &'a Setup,
    index: Cow<'a, SeatIndex>,
}

impl<'a> Names<'a> {
    fn of(setup: &'a Setup) -> Names<'a> {
        Names { setup, index: Cow::Owned(SeatIndex::of(setup)) }
    }

    fn find(&self, name: &str) -> Option<PlayerId> {
        self.index.find(name)
    }

    /// The player `field` names, or an error that suggests the nearest name.
    fn player(&self, place: &Place, field: &str, name: &str) -> Result<PlayerId, GameFileError> {
        self.find(name).ok_or_else(|| {
            let near = nearest(name, self.setup.seats.iter().map(|s| s.name.as_str()));
            let (h_ru, h_en) = match &near {
                Some(n) => (format!(" — может быть, «{n}»?"), format!(" — did you mean \"{n}\"?")),
                None => (String::new(), String::new()),
            };
            GameFileError::at(
                place,
                format!("{field} называет «{name}», а такого игрока в игре нет{h_ru}"),
                format!("{field} names \"{name}\", who is not a player of this game{h_en}"),
            )
        })
    }
}

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

/// A checked game: a [`Setup`] and the days played so far.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    pub setup: Setup,
    pub days: Vec<DayPlan>,
}

fn describe(o: &OrderEntry) -> String {
    let mut s = format!("by = \"{}\", act = \"{}\"", o.by, o.act);
    if let Some(t) = &o.target {
        s.push_str(&format!(", target = \"{t}\""));
    }
    if let Some(ts) = &o.targets {
        s.push_str(&format!(", targets = {ts:?}"));
    }
    if let Some(f) = &o.from {
        s.push_str(&format!(", from = \"{f}\""));
    }
    s
}

fn parse_at(v: &Value) -> Option<Clock> {
    match v {
        Value::String(s) => Clock::parse(s),
        // A bare TOML time (`at = 13:05`) arrives as a datetime table.
        Value::Object(m) => {
            m.values().next().and_then(Value::as_str).and_then(|s| Clock::parse(s.get(..5).unwrap_or(s)))
        }
        _ => None,
    }
}

/// A word of the rules' vocabulary, or the error at `place`.
fn word<T: std::str::FromStr<Err = UnknownWord>>(place: &Place, s: &str) -> Result<T, GameFileError> {
    s.parse().map_err(|e: UnknownWord| GameFileError::at(place, e.text(Lang::Ru), e.text(Lang::English)))
}

fn slot(place: &Place, s: &str) -> Result<Option<Item>, GameFileError> {
    Item::parse_slot(s).map_err(|e| GameFileError::at(place, e.text(Lang::Ru), e.text(Lang::English)))
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
    /// the messages of what comes later (a resolution's errors, refused orders).
    pub fn parse_bytes(bytes: &[u8]) -> Result<(Game, Lines), GameFileError> {
        let text = text_of(bytes)?;
        let file = GameFile::parse(text)?;
        let lines = if is_json(text) { Lines::of_json(text) } else { Lines::of_toml(text) };
        Ok((Game::check(&file, &lines)?, lines))
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

/// Whether `by` names the host: `host`, `ведущий` or `автор` (RULES.md §7); no player
/// may take one of these names (nor one that looks like them).
fn is_host_name(name: &str) -> bool {
    let key = SeatName::key_of(name);
    host_names().iter().any(|h| h.key() == key)
}

/// The host's names (RULES.md §7), made once (every order asks).
fn host_names() -> &'static [SeatName; 3] {
    static HOST: std::sync::LazyLock<[SeatName; 3]> = std::sync::LazyLock::new(|| {
        ["host", "ведущий", "автор"].map(|n| SeatName::parse(n).expect("the host's names are names"))
    });
    &HOST
}

fn check_day(names: &Names, lines: &Lines, n: u32, day: &DayEntry) -> Result<DayPlan, GameFileError> {
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

fn check_order(names: &Names, place: &Place, o: &OrderEntry) -> Result<Order, GameFileError> {
    let act: Act = word(place, &o.act)?;
    let by = if is_host_name(&o.by) { Actor::Host } else { Actor::Player(names.player(place, "`by`", &o.by)?) };
    let at = match &o.at {
        None => Clock::NOON,
        Some(v) => parse_at(v).ok_or_else(|| {
            GameFileError::at(place, format!("`at` = {v} — не время ЧЧ:ММ"), format!("`at` = {v} is not a time HH:MM"))
        })?,
    };
    let id = act.id();
    let needs = |field: &str| {
        GameFileError::at(place, format!("для `{id}` нужен ключ `{field}`"), format!("`{id}` needs `{field}`"))
    };
    let one = |field: &str, v: &Option<String>| -> Result<PlayerId, GameFileError> {
        match v {
            Some(name) => names.player(place, &format!("`{field}`"), name),
            None => Err(needs(field)),
        }
    };
    let targets = |min: usize| -> Result<Targets, GameFileError> {
        let list: Vec<&String> = match (&o.target, &o.targets) {
            (Some(t), None) => vec![t],
            (None, Some(ts)) => ts.iter().collect(),
            (Some(_), Some(_)) => {
                return Err(GameFileError::at(
                    place,
                    "нужен либо `target`, либо `targets`, но не оба",
                    "give either `target` or `targets`, not both",
                ))
            }
            (None, None) => {
                return Err(GameFileError::at(
                    place,
                    format!("для `{id}` нужен `target` или `targets`"),
                    format!("`{id}` needs `target` or `targets`"),
                ))
            }
        };
        if list.len() < min || list.len() > 2 || list.is_empty() {
            let k = list.len();
            return Err(GameFileError::at(
                place,
                format!("`{id}` называет {} {}, а не {k}", if min == 2 { "ровно 2" } else { "1 или 2" }, "имени"),
                format!("`{id}` takes {} names, not {k}", if min == 2 { "exactly 2" } else { "1 or 2" }),
            ));
        }
        let field = if o.target.is_some() { "`target`" } else { "`targets`" };
        let a = names.player(place, field, list[0])?;
        let b = list.get(1).map(|n| names.player(place, field, n)).transpose()?;
        Ok(Targets { first: a, second: b })
    };
    let item = |v: &Option<String>| -> Result<Option<Item>, GameFileError> {
        match v {
            None => Ok(None),
            Some(s) => word::<Item>(place, s).map(Some),
        }
    };
    let command = match act {
        Act::Vote => Command::Vote(targets(1)?),
        Act::Kill => Command::Kill(targets(1)?),
        Act::Megaphone => Command::Megaphone(one("target", &o.target)?),
        Act::Authority => Command::Authority { from: one("from", &o.from)?, target: one("target", &o.target)? },
        Act::Sentence => Command::Sentence(one("target", &o.target)?),
        Act::Check => Command::Check(one("target", &o.target)?),
        Act::Heal => Command::Heal(one("target", &o.target)?),
        Act::Cancel => Command::Cancel,
        Act::Swap => {
            let t = targets(2)?;
            Command::Swap(t.first, t.second.expect("two targets were checked"))
        }
        Act::Recharge => Command::Recharge(one("target", &o.target)?),
        Act::Assault => Command::Assault(one("target", &o.target)?),
        Act::Use => Command::Use { item: item(&o.item)?, target: one("target", &o.target)? },
        Act::Bunker => Command::Bunker { item: item(&o.item)? },
        Act::Exchange => Command::Exchange(one("target", &o.target)?),
        Act::Light => Command::Light,
        Act::Pair => Command::Pair(one("target", &o.target)?),
        Act::Ask => match o.text.as_deref().map(clean_line) {
            Some(t) if !t.is_empty() => Command::Ask(t),
            _ => return Err(needs("text")),
        },
        Act::Answer => {
            let yes = match &o.answer {
                Some(Value::Bool(b)) => *b,
                Some(Value::String(s)) => match crate::name::fold_id(s).as_str() {
                    "yes" | "да" | "true" => true,
                    "no" | "нет" | "false" => false,
                    _ => {
                        return Err(GameFileError::at(
                            place,
                            format!("`answer` — это yes или no (да или нет), а не «{s}»"),
                            format!("`answer` must be yes or no, not \"{s}\""),
                        ))
                    }
                },
                _ => return Err(needs("answer")),
            };
            Command::Answer(yes)
        }
        Act::Penalty => {
            Command::Penalty { target: one("target", &o.target)?, reason: o.reason.as_deref().map(clean_line) }
        }
        Act::Remove => {
            Command::Remove { target: one("target", &o.target)?, reason: o.reason.as_deref().map(clean_line) }
        }
    };
    Ok(Order { by, at, command })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_players(extra: &str) -> String {
        format!(
            "[[players]]\nname = \"Аня\"\nrole = \"seer\"\n[[players]]\nname = \"Боря\"\nrole = \"werewolf\"\n{extra}"
        )
    }

    #[test]
    fn unknown_role_names_the_player() {
        let e = Game::parse("[[players]]\nname = \"Аня\"\nrole = \"дракон\"\n").unwrap_err().to_string();
        assert!(e.contains("строка 3, игрок 1") && e.contains("неизвестная роль «дракон»"), "{e}");
    }

    #[test]
    fn duplicate_names_fold_yo() {
        let e = Game::parse(
            "[[players]]\nname = \"Алёна\"\nrole = \"seer\"\n[[players]]\nname = \"алена\"\nrole = \"seer\"\n",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("не отличить от имени игрока 1"), "{e}");
    }

    #[test]
    fn an_order_naming_nobody_is_an_error() {
        let e =
            Game::parse(&two_players("[[days]]\norders = [{ by = \"Аня\", act = \"check\", target = \"Жора\" }]\n"))
                .unwrap_err()
                .to_string();
        assert!(e.contains("строка 8, день 1, приказ 1") && e.contains("«Жора», а такого игрока в игре нет"), "{e}");
    }

    #[test]
    fn bare_toml_time_is_accepted() {
        let g = Game::parse(&two_players(
            "[[days]]\norders = [{ by = \"Аня\", act = \"check\", target = \"боря\", at = 13:05:00 }]\n",
        ))
        .unwrap();
        assert_eq!(g.days[0].orders[0].at, Clock::hm(13, 5));
    }

    #[test]
    fn truncated_toml_is_a_syntax_error() {
        let e = Game::parse("[[players]]\nname = \"Аня").unwrap_err();
        assert_eq!(e.line, Some(2), "{e}");
        assert!(e.to_string().starts_with("строка 2: это не файл игры в формате TOML"), "{e}");
    }

    #[test]
    fn json_and_toml_read_the_same() {
        let t = Game::parse(&two_players("")).unwrap();
        let j =
            Game::parse(r#"{"players":[{"name":"Аня","role":"seer"},{"name":"Боря","role":"Оборотень"}]}"#).unwrap();
        assert_eq!(t, j);
    }
    /// R-DECK-1: `none` is a valid item, so a `none` card in a host's deck is dealt like
    /// any other: over many seeds each of the two unfixed players sometimes draws the
    /// trap and sometimes nothing, and the reserve keeps only real items.
    #[test]
    fn r_deck_1_none_cards_are_dealt_at_random() {
        let mut drew = [[0u32; 2]; 2];
        for seed in 0..64 {
            let g = Game::parse(&format!(
                "seed = {seed}\ndeck = [\"none\", \"trap\", \"fang\"]\n[[players]]\nname = \"Аня\"\nrole = \"seer\"\n\
                 [[players]]\nname = \"Боря\"\nrole = \"werewolf\"\n[[players]]\nname = \"Вика\"\nrole = \"passenger\"\nitem = \"fang\"\n"
            ))
            .unwrap();
            assert_eq!(g.setup.blanks, 1);
            let m = crate::Match::new(&g.setup, false);
            for (k, p) in m.state.players.iter().take(2).enumerate() {
                assert!(matches!(p.item.map(|h| h.item), None | Some(Item::Trap)));
                drew[k][p.item.is_some() as usize] += 1;
            }
            // Whatever of none/trap was not dealt: the trap goes to the reserve, a none card does not.
            let dealt_trap = m.state.players.iter().any(|p| p.item.map(|h| h.item) == Some(Item::Trap));
            assert_eq!(m.state.reserve, if dealt_trap { vec![] } else { vec![Item::Trap] });
        }
        assert!(drew.iter().flatten().all(|&c| c > 0), "{drew:?}");
    }

    #[test]
    fn gender_and_forms_are_read_and_checked() {
        use crate::ru::{Case, Gender};
        let g = Game::parse(
            "[[players]]\nname = \"Тётя_Мотя\"\nrole = \"seer\"\ngender = \"ж\"\n\
             [[players]]\nname = \"Кот\"\nrole = \"werewolf\"\ngender = \"male\"\n\
             forms = [\"Кот\", \"Кота\", \"Коту\", \"Кота\", \"Котом\", \"Коте\"]\n\
             [[players]]\nname = \"Никита\"\nrole = \"passenger\"\n",
        )
        .unwrap();
        let s = &g.setup.seats;
        assert_eq!((s[0].speech.gender, s[0].speech.form(Case::Acc)), (Some(Gender::Female), None));
        assert_eq!((s[1].speech.gender, s[1].speech.form(Case::Ins)), (Some(Gender::Male), Some("Котом")));
        // A common first name is declined by the table, its gender known.
        assert_eq!((s[2].speech.gender, s[2].speech.form(Case::Acc)), (Some(Gender::Male), Some("Никиту")));
        for (extra, want) in [
            ("gender = \"x\"", "`gender`"),
            ("forms = [\"Аня\", \"Ани\"]", "шесть форм"),
            ("forms = [\"Оля\", \"Оли\", \"Оле\", \"Олю\", \"Олей\", \"Оле\"]", "первая форма"),
        ] {
            let e = Game::parse(&format!("[[players]]\nname = \"Аня\"\nrole = \"seer\"\n{extra}\n"))
                .unwrap_err()
                .to_string();
            assert!(e.contains("строка 4, игрок 1") && e.contains(want), "{extra}: {e}");
        }
    }

    #[test]
    fn the_host_names_are_reserved() {
        for name in ["host", "Ведущий", "АВТОР"] {
            let e = Game::parse(&format!("[[players]]\nname = \"{name}\"\nrole = \"seer\"\n")).unwrap_err().to_string();
            assert!(e.contains("занято приказами ведущего"), "{e}");
        }
    }

    #[test]
    fn event_weights_that_overflow_together_are_an_error() {
        let e =
            Game::parse(&two_players("[rules]\nevents = { fear = 1e308, rage = 1e308 }\n")).unwrap_err().to_string();
        assert!(e.contains("веса слишком велики"), "{e}");
    }

    fn err(text: &str) -> GameFileError {
        Game::parse(text).unwrap_err()
    }

    /// Unknown keys in every table are refused with their line and the nearest key.
    #[test]
    fn unknown_keys_are_refused_with_the_line_and_the_nearest_key() {
        let e = err(&two_players("[[days]]\ntie_brake = \"Аня\"\n"));
        assert_eq!(e.to_string(), "неизвестный ключ `tie_brake` (строка 8) — может быть, `tie_break`?");
        assert_eq!(e.text(Lang::English), "unknown key `tie_brake` (line 8) — did you mean `tie_break`?");
        let e = err(&two_players("[[days]]\nevnt = \"fear\"\n"));
        assert_eq!(e.to_string(), "неизвестный ключ `evnt` (строка 8) — может быть, `event`?");
        let e = err(&format!("titel = \"x\"\n{}", two_players("")));
        assert!(e.to_string().starts_with("неизвестный ключ `titel` (строка 1) — может быть, `title`?"), "{e}");
        let e = err(&two_players("[rules]\nparty = true\n"));
        assert!(e.to_string().contains("`party` (строка 8) — может быть, `parity`?"), "{e}");
        let e = err("[[players]]\nname = \"Аня\"\nrole = \"seer\"\nitme = \"trap\"\n");
        assert!(e.to_string().contains("`itme` (строка 4) — может быть, `item`?"), "{e}");
        let e = err(&two_players("[[days]]\norders = [\n  { by = \"Аня\", act = \"check\", taget = \"Боря\" },\n]\n"));
        assert!(e.to_string().contains("`taget` (строка 9) — может быть, `target`?"), "{e}");
        // A day's key at the top level says where it belongs.
        let e = err(&format!("tie_brake = \"Аня\"\n{}", two_players("")));
        assert!(e.to_string().contains("может быть, `tie_break`? Это ключ таблицы [[days]]"), "{e}");
        // JSON too, with its line.
        let e = err("{\n\"players\": [{\"name\": \"Аня\", \"role\": \"seer\",\n \"itme\": \"trap\"}]}");
        assert_eq!(e.line, Some(3), "{e}");
        assert!(e.to_string().contains("`itme` (строка 3) — может быть, `item`?"), "{e}");
    }

    /// A lost `[[days]]` header: the day's keys land in the last player's entry (or at the
    /// top level) — an error naming the line, never a shifted game.
    #[test]
    fn a_lost_days_header_is_an_error_naming_the_line() {
        let e = err(&two_players("event = \"fear\"\norders = [{ by = \"Аня\", act = \"vote\", target = \"Боря\" }]\n"));
        assert_eq!(e.line, Some(7), "{e}");
        assert!(e.to_string().starts_with("ключ дня `event` (строка 7) стоит в записи игрока [[players]]"), "{e}");
        assert!(e.to_string().contains("пропущен заголовок [[days]]"), "{e}");
        let e = err(&two_players("orders = [{ by = \"Аня\", act = \"vote\", target = \"Боря\" }]\n"));
        assert!(e.to_string().starts_with("ключ дня `orders` (строка 7)"), "{e}");
        // Between two days: the second day's keys repeat the first day's.
        let e = err(&two_players(
            "[[days]]\norders = [{ by = \"Аня\", act = \"vote\", target = \"Боря\" }]\norders = [{ by = \"Боря\", act = \"vote\", target = \"Аня\" }]\n",
        ));
        assert!(
            e.to_string().contains("ключ `orders` повторяется — похоже, между двумя днями пропущен заголовок [[days]]"),
            "{e}"
        );
        assert_eq!(e.line, Some(9), "{e}");
    }

    /// Look-alike names are one name: two seats whose skeletons agree are refused, naming
    /// both lines and what differs.
    #[test]
    fn look_alike_player_names_are_refused_naming_both_lines() {
        for (twin, what) in [
            ("Никитa", "латинская буква «a»"),
            ("Ники\u{200B}та", "U+200B"),
            ("Никита\u{0301}", "U+0301"),
            ("НИКИТА", "буква «И»"),
        ] {
            let text = format!(
                "[[players]]\nname = \"Никита\"\nrole = \"seer\"\n[[players]]\nname = \"{twin}\"\nrole = \"werewolf\"\n"
            );
            let e = err(&text).to_string();
            assert!(e.starts_with("строка 5, игрок 2"), "{twin}: {e}");
            assert!(
                e.contains("не отличить от имени игрока 1 («Никита», строка 2)") && e.contains(what),
                "{twin}: {e}"
            );
        }
        let e = err("[[players]]\nname = \"Анна Мария\"\nrole = \"seer\"\n[[players]]\nname = \"Анна  Мария\"\nrole = \"werewolf\"\n");
        assert!(e.to_string().contains("лишний пробел"), "{e}");
        // NFD (е + combining breve) is the same name as NFC «й».
        let e = err("[[players]]\nname = \"Йоко\"\nrole = \"seer\"\n[[players]]\nname = \"И\u{0306}око\"\nrole = \"werewolf\"\n");
        assert!(e.to_string().contains("не отличить"), "{e}");
    }

    /// One notion of "the same name" for every lookup: the setup, its index and a match
    /// find the same seat for every look-alike — and, of two look-alike seats made in code
    /// (a game file refuses them), the first.
    #[test]
    fn every_lookup_finds_the_same_seat() {
        let mut setup = Game::parse(&two_players("")).unwrap().setup;
        setup.seats.push(Seat::new("Aня", Role::Passenger, None)); // a Latin A: seat 0's twin
        let index = setup.seat_index();
        let m = crate::Match::new(&setup, false);
        for (text, seat) in [("Аня", 0), ("aня", 0), ("Ан\u{200B}я\u{FE0F}", 0), ("БОРЯ", 1), ("Бoря", 1)]
        {
            let seat = Some(PlayerId(seat));
            assert_eq!((setup.find(text), index.find(text), m.find(text)), (seat, seat, seat), "{text:?}");
        }
        assert_eq!((setup.find("Вика"), index.find("Вика"), m.find("Вика")), (None, None, None));
    }

    /// An order naming a look-alike of a player is that player; an unknown name suggests
    /// the nearest one.
    #[test]
    fn orders_find_look_alikes_and_suggest_the_nearest_player() {
        let g =
            Game::parse(&two_players("[[days]]\norders = [{ by = \"Aня\", act = \"check\", target = \"боря\" }]\n"))
                .unwrap();
        assert_eq!(g.days[0].orders[0].by, Actor::Player(PlayerId(0)));
        let e = err(&two_players("[[days]]\norders = [{ by = \"Аня\", act = \"check\", target = \"Борян\" }]\n"));
        assert!(
            e.to_string().ends_with("`target` называет «Борян», а такого игрока в игре нет — может быть, «Боря»?"),
            "{e}"
        );
        assert!(e.text(Lang::English).ends_with("did you mean \"Боря\"?"), "{e:?}");
    }

    /// The feminine and inflected forms hosts write are the roles; an unknown one
    /// suggests the nearest word.
    #[test]
    fn feminine_and_inflected_role_names() {
        for (word, role) in [
            ("Ясновидящая", Role::Seer),
            ("оборотня", Role::Werewolf),
            ("Оборотней", Role::Werewolf),
            ("Неприкасаемая", Role::Untouchable),
            ("колдун", Role::Witch),
            ("медбрат", Role::Nurse),
            ("лунатичка", Role::Sleepwalker),
        ] {
            assert_eq!(word.parse::<Role>(), Ok(role), "{word}");
        }
        let e = err("[[players]]\nname = \"Аня\"\nrole = \"Ясновидяшая\"\n").to_string();
        assert!(e.contains("может быть, «Ясновидящая»?"), "{e}");
    }

    /// Every alias of every vocabulary means one thing: no word is two roles (or two
    /// items, events, acts).
    #[test]
    fn no_alias_is_ambiguous() {
        fn check<T: Copy + std::fmt::Debug>(all: &[T], names: impl Fn(T) -> &'static [&'static str]) {
            let mut seen = HashMap::new();
            for v in all {
                for n in names(*v) {
                    if let Some(other) = seen.insert(crate::name::fold_id(n), format!("{v:?}")) {
                        assert_eq!(other, format!("{v:?}"), "{n} is both");
                    }
                }
            }
        }
        check(Role::ALL, Role::names);
        check(Item::ALL, Item::names);
        check(Event::ALL, Event::names);
        check(Act::ALL, Act::names);
    }

    /// O-TIME-4: an order from 22:00 to 23:59 was sent the evening before the day opens
    /// its morning; it comes before the morning's orders and is not late.
    #[test]
    fn o_time_4_evening_orders_come_first_and_count() {
        let g = Game::parse(&format!(
            "{}[[days]]\nevent = \"none\"\norders = [\n  {{ by = \"Аня\", act = \"vote\", target = \"Вика\", at = \"09:00\" }},\n  {{ by = \"Аня\", act = \"vote\", target = \"Боря\", at = \"23:30\" }},\n  {{ by = \"Вика\", act = \"vote\", target = \"Боря\", at = \"22:05\" }},\n]\n",
            "[[players]]\nname = \"Аня\"\nrole = \"seer\"\nitem = \"none\"\n[[players]]\nname = \"Боря\"\nrole = \"werewolf\"\nitem = \"none\"\n[[players]]\nname = \"Вика\"\nrole = \"passenger\"\nitem = \"none\"\n"
        ))
        .unwrap();
        let r = crate::resolve(&g).unwrap();
        // Аня's 09:00 vote is later than her 23:30 one, so it is the one that counts.
        assert_eq!(r.days[0].tally.get("Вика"), 1);
        assert_eq!(r.days[0].tally.get("Боря"), 2);
        assert!(r.days[0].rejected.is_empty(), "{:?}", r.days[0].rejected);
    }
}
