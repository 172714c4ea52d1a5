//! The day's public facts, gathered once for every bot (issue 32, point 6).

use ostrov_engine::{Match, PlayerId, Side};

/// What every player sees alike during a day's rounds of orders — the living players, each
/// player's voting record and the ranking the sensible bots suspect by — gathered once by
/// the driver for all the bots ([`crate::View::with_public`]) instead of by every bot
/// again: that repeated work grew with the cube of the player count and more.
///
/// Public facts only: nothing in it is secret from any seat. Orders sent during a round
/// change none of it, nor does the 13:00 stage (nobody dies or is revealed then), so one
/// gathering after the day opens serves the day's morning and afternoon rounds.
#[derive(Clone, Debug, Default)]
pub struct Public {
    living: Vec<PlayerId>,
    record: Vec<i32>,
    /// The living players whose role is not known to be on a side other than the
    /// werewolves' (the ones a sensible bot may suspect), the highest voting record
    /// first, in list order within one record.
    ranked: Vec<PlayerId>,
    /// For each position in `ranked`, where its group of equal records ends.
    group_end: Vec<u32>,
    /// Each player's position in `ranked` (`u32::MAX`: not ranked).
    rank: Vec<u32>,
    /// The first living player, in list order, the newspaper revealed as a werewolf's side.
    revealed_wolf: Option<PlayerId>,
    /// The past days already read into `lynched` (the record is kept up as days close).
    days_read: usize,
    /// Every lynched player of the days read, with the voters for them (a range of
    /// `voters`) and what each of those votes now adds to the record.
    lynched: Vec<(PlayerId, std::ops::Range<u32>, i32)>,
    voters: Vec<PlayerId>,
    /// The ranking's sort keys (a buffer of [`Public::gather`]).
    keys: Vec<u64>,
}

impl Public {
    /// Forgets the game gathered so far, keeping the buffers: for a match that starts a
    /// new game ([`Match::renew`]).
    pub fn clear(&mut self) {
        self.days_read = 0;
        self.lynched.clear();
        self.voters.clear();
        self.record.clear();
    }

    /// Gathers the public facts of `m` now, keeping the buffers. The voting record is
    /// kept up from the last gathering: between two gatherings `m` plays on, or
    /// [`Public::clear`] is called first.
    pub fn gather(&mut self, m: &Match) {
        let st = m.state();
        self.keep_record(m);
        debug_assert!({
            let mut full = Vec::new();
            voting_record(m, &mut full);
            full == self.record
        });
        // One pass over the seats in list order: the living; the first of them the
        // newspaper revealed as a werewolf's side; and the ranking's sort keys, the
        // record's opposite above the position among the living (the highest record
        // first, list order within one record: a stable sort by record, comparing plain
        // numbers), for the living not revealed on another side.
        let (players, record) = (st.players(), &self.record);
        let (living, keys) = (&mut self.living, &mut self.keys);
        living.clear();
        keys.clear();
        self.revealed_wolf = None;
        for &p in st.list_order() {
            let pl = &players[p.index()];
            if !pl.alive {
                continue;
            }
            let i = living.len() as u64;
            living.push(p);
            if pl.role_public {
                if pl.role.side() != Side::Werewolves {
                    continue;
                }
                self.revealed_wolf = self.revealed_wolf.or(Some(p));
            }
            keys.push((((i64::from(i32::MAX) - i64::from(record[p.index()])) as u64) << 32) | i);
        }
        debug_assert!(living.iter().copied().eq(st.living()));
        keys.sort_unstable();
        let record_of = |key: u64| (i64::from(i32::MAX) - (key >> 32) as i64) as i32;
        self.ranked.clear();
        self.ranked.extend(keys.iter().map(|k| living[(*k as u32) as usize]));
        self.group_end.clear();
        self.group_end.resize(keys.len(), 0);
        let mut end = keys.len();
        for i in (0..keys.len()).rev() {
            if i + 1 < keys.len() && keys[i] >> 32 != keys[i + 1] >> 32 {
                end = i + 1;
            }
            self.group_end[i] = end as u32;
        }
        debug_assert!(self.ranked.iter().zip(keys.iter()).all(|(p, k)| record[p.index()] == record_of(*k)));
        self.rank.clear();
        self.rank.resize(self.record.len(), u32::MAX);
        for (i, p) in self.ranked.iter().enumerate() {
            self.rank[p.index()] = i as u32;
        }
    }

    /// [`voting_record`], from the last gathering's: the new days' lynched players and
    /// their voters are read once, and a vote's weight changes when its lynched player's
    /// role is revealed (or hidden) in the newspaper.
    fn keep_record(&mut self, m: &Match) {
        let st = m.state();
        if self.days_read > m.days.len() || self.record.len() != st.players().len() {
            self.clear();
            self.record.resize(st.players().len(), 0);
        }
        for d in &m.days[self.days_read..] {
            for (i, &t) in d.lynched.iter().enumerate() {
                if d.lynched[..i].contains(&t) {
                    continue;
                }
                let from = self.voters.len() as u32;
                self.voters.extend(d.ballots.iter().filter(|b| b.target == t).map(|b| b.voter));
                self.lynched.push((t, from..self.voters.len() as u32, 0));
            }
        }
        self.days_read = m.days.len();
        for (t, voters, weight) in &mut self.lynched {
            let pl = st.player(*t);
            let now = match (pl.role_public, pl.role.side()) {
                (false, _) => 0,
                (true, Side::Werewolves) => -1,
                (true, _) => 1,
            };
            if now != *weight {
                for v in &self.voters[voters.start as usize..voters.end as usize] {
                    self.record[v.index()] += now - *weight;
                }
                *weight = now;
            }
        }
    }

    /// The living players, in list order.
    pub fn living(&self) -> &[PlayerId] {
        &self.living
    }

    /// A player's voting record: see [`voting_record`].
    pub fn record(&self, p: PlayerId) -> i32 {
        self.record[p.index()]
    }

    /// Every player's voting record, by player index.
    pub fn records(&self) -> &[i32] {
        &self.record
    }

    /// The first living player, in list order, the newspaper revealed as a werewolf's side.
    pub fn revealed_wolf(&self) -> Option<PlayerId> {
        self.revealed_wolf
    }

    /// The living players whose role is not known to be on another side than the
    /// werewolves', the highest voting record first, in list order within one record.
    pub fn ranked(&self) -> &[PlayerId] {
        &self.ranked
    }

    /// A player's position in [`Public::ranked`], if ranked.
    pub fn rank(&self, p: PlayerId) -> Option<usize> {
        self.rank.get(p.index()).filter(|r| **r != u32::MAX).map(|r| *r as usize)
    }

    /// Where the group of equal records that position `i` of [`Public::ranked`] is in ends.
    pub fn group_end(&self, i: usize) -> usize {
        self.group_end[i] as usize
    }
}

/// Every player's voting record from the public record of the past days, by player index:
/// each vote counted for a lynched player whose role the newspaper revealed adds 1 when
/// that role was not on the werewolves' side and takes 1 away when it was. The sensible
/// bots suspect the highest record.
pub fn voting_record(m: &Match, out: &mut Vec<i32>) {
    out.clear();
    out.resize(m.state().players().len(), 0);
    for d in &m.days {
        if d.lynched.is_empty() {
            continue;
        }
        for b in &d.ballots {
            if d.lynched.contains(&b.target) {
                let pl = m.state().player(b.target);
                if pl.role_public {
                    out[b.voter.index()] += if pl.role.side() == Side::Werewolves { -1 } else { 1 };
                }
            }
        }
    }
}
