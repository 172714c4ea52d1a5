//! `POST /api/games/{id}/host/{action}`: the host's powers ([`crate::service::host`]), each
//! read from its JSON body into a [`HostAction`].

use axum::body::Bytes;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::Json;
use ostrov_store::Store;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::json;

use super::extract::{who, St};
use crate::error::ApiError;
use crate::game::Fix;
use crate::service::host::{require_host, Deadline};
use crate::service::{client_request, host_action, HostAction};
use crate::view::{self, Viewer};

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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Replace {
    /// The seat's name.
    seat: String,
    /// The substitute's account name.
    user: String,
    /// Read from the raw body (checked here to be a string).
    #[serde(default, rename = "request_id")]
    _request_id: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Wanted {
    /// The seat's name.
    seat: String,
    /// `false` withdraws the call.
    #[serde(default = "yes")]
    wanted: bool,
    /// Read from the raw body (checked here to be a string).
    #[serde(default, rename = "request_id")]
    _request_id: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Topic {
    /// The forum topic's link.
    url: String,
    /// Read from the raw body (checked here to be a string).
    #[serde(default, rename = "request_id")]
    _request_id: Option<String>,
}

fn yes() -> bool {
    true
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
    let raw: serde_json::Value = serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null);
    let rid = raw.get("request_id").and_then(serde_json::Value::as_str).map(str::to_string);
    let rid = client_request(user, rid, &format!("host/{action}"), &raw)?;
    let action = match read(&action, &body) {
        Ok(a) => a,
        Err(e) => {
            // An unknown action or a bad body is still the host's business: 403 first.
            require_host(&st, id, user).await?;
            return Err(e);
        }
    };
    let (done, v) = host_action(&st, id, user, action, rid, |g, now| view::game(g, Viewer::Host, now)).await?;
    let mut out = json!({"seq": done.seq, "game": v});
    if done.duplicate {
        out["duplicate"] = json!(true);
    }
    Ok(Json(out).into_response())
}

/// The action named `action` with its JSON body.
fn read(action: &str, body: &Bytes) -> Result<HostAction, ApiError> {
    Ok(match action {
        "answer" => HostAction::Answer { yes: parse_req::<Answer>(body)?.answer },
        "penalty" => {
            let b: Against = parse_req(body)?;
            HostAction::Penalty { target: b.target, reason: b.reason }
        }
        "remove" => {
            let b: Against = parse_req(body)?;
            HostAction::Remove { target: b.target, reason: b.reason }
        }
        "fix" => {
            let b: FixBody = parse_req(body)?;
            HostAction::Fix {
                day: b.day,
                fix: Fix { event: b.event, chosen: b.chosen, tie_break: b.tie_break, deal: b.deal },
            }
        }
        "extend" => {
            let b: Extend = parse_req(body)?;
            HostAction::Extend(match (&b.deadline, b.minutes) {
                (Some(s), None) => Deadline::At(
                    s.parse::<jiff::Timestamp>()
                        .map_err(|_| ApiError::BadRequest(format!("Дедлайн «{s}» — не время RFC 3339.")))?
                        .as_second(),
                ),
                (None, Some(m)) => Deadline::Later(m),
                _ => {
                    return Err(ApiError::BadRequest(
                        "Укажите либо deadline (время RFC 3339), либо minutes (от 1 до 20160).".into(),
                    ))
                }
            })
        }
        "resolve" => {
            parse::<Plain>(body)?;
            HostAction::Resolve
        }
        "midday" => {
            parse::<Plain>(body)?;
            HostAction::Midday
        }
        "open" => {
            parse::<Plain>(body)?;
            HostAction::Open
        }
        "pause" => {
            parse::<Plain>(body)?;
            HostAction::Pause
        }
        "resume" => {
            parse::<Plain>(body)?;
            HostAction::Resume
        }
        "replace" => {
            let b: Replace = parse_req(body)?;
            HostAction::Replace { seat: b.seat, user: b.user }
        }
        "wanted" => {
            let b: Wanted = parse_req(body)?;
            HostAction::Want { seat: b.seat, wanted: b.wanted }
        }
        "topic" => HostAction::Topic { url: parse_req::<Topic>(body)?.url },
        _ => return Err(ApiError::NotFound),
    })
}
