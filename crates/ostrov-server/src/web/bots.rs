//! Seat bots on the lobby page (issue 32): the host's «Посадить ботов» and «Убрать» forms.

use std::sync::Arc;

use axum::extract::rejection::PathRejection;
use axum::extract::{Form, Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use ostrov_store::Store;
use serde::Deserialize;

use super::page::{to, St, Visitor, WebError};
use crate::app::AppState;
use crate::error::ApiError;
use crate::service;

/// The «Посадить ботов» form: how many (a number typed, so read as text).
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct AddForm {
    csrf: String,
    count: String,
}

/// The «Убрать» form of one bot.
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct RemoveForm {
    csrf: String,
    name: String,
}

/// A refusal shown next to the lobby's bot forms, or the error page.
async fn answer<S: Store>(
    st: &Arc<AppState<S>>,
    v: &Visitor,
    id: i64,
    done: Result<(), ApiError>,
) -> Result<Response, WebError> {
    match done {
        Ok(()) => Ok(to(&format!("/games/{id}"))),
        Err(e @ (ApiError::Conflict(..) | ApiError::Invalid(..) | ApiError::BadRequest(..))) => {
            super::game::render(st, v, id, super::game::Notes::error("bots", e.message())).await
        }
        Err(e) => Err(e.into()),
    }
}

/// `POST /games/{id}/bots`: the host seats that many bots in free seats.
pub async fn add<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    p: Result<Path<i64>, PathRejection>,
    Form(f): Form<AddForm>,
) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    let user = v.id()?;
    v.check(&f.csrf)?;
    let Path(id) = p.map_err(ApiError::from)?;
    let done = match f.count.trim().parse::<usize>() {
        Ok(n) => service::bots::add_bots(&st, user, id, n).await.map(drop),
        Err(_) => Err(ApiError::Invalid("bad_count", "Сколько ботов посадить: нужно число, например 3.".into())),
    };
    answer(&st, &v, id, done).await
}

/// `POST /games/{id}/bots/remove`: the host takes a bot out of its seat before the start.
pub async fn remove<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    p: Result<Path<i64>, PathRejection>,
    Form(f): Form<RemoveForm>,
) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    let user = v.id()?;
    v.check(&f.csrf)?;
    let Path(id) = p.map_err(ApiError::from)?;
    let done = service::bots::remove_bot(&st, user, id, &f.name).await;
    answer(&st, &v, id, done).await
}
