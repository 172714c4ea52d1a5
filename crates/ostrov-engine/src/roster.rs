//! Rosters: how many of each role a game has ("werewolf=3,seer,nurse"), the recommended
//! roster for a player count, and dealing roles to players by a seed.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::role::Role;
use crate::side::Side;

/// Role counts, in the order of RULES.md. Passengers fill the seats nobody else takes.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Roster {
    counts: [u16; Role::ALL.len()],
}

/// Why a roster could not be read or used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RosterError {
    #[error("setup entry \"{0}\": {1}")]
    Entry(String, String),
    #[error("the setup has {roles} roles other than passengers, more than the {players} players")]
    TooMany { roles: usize, players: usize },
    #[error("the setup has no werewolf and no hamster: nobody could ever lose")]
    NoEnemy,
    #[error("recommended setups exist for {min} to {max} players, not {0}", min = MIN_PLAYERS, max = MAX_RECOMMENDED)]
    NoRecommendation(usize),
}

/// The smallest game that can be played.
pub const MIN_PLAYERS: usize = 3;
/// The largest player count with a recommended setup.
pub const MAX_RECOMMENDED: usize = 40;

impl Roster {
    /// An empty roster (every seat a passenger).
    pub fn new() -> Roster {
        Roster::default()
    }

    /// Reads `"werewolf=3,seer,nurse"`: ids or Russian names, `=N` (or `:N`, `xN`) for
    /// a count, commas or spaces between entries.
    ///
    /// ```
    /// use ostrov_engine::{Role, Roster};
    /// let r = Roster::parse("оборотень=2, seer, nurse").unwrap();
    /// assert_eq!(r.count(Role::Werewolf), 2);
    /// assert_eq!(r.special(), 4);
    /// ```
    pub fn parse(text: &str) -> Result<Roster, RosterError> {
        let mut r = Roster::new();
        for entry in text.split([',', ';', '\n']).map(str::trim).filter(|s| !s.is_empty()) {
            let (word, count) = match entry.split_once(['=', ':']) {
                Some((w, c)) => {
                    let c = c.trim();
                    let n: u16 =
                        c.parse().map_err(|_| RosterError::Entry(entry.into(), format!("\"{c}\" is not a count")))?;
                    (w.trim(), n)
                }
                None => (entry, 1),
            };
            let role: Role =
                word.parse().map_err(|e: crate::error::UnknownWord| RosterError::Entry(entry.into(), e.to_string()))?;
            r.counts[role as usize] = r.counts[role as usize].saturating_add(count);
        }
        Ok(r)
    }

    /// Sets the count of a role.
    pub fn with(mut self, role: Role, count: u16) -> Roster {
        self.counts[role as usize] = count;
        self
    }

    pub fn count(&self, role: Role) -> usize {
        self.counts[role as usize] as usize
    }

    /// How many non-passenger roles.
    pub fn special(&self) -> usize {
        Role::ALL.iter().filter(|r| **r != Role::Passenger).map(|r| self.count(*r)).sum()
    }

    /// The recommended roster for `players` (see `docs/SETUPS.md`).
    pub fn recommended(players: usize) -> Result<Roster, RosterError> {
        if !(MIN_PLAYERS..=MAX_RECOMMENDED).contains(&players) {
            return Err(RosterError::NoRecommendation(players));
        }
        Ok(Roster::parse(RECOMMENDED[players - MIN_PLAYERS]).expect("the recommended table is valid"))
    }

    /// The roles for `players` seats: this roster, passengers for the rest.
    pub fn roles(&self, players: usize) -> Result<Vec<Role>, RosterError> {
        let special = self.special();
        if special > players {
            return Err(RosterError::TooMany { roles: special, players });
        }
        if self.count(Role::Werewolf) + self.count(Role::Hamster) == 0 {
            return Err(RosterError::NoEnemy);
        }
        let mut out = Vec::with_capacity(players);
        for role in Role::ALL.iter().filter(|r| **r != Role::Passenger) {
            out.extend(std::iter::repeat_n(*role, self.count(*role)));
        }
        out.resize(players, Role::Passenger);
        Ok(out)
    }

    /// Deals the roles to `players` seats in a random order fixed by `seed`.
    pub fn deal(&self, players: usize, seed: u64) -> Result<Vec<Role>, RosterError> {
        let mut roles = self.roles(players)?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(1);
        roles.shuffle(&mut rng);
        Ok(roles)
    }

    /// The number of players on each side.
    pub fn sides(&self, players: usize) -> [(Side, usize); 3] {
        let wolves = self.count(Role::Werewolf) + self.count(Role::Halfblood);
        let hamster = self.count(Role::Hamster);
        [
            (Side::Civilians, players.saturating_sub(wolves + hamster)),
            (Side::Werewolves, wolves),
            (Side::Hamster, hamster),
        ]
    }
}

impl std::fmt::Display for Roster {
    /// Writes `werewolf=2,seer=1,…` (passengers omitted).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut first = true;
        for role in Role::ALL.iter().filter(|r| **r != Role::Passenger) {
            let n = self.count(*role);
            if n > 0 {
                if !first {
                    f.write_str(",")?;
                }
                first = false;
                write!(f, "{}={n}", role.id())?;
            }
        }
        Ok(())
    }
}

/// Recommended rosters for 3..=40 players; the rest are passengers. Generated by
/// `ostrov suggest` (see docs/SETUPS.md for the command and the win rates).
const RECOMMENDED: [&str; MAX_RECOMMENDED - MIN_PLAYERS + 1] = [
    /* 3 */ "werewolf=1,seer=1",
    /* 4 */ "werewolf=1,seer=1",
    /* 5 */ "werewolf=1,seer=1,nurse=1",
    /* 6 */ "werewolf=1,seer=1,nurse=1",
    /* 7 */ "werewolf=2,seer=1,nurse=1",
    /* 8 */ "werewolf=2,seer=1,nurse=1",
    /* 9 */ "werewolf=2,seer=1,nurse=1,witch=1",
    /* 10 */ "werewolf=2,seer=1,nurse=1,witch=1,maniac=1",
    /* 11 */ "werewolf=2,halfblood=1,seer=1,nurse=1,witch=1",
    /* 12 */ "werewolf=2,halfblood=1,seer=1,nurse=1,witch=1,sleepwalker=1",
    /* 13 */ "werewolf=3,seer=1,nurse=1,witch=1,sleepwalker=1",
    /* 14 */ "werewolf=3,seer=1,nurse=1,witch=1,sleepwalker=1,authority=1",
    /* 15 */ "werewolf=3,halfblood=1,seer=1,nurse=1,witch=1,sleepwalker=1,authority=1",
    /* 16 */ "werewolf=3,halfblood=1,seer=1,nurse=1,witch=1,sleepwalker=1,authority=1,untouchable=1",
    /* 17 */ "werewolf=3,halfblood=1,hamster=1,seer=1,nurse=1,witch=1,sleepwalker=1,authority=1",
    /* 18 */ "werewolf=3,halfblood=1,hamster=1,seer=1,nurse=1,witch=1,sleepwalker=1,authority=1,maniac=1",
    /* 19 */ "werewolf=4,halfblood=1,hamster=1,seer=1,nurse=1,witch=1,sleepwalker=1,authority=1,maniac=1",
    /* 20 */
    "werewolf=4,halfblood=1,hamster=1,seer=1,nurse=1,witch=1,sleepwalker=1,authority=1,maniac=1,untouchable=1",
    /* 21 */
    "werewolf=4,halfblood=1,hamster=1,seer=1,nurse=1,witch=1,sleepwalker=1,authority=1,maniac=1,untouchable=1",
    /* 22 */
    "werewolf=4,halfblood=1,hamster=1,seer=2,nurse=1,witch=1,sleepwalker=1,authority=1,maniac=1,untouchable=1",
    /* 23 */
    "werewolf=5,halfblood=1,hamster=1,seer=2,nurse=1,witch=1,sleepwalker=1,authority=1,maniac=1,untouchable=1",
    /* 24 */
    "werewolf=5,halfblood=1,hamster=1,seer=2,nurse=1,witch=1,sleepwalker=1,authority=1,maniac=1,untouchable=1",
    /* 25 */
    "werewolf=5,halfblood=1,hamster=1,seer=2,nurse=2,witch=1,sleepwalker=1,authority=1,maniac=1,untouchable=1",
    /* 26 */
    "werewolf=5,halfblood=1,hamster=1,seer=2,nurse=2,witch=1,sleepwalker=1,authority=1,maniac=1,untouchable=1",
    /* 27 */
    "werewolf=6,halfblood=1,hamster=1,seer=2,nurse=2,witch=1,sleepwalker=1,authority=1,maniac=1,untouchable=1",
    /* 28 */
    "werewolf=6,halfblood=1,hamster=1,seer=2,nurse=2,witch=1,sleepwalker=1,authority=1,maniac=1,untouchable=1",
    /* 29 */
    "werewolf=6,halfblood=1,hamster=1,seer=2,nurse=2,witch=2,sleepwalker=1,authority=1,maniac=1,untouchable=1",
    /* 30 */
    "werewolf=6,halfblood=1,hamster=1,seer=2,nurse=2,witch=2,sleepwalker=1,authority=1,maniac=1,untouchable=1",
    /* 31 */
    "werewolf=7,halfblood=1,hamster=1,seer=2,nurse=2,witch=2,sleepwalker=1,authority=1,maniac=1,untouchable=1",
    /* 32 */
    "werewolf=7,halfblood=1,hamster=1,seer=2,nurse=2,witch=2,sleepwalker=1,authority=1,maniac=1,untouchable=1",
    /* 33 */
    "werewolf=7,halfblood=1,hamster=1,seer=2,nurse=2,witch=2,sleepwalker=2,authority=1,maniac=1,untouchable=1",
    /* 34 */
    "werewolf=7,halfblood=1,hamster=1,seer=2,nurse=2,witch=2,sleepwalker=2,authority=1,maniac=1,untouchable=1",
    /* 35 */
    "werewolf=8,halfblood=1,hamster=1,seer=2,nurse=2,witch=2,sleepwalker=2,authority=1,maniac=1,untouchable=1",
    /* 36 */
    "werewolf=8,halfblood=1,hamster=1,seer=2,nurse=2,witch=2,sleepwalker=2,authority=1,maniac=1,untouchable=1",
    /* 37 */
    "werewolf=8,halfblood=1,hamster=2,seer=2,nurse=2,witch=2,sleepwalker=2,authority=1,maniac=1,untouchable=1",
    /* 38 */
    "werewolf=8,halfblood=1,hamster=2,seer=2,nurse=2,witch=2,sleepwalker=2,authority=1,maniac=1,untouchable=1",
    /* 39 */
    "werewolf=9,halfblood=1,hamster=2,seer=2,nurse=2,witch=2,sleepwalker=2,authority=1,maniac=1,untouchable=1",
    /* 40 */
    "werewolf=9,halfblood=1,hamster=2,seer=2,nurse=2,witch=2,sleepwalker=2,authority=1,maniac=1,untouchable=1",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_recommended_roster_fits_its_player_count() {
        for n in MIN_PLAYERS..=MAX_RECOMMENDED {
            let r = Roster::recommended(n).unwrap();
            assert_eq!(r.roles(n).unwrap().len(), n, "{n} players");
            assert!(r.count(Role::Werewolf) >= 1);
        }
        assert!(Roster::recommended(2).is_err());
        assert!(Roster::recommended(41).is_err());
    }

    #[test]
    fn parse_reads_counts_aliases_and_reports_bad_entries() {
        let r = Roster::parse("werewolf=3, Ясновидящий, nurse:2").unwrap();
        assert_eq!((r.count(Role::Werewolf), r.count(Role::Seer), r.count(Role::Nurse)), (3, 1, 2));
        assert_eq!(r.to_string(), "seer=1,nurse=2,werewolf=3");
        let e = Roster::parse("werewolf=x").unwrap_err().to_string();
        assert!(e.contains("\"x\" is not a count"), "{e}");
        let e = Roster::parse("dragon").unwrap_err().to_string();
        assert!(e.contains("unknown role \"dragon\""), "{e}");
        assert!(matches!(Roster::parse("seer").unwrap().roles(5), Err(RosterError::NoEnemy)));
        assert!(matches!(Roster::parse("werewolf=6").unwrap().roles(5), Err(RosterError::TooMany { .. })));
    }

    #[test]
    fn deal_is_a_permutation_fixed_by_the_seed() {
        let r = Roster::parse("werewolf=2,seer,nurse").unwrap();
        let a = r.deal(10, 7).unwrap();
        assert_eq!(a, r.deal(10, 7).unwrap());
        let mut sorted = a.clone();
        sorted.sort();
        let mut expected = r.roles(10).unwrap();
        expected.sort();
        assert_eq!(sorted, expected);
    }
}
