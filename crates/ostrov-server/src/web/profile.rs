//! The profile page: the gender and the six forms of the account's name, which a game
//! takes into its game file when it starts (the same checks as `PATCH /api/me`).

use askama::Template;
use axum::extract::{Form, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use ostrov_store::Store;
use serde::Deserialize;

use super::page::{page, to, Chrome, St, Visitor, WebError};
use crate::auth::{self, PasswordField, Profile, ProfileField, CASES};
use crate::error::ApiError;
use crate::harden::ClientAddr;

/// One form's field.
struct FormField {
    /// 1 to 6.
    n: usize,
    label: String,
    value: String,
    error: Option<String>,
}

#[derive(Template)]
#[template(path = "profile.html")]
struct ProfilePage<'a> {
    c: Chrome<'a>,
    name: String,
    saved: bool,
    /// `m`, `f`, or what was sent.
    gender: String,
    gender_error: Option<String>,
    forms_error: Option<String>,
    forms: Vec<FormField>,
    /// What the last password change or "end the other sessions" did, said in Russian.
    sessions_note: Option<String>,
    old_error: Option<String>,
    new_error: Option<String>,
    password_error: Option<String>,
    /// The notifications' settings (issue 31), on the page as shown (not after a refused form).
    notify: Option<crate::service::notify::NotifySettings>,
    notify_note: Option<&'static str>,
    /// The bot's link with a fresh code, right after «Подключить Telegram».
    telegram_link: Option<String>,
}

/// The questions of the cases, after their names: «именительный (кто?)».
const QUESTIONS: [&str; 6] = ["кто?", "кого?", "кому?", "кого?", "кем?", "о ком?"];

impl<'a> ProfilePage<'a> {
    fn new(v: &'a Visitor, gender: Option<&str>, forms: &[String]) -> ProfilePage<'a> {
        ProfilePage {
            c: Chrome::new(v, "Профиль"),
            name: v.name().to_string(),
            saved: false,
            gender: gender.unwrap_or_default().to_string(),
            gender_error: None,
            forms_error: None,
            forms: (0..6)
                .map(|k| FormField {
                    n: k + 1,
                    label: format!("{}. {} ({})", k + 1, CASES[k], QUESTIONS[k]),
                    value: forms.get(k).cloned().unwrap_or_default(),
                    error: None,
                })
                .collect(),
            sessions_note: None,
            old_error: None,
            new_error: None,
            password_error: None,
            notify: None,
            notify_note: None,
            telegram_link: None,
        }
    }
}

/// «Пароль изменён», «других сеансов не было» / «завершено сеансов: 2», from the page's query.
fn sessions_note(query: &str) -> Option<String> {
    let (what, n) = query.split_once('=')?;
    let n: u64 = n.parse().ok()?;
    let ended = match n {
        0 => "других открытых сеансов не было".to_string(),
        n => format!("завершено других сеансов: {n}"),
    };
    match what {
        "password" => Some(format!("Пароль изменён; {ended}.")),
        "ended" if n == 0 => Some("Других открытых сеансов не было.".into()),
        "ended" => Some(format!("Завершено других сеансов: {n}.")),
        _ => None,
    }
}

pub async fn show<S: Store>(State(st): St<S>, h: HeaderMap, q: RawQuery) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    shown(&st, &v, q.0.as_deref(), None).await
}

/// The profile page as shown, after the query `query`, with the bot's `link` when one was
/// just made (a link, not a redirect: the pages' forms post to this site only).
pub(super) async fn shown<S: Store>(
    st: &crate::app::AppState<S>,
    v: &Visitor,
    query: Option<&str>,
    link: Option<String>,
) -> Result<Response, WebError> {
    let id = v.id()?;
    let u = st.store.user_by_id(id).await?.ok_or(WebError::Login)?;
    let mut p = ProfilePage::new(v, u.gender.as_deref(), u.forms.as_deref().unwrap_or_default());
    p.saved = query == Some("saved");
    p.sessions_note = query.and_then(sessions_note);
    p.notify = Some(crate::service::notify::settings_of(st, id).await?);
    p.notify_note = query.and_then(notify_note);
    p.telegram_link = link;
    Ok(page(v, StatusCode::OK, &p))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ProfileForm {
    csrf: String,
    gender: String,
    form1: String,
    form2: String,
    form3: String,
    form4: String,
    form5: String,
    form6: String,
}

/// `POST /profile`: saves the profile and goes back to the page; on bad input, the page
/// again with what was typed and each message next to its field.
pub async fn save<S: Store>(State(st): St<S>, h: HeaderMap, Form(f): Form<ProfileForm>) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    let id = v.id()?;
    v.check(&f.csrf)?;
    let u = st.store.user_by_id(id).await?.ok_or(WebError::Login)?;
    let typed = [f.form1, f.form2, f.form3, f.form4, f.form5, f.form6];
    // Six empty fields are no forms; any typed is all six (an empty one is refused).
    let given = typed.iter().any(|t| !t.trim().is_empty()).then_some(&typed[..]);
    let gender = auth::profile_gender(Some(&f.gender));
    let forms = auth::profile_forms(&u.name, given);
    match (gender, forms) {
        (Ok(gender), Ok(forms)) => {
            auth::save_profile(&st, &u, Profile { gender, forms }).await?;
            Ok(to("/profile?saved"))
        }
        (gender, forms) => {
            let mut p = ProfilePage::new(&v, Some(&f.gender), &typed);
            for (field, e) in [gender.err(), forms.err()].into_iter().flatten() {
                if let ApiError::Internal(_) = e {
                    return Err(e.into());
                }
                let m = Some(e.message());
                match field {
                    ProfileField::Gender => p.gender_error = m,
                    ProfileField::Forms => p.forms_error = m,
                    ProfileField::Form(k) => p.forms[k].error = m,
                }
            }
            Ok(page(&v, StatusCode::UNPROCESSABLE_ENTITY, &p))
        }
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct PasswordForm {
    csrf: String,
    old: String,
    new: String,
}

/// `POST /profile/password`: changes the password (issue 28, point 15) and ends every other
/// session of the account; on a refusal, the page again with the message next to its field.
pub async fn password<S: Store>(
    State(st): St<S>,
    addr: ClientAddr,
    h: HeaderMap,
    Form(f): Form<PasswordForm>,
) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    let id = v.id()?;
    v.check(&f.csrf)?;
    let token = auth::token_of(&h).ok_or(WebError::Login)?;
    match auth::change_password(&st, id, &token, &f.old, &f.new, addr).await {
        Ok(ended) => Ok(to(&format!("/profile?password={ended}"))),
        Err((_, e @ ApiError::Internal(_))) => Err(e.into()),
        Err((field, e)) => {
            let u = st.store.user_by_id(id).await?.ok_or(WebError::Login)?;
            let mut p = ProfilePage::new(&v, u.gender.as_deref(), u.forms.as_deref().unwrap_or_default());
            let m = Some(e.message());
            match field {
                PasswordField::Old => p.old_error = m,
                PasswordField::New => p.new_error = m,
                PasswordField::Form => p.password_error = m,
            }
            let status = if matches!(e, ApiError::TooMany(..)) { e.status() } else { StatusCode::UNPROCESSABLE_ENTITY };
            Ok(page(&v, status, &p))
        }
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct TokenForm {
    csrf: String,
}

/// `POST /profile/sessions`: ends every session of the account but this one.
pub async fn end_others<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    Form(f): Form<TokenForm>,
) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    let id = v.id()?;
    v.check(&f.csrf)?;
    let token = auth::token_of(&h).ok_or(WebError::Login)?;
    let ended = auth::end_other_sessions(&st, id, &token).await?;
    Ok(to(&format!("/profile?ended={ended}")))
}

/// What the profile says after one of these, from its query (`telegram=…`).
fn notify_note(query: &str) -> Option<&'static str> {
    Some(match query.strip_prefix("telegram=")? {
        "unlinked" => "Telegram отключён: уведомлений больше не будет.",
        "saved" => "Напоминание сохранено.",
        "email_sent" => "Адрес сохранён: на него отправлено письмо со ссылкой для подтверждения.",
        "email_removed" => "Адрес удалён: писем больше не будет.",
        "telegram_off" => "На этом сервере Telegram не подключён.",
        "telegram_down" => "Telegram сейчас не отвечает; попробуйте через минуту.",
        "too_many_requests" => "Слишком много кодов подряд; попробуйте позже.",
        _ => return None,
    })
}
