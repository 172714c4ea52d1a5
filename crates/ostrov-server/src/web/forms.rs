//! The order forms of a player's game page: exactly the orders the player can send now,
//! as the engine's check says (each act tried with each possible target), each with the
//! player's current choice; and the reading of a posted form into the API's order body.

use ostrov_engine::{fold_name, OrderEntry, PlayerId};
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
    pub fn is(&self, slot: usize, name: &str) -> bool {
        self.selected.get(slot).is_some_and(|s| s == name)
    }
}

/// The acts a player may send, with their shape, title and explanation.
const ACTS: &[(&str, Shape, &str, &str)] = &[
    (
        "vote",
        Shape::One { second: false },
        "Голос",
        "Против кого вы голосуете сегодня; до дедлайна голос можно поменять.",
    ),
    ("megaphone", Shape::One { second: false }, "Рупор", "Дополнительный голос рупора."),
    ("sentence", Shape::One { second: false }, "Приговор", "Страх: кого лидер приговаривает."),
    (
        "authority",
        Shape::From,
        "Авторитет",
        "Раз за игру: забрать голос одного игрока и отдать его другому; роль раскроется.",
    ),
    ("kill", Shape::One { second: false }, "Ночное нападение", "На кого вы нападаете этой ночью."),
    ("check", Shape::One { second: false }, "Проверка", "Кого вы проверяете этой ночью."),
    ("heal", Shape::One { second: false }, "Лечение", "Кого вы лечите этой ночью."),
    ("cancel", Shape::Bare, "Отмена ночи", "Раз за игру: отменить все остальные действия этой ночи."),
    ("swap", Shape::Two, "Обмен вещей", "Поменять местами вещи двух игроков этой ночью."),
    ("recharge", Shape::One { second: false }, "Перезарядка", "Перезарядить использованную вещь игрока."),
    ("assault", Shape::One { second: false }, "Маньяк", "Кого вы навещаете этой ночью: завтра он без голоса и молчит."),
    ("use", Shape::One { second: false }, "Применить вещь", "На кого вы применяете свою вещь."),
    ("bunker", Shape::Bare, "Бункер", "Попросить новую вещь из резерва (жребий в 13:00)."),
    ("exchange", Shape::One { second: false }, "Обмен", "С кем вы меняетесь вещами в 13:00."),
    ("light", Shape::Bare, "Мистический свет", "Перезарядить свою использованную вещь в 13:00."),
    ("pair", Shape::One { second: false }, "Выбери меня!", "Кого вы берёте в пару."),
    ("ask", Shape::Text, "Вопрос Духу", "Вопрос ведущему, на который он ответит «да» или «нет»."),
];

/// Whether the engine takes this order now.
fn takes(live: &GameState, day: u32, e: &OrderEntry) -> bool {
    live.check_order(day, e).is_ok()
}

/// The forms of `seat` on the open day at `now`; `errors`: a refusal per act.
pub fn order_forms(live: &GameState, seat: PlayerId, now: i64, error: Option<(&str, &str)>) -> Vec<OrderForm> {
    let (Some(day), Some(m)) = (live.open_day(), live.m.as_ref()) else { return Vec::new() };
    let t = &live.days[day as usize - 1];
    let at = live.times.clock(now, live.deadline(now).unwrap_or(t.deadline_at), t.midday_done);
    let me = m.state().name(seat).to_string();
    let names: Vec<String> = m.state().list_order().iter().map(|q| m.state().name(*q).to_string()).collect();
    let base = OrderEntry { by: me.clone(), at: Some(serde_json::json!(at.to_string())), ..OrderEntry::default() };
    let sent: &[OrderEntry] = live.file.days.get(day as usize - 1).map_or(&[], |d| &d.orders);
    let mut out = Vec::new();
    for &(act, shape, title, hint) in ACTS {
        let e = |target: Option<&String>, targets: Option<Vec<String>>, from: Option<&String>| OrderEntry {
            act: act.to_string(),
            target: target.cloned(),
            targets,
            from: from.cloned(),
            text: (shape == Shape::Text).then(|| "?".to_string()),
            ..base.clone()
        };
        let mut options = Vec::new();
        let mut from = Vec::new();
        let mut shape = shape;
        match shape {
            Shape::Bare | Shape::Text => {
                if !takes(live, day, &e(None, None, None)) {
                    continue;
                }
            }
            Shape::One { .. } => {
                options = names.iter().filter(|n| takes(live, day, &e(Some(n), None, None))).cloned().collect();
                if options.is_empty() {
                    continue;
                }
                if act == "vote" || act == "kill" {
                    let pair = options.iter().flat_map(|a| options.iter().map(move |b| (a, b))).find(|(a, b)| a != b);
                    if let Some((a, b)) = pair {
                        if takes(live, day, &e(None, Some(vec![a.clone(), b.clone()]), None)) {
                            shape = Shape::One { second: true };
                        }
                    }
                }
            }
            Shape::Two => {
                for a in &names {
                    if names
                        .iter()
                        .any(|b| a != b && takes(live, day, &e(None, Some(vec![a.clone(), b.clone()]), None)))
                    {
                        options.push(a.clone());
                    }
                }
                if options.is_empty() {
                    continue;
                }
            }
            Shape::From => {
                for f in &names {
                    let to: Vec<String> =
                        names.iter().filter(|t| takes(live, day, &e(Some(t), None, Some(f)))).cloned().collect();
                    if !to.is_empty() {
                        from.push(f.clone());
                        for t in to {
                            if !options.contains(&t) {
                                options.push(t);
                            }
                        }
                    }
                }
                if from.is_empty() {
                    continue;
                }
                options.sort_by_key(|n| names.iter().position(|x| x == n));
            }
        }
        let last = sent.iter().rev().find(|o| o.act == act && fold_name(&o.by) == fold_name(&me));
        let mut selected = Vec::new();
        let current = last.map(|o| {
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
            let at = o.at.as_ref().and_then(|v| v.as_str()).map(|s| format!(" (в {s})")).unwrap_or_default();
            if named.is_empty() {
                format!("отправлено{at}")
            } else {
                format!("{}{at}", named.join(" → "))
            }
        });
        let title = match (act, m.state().player(seat).item) {
            ("use", Some(h)) => format!("Применить вещь: {}", h.item.ru()),
            _ => title.to_string(),
        };
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
