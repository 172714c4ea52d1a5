//! The practice server of `ostrov demo` (issue 32, point 5): what it is set to and the
//! facts of a practice game — the guests' names, the game's settings, the limits. The use
//! case (a guest arrives and is seated) is [`crate::service::demo`]; the page that does it,
//! `GET /` in demo mode, `web/demo.rs`. A server without these settings (`ostrov serve`)
//! has no guests and no practice games.

use std::net::IpAddr;

use ostrov_engine::ru::Gender;
use ostrov_engine::RulesEntry;

use crate::game::{Config, Visibility};
use crate::ratelimit::Quota;
use crate::schedule::Schedule;

/// Bots at a practice game's table, beside its one guest.
pub const BOTS: usize = 6;

/// Practice games running at once on one server: a guest who comes when they are all
/// running is asked to come back in a few minutes (each ends by itself: bots play it to
/// its end, and [`MAX_DAYS`] bounds it).
pub const LIVE_GAMES: usize = 20;

/// Guests one client address may become in an hour.
pub const GUESTS_PER_HOUR: usize = 6;

/// Guests the whole server takes in an hour: what a flood from many addresses can make it
/// store (each guest is an account row).
pub const ALL_GUESTS_PER_HOUR: usize = 120;

/// The last day of a practice game (the house rule `max_days`): nobody has to wait for
/// an idle guest's game to end.
pub const MAX_DAYS: u32 = 12;

/// The minutes a practice day may last: the fast clock's.
pub const DAY_MINUTES: std::ops::RangeInclusive<u32> = crate::schedule::FAST_MINUTES;

/// The account that hosts every practice game (nobody signs in as it).
pub const HOST_NAME: &str = "Ведущий практики";

/// A practice game's title.
pub const TITLE: &str = "Практическая игра";

/// The first names guests sit under: common names the engine declines by itself
/// (docs/RUSSIAN.md), so every sentence of the game says them in the right case and agrees
/// with the gender.
pub const GUEST_NAMES: &[(&str, Gender)] = &[
    ("Алиса", Gender::Female),
    ("Антон", Gender::Male),
    ("Вера", Gender::Female),
    ("Глеб", Gender::Male),
    ("Дина", Gender::Female),
    ("Егор", Gender::Male),
    ("Зоя", Gender::Female),
    ("Кирилл", Gender::Male),
    ("Лиза", Gender::Female),
    ("Максим", Gender::Male),
    ("Нина", Gender::Female),
    ("Роман", Gender::Male),
    ("Соня", Gender::Female),
    ("Степан", Gender::Male),
];

/// What the practice server is set to, and its guests' limits.
pub struct Demo {
    /// The account that hosts the practice games.
    pub host: i64,
    /// How long a practice day lasts, in minutes.
    pub day_minutes: u32,
    /// Guests per client address.
    pub guests: Quota<IpAddr>,
    /// Guests in all.
    pub all_guests: Quota<()>,
}

impl Demo {
    /// The settings of a practice server whose games `host` hosts, `day_minutes` a day
    /// (within [`DAY_MINUTES`]).
    pub fn new(host: i64, day_minutes: u32) -> Demo {
        Demo {
            host,
            day_minutes: day_minutes.clamp(*DAY_MINUTES.start(), *DAY_MINUTES.end()),
            guests: Quota::new(GUESTS_PER_HOUR, 3600),
            all_guests: Quota::new(ALL_GUESTS_PER_HOUR, 3600),
        }
    }

    /// Whether the game hosted by `host` is a practice game.
    pub fn hosts(&self, host: i64) -> bool {
        self.host == host
    }

    /// The settings of a new practice game: seven seats (the guest and [`BOTS`] bots), the
    /// recommended setup and deck, the fast clock, private (a guest's game is theirs alone),
    /// [`MAX_DAYS`] days at most.
    pub fn config(&self) -> Config {
        Config {
            title: TITLE.to_string(),
            slots: BOTS + 1,
            setup: None,
            deck: None,
            rules: Some(RulesEntry { max_days: Some(MAX_DAYS), ..RulesEntry::default() }),
            seed: None,
            shuffle: true,
            schedule: fast_schedule(self.day_minutes),
            discussion: Default::default(),
            visibility: Visibility::Private,
        }
    }
}

/// The schedule of a practice game: the fast clock, a day in `day_minutes` minutes.
fn fast_schedule(day_minutes: u32) -> Schedule {
    Schedule { day_minutes: Some(day_minutes), ..Schedule::default() }
}

/// A guest's name: the account's (unique: the first name and a number, «Алиса 417») and
/// the seat's in a game (the first name alone), with its gender. `draw` picks both.
pub fn guest_name(draw: u64) -> (String, &'static str, Gender) {
    let (first, gender) = GUEST_NAMES[(draw % GUEST_NAMES.len() as u64) as usize];
    let number = 100 + (draw / GUEST_NAMES.len() as u64) % 9900;
    (format!("{first} {number}"), first, gender)
}

/// The seat name of a guest's account (`Алиса 417` sits as «Алиса»); `None` for an account
/// that is not a guest's (it sits under its own name).
pub fn guest_seat(account: &str) -> Option<&'static str> {
    let (first, number) = account.split_once(' ')?;
    if number.len() < 3 || !number.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    GUEST_NAMES.iter().map(|(n, _)| *n).find(|n| *n == first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ostrov_engine::ru::{Case, Speech};

    /// Every guest's seat name is declined by the engine and agrees with the gender given.
    #[test]
    fn guest_names_are_declined_and_agree() {
        for (name, gender) in GUEST_NAMES {
            let s = Speech::resolve(name, None, None).unwrap();
            assert_eq!(s.gender, Some(*gender), "{name}");
            assert!(s.form(Case::Acc).is_some(), "{name} is declined");
        }
    }

    #[test]
    fn a_guest_account_sits_under_its_first_name() {
        for draw in [0, 1, 13, 14, 1_000_003, u64::MAX] {
            let (account, seat, _) = guest_name(draw);
            assert_eq!(guest_seat(&account), Some(seat), "{account}");
            assert!(account.chars().count() <= 40);
        }
        assert_eq!(guest_seat("Алиса"), None);
        assert_eq!(guest_seat("Алиса 12"), None);
        assert_eq!(guest_seat("Кот 4000"), None);
        assert_eq!(guest_seat("Алиса 4x0"), None);
    }
}
