//! The orders a seat may send now, with their valid targets: asked of the very check
//! every order meets when it is sent (R-ORDER-1), so the two never disagree.

use crate::act::Act;
use crate::day::{self, Phase};
use crate::item::Item;
use crate::order::{Actor, Clock, Command, Targets};
use crate::play::Match;
use crate::player::PlayerId;

/// The players an order may name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Aim {
    /// Names nobody (`cancel`, `light`, `bunker`, `ask`).
    Nobody,
    /// Names one of these players. A `kill` naming the same player twice names one
    /// (O-ORDER-1).
    One(Vec<PlayerId>),
    /// Names one or two of these players, the same one twice too: a vote on a two-vote
    /// day (two votes, O-ORDER-1), the pack's `kill` on Full moon.
    OneOrTwo(Vec<PlayerId>),
    /// Names two different players of these (`swap`, O-ORDER-1).
    TwoDifferent(Vec<PlayerId>),
    /// `authority`: whose vote is taken (`from`), and for whom it goes (`to`).
    FromTo { from: Vec<PlayerId>, to: Vec<PlayerId> },
    /// `withdraw`: the acts of the seat's orders in force it may take back now (O-ORDER-4).
    Orders(Vec<Act>),
}

/// One act a seat may send now, with what it may name (see [`Match::legal_orders`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegalOrder {
    pub act: Act,
    /// The item a `use` uses: the sender's own (the order may also leave it unnamed).
    pub item: Option<Item>,
    pub aim: Aim,
}

impl LegalOrder {
    /// Whether `command` is an order of this kind naming what it may.
    ///
    /// A `bunker` may fix any item (the engine leaves the draw to the 13:00 stage,
    /// O-BUNKER-2) and an `ask` any text.
    pub fn allows(&self, command: &Command) -> bool {
        if command.act() != self.act {
            return false;
        }
        let one = |ts: &[PlayerId], t: PlayerId| ts.contains(&t);
        match (command, &self.aim) {
            (Command::Use { item, target }, Aim::One(ts)) => {
                item.is_none_or(|i| Some(i) == self.item) && one(ts, *target)
            }
            (Command::Vote(t), Aim::One(ts)) => t.second.is_none() && one(ts, t.first),
            (Command::Kill(t), Aim::One(ts)) => t.second.is_none_or(|s| s == t.first) && one(ts, t.first),
            (Command::Vote(t) | Command::Kill(t), Aim::OneOrTwo(ts)) => t.iter().all(|p| one(ts, p)),
            (Command::Swap(a, b), Aim::TwoDifferent(ts)) => a != b && one(ts, *a) && one(ts, *b),
            (Command::Authority { from: f, target }, Aim::FromTo { from, to }) => one(from, *f) && one(to, *target),
            (
                Command::Megaphone(t)
                | Command::Sentence(t)
                | Command::Check(t)
                | Command::Heal(t)
                | Command::Recharge(t)
                | Command::Assault(t)
                | Command::Exchange(t)
                | Command::Pair(t),
                Aim::One(ts),
            ) => one(ts, *t),
            (Command::Cancel | Command::Light | Command::Bunker { .. } | Command::Ask(_), Aim::Nobody) => true,
            (Command::Withdraw(what), Aim::Orders(acts)) => acts.contains(what),
            _ => false,
        }
    }
}

impl Match {
    /// Every act seat `p` may send now on the open day, with what it may name: exactly
    /// the orders the engine would take from `p` at any time of the current part of the
    /// day (before the 13:00 stage: up to 13:00; after it: up to 21:00). An order is
    /// taken iff some entry [`allows`](LegalOrder::allows) it. Empty when no day is open
    /// or the game is over. Host acts are not listed.
    ///
    /// Each act and target is put to the check an order meets when it is sent
    /// (R-ORDER-1), so the list is the engine's own answer; it costs about one check per
    /// act and living player (two places: per pair).
    pub fn legal_orders(&self, p: PlayerId) -> Vec<LegalOrder> {
        let Some(today) = self.today() else { return Vec::new() };
        let at = if today.phase == Phase::Morning { Clock::MIDDAY } else { Clock::DEADLINE };
        let ok = |c: &Command| day::check(&self.state, today, Actor::Player(p), at, c).is_ok();
        let living: Vec<PlayerId> = self.state.living().collect();
        let those = |f: &dyn Fn(PlayerId) -> Command| -> Vec<PlayerId> {
            living.iter().copied().filter(|t| ok(&f(*t))).collect()
        };
        let mut out = Vec::new();
        let mut add = |act: Act, item: Option<Item>, aim: Aim| {
            let empty = match &aim {
                Aim::Nobody => false,
                Aim::One(ts) | Aim::OneOrTwo(ts) | Aim::TwoDifferent(ts) => ts.is_empty(),
                Aim::FromTo { from, to } => from.is_empty() || to.is_empty(),
                Aim::Orders(acts) => acts.is_empty(),
            };
            if !empty {
                out.push(LegalOrder { act, item, aim });
            }
        };
        // One or two places: two when an order naming two of the players passes too.
        let one_or_two = |ts: Vec<PlayerId>, two: &dyn Fn(Targets) -> Command| match ts.as_slice() {
            [a, b, ..] if ok(&two(Targets::two(*a, *b))) => Aim::OneOrTwo(ts),
            [a] if ok(&two(Targets::two(*a, *a))) => Aim::OneOrTwo(ts),
            _ => Aim::One(ts),
        };
        add(Act::Vote, None, one_or_two(those(&|t| Command::Vote(Targets::one(t))), &Command::Vote));
        add(Act::Megaphone, None, Aim::One(those(&Command::Megaphone)));
        let from = those(&|f| Command::Authority { from: f, target: f });
        let to = those(&|t| Command::Authority { from: t, target: t });
        add(Act::Authority, None, Aim::FromTo { from, to });
        add(Act::Sentence, None, Aim::One(those(&Command::Sentence)));
        add(Act::Kill, None, one_or_two(those(&|t| Command::Kill(Targets::one(t))), &Command::Kill));
        add(Act::Check, None, Aim::One(those(&Command::Check)));
        add(Act::Heal, None, Aim::One(those(&Command::Heal)));
        if ok(&Command::Cancel) {
            add(Act::Cancel, None, Aim::Nobody);
        }
        let swap: Vec<PlayerId> =
            living.iter().copied().filter(|&a| living.iter().any(|&b| ok(&Command::Swap(a, b)))).collect();
        add(Act::Swap, None, Aim::TwoDifferent(swap));
        add(Act::Recharge, None, Aim::One(those(&Command::Recharge)));
        add(Act::Assault, None, Aim::One(those(&Command::Assault)));
        if let Some(h) = self.state.held(p) {
            let item = Some(h.item);
            add(Act::Use, item, Aim::One(those(&|target| Command::Use { item, target })));
        }
        if ok(&Command::Bunker { item: None }) {
            add(Act::Bunker, None, Aim::Nobody);
        }
        add(Act::Exchange, None, Aim::One(those(&Command::Exchange)));
        if ok(&Command::Light) {
            add(Act::Light, None, Aim::Nobody);
        }
        add(Act::Pair, None, Aim::One(those(&Command::Pair)));
        if ok(&Command::Ask(String::new())) {
            add(Act::Ask, None, Aim::Nobody);
        }
        // O-ORDER-4: the orders in force that could still be changed.
        let what = Act::ALL.iter().copied().filter(|&a| a.is_withdrawable() && ok(&Command::Withdraw(a))).collect();
        add(Act::Withdraw, None, Aim::Orders(what));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gamefile::{DayPlan, Game};
    use crate::order::Order;
    use crate::Event;

    const GAME: &str = r#"
[[players]]
name = "Аня"
role = "werewolf"
item = "shocker"
[[players]]
name = "Боря"
role = "nurse"
item = "megaphone"
[[players]]
name = "Вика"
role = "sleepwalker"
item = "none"
[[players]]
name = "Гоша"
role = "authority"
item = "none"
"#;

    fn open(event: Option<Event>) -> (Match, [PlayerId; 4]) {
        let g = Game::parse(GAME).unwrap();
        let mut m = Match::new(&g.setup, false);
        let ids = ["Аня", "Боря", "Вика", "Гоша"].map(|n| m.find(n).unwrap());
        m.open_day(&DayPlan { event: Some(event), ..Default::default() }).unwrap();
        (m, ids)
    }

    fn acts(v: &[LegalOrder]) -> Vec<Act> {
        v.iter().map(|l| l.act).collect()
    }

    fn aim(v: &[LegalOrder], act: Act) -> Aim {
        v.iter().find(|l| l.act == act).unwrap().aim.clone()
    }

    #[test]
    fn a_seat_has_its_roles_and_items_acts() {
        // R-ORDER-1: the ability or item theirs.
        let (m, [anya, borya, vika, gosha]) = open(None);
        let all = vec![anya, borya, vika, gosha];
        let l = m.legal_orders(anya);
        assert_eq!(acts(&l), [Act::Vote, Act::Kill, Act::Use]);
        assert_eq!(aim(&l, Act::Kill), Aim::One(all.clone()), "one victim on an ordinary night (step 12)");
        assert_eq!(l[2].item, Some(Item::Shocker));
        assert_eq!(acts(&m.legal_orders(borya)), [Act::Vote, Act::Megaphone, Act::Heal]);
        assert_eq!(acts(&m.legal_orders(vika)), [Act::Vote, Act::Swap, Act::Recharge]);
        assert_eq!(aim(&m.legal_orders(vika), Act::Swap), Aim::TwoDifferent(all.clone()));
        assert_eq!(aim(&m.legal_orders(gosha), Act::Authority), Aim::FromTo { from: all.clone(), to: all });
    }

    #[test]
    fn two_places_on_two_vote_days_and_full_moon() {
        // R-RAGE-1 (two votes), step 12 (Full moon: the pack kills two).
        let (m, [anya, borya, ..]) = open(Some(Event::Rage));
        assert!(matches!(aim(&m.legal_orders(borya), Act::Vote), Aim::OneOrTwo(_)));
        let (m, [anya2, borya2, ..]) = open(Some(Event::FullMoon));
        assert_eq!((anya, borya), (anya2, borya2));
        assert!(matches!(aim(&m.legal_orders(anya), Act::Kill), Aim::OneOrTwo(_)));
        assert!(matches!(aim(&m.legal_orders(anya), Act::Vote), Aim::One(_)));
    }

    #[test]
    fn the_nurse_heals_herself_once() {
        // R-NURSE-1 / R-ONCE-1: no self-heal once it was used up.
        let (mut m, [_, borya, ..]) = open(None);
        assert!(m.legal_orders(borya)[2].allows(&Command::Heal(borya)));
        m.state.players[borya.index()].spent.nurse_self_heal = true;
        assert!(!m.legal_orders(borya)[2].allows(&Command::Heal(borya)));
    }

    #[test]
    fn event_acts_only_before_13() {
        // R-EVENT-1: Bunker's orders sent after 13:00 are refused.
        let (mut m, [anya, ..]) = open(Some(Event::Bunker));
        assert!(acts(&m.legal_orders(anya)).contains(&Act::Bunker));
        m.midday_stage();
        assert!(!acts(&m.legal_orders(anya)).contains(&Act::Bunker));
    }

    #[test]
    fn the_dead_send_nothing_and_are_named_by_nothing() {
        // R-ORDER-1: the sender alive, the targets alive.
        let (mut m, [anya, borya, vika, _]) = open(None);
        m.submit(&Order::host(Command::Remove { target: vika, reason: None })).unwrap();
        assert!(m.legal_orders(vika).is_empty());
        assert!(!m.legal_orders(borya).iter().any(|l| l.allows(&Command::Vote(Targets::one(vika)))));
        assert!(m.legal_orders(borya).iter().any(|l| l.allows(&Command::Vote(Targets::one(anya)))));
    }
}
