//! «Написать ведущему» (issue 31, point 3): a player of a running game sends the host a
//! short request (a substitute, a question about the rules). Private: the sender sees its
//! own requests, the host every one, nobody else any (no view of the game, no stream, no
//! export holds them: they live in their own table, not in the game's log). The host is
//! told on every channel that is on (Telegram, mail), in the transaction that keeps it.

use std::sync::Arc;

use ostrov_store::{NewNotice, Store};
use serde::Serialize;

use super::locking::reach;
use super::talk::clean_post;
use crate::app::AppState;
use crate::error::ApiError;
use crate::game::{GameState, Status};

/// The longest request, in characters.
pub const MAX_REQUEST: usize = 500;

/// Requests one seat may send in an hour.
pub const PER_HOUR: usize = 3;

/// Requests one seat may send in a game.
pub const PER_GAME: usize = 20;

/// A request as its sender and the host see it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct RequestView {
    pub id: i64,
    /// The sender's name in the game.
    pub name: String,
    pub text: String,
    /// When it was sent (Unix seconds) and in the game's words.
    pub at: i64,
    pub when: String,
}

fn view(live: &GameState, r: &ostrov_store::HostRequest) -> RequestView {
    let name = live
        .members
        .iter()
        .find(|m| m.user == r.user_id)
        .map(|m| m.name.clone())
        .unwrap_or_else(|| "бывший игрок".to_string());
    RequestView { id: r.id, name, text: r.text.clone(), at: r.created_at, when: live.times.say(r.created_at) }
}

/// The requests of game `live` that `user` may read: the host all, a seat's account its
/// own, anyone else none (`None`).
pub async fn readable<S: Store>(
    st: &AppState<S>,
    live: &GameState,
    user: i64,
) -> Result<Option<Vec<RequestView>>, ApiError> {
    let of = if live.host == user {
        None
    } else if live.members.iter().any(|m| m.user == user) {
        Some(user)
    } else {
        return Ok(None);
    };
    let rows = st.store.requests(live.id, of).await?;
    Ok(Some(rows.iter().map(|r| view(live, r)).collect()))
}

/// `GET` of the requests: see [`readable`]; 403 for anyone else.
pub async fn list<S: Store>(st: &Arc<AppState<S>>, id: i64, user: i64) -> Result<Vec<RequestView>, ApiError> {
    let (slot, _) = reach(st, id, Some(user)).await?;
    readable(st, &slot.live, user).await?.ok_or(ApiError::Forbidden)
}

/// The player `user` of running game `id` sends the host `text`.
pub async fn send<S: Store>(st: &Arc<AppState<S>>, id: i64, user: i64, text: &str) -> Result<RequestView, ApiError> {
    let text = clean_post(text);
    let n = text.chars().count();
    if text.is_empty() {
        return Err(ApiError::Invalid("bad_request_text", "Просьба пустая: напишите, что нужно ведущему.".into()));
    }
    if n > MAX_REQUEST {
        return Err(ApiError::Invalid(
            "bad_request_text",
            format!("Просьба длиннее {MAX_REQUEST} символов ({n}): сократите её."),
        ));
    }
    let (slot, now) = reach(st, id, Some(user)).await?;
    let live = &slot.live;
    if live.host == user {
        return Err(ApiError::Conflict("host_request", "Вы ведущий этой игры: писать ведущему некому.".into()));
    }
    let Some(p) = live.seat_of(user) else {
        return Err(ApiError::Conflict("not_a_player", "Написать ведущему может только игрок этой игры.".into()));
    };
    if live.status != Status::Running {
        return Err(ApiError::Conflict("not_running", "Написать ведущему можно, пока игра идёт.".into()));
    }
    let mine = st.store.requests(id, Some(user)).await?;
    if mine.len() >= PER_GAME {
        return Err(ApiError::Conflict(
            "too_many_requests",
            format!("Вы уже отправили ведущему {PER_GAME} просьб в этой игре: больше нельзя, пишите в обсуждении."),
        ));
    }
    let recent: Vec<i64> = mine.iter().map(|r| r.created_at).filter(|t| now - t < 3600).collect();
    if recent.len() >= PER_HOUR {
        let wait = (recent.iter().min().copied().unwrap_or(now) + 3600 - now).max(1);
        let m = format!("Слишком часто: следующую просьбу можно отправить через {}.", crate::ratelimit::retry_in(wait));
        return Err(ApiError::TooMany(m, wait));
    }
    let name = live.members[p.index()].name.clone();
    let mut told = format!("«{}»: {name} пишет ведущему: «{text}»", live.config.title);
    if let Some(site) = &st.notify.site {
        told.push_str(&format!("\n{}/games/{id}#requests", site.trim_end_matches('/')));
    }
    let told = crate::notify::cut(&told, crate::outbox::derive::MAX_TEXT);
    let notice = NewNotice { game_id: id, seq: 0, recipient: live.host, kind: "request".into(), text: told };
    let notices = st.notify.per_channel(vec![notice]);
    let rid = st.store.request_add(id, user, &text, now, &notices).await?;
    Ok(RequestView { id: rid, name, text, at: now, when: live.times.say(now) })
}
