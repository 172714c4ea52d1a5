//! One order as written ([`OrderEntry`]) checked against the seats: the act, who sends it,
//! when, and the names and fields the act takes.

use serde_json::Value;

use crate::act::Act;
use crate::error::{GameFileError, Place, UnknownWord};
use crate::item::Item;
use crate::lang::Lang;
use crate::order::{Actor, Clock, Command, Order, Targets};
use crate::player::PlayerId;
use crate::skeleton::clean_line;

use super::file::OrderEntry;
use super::setup::{is_host_name, Names};

pub(super) fn describe(o: &OrderEntry) -> String {
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
    if let Some(w) = &o.what {
        s.push_str(&format!(", what = \"{w}\""));
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
pub(super) fn word<T: std::str::FromStr<Err = UnknownWord>>(place: &Place, s: &str) -> Result<T, GameFileError> {
    s.parse().map_err(|e: UnknownWord| GameFileError::at(place, e.text(Lang::Ru), e.text(Lang::English)))
}

pub(super) fn slot(place: &Place, s: &str) -> Result<Option<Item>, GameFileError> {
    Item::parse_slot(s).map_err(|e| GameFileError::at(place, e.text(Lang::Ru), e.text(Lang::English)))
}

pub(super) fn check_order(names: &Names, place: &Place, o: &OrderEntry) -> Result<Order, GameFileError> {
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
        Act::Withdraw => match &o.what {
            Some(w) => Command::Withdraw(word(place, w)?),
            None => return Err(needs("what")),
        },
    };
    Ok(Order { by, at, command })
}

/// The keys of an order that `act` reads besides `by`, `act` and `at` (GAME_FILE.md's
/// table of orders); [`check_order`] reads no other.
pub(super) const fn keys_of(act: Act) -> &'static [&'static str] {
    match act {
        Act::Vote | Act::Kill | Act::Swap => &["target", "targets"],
        Act::Authority => &["from", "target"],
        Act::Megaphone
        | Act::Sentence
        | Act::Check
        | Act::Heal
        | Act::Recharge
        | Act::Assault
        | Act::Exchange
        | Act::Pair => &["target"],
        Act::Cancel | Act::Light => &[],
        Act::Use => &["item", "target"],
        Act::Bunker => &["item"],
        Act::Ask => &["text"],
        Act::Answer => &["answer"],
        Act::Penalty | Act::Remove => &["target", "reason"],
        Act::Withdraw => &["what"],
    }
}

/// The keys an order may have besides `by`, `act` and `at`, with what each says.
const KEYS: &[(&str, &str, &str)] = &[
    ("target", "кого называет приказ", "whom the order names"),
    ("targets", "два имени списком", "two names in a list"),
    ("from", "у кого Авторитет забирает голос", "whose vote the Authority takes"),
    ("item", "какая вещь", "which item"),
    ("text", "вопрос Духу", "the question to the Spirit"),
    ("answer", "ответ Духа", "the Spirit's answer"),
    ("reason", "за что наказывает ведущий", "why the host acts"),
    ("what", "какой приказ отозвать", "which order to withdraw"),
];

impl OrderEntry {
    /// The keys written in this order that its act does not read — `text` or `from` on a
    /// vote — so they change nothing (issue 29, point 9). Empty for an unknown act (that
    /// is an error of its own).
    ///
    /// ```
    /// use ostrov_engine::OrderEntry;
    /// let vote = OrderEntry { by: "Аня".into(), act: "vote".into(), target: Some("Боря".into()), text: Some("за Борю".into()), ..Default::default() };
    /// assert_eq!(vote.unused_keys(), ["text"]);
    /// ```
    pub fn unused_keys(&self) -> Vec<&'static str> {
        let Some(act) = Act::parse(&self.act) else { return vec![] };
        let written = [
            ("target", self.target.is_some()),
            ("targets", self.targets.is_some()),
            ("from", self.from.is_some()),
            ("item", self.item.is_some()),
            ("text", self.text.is_some()),
            ("answer", self.answer.is_some()),
            ("reason", self.reason.is_some()),
            ("what", self.what.is_some()),
        ];
        written.into_iter().filter(|(k, set)| *set && !keys_of(act).contains(k)).map(|(k, _)| k).collect()
    }
}

/// A key of an order that its act does not read: a warning, never an error — a server's
/// stored orders keep folding as they were taken (issue 29, point 9).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnusedKey {
    /// The line of the key in the file's text, where known.
    pub line: Option<usize>,
    /// The day (from 1) and the order's place in it (from 1).
    pub day: u32,
    pub order: usize,
    /// The order as written, for the message.
    pub written: String,
    pub act: Act,
    pub key: &'static str,
}

impl UnusedKey {
    /// The warning in `lang`: where, which key, what it is for, and which keys the act
    /// reads — «день 1, приказ 2 (…): ключ `text` у `vote` ни на что не влияет и пропущен:
    /// он бывает только у ask (вопрос Духу); у `vote` бывают target, targets».
    pub fn text(&self, lang: Lang) -> String {
        let (day, n, written, key, act) = (self.day, self.order, &self.written, self.key, self.act.id());
        let users: Vec<&str> = Act::ALL.iter().filter(|a| keys_of(**a).contains(&key)).map(|a| a.id()).collect();
        let (ru, en) = KEYS.iter().find(|(k, ..)| *k == key).map_or(("", ""), |(_, ru, en)| (*ru, *en));
        let own = keys_of(self.act).join(", ");
        match lang {
            Lang::Ru => {
                let only = if users.len() == 1 { "только у" } else { "у" };
                let rest = match keys_of(self.act).len() {
                    0 => format!("у `{act}` других ключей нет"),
                    1 => format!("у `{act}` бывает только {own}"),
                    _ => format!("у `{act}` бывают {own}"),
                };
                format!(
                    "день {day}, приказ {n} ({written}): ключ `{key}` у `{act}` ни на что не влияет и пропущен: он \
                     бывает {only} {} ({ru}); {rest}",
                    users.join(", ")
                )
            }
            Lang::English => {
                let rest =
                    if own.is_empty() { format!("`{act}` takes no other key") } else { format!("`{act}` takes {own}") };
                format!(
                    "day {day}, order {n} ({written}): the key `{key}` does nothing on `{act}` and is skipped: it \
                     belongs to {} ({en}); {rest}",
                    users.join(", ")
                )
            }
        }
    }
}
