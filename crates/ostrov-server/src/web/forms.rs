//! The order forms of a player's game page: exactly the orders the player can send now,
//! as the engine lists them ([`ostrov_engine::Match::legal_orders`], through
//! [`GameState::legal_orders`]), each with the player's current choice; and the reading
//! of a posted form into the API's order body.

use ostrov_engine::{fold_name, Act, Aim, OrderEntry, PlayerId};
use serde::Deserialize;

use crate::game::GameState;
use crate::service::OrderRequest;

/// How an order names its players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Names nobody.
    Bare,
    /// One player; `second`: a second one may be added (two votes, two kills).
    One { second: bool },
    /// Exactly two players.
    Two,
    /// `from` (whose vote) and `target`.
    From,
    /// A question.
    Text,
}

impl Shape {
    /// The form of an act that names what `aim` says.
    fn of(act: Act, aim: &Aim) -> Shape {
        match aim {
            Aim::Nobody if act == Act::Ask => Shape::Text,
            Aim::Nobody => Shape::Bare,
            Aim::One(_) => Shape::One { second: false },
            Aim::OneOrTwo(_) => Shape::One { second: true },
            Aim::TwoDifferent(_) => Shape::Two,
            Aim::FromTo { .. } => Shape::From,
        }
    }
}

/// One order form.
pub struct OrderForm {
    pub act: &'static str,
    pub title: String,
    pub hint: &'static str,
    pub shape: Shape,
    /// The players the engine takes for the (first) target, in list order.
    pub options: Vec<String>,
    /// For `From`: the players whose vote may be taken.
    pub from: Vec<String>,
    /// What the player sent last today, in words.
    pub current: Option<String>,
    pub selected: Vec<String>,
    pub error: Option<String>,
}

impl OrderForm {
    pub fn one(&self) -> bool {
        matches!(self.shape, Shape::One { .. })
    }
    pub fn second(&self) -> bool {
        matches!(self.shape, Shape::One { second: true } | Shape::Two)
    }
    pub fn two(&self) -> bool {
        self.shape == Shape::Two
    }
    pub fn names_from(&self) -> bool {
        self.shape == Shape::From
    }
    pub fn text(&self) -> bool {
        self.shape == Shape::Text
    }
    /// The ids that describe the form's fields: its explanation, the order in force and
    /// the refusal, when shown (issue 30, point 14).
    pub fn describedby(&self) -> String {
        let mut ids = vec![format!("{}-hint", self.act)];
        if self.current.is_some() {
            ids.push(format!("{}-current", self.act));
        }
        if self.error.is_some() {
            ids.push(format!("{}-error", self.act));
        }
        ids.join(" ")
    }
    pub fn is(&self, slot: usize, name: &str) -> bool {
        self.selected.get(slot).is_some_and(|s| s == name)
    }
}

/// The acts a player may send, in the page's order, with their title and explanation.
const ACTS: &[(Act, &str, &str)] = &[
    (Act::Vote, "Голос", "Против кого вы голосуете сегодня; до дедлайна голос можно поменять."),
    (Act::Megaphone, "Рупор", "Дополнительный голос рупора."),
    (Act::Sentence, "Приговор", "Страх: кого лидер приговаривает."),
    (Act::Authority, "Авторитет", "Раз за игру: забрать голос одного игрока и отдать его другому; роль раскроется."),
    (Act::Kill, "Ночное нападение", "На кого вы нападаете этой ночью."),
    (Act::Check, "Проверка", "Кого вы проверяете этой ночью."),
    (Act::Heal, "Лечение", "Кого вы лечите этой ночью."),
    (Act::Cancel, "Отмена ночи", "Раз за игру: отменить все остальные действия этой ночи."),
    (Act::Swap, "Обмен вещей", "Поменять местами вещи двух игроков этой ночью."),
    (Act::Recharge, "Перезарядка", "Перезарядить использованную вещь игрока."),
    (Act::Assault, "Ночной визит", "Кого вы навещаете этой ночью: завтра у этого игрока не будет ни голоса, ни слова."),
    (Act::Use, "Применить вещь", "На кого вы применяете свою вещь."),
    (Act::Bunker, "Бункер", "Попросить новую вещь из резерва (жребий в 13:00)."),
    (Act::Exchange, "Обмен", "С кем вы меняетесь вещами в 13:00."),
    (Act::Light, "Мистический свет", "Перезарядить свою использованную вещь в 13:00."),
    (Act::Pair, "Выбери меня!", "Кого вы берёте в пару."),
    (Act::Ask, "Вопрос Духу", "Вопрос ведущему, на который он ответит «да» или «нет»."),
];

/// The title and the explanation of a form for a player of role `role` holding `item`:
/// the use names the item, and the witch's kill asks its own question, not the pack's
/// (issue 29, point 4).
pub(crate) fn form_words(
    act: &str,
    title: &str,
    hint: &'static str,
    role: ostrov_engine::Role,
    item: Option<ostrov_engine::Item>,
) -> (String, &'static str) {
    match (act, item) {
        ("use", Some(i)) => (format!("Применить вещь: {}", i.ru()), hint),
        ("kill", _) if role == ostrov_engine::Role::Witch => {
            ("Убийство".to_string(), "Кого вы убиваете этой ночью; убить можно один раз за игру.")
        }
        _ => (title.to_string(), hint),
    }
}

/// «Голос принят», «Проверка принята», «Лечение принято»: an order taken, its title
/// agreeing with the verb; a title that is a phrase is quoted («Приказ «Выбери меня!»
/// принят»).
pub(crate) fn accepted_ru(act: &str, title: &str) -> String {
    match act {
        "vote" | "megaphone" | "sentence" | "authority" | "swap" | "assault" | "bunker" | "exchange" | "light"
        | "ask" => {
            format!("{title} принят")
        }
        "check" | "cancel" | "recharge" => format!("{title} принята"),
        "kill" | "heal" => format!("{title} принято"),
        _ => format!("Приказ «{title}» принят"),
    }
}

/// Every form's act, title and explanation (the corpus of the page texts reads them).
#[cfg(test)]
pub(crate) fn acts() -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
    ACTS.iter().map(|&(a, t, h)| (a.id(), t, h))
}

/// The forms of `seat` on the open day at `now`: one per order the engine lists for it
/// ([`GameState::legal_orders`]); `error`: a refusal of one act, shown on its form.
pub fn order_forms(live: &GameState, seat: PlayerId, now: i64, error: Option<(&str, &str)>) -> Vec<OrderForm> {
    let (Some(day), Some(m)) = (live.open_day(), live.m.as_ref()) else { return Vec::new() };
    let legal = live.legal_orders(seat, now);
    let st = m.state();
    let me = st.name(seat).to_string();
    // A vote that will not count is not offered, nor is the megaphone's (R-ITEM-5): the
    // page says why instead (issue 30, point 7).
    let voteless = m.vote_blocked(seat).is_some();
    let names = |ps: &[PlayerId]| -> Vec<String> { ps.iter().map(|q| st.name(*q).to_string()).collect() };
    let sent: &[OrderEntry] = live.file.days.get(day as usize - 1).map_or(&[], |d| &d.orders);
    let mut out = Vec::new();
    for &(act, title, hint) in ACTS {
        let Some(l) = legal.iter().find(|l| l.act == act) else { continue };
        if voteless && matches!(act, Act::Vote | Act::Megaphone) {
            continue;
        }
        let shape = Shape::of(act, &l.aim);
        let (options, from) = match &l.aim {
            Aim::Nobody => (Vec::new(), Vec::new()),
            Aim::One(ts) | Aim::OneOrTwo(ts) | Aim::TwoDifferent(ts) => (names(ts), Vec::new()),
            Aim::FromTo { from, to } => (names(to), names(from)),
        };
        let act = act.id();
        let last = sent.iter().enumerate().rev().find(|(_, o)| o.act == act && fold_name(&o.by) == fold_name(&me));
        let mut selected = Vec::new();
        let current = last.map(|(i, o)| {
            let mut named: Vec<String> = Vec::new();
            if let Some(f) = &o.from {
                named.push(format!("голос игрока {f}"));
            }
            if let Some(t) = &o.target {
                named.push(t.clone());
                selected.push(t.clone());
            }
            if let Some(ts) = &o.targets {
                named.extend(ts.iter().cloned());
                selected.extend(ts.iter().cloned());
            }
            if let Some(q) = &o.text {
                named.push(format!("«{q}»"));
            }
            // When it was sent by the server's clock («в 14:21»), not the game clock's
            // clamped time (an order of the evening before is 00:00 there; issue 29, point 4).
            let at = match live.sent_at.get(day as usize - 1).and_then(|t| t.get(i)) {
                Some(&t) => match live.times.short(t, now) {
                    s if !s.contains(',') => format!(" (в {s})"),
                    s => format!(" ({s})"),
                },
                None => o.at.as_ref().and_then(|v| v.as_str()).map(|s| format!(" (в {s})")).unwrap_or_default(),
            };
            if named.is_empty() {
                format!("отправлено{at}")
            } else {
                // A swap reads both ways: «Гоша ↔ Егор» (issue 29, point 4).
                format!("{}{at}", named.join(if act == "swap" { " ↔ " } else { " → " }))
            }
        });
        let pl = st.player(seat);
        let (title, hint) = form_words(act, title, hint, pl.role, pl.item.map(|h| h.item));
        let error = error.filter(|(a, _)| *a == act).map(|(_, m)| m.to_string());
        out.push(OrderForm { act, title, hint, shape, options, from, current, selected, error });
    }
    out
}

/// A posted order form.
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct PostedOrder {
    pub csrf: String,
    pub act: String,
    pub target: String,
    pub target2: String,
    pub from: String,
    pub text: String,
}

fn some(s: &str) -> Option<String> {
    let s = s.trim();
    (!s.is_empty()).then(|| s.to_string())
}

impl PostedOrder {
    /// The API's order body of this form.
    pub fn body(&self) -> OrderRequest {
        let act = self.act.trim().to_string();
        let (target, targets) = match (some(&self.target), some(&self.target2)) {
            (Some(a), Some(b)) => (None, Some(vec![a, b])),
            (a, None) => (a, None),
            (None, Some(b)) => (Some(b), None),
        };
        let text = if act == "ask" { some(&ostrov_engine::clean_line(&self.text)) } else { None };
        OrderRequest { act, target, targets, from: some(&self.from), text, ..OrderRequest::default() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::tests::{game_of, H, START};
    use crate::game::GameEvent;
    use crate::schedule::GRACE;

    fn started(n: usize) -> GameState {
        game_of(n, "werewolf,seer,nurse").0
    }

    fn acts(forms: &[OrderForm]) -> Vec<&'static str> {
        forms.iter().map(|f| f.act).collect()
    }

    /// R-ORDER-1: a seat's forms are the engine's legal orders (each act and its targets),
    /// in the page's order; issue 27, point 2.
    #[test]
    fn the_forms_are_the_engines_legal_orders() {
        let live = started(6);
        let m = live.m.as_ref().unwrap();
        for p in m.state().list_order().to_vec() {
            let forms = order_forms(&live, p, START + 12 * H, None);
            let legal = m.legal_orders(p);
            let want: Vec<&str> =
                ACTS.iter().map(|a| a.0).filter(|a| legal.iter().any(|l| l.act == *a)).map(Act::id).collect();
            assert_eq!(acts(&forms), want, "{}", m.state().name(p));
            for f in &forms {
                let l = legal.iter().find(|l| l.act.id() == f.act).unwrap();
                let named = |ps: &[PlayerId]| ps.iter().map(|q| m.state().name(*q).to_string()).collect::<Vec<_>>();
                match &l.aim {
                    Aim::One(ts) | Aim::OneOrTwo(ts) | Aim::TwoDifferent(ts) => assert_eq!(f.options, named(ts)),
                    Aim::FromTo { from, to } => assert_eq!((&f.from, &f.options), (&named(from), &named(to))),
                    Aim::Nobody => assert!(f.options.is_empty()),
                }
            }
        }
    }

    /// O-TIME-1: an order is taken up to 21:00 and its grace minute; after it every order
    /// is refused as late, so no form is offered (the old forms still offered them all
    /// until the scheduler closed the day).
    #[test]
    fn no_forms_after_the_deadlines_grace_minute() {
        let mut live = started(6);
        let p = live.m.as_ref().unwrap().state().list_order()[0];
        live.apply(&GameEvent::Midday { day: 1, early: false }, START + 15 * H).unwrap();
        let deadline = START + 23 * H;
        assert!(acts(&order_forms(&live, p, deadline + GRACE - 1, None)).contains(&"vote"), "still in time");
        assert!(order_forms(&live, p, deadline + GRACE, None).is_empty(), "late");
    }

    /// Issue 29, point 4: «Сейчас: …» says when the order was sent by the server's clock —
    /// the evening before as its date and time, not the game clock's clamped «00:00», and
    /// «в 14:21» for one sent at 14:21.
    #[test]
    fn the_order_in_force_says_when_it_was_sent() {
        let mut live = started(6);
        let m = live.m.as_ref().unwrap();
        let (p, a, b) = (
            m.state().list_order()[0],
            m.state().name(m.state().list_order()[1]).to_string(),
            m.state().name(m.state().list_order()[2]).to_string(),
        );
        let by = m.state().name(p).to_string();
        let vote = |target: &str, at: &str| OrderEntry {
            by: by.clone(),
            act: "vote".into(),
            target: Some(target.to_string()),
            at: Some(serde_json::json!(at)),
            ..OrderEntry::default()
        };
        live.apply(&GameEvent::Order { day: 1, order: vote(&a, "00:00") }, START + 30 * 60).unwrap();
        let current = |live: &GameState, now: i64| {
            order_forms(live, p, now, None).into_iter().find(|f| f.act == "vote").and_then(|f| f.current)
        };
        assert_eq!(current(&live, START + 12 * H).as_deref(), Some(format!("{a} (1 декабря, 22:30)").as_str()));
        live.apply(&GameEvent::Midday { day: 1, early: false }, START + 15 * H).unwrap();
        let at = START + 16 * H + 21 * 60;
        live.apply(&GameEvent::Order { day: 1, order: vote(&b, "14:21") }, at).unwrap();
        assert_eq!(current(&live, at + 60).as_deref(), Some(format!("{b} (в 14:21)").as_str()));
    }
}
