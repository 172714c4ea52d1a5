//! Orders: a player sends (and by sending again, changes) their orders until the deadline.
//! Each is checked at once by the engine against the rules and the player's state now; a
//! refused order gets its reason in Russian (422), a late one `late`.

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::Json;
use ostrov_store::Store;
use serde_json::{json, Value};

use super::extract::{who, Body, Id, St};
use crate::error::ApiError;
use crate::extract::Object;
use crate::service::{self, reach, OrderRequest};
use crate::view;

/// `POST /api/games/{id}/orders`.
pub async fn send<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    id: Id,
    body: Body<OrderRequest>,
) -> Result<Response, ApiError> {
    let user = who(&st, &h, true).await?;
    let Path(id) = id?;
    let Object(b) = body?;
    let a = service::send_order(&st, id, user, b).await?;
    let mut v = json!({"accepted": true, "duplicate": a.duplicate});
    if let (Some(day), Some(order)) = (a.day, a.order) {
        v["day"] = json!(day);
        v["at"] = order.at.clone().unwrap_or(Value::Null);
        v["order"] = json!(order);
    }
    Ok(Json(v).into_response())
}

/// `GET /api/games/{id}/orders`: the caller's accepted orders of the open day.
pub async fn mine<S: Store>(State(st): St<S>, h: HeaderMap, id: Id) -> Result<Response, ApiError> {
    let user = who(&st, &h, false).await?;
    let Path(id) = id?;
    let (slot, _) = reach(&st, id, Some(user)).await?;
    let Some(seat) = slot.live.seat_of(user) else { return Err(ApiError::Forbidden) };
    let name = slot.live.members[seat.index()].name.clone();
    Ok(Json(json!({"day": slot.live.open_day(), "orders": view::orders_of(&slot.live, Some(&name))})).into_response())
}
