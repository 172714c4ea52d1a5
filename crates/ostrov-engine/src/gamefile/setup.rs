//! What is fixed before day 1 ([`Setup`]): the seats, the rules, the deck; and how a
//! name written in an order finds its seat ([`SeatIndex`]).

use std::borrow::Cow;
use std::collections::HashMap;

use crate::error::{GameFileError, Place, What};
use crate::item::Item;
use crate::locate::Lines;
use crate::name::{nearest, SeatName};
use crate::order::Order;
use crate::player::PlayerId;
use crate::role::Role;
use crate::ru::Speech;
use crate::rules::Rules;

use super::file::{DayEntry, OrderEntry};
use super::game::{check_day, DayPlan};
use super::order::{check_order, describe};

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
pub(super) struct Names<'a> {
    setup: &'a Setup,
    index: Cow<'a, SeatIndex>,
}

impl<'a> Names<'a> {
    pub(super) fn of(setup: &'a Setup) -> Names<'a> {
        Names { setup, index: Cow::Owned(SeatIndex::of(setup)) }
    }

    fn find(&self, name: &str) -> Option<PlayerId> {
        self.index.find(name)
    }

    /// The player `field` names, or an error that suggests the nearest name.
    pub(super) fn player(&self, place: &Place, field: &str, name: &str) -> Result<PlayerId, GameFileError> {
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

/// Whether `by` names the host: `host`, `ведущий` or `автор` (RULES.md §7); no player
/// may take one of these names (nor one that looks like them).
pub(super) fn is_host_name(name: &str) -> bool {
    let key = SeatName::key_of(name);
    host_names().iter().any(|h| h.key() == key)
}

/// The host's names (RULES.md §7), made once (every order asks).
pub(super) fn host_names() -> &'static [SeatName; 3] {
    static HOST: std::sync::LazyLock<[SeatName; 3]> = std::sync::LazyLock::new(|| {
        ["host", "ведущий", "автор"].map(|n| SeatName::parse(n).expect("the host's names are names"))
    });
    &HOST
}
