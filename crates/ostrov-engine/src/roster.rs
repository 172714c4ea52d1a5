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
    #[error("расклад, «{0}»: {1}")]
    Entry(String, String),
    #[error("в раскладе {roles} ролей кроме пассажиров — больше, чем игроков ({players})")]
    TooMany { roles: usize, players: usize },
    #[error("в раскладе нет ни оборотня, ни хомяка: проиграть было бы некому")]
    NoEnemy,
    #[error("рекомендуемые расклады есть для {min}–{max} игроков, а не для {0}", min = MIN_PLAYERS, max = MAX_RECOMMENDED)]
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
            // «2 оборотня»: the count first, as hosts write it.
            let counted = entry
                .split_once(char::is_whitespace)
                .and_then(|(n, w)| n.parse::<u16>().ok().map(|n| format!("{}={n}", w.trim())));
            let entry = counted.as_deref().unwrap_or(entry);
            let (word, count) = match entry.split_once(['=', ':']) {
                Some((w, c)) => {
                    let c = c.trim();
                    let n: u16 =
                        c.parse().map_err(|_| RosterError::Entry(entry.into(), format!("«{c}» — не число")))?;
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
        let line = recommended_line(players).ok_or(RosterError::NoRecommendation(players))?;
        Ok(Roster::parse(line).expect("the recommended table is valid (a test reads every line)"))
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
    /// Writes the form `--setup` takes: the werewolves' side and the hamster first, then
    /// the civilian roles in the order of RULES.md, `=N` only for a count above one,
    /// passengers omitted: `werewolf=2,seer,nurse`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (enemies, civilians): (Vec<Role>, Vec<Role>) =
            Role::ALL.iter().filter(|r| **r != Role::Passenger).partition(|r| r.side() != Side::Civilians);
        let mut first = true;
        for role in enemies.iter().chain(&civilians) {
            let n = self.count(*role);
            if n == 0 {
                continue;
            }
            if !first {
                f.write_str(",")?;
            }
            first = false;
            f.write_str(role.id())?;
            if n > 1 {
                write!(f, "={n}")?;
            }
        }
        Ok(())
    }
}

/// The recommended rosters for 3..=40 players, one line each: the player count, a tab, the
/// roster, then (optionally) a tab and the win rates it was chosen by. Lines starting with
/// `#` are comments. The file is written by `ostrov suggest --table` (docs/SETUPS.md).
const RECOMMENDED: &str = include_str!("recommended.txt");

/// The roster text of the recommended line for `players`.
fn recommended_line(players: usize) -> Option<&'static str> {
    RECOMMENDED.lines().filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty()).find_map(|l| {
        let mut cols = l.split('\t');
        let n: usize = cols.next()?.trim().parse().ok()?;
        (n == players).then(|| cols.next()).flatten().map(str::trim)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recommended_file_has_one_valid_line_per_player_count() {
        let mut seen = Vec::new();
        for l in RECOMMENDED.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
            let mut cols = l.split('\t');
            let n: usize = cols.next().unwrap().parse().unwrap_or_else(|_| panic!("bad player count in {l:?}"));
            let r = Roster::parse(cols.next().unwrap_or_else(|| panic!("no roster in {l:?}"))).unwrap();
            assert!(r.roles(n).is_ok(), "{l:?}");
            seen.push(n);
        }
        assert_eq!(seen, (MIN_PLAYERS..=MAX_RECOMMENDED).collect::<Vec<_>>());
    }

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
        assert_eq!(r.to_string(), "werewolf=3,seer,nurse=2");
        assert_eq!(Roster::parse(&r.to_string()).unwrap(), r);
        let e = Roster::parse("werewolf=x").unwrap_err().to_string();
        assert!(e.contains("«x» — не число"), "{e}");
        let e = Roster::parse("dragon").unwrap_err().to_string();
        assert!(e.contains("неизвестная роль «dragon»"), "{e}");
        let r = Roster::parse("2 оборотня, Ясновидящая, 3 колдуньи").unwrap();
        assert_eq!((r.count(Role::Werewolf), r.count(Role::Seer), r.count(Role::Witch)), (2, 1, 3));
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
