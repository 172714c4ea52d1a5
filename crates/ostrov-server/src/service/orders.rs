//! A player's order: sent (and by sending again, changed) until the deadline, each checked
//! at once by the engine against the rules and the player's state now.

use std::sync::Arc;

use ostrov_engine::{fold_name, OrderEntry, Refusal};
use ostrov_store::Store;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::locking::{client_request, reach};
use crate::app::AppState;
use crate::commit::commit_request;
use crate::commit::durable_request;
use crate::commit::Committed;
use crate::error::ApiError;
use crate::game::{GameEvent, Status};

/// An order as a player sends it: the fields of GAME_FILE.md's orders, without `by` and
/// `at` (the server knows who and when).
#[derive(Debug, Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields)]
pub struct OrderRequest {
    pub act: String,
    #[serde(default)]
    pub target: Option<String>,
    #[serde(default)]
    pub targets: Option<Vec<String>>,
    #[serde(default)]
    pub from: Option<String>,
    #[serde(default)]
    pub item: Option<String>,
    #[serde(default)]
    pub text: Option<String>,
    /// Optional: must be the caller's own name.
    #[serde(default)]
    pub by: Option<String>,
    /// Optional: the day the order is for; refused as `late` if that day is over.
    #[serde(default)]
    pub day: Option<u32>,
    /// Optional: resending an order with the same id is a no-op that answers the same.
    #[serde(default, skip_serializing)]
    pub request_id: Option<String>,
}

/// Orders one player may send in one day (changes included): 429 after that.
pub const MAX_ORDERS_PER_DAY: usize = 200;

fn short(field: &str, s: &Option<String>, max: usize) -> Result<(), ApiError> {
    match s {
        Some(v) if v.chars().count() > max => {
            Err(ApiError::BadRequest(format!("Поле {field} длиннее {max} символов.")))
        }
        _ => Ok(()),
    }
}

/// An order that names too few players (or an empty question) as a sentence saying what
/// to choose (issue 30, point 10), instead of the game file's «Неверный приказ: …».
fn missing_choice(b: &OrderRequest) -> Option<&'static str> {
    use ostrov_engine::Act;
    let names = b.target.iter().count() + b.targets.as_ref().map_or(0, Vec::len);
    let act = Act::parse(b.act.trim())?;
    let need = match act {
        Act::Cancel | Act::Light | Act::Bunker => return None,
        Act::Ask => return b.text.as_deref().is_none_or(|t| t.trim().is_empty()).then_some("Напишите вопрос Духу."),
        Act::Authority if b.from.is_none() || b.target.is_none() => {
            return Some("Выберите, чей голос забрать и кому его отдать.")
        }
        Act::Swap if names < 2 => return Some("Выберите двух разных игроков, чьи вещи поменять местами."),
        Act::Vote => "Выберите, против кого вы голосуете.",
        Act::Megaphone => "Выберите, против кого отдать голос рупора.",
        Act::Sentence => "Выберите, кого приговорить.",
        Act::Kill => "Выберите, на кого напасть.",
        Act::Check => "Выберите, кого проверить.",
        Act::Heal => "Выберите, кого лечить.",
        Act::Recharge => "Выберите, чью вещь перезарядить.",
        Act::Assault => "Выберите, кого навестить.",
        Act::Use => "Выберите, на кого применить вещь.",
        Act::Exchange => "Выберите, с кем поменяться вещами.",
        Act::Pair => "Выберите, кого взять в пару.",
        _ => "Выберите игрока.",
    };
    (names == 0).then_some(need)
}

/// An accepted order: as stored in the game file (`None` for a resend whose first entry
/// no longer reads as an order), and whether it was a resend of a request already stored.
#[derive(Clone, Debug, PartialEq)]
pub struct OrderAccepted {
    pub duplicate: bool,
    pub day: Option<u32>,
    pub order: Option<OrderEntry>,
}

/// The order of `user` in game `id`, checked by the engine and stored durably: the API's
/// answer.
pub async fn send_order<S: Store>(
    st: &Arc<AppState<S>>,
    id: i64,
    user: i64,
    b: OrderRequest,
) -> Result<OrderAccepted, ApiError> {
    short("act", &Some(b.act.clone()), 40)?;
    for (f, v) in [("target", &b.target), ("from", &b.from), ("item", &b.item), ("by", &b.by)] {
        short(f, v, 80)?;
    }
    short("text", &b.text, 500)?;
    if b.targets.as_ref().is_some_and(|t| t.len() > 2 || t.iter().any(|x| x.chars().count() > 80)) {
        return Err(ApiError::BadRequest("Поле targets: не больше двух имён.".into()));
    }
    let what = serde_json::to_value(&b).map_err(|e| ApiError::Internal(e.to_string()))?;
    let rid = client_request(user, b.request_id.clone(), "orders", &what)?;
    let (mut slot, now) = reach(st, id, Some(user)).await?;
    let live = &slot.live;
    let Some(seat) = live.seat_of(user) else {
        return Err(match live.replaced_from(user) {
            Some(r) => ApiError::Conflict("replaced", replaced_you(live, r)),
            None => ApiError::Forbidden,
        });
    };
    let me = live.members[seat.index()].name.clone();
    if b.by.as_deref().is_some_and(|by| fold_name(by) != fold_name(&me)) {
        return Err(ApiError::Conflict("not_yours", "Можно отдавать приказы только за себя.".into()));
    }
    if let Some(m) = missing_choice(&b) {
        return Err(ApiError::Invalid("bad_order", m.to_string()));
    }
    if let Some((r, seq)) =
        rid.as_ref().and_then(|r| crate::commit::already_stored(&slot, r).transpose().map(|s| (r, s)))
    {
        // The same answer as the first time, once that is durable, read back from the log.
        let seq = seq?;
        let first = durable_request(st, &slot, r.id.clone(), seq);
        drop(slot);
        first.durable().await?;
        let stored = st.store.event(id, seq).await?;
        return Ok(match stored.and_then(|e| GameEvent::join(&e.kind, &e.payload).ok()) {
            Some(GameEvent::Order { day, order }) => {
                OrderAccepted { duplicate: true, day: Some(day), order: Some(order) }
            }
            _ => OrderAccepted { duplicate: true, day: None, order: None },
        });
    }
    match live.status {
        Status::Lobby => return Err(ApiError::Conflict("not_started", "Игра ещё не началась.".into())),
        Status::Over => return Err(ApiError::Refused(Refusal::GameOver)),
        Status::Running => {}
    }
    let Some(day) = live.open_day() else {
        let when = live.next_open_at.map(|t| format!(" Следующий день откроется {}.", live.times.say(t)));
        return Err(ApiError::Invalid(
            "late",
            format!("Ход не принят: он прислан после дедлайна, день уже подведён.{}", when.unwrap_or_default()),
        ));
    };
    match b.day {
        Some(d) if d < day => return Err(ApiError::Refused(Refusal::Late)),
        Some(d) if d > day => {
            return Err(ApiError::Conflict("not_open", format!("День {d} ещё не начался: сейчас идёт день {day}.")))
        }
        _ => {}
    }
    let sent = live.sent_today.get(&me).copied().unwrap_or(0);
    if sent >= MAX_ORDERS_PER_DAY {
        let t = &live.days[day as usize - 1];
        let wait = (t.deadline_at - now).max(1);
        return Err(ApiError::TooMany(
            format!(
                "Слишком много приказов за день: не больше {MAX_ORDERS_PER_DAY} от одного игрока. \
                 Последний принятый приказ каждого вида остаётся в силе; новые — со следующего дня."
            ),
            wait,
        ));
    }
    if b.act.trim().eq_ignore_ascii_case("bunker") && b.item.is_some() {
        return Err(ApiError::BadRequest("В бункере вещь из резерва вытягивается жребием: поле item не нужно.".into()));
    }
    let (day, at) = live.order_time(now)?;
    // A look-alike of a seat's name is that seat: stored as the seat's name, so the order
    // lists, the exported file and the newspapers name the player one way.
    let seat_name = |n: String| live.seated_as(&n).map_or(n, str::to_string);
    let entry = OrderEntry {
        by: me,
        act: b.act.trim().to_string(),
        target: b.target.map(seat_name),
        targets: b.targets.map(|t| t.into_iter().map(seat_name).collect()),
        from: b.from.map(seat_name),
        item: b.item,
        // The Spirit's question is published: one clean line (no breaks, control, bidi or
        // invisible characters, NFC) before it is stored, so it cannot leave its sentence.
        text: b.text.map(|t| ostrov_engine::clean_line(&t)),
        answer: None,
        reason: None,
        at: Some(json!(at.to_string())),
    };
    let staged =
        commit_request(st, &mut slot, GameEvent::Order { day, order: entry.clone() }, Some(user), rid, now).await?;
    drop(slot);
    let c = staged.durable().await?;
    Ok(OrderAccepted { duplicate: matches!(c, Committed::Duplicate(_)), day: Some(day), order: Some(entry) })
}

/// What the player a substitute replaced is told when they send an order (issue 30,
/// point 4): the seat is no longer theirs.
pub fn replaced_you(live: &crate::game::GameState, r: &crate::game::Replacement) -> String {
    let seat = live.members.get(r.seat).map_or("", |m| m.name.as_str());
    format!("Ход не принят: ведущий заменил вас в этой игре — за место «{seat}» теперь играет {}.", r.name)
}
