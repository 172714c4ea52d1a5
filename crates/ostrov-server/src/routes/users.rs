//! Players' records and the setups played on the server (issue 33), from the results
//! stored when games end.

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::Json;
use ostrov_store::Store;

use super::extract::{who, St};
use crate::error::ApiError;
use crate::service::records;

/// `GET /api/users/{name}/stats`: the player's record — finished games, wins, by side and
/// by role, survived, the recent games with their reviews — of the games the caller may see.
pub async fn stats<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    p: Result<Path<String>, PathRejection>,
) -> Result<Response, ApiError> {
    let user = who(&st, &h, false).await?;
    let Path(name) = p?;
    Ok(Json(records::record(&st, &name, Some(user)).await?).into_response())
}

/// `GET /api/stats`: every setup played on the server (of the games the caller may see),
/// with games and wins per side, their intervals, the flag, and the simulator's estimate
/// when it is cached.
pub async fn setups<S: Store>(State(st): St<S>, h: HeaderMap) -> Result<Response, ApiError> {
    let user = who(&st, &h, false).await?;
    Ok(Json(records::setups(&st, Some(user)).await?).into_response())
}
