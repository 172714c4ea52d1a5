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

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::act::Act;
use crate::error::GameFileError;
use crate::event::Event;
use crate::item::Item;
use crate::name::fold_name;
use crate::order::{Actor, Clock, Command, Order, Targets};
use crate::player::PlayerId;
use crate::role::Role;
use crate::ru::Speech;
use crate::rules::{Rules, TieRule};

/// The largest game the engine accepts.
pub const MAX_PLAYERS: usize = 500;
/// The most days a game file may hold.
pub const MAX_DAYS: usize = 1000;

/// A game file as written: names and ids as text, nothing checked yet.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
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
    /// Reads a TOML game file.
    pub fn from_toml(text: &str) -> Result<GameFile, GameFileError> {
        toml::from_str(text)
            .map_err(|e| GameFileError::Syntax(format!("not a valid TOML game file: {}", shorten(&e.to_string()))))
    }

    /// Reads a JSON game file.
    pub fn from_json(text: &str) -> Result<GameFile, GameFileError> {
        serde_json::from_str(text)
            .map_err(|e| GameFileError::Syntax(format!("not a valid JSON game file: {}", shorten(&e.to_string()))))
    }

    /// Reads either form: JSON when the text starts with `{`, TOML otherwise.
    pub fn parse(text: &str) -> Result<GameFile, GameFileError> {
        if text.trim_start().starts_with('{') {
            Self::from_json(text)
        } else {
            Self::from_toml(text)
        }
    }

    /// Reads bytes (checking they are UTF-8) in either form.
    pub fn parse_bytes(bytes: &[u8]) -> Result<GameFile, GameFileError> {
        let text = std::str::from_utf8(bytes).map_err(|e| {
            let line = bytes[..e.valid_up_to()].iter().filter(|&&b| b == b'\n').count() + 1;
            GameFileError::Syntax(format!("the file is not UTF-8 text (line {line}, byte {})", e.valid_up_to()))
        })?;
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        Self::parse(text)
    }

    /// Writes the file as TOML.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a game file always serialises to TOML")
    }
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

    /// Finds a player by name (case-insensitive, `ё` = `е`).
    pub fn find(&self, name: &str) -> Option<PlayerId> {
        let f = fold_name(name);
        self.seats.iter().position(|s| fold_name(&s.name) == f).map(|i| PlayerId(i as u16))
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
        check_order(self, &format!("order ({})", describe(entry)), entry)
    }

    /// Checks day `n`'s entry (its fixed draws and orders) against this setup.
    pub fn plan(&self, n: u32, entry: &DayEntry) -> Result<DayPlan, GameFileError> {
        check_day(self, n, entry)
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

impl Game {
    /// Checks a game file once, turning names into players and words into ids.
    pub fn from_file(file: &GameFile) -> Result<Game, GameFileError> {
        if file.players.is_empty() {
            return Err(GameFileError::Whole("the game file has no [[players]]".into()));
        }
        if file.players.len() > MAX_PLAYERS {
            return Err(GameFileError::Whole(format!(
                "{} players: at most {MAX_PLAYERS} are supported",
                file.players.len()
            )));
        }
        if file.days.len() > MAX_DAYS {
            return Err(GameFileError::Whole(format!("{} days: at most {MAX_DAYS} are supported", file.days.len())));
        }
        let mut seats = Vec::with_capacity(file.players.len());
        let mut seen = std::collections::HashMap::new();
        for (i, p) in file.players.iter().enumerate() {
            let place = format!("player {} (\"{}\")", i + 1, p.name);
            let name = p.name.trim().to_string();
            if name.is_empty() {
                return Err(GameFileError::at(format!("player {}", i + 1), "the name is empty"));
            }
            if is_host_name(&name) {
                return Err(GameFileError::at(
                    place,
                    format!("\"{name}\" is reserved for the host's orders (host, ведущий, автор)"),
                ));
            }
            if let Some(j) = seen.insert(fold_name(&name), i) {
                return Err(GameFileError::at(
                    place,
                    format!("duplicate player name: player {} has the same name", j + 1),
                ));
            }
            let role: Role =
                p.role.parse().map_err(|e: crate::error::UnknownWord| GameFileError::at(&place, e.to_string()))?;
            let item = match &p.item {
                None => None,
                Some(s) => Some(Item::parse_slot(s).map_err(|e| GameFileError::at(&place, e.to_string()))?),
            };
            let speech = Speech::resolve(&name, p.gender.as_deref(), p.forms.as_deref())
                .map_err(|e| GameFileError::at(&place, e.to_string()))?;
            seats.push(Seat { name, role, item, speech });
        }
        let mut rules = Rules::default();
        if let Some(r) = &file.rules {
            if let Some(t) = &r.tie {
                rules.tie = TieRule::parse(t).ok_or_else(|| {
                    GameFileError::at("[rules] tie", format!("\"{t}\" is not one of random, none, all"))
                })?;
            }
            if let Some(p) = r.parity {
                rules.parity = p;
            }
            if let Some(m) = r.max_days {
                if m == 0 {
                    return Err(GameFileError::at("[rules] max_days", "must be at least 1"));
                }
                rules.max_days = m;
            }
            if let Some(n) = r.no_repeat {
                rules.no_repeat = n;
            }
            if let Some(ev) = &r.events {
                for (k, w) in ev {
                    let e: Event = k
                        .parse()
                        .map_err(|e: crate::error::UnknownWord| GameFileError::at("[rules] events", e.to_string()))?;
                    if !w.is_finite() || *w < 0.0 {
                        return Err(GameFileError::at(
                            "[rules] events",
                            format!("the weight of {k} must be a number ≥ 0, not {w}"),
                        ));
                    }
                    rules.event_weights[e as usize] = *w;
                }
                let total: f64 = rules.event_weights.iter().sum();
                if !total.is_finite() {
                    return Err(GameFileError::at(
                        "[rules] events",
                        "the weights are too large: their sum must be a finite number".to_string(),
                    ));
                }
            }
        }
        let (deck, blanks) = match &file.deck {
            None => (Setup::default_deck(seats.len()), 0),
            Some(d) => {
                let (mut out, mut blanks) = (Vec::new(), 0);
                for (i, s) in d.iter().enumerate() {
                    match Item::parse_slot(s) {
                        Ok(Some(it)) => out.push(it),
                        Ok(None) => blanks += 1,
                        Err(e) => return Err(GameFileError::at(format!("deck entry {}", i + 1), e.to_string())),
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
        let mut days = Vec::with_capacity(file.days.len());
        for (d, day) in file.days.iter().enumerate() {
            days.push(check_day(&setup, d as u32 + 1, day)?);
        }
        Ok(Game { setup, days })
    }

    /// Parses and checks a game file's text in one go.
    pub fn parse(text: &str) -> Result<Game, GameFileError> {
        Game::from_file(&GameFile::parse(text)?)
    }
}

/// Whether `by` names the host: `host`, `ведущий` or `автор` (RULES.md §7); no player
/// may take one of these names.
fn is_host_name(name: &str) -> bool {
    matches!(fold_name(name).as_str(), "host" | "ведущий" | "автор")
}

fn player(setup: &Setup, place: &str, field: &str, name: &str) -> Result<PlayerId, GameFileError> {
    setup
        .find(name)
        .ok_or_else(|| GameFileError::at(place, format!("{field} names \"{name}\", who is not a player of this game")))
}

fn check_day(setup: &Setup, n: u32, day: &DayEntry) -> Result<DayPlan, GameFileError> {
    let place = format!("day {n}");
    let event = match &day.event {
        None => None,
        Some(s) if matches!(crate::name::fold_id(s).as_str(), "none" | "нет" | "") => Some(None),
        Some(s) => Some(Some(s.parse::<Event>().map_err(|e| GameFileError::at(&place, e.to_string()))?)),
    };
    let chosen = day.chosen.as_deref().map(|c| player(setup, &place, "`chosen`", c)).transpose()?;
    let tie_breaks = match &day.tie_break {
        None => vec![],
        Some(t) => t.names().into_iter().map(|c| player(setup, &place, "`tie_break`", c)).collect::<Result<_, _>>()?,
    };
    let deal = match &day.deal {
        None => None,
        Some(m) => {
            let mut v = Vec::new();
            for (name, item) in m {
                let p = player(setup, &place, "`deal`", name)?;
                let it = Item::parse_slot(item)
                    .map_err(|e| GameFileError::at(format!("{place}, deal for \"{name}\""), e.to_string()))?;
                v.push((p, it));
            }
            Some(v)
        }
    };
    let mut orders = Vec::with_capacity(day.orders.len());
    for (i, o) in day.orders.iter().enumerate() {
        let oplace = format!("day {n}, order {} ({})", i + 1, describe(o));
        orders.push(check_order(setup, &oplace, o)?);
    }
    Ok(DayPlan { event, chosen, tie_breaks, deal, orders })
}

fn check_order(setup: &Setup, place: &str, o: &OrderEntry) -> Result<Order, GameFileError> {
    let act: Act = o.act.parse().map_err(|e: crate::error::UnknownWord| GameFileError::at(place, e.to_string()))?;
    let by = if is_host_name(&o.by) { Actor::Host } else { Actor::Player(player(setup, place, "`by`", &o.by)?) };
    let at = match &o.at {
        None => Clock::NOON,
        Some(v) => parse_at(v).ok_or_else(|| GameFileError::at(place, format!("`at` = {v} is not a time HH:MM")))?,
    };
    let one = |field: &str, v: &Option<String>| -> Result<PlayerId, GameFileError> {
        match v {
            Some(name) => player(setup, place, &format!("`{field}`"), name),
            None => Err(GameFileError::at(place, format!("`{}` needs `{field}`", act.id()))),
        }
    };
    let targets = |min: usize| -> Result<Targets, GameFileError> {
        let names: Vec<&String> = match (&o.target, &o.targets) {
            (Some(t), None) => vec![t],
            (None, Some(ts)) => ts.iter().collect(),
            (Some(_), Some(_)) => return Err(GameFileError::at(place, "give either `target` or `targets`, not both")),
            (None, None) => {
                return Err(GameFileError::at(place, format!("`{}` needs `target` or `targets`", act.id())))
            }
        };
        if names.len() < min || names.len() > 2 || names.is_empty() {
            return Err(GameFileError::at(
                place,
                format!(
                    "`{}` takes {} names, not {}",
                    act.id(),
                    if min == 2 { "exactly 2" } else { "1 or 2" },
                    names.len()
                ),
            ));
        }
        let a = player(setup, place, "`targets`", names[0])?;
        let b = names.get(1).map(|n| player(setup, place, "`targets`", n)).transpose()?;
        Ok(Targets { first: a, second: b })
    };
    let item = |v: &Option<String>| -> Result<Option<Item>, GameFileError> {
        match v {
            None => Ok(None),
            Some(s) => s.parse::<Item>().map(Some).map_err(|e| GameFileError::at(place, e.to_string())),
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
        Act::Ask => match &o.text {
            Some(t) if !t.trim().is_empty() => Command::Ask(t.trim().to_string()),
            _ => return Err(GameFileError::at(place, "`ask` needs the question in `text`")),
        },
        Act::Answer => {
            let yes = match &o.answer {
                Some(Value::Bool(b)) => *b,
                Some(Value::String(s)) => match crate::name::fold_id(s).as_str() {
                    "yes" | "да" | "true" => true,
                    "no" | "нет" | "false" => false,
                    _ => return Err(GameFileError::at(place, format!("`answer` must be yes or no, not \"{s}\""))),
                },
                _ => return Err(GameFileError::at(place, "`answer` needs `answer` = \"yes\" or \"no\"")),
            };
            Command::Answer(yes)
        }
        Act::Penalty => Command::Penalty { target: one("target", &o.target)?, reason: o.reason.clone() },
        Act::Remove => Command::Remove { target: one("target", &o.target)?, reason: o.reason.clone() },
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
        assert!(e.contains("player 1") && e.contains("дракон"), "{e}");
    }

    #[test]
    fn duplicate_names_fold_yo() {
        let e = Game::parse(
            "[[players]]\nname = \"Алёна\"\nrole = \"seer\"\n[[players]]\nname = \"алена\"\nrole = \"seer\"\n",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("duplicate"), "{e}");
    }

    #[test]
    fn an_order_naming_nobody_is_an_error() {
        let e =
            Game::parse(&two_players("[[days]]\norders = [{ by = \"Аня\", act = \"check\", target = \"Жора\" }]\n"))
                .unwrap_err()
                .to_string();
        assert!(e.contains("day 1, order 1") && e.contains("Жора"), "{e}");
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
        assert!(matches!(e, GameFileError::Syntax(_)));
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
            assert!(e.contains("player 1") && e.contains(want), "{extra}: {e}");
        }
    }

    #[test]
    fn the_host_names_are_reserved() {
        for name in ["host", "Ведущий", "АВТОР"] {
            let e = Game::parse(&format!("[[players]]\nname = \"{name}\"\nrole = \"seer\"\n")).unwrap_err().to_string();
            assert!(e.contains("reserved"), "{e}");
        }
    }

    #[test]
    fn event_weights_that_overflow_together_are_an_error() {
        let e =
            Game::parse(&two_players("[rules]\nevents = { fear = 1e308, rage = 1e308 }\n")).unwrap_err().to_string();
        assert!(e.contains("too large"), "{e}");
    }
}
