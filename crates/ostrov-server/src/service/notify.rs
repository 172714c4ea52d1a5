//! Notifications of an account (issue 31): linking a Telegram chat by a one-time code,
//! unlinking it, and the reminder setting. The chat id is never part of an answer.

use std::sync::Arc;

use ostrov_store::Store;
use serde::Serialize;

use crate::app::AppState;
use crate::error::ApiError;
pub use crate::notify::{CODES_PER_HOUR, CODE_SECS};
use crate::notify::{DEFAULT_REMIND_HOURS, REMIND_CHOICES};

/// A new link code and the bot's link that carries it.
#[derive(Clone, Debug, Serialize)]
pub struct LinkCode {
    pub code: String,
    pub link: String,
    /// Seconds it works.
    pub expires_in: i64,
}

/// What an account has set: whether a chat is linked and the reminder's hours (0: off).
#[derive(Clone, Debug, Serialize)]
pub struct NotifySettings {
    /// Whether this server has a Telegram bot at all.
    pub telegram_available: bool,
    pub telegram_linked: bool,
    pub remind_hours: i64,
    /// The account's e-mail address, when this server sends mail (`--smtp`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<super::mail::EmailState>,
}

fn bot<S: Store>(st: &AppState<S>) -> Result<Arc<crate::telegram::Bot>, ApiError> {
    st.notify
        .telegram
        .clone()
        .ok_or_else(|| ApiError::Conflict("telegram_off", "На этом сервере Telegram не подключён.".into()))
}

/// A one-time code that links the chat it is sent from (`/start <code>`) to `user`, with the
/// `https://t.me/<bot>?start=<code>` link.
pub async fn telegram_code<S: Store>(st: &Arc<AppState<S>>, user: i64) -> Result<LinkCode, ApiError> {
    let bot = bot(st)?;
    let now = st.clock.now();
    st.link_codes.take(user, now).map_err(|wait| {
        ApiError::TooMany(
            format!("Слишком много кодов подряд. Попробуйте через {}.", crate::ratelimit::retry_in(wait)),
            wait,
        )
    })?;
    let name = bot.username().await.map_err(|e| {
        eprintln!("ostrov-server: telegram: getMe: {e}");
        ApiError::Conflict("telegram_down", "Telegram сейчас не отвечает; попробуйте через минуту.".into())
    })?;
    let mut b = [0u8; 12];
    rand_core::RngCore::fill_bytes(&mut rand_core::OsRng, &mut b);
    let code = crate::hex::hex(&b);
    st.store.telegram_code_put(user, &code, now + CODE_SECS).await?;
    Ok(LinkCode { link: format!("https://t.me/{name}?start={code}"), code, expires_in: CODE_SECS })
}

/// Links `chat` to the account whose code it sent: the account's name. The code works once.
pub async fn telegram_link<S: Store>(st: &Arc<AppState<S>>, chat: i64, code: &str) -> Result<String, ApiError> {
    let bad = || {
        ApiError::Invalid(
            "bad_code",
            "Код не подошёл: он неверный, уже использован или истёк (код действует 15 минут). \
             Получите новый в профиле на сайте: «Подключить Telegram»."
                .into(),
        )
    };
    if code.is_empty() || code.len() > 64 || !code.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(bad());
    }
    let now = st.clock.now();
    let user = st.store.telegram_code_take(code, now).await?.ok_or_else(bad)?;
    st.store.telegram_link(user, chat, now).await?;
    let name = st.store.user_by_id(user).await?.map(|u| u.name).unwrap_or_default();
    Ok(name)
}

/// Unlinks the account's chat: whether one was linked.
pub async fn telegram_unlink<S: Store>(st: &Arc<AppState<S>>, user: i64) -> Result<bool, ApiError> {
    Ok(st.store.telegram_unlink(Some(user), None).await?.is_some())
}

/// The account's settings.
pub async fn settings<S: Store>(st: &Arc<AppState<S>>, user: i64) -> Result<NotifySettings, ApiError> {
    settings_of(st, user).await
}

/// [`settings`] of a borrowed state.
pub async fn settings_of<S: Store>(st: &AppState<S>, user: i64) -> Result<NotifySettings, ApiError> {
    Ok(NotifySettings {
        telegram_available: st.notify.telegram.is_some(),
        telegram_linked: st.store.telegram_chat(user).await?.is_some(),
        remind_hours: st.store.remind_hours(user).await?.unwrap_or(DEFAULT_REMIND_HOURS),
        email: match st.notify.mail {
            Some(_) => Some(super::mail::state(st, user).await?),
            None => None,
        },
    })
}

/// Sets when the account is reminded: 0 (off), 1, 2 or 6 hours before the deadline.
pub async fn set_reminder<S: Store>(st: &Arc<AppState<S>>, user: i64, hours: i64) -> Result<(), ApiError> {
    if !REMIND_CHOICES.contains(&hours) {
        return Err(ApiError::BadRequest("Напоминание: 0 (не напоминать), 1, 2 или 6 часов до дедлайна.".into()));
    }
    st.store.set_remind_hours(user, hours).await?;
    Ok(())
}
