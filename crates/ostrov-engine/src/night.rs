//! The night, steps 8–20 of the 21:00 resolution (RULES.md §4). All deaths of the night
//! are applied together after step 20 (R-NIGHT-1); a player killed earlier in the night
//! still acts.

use crate::day::NightOrder;
use crate::event::Event;
use crate::item::Item;
use crate::notice::{ItemSource, NoticeKind};
use crate::order::Targets;
use crate::player::{Death, PlayerId};
use crate::record::Check;
use crate::resolution::Resolution;
use crate::role::{CheckResult, Role};
use crate::ru::say;
use crate::step::Step;

/// One player's night order, still standing or void.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NightAct {
    pub actor: PlayerId,
    pub order: NightOrder,
    pub void: bool,
}

/// The pack's order (R-WOLF-1).
#[derive(Clone, Debug)]
pub(crate) struct Pack {
    pub actor: PlayerId,
    pub targets: Targets,
    /// Fog night: the living werewolves who voted for the victim.
    pub fog_voters: Option<Vec<PlayerId>>,
    pub void: bool,
}

/// Why a player would die tonight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cause {
    Wolves,
    Witch,
    Hamster,
    Check,
}

/// The night being resolved.
#[derive(Clone, Debug, Default)]
pub(crate) struct Night {
    pub acts: Vec<NightAct>,
    pub pack: Option<Pack>,
    pub voodooed: Vec<PlayerId>,
    pub cancelled: bool,
    pub attacks: Vec<PlayerId>,
    pub checks: Vec<(PlayerId, PlayerId)>,
    pub assaults: Vec<PlayerId>,
    pub deaths: Vec<(PlayerId, Cause)>,
}

impl Night {
    /// Act `k` if it still stands and belongs to a player of `role` (none once cancelled).
    fn live(&self, k: usize, role: Role, st: &crate::state::State) -> Option<NightAct> {
        let a = self.acts[k];
        (!self.cancelled && !a.void && st.player(a.actor).role == role).then_some(a)
    }

    /// Empties the night, keeping its buffers.
    fn clear(&mut self) {
        self.acts.clear();
        self.pack = None;
        self.voodooed.clear();
        self.cancelled = false;
        self.attacks.clear();
        self.checks.clear();
        self.assaults.clear();
        self.deaths.clear();
    }
}

impl Resolution<'_> {
    /// Gathers the night orders that still count after the lynch (R-ORDER-1, R-WOLF-1).
    pub(crate) fn collect_night(&mut self, buf: Option<Box<Night>>) -> Box<Night> {
        let mut night = buf.unwrap_or_default();
        night.clear();
        let mut pack: Option<(u32, PlayerId, Targets)> = None;
        // The players who sent a night order, taken in list order.
        for k in 0..self.st.list_order.len() {
            let p = self.st.list_order[k];
            let Some((order, seq)) = self.day.sent[p.index()].night else { continue };
            let pl = self.st.player(p);
            if !pl.alive {
                self.say(Step::FogNight, |st| say::night_sender_gone(st.who(p)));
                continue;
            }
            if let NightOrder::Kill(t) = order {
                if matches!(pl.role, Role::Werewolf | Role::Halfblood) {
                    if pl.is_wolf() && pack.is_none_or(|(s, _, _)| seq > s) {
                        pack = Some((seq, p, t));
                    }
                    continue;
                }
            }
            if !order.all_named(|t| self.st.alive(t)) {
                self.say(Step::FogNight, |st| say::night_target_gone(st.who(p)));
                continue;
            }
            night.acts.push(NightAct { actor: p, order, void: false });
        }
        if let Some((_, actor, targets)) = pack {
            if targets.iter().any(|t| !self.st.alive(t)) {
                self.log(Step::FogNight, || "Ход оборотней не учитывается: выбранный ими игрок выбыл".into());
            } else {
                night.pack = Some(Pack { actor, targets, fog_voters: None, void: false });
            }
        }
        for k in 0..self.day.uses.len() {
            let u = self.day.uses[k];
            if u.item != Item::Voodoo {
                continue;
            }
            if !self.st.alive(u.by) || !self.st.alive(u.target) {
                // R-ITEM-7: a voodoo doll whose user is lynched does nothing (and is spent).
                self.say(Step::Voodoo, |st| say::voodoo_void(st.who(u.by)));
                self.mark_ineffective(u.by, u.item);
                continue;
            }
            night.voodooed.push(u.target);
        }
        night
    }

    /// Step 8: Fog night — a night order needs a vote on its target.
    pub(crate) fn step_8_fog_night(&mut self, night: &mut Night) {
        if self.day.event != Some(Event::FogNight) {
            return;
        }
        for k in 0..night.acts.len() {
            let a = night.acts[k];
            if matches!(a.order, NightOrder::Cancel) {
                continue;
            }
            let voted = self.day.sent[a.actor.index()].vote.is_some_and(|v| a.order.targets().any(|t| v.contains(t)));
            if !voted {
                night.acts[k].void = true;
                self.say(Step::FogNight, |st| say::fog_void(st.who(a.actor)));
            }
        }
        if let Some(pack) = night.pack.as_mut() {
            let voters: Vec<PlayerId> = self
                .st
                .living()
                .filter(|w| self.st.player(*w).is_wolf())
                .filter(|w| self.day.sent[w.index()].vote.is_some_and(|v| pack.targets.iter().any(|t| v.contains(t))))
                .collect();
            if voters.is_empty() {
                pack.void = true;
                self.day.log.add(Step::FogNight, || {
                    "Туманная ночь: ни один оборотень не голосовал против жертвы — нападения не будет".into()
                });
            }
            pack.fog_voters = Some(voters);
        }
    }

    /// Step 9: the voodoo doll — the target's night ability does nothing.
    pub(crate) fn step_9_voodoo(&mut self, night: &mut Night) {
        for &v in &night.voodooed {
            self.say(Step::Voodoo, |st| say::voodoo(st.who(v)));
            for a in night.acts.iter_mut().filter(|a| a.actor == v) {
                a.void = true;
            }
        }
        if let Some(pack) = night.pack.as_mut() {
            let blocked = match &pack.fog_voters {
                Some(voters) => !voters.is_empty() && voters.iter().all(|w| night.voodooed.contains(w)),
                None => night.voodooed.contains(&pack.actor),
            };
            if blocked && !pack.void {
                pack.void = true;
                self.day.log.add(Step::Voodoo, || "Кукла вуду: оборотни этой ночью никого не съедят".into());
            }
        }
    }

    /// Step 10: the witch — a kill, or the cancel of every other order of the night.
    pub(crate) fn step_10_witch(&mut self, night: &mut Night) {
        let n = night.acts.len();
        let cancel =
            (0..n).filter_map(|k| night.live(k, Role::Witch, self.st)).find(|a| matches!(a.order, NightOrder::Cancel));
        if let Some(w) = cancel {
            night.cancelled = true;
            self.st.player_mut(w.actor).spent.witch_cancel = true;
            self.say(Step::Witch, |st| say::witch_cancel(st.who(w.actor)));
            // The night's voodoo dolls are void too (spent anyway, R-ITEM-3): they changed nothing.
            for k in 0..self.day.uses.len() {
                let u = self.day.uses[k];
                if u.item == Item::Voodoo && night.voodooed.contains(&u.target) {
                    self.mark_ineffective(u.by, u.item);
                }
            }
            return;
        }
        for k in 0..n {
            let Some(w) = night.live(k, Role::Witch, self.st) else { continue };
            if let NightOrder::Kill(t) = w.order {
                self.st.player_mut(w.actor).spent.witch_kill = true;
                night.deaths.push((t.first, Cause::Witch));
                self.say(Step::Witch, |st| say::witch_kill(st.who(w.actor), st.who(t.first)));
            }
        }
    }

    /// Step 11: the sleepwalker swaps two players' items or recharges one.
    pub(crate) fn step_11_sleepwalker(&mut self, night: &mut Night) {
        for k in 0..night.acts.len() {
            let Some(a) = night.live(k, Role::Sleepwalker, self.st) else { continue };
            match a.order {
                NightOrder::Swap(x, y) => {
                    let ix = self.st.player(x).item;
                    let iy = self.st.player(y).item;
                    self.st.player_mut(x).item = iy;
                    self.st.player_mut(y).item = ix;
                    self.st.notify(x, NoticeKind::Item { item: iy, source: ItemSource::Swap });
                    self.st.notify(y, NoticeKind::Item { item: ix, source: ItemSource::Swap });
                    self.say(Step::Sleepwalker, |st| say::swap(st.who(x), st.who(y)));
                }
                NightOrder::Recharge(t) => match self.st.player(t).item {
                    Some(h) if h.item.is_activated() && !h.charged => {
                        let h = crate::item::Held { item: h.item, charged: true };
                        self.st.player_mut(t).item = Some(h);
                        self.st.notify(t, NoticeKind::Recharged(h));
                        self.say(Step::Sleepwalker, |st| say::recharge(st.who(t)));
                    }
                    _ => self.say(Step::Sleepwalker, |st| say::recharge_nothing(st.who(t))),
                },
                _ => {}
            }
        }
    }

    /// Step 12: the werewolves attack (none on Lunar eclipse; two on Full moon).
    pub(crate) fn step_12_werewolves(&mut self, night: &mut Night) {
        let Some(pack) = night.pack.as_ref().filter(|p| !p.void && !night.cancelled) else { return };
        if self.day.event == Some(Event::LunarEclipse) {
            self.log(Step::Werewolves, || "Лунное затмение: у оборотней праздник, они никого не едят".into());
            return;
        }
        let targets = pack.targets;
        for t in targets.iter() {
            self.say(Step::Werewolves, |st| say::pack_attack(st.who(t)));
            night.attacks.push(t);
        }
    }

    /// Step 13: the untouchable survives the attack.
    pub(crate) fn step_13_untouchable(&mut self, night: &mut Night) {
        // Each attack on the untouchable is told and dropped, in the order of the attacks.
        night.attacks.retain(|&t| {
            if self.st.player(t).role != Role::Untouchable {
                return true;
            }
            self.say(Step::Untouchable, |st| say::untouchable(st.who(t)));
            false
        });
    }

    /// Step 14: the moon fern saves its holder from the attack (R-ITEM-1).
    pub(crate) fn step_14_moon_fern(&mut self, night: &mut Night) {
        for k in 0..night.attacks.len() {
            let t = night.attacks[k];
            if self.day.items_work() && self.st.holds_charged(t, Item::MoonFern) {
                self.trigger(t, Item::MoonFern, Step::MoonFern);
                self.tell(Step::MoonFern, |st| say::moon_fern(st.who(t)));
            } else {
                night.deaths.push((t, Cause::Wolves));
            }
        }
        night.attacks.clear();
    }

    /// Step 15: the seer checks a player.
    pub(crate) fn step_15_seer(&mut self, night: &mut Night) {
        for k in 0..night.acts.len() {
            let Some(a) = night.live(k, Role::Seer, self.st) else { continue };
            if let NightOrder::Check(t) = a.order {
                night.checks.push((a.actor, t));
            }
        }
    }

    /// Step 16: black glasses make the check fail; an unturned halfblood shows "not a
    /// werewolf"; a checked hamster dies (R-HAMSTER-1).
    pub(crate) fn step_16_black_glasses(&mut self, night: &mut Night) {
        for k in 0..night.checks.len() {
            let (seer, t) = night.checks[k];
            let target = self.st.player(t);
            let (is_hamster, looks_like_wolf) = (target.role == Role::Hamster, target.looks_like_wolf());
            let result = if self.day.items_work() && self.st.holds(t, Item::BlackGlasses) {
                CheckResult::Failed
            } else if looks_like_wolf {
                CheckResult::Werewolf
            } else {
                CheckResult::NotWerewolf
            };
            self.say(Step::BlackGlasses, |st| say::check(st.who(seer), st.who(t), result));
            if result != CheckResult::Failed && is_hamster {
                night.deaths.push((t, Cause::Check));
                self.say(Step::BlackGlasses, |st| say::hamster_checked(st.who(t)));
            }
            self.st.notify(seer, NoticeKind::Check { target: t, result });
            self.day.record.checks.push(Check { seer, target: t, result });
        }
        night.checks.clear();
    }

    /// Step 17: the maniac assaults a player.
    pub(crate) fn step_17_maniac(&mut self, night: &mut Night) {
        for k in 0..night.acts.len() {
            let Some(a) = night.live(k, Role::Maniac, self.st) else { continue };
            if let NightOrder::Assault(t) = a.order {
                night.assaults.push(t);
            }
        }
    }

    /// Step 18: the camo robe saves its holder from the maniac.
    pub(crate) fn step_18_camo_robe(&mut self, night: &mut Night) {
        for k in 0..night.assaults.len() {
            let t = night.assaults[k];
            if self.day.items_work() && self.st.holds_charged(t, Item::CamoRobe) {
                self.trigger(t, Item::CamoRobe, Step::CamoRobe);
                self.tell(Step::CamoRobe, |st| say::camouflage(st.who(t)));
            } else if !self.day.record.assaulted.contains(&t) {
                // The victim is a secret (O-PAPER-2): the host's log and the victim's
                // notice say it, the newspaper does not.
                self.say(Step::Maniac, |st| say::assault(st.who(t)));
                self.day.record.assaulted.push(t);
                self.st.notify(t, NoticeKind::Assaulted);
            }
        }
        night.assaults.clear();
    }

    /// Step 19: the hamster kills a player.
    pub(crate) fn step_19_hamster(&mut self, night: &mut Night) {
        for k in 0..night.acts.len() {
            let Some(a) = night.live(k, Role::Hamster, self.st) else { continue };
            if let NightOrder::Kill(t) = a.order {
                self.say(Step::Hamster, |st| say::hamster_kill(st.who(a.actor), st.who(t.first)));
                night.deaths.push((t.first, Cause::Hamster));
            }
        }
    }

    /// Step 20: the nurse heals a player: every death they would suffer tonight is
    /// cancelled (R-NURSE-1).
    pub(crate) fn step_20_nurse(&mut self, night: &mut Night) {
        for k in 0..night.acts.len() {
            let Some(a) = night.live(k, Role::Nurse, self.st) else { continue };
            if let NightOrder::Heal(t) = a.order {
                if t == a.actor {
                    self.st.player_mut(t).spent.nurse_self_heal = true;
                }
                let saved = night.deaths.iter().any(|(v, _)| *v == t);
                night.deaths.retain(|(v, _)| *v != t);
                self.say(Step::Nurse, |st| say::nurse(st.who(a.actor), st.who(t), saved));
            }
        }
    }

    /// R-NIGHT-1: the night's deaths, together; `dead` is set to the dead in list order.
    pub(crate) fn apply_night_deaths(&mut self, night: &Night, dead: &mut Vec<PlayerId>) {
        dead.clear();
        dead.extend(night.deaths.iter().map(|(v, _)| *v));
        self.st.sort_by_list(dead);
        dead.dedup();
        for &p in dead.iter() {
            self.st.kill(p, Death::Night);
            let role = self.st.player(p).role;
            self.say(Step::Nurse, |st| say::died(st.who(p), Some(role)));
        }
        if dead.is_empty() {
            self.say(Step::Nurse, |_| say::nobody_died());
        }
        // Last night's marks are cleared in place (the same as a fresh `vec![false; n]`).
        let n = self.st.players.len();
        self.st.assaulted.clear();
        self.st.assaulted.resize(n, false);
        for p in &self.day.record.assaulted {
            self.st.assaulted[p.index()] = true;
        }
        self.st.sort_by_list(&mut self.day.record.assaulted);
        self.day.record.night_deaths.clear();
        self.day.record.night_deaths.extend_from_slice(dead);
        self.st.turn_halfbloods(&mut self.day.log, Step::Nurse);
    }
}
