//! Seat bots in the lobby (issue 32): the host seats bots and takes one back before the start.

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::Json;
use ostrov_store::Store;
use serde::Deserialize;
use serde_json::json;

use super::extract::{who, Body, Id, St};
use crate::error::ApiError;
use crate::extract::Object;
use crate::service;
use crate::view::{self, Viewer};

/// The body of `POST /api/games/{id}/bots`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AddBots {
    /// How many bots to seat: from 1 to the free seats.
    pub count: usize,
}

/// `POST /api/games/{id}/bots` `{"count": N}`: the host seats N bots in free seats; the
/// answer names them and has the game as the host sees it.
pub async fn add<S: Store>(State(st): St<S>, h: HeaderMap, id: Id, body: Body<AddBots>) -> Result<Response, ApiError> {
    let user = who(&st, &h, true).await?;
    let Path(id) = id?;
    let Object(b) = body?;
    let names = service::bots::add_bots(&st, user, id, b.count).await?;
    let (slot, now) = service::reach(&st, id, Some(user)).await?;
    let v = view::game(&slot.live, Viewer::Host, now);
    Ok(Json(json!({"bots": names, "game": v})).into_response())
}

/// `DELETE /api/games/{id}/bots/{name}`: the host takes the bot `name` out of its seat,
/// before the start.
pub async fn remove<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    p: Result<Path<(i64, String)>, PathRejection>,
) -> Result<Response, ApiError> {
    let user = who(&st, &h, true).await?;
    let Path((id, name)) = p?;
    service::bots::remove_bot(&st, user, id, &name).await?;
    let (slot, now) = service::reach(&st, id, Some(user)).await?;
    let v = view::game(&slot.live, Viewer::Host, now);
    Ok(Json(json!({"game": v})).into_response())
}
