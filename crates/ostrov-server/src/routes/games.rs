//! Games: create, list, view, invite, join, start.

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use ostrov_store::Store;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::extract::{who, Body, Id, St};
use crate::error::ApiError;
use crate::extract::Object;
use crate::game::{Config, GameState};
use crate::service::{self, client_request, locked, reach};
use crate::view::{self, Viewer};

/// `POST /api/games`: the host creates a game; the response has its id and invite code.
pub async fn create<S: Store>(State(st): St<S>, h: HeaderMap, body: Body<Config>) -> Result<Response, ApiError> {
    let user = who(&st, &h, true).await?;
    let Object(config) = body?;
    let (created, v) = service::create_game(&st, user, config, |g, now| view::game(g, Viewer::Host, now)).await?;
    let v = v.with_invite(created.invite);
    Ok((StatusCode::CREATED, Json(v)).into_response())
}

/// The query of `GET /api/games`.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// Every game, not only the caller's and those open to join.
    #[serde(default)]
    pub all: bool,
    /// The page, from 1.
    #[serde(default)]
    pub page: Option<usize>,
}

/// `GET /api/games`: the caller's games and the games open to join (`?all=true`: every
/// game), public facts only, newest first, [`crate::listing::PER_PAGE`] a page.
pub async fn list<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    q: Result<axum::extract::Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let user = who(&st, &h, false).await?;
    let axum::extract::Query(q) = q?;
    let page = q.page.unwrap_or(1);
    if page == 0 || page > 1_000_000 {
        return Err(ApiError::BadRequest("Параметр page: номер страницы от 1.".into()));
    }
    let (rows, loading) = crate::listing::games(&st, user, |g| q.all || g.mine() || g.open() || g.seeking()).await?;
    let total = rows.len();
    let (rows, pages) = crate::listing::page(rows, page);
    let games: Vec<serde_json::Value> = rows.iter().map(|g| g.json()).collect();
    Ok(Json(json!({"games": games, "page": page, "pages": pages, "total": total, "loading": loading})).into_response())
}

/// `GET /api/games/{id}`: the game as the caller may see it.
pub async fn show<S: Store>(State(st): St<S>, h: HeaderMap, id: Id) -> Result<Response, ApiError> {
    let user = who(&st, &h, false).await?;
    let Path(id) = id?;
    let (slot, now) = reach(&st, id, Some(user)).await?;
    let viewer = Viewer::of(&slot.live, user);
    let mut v = view::game(&slot.live, viewer, now);
    if viewer == Viewer::Host {
        if let Some(row) = st.store.game(id).await? {
            v = v.with_invite(row.invite);
        }
        v.shared_access = Some(crate::service::sightings::shared(&st, &slot.live).await?);
    }
    Ok(Json(v).into_response())
}

/// `GET /api/invites/{invite}`: what the invite is for.
pub async fn invite<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    p: Result<Path<String>, PathRejection>,
) -> Result<Response, ApiError> {
    let _ = who(&st, &h, false).await?;
    let Path(invite) = p?;
    let id = service::by_invite(&st, &invite).await?;
    let (slot, _) = locked(&st, id).await?;
    let l = &slot.live;
    Ok(Json(json!({
        "id": l.id, "title": l.config.title, "status": l.status, "slots": l.config.slots,
        "members": l.members.iter().map(|m| m.name.clone()).collect::<Vec<_>>(),
    }))
    .into_response())
}

#[derive(Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields)]
pub struct JoinBody {
    /// The player name in this game; the account name by default.
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default, skip_serializing)]
    pub request_id: Option<String>,
}

/// `POST /api/invites/{invite}/join`: takes a seat.
pub async fn join<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    p: Result<Path<String>, PathRejection>,
    body: Body<JoinBody>,
) -> Result<Response, ApiError> {
    let user = who(&st, &h, true).await?;
    let Path(invite) = p?;
    let Object(b) = body?;
    let what = serde_json::to_value(&b).map_err(|e| ApiError::Internal(e.to_string()))?;
    let rid = client_request(user, b.request_id, "join", &what)?;
    let show = |g: &GameState, now| view::game(g, Viewer::of(g, user), now);
    let (_, v) = service::join(&st, user, &invite, b.name, rid, show).await?;
    Ok(Json(json!({"game": v})).into_response())
}

/// `POST /api/games/{id}/start`: the host deals the roles (by the seed) and day 1 opens.
pub async fn start<S: Store>(State(st): St<S>, h: HeaderMap, id: Id) -> Result<Response, ApiError> {
    let user = who(&st, &h, true).await?;
    let Path(id) = id?;
    let v = service::start(&st, user, id, |g, now| view::game(g, Viewer::Host, now)).await?;
    Ok(Json(json!({"game": v})).into_response())
}
