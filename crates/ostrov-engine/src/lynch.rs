//! The lynch, steps 5–7: trap, fang and sheep skin (R-TIE-1, R-SKIN-1, R-IMMUNE-1), the
//! bomb (R-BOMB-1), Rage's two places (R-RAGE-1) and Fear's leader (R-FEAR-1).

use crate::draw;
use crate::error::ResolveError;
use crate::event::Event;
use crate::item::Item;
use crate::player::{Death, PlayerId};
use crate::record::{ItemUse, Stage};
use crate::resolution::Resolution;
use crate::ru::say;
use crate::rules::TieRule;
use crate::step::Step;
use crate::vote::Votes;

/// The lynch places chosen so far: `None` is a place left empty.
pub(crate) type Places = Vec<Option<PlayerId>>;

/// Whether `p` may still take a lynch place: not yet considered, alive, among `only` if given.
fn candidate(st: &crate::state::State, placed: &[bool], only: Option<&[bool]>, p: PlayerId) -> bool {
    !placed[p.index()] && st.alive(p) && only.is_none_or(|o| o[p.index()])
}

impl Resolution<'_> {
    fn names(&self, ps: &[PlayerId]) -> String {
        ps.iter().map(|p| self.st.name(*p)).collect::<Vec<_>>().join(", ")
    }

    /// Draws one of the tied: the file's next `tie_break`, else the seeded RNG.
    pub(crate) fn draw_tie(&mut self, tied: &[PlayerId]) -> Result<PlayerId, ResolveError> {
        match self.day.tie_breaks.pop_front() {
            Some(fix) if tied.contains(&fix) => Ok(fix),
            Some(fix) => Err(ResolveError::TieBreakNotTied {
                day: self.st.day,
                name: self.st.name(fix).to_string(),
                tied: self.names(tied),
            }),
            None => Ok(draw::pick(self.rng, tied)),
        }
    }

    /// R-TIE-1: settles a tie among `t` (the candidates with the most votes, |t| ≥ 2), in
    /// place: `t` is left holding who is lynched (empty for no one).
    fn tie(&mut self, t: &mut Vec<PlayerId>, step: Step) -> Result<(), ResolveError> {
        if self.day.log.on && t.iter().any(|p| self.day.sent[p.index()].immune) {
            let gone: Vec<PlayerId> = t.iter().copied().filter(|p| self.day.sent[p.index()].immune).collect();
            self.tell(step, |st| say::tie_immune(&st.whos(&gone)));
        }
        t.retain(|p| !self.day.sent[p.index()].immune);
        if t.is_empty() {
            return Ok(());
        }
        if self.day.items_work() {
            let traps = t.iter().filter(|p| self.st.holds(**p, Item::Trap)).count();
            if traps > 0 && traps < t.len() {
                t.retain(|p| self.st.holds(*p, Item::Trap));
                self.tell(step, |st| say::tie_trap(&st.whos(t)));
            } else if t.iter().any(|p| self.st.holds(*p, Item::Fang)) {
                if self.day.log.on {
                    let fangs: Vec<PlayerId> = t.iter().copied().filter(|p| self.st.holds(*p, Item::Fang)).collect();
                    self.tell(step, |st| say::tie_fang(&st.whos(&fangs)));
                }
                t.retain(|p| !self.st.holds(*p, Item::Fang));
                if t.is_empty() {
                    self.tell(step, |_| say::tie_fang_empty());
                    return Ok(());
                }
            }
        }
        if t.len() == 1 {
            return Ok(());
        }
        match self.st.rules.tie {
            TieRule::Random => {
                let p = self.draw_tie(t)?;
                self.tell(step, |st| say::tie_lot(&st.whos(t), st.who(p)));
                t.clear();
                t.push(p);
            }
            TieRule::None => {
                self.tell(step, |st| say::tie_none(&st.whos(t)));
                t.clear();
            }
            TieRule::All => {
                self.tell(step, |st| say::tie_all(&st.whos(t)));
            }
        }
        Ok(())
    }

    /// Fills `want` lynch places from the most votes down (R-RAGE-1; one place on an
    /// ordinary day), with immunity and sheep skins place by place. `placed` marks the
    /// candidates already considered; `only` restricts the candidates (the bomb).
    fn fill(
        &mut self,
        votes: &Votes,
        want: usize,
        placed: &mut [bool],
        only: Option<&[bool]>,
        skins: bool,
        out: &mut Places,
    ) -> Result<(), ResolveError> {
        let mut free = want;
        while free > 0 {
            // The most votes among the candidates, the first (in list order) to have them, and
            // how many do. Only players with votes can be candidates: the day's tally lists
            // them (the living, in list order, with the counts of `votes`).
            let tally = &self.day.record.tally;
            debug_assert!(tally.iter().all(|&(p, c)| c == votes.count(p)));
            let (mut best, mut first, mut tied) = (0, PlayerId(0), 0usize);
            for &(p, c) in tally {
                if c < best || !candidate(self.st, placed, only, p) {
                    continue;
                }
                if c > best {
                    (best, first, tied) = (c, p, 0);
                }
                tied += 1;
            }
            if tied == 0 {
                break;
            }
            // One leader is the whole group; a tie is settled by R-TIE-1 if it has more than `free`.
            // (The group's buffer is borrowed from the day and given back below.)
            let mut group = std::mem::take(&mut self.day.tie_buf);
            group.clear();
            if tied == 1 {
                group.push(first);
            } else {
                group.extend(
                    self.day
                        .record
                        .tally
                        .iter()
                        .filter(|&&(p, c)| c == best && candidate(self.st, placed, only, p))
                        .map(|&(p, _)| p),
                );
                if group.len() > free {
                    // Step 6 when only the firing bomb holders compete (R-BOMB-1), else step 5.
                    self.tie(&mut group, if only.is_some() { Step::Bomb } else { Step::TrapFangSheepSkin })?;
                }
            }
            if group.is_empty() {
                self.day.tie_buf = group;
                out.push(None);
                free -= 1;
                continue;
            }
            for p in &group {
                placed[p.index()] = true;
            }
            for &p in &group {
                free = free.saturating_sub(1);
                if self.day.sent[p.index()].immune {
                    self.tell(Step::TrapFangSheepSkin, |st| say::lynch_immune(st.who(p)));
                    out.push(None);
                } else if skins && self.day.items_work() && self.st.holds_charged(p, Item::SheepSkin) {
                    self.trigger(p, Item::SheepSkin, Step::TrapFangSheepSkin);
                    self.tell(Step::TrapFangSheepSkin, |st| say::sheep_skin(st.who(p)));
                    let before = out.len();
                    self.fill(votes, 1, placed, only, skins, out)?;
                    if out.len() == before {
                        self.tell(Step::TrapFangSheepSkin, |_| say::sheep_skin_nobody_next());
                        out.push(None);
                    }
                } else {
                    out.push(Some(p));
                }
            }
            self.day.tie_buf = group;
        }
        Ok(())
    }

    /// An automatic item triggers: spent, and listed in `items_used`.
    pub(crate) fn trigger(&mut self, holder: PlayerId, item: Item, _step: Step) {
        if let Some(h) = self.st.player_mut(holder).item.as_mut() {
            h.charged = false;
        }
        self.day.record.items_used.push(ItemUse {
            by: holder,
            item,
            target: None,
            stage: Stage::Resolution,
            effective: true,
        });
    }

    /// Step 5: corrections for trap, fang and sheep skin: who is chosen for the lynch.
    pub(crate) fn step_5_trap_fang_sheep_skin(&mut self, votes: &Votes) -> Result<Places, ResolveError> {
        // The places' buffer goes back to the day in step 7, on Fear too (no places then).
        let mut places = std::mem::take(&mut self.day.places_buf);
        places.clear();
        if self.day.event == Some(Event::Fear) {
            return Ok(places);
        }
        let want = if self.day.event == Some(Event::Rage) { 2 } else { 1 };
        let mut placed = std::mem::take(&mut self.day.placed_buf);
        placed.clear();
        placed.resize(self.st.players.len(), false);
        let filled = self.fill(votes, want, &mut placed, None, true, &mut places);
        self.day.placed_buf = placed;
        filled.map(|()| places)
    }

    /// Step 6: the bomb (R-BOMB-1).
    pub(crate) fn step_6_bomb(&mut self, votes: &Votes, places: &mut Places) -> Result<(), ResolveError> {
        if !self.vote_items() {
            return Ok(());
        }
        let n = self.st.players.len();
        let fires = |p: PlayerId| {
            self.st.holds(p, Item::Bomb)
                && votes.count(p) >= 2
                && !places.contains(&Some(p))
                && !self.day.sent[p.index()].immune
        };
        // Only players with votes can fire: the tally lists them (the living, in list order).
        if !self.day.record.tally.iter().any(|&(p, c)| c >= 2 && fires(p)) {
            return Ok(());
        }
        // The firing holders, the candidates already considered and the places they take,
        // in buffers of the open day (kept from day to day).
        let mut firing = std::mem::take(&mut self.day.firing_buf);
        firing.clear();
        firing.resize(n, false);
        for p in self.st.living() {
            if fires(p) {
                firing[p.index()] = true;
            }
        }
        let rage = self.day.event == Some(Event::Rage);
        let mut placed = std::mem::take(&mut self.day.placed_buf);
        placed.clear();
        placed.resize(n, false);
        let mut taken = std::mem::take(&mut self.day.fired_buf);
        taken.clear();
        let filled = self.fill(votes, if rage { 2 } else { 1 }, &mut placed, Some(&firing), false, &mut taken);
        self.day.firing_buf = firing;
        self.day.placed_buf = placed;
        filled?;
        let mut fired = std::mem::take(&mut self.day.tie_buf);
        fired.clear();
        fired.extend(taken.iter().flatten());
        self.day.fired_buf = taken;
        // R-BOMB-1: at most two firing holders take places on Rage, even when `tie = "all"`
        // lets more of them through a tie (best first; equal ones in list order).
        fired.truncate(if rage { 2 } else { usize::MAX });
        self.bomb_places(&fired, rage, places);
        self.day.tie_buf = fired;
        Ok(())
    }

    /// Step 6's lynch places once the firing holders who fire are known (`fired`).
    fn bomb_places(&mut self, fired: &[PlayerId], rage: bool, places: &mut Places) {
        if !rage {
            // R-BOMB-1: the lynch is exactly what R-TIE-1 leaves of the firing holders — nobody
            // when the tie among them picks nobody (`tie = "none"`, fangs).
            if fired.is_empty() {
                self.tell(Step::Bomb, |_| say::bomb_none());
            } else {
                self.tell(Step::Bomb, |st| say::bomb(&st.whos(fired), false));
            }
            places.clear();
            places.extend(fired.iter().map(|&f| Some(f)));
            return;
        }
        if fired.is_empty() {
            return;
        }
        self.tell(Step::Bomb, |st| say::bomb(&st.whos(fired), true));
        // Rage: the firing holders take over the chosen places from the top, then fill empty ones.
        let chosen: Vec<usize> = (0..places.len()).filter(|&k| places[k].is_some()).collect();
        for (k, &f) in fired.iter().enumerate() {
            if let Some(&slot) = chosen.get(k) {
                places[slot] = Some(f);
            } else if let Some(slot) = places.iter().position(Option::is_none) {
                places[slot] = Some(f);
            } else {
                places.push(Some(f));
            }
        }
    }

    /// Step 7: Rage (two places) and the lynch; on Fear, the leader's sentence.
    /// The votes are done with after this step (their buffer is kept for the next day).
    pub(crate) fn step_7_rage_and_lynch(&mut self, votes: Votes, places: Places) -> Result<(), ResolveError> {
        let mut lynched = std::mem::take(&mut self.day.record.lynched);
        lynched.clear();
        if self.day.event == Some(Event::Fear) {
            lynched.extend(self.fear(&votes)?);
        } else {
            lynched.extend(places.iter().flatten());
        }
        let mut places = places;
        places.clear();
        self.day.places_buf = places;
        self.day.counts_buf = votes.counts;
        lynched.dedup();
        self.st.sort_by_list(&mut lynched);
        lynched.dedup();
        if lynched.is_empty() {
            self.say(Step::RageAndLynch, |_| say::nobody_lynched());
        }
        let hidden = self.day.event == Some(Event::SolarEclipse);
        for &p in &lynched {
            self.st.kill(p, Death::Lynch);
            self.st.player_mut(p).role_public = !hidden;
            let role = self.st.player(p).role;
            self.say(Step::RageAndLynch, |st| say::lynched(st.who(p), Some(role)));
        }
        self.day.record.lynched = lynched;
        self.st.turn_halfbloods(&mut self.day.log, Step::RageAndLynch);
        Ok(())
    }

    /// R-FEAR-1: the vote elects a leader, whose last `sentence` is carried out.
    fn fear(&mut self, votes: &Votes) -> Result<Option<PlayerId>, ResolveError> {
        let best = self.st.living().map(|p| votes.count(p)).max().unwrap_or(0);
        if best == 0 {
            self.tell(Step::RageAndLynch, |_| say::fear_nobody());
            return Ok(None);
        }
        // The ones with the most votes, in the day's group buffer (given back below).
        let mut top = std::mem::take(&mut self.day.tie_buf);
        top.clear();
        top.extend(self.st.living().filter(|p| votes.count(*p) == best));
        let leader = if top.len() == 1 {
            top[0]
        } else if self.st.rules.tie == TieRule::Random {
            self.draw_tie(&top)?
        } else {
            self.tell(Step::RageAndLynch, |st| say::fear_tie(&st.whos(&top)));
            self.day.tie_buf = top;
            return Ok(None);
        };
        self.day.tie_buf = top;
        self.day.record.leader = Some(leader);
        let Some(s) = self.day.sent[leader.index()].sentence.filter(|s| self.st.alive(*s)) else {
            self.tell(Step::RageAndLynch, |st| say::fear_no_sentence(st.who(leader)));
            return Ok(None);
        };
        self.day.record.sentence = Some(s);
        if self.st.holds_charged(s, Item::SheepSkin) && self.day.items_work() {
            self.trigger(s, Item::SheepSkin, Step::RageAndLynch);
            self.tell(Step::RageAndLynch, |st| say::fear_sheep_skin(st.who(leader), st.who(s)));
            return Ok(None);
        }
        self.say(Step::RageAndLynch, |st| say::fear_sentence(st.who(leader), st.who(s)));
        Ok(Some(s))
    }
}
