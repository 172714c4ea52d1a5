//! The game API, one module per area: games (create, list, join, start, view), orders,
//! the host's powers, and what a game publishes (newspapers, inbox, report, game file).
//! Each handler parses its request, calls [`crate::service`] and renders the answer.

mod games;
mod host;
mod orders;
mod papers;

use std::sync::Arc;

use axum::extract::rejection::PathRejection;
use axum::extract::{FromRequest, Path, Request, State};
use axum::http::HeaderMap;
use axum::routing::{get, post};
use axum::{Json, Router};
use ostrov_store::Store;
use serde::de::DeserializeOwned;

use crate::auth::{require_csrf, user_of};
use crate::error::ApiError;
use crate::app::AppState;

pub(crate) type St<S> = State<Arc<AppState<S>>>;
type Body<T> = Result<Object<T>, ApiError>;

/// A JSON request body that must be a JSON object (serde would also read a struct from an
/// array, so `["vote","Аня"]` would pass as an order); errors are 400 `bad_request`.
pub struct Object<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Object<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let Json(v) = Json::<serde_json::Value>::from_request(req, state).await?;
        if !v.is_object() {
            return Err(ApiError::BadRequest("Тело запроса должно быть JSON-объектом {…}.".into()));
        }
        serde_json::from_value(v).map(Object).map_err(|e| ApiError::BadRequest(format!("Неверные данные: {e}")))
    }
}

/// A known path with a method it does not take: 405 with the JSON error body.
pub(crate) async fn method_not_allowed() -> (axum::http::StatusCode, Json<serde_json::Value>) {
    let body = serde_json::json!({"error": "method_not_allowed", "message": "Этот метод здесь не поддерживается."});
    (axum::http::StatusCode::METHOD_NOT_ALLOWED, Json(body))
}
type Id = Result<Path<i64>, PathRejection>;

pub fn routes<S: Store>() -> Router<Arc<AppState<S>>> {
    Router::new()
        .route("/games", get(games::list::<S>).post(games::create::<S>))
        .route("/games/{id}", get(games::show::<S>))
        .route("/invites/{invite}", get(games::invite::<S>))
        .route("/invites/{invite}/join", post(games::join::<S>))
        .route("/games/{id}/start", post(games::start::<S>))
        .route("/games/{id}/orders", get(orders::mine::<S>).post(orders::send::<S>))
        .route("/games/{id}/inbox", get(papers::inbox::<S>))
        .route("/games/{id}/newspapers", get(papers::list::<S>))
        .route("/games/{id}/newspapers/{day}/{kind}", get(papers::paper::<S>))
        .route("/games/{id}/report", get(papers::report::<S>))
        .route("/games/{id}/gamefile", get(papers::gamefile::<S>))
        .route("/games/{id}/events", get(papers::events::<S>))
        .route("/games/{id}/host/{action}", post(host::act::<S>))
        .method_not_allowed_fallback(method_not_allowed)
}

/// The logged-in user (401 otherwise); for a mutating request also the CSRF header.
async fn who<S: Store>(st: &AppState<S>, h: &HeaderMap, mutating: bool) -> Result<i64, ApiError> {
    let user = user_of(st, h).await?;
    if mutating {
        require_csrf(h)?;
    }
    Ok(user)
}
