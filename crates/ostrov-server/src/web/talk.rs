//! The thread's forms: a post to the thread or the pack's chat, and the host's flag.

use axum::extract::rejection::PathRejection;
use axum::extract::{Form, Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use ostrov_store::Store;
use serde::Deserialize;

use super::desk::confirm_page;
use super::game::{render, Notes};
use super::page::{to, St, Visitor, WebError};
use super::thread::{room_id, room_of};
use crate::error::ApiError;
use crate::game::Room;
use crate::service;
use crate::service::talk::Flag;

type Id = Result<Path<i64>, PathRejection>;

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct PostForm {
    csrf: String,
    room: String,
    text: String,
}

/// `POST /games/{id}/thread`: a post to the thread or the pack's chat.
pub async fn post<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    p: Id,
    Form(f): Form<PostForm>,
) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    let user = v.id()?;
    v.check(&f.csrf)?;
    let Path(id) = p.map_err(ApiError::from)?;
    let room = room_of(&f.room)?;
    let key = if room == Room::Pack { "post_pack" } else { "post" };
    match service::post(&st, id, user, v.name(), room, &f.text).await {
        // The page confirms it by the post box, where the reader's focus goes (issue 30,
        // point 13).
        Ok(_) => Ok(to(&format!("/games/{id}?done=post-{0}#confirm", room_id(room)))),
        // A finished game, and a forum game's thread, show no post form to put the
        // refusal next to: the error page says it, with its 409.
        Err(
            e @ (ApiError::Internal(_)
            | ApiError::Forbidden
            | ApiError::NotFound
            | ApiError::Conflict("game_over" | "forum_game", _)),
        ) => Err(e.into()),
        Err(ApiError::TooMany(m, wait)) => {
            // Too fast (issue 28, point 11): the page with the note of when to post again.
            let mut r = render(&st, &v, id, Notes::error(key, m)).await?;
            *r.status_mut() = axum::http::StatusCode::TOO_MANY_REQUESTS;
            r.headers_mut().insert(axum::http::header::RETRY_AFTER, axum::http::HeaderValue::from(wait.max(1)));
            Ok(r)
        }
        Err(e) => render(&st, &v, id, Notes::error(key, e.message())).await,
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct FlagForm {
    csrf: String,
    /// The post's number (1-based).
    post: String,
    /// `flag`, `unflag` (the host's flag withdrawn) or `dismiss`.
    action: String,
    /// `1` on the confirmation page's second post of a flag (issue 30, point 3).
    confirm: String,
}

/// `POST /games/{id}/flag`: the host flags a post (for a player's post on the open day
/// also the host penalty: that player's vote does not count today), or dismisses an
/// automatic Palms bloom flag.
pub async fn flag<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    p: Id,
    Form(f): Form<FlagForm>,
) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    let user = v.id()?;
    v.check(&f.csrf)?;
    let Path(id) = p.map_err(ApiError::from)?;
    let no: usize = match f.post.trim().parse() {
        Ok(n) if n >= 1 => n,
        _ => return render(&st, &v, id, Notes::error("post", "Не указано, какое сообщение.".into())).await,
    };
    let what = match f.action.as_str() {
        "flag" => Flag::Violation,
        "unflag" => Flag::Withdraw,
        "dismiss" => Flag::DismissPalms,
        _ => return render(&st, &v, id, Notes::error("post", "Неизвестное действие.".into())).await,
    };
    if what == Flag::Violation && f.confirm != "1" {
        // A flag is public and takes the author's vote today: asked again first.
        let question = {
            let (slot, _) = service::reach(&st, id, Some(user)).await?;
            if slot.live.host != user {
                return Err(ApiError::Forbidden.into());
            }
            let p = slot.live.posts.get(no - 1).ok_or(ApiError::NotFound)?;
            format!("Отметить сообщение №{} ({}) как нарушение?", p.shown, p.post.name)
        };
        let fields = vec![("action", f.action.clone()), ("post", f.post.clone())];
        let consequence =
            "Отметку увидят все; если это сообщение игрока за сегодня, его голос сегодня не учитывается. \
                           Снять отметку можно до дедлайна.";
        let action = format!("/games/{id}/flag");
        return Ok(confirm_page(&v, id, question, consequence, "Да, отметить нарушение", action, fields));
    }
    match service::flag(&st, id, user, no, what).await {
        Ok(a) => Ok(to(&format!("/games/{id}#post-{}-{}", room_id(a.room), a.shown))),
        Err(e @ (ApiError::Internal(_) | ApiError::Forbidden | ApiError::NotFound)) => Err(e.into()),
        // A withdrawal's refusal is shown on the host's board, next to the flags.
        Err(e) if what == Flag::Withdraw => render(&st, &v, id, Notes::error("host_unflag", e.message())).await,
        Err(e) => render(&st, &v, id, Notes::error("post", e.message())).await,
    }
}
