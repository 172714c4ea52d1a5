//! The review of a game (issue 33): day by day, every vote with every role, the lynch,
//! the night's orders and what they did, deaths, item uses, the Spirit's question, the
//! resolution log, for a viewer who sees all of the game — the host at any time, anyone
//! who may reach the game once it is over (O-THREAD-6). What the viewer sees is the
//! engine's [`ostrov_engine::Match::sight`]; the page (`web/review.rs`) and the API's
//! `GET /api/games/{id}/review` only render this view.

use ostrov_engine::ru::Gender;
use ostrov_engine::{BallotKind, CheckResult, Match, PlayerId, Stage};
use serde::Serialize;

use crate::game::{GameState, Status};
use crate::view::{self, DeathView, EventView, PaperRef, RoleView, Viewer, WinnerView};

/// A player as the review names them: their role now shown, their side and fate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReviewPlayer {
    pub name: String,
    pub role: RoleView,
    /// The side's id (`civilians`, `werewolves`, `hamster`) and its Russian name.
    pub side: &'static str,
    pub side_ru: &'static str,
    pub alive: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub death: Option<DeathView>,
    #[serde(skip)]
    pub gender: Option<Gender>,
}

/// A name with the role it held (as it agrees with the player's gender).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Named {
    pub name: String,
    pub role: String,
}

/// One counted vote.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VoteLine {
    pub voter: Named,
    pub target: Named,
    /// `cast`, `missing`, `blocked`, `void`, `megaphone` or `authority`.
    pub kind: &'static str,
    /// Why the vote went where it did, in Russian (empty for a vote cast as sent).
    pub kind_ru: &'static str,
}

/// A bar of the day's tally: a name, its votes, whether that player was lynched.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TallyLine {
    pub name: String,
    pub votes: u32,
    pub lynched: bool,
    #[serde(skip)]
    pub gender: Option<Gender>,
}

/// One order of the day as the game file keeps it (the last of each kind stands).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OrderLine {
    /// The player, or «Ведущий».
    pub by: Named,
    /// The act's id and Russian name.
    pub act: String,
    pub act_ru: String,
    /// The targets, in order (a swap's or an authority's two names).
    pub targets: Vec<String>,
    /// The text of a question, the item of an exchange …, when the order has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// The game-day time it was sent, `HH:MM`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
}

/// A seer's check and its answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckLine {
    pub seer: String,
    pub target: String,
    /// `werewolf`, `not_werewolf` or `failed`, and in Russian.
    pub result: &'static str,
    pub result_ru: &'static str,
}

/// An item used (or triggered).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ItemLine {
    pub by: String,
    pub item: &'static str,
    pub item_ru: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// «в 13:00», «в 21:00» or «при развязке».
    pub stage_ru: &'static str,
    pub effective: bool,
}

/// The Spirit's question and its answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct QuestionLine {
    pub by: String,
    pub text: String,
    /// «да», «нет» or «без ответа».
    pub answer_ru: &'static str,
}

/// A line of the resolution log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LogLine {
    pub step: u8,
    pub text: String,
}

/// One day of the review.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReviewDay {
    pub day: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<EventView>,
    /// Whether the day was resolved (a day the game ended before has orders only).
    pub resolved: bool,
    pub votes: Vec<VoteLine>,
    pub tally: Vec<TallyLine>,
    pub lynched: Vec<Named>,
    pub night_deaths: Vec<Named>,
    pub removed: Vec<Named>,
    pub orders: Vec<OrderLine>,
    pub checks: Vec<CheckLine>,
    /// Who the maniac assaulted.
    pub assaulted: Vec<String>,
    pub items: Vec<ItemLine>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub question: Option<QuestionLine>,
    pub log: Vec<LogLine>,
    /// The newspapers of the day.
    pub papers: Vec<PaperRef>,
}

/// The review of a game, for a viewer who sees all of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReviewView {
    pub id: i64,
    pub title: String,
    pub over: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<WinnerView>,
    pub players: Vec<ReviewPlayer>,
    pub days: Vec<ReviewDay>,
}

/// The review of the game for `viewer`, or `None` when the viewer may not see all of it
/// (before the end, anyone but the host) or the game has not started.
pub fn review(live: &GameState, viewer: Viewer) -> Option<ReviewView> {
    let m = live.m.as_ref()?;
    let sight = m.sight(viewer.sight());
    if !sight.sees_all() && !(viewer == Viewer::Host) {
        return None;
    }
    let st = m.state();
    let named = |p: PlayerId| Named {
        name: st.name(p).to_string(),
        role: if sight.role(p) { role_ru(m, p) } else { String::new() },
    };
    let players = st
        .list_order()
        .iter()
        .map(|&q| {
            let pl = st.player(q);
            let side = pl.role.side();
            ReviewPlayer {
                name: pl.name.clone(),
                role: RoleView::of(m, q),
                side: side.id(),
                side_ru: side.ru(),
                alive: pl.alive,
                death: pl.death.zip(pl.died_on_day).map(|(d, day)| DeathView { how: view::death_id(d), day }),
                gender: st.who(q).gender(),
            }
        })
        .collect();
    let papers = view::published(live);
    let days = (1..=live.days.len() as u32).map(|d| day(live, m, &sight, d, &papers, &named)).collect();
    Some(ReviewView {
        id: live.id,
        title: live.config.title.clone(),
        over: live.status == Status::Over,
        winner: m.winner().map(|w| WinnerView { id: w.id(), name: w.ru() }),
        players,
        days,
    })
}

fn role_ru(m: &Match, p: PlayerId) -> String {
    ostrov_engine::ru::role(m.state().player(p).role, m.state().who(p).gender()).to_string()
}

fn day(
    live: &GameState,
    m: &Match,
    sight: &ostrov_engine::Sight,
    d: u32,
    papers: &[(u32, &'static str)],
    named: &dyn Fn(PlayerId) -> Named,
) -> ReviewDay {
    let st = m.state();
    let name = |p: PlayerId| st.name(p).to_string();
    let orders = orders(live, m, sight, d);
    let papers = papers.iter().filter(|(pd, _)| *pd == d).map(|&(day, kind)| PaperRef { day, kind }).collect();
    let event = live.file.days.get(d as usize - 1).and_then(|e| e.event.as_ref()).and_then(|e| {
        let e: ostrov_engine::Event = e.parse().ok()?;
        Some(EventView { id: e.id(), name: e.ru(), meaning: e.meaning_ru() })
    });
    let Some(r) = m.record(d) else {
        return ReviewDay {
            day: d,
            event,
            resolved: false,
            votes: Vec::new(),
            tally: Vec::new(),
            lynched: Vec::new(),
            night_deaths: Vec::new(),
            removed: Vec::new(),
            orders,
            checks: Vec::new(),
            assaulted: Vec::new(),
            items: Vec::new(),
            question: None,
            log: Vec::new(),
            papers,
        };
    };
    let mut tally: Vec<TallyLine> = r
        .tally
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|&(p, votes)| TallyLine {
            name: name(p),
            votes,
            lynched: r.lynched.contains(&p),
            gender: st.who(p).gender(),
        })
        .collect();
    tally.sort_by_key(|t| std::cmp::Reverse(t.votes));
    ReviewDay {
        day: d,
        event: r.event.map(|e| EventView { id: e.id(), name: e.ru(), meaning: e.meaning_ru() }),
        resolved: true,
        votes: r
            .ballots
            .iter()
            .map(|b| VoteLine {
                voter: named(b.voter),
                target: named(b.target),
                kind: b.kind.id(),
                kind_ru: ballot_ru(b.kind),
            })
            .collect(),
        tally,
        lynched: r.lynched.iter().map(|p| named(*p)).collect(),
        night_deaths: r.night_deaths.iter().map(|p| named(*p)).collect(),
        removed: r.removed.iter().map(|(p, _)| named(*p)).collect(),
        orders,
        checks: r
            .checks
            .iter()
            .filter(|c| sight.orders(c.seer))
            .map(|c| CheckLine {
                seer: name(c.seer),
                target: name(c.target),
                result: c.result.id(),
                result_ru: check_ru(c.result),
            })
            .collect(),
        assaulted: r.assaulted.iter().filter(|p| sight.maniac_victim(**p)).map(|p| name(*p)).collect(),
        items: r
            .items_used
            .iter()
            .map(|u| ItemLine {
                by: name(u.by),
                item: u.item.id(),
                item_ru: u.item.ru(),
                target: u.target.map(name),
                stage_ru: stage_ru(u.stage),
                effective: u.effective,
            })
            .collect(),
        question: r.question.as_ref().map(|(p, text)| QuestionLine {
            by: name(*p),
            text: text.clone(),
            answer_ru: match r.answer {
                Some(true) => "да",
                Some(false) => "нет",
                None => "без ответа",
            },
        }),
        log: r.log.iter().map(|l| LogLine { step: l.step.number(), text: l.text.clone() }).collect(),
        papers,
    }
}

/// The orders of day `d` that stood (the last of each kind), each as the viewer's sight
/// lets them see its sender's orders.
fn orders(live: &GameState, m: &Match, sight: &ostrov_engine::Sight, d: u32) -> Vec<OrderLine> {
    let Some(entry) = live.file.days.get(d as usize - 1) else { return Vec::new() };
    let st = m.state();
    view::standing(&entry.orders)
        .into_iter()
        .filter_map(|o| {
            let by = if o.by == "host" {
                if !sight.sees_all() {
                    return None;
                }
                Named { name: "Ведущий".into(), role: String::new() }
            } else {
                let p = m.find(&o.by)?;
                if !sight.orders(p) {
                    return None;
                }
                Named { name: st.name(p).to_string(), role: role_ru(m, p) }
            };
            let act_ru =
                o.act.parse::<ostrov_engine::Act>().map(|a| a.ru().to_string()).unwrap_or_else(|_| o.act.clone());
            let mut targets: Vec<String> = o.from.iter().cloned().collect();
            targets.extend(o.target.iter().cloned());
            targets.extend(o.targets.iter().flatten().cloned());
            let detail = o.text.clone().or_else(|| o.item.clone()).or_else(|| o.reason.clone());
            Some(OrderLine {
                by,
                act: o.act.clone(),
                act_ru,
                targets,
                detail,
                at: o.at.as_ref().map(|a| a.as_str().map_or_else(|| a.to_string(), str::to_string)),
            })
        })
        .collect()
}

/// Why a vote went where it did (R-VOTE-1, R-VOTE-2, R-ITEM-5, R-AUTH-1).
pub fn ballot_ru(k: BallotKind) -> &'static str {
    match k {
        BallotKind::Cast => "",
        BallotKind::Missing => "голос не отправлен — засчитан против себя",
        BallotKind::Blocked => "голос заблокирован — засчитан против себя",
        BallotKind::Void => "голос недействителен — засчитан против себя",
        BallotKind::Megaphone => "рупор",
        BallotKind::Authority => "голос взят авторитетом",
    }
}

fn check_ru(c: CheckResult) -> &'static str {
    match c {
        CheckResult::Werewolf => "оборотень",
        CheckResult::NotWerewolf => "не оборотень",
        CheckResult::Failed => "проверка не удалась",
    }
}

fn stage_ru(s: Stage) -> &'static str {
    match s {
        Stage::Midday => "в 13:00",
        Stage::Evening => "в 21:00",
        Stage::Resolution => "при развязке",
    }
}
