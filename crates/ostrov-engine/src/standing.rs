//! The orders of a seat in force on the open day (R-ORDER-1), as the engine keeps them.

use crate::act::Act;
use crate::day::NightOrder;
use crate::item::Item;
use crate::legal::LegalOrder;
use crate::order::{Command, Targets};
use crate::play::Match;
use crate::player::PlayerId;
use crate::role::Role;

/// The orders of one seat in force on the open day (see [`Match::standing_orders`]).
///
/// R-ORDER-1: of the orders that passed, the last of each kind replaces the earlier ones —
/// one vote, one megaphone, one authority, one sentence, one night order (whichever of
/// `kill`, `check`, `heal`, `cancel`, `swap`, `recharge`, `assault` came last), one
/// `bunker`, one `exchange`, one `pair`. A `light` stands once sent; the day's one
/// question is the first asked (R-SPIRIT-1); every item use stands (each spends the item).
/// Whether an order still counts at 21:00 (its sender and targets alive) is the
/// resolution's to say: these are the orders as taken.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    pub vote: Option<Targets>,
    pub megaphone: Option<PlayerId>,
    /// `authority`: whose vote is taken, and for whom it goes (R-AUTH-1).
    pub authority: Option<(PlayerId, PlayerId)>,
    pub sentence: Option<PlayerId>,
    pub night: Option<NightOrder>,
    /// A `bunker` request; `Some(Some(item))` fixes the draw (a host writing it down).
    pub bunker: Option<Option<Item>>,
    pub exchange: Option<PlayerId>,
    pub light: bool,
    /// The chosen player's `pair` (Choose me!).
    pub pair: Option<PlayerId>,
    /// The question this seat asked the Spirit today.
    pub question: Option<String>,
    /// Item uses of the day, in the order sent: the item and its target.
    pub uses: Vec<(Item, PlayerId)>,
}

impl Standing {
    /// Whether no order of the seat stands.
    pub fn is_empty(&self) -> bool {
        *self == Standing::default()
    }

    /// The standing orders as commands, one per order, kind by kind (vote, megaphone,
    /// authority, sentence, night order, item uses, bunker, exchange, light, pair, question).
    pub fn commands(&self) -> Vec<Command> {
        let mut out = Vec::new();
        out.extend(self.vote.map(Command::Vote));
        out.extend(self.megaphone.map(Command::Megaphone));
        out.extend(self.authority.map(|(from, target)| Command::Authority { from, target }));
        out.extend(self.sentence.map(Command::Sentence));
        out.extend(self.night.map(NightOrder::command));
        out.extend(self.uses.iter().map(|&(item, target)| Command::Use { item: Some(item), target }));
        out.extend(self.bunker.map(|item| Command::Bunker { item }));
        out.extend(self.exchange.map(Command::Exchange));
        if self.light {
            out.push(Command::Light);
        }
        out.extend(self.pair.map(Command::Pair));
        out.extend(self.question.clone().map(Command::Ask));
        out
    }
}

impl Match {
    /// The orders of seat `p` in force on the open day (R-ORDER-1: the last of each kind);
    /// empty when no day is open.
    pub fn standing_orders(&self, p: PlayerId) -> Standing {
        let Some(t) = self.today() else { return Standing::default() };
        let s = &t.sent[p.index()];
        Standing {
            vote: s.vote,
            megaphone: s.megaphone,
            authority: s.authority,
            sentence: s.sentence,
            night: s.night.map(|(n, _)| n),
            bunker: s.bunker.map(|(item, _)| item),
            exchange: s.exchange,
            light: s.light,
            pair: t.pair.filter(|_| t.chosen == Some(p)),
            question: t.question.as_ref().filter(|(by, _)| *by == p).map(|(_, q)| q.clone()),
            uses: t.uses.iter().filter(|u| u.by == p).map(|u| (u.item, u.target)).collect(),
        }
    }

    /// What seat `p` is still expected to send today, of what it may send now (`legal`:
    /// [`Match::legal_orders`], or the server's afternoon list): its vote (R-VOTE-1) and its
    /// megaphone's vote (R-ITEM-5) unless its vote is blocked ([`Match::vote_blocked`]), and
    /// the night order of a role that has one each night
    /// (RULES.md §1: the seer, the nurse, the sleepwalker, the maniac, the hamster, a
    /// werewolf and a turned halfblood — the pack's kill counts as sent when any of the
    /// pack sent one, R-WOLF-1). Once-per-game acts (the witch, the authority) and the
    /// events' optional orders are never missing. Empty when nothing is open.
    pub fn unsent(&self, p: PlayerId, legal: &[LegalOrder]) -> Vec<Duty> {
        let can = |a: Act| legal.iter().any(|l| l.act == a);
        let s = self.standing_orders(p);
        let mut out = Vec::new();
        // A blocked vote counts for nothing, nor does the megaphone's (R-ITEM-5).
        let votes = self.vote_blocked(p).is_none();
        if votes && can(Act::Vote) && s.vote.is_none() {
            out.push(Duty::Vote);
        }
        if votes && can(Act::Megaphone) && s.megaphone.is_none() {
            out.push(Duty::Megaphone);
        }
        let pl = self.state.player(p);
        let (nightly, sent) = match pl.role {
            Role::Seer => (can(Act::Check), s.night.is_some()),
            Role::Nurse => (can(Act::Heal), s.night.is_some()),
            Role::Sleepwalker => (can(Act::Swap) || can(Act::Recharge), s.night.is_some()),
            Role::Maniac => (can(Act::Assault), s.night.is_some()),
            Role::Hamster => (can(Act::Kill), s.night.is_some()),
            Role::Werewolf | Role::Halfblood if pl.role == Role::Werewolf || pl.turned => (
                can(Act::Kill),
                self.pack(p).into_iter().any(|q| {
                    let pq = self.state.player(q);
                    pq.alive
                        && (pq.role == Role::Werewolf || pq.turned)
                        && matches!(self.standing_orders(q).night, Some(NightOrder::Kill(_)))
                }),
            ),
            _ => (false, true),
        };
        if nightly && !sent {
            out.push(Duty::Night);
        }
        out
    }
}

/// An order a seat is expected to send today and has not (see [`Match::unsent`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Duty {
    Vote,
    Megaphone,
    Night,
}

impl Duty {
    /// The duty's id: `vote`, `megaphone`, `night`.
    pub const fn id(self) -> &'static str {
        match self {
            Duty::Vote => "vote",
            Duty::Megaphone => "megaphone",
            Duty::Night => "night",
        }
    }

    /// In Russian, as «не отправлено: голос, ночной ход» lists it.
    pub const fn ru(self) -> &'static str {
        match self {
            Duty::Vote => "голос",
            Duty::Megaphone => "голос рупора",
            Duty::Night => "ночной ход",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gamefile::{DayPlan, Game};
    use crate::order::{Clock, Order};
    use crate::Event;

    const GAME: &str = r#"
[[players]]
name = "Аня"
role = "werewolf"
item = "shocker"
[[players]]
name = "Боря"
role = "seer"
item = "megaphone"
[[players]]
name = "Вика"
role = "passenger"
item = "none"
[[players]]
name = "Гоша"
role = "passenger"
item = "none"
"#;

    fn open(event: Event) -> (Match, [PlayerId; 4]) {
        let g = Game::parse(GAME).unwrap();
        let mut m = Match::new(&g.setup, false);
        let ids = ["Аня", "Боря", "Вика", "Гоша"].map(|n| m.find(n).unwrap());
        m.open_day(&DayPlan { event: Some(Some(event)), ..Default::default() }).unwrap();
        (m, ids)
    }

    #[test]
    fn the_last_order_of_each_kind_stands() {
        // R-ORDER-1
        let (mut m, [anya, borya, vika, gosha]) = open(Event::Exchange);
        assert!(m.standing_orders(anya).is_empty());
        let send = |m: &mut Match, p, c| m.submit(&Order::new(p, c)).unwrap();
        send(&mut m, anya, Command::Vote(Targets::one(borya)));
        send(&mut m, anya, Command::Kill(Targets::one(vika)));
        send(&mut m, anya, Command::Vote(Targets::one(gosha)));
        send(&mut m, anya, Command::Kill(Targets::one(borya)));
        send(&mut m, anya, Command::Exchange(vika));
        send(&mut m, anya, Command::Exchange(gosha));
        send(&mut m, anya, Command::Use { item: None, target: gosha });
        let s = m.standing_orders(anya);
        assert_eq!(s.vote, Some(Targets::one(gosha)));
        assert_eq!(s.night, Some(NightOrder::Kill(Targets::one(borya))));
        assert_eq!(s.exchange, Some(gosha), "one exchange order: the last");
        assert_eq!(s.uses, [(Item::Shocker, gosha)]);
        assert_eq!(
            s.commands(),
            [
                Command::Vote(Targets::one(gosha)),
                Command::Kill(Targets::one(borya)),
                Command::Use { item: Some(Item::Shocker), target: gosha },
                Command::Exchange(gosha),
            ]
        );
        assert!(m.standing_orders(borya).is_empty(), "orders are the sender's own");
    }

    #[test]
    fn a_refused_order_replaces_nothing() {
        // R-ORDER-1: an order that fails the checks when sent changes nothing.
        let (mut m, [anya, borya, vika, _]) = open(Event::Bunker);
        m.submit(&Order::new(borya, Command::Check(anya))).unwrap();
        assert!(m.submit(&Order::new(borya, Command::Kill(Targets::one(vika)))).is_err());
        m.submit(&Order::new(borya, Command::Bunker { item: None })).unwrap();
        let late = Order { at: Clock::hm(14, 0), ..Order::new(borya, Command::Bunker { item: Some(Item::Trap) }) };
        assert!(m.submit(&late).is_err(), "after 13:00 (R-EVENT-1)");
        let s = m.standing_orders(borya);
        assert_eq!(s.night, Some(NightOrder::Check(anya)));
        assert_eq!(s.bunker, Some(None));
    }

    #[test]
    fn the_pair_and_the_question_are_their_senders() {
        // R-CHOOSE-1, R-SPIRIT-1
        let (mut m, [anya, borya, vika, _]) = open(Event::ChooseMe);
        let chosen = m.today().unwrap().chosen.unwrap();
        let other = [anya, borya, vika].into_iter().find(|p| *p != chosen).unwrap();
        m.submit(&Order::new(chosen, Command::Pair(other))).unwrap();
        assert_eq!(m.standing_orders(chosen).pair, Some(other));
        assert_eq!(m.standing_orders(other).pair, None);
        let (mut m, [anya, borya, ..]) = open(Event::SpiritCall);
        m.submit(&Order::new(anya, Command::Ask("Боря оборотень?".into()))).unwrap();
        assert_eq!(m.standing_orders(anya).question.as_deref(), Some("Боря оборотень?"));
        assert_eq!(m.standing_orders(borya).question, None);
    }

    /// O-ORDER-4: a `withdraw` takes back the sender's order in force of its kind — it
    /// stops counting, nothing earlier takes its place, and one may be sent again — while
    /// that order could still be changed: not an item use, not after 13:00 for an event's
    /// order, not after 21:00; with nothing of the kind in force it is refused.
    #[test]
    fn o_order_4_a_withdrawn_order_stops_counting() {
        use crate::legal::Aim;
        use crate::Refusal;
        let (mut m, [anya, borya, vika, gosha]) = open(Event::Exchange);
        let send = |m: &mut Match, p, c| m.submit(&Order::new(p, c));
        let withdraw = |a| Command::Withdraw(a);
        assert_eq!(send(&mut m, anya, withdraw(Act::Vote)), Err(Refusal::NothingToWithdraw));
        assert!(!m.legal_orders(anya).iter().any(|l| l.act == Act::Withdraw), "nothing in force");
        send(&mut m, anya, Command::Vote(Targets::one(borya))).unwrap();
        send(&mut m, anya, Command::Kill(Targets::one(vika))).unwrap();
        send(&mut m, anya, Command::Exchange(gosha)).unwrap();
        send(&mut m, anya, Command::Use { item: None, target: gosha }).unwrap();
        let legal = m.legal_orders(anya);
        let offered = legal.iter().find(|l| l.act == Act::Withdraw).map(|l| l.aim.clone());
        assert_eq!(offered, Some(Aim::Orders(vec![Act::Vote, Act::Kill, Act::Exchange])));
        assert!(legal.iter().any(|l| l.allows(&withdraw(Act::Vote))));
        assert!(!legal.iter().any(|l| l.allows(&withdraw(Act::Use))));

        send(&mut m, anya, withdraw(Act::Vote)).unwrap();
        assert_eq!(m.standing_orders(anya).vote, None, "the vote stops counting");
        assert_eq!(m.standing_orders(anya).night, Some(NightOrder::Kill(Targets::one(vika))), "only its kind");
        assert_eq!(send(&mut m, anya, withdraw(Act::Vote)), Err(Refusal::NothingToWithdraw), "nothing earlier stands");
        assert_eq!(send(&mut m, anya, withdraw(Act::Use)), Err(Refusal::NotWithdrawable), "the item is spent");
        assert_eq!(send(&mut m, anya, withdraw(Act::Check)), Err(Refusal::NothingToWithdraw), "the kill is in force");
        assert_eq!(send(&mut m, borya, withdraw(Act::Kill)), Err(Refusal::NothingToWithdraw), "only one's own");
        send(&mut m, anya, Command::Vote(Targets::one(vika))).unwrap();
        assert_eq!(m.standing_orders(anya).vote, Some(Targets::one(vika)), "a vote may be sent again");
        assert_eq!(Duty::Vote.id(), "vote");
        send(&mut m, anya, withdraw(Act::Kill)).unwrap();
        assert_eq!(m.unsent(anya, &m.legal_orders(anya)), [Duty::Night], "the night order is missing again");

        // The event's order only until 13:00 (R-EVENT-1), the others until 21:00.
        let at = |c, h| Order::new(anya, c).at(Clock::hm(h, 0));
        assert_eq!(m.submit(&at(withdraw(Act::Exchange), 14)), Err(Refusal::AfterMidday));
        assert_eq!(m.standing_orders(anya).exchange, Some(gosha));
        assert_eq!(m.submit(&at(withdraw(Act::Vote), 21)), Ok(()));
        send(&mut m, anya, Command::Vote(Targets::one(borya))).unwrap();
        assert_eq!(m.submit(&Order::new(anya, withdraw(Act::Vote)).at(Clock::hm(21, 30))), Err(Refusal::Late));
        assert_eq!(m.standing_orders(anya).vote, Some(Targets::one(borya)));
    }

    /// What a seat has not sent today: the vote, the megaphone's vote and a nightly
    /// role's night order; a passenger owes no night order.
    #[test]
    fn what_a_seat_has_not_sent() {
        let (mut m, [anya, borya, vika, _]) = open(Event::Exchange);
        let unsent = |m: &Match, p| m.unsent(p, &m.legal_orders(p));
        assert_eq!(unsent(&m, anya), [Duty::Vote, Duty::Night]);
        assert_eq!(unsent(&m, borya), [Duty::Vote, Duty::Megaphone, Duty::Night]);
        assert_eq!(unsent(&m, vika), [Duty::Vote]);
        m.submit(&Order::new(anya, Command::Kill(Targets::one(vika)))).unwrap();
        m.submit(&Order::new(borya, Command::Vote(Targets::one(anya)))).unwrap();
        m.submit(&Order::new(borya, Command::Check(anya))).unwrap();
        assert_eq!(unsent(&m, anya), [Duty::Vote]);
        assert_eq!(unsent(&m, borya), [Duty::Megaphone]);
        assert_eq!(Duty::Night.ru(), "ночной ход");
    }

    /// O-DAY-2: a penalised seat's vote will not count: it is not listed as unsent, and
    /// `vote_blocked` says why; a shocked seat likewise.
    #[test]
    fn a_blocked_vote_is_not_missing() {
        let (mut m, [anya, borya, vika, gosha]) = open(Event::Exchange);
        assert_eq!(m.vote_blocked(vika), None);
        m.submit(&Order::host(Command::Penalty { target: vika, reason: None })).unwrap();
        assert_eq!(m.vote_blocked(vika), Some(crate::Blocked::Penalty));
        assert_eq!(m.unsent(vika, &m.legal_orders(vika)), []);
        m.submit(&Order::new(anya, Command::Use { item: None, target: gosha })).unwrap();
        assert_eq!(m.vote_blocked(gosha), Some(crate::Blocked::Shocked));
        assert_eq!(m.unsent(gosha, &m.legal_orders(gosha)), []);
        assert_eq!(m.vote_blocked(borya), None);
    }
}
