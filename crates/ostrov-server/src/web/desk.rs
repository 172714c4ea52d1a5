//! The host's desk on the game page (issue 30, points 1–3 and 6): the day's controls, the
//! board of the seats ([`crate::desk::BoardView`], the API's view, worded here), the
//! tally, the preview of the open day resolved now, the step logs folded by step, and the
//! page on which every irreversible action asks for confirmation, also without JavaScript
//! (a second form; the first post changes nothing: [`super::host`]).

use std::sync::Arc;

use askama::Template;
use axum::http::StatusCode;
use axum::response::Response;
use ostrov_engine::{Act, Event, Item};
use ostrov_paper::Format;

use super::page::{page, Chrome, Visitor};
use super::text::death_ru;
use crate::desk::{BoardView, FlagRef, Missing, OrderLine, SeatCard, TallyLine};
use crate::game::{GameState, Status};
use crate::preview::{Preview, StepLog};
use crate::view;

/// What the host's part of the game page holds.
pub struct HostPanel {
    pub invite: String,
    /// The open day's orders as they arrived (the board has them seat by seat).
    pub orders: Vec<String>,
    /// The step-by-step log of every resolved day, the last first, folded by step.
    pub logs: Vec<(u32, Vec<StepLog>)>,
    /// The latest newspaper of each kind published (the 13:00 bulletin, the evening
    /// newspaper, the final one), newest first, in BBCode for the forum (issue 30, point 12).
    pub papers: Vec<BbPaper>,
    pub living: Vec<String>,
    pub question: Option<String>,
    pub events: Vec<(&'static str, &'static str)>,
    pub open: bool,
    pub paused: bool,
    pub running: bool,
    /// The open day's 13:00 stage has not run: it may be run now.
    pub midday: bool,
    /// Between a resolution and the next opening: the next day may be opened now.
    pub can_open: Option<u32>,
    /// The day's event may still be fixed (day 1 before any order, O-SERVER-5); a later
    /// day's event is announced by the evening newspaper and final.
    pub fix_event: bool,
    pub board: Option<BoardView>,
    /// The board shows only the seats with something still to send.
    pub pending: bool,
    pub preview: Option<Arc<Preview>>,
    /// A forum game: the topic's form, and a speech-rule penalty on each seat's card.
    pub forum: Option<ForumDesk>,
}

/// A newspaper for the forum, in BBCode, the moment it is published.
pub struct BbPaper {
    /// The textarea's id: `bb-{day}-{kind}`.
    pub id: String,
    pub title: String,
    pub text: String,
}

/// The host's forum controls (issue 30, point 12).
pub struct ForumDesk {
    /// The day whose topic the form sets (the open day, or the next one).
    pub day: u32,
    /// That day's topic so far, if the host gave one.
    pub topic: Option<String>,
}

/// The latest published newspaper of each kind, newest first, in BBCode: only what
/// [`crate::view::published`] says is out, rendered from the public view.
fn bb_papers(live: &GameState) -> Vec<BbPaper> {
    let mut kinds: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for (day, kind) in crate::view::published(live).into_iter().rev() {
        if kinds.contains(&kind) {
            continue;
        }
        kinds.push(kind);
        let Some(doc) = crate::view::paper(live, day, kind) else { continue };
        let title = match kind {
            "bulletin" => format!("Сводка дня {day} (13:00)"),
            "evening" => format!("Газета дня {day} (итоги)"),
            _ => "Итоговая газета".to_string(),
        };
        out.push(BbPaper { id: format!("bb-{day}-{kind}"), title, text: doc.render(Format::Bbcode) });
    }
    out
}

/// The host's part of the page of game `live` at `now`.
pub fn host_panel(
    live: &GameState,
    invite: String,
    now: i64,
    pending: bool,
    preview: Option<Arc<Preview>>,
) -> HostPanel {
    let orders = view::orders_of(live, None).iter().map(|o| order_entry_ru(live, o)).collect();
    let m = live.m.as_ref();
    let last = live.days.iter().rposition(|d| d.resolved_at.is_some()).map(|i| i as u32 + 1);
    let logs = match (m, last) {
        (Some(m), Some(last)) => (1..=last).rev().map(|d| (d, crate::preview::steps(m, d))).collect(),
        _ => Vec::new(),
    };
    let question = m.and_then(|m| m.today()).and_then(|t| {
        t.question
            .as_ref()
            .filter(|_| t.answer.is_none())
            .map(|(p, q)| format!("{}: «{q}»", m.map_or("", |m| m.state().name(*p))))
    });
    let open = live.open_day();
    let running = live.status == Status::Running;
    HostPanel {
        invite,
        orders,
        logs,
        papers: bb_papers(live),
        living: m.map(|m| m.state().living().map(|p| m.state().name(p).to_string()).collect()).unwrap_or_default(),
        question,
        events: Event::ALL.iter().map(|e| (e.id(), e.ru())).collect(),
        open: open.is_some(),
        paused: live.paused_at.is_some(),
        running,
        midday: open.is_some_and(|d| !live.days[d as usize - 1].midday_done),
        can_open: (running && open.is_none() && live.next_open_at.is_some_and(|o| now < o))
            .then_some(live.days.len() as u32 + 1),
        fix_event: open == Some(1) && live.file.days.first().is_none_or(|e| e.orders.is_empty()),
        board: crate::desk::board(live, now, pending),
        pending,
        preview: preview.filter(|_| open.is_some()),
        forum: (live.forum() && running).then(|| {
            let day = live.topic_day();
            let topic = live.topics.iter().find(|(d, _)| *d == day).map(|(_, u)| u.clone());
            ForumDesk { day, topic }
        }),
    }
}

/// An order of the day's list: «14:21 Аня: голос → Вика».
fn order_entry_ru(live: &GameState, o: &ostrov_engine::OrderEntry) -> String {
    let named: Vec<String> = o.from.iter().chain(o.target.iter()).chain(o.targets.iter().flatten()).cloned().collect();
    let act = Act::parse(&o.act);
    // A use names its item (issue 29, point 4): the one the order names, else the one its
    // sender holds.
    let item = (act == Some(Act::Use))
        .then(|| {
            o.item.as_deref().and_then(Item::parse).or_else(|| {
                let m = live.m.as_ref()?;
                m.state().player(m.find(&o.by)?).item.map(|h| h.item)
            })
        })
        .flatten();
    let what = match (act, item) {
        (_, Some(i)) => format!("применить {}", i.ru_acc()),
        (Some(a), None) => a.ru().to_string(),
        (None, None) => "?".to_string(),
    };
    let mut s = format!("{} {}: {what}", o.at.as_ref().and_then(|a| a.as_str()).unwrap_or(""), o.by);
    if !named.is_empty() {
        s.push_str(if act == Some(Act::Swap) { ": " } else { " → " });
        s.push_str(&named.join(if act == Some(Act::Swap) { " ↔ " } else { ", " }));
    }
    if let (Some(i), None) = (&o.item, item) {
        s.push_str(&format!(" ({i})"));
    }
    if let Some(t) = &o.text {
        s.push_str(&format!(" «{t}»"));
    }
    s
}

/// What the board says of a seat, in Russian.
pub trait SeatText {
    /// «в игре», or how and when the player left, agreeing with their gender.
    fn status_ru(&self) -> String;
    /// The item and whether it is charged: «Шокер (заряжена)», «нет вещи».
    fn item_ru(&self) -> String;
    /// The orders in force, one line each.
    fn orders_ru(&self) -> Vec<String>;
    /// What is still to send, and what waits for the host.
    fn missing_ru(&self) -> Vec<&'static str>;
    /// The host's penalties: today's, then earlier days'.
    fn penalties_ru(&self) -> Option<String>;
}

impl SeatText for SeatCard {
    fn status_ru(&self) -> String {
        match self.death {
            Some(d) => format!("{}, день {}", death_ru(d.how, self.gender), d.day),
            None => "в игре".to_string(),
        }
    }

    fn item_ru(&self) -> String {
        match &self.item {
            None => "нет вещи".to_string(),
            Some(i) => format!("{} ({})", i.name, if i.charged { "заряжена" } else { "использована" }),
        }
    }

    fn orders_ru(&self) -> Vec<String> {
        self.orders.iter().map(order_line_ru).collect()
    }

    fn missing_ru(&self) -> Vec<&'static str> {
        let mut out: Vec<&'static str> = self
            .missing
            .iter()
            .map(|m| match m {
                Missing::Vote => "голос не отправлен",
                Missing::Night => "ночной ход не отправлен",
            })
            .collect();
        if self.awaits_answer {
            out.push("ждёт ответа Духа");
        }
        out
    }

    fn penalties_ru(&self) -> Option<String> {
        let earlier = (!self.penalties.is_empty()).then(|| {
            let days = self.penalties.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
            format!("{} {days}", if self.penalties.len() == 1 { "штраф в день" } else { "штрафы в дни" })
        });
        match (self.penalised, earlier) {
            (true, Some(e)) => Some(format!("штраф сегодня: голос не учитывается; {e}")),
            (true, None) => Some("штраф сегодня: голос не учитывается".to_string()),
            (false, e) => e,
        }
    }
}

/// An order in force: «голос: Вика», «применить Шокер: Боря», «вопрос Духу: «…»».
pub fn order_line_ru(o: &OrderLine) -> String {
    let act = Act::parse(o.act);
    let item = o.item.and_then(Item::parse);
    let what = match (act, item) {
        (Some(Act::Use), Some(i)) => format!("применить {}", i.ru_acc()),
        (Some(Act::Bunker), Some(i)) => format!("бункер ({})", i.ru()),
        (Some(Act::Ask), _) => "вопрос Духу".to_string(),
        (Some(a), _) => a.ru().to_string(),
        (None, _) => o.act.to_string(),
    };
    let targets = match act {
        Some(Act::Swap) => o.targets.join(" ↔ "),
        Some(Act::Authority) => o.targets.join(" → "),
        _ => o.targets.join(", "),
    };
    match (&o.text, targets.is_empty()) {
        (Some(t), _) => format!("{what}: «{t}»"),
        (None, true) => what,
        (None, false) => format!("{what}: {targets}"),
    }
}

/// A flag as the card lists it.
pub trait FlagText {
    /// «№3, день 1».
    fn ru(&self) -> String;
}

impl FlagText for FlagRef {
    fn ru(&self) -> String {
        format!("№{}, день {}", self.no, self.day)
    }
}

/// A line of the tally.
pub trait TallyText {
    /// «2 голоса».
    fn votes_ru(&self) -> String;
}

impl TallyText for TallyLine {
    fn votes_ru(&self) -> String {
        ostrov_engine::plural::votes(self.votes)
    }
}

/// The confirmation page of an irreversible action: what it does, and the same form again
/// with `confirm=1`.
#[derive(Template)]
#[template(path = "confirm.html")]
pub struct ConfirmPage<'a> {
    pub c: Chrome<'a>,
    pub id: i64,
    pub question: String,
    pub consequence: &'static str,
    pub button: &'static str,
    /// Where the form posts.
    pub action: String,
    /// The form's fields, posted again as they came.
    pub fields: Vec<(&'static str, String)>,
}

/// The confirmation page (200): nothing has changed yet.
pub fn confirm_page(
    v: &Visitor,
    id: i64,
    question: String,
    consequence: &'static str,
    button: &'static str,
    action: String,
    fields: Vec<(&'static str, String)>,
) -> Response {
    let fields = fields.into_iter().filter(|(_, v)| !v.is_empty()).collect();
    let p = ConfirmPage {
        c: Chrome::new(v, "Подтвердите действие".to_string()),
        id,
        question,
        consequence,
        button,
        action,
        fields,
    };
    page(v, StatusCode::OK, &p)
}

#[cfg(test)]
mod tests {
    use ostrov_engine::ru::Gender;

    use super::*;
    use crate::view::{DeathView, ItemView, RoleView};

    fn card(name: &str, gender: Option<Gender>, role: &str, death: Option<&'static str>) -> SeatCard {
        SeatCard {
            name: name.into(),
            alive: death.is_none(),
            death: death.map(|how| DeathView { how, day: 2 }),
            role: RoleView { id: "seer", name: role.into(), turned: false },
            item: None,
            orders: Vec::new(),
            missing: Vec::new(),
            awaits_answer: false,
            penalised: false,
            penalties: Vec::new(),
            flags: Vec::new(),
            gender,
        }
    }

    /// Every line a seat's card says, as the page writes it.
    fn lines(s: &SeatCard) -> String {
        let mut out =
            vec![format!("{} · {} · {}", s.name, s.role.name, s.status_ru()), format!("Вещь: {}", s.item_ru())];
        out.extend(s.orders_ru());
        out.extend(s.missing_ru().into_iter().map(str::to_string));
        out.extend(s.penalties_ru());
        out.extend(s.flags.iter().map(|f| format!("Нарушение: сообщение {}", f.ru())));
        out.join("\n")
    }

    #[test]
    fn the_boards_cards_in_both_genders() {
        let mut all = Vec::new();
        for (name, gender, role) in [
            ("Лев", Some(Gender::Male), "Ясновидящий"),
            ("Зоя", Some(Gender::Female), "Ясновидящая"),
            ("Kot2000", None, "Ясновидящий"),
        ] {
            let mut busy = card(name, gender, role, None);
            busy.item = Some(ItemView { id: "shocker", name: "Шокер", charged: true });
            busy.orders = vec![
                OrderLine { act: "vote", item: None, targets: vec!["Аня".into(), "Боря".into()], text: None },
                OrderLine { act: "check", item: None, targets: vec!["Вика".into()], text: None },
                OrderLine { act: "use", item: Some("shocker"), targets: vec!["Гоша".into()], text: None },
                OrderLine {
                    act: "authority", item: None, targets: vec!["Даша".into(), "Егор".into()], text: None
                },
                OrderLine { act: "swap", item: None, targets: vec!["Аня".into(), "Боря".into()], text: None },
                OrderLine {
                    act: "ask", item: None, targets: Vec::new(), text: Some("Аня — оборотень?".into())
                },
                OrderLine { act: "bunker", item: None, targets: Vec::new(), text: None },
                OrderLine { act: "light", item: None, targets: Vec::new(), text: None },
            ];
            busy.awaits_answer = true;
            busy.penalised = true;
            busy.penalties = vec![1];
            busy.flags = vec![FlagRef { day: 3, no: 7, open: true, post: 12 }];
            let mut idle = card(name, gender, role, None);
            idle.item = Some(ItemView { id: "trap", name: "Капкан", charged: false });
            idle.missing = vec![Missing::Vote, Missing::Night];
            idle.penalties = vec![1, 2];
            all.push(lines(&busy));
            all.push(lines(&idle));
            for how in ["lynch", "night", "removed"] {
                all.push(lines(&card(name, gender, role, Some(how))));
            }
        }
        let tally = TallyLine { name: "Аня".into(), votes: 1, voters: vec!["Боря".into()] };
        all.push(format!("{} — {}", tally.name, tally.votes_ru()));
        all.push(TallyLine { votes: 5, ..tally.clone() }.votes_ru());
        insta::assert_snapshot!(all.join("\n\n"));
    }
}
