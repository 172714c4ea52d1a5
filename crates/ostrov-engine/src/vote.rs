//! The day vote, steps 1–4 of the 21:00 resolution: who voted for whom, and the
//! corrections for events, items and the authority (RULES.md §3).

use crate::day::DayItems;
use crate::event::Event;
use crate::item::Item;
use crate::player::PlayerId;
use crate::reason::{Blocked, Void};
use crate::record::{Ballot, BallotKind};
use crate::resolution::Resolution;
use crate::ru::say;
use crate::step::Step;

/// The counted votes after steps 1–4.
pub(crate) struct Votes {
    pub ballots: Vec<Ballot>,
    /// Votes per player id.
    pub counts: Vec<u32>,
}

impl Votes {
    pub fn count(&self, p: PlayerId) -> u32 {
        self.counts[p.index()]
    }
}

impl Resolution<'_> {
    /// Whether items change the vote today: not on Magnetic storm, not on Fear (R-FEAR-1).
    pub(crate) fn vote_items(&self) -> bool {
        self.day.items_work() && self.day.event != Some(Event::Fear)
    }

    /// Step 1: finalise the day's item actions — shocker, love note.
    pub(crate) fn step_1_finalise_day_items(&mut self) -> DayItems {
        let n = self.st.players.len();
        let fear = self.day.event == Some(Event::Fear);
        let DayItems { mut shocked, mut love } = std::mem::take(&mut self.day.items_buf);
        shocked.clear();
        love.clear();
        for k in 0..self.day.uses.len() {
            let u = self.day.uses[k];
            if !self.st.alive(u.by) || !self.st.alive(u.target) {
                if u.item != Item::Voodoo {
                    self.say(Step::FinaliseDayItems, |st| say::item_void(u.item, st.who(u.by), st.who(u.target)));
                    self.mark_ineffective(u.by, u.item);
                }
                continue;
            }
            match u.item {
                // R-FEAR-1: on Fear no item changes the vote; the shocked player is only silenced.
                Item::Shocker if fear => {
                    self.say(Step::FinaliseDayItems, |st| say::shocker_fear(st.who(u.by), st.who(u.target)));
                }
                Item::LoveNote if fear => {
                    self.say(Step::FinaliseDayItems, |st| say::love_note_fear(st.who(u.by), st.who(u.target)));
                }
                Item::Shocker => {
                    shocked.resize(n, false);
                    shocked[u.target.index()] = true;
                    self.say(Step::FinaliseDayItems, |st| say::shocker(st.who(u.by), st.who(u.target)));
                }
                Item::LoveNote => {
                    love.push((u.by, u.target));
                    self.say(Step::FinaliseDayItems, |st| say::love_note(st.who(u.by), st.who(u.target)));
                }
                _ => {}
            }
        }
        DayItems { shocked, love }
    }

    /// Step 2: corrections for events — Magnetic storm, Fear, Palms bloom.
    pub(crate) fn step_2_event_corrections(&mut self) {
        match self.day.event {
            Some(Event::MagneticStorm) => self.say(Step::EventCorrections, |_| say::storm_votes()),
            Some(Event::Fear) => self.say(Step::EventCorrections, |_| say::fear_votes()),
            Some(Event::PalmsBloom) => {
                // O-PALMS-1: a penalty is a Palms violation only when it was given for one
                // (no reason, or a reason that names the palms); any other penalty keeps
                // its own reason in the newspaper.
                for (p, why) in self.day.record.penalties.clone() {
                    if why.as_deref().is_none_or(crate::palms::names_the_palms) {
                        self.tell(Step::EventCorrections, |st| say::palms(st.who(p)));
                    }
                }
            }
            _ => {}
        }
    }

    /// Step 3: corrections for items (shocker, love note, poison thorn, totem, handcuffs,
    /// megaphone) and for blocked votes (R-VOTE-1, R-VOTE-2, R-VOTE-3). Step 1's findings
    /// are done with after this step (their buffers are kept for the next day).
    pub(crate) fn step_3_item_corrections(&mut self, items: DayItems) -> Votes {
        let n = self.st.players.len();
        let fear = self.day.event == Some(Event::Fear);
        let by_items = self.vote_items();
        let per = Event::votes_per_player(self.day.event);
        // The record's buffer (the ballots go back to the record in `count`).
        let mut ballots = std::mem::take(&mut self.day.record.ballots);
        ballots.clear();
        ballots.reserve(n * per + 4);
        for k in 0..self.st.list_order.len() {
            let v = self.st.list_order[k];
            let pl = self.st.player(v);
            if !pl.alive {
                continue;
            }
            // The voter's item, read once: only a totem or handcuffs (or a love note in
            // play) can make a vote void, and only a megaphone adds one.
            let held = pl.item.map(|h| h.item);
            let i = v.index();
            // Only the vote and the penalty are read for the common voter (the whole order
            // sheet is copied below, for the rest).
            let (vote, penalty) = (self.day.sent[i].vote, self.day.sent[i].penalty);
            // The common voter — not on Fear, not blocked, no item or love note that could
            // change the vote, every vote for a living player or not sent — gets their
            // ballots here; everything below handles the rest (and logs why).
            let plain_item = !matches!(held, Some(Item::Totem | Item::Handcuffs | Item::Megaphone));
            // A love note binds only its sender and its target.
            let loved = items.love.iter().any(|&(a, b)| a == v || b == v);
            if !fear
                && plain_item
                && !loved
                && !self.st.assaulted[i]
                && !penalty
                && !items.shocked.get(i).copied().unwrap_or(false)
            {
                let cast = |t: PlayerId| Ballot { voter: v, target: t, kind: BallotKind::Cast };
                let missing = Ballot { voter: v, target: v, kind: BallotKind::Missing };
                match vote {
                    None => {
                        ballots.push(missing);
                        if per == 2 {
                            ballots.push(missing);
                        }
                        continue;
                    }
                    Some(t) if self.st.alive(t.first) && t.second.is_none_or(|s| self.st.alive(s)) => {
                        ballots.push(cast(t.first));
                        if per == 2 {
                            ballots.push(t.second.map_or(missing, cast));
                        }
                        continue;
                    }
                    Some(_) => {}
                }
            }
            let sent = self.day.sent[i];
            let sent_i = self.sent(v);
            if sent.vote.is_some() && sent_i.is_none() {
                self.say(Step::ItemCorrections, |st| say::vote_target_gone(st.who(v)));
            }
            let may_void = by_items && (loved || matches!(held, Some(Item::Totem | Item::Handcuffs)));
            let assaulted = self.st.assaulted[i];
            let penalised = sent.penalty;
            let shocked = by_items && items.shocked.get(i).copied().unwrap_or(false);
            let blocked = assaulted || penalised || shocked;
            if blocked {
                let why = if assaulted {
                    Blocked::Assaulted
                } else if penalised {
                    Blocked::Penalty
                } else {
                    Blocked::Shocked
                };
                self.say(Step::ItemCorrections, |st| say::vote_blocked(st.who(v), why, fear));
            }
            let targets: [Option<PlayerId>; 2] = match sent_i {
                Some(t) => [Some(t.first), t.second],
                None => [None, None],
            };
            for slot in targets.iter().take(per) {
                if fear {
                    // R-VOTE-3: a blocked or missing vote just does not exist.
                    if let (false, Some(t)) = (blocked, slot) {
                        ballots.push(Ballot { voter: v, target: *t, kind: BallotKind::Cast });
                    }
                    continue;
                }
                let ballot = match (blocked, slot) {
                    (true, _) => Ballot { voter: v, target: v, kind: BallotKind::Blocked },
                    (false, None) => Ballot { voter: v, target: v, kind: BallotKind::Missing },
                    (false, Some(t)) => match may_void.then(|| self.void_reason(v, *t, &items)).flatten() {
                        Some(why) => {
                            self.say(Step::ItemCorrections, |st| say::vote_void(st.who(v), st.who(*t), why));
                            Ballot { voter: v, target: v, kind: BallotKind::Void }
                        }
                        None => Ballot { voter: v, target: *t, kind: BallotKind::Cast },
                    },
                };
                ballots.push(ballot);
            }
            // R-ITEM-5: the megaphone's extra vote, only if sent and the holder is not blocked.
            if by_items && !blocked && held == Some(Item::Megaphone) {
                if let Some(t) = sent.megaphone.filter(|t| self.st.alive(*t)) {
                    ballots.push(Ballot { voter: v, target: t, kind: BallotKind::Megaphone });
                    self.say(Step::ItemCorrections, |st| say::megaphone(st.who(v), st.who(t)));
                }
            } else if !by_items && sent.megaphone.is_some() && held == Some(Item::Megaphone) {
                // The order was taken (R-ITEM-7 refuses only uses), but no item changes the vote today.
                self.say(Step::ItemCorrections, |st| say::megaphone_silent(st.who(v), fear));
            }
        }
        self.day.items_buf = items;
        // The counts are made by `count`, after step 4.
        Votes { ballots, counts: Vec::new() }
    }

    /// `p`'s vote as sent and still counting (a vote for a player no longer alive does not count).
    fn sent(&self, p: PlayerId) -> Option<crate::order::Targets> {
        self.day.sent[p.index()].vote.filter(|t| self.st.alive(t.first) && t.second.is_none_or(|q| self.st.alive(q)))
    }

    /// Why a vote from `v` for `t` is void (love note, totem, handcuffs), if it is.
    fn void_reason(&self, v: PlayerId, t: PlayerId, items: &DayItems) -> Option<Void> {
        if items.love.iter().any(|&(a, b)| (a == v && b == t) || (a == t && b == v)) {
            return Some(Void::LoveNote);
        }
        let held = self.st.held(v).map(|h| h.item);
        if held == Some(Item::Totem) {
            // R-ITEM-6: the holder votes as one of the two living neighbours *sent* — their
            // vote order as accepted, even one that no longer counts (a target removed since).
            let (a, b) = self.st.neighbours(v)?;
            let per = Event::votes_per_player(self.day.event);
            let matches = |nb: PlayerId| match self.day.sent[nb.index()].vote {
                None => t == nb,
                Some(s) => s.contains(t) || (per == 2 && s.second.is_none() && t == nb),
            };
            if !matches(a) && !matches(b) {
                return Some(Void::Totem);
            }
        }
        if held == Some(Item::Handcuffs) {
            let (a, b) = self.st.neighbours(v)?;
            if t == a || t == b {
                return Some(Void::Handcuffs);
            }
        }
        None
    }

    /// Step 4: the authority's order (R-AUTH-1).
    pub(crate) fn step_4_authority(&mut self, votes: &mut Votes) {
        if !self.day.any_authority {
            return;
        }
        for k in 0..self.st.list_order.len() {
            let a = self.st.list_order[k];
            if !self.st.alive(a) {
                continue;
            }
            let Some((from, target)) = self.day.sent[a.index()].authority else { continue };
            if self.st.player(a).role != crate::role::Role::Authority || self.st.player(a).spent.authority {
                continue;
            }
            if !self.st.alive(from) || !self.st.alive(target) {
                self.say(Step::Authority, |st| say::authority_gone(st.who(a)));
                continue;
            }
            let Some(b) = votes.ballots.iter_mut().find(|b| b.voter == from && b.kind != BallotKind::Megaphone) else {
                self.say(Step::Authority, |st| say::authority_no_vote(st.who(a), st.who(from)));
                continue;
            };
            b.target = target;
            b.kind = BallotKind::Authority;
            let p = self.st.player_mut(a);
            p.spent.authority = true;
            p.role_public = true;
            self.day.record.authority = Some((a, from, target));
            self.tell(Step::Authority, |st| say::authority(st.who(a), st.who(from), st.who(target)));
        }
    }

    /// The tally after step 4: the record's `ballots` and `tally`.
    pub(crate) fn count(&mut self, votes: &mut Votes) {
        let mut counts = std::mem::take(&mut self.day.counts_buf);
        counts.clear();
        counts.resize(self.st.players.len(), 0);
        for b in &votes.ballots {
            counts[b.target.index()] += 1;
        }
        let mut tally = std::mem::take(&mut self.day.record.tally);
        tally.clear();
        // Each count read once.
        tally.extend(self.st.list_order.iter().filter_map(|&p| {
            let c = counts[p.index()];
            (c > 0).then_some((p, c))
        }));
        if self.day.log.on {
            let text = tally
                .iter()
                .map(|(p, c)| say::tally_item(self.st.who(*p), *c).to_string())
                .collect::<Vec<_>>()
                .join(", ");
            self.log(Step::Authority, || {
                format!("Итог голосования: {}", if text.is_empty() { "голосов нет".into() } else { text })
            });
        }
        // Steps 5–7 need only the counts: the ballots go to the record.
        self.day.record.ballots = std::mem::take(&mut votes.ballots);
        self.day.record.tally = tally;
        votes.counts = counts;
    }
}
