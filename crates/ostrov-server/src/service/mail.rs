//! An account's e-mail address (issue 31, point 5): set (it then gets nothing but a
//! confirmation mail), confirmed by the link of that mail, removed, or unsubscribed by the
//! one-click link of any later mail (no login). The confirmation mails are limited per
//! account, per address and in all, so the server cannot be made to mail strangers.

use std::sync::Arc;

use ostrov_store::{NewNotice, Store};
use serde::Serialize;

use crate::app::AppState;
use crate::error::ApiError;
use crate::mail;

/// What an account's address is, as its owner sees it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct EmailState {
    /// The address, if one is set.
    pub address: Option<String>,
    /// Whether it is confirmed (mail is sent only then).
    pub confirmed: bool,
}

fn mailer<S: Store>(st: &AppState<S>) -> Result<(Arc<mail::Mailer>, String), ApiError> {
    match (st.notify.mail.clone(), st.notify.site.clone()) {
        (Some(m), Some(site)) => Ok((m, site.trim_end_matches('/').to_string())),
        _ => Err(ApiError::Conflict("mail_off", "На этом сервере почта не подключена.".into())),
    }
}

/// The account's address as it stands.
pub async fn state<S: Store>(st: &AppState<S>, user: i64) -> Result<EmailState, ApiError> {
    Ok(match st.store.mail_of(user).await? {
        Some(a) => EmailState { address: Some(a.address), confirmed: a.confirmed_at.is_some() },
        None => EmailState { address: None, confirmed: false },
    })
}

/// Sets the account's address (`None` or empty: removes it). A new address is
/// unconfirmed and is sent its confirmation mail; the same address again, unconfirmed,
/// is sent a new one (within the limits); the same confirmed address changes nothing.
pub async fn set_address<S: Store>(st: &AppState<S>, user: i64, raw: Option<&str>) -> Result<EmailState, ApiError> {
    let raw = raw.map(str::trim).filter(|s| !s.is_empty());
    let Some(raw) = raw else {
        st.store.mail_remove(Some(user), None).await?;
        return state(st, user).await;
    };
    let (mailer, site) = mailer(st)?;
    let address = mail::normalise(raw).map_err(|e| ApiError::Invalid("bad_email", format!("E-mail: {e}.")))?;
    if let Some(a) = st.store.mail_of(user).await? {
        if a.address == address && a.confirmed_at.is_some() {
            return state(st, user).await;
        }
    }
    let now = st.clock.now();
    let too_many = |wait: i64| {
        ApiError::TooMany(
            format!("Слишком много писем с подтверждением. Попробуйте через {}.", crate::ratelimit::retry_in(wait)),
            wait,
        )
    };
    mailer.per_account.take(user, now).map_err(too_many)?;
    mailer.per_address.take(mail::address_key(&address), now).map_err(too_many)?;
    mailer.in_all.take(0, now).map_err(too_many)?;
    let token = mail::token();
    st.store.mail_set(user, &address, &token, now + mail::CONFIRM_SECS, &mail::token(), now).await?;
    let link = format!("{site}/mail/confirm/{token}");
    let mut b = [0u8; 6];
    rand_core::RngCore::fill_bytes(&mut rand_core::OsRng, &mut b);
    let seq = b.iter().fold(1i64, |n, x| n << 8 | *x as i64);
    let n = NewNotice {
        game_id: 0,
        seq,
        recipient: user,
        kind: mail::CONFIRM.into(),
        text: mail::confirmation(&address, &link),
    };
    st.store.outbox_put(0, 0, &[n], now).await?;
    state(st, user).await
}

/// Confirms the address whose confirmation link this is: whether it did (the link works
/// once, for a day).
pub async fn confirm<S: Store>(st: &AppState<S>, token: &str) -> Result<bool, ApiError> {
    if token.is_empty() || token.len() > 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Ok(false);
    }
    Ok(st.store.mail_confirm(token, st.clock.now()).await?.is_some())
}

/// Unsubscribes the address whose unsubscribe link this is (it is removed: no more
/// mail): whether there was one.
pub async fn unsubscribe<S: Store>(st: &AppState<S>, secret: &str) -> Result<bool, ApiError> {
    if secret.is_empty() || secret.len() > 64 || !secret.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Ok(false);
    }
    Ok(st.store.mail_remove(None, Some(secret)).await?.is_some())
}
