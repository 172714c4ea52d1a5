//! The host's desk (issue 30, points 1–2): `GET /api/games/{id}/board` (a card per seat,
//! the tally as it stands) and `GET /api/games/{id}/preview` (the open day resolved now,
//! in GAME_FILE.md's report form). The host's alone.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::Json;
use ostrov_store::Store;
use serde::Deserialize;

use super::extract::{who, Id, St};
use crate::error::ApiError;
use crate::service;

/// The board's query: `?pending=1` for only the seats with something still to send.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardQuery {
    #[serde(default)]
    pending: Option<String>,
}

/// Whether a yes/no query parameter says yes (`1`, `true`, `yes`, `on`, or present bare).
pub(crate) fn yes(v: Option<&str>) -> Result<bool, ApiError> {
    match v.map(str::trim) {
        None | Some("0" | "false" | "no" | "off") => Ok(false),
        Some("" | "1" | "true" | "yes" | "on") => Ok(true),
        Some(other) => Err(ApiError::BadRequest(format!("Параметр pending — 1 или 0, а не «{other}»."))),
    }
}

/// `GET /api/games/{id}/board?pending=1`.
pub async fn board<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    id: Id,
    q: Result<Query<BoardQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let user = who(&st, &h, false).await?;
    let Path(id) = id?;
    let Query(q) = q?;
    let pending = yes(q.pending.as_deref())?;
    Ok(Json(service::desk::board(&st, id, user, pending).await?).into_response())
}

/// `GET /api/games/{id}/preview`.
pub async fn preview<S: Store>(State(st): St<S>, h: HeaderMap, id: Id) -> Result<Response, ApiError> {
    let user = who(&st, &h, false).await?;
    let Path(id) = id?;
    let p = service::desk::preview(&st, id, user).await?;
    Ok(Json(&p.report).into_response())
}
