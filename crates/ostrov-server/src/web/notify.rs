//! The profile's notifications (issue 31): «Подключить Telegram» (to the bot's link with a
//! one-time code), «Отключить», and when to be reminded before a deadline.

use axum::extract::{Form, State};
use axum::http::HeaderMap;
use axum::response::Response;
use ostrov_store::Store;
use serde::Deserialize;

use super::page::{to, St, Visitor, WebError};
use crate::error::ApiError;
use crate::service;

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct TelegramForm {
    csrf: String,
    /// `link` or `unlink`.
    action: String,
}

/// `POST /profile/telegram`: `link` goes to the bot's `t.me` link carrying a new code;
/// `unlink` unlinks the chat and comes back to the profile.
pub async fn telegram<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    Form(f): Form<TelegramForm>,
) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    let id = v.id()?;
    v.check(&f.csrf)?;
    match f.action.as_str() {
        "link" => match service::notify::telegram_code(&st, id).await {
            Ok(code) => super::profile::shown(&st, &v, None, Some(code.link)).await,
            Err(e @ ApiError::Internal(_)) => Err(e.into()),
            Err(e) => Ok(to(&format!("/profile?telegram={}#notify", e.code()))),
        },
        "unlink" => {
            service::notify::telegram_unlink(&st, id).await?;
            Ok(to("/profile?telegram=unlinked#notify"))
        }
        _ => Err(ApiError::BadRequest("Неизвестное действие.".into()).into()),
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct RemindForm {
    csrf: String,
    remind_hours: i64,
}

/// `POST /profile/notify`: the reminder's hours before a deadline (0: off).
pub async fn remind<S: Store>(State(st): St<S>, h: HeaderMap, Form(f): Form<RemindForm>) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    let id = v.id()?;
    v.check(&f.csrf)?;
    service::notify::set_reminder(&st, id, f.remind_hours).await?;
    Ok(to("/profile?telegram=saved#notify"))
}
