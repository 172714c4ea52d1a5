//! The host's powers (RULES.md §7): answer the Spirit, flag a violation (the player's vote
//! does not count), disqualify a player, fix a random draw, extend a deadline, resolve now,
//! pause and resume. Each is an event in the log; the public ones are in the game's history.

use axum::body::Bytes;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::Json;
use ostrov_engine::OrderEntry;
use ostrov_store::Store;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::json;

use super::{client_request, locked, who, St};
use crate::game::{Fix, GameEvent, Status};
use crate::view::{self, Viewer};
use std::sync::Arc;

use crate::{ApiError, AppState};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Answer {
    answer: bool,
    /// Read from the raw body (checked here to be a string).
    #[serde(default, rename = "request_id")]
    _request_id: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Against {
    target: String,
    #[serde(default)]
    reason: Option<String>,
    /// Read from the raw body (checked here to be a string).
    #[serde(default, rename = "request_id")]
    _request_id: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FixBody {
    /// The open day by default.
    #[serde(default)]
    day: Option<u32>,
    #[serde(default)]
    event: Option<String>,
    #[serde(default)]
    chosen: Option<String>,
    #[serde(default)]
    tie_break: Option<Vec<String>>,
    #[serde(default)]
    deal: Option<std::collections::BTreeMap<String, String>>,
    /// Read from the raw body (checked here to be a string).
    #[serde(default, rename = "request_id")]
    _request_id: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Extend {
    /// The new deadline, RFC 3339 (`2026-12-03T22:00:00+03:00`).
    #[serde(default)]
    deadline: Option<String>,
    /// Or: this many minutes more.
    #[serde(default)]
    minutes: Option<u32>,
    /// Read from the raw body (checked here to be a string).
    #[serde(default, rename = "request_id")]
    _request_id: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Plain {
    /// Read from the raw body (checked here to be a string).
    #[serde(default, rename = "request_id")]
    _request_id: Option<String>,
}

fn parse<T: DeserializeOwned + Default>(bytes: &Bytes) -> Result<T, ApiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(T::default());
    }
    parse_req(bytes)
}

/// A JSON object (serde would also read a struct from an array).
fn parse_req<T: DeserializeOwned>(bytes: &Bytes) -> Result<T, ApiError> {
    let v: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| ApiError::BadRequest(format!("Неверные данные: {e}")))?;
    if !v.is_object() {
        return Err(ApiError::BadRequest("Тело запроса должно быть JSON-объектом {…}.".into()));
    }
    serde_json::from_value(v).map_err(|e| ApiError::BadRequest(format!("Неверные данные: {e}")))
}

fn host_order(act: &str, target: Option<String>, reason: Option<String>, answer: Option<bool>) -> OrderEntry {
    OrderEntry {
        by: "host".into(),
        act: act.into(),
        target,
        reason,
        answer: answer.map(serde_json::Value::Bool),
        ..OrderEntry::default()
    }
}

/// `POST /api/games/{id}/host/{action}`.
pub async fn act<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    p: Result<Path<(i64, String)>, PathRejection>,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Response, ApiError> {
    let user = who(&st, &h, true).await?;
    let Path((id, action)) = p?;
    let body = body.map_err(|_| ApiError::BadRequest("Тело запроса слишком велико или не читается.".into()))?;
    Ok(Json(host_action(&st, id, user, &action, &body).await?).into_response())
}

/// A host action (`answer`, `penalty`, `remove`, `fix`, `extend`, `resolve`, `pause`,
/// `resume`) with its JSON body, by `user` in game `id`, durable: the API's answer.
pub async fn host_action<S: Store>(
    st: &Arc<AppState<S>>,
    id: i64,
    user: i64,
    action: &str,
    body: &Bytes,
) -> Result<serde_json::Value, ApiError> {
    let (mut slot, now) = locked(st, id).await?;
    if slot.live.host != user {
        return Err(ApiError::Forbidden);
    }
    let live = &slot.live;
    if live.status == Status::Lobby {
        return Err(ApiError::Conflict("not_started", "Игра ещё не началась.".into()));
    }
    let open = live.open_day();
    let need_open = || open.ok_or_else(|| ApiError::Conflict("not_open", "Сейчас нет открытого дня.".into()));
    let with_clock = |mut o: OrderEntry| -> Result<(u32, OrderEntry), ApiError> {
        need_open()?;
        let (d, at) = live.order_time(now)?;
        o.at = Some(json!(at.to_string()));
        Ok((d, o))
    };
    let raw: serde_json::Value = serde_json::from_slice(body).unwrap_or(serde_json::Value::Null);
    let rid = raw.get("request_id").and_then(serde_json::Value::as_str).map(str::to_string);
    let rid = client_request(user, rid, &format!("host/{action}"), &raw)?;
    if let Some((r, seq)) = rid.as_ref().and_then(|r| crate::already_stored(&slot, r).transpose().map(|s| (r, s))) {
        // The same request again: the same answer, once the first is durable.
        let seq = seq?;
        let first = crate::durable_request(st, &slot, r.id.clone(), seq);
        let v = view::game(&slot.live, Viewer::Host, now);
        drop(slot);
        first.durable().await?;
        return Ok(json!({"seq": seq, "duplicate": true, "game": v}));
    }
    let ev = match action {
        "answer" => {
            let b: Answer = parse_req(body)?;
            let (day, order) = with_clock(host_order("answer", None, None, Some(b.answer)))?;
            GameEvent::Order { day, order }
        }
        "penalty" | "remove" => {
            let b: Against = parse_req(body)?;
            if b.reason.as_ref().is_some_and(|r| r.chars().count() > 500) {
                return Err(ApiError::BadRequest("Причина длиннее 500 символов.".into()));
            }
            // Free text is one clean line before it is stored (it is published).
            let reason = b.reason.map(|r| ostrov_engine::clean_line(&r)).filter(|r| !r.is_empty());
            let (day, order) = with_clock(host_order(action, Some(b.target), reason, None))?;
            GameEvent::Order { day, order }
        }
        "fix" => {
            let b: FixBody = parse_req(body)?;
            let day = match (b.day, open) {
                (Some(d), _) => d,
                (None, Some(d)) => d,
                (None, None) => live.days.len() as u32 + 1,
            };
            let fix = Fix { event: b.event, chosen: b.chosen, tie_break: b.tie_break, deal: b.deal };
            GameEvent::Fixed { day, fix }
        }
        "extend" => {
            let b: Extend = parse_req(body)?;
            let day = need_open()?;
            let current = live.days[day as usize - 1].deadline_at;
            let deadline_at = match (&b.deadline, b.minutes) {
                (Some(s), None) => s
                    .parse::<jiff::Timestamp>()
                    .map_err(|_| ApiError::BadRequest(format!("Дедлайн «{s}» — не время RFC 3339.")))?
                    .as_second(),
                (None, Some(m)) if (1..=60 * 24 * 14).contains(&m) => current + m as i64 * 60,
                _ => {
                    return Err(ApiError::BadRequest(
                        "Укажите либо deadline (время RFC 3339), либо minutes (от 1 до 20160).".into(),
                    ))
                }
            };
            GameEvent::Extended { day, deadline_at }
        }
        "resolve" => {
            parse::<Plain>(body)?;
            GameEvent::Resolved { day: need_open()?, early: true }
        }
        "pause" => {
            parse::<Plain>(body)?;
            GameEvent::Paused {}
        }
        "resume" => {
            parse::<Plain>(body)?;
            GameEvent::Resumed {}
        }
        _ => return Err(ApiError::NotFound),
    };
    if matches!(ev, GameEvent::Resolved { .. }) {
        crate::palms_penalties(st, &mut slot, now).await?;
    }
    let staged = crate::commit_request(st, &mut slot, ev, Some(user), rid, now).await?;
    let v = view::game(&slot.live, Viewer::Host, now);
    drop(slot);
    let c = staged.durable().await?;
    Ok(json!({"seq": c.seq(), "game": v}))
}
