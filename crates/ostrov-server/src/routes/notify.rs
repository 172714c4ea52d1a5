//! An account's notifications (issue 31): `POST /api/me/telegram` (a one-time link code and
//! the bot's link), `DELETE /api/me/telegram` (unlink), `GET`/`PATCH /api/me/notify` (what
//! is set: the chat linked or not, never its id; the reminder's hours; the e-mail address);
//! and a player's requests to the host, `GET`/`POST /api/games/{id}/requests`.

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use ostrov_store::Store;
use serde::Deserialize;
use serde_json::json;

use super::extract::{who, Body, Id, St};
use crate::error::ApiError;
use crate::extract::Object;
use crate::service;

/// `POST /api/me/telegram`: `{"code", "link", "expires_in"}`.
pub async fn link<S: Store>(State(st): St<S>, h: HeaderMap) -> Result<Response, ApiError> {
    let user = who(&st, &h, true).await?;
    Ok(Json(service::notify::telegram_code(&st, user).await?).into_response())
}

/// `DELETE /api/me/telegram`: `{"unlinked": bool}`.
pub async fn unlink<S: Store>(State(st): St<S>, h: HeaderMap) -> Result<Response, ApiError> {
    let user = who(&st, &h, true).await?;
    Ok(Json(json!({"unlinked": service::notify::telegram_unlink(&st, user).await?})).into_response())
}

/// `GET /api/me/notify`.
pub async fn show<S: Store>(State(st): St<S>, h: HeaderMap) -> Result<Response, ApiError> {
    let user = who(&st, &h, false).await?;
    Ok(Json(service::notify::settings(&st, user).await?).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NotifyPatch {
    remind_hours: i64,
}

/// `PATCH /api/me/notify` `{"remind_hours": 0|1|2|6}`: the settings as they now are.
pub async fn set<S: Store>(State(st): St<S>, h: HeaderMap, body: Body<NotifyPatch>) -> Result<Response, ApiError> {
    let user = who(&st, &h, true).await?;
    let Object(b) = body?;
    service::notify::set_reminder(&st, user, b.remind_hours).await?;
    Ok(Json(service::notify::settings(&st, user).await?).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RequestBody {
    text: String,
}

/// `POST /api/games/{id}/requests` `{"text"}`: 201 with the request as kept.
pub async fn request<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    id: Id,
    body: Body<RequestBody>,
) -> Result<Response, ApiError> {
    let user = who(&st, &h, true).await?;
    let Path(id) = id?;
    let Object(b) = body?;
    let r = service::requests::send(&st, id, user, &b.text).await?;
    Ok((StatusCode::CREATED, Json(r)).into_response())
}

/// `GET /api/games/{id}/requests`: `{"requests": […]}`, the host's all, a player's own.
pub async fn requests<S: Store>(State(st): St<S>, h: HeaderMap, id: Id) -> Result<Response, ApiError> {
    let user = who(&st, &h, false).await?;
    let Path(id) = id?;
    Ok(Json(json!({"requests": service::requests::list(&st, id, user).await?})).into_response())
}
