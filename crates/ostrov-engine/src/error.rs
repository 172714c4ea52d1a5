//! Typed errors: why a game file is not a game, and why a resolution cannot go on. Every
//! message is in Russian (the `Display`) and in English ([`GameFileError::text`]), and
//! names the line of the file where there is one.

use thiserror::Error;

use crate::lang::Lang;

/// A word (role, item, event, act …) that is not in the rules.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{}", self.text(Lang::Ru))]
pub struct UnknownWord {
    /// What kind of word, in English (`role`, `item`, `event`, `act`).
    pub what: &'static str,
    pub word: String,
    /// The known ids, comma-separated.
    pub known: String,
    /// The nearest known word (an id or a Russian name), when one is close.
    pub nearest: Option<String>,
}

impl UnknownWord {
    /// The message in `lang`: «неизвестная роль «дракон» — может быть, «…»? (известны: …)».
    pub fn text(&self, lang: Lang) -> String {
        let hint = |ru: bool| match &self.nearest {
            Some(n) if ru => format!(" — может быть, «{n}»?"),
            Some(n) => format!(" — did you mean \"{n}\"?"),
            None => String::new(),
        };
        match lang {
            Lang::Ru => {
                let what = match self.what {
                    "role" => "неизвестная роль",
                    "item" => "неизвестная вещь",
                    "event" => "неизвестное событие",
                    "act" => "неизвестное действие",
                    _ => "неизвестное слово",
                };
                format!("{what} «{}»{} (известны: {})", self.word, hint(true), self.known)
            }
            Lang::English => format!("unknown {} \"{}\"{} (known: {})", self.what, self.word, hint(false), self.known),
        }
    }
}

/// Why a game file cannot be read as a game. The message names the line of the file
/// where the text is known (a file read from text), and the place (player, day, order).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{ru}")]
pub struct GameFileError {
    /// The line of the file (from 1), where known.
    pub line: Option<usize>,
    ru: String,
    en: String,
}

impl GameFileError {
    /// A problem at a place; both texts already say where (see [`Place`]).
    pub(crate) fn new(line: Option<usize>, ru: String, en: String) -> Self {
        GameFileError { line, ru, en }
    }

    /// A problem at `place` of the file: «строка 12, игрок 3 («Аня»): …».
    pub(crate) fn at(place: &Place, ru: impl Into<String>, en: impl Into<String>) -> Self {
        let (ru, en) = (ru.into(), en.into());
        GameFileError { line: place.line, ru: format!("{}: {ru}", place.ru()), en: format!("{}: {en}", place.en()) }
    }

    /// The message in `lang`.
    pub fn text(&self, lang: Lang) -> &str {
        match lang {
            Lang::Ru => &self.ru,
            Lang::English => &self.en,
        }
    }
}

/// Where in a game file something is: what it is (a player, a day, an order …) and, for
/// a file read from text, its line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Place {
    pub line: Option<usize>,
    pub what: What,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum What {
    /// The file as a whole.
    File,
    /// A key of the top level or of `[rules]`: `deck`, `[rules] tie`, …
    Key(String),
    /// Player `index` (from 1) and the name as written.
    Player(usize, String),
    /// Day `n`.
    Day(u32),
    /// Day `n`'s order `index` (from 1), and the order as written.
    Order(u32, usize, String),
    /// An order on its own (sent to the server), as written.
    Sent(String),
}

impl Place {
    pub fn new(line: Option<usize>, what: What) -> Place {
        Place { line, what }
    }

    fn ru(&self) -> String {
        let what = match &self.what {
            What::File => "файл".to_string(),
            What::Key(k) => format!("ключ {k}"),
            What::Player(i, name) => format!("игрок {i} («{name}»)"),
            What::Day(n) => format!("день {n}"),
            What::Order(n, i, o) => format!("день {n}, приказ {i} ({o})"),
            What::Sent(o) => format!("приказ ({o})"),
        };
        match self.line {
            Some(l) => format!("строка {l}, {what}"),
            None => what,
        }
    }

    fn en(&self) -> String {
        let what = match &self.what {
            What::File => "the file".to_string(),
            What::Key(k) => format!("key {k}"),
            What::Player(i, name) => format!("player {i} (\"{name}\")"),
            What::Day(n) => format!("day {n}"),
            What::Order(n, i, o) => format!("day {n}, order {i} ({o})"),
            What::Sent(o) => format!("order ({o})"),
        };
        match self.line {
            Some(l) => format!("line {l}, {what}"),
            None => what,
        }
    }
}

/// Why a resolution stopped: the file fixes a draw the rules cannot honour, or has
/// orders after the game ended. `Display` is Russian; [`ResolveError::text`] either.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ResolveError {
    #[error("{}", self.text(Lang::Ru))]
    TieBreakNotTied { day: u32, name: String, tied: String },
    #[error("{}", self.text(Lang::Ru))]
    ChosenNotAlive { day: u32, name: String },
    /// `deal` of Tsunami: the problem in Russian and in English.
    #[error("{}", self.text(Lang::Ru))]
    BadDeal { day: u32, ru: String, en: String },
    #[error("{}", self.text(Lang::Ru))]
    AfterEnd { day: u32, ended: u32, winner: String, winner_ru: String },
    #[error("{}", self.text(Lang::Ru))]
    NoDay { day: u32 },
}

impl ResolveError {
    /// The day the problem is on.
    pub fn day(&self) -> u32 {
        match self {
            ResolveError::TieBreakNotTied { day, .. }
            | ResolveError::ChosenNotAlive { day, .. }
            | ResolveError::BadDeal { day, .. }
            | ResolveError::AfterEnd { day, .. }
            | ResolveError::NoDay { day } => *day,
        }
    }

    /// The key of the day's `[[days]]` entry the problem is about, if one.
    pub fn key(&self) -> Option<&'static str> {
        match self {
            ResolveError::TieBreakNotTied { .. } => Some("tie_break"),
            ResolveError::ChosenNotAlive { .. } => Some("chosen"),
            ResolveError::BadDeal { .. } => Some("deal"),
            ResolveError::AfterEnd { .. } => Some("orders"),
            ResolveError::NoDay { .. } => None,
        }
    }

    /// The message in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        match (self, lang) {
            (ResolveError::TieBreakNotTied { day, name, tied }, Lang::Ru) => {
                format!("день {day}: `tie_break` называет «{name}», но ничью разделили другие: {tied}")
            }
            (ResolveError::TieBreakNotTied { day, name, tied }, Lang::English) => {
                format!("day {day}: tie_break \"{name}\" is not among the tied ({tied})")
            }
            (ResolveError::ChosenNotAlive { day, name }, Lang::Ru) => {
                format!("день {day}: `chosen` называет «{name}» — этого игрока уже нет в игре")
            }
            (ResolveError::ChosenNotAlive { day, name }, Lang::English) => {
                format!("day {day}: `chosen` names {name}, who is not alive")
            }
            (ResolveError::BadDeal { day, ru, .. }, Lang::Ru) => format!("день {day}: `deal` {ru}"),
            (ResolveError::BadDeal { day, en, .. }, Lang::English) => format!("day {day}: `deal` {en}"),
            (ResolveError::AfterEnd { day, ended, winner_ru, .. }, Lang::Ru) => format!(
                "день {day}: игра уже закончилась в день {ended} ({winner_ru}); после конца игры дней с приказами быть \
                 не может: уберите приказы дней после {ended}-го"
            ),
            (ResolveError::AfterEnd { day, ended, winner, .. }, Lang::English) => format!(
                "day {day}: the game already ended on day {ended} ({winner}); a game file may not continue after its end"
            ),
            (ResolveError::NoDay { day }, Lang::Ru) => format!("день {day}: день не открыт"),
            (ResolveError::NoDay { day }, Lang::English) => format!("day {day}: the day is not open"),
        }
    }
}
