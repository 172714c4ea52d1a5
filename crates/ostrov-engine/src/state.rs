//! The state of a game between two moments: players, list order, reserve, day.

use crate::event::Event;
use crate::item::Item;
use crate::log::Log;
use crate::notice::{Notice, NoticeKind};
use crate::player::{Player, PlayerId};
use crate::role::Role;
use crate::rules::Rules;
use crate::win::Winner;

/// The whole state of a game at one moment. Its fields are the engine's own: callers read
/// it through questions ([`State::living`], [`State::held`], …) and the few accessors
/// below, and only the engine changes it (issue 27, point 1). Outside the engine neither
/// the match's state nor a field of it can be written:
///
/// ```compile_fail
/// fn cheat(m: &mut ostrov_engine::Match) {
///     m.state.day = 7;
/// }
/// ```
///
/// ```compile_fail
/// fn cheat(s: &mut ostrov_engine::State) {
///     s.notices.clear();
/// }
/// ```
#[derive(Clone, Debug)]
pub struct State {
    /// Players by id (the order of the game file).
    pub(crate) players: Vec<Player>,
    /// The fixed newspaper order: ids in list order.
    pub(crate) list_order: Vec<PlayerId>,
    /// The position of each id in the list order.
    pub(crate) position: Vec<u16>,
    pub(crate) rules: Rules,
    /// The item reserve (R-DECK-1).
    pub(crate) reserve: Vec<Item>,
    /// The current (or last) day; 0 before day 1.
    pub(crate) day: u32,
    /// The event of the current day.
    pub(crate) event: Option<Event>,
    /// The event of the day before (for `no_repeat`).
    pub(crate) previous_event: Option<Event>,
    /// The event drawn at step 21 for the next day.
    pub(crate) next_event: Option<Event>,
    /// Assaulted by the maniac last night: no vote today.
    pub(crate) assaulted: Vec<bool>,
    pub(crate) winner: Option<Winner>,
    /// The day the game ended.
    pub(crate) ended_on: Option<u32>,
    /// Every private message so far.
    pub(crate) notices: Vec<Notice>,
    /// The living players of each side, indexed by `Side as usize` (kept by [`State::kill`]
    /// and [`State::count_living`]; R-WIN-1 is checked twice a day).
    pub(crate) living_by_side: [u16; 3],
    /// The living players who kill with the pack: werewolves and turned halfbloods (R-HALF-1).
    pub(crate) living_wolves: u16,
}

impl State {
    #[inline]
    pub fn player(&self, p: PlayerId) -> &Player {
        &self.players[p.index()]
    }

    #[inline]
    pub(crate) fn player_mut(&mut self, p: PlayerId) -> &mut Player {
        &mut self.players[p.index()]
    }

    /// Every player, by id (the order of the game file), dead ones too.
    #[inline]
    pub fn players(&self) -> &[Player] {
        &self.players
    }

    /// The fixed newspaper order: every player's id (dead ones too) in list order.
    #[inline]
    pub fn list_order(&self) -> &[PlayerId] {
        &self.list_order
    }

    /// Where `p` stands in the list order (0 first).
    #[inline]
    pub fn list_position(&self, p: PlayerId) -> usize {
        self.position[p.index()] as usize
    }

    /// The rules this game is played by.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The current (or last) day; 0 before day 1.
    #[inline]
    pub fn day(&self) -> u32 {
        self.day
    }

    /// The event of the current day.
    #[inline]
    pub fn event(&self) -> Option<Event> {
        self.event
    }

    /// Who won, once the game is over.
    pub fn winner(&self) -> Option<Winner> {
        self.winner
    }

    /// The day the game ended, if it did.
    pub fn ended_on(&self) -> Option<u32> {
        self.ended_on
    }

    /// The last day played: the day the game ended, else the current one.
    pub fn last_day(&self) -> u32 {
        self.ended_on.unwrap_or(self.day)
    }

    /// Every private message so far, in the order told.
    pub fn notices(&self) -> &[Notice] {
        &self.notices
    }

    /// The private messages told to `p`, in the order told.
    pub fn notices_to(&self, p: PlayerId) -> impl Iterator<Item = &Notice> + '_ {
        self.notices.iter().filter(move |n| n.to == p)
    }

    #[inline]
    pub fn alive(&self, p: PlayerId) -> bool {
        self.players[p.index()].alive
    }

    /// A player's name with its grammar, for a sentence.
    pub fn who(&self, p: PlayerId) -> crate::ru::Who<'_> {
        let pl = &self.players[p.index()];
        crate::ru::Who::new(&pl.name, &pl.speech)
    }

    /// [`State::who`] of several players.
    pub(crate) fn whos(&self, ps: &[PlayerId]) -> Vec<crate::ru::Who<'_>> {
        ps.iter().map(|p| self.who(*p)).collect()
    }

    pub fn name(&self, p: PlayerId) -> &str {
        &self.players[p.index()].name
    }

    /// Living players in list order.
    #[inline]
    pub fn living(&self) -> impl Iterator<Item = PlayerId> + '_ {
        self.list_order.iter().copied().filter(|p| self.alive(*p))
    }

    /// Sets `out` to the living players in list order (what [`State::living`] yields),
    /// reusing its buffer.
    pub fn living_into(&self, out: &mut Vec<PlayerId>) {
        out.clear();
        out.reserve(self.list_order.len());
        for &p in &self.list_order {
            if self.alive(p) {
                out.push(p);
            }
        }
    }

    /// The nearest living players before and after `p` in the cyclic list order (R-ITEM-4).
    pub fn neighbours(&self, p: PlayerId) -> Option<(PlayerId, PlayerId)> {
        let at = self.position[p.index()] as usize;
        let (head, tail) = (&self.list_order[..at], &self.list_order[at + 1..]);
        // Around the list from `p`: back through the head then the tail, on through the
        // tail then the head.
        let before = head.iter().rev().chain(tail.iter().rev()).copied().find(|q| self.alive(*q))?;
        let after = tail.iter().chain(head).copied().find(|q| self.alive(*q))?;
        Some((before, after))
    }

    /// Sorts players into list order.
    pub fn sort_by_list(&self, v: &mut [PlayerId]) {
        v.sort_by_key(|p| self.position[p.index()]);
    }

    /// The item `p` holds, if alive (items of dead players have left the game).
    #[inline]
    pub fn held(&self, p: PlayerId) -> Option<crate::item::Held> {
        let pl = self.player(p);
        if pl.alive {
            pl.item
        } else {
            None
        }
    }

    /// Whether `p` is alive and holds `item` (charged or not).
    #[inline]
    pub fn holds(&self, p: PlayerId, item: Item) -> bool {
        self.held(p).is_some_and(|h| h.item == item)
    }

    /// Whether `p` is alive and holds a charged `item`.
    #[inline]
    pub fn holds_charged(&self, p: PlayerId, item: Item) -> bool {
        self.held(p).is_some_and(|h| h.item == item && h.charged)
    }

    /// `p` dies on the current day (a lynch, the night, or the host's removal).
    pub(crate) fn kill(&mut self, p: PlayerId, death: crate::player::Death) {
        let day = self.day;
        let pl = &mut self.players[p.index()];
        debug_assert!(pl.alive, "only the living die");
        pl.alive = false;
        pl.died_on_day = Some(day);
        pl.death = Some(death);
        let (side, wolf) = (pl.role.side(), pl.is_wolf());
        self.living_by_side[side as usize] -= 1;
        self.living_wolves -= wolf as u16;
    }

    /// Counts the living of each side anew (after the deal).
    pub(crate) fn count_living(&mut self) {
        self.living_by_side = crate::win::living_by_side(&self.players).map(|n| n as u16);
        self.living_wolves = self.living_pack();
    }

    /// The living players who kill with the pack, counted anew.
    pub(crate) fn living_pack(&self) -> u16 {
        self.players.iter().filter(|p| p.alive && p.is_wolf()).count() as u16
    }

    pub(crate) fn notify(&mut self, to: PlayerId, kind: NoticeKind) {
        let day = self.day;
        self.notices.push(Notice { day, to, kind });
    }

    /// R-HALF-1: when no werewolf is alive, every living halfblood becomes one.
    #[inline]
    pub(crate) fn turn_halfbloods(&mut self, log: &mut Log, step: crate::step::Step) {
        debug_assert_eq!(self.living_wolves, self.living_pack());
        // Checked in line (twice a day, nearly always with werewolves alive); the turn itself is not.
        if self.living_wolves == 0 {
            self.turn_every_halfblood(log, step);
        }
    }

    #[inline(never)]
    fn turn_every_halfblood(&mut self, log: &mut Log, step: crate::step::Step) {
        for k in 0..self.list_order.len() {
            let id = self.list_order[k];
            let p = self.player(id);
            if p.alive && p.role == Role::Halfblood && !p.turned {
                self.player_mut(id).turned = true;
                self.living_wolves += 1;
                self.notify(id, NoticeKind::Turned);
                log.add(step, || crate::ru::say::turned(self.who(id)).to_string());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use crate::gamefile::{Seat, Setup};
    use crate::order::{Command, Order, Targets};
    use crate::role::Role;
    use crate::rules::Rules;
    use crate::{Match, PlayerId};

    /// The living counts that R-WIN-1 and R-HALF-1 read are kept by every death — lynch,
    /// night, the host's removal — and equal a recount after every day (random games with
    /// every role, removals included).
    #[test]
    fn living_counts_follow_every_death() {
        let roles = [
            Role::Werewolf,
            Role::Werewolf,
            Role::Halfblood,
            Role::Hamster,
            Role::Seer,
            Role::Nurse,
            Role::Witch,
            Role::Sleepwalker,
            Role::Authority,
            Role::Maniac,
            Role::Untouchable,
            Role::Passenger,
        ];
        for seed in 0..300u64 {
            let setup = Setup {
                title: None,
                seed,
                rules: Rules::default(),
                seats: roles.iter().enumerate().map(|(i, r)| Seat::new(format!("p{i}"), *r, None)).collect(),
                deck: Setup::default_deck(roles.len()),
                blanks: 0,
                shuffle: seed % 2 == 0,
            };
            let mut m = Match::new(&setup, seed % 3 == 0);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            while m.winner().is_none() && m.open_day(&Default::default()).is_ok() {
                let living: Vec<PlayerId> = m.state.living().collect();
                for &p in &living {
                    let mut pick = || living[rng.gen_range(0..living.len())];
                    let (vote, kill) = (pick(), pick());
                    let _ = m.submit(&Order::new(p, Command::Vote(Targets::one(vote))));
                    let _ = m.submit(&Order::new(p, Command::Kill(Targets::one(kill))));
                }
                if rng.gen_bool(0.3) {
                    let target = living[rng.gen_range(0..living.len())];
                    let _ = m.submit(&Order::host(Command::Remove { target, reason: None }));
                }
                let _ = m.close_day();
                let st = &m.state;
                assert_eq!(st.living_by_side.map(usize::from), crate::win::living_by_side(&st.players), "seed {seed}");
                assert_eq!(st.living_wolves, st.living_pack(), "seed {seed}");
            }
        }
    }
}
