//! The profile's notifications (issue 31): «Подключить Telegram» (to the bot's link with a
//! one-time code), «Отключить», and when to be reminded before a deadline.

use axum::extract::{Form, Path, State};
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

#[derive(askama::Template)]
#[template(path = "mail.html")]
struct MailPage<'a> {
    c: super::page::Chrome<'a>,
    heading: &'static str,
    message: String,
    /// The unsubscribe form's address, if the page has one.
    action: Option<String>,
}

fn mail_page(v: &Visitor, heading: &'static str, message: String, action: Option<String>) -> Response {
    let c = super::page::Chrome::new(v, heading);
    super::page::page(v, axum::http::StatusCode::OK, &MailPage { c, heading, message, action })
}

/// `GET /mail/confirm/{token}`: the link of the confirmation mail (no login needed).
pub async fn confirm<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    Path(token): Path<String>,
) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    Ok(if service::mail::confirm(&st, &token).await? {
        let m = "Теперь на этот адрес будут приходить письма об играх. Отписаться можно по ссылке в любом письме \
                 или в профиле.";
        mail_page(&v, "Адрес подтверждён", m.into(), None)
    } else {
        let m =
            "Ссылка не подошла: она неверная, уже использована или старше суток. Укажите адрес в профиле ещё раз — \
                 придёт новое письмо.";
        mail_page(&v, "Ссылка не подошла", m.into(), None)
    })
}

/// `GET /mail/unsubscribe/{secret}`: one button, no login (a mail scanner that follows the
/// link unsubscribes nobody).
pub async fn unsubscribe_page<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    Path(secret): Path<String>,
) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    let action = format!("/mail/unsubscribe/{}", secret.chars().filter(char::is_ascii_hexdigit).collect::<String>());
    let m = "Письма об играх «Острова страха» больше не будут приходить на этот адрес.".to_string();
    Ok(mail_page(&v, "Отписаться от писем", m, Some(action)))
}

/// `POST /mail/unsubscribe/{secret}`: unsubscribes (RFC 8058's one-click `POST` from a
/// mail client too, `List-Unsubscribe=One-Click`), no login.
pub async fn unsubscribe<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    Path(secret): Path<String>,
) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    service::mail::unsubscribe(&st, &secret).await?;
    let m = "Готово: писем об играх больше не будет. Адрес удалён из профиля; указать его снова можно в профиле.";
    Ok(mail_page(&v, "Вы отписались", m.into(), None))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct EmailForm {
    csrf: String,
    email: String,
    /// «Удалить адрес».
    remove: String,
}

/// `POST /profile/email`: sets the address (a confirmation mail goes to it) or removes it.
pub async fn email<S: Store>(State(st): St<S>, h: HeaderMap, Form(f): Form<EmailForm>) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    let id = v.id()?;
    v.check(&f.csrf)?;
    let address = if f.remove.is_empty() { Some(f.email.as_str()) } else { None };
    let now = service::mail::set_address(&st, id, address).await?;
    Ok(to(if now.address.is_some() {
        "/profile?telegram=email_sent#notify"
    } else {
        "/profile?telegram=email_removed#notify"
    }))
}
