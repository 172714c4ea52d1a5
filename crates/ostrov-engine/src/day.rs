//! The open day: the orders accepted so far, each checked when sent (R-ORDER-1).

use std::collections::VecDeque;

use crate::act::Act;
use crate::event::Event;
use crate::item::{Item, ItemKind};
use crate::log::Log;
use crate::order::{Actor, Clock, Command, Named, Order, Targets};
use crate::player::PlayerId;
use crate::record::{DayRecord, ItemUse, Rejected, Stage};
use crate::refusal::Refusal;
use crate::role::Role;
use crate::state::State;
use crate::step::Step;

/// Where the open day stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Before the 13:00 stage.
    Morning,
    /// After the 13:00 stage, until 21:00.
    Afternoon,
}

/// A night order as accepted (R-ORDER-1: the last one sent replaces the earlier).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NightOrder {
    Kill(Targets),
    Check(PlayerId),
    Heal(PlayerId),
    Cancel,
    Swap(PlayerId, PlayerId),
    Recharge(PlayerId),
    Assault(PlayerId),
}

impl NightOrder {
    /// Every player the order names.
    pub fn targets(&self) -> impl Iterator<Item = PlayerId> {
        self.named_pair().iter()
    }

    /// Whether `ok` holds for every player the order names (those of
    /// [`NightOrder::targets`], without the iterator).
    #[inline]
    pub fn all_named(&self, ok: impl Fn(PlayerId) -> bool) -> bool {
        self.named_pair().all(ok)
    }

    /// The (at most two) players the order names.
    #[inline]
    fn named_pair(&self) -> Named {
        Named(match *self {
            NightOrder::Kill(t) => (Some(t.first), t.second),
            NightOrder::Check(p) | NightOrder::Heal(p) | NightOrder::Recharge(p) | NightOrder::Assault(p) => {
                (Some(p), None)
            }
            NightOrder::Swap(x, y) => (Some(x), Some(y)),
            NightOrder::Cancel => (None, None),
        })
    }

    /// The order as a command.
    pub const fn command(self) -> Command {
        match self {
            NightOrder::Kill(t) => Command::Kill(t),
            NightOrder::Check(t) => Command::Check(t),
            NightOrder::Heal(t) => Command::Heal(t),
            NightOrder::Cancel => Command::Cancel,
            NightOrder::Swap(a, b) => Command::Swap(a, b),
            NightOrder::Recharge(t) => Command::Recharge(t),
            NightOrder::Assault(t) => Command::Assault(t),
        }
    }

    pub const fn act(&self) -> Act {
        match self {
            NightOrder::Kill(_) => Act::Kill,
            NightOrder::Check(_) => Act::Check,
            NightOrder::Heal(_) => Act::Heal,
            NightOrder::Cancel => Act::Cancel,
            NightOrder::Swap(..) => Act::Swap,
            NightOrder::Recharge(_) => Act::Recharge,
            NightOrder::Assault(_) => Act::Assault,
        }
    }
}

/// What one player sent on the open day — the last order of each kind (R-ORDER-1) — and
/// what the day marks on them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sent {
    pub vote: Option<Targets>,
    pub megaphone: Option<PlayerId>,
    /// `authority`: (whose vote, for whom).
    pub authority: Option<(PlayerId, PlayerId)>,
    pub sentence: Option<PlayerId>,
    /// The night order and its order number (later orders have larger numbers).
    pub night: Option<(NightOrder, u32)>,
    /// A Bunker request: the fixed item, if any, and the order number.
    pub bunker: Option<(Option<Item>, u32)>,
    pub exchange: Option<PlayerId>,
    pub light: bool,
    /// Immune to the lynch (Choose me!: the chosen player and their pair).
    pub immune: bool,
    /// The host blocked their vote today (R-VOTE-2).
    pub penalty: bool,
}

/// An accepted `use` of a shocker, love note or voodoo doll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UseOrder {
    pub by: PlayerId,
    pub item: Item,
    pub target: PlayerId,
    pub phase: Phase,
}

/// What the day's shocker and love-note uses decide (step 1). Its buffers are kept from
/// day to day in the open day (`Today::items_buf`).
#[derive(Clone, Debug, Default)]
pub(crate) struct DayItems {
    /// By player id; empty when nobody is shocked.
    pub shocked: Vec<bool>,
    pub love: Vec<(PlayerId, PlayerId)>,
}

/// Everything accepted so far on the open day.
#[derive(Clone, Debug)]
pub struct Today {
    pub event: Option<Event>,
    pub phase: Phase,
    /// Counts accepted orders: later orders have larger numbers.
    pub(crate) seq: u32,
    /// Whether any `authority` order was accepted today (step 4 has nothing to do otherwise).
    pub(crate) any_authority: bool,
    /// Per player id: what they sent today and what the day marks on them.
    pub sent: Vec<Sent>,
    pub uses: Vec<UseOrder>,
    pub chosen: Option<PlayerId>,
    pub pair: Option<PlayerId>,
    pub question: Option<(PlayerId, String)>,
    pub answer: Option<bool>,
    pub(crate) tie_breaks: VecDeque<PlayerId>,
    pub(crate) log: Log,
    pub(crate) record: DayRecord,
    /// Bunker's requests (order number, sender, fixed item) for the 13:00 stage, the buffer
    /// kept from day to day.
    pub(crate) bunker_buf: Vec<(u32, PlayerId, Option<Item>)>,
    /// Tsunami's items of the living (see `Match::tsunami`), the buffer kept from day to day.
    pub(crate) deal_buf: Vec<Option<crate::item::Held>>,
    /// Step 1's findings (shocked players, love notes), their buffers kept from day to day.
    pub(crate) items_buf: DayItems,
    /// The vote counts' buffer (see `Resolution::count`), kept from day to day.
    pub(crate) counts_buf: Vec<u32>,
    /// The lynch's "already considered" marks (see step 5), kept from day to day.
    pub(crate) placed_buf: Vec<bool>,
    /// A reused buffer: the group taking lynch places (`fill`).
    pub(crate) tie_buf: Vec<PlayerId>,
    /// Step 6's firing bomb holders (by player id) and the places they take, kept from day to day.
    pub(crate) firing_buf: Vec<bool>,
    pub(crate) fired_buf: Vec<Option<PlayerId>>,
    /// The lynch places' buffer (steps 5–7), kept from day to day.
    pub(crate) places_buf: Vec<Option<PlayerId>>,
}

impl Today {
    pub(crate) fn new(n: usize, day: u32, event: Option<Event>, detail: bool) -> Today {
        Today {
            event,
            phase: Phase::Morning,
            seq: 0,
            any_authority: false,
            sent: vec![Sent::default(); n],
            uses: Vec::new(),
            chosen: None,
            pair: None,
            question: None,
            answer: None,
            tie_breaks: VecDeque::new(),
            log: Log::new(detail),
            record: DayRecord { day, event, ..DayRecord::default() },
            bunker_buf: Vec::new(),
            deal_buf: Vec::new(),
            items_buf: Default::default(),
            counts_buf: Vec::new(),
            placed_buf: Vec::new(),
            tie_buf: Vec::new(),
            firing_buf: Vec::new(),
            fired_buf: Vec::new(),
            places_buf: Vec::new(),
        }
    }

    /// Makes a used day fresh again, keeping its buffers: the same as [`Today::new`].
    pub(crate) fn reset(&mut self, n: usize, day: u32, event: Option<Event>, detail: bool) {
        self.event = event;
        self.phase = Phase::Morning;
        self.seq = 0;
        self.any_authority = false;
        self.sent.clear();
        self.sent.resize(n, Sent::default());
        self.uses.clear();
        self.chosen = None;
        self.pair = None;
        self.question = None;
        self.answer = None;
        self.tie_breaks.clear();
        self.log.on = detail;
        self.log.entries.clear();
        self.record.reset(day, event);
    }

    /// Whether items work today (Magnetic storm: none does, R-ITEM-7).
    pub fn items_work(&self) -> bool {
        self.event != Some(Event::MagneticStorm)
    }

    pub(crate) fn reject(&mut self, order: &Order, reason: Refusal) {
        self.record.rejected.push(Rejected {
            by: order.by,
            act: order.command.act(),
            at: order.at,
            reason,
            command: Some(order.command.clone()),
        });
    }
}

/// Checks an order against the state at the moment it is sent (R-ORDER-1).
#[inline(always)]
pub(crate) fn check(state: &State, today: &Today, by: Actor, at: Clock, command: &Command) -> Result<(), Refusal> {
    if state.winner.is_some() {
        return Err(Refusal::GameOver);
    }
    if at > Clock::DEADLINE {
        return Err(Refusal::Late);
    }
    let act = command.act();
    let me = match by {
        Actor::Host => {
            if !act.is_host() {
                return Err(Refusal::NotForHost);
            }
            None
        }
        Actor::Player(p) => {
            if act.is_host() {
                return Err(Refusal::HostOnly);
            }
            if !state.alive(p) {
                return Err(Refusal::SenderDead);
            }
            Some(p)
        }
    };
    // R-ORDER-1 names the checks in this order — the sender alive and able to act, the
    // ability or item theirs and not used up, the right event, the targets alive — and an
    // order that fails several is refused for the first (O-ORDER-3).
    check_act(state, today, me, at, command)?;
    if !command.all_named(|t| state.alive(t)) {
        return Err(Refusal::TargetDead);
    }
    Ok(())
}

/// The checks of [`check`] that depend on the act: the ability or item, and the event.
#[inline(always)]
fn check_act(state: &State, today: &Today, me: Option<PlayerId>, at: Clock, command: &Command) -> Result<(), Refusal> {
    let event = today.event;
    let need_event = |e: Event| -> Result<(), Refusal> {
        if event != Some(e) {
            Err(Refusal::WrongEvent)
        } else if today.phase != Phase::Morning || at > Clock::MIDDAY {
            Err(Refusal::AfterMidday)
        } else {
            Ok(())
        }
    };
    let Some(me) = me else {
        return match command {
            Command::Answer(_) if event != Some(Event::SpiritCall) => Err(Refusal::WrongEvent),
            // O-TIME-3: the host answers once a question was asked.
            Command::Answer(_) if today.question.is_none() => Err(Refusal::NoQuestion),
            _ => Ok(()),
        };
    };
    let pl = state.player(me);
    let role = pl.role;
    match command {
        Command::Vote(t) => {
            if t.len() > Event::votes_per_player(event) {
                return Err(Refusal::WrongVoteCount);
            }
        }
        // R-ITEM-7 refuses only item uses on a Magnetic storm: a megaphone order is taken,
        // and its vote is simply not cast (step 3), as on Fear.
        Command::Megaphone(_) => {
            if !state.holds(me, Item::Megaphone) {
                return Err(Refusal::NoItem);
            }
        }
        Command::Authority { .. } => {
            if role != Role::Authority {
                return Err(Refusal::NotYourAbility);
            }
            if pl.spent.authority {
                return Err(Refusal::AbilityUsed);
            }
        }
        Command::Sentence(_) => {
            if event != Some(Event::Fear) {
                return Err(Refusal::WrongEvent);
            }
        }
        Command::Kill(t) => {
            if !role.has_night_act(Act::Kill) {
                return Err(Refusal::NotYourAbility);
            }
            if role == Role::Witch && pl.spent.witch_kill {
                return Err(Refusal::AbilityUsed);
            }
            let pack = matches!(role, Role::Werewolf | Role::Halfblood);
            if t.second.is_some_and(|s| s != t.first) && !(pack && event == Some(Event::FullMoon)) {
                return Err(Refusal::TwoTargets);
            }
        }
        Command::Cancel => {
            if role != Role::Witch {
                return Err(Refusal::NotYourAbility);
            }
            if pl.spent.witch_cancel {
                return Err(Refusal::AbilityUsed);
            }
        }
        Command::Heal(t) => {
            if role != Role::Nurse {
                return Err(Refusal::NotYourAbility);
            }
            if *t == me && pl.spent.nurse_self_heal {
                return Err(Refusal::SelfHealUsed);
            }
        }
        Command::Check(_) | Command::Swap(..) | Command::Recharge(_) | Command::Assault(_) => {
            if !role.has_night_act(command.act()) {
                return Err(Refusal::NotYourAbility);
            }
            if let Command::Swap(a, b) = *command {
                if a == b {
                    return Err(Refusal::SelfTarget);
                }
            }
        }
        Command::Use { item, .. } => {
            let Some(h) = state.held(me).filter(|h| h.item.kind() == ItemKind::Used) else {
                return Err(Refusal::NoItem);
            };
            if item.is_some_and(|i| i != h.item) {
                return Err(Refusal::WrongItem);
            }
            if !h.charged {
                return Err(Refusal::ItemSpent);
            }
            // The event comes after the item (R-ORDER-1): R-ITEM-7.
            if !today.items_work() {
                return Err(Refusal::MagneticStorm);
            }
        }
        Command::Bunker { .. } => need_event(Event::Bunker)?,
        Command::Exchange(t) => {
            need_event(Event::Exchange)?;
            if *t == me {
                return Err(Refusal::SelfTarget);
            }
        }
        Command::Light => {
            need_event(Event::MysticLight)?;
            if !state.held(me).is_some_and(|h| h.item.is_activated() && !h.charged) {
                return Err(Refusal::NothingToRecharge);
            }
        }
        Command::Pair(t) => {
            need_event(Event::ChooseMe)?;
            if today.chosen != Some(me) {
                return Err(Refusal::NotChosen);
            }
            if *t == me {
                return Err(Refusal::SelfTarget);
            }
        }
        Command::Ask(_) => {
            need_event(Event::SpiritCall)?;
            if today.question.is_some() {
                return Err(Refusal::AlreadyAsked);
            }
        }
        Command::Withdraw(what) => check_withdraw(state, today, me, at, *what)?,
        Command::Answer(_) | Command::Penalty { .. } | Command::Remove { .. } => {
            unreachable!("host acts are checked above")
        }
    }
    Ok(())
}

/// O-ORDER-4: a `withdraw` takes back the sender's order in force of kind `what` while that
/// order could still be changed: an order of a kind that stands until replaced (not a
/// `use`, `light` or `ask`), one in force, and the same order sent again now would pass
/// the checks of its ability, item and event (so an event's order only before 13:00,
/// R-EVENT-1; a vote or night order until 21:00). Its targets need not be alive: taking
/// back an order on a player the host removed is allowed.
#[cold]
#[inline(never)]
fn check_withdraw(state: &State, today: &Today, me: PlayerId, at: Clock, what: Act) -> Result<(), Refusal> {
    if !what.is_withdrawable() {
        return Err(Refusal::NotWithdrawable);
    }
    let Some(standing) = in_force(today, me, what) else { return Err(Refusal::NothingToWithdraw) };
    check_act(state, today, Some(me), at, &standing)
}

/// The order of kind `what` seat `me` has in force on the open day (R-ORDER-1: the last of
/// its kind), as a command; for a night act, the night order in force when it is of that act.
pub(crate) fn in_force(today: &Today, me: PlayerId, what: Act) -> Option<Command> {
    let s = &today.sent[me.index()];
    match what {
        Act::Vote => s.vote.map(Command::Vote),
        Act::Megaphone => s.megaphone.map(Command::Megaphone),
        Act::Authority => s.authority.map(|(from, target)| Command::Authority { from, target }),
        Act::Sentence => s.sentence.map(Command::Sentence),
        Act::Bunker => s.bunker.map(|(item, _)| Command::Bunker { item }),
        Act::Exchange => s.exchange.map(Command::Exchange),
        Act::Pair => today.pair.filter(|_| today.chosen == Some(me)).map(Command::Pair),
        _ if what.is_night() => s.night.filter(|(n, _)| n.act() == what).map(|(n, _)| n.command()),
        _ => None,
    }
}

/// Records an order that passed [`check`]: the last of each kind replaces the earlier.
// Inlined into `Match::try_send`: it runs for every order the bots send.
#[inline(always)]
pub(crate) fn accept(state: &mut State, today: &mut Today, by: Actor, command: &Command) {
    today.seq += 1;
    let seq = today.seq;
    let Actor::Player(me) = by else {
        accept_host(state, today, command);
        return;
    };
    let i = me.index();
    match command {
        Command::Vote(t) => today.sent[i].vote = Some(*t),
        Command::Megaphone(t) => today.sent[i].megaphone = Some(*t),
        Command::Authority { from, target } => {
            today.sent[i].authority = Some((*from, *target));
            today.any_authority = true;
        }
        Command::Sentence(t) => today.sent[i].sentence = Some(*t),
        Command::Kill(t) => {
            let t = if t.second == Some(t.first) { Targets::one(t.first) } else { *t };
            today.sent[i].night = Some((NightOrder::Kill(t), seq));
        }
        Command::Check(t) => today.sent[i].night = Some((NightOrder::Check(*t), seq)),
        Command::Heal(t) => today.sent[i].night = Some((NightOrder::Heal(*t), seq)),
        Command::Cancel => today.sent[i].night = Some((NightOrder::Cancel, seq)),
        Command::Swap(a, b) => today.sent[i].night = Some((NightOrder::Swap(*a, *b), seq)),
        Command::Recharge(t) => today.sent[i].night = Some((NightOrder::Recharge(*t), seq)),
        Command::Assault(t) => today.sent[i].night = Some((NightOrder::Assault(*t), seq)),
        Command::Use { target, .. } => {
            let held = state.player_mut(me).item.as_mut().expect("checked: the sender holds the item");
            held.charged = false;
            let item = held.item;
            today.uses.push(UseOrder { by: me, item, target: *target, phase: today.phase });
            let stage = if today.phase == Phase::Morning { Stage::Midday } else { Stage::Evening };
            today.record.items_used.push(ItemUse { by: me, item, target: Some(*target), stage, effective: true });
        }
        Command::Bunker { item } => today.sent[i].bunker = Some((*item, seq)),
        Command::Exchange(t) => today.sent[i].exchange = Some(*t),
        Command::Light => today.sent[i].light = true,
        Command::Pair(t) => today.pair = Some(*t),
        Command::Ask(text) => today.question = Some((me, crate::skeleton::nested_quotes(text))),
        Command::Withdraw(what) => withdraw(today, me, *what),
        Command::Answer(_) | Command::Penalty { .. } | Command::Remove { .. } => {
            unreachable!("host acts come from the host")
        }
    }
}

/// O-ORDER-4: the seat's order in force of kind `what` stops counting (checked: there is
/// one); nothing earlier takes its place, and a later order of the kind may be sent again.
#[cold]
#[inline(never)]
fn withdraw(today: &mut Today, me: PlayerId, what: Act) {
    let s = &mut today.sent[me.index()];
    match what {
        Act::Vote => s.vote = None,
        Act::Megaphone => s.megaphone = None,
        Act::Authority => s.authority = None,
        Act::Sentence => s.sentence = None,
        Act::Bunker => s.bunker = None,
        Act::Exchange => s.exchange = None,
        Act::Pair => today.pair = None,
        _ => s.night = None,
    }
}

/// Records a host decision that passed [`check`] (out of line: players send nearly every order).
#[cold]
#[inline(never)]
fn accept_host(state: &mut State, today: &mut Today, command: &Command) {
    match command {
        Command::Answer(a) => {
            today.answer = Some(*a);
            today.record.answer = Some(*a);
            today.log.add(Step::Host, || format!("Дух Острова отвечает: «{}»", if *a { "да" } else { "нет" }));
        }
        Command::Penalty { target, reason } => {
            today.sent[target.index()].penalty = true;
            today.record.penalties.push((*target, reason.clone()));
            today.log.add(Step::Host, || crate::ru::say::penalty(state.who(*target), reason.as_deref()).to_string());
        }
        Command::Remove { target, reason } => {
            state.kill(*target, crate::player::Death::Removed);
            state.player_mut(*target).role_public = true;
            // O-SPIRIT-2: a question whose asker is gone does not count (R-ORDER-1), so
            // another player may still ask before 13:00.
            if today.question.as_ref().is_some_and(|(by, _)| by == target) {
                today.question = None;
            }
            today.record.removed.push((*target, reason.clone()));
            let role = state.player(*target).role;
            today
                .log
                .add(Step::Host, || crate::ru::say::removed(state.who(*target), role, reason.as_deref()).to_string());
            state.turn_halfbloods(&mut today.log, Step::Host);
        }
        _ => unreachable!("only host acts come from the host"),
    }
}
