//! What a game publishes: the newspapers (to everyone), a player's private messages (to
//! that player), and for the host (for everyone once the game is over) the full report,
//! the game file that replays the game, and the raw event log.

use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use ostrov_engine::Report;
use ostrov_paper::Format;
use ostrov_store::Store;
use serde::Deserialize;
use serde_json::json;

use super::extract::{who, Id, St};
use crate::error::ApiError;
use crate::game::{GameEvent, Room};
use crate::service::{reach, reach_papers};
use crate::view::{self, Viewer};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FormatQuery {
    #[serde(default)]
    format: Option<String>,
}

fn format_of(q: Result<Query<FormatQuery>, QueryRejection>, default: &str) -> Result<String, ApiError> {
    let Query(q) = q?;
    Ok(q.format.unwrap_or_else(|| default.to_string()))
}

/// The query of the newspapers: the format, and the key of a private game's newspaper
/// links (O-PRIVATE-1).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaperQuery {
    #[serde(default)]
    format: Option<String>,
    #[serde(default)]
    key: Option<String>,
}

fn paper_format(s: &str) -> Result<Format, ApiError> {
    s.parse::<Format>().map_err(|_| {
        ApiError::BadRequest(format!(
            "Неизвестный формат «{s}»: нужен markdown, gfm, bbcode, bbcode-tables, html, html-fragment или plain."
        ))
    })
}

fn text(body: String, format: Format) -> Response {
    let ct = match format {
        Format::Html | Format::HtmlFragment => "text/html; charset=utf-8",
        Format::Markdown | Format::Gfm => "text/markdown; charset=utf-8",
        _ => "text/plain; charset=utf-8",
    };
    let mut r = body.into_response();
    r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(ct));
    r
}

/// `GET /api/games/{id}/newspapers[?key=…]`: the published newspapers (of a private game:
/// to its host and players, or with its newspaper key, which the urls then carry).
pub async fn list<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    id: Id,
    q: Result<Query<PaperQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let user = who(&st, &h, false).await?;
    let Path(id) = id?;
    let Query(q) = q?;
    let (slot, _) = reach_papers(&st, id, Some(user), q.key.as_deref()).await?;
    let key = q.key.filter(|_| !slot.live.reachable(Some(user))).map(|k| format!("?key={k}")).unwrap_or_default();
    let v: Vec<_> = view::published(&slot.live)
        .into_iter()
        .map(|(day, kind)| {
            json!({"day": day, "kind": kind, "url": format!("/api/games/{id}/newspapers/{day}/{kind}{key}")})
        })
        .collect();
    Ok(Json(json!(v)).into_response())
}

/// `GET /api/games/{id}/newspapers/{day}/{kind}?format=markdown|bbcode|html|plain[&key=…]`.
pub async fn paper<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    p: Result<Path<(i64, u32, String)>, PathRejection>,
    q: Result<Query<PaperQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let user = who(&st, &h, false).await?;
    let Path((id, day, kind)) = p?;
    let Query(q) = q?;
    let f = paper_format(q.format.as_deref().unwrap_or("markdown"))?;
    let (slot, _) = reach_papers(&st, id, Some(user), q.key.as_deref()).await?;
    let live = &slot.live;
    if !view::published(live).iter().any(|(d, k)| *d == day && *k == kind) {
        return Err(ApiError::NotFound);
    }
    let doc = view::paper(live, day, &kind).ok_or(ApiError::NotFound)?;
    Ok(text(doc.render(f), f))
}

/// `GET /api/games/{id}/inbox?format=…`: the caller's private messages (JSON by default).
pub async fn inbox<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    id: Id,
    q: Result<Query<FormatQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let user = who(&st, &h, false).await?;
    let Path(id) = id?;
    let fmt = format_of(q, "json")?;
    let (slot, _) = reach(&st, id, Some(user)).await?;
    let Some(seat) = slot.live.seat_of(user) else { return Err(ApiError::Forbidden) };
    let Some(m) = &slot.live.m else {
        return Err(ApiError::Conflict("not_started", "Игра ещё не началась.".into()));
    };
    if fmt == "json" {
        let v: Vec<_> = m
            .state()
            .notices_to(seat)
            .map(|n| json!({"day": n.day, "text": ostrov_engine::notice_text(m.state(), n)}))
            .collect();
        return Ok(Json(json!(v)).into_response());
    }
    let f = paper_format(&fmt)?;
    Ok(text(ostrov_paper::inbox(m, seat, None, f), f))
}

/// The game locked for a viewer who sees all of it (the host; anyone once the game is
/// over), and the viewer's account.
async fn full_view<S: Store>(
    st: &std::sync::Arc<crate::app::AppState<S>>,
    h: &HeaderMap,
    id: i64,
) -> Result<(tokio::sync::OwnedMutexGuard<crate::cache::LoadedGame>, i64), ApiError> {
    let user = who(st, h, false).await?;
    let (slot, _) = reach(st, id, Some(user)).await?;
    if !Viewer::of(&slot.live, user).sees_all(&slot.live) {
        return Err(ApiError::Forbidden);
    }
    Ok((slot, user))
}

/// `GET /api/games/{id}/report`: the JSON report of GAME_FILE.md (host; all once over).
pub async fn report<S: Store>(State(st): St<S>, h: HeaderMap, id: Id) -> Result<Response, ApiError> {
    let Path(id) = id?;
    let (slot, _) = full_view(&st, &h, id).await?;
    let m = slot.live.m.as_ref().ok_or_else(|| ApiError::Conflict("not_started", "Игра ещё не началась.".into()))?;
    let mut r = Report::of(m).to_json().into_response();
    r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    Ok(r)
}

/// `GET /api/games/{id}/review`: the game day by day with every role, vote and order
/// ([`crate::review::ReviewView`]): to the host at any time, to whoever may reach the game
/// once it is over; 404 to anyone else.
pub async fn review<S: Store>(State(st): St<S>, h: HeaderMap, id: Id) -> Result<Response, ApiError> {
    let user = who(&st, &h, false).await?;
    let Path(id) = id?;
    let (slot, _) = reach(&st, id, Some(user)).await?;
    let r = crate::review::review(&slot.live, Viewer::of(&slot.live, user)).ok_or(ApiError::NotFound)?;
    Ok(Json(r).into_response())
}

/// `GET /api/games/{id}/gamefile?format=toml|json`: the game file (GAME_FILE.md) that
/// `ostrov resolve` replays into this game (host; all once over).
pub async fn gamefile<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    id: Id,
    q: Result<Query<FormatQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Path(id) = id?;
    let fmt = format_of(q, "toml")?;
    let (slot, _) = full_view(&st, &h, id).await?;
    let file = &slot.live.exported();
    let (body, ct) = match fmt.as_str() {
        "toml" => (file.to_toml(), "application/toml; charset=utf-8"),
        "json" => {
            (serde_json::to_string_pretty(file).map_err(|e| ApiError::Internal(e.to_string()))?, "application/json")
        }
        other => return Err(ApiError::BadRequest(format!("Неизвестный формат «{other}»: нужен toml или json."))),
    };
    let mut r = body.into_response();
    r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(ct));
    Ok(r)
}

/// `GET /api/games/{id}/events`: the game's whole log, for audit (host; all once over).
/// The pack's chat stays the pack's and the host's (O-THREAD-4), also once the game is
/// over: for anyone else its posts are left out (issue 28, the leak test over every
/// channel), and nothing they get counts them: the entries are numbered 1, 2, 3 … among
/// those shown, and a flag names its post by its place among the posts shown (point 2).
pub async fn events<S: Store>(State(st): St<S>, h: HeaderMap, id: Id) -> Result<Response, ApiError> {
    let Path(id) = id?;
    let (slot, user) = full_view(&st, &h, id).await?;
    let reads_pack = crate::service::talk::may_read(&slot.live, user, Room::Pack);
    drop(slot);
    let events = st.store.events(id).await?;
    let mut posts = 0usize;
    // The number, among the posts this reader sees, of each post of the log.
    let mut shown_post: Vec<Option<usize>> = Vec::new();
    let mut v = Vec::with_capacity(events.len());
    for e in events {
        let mut payload = e.payload;
        match GameEvent::join(&e.kind, &payload) {
            Ok(GameEvent::Posted { post, .. }) => {
                let shown = reads_pack || post.room != Room::Pack;
                shown_post.push(shown.then_some(posts));
                if !shown {
                    continue;
                }
                posts += 1;
            }
            Ok(GameEvent::Flagged { post } | GameEvent::Dismissed { post }) if !reads_pack => {
                match shown_post.get(post).copied().flatten() {
                    Some(n) => payload["post"] = json!(n),
                    None => continue,
                }
            }
            _ => {}
        }
        // Without the pack's posts, the entries are numbered anew, so no gap counts them.
        let seq = if reads_pack { e.seq } else { v.len() as i64 + 1 };
        v.push(json!({"seq": seq, "at": e.at, "author": e.author, "request_id": e.client_request_id,
                      "kind": e.kind, "payload": payload}));
    }
    Ok(Json(json!(v)).into_response())
}
