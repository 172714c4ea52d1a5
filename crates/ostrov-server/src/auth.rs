//! Accounts: sign-up, login, logout, who am I, and the profile (the gender and the six
//! forms of the name that a game's texts use). Sessions are server-side,
//! in an HttpOnly, SameSite=Strict cookie. Mutating requests must carry the
//! `X-Ostrov-Csrf: 1` header (a cross-site form cannot set it).

use std::sync::Arc;

use argon2::password_hash::rand_core::{OsRng, RngCore};
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use ostrov_store::{Store, StoreError};
use serde::Deserialize;

use crate::app::AppState;
use crate::error::ApiError;
use crate::harden::ClientAddr;
use crate::ratelimit::retry_in;

pub const COOKIE: &str = "ostrov_session";
pub const CSRF_HEADER: &str = "x-ostrov-csrf";
const SESSION_SECS: i64 = 30 * 24 * 3600;

pub fn routes<S: Store>() -> Router<Arc<AppState<S>>> {
    Router::new()
        .route("/signup", post(signup::<S>))
        .route("/login", post(login::<S>))
        .route("/logout", post(logout::<S>))
        .route("/me", get(me::<S>).patch(set_me::<S>))
        .route("/me/password", post(password::<S>))
        .route("/me/sessions/end-others", post(end_others::<S>))
        .method_not_allowed_fallback(crate::extract::method_not_allowed)
}

#[derive(Deserialize)]
pub struct Credentials {
    pub name: String,
    pub password: String,
}

pub fn require_csrf(h: &HeaderMap) -> Result<(), ApiError> {
    match h.get(CSRF_HEADER) {
        Some(v) if v == "1" => Ok(()),
        _ => Err(ApiError::Csrf),
    }
}

/// The session token of the request's cookie.
pub fn token_of(h: &HeaderMap) -> Option<String> {
    let raw = h.get(header::COOKIE)?.to_str().ok()?;
    raw.split(';').map(str::trim).find_map(|kv| kv.strip_prefix(&format!("{COOKIE}=")).map(str::to_string))
}

/// The logged-in user's id, or 401.
pub async fn user_of<S: Store>(st: &AppState<S>, h: &HeaderMap) -> Result<i64, ApiError> {
    let t = token_of(h).ok_or(ApiError::Unauthorized)?;
    st.store.session_user(&t, st.clock.now()).await?.ok_or(ApiError::Unauthorized)
}

/// Opens a session for `user`: the `Set-Cookie` value of its cookie.
pub async fn new_session<S: Store>(st: &AppState<S>, user: i64) -> Result<String, ApiError> {
    let mut b = [0u8; 32];
    OsRng.fill_bytes(&mut b);
    let token = crate::hex::hex(&b);
    st.store.create_session(&token, user, st.clock.now() + SESSION_SECS).await?;
    Ok(format!("{COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/; Max-Age={SESSION_SECS}"))
}

async fn start_session<S: Store>(st: &AppState<S>, user: i64, name: &str) -> Result<Response, ApiError> {
    let cookie = new_session(st, user).await?;
    let mut r = Json(serde_json::json!({"id": user, "name": name})).into_response();
    r.headers_mut()
        .insert(header::SET_COOKIE, HeaderValue::from_str(&cookie).map_err(|e| ApiError::Internal(e.to_string()))?);
    Ok(r)
}

/// Which field of the sign-up or login form an error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Name,
    Password,
    /// Neither (too many attempts, wrong name or password, the server).
    Form,
}

/// The longest password accepted, in bytes (hashing a longer one is a cheap way to burn
/// the server's CPU).
pub const MAX_PASSWORD_BYTES: usize = 1024;

/// "Попробуйте через 40 с." / "через 3 мин." for a wait in seconds.
/// An account name as given, checked: 1–40 characters, no invisible or control ones.
fn account_name(raw: &str) -> Result<&str, ApiError> {
    let name = raw.trim();
    if name.is_empty() || name.chars().count() > 40 {
        return Err(ApiError::BadRequest("Имя должно быть от 1 до 40 символов.".into()));
    }
    if name.chars().any(crate::game::lobby::invisible) {
        return Err(ApiError::BadRequest("Имя не должно содержать невидимых и управляющих символов.".into()));
    }
    Ok(name)
}

/// A password someone chooses, at sign-up or at a change: 8 characters to
/// [`MAX_PASSWORD_BYTES`] bytes.
fn new_password(p: &str) -> Result<(), ApiError> {
    if p.chars().count() < 8 {
        return Err(ApiError::BadRequest("Пароль должен быть не короче 8 символов.".into()));
    }
    if p.len() > MAX_PASSWORD_BYTES {
        return Err(ApiError::BadRequest(format!("Пароль должен быть не длиннее {MAX_PASSWORD_BYTES} байт.")));
    }
    Ok(())
}

/// Creates an account: the new user's id, or the field at fault and the error. Names are
/// one per look-alike-free form (`Вика`, `ВИКА` and `Bика` with a Latin B are one name);
/// each client address may sign up [`crate::ratelimit::SIGNUPS_PER_HOUR`] times an hour.
pub async fn register<S: Store>(st: &AppState<S>, c: &Credentials, addr: ClientAddr) -> Result<i64, (Field, ApiError)> {
    let name = account_name(&c.name).map_err(|e| (Field::Name, e))?;
    new_password(&c.password).map_err(|e| (Field::Password, e))?;
    let key = ostrov_engine::skeleton(name);
    if let Some(ip) = addr.0 {
        st.signups.take(ip, st.clock.now()).map_err(|wait| {
            let m = format!(
                "Слишком много регистраций с этого адреса. Попробуйте через {}.",
                crate::ratelimit::retry_in(wait)
            );
            (Field::Form, ApiError::TooMany(m, wait))
        })?;
    }
    let taken =
        || (Field::Name, ApiError::Conflict("name_taken", "Это имя (или неотличимое от него) уже занято.".into()));
    if st.store.user_by_key(&key).await.map_err(|e| (Field::Form, e.into()))?.is_some() {
        return Err(taken());
    }
    let hash = st.passwords.hash(c.password.clone()).await.map_err(|e| (Field::Form, e))?;
    match st.store.create_user(name, &key, &hash, st.clock.now()).await {
        Ok(id) => Ok(id),
        Err(StoreError::Conflict(_)) => Err(taken()),
        Err(e) => Err((Field::Form, e.into())),
    }
}

/// Checks a name and password, with the login limits of [`crate::ratelimit`] (per account
/// and per address, with backoff; an address the account logged in from passes the
/// account's wait): the user's id and name.
pub async fn verify<S: Store>(st: &AppState<S>, c: &Credentials, addr: ClientAddr) -> Result<(i64, String), ApiError> {
    let name = account_name(&c.name)?;
    if c.password.len() > MAX_PASSWORD_BYTES {
        return Err(ApiError::BadCredentials);
    }
    let key = ostrov_engine::skeleton(name);
    let now = st.clock.now();
    st.logins.check(&key, addr.0, now).map_err(|wait| {
        let m =
            format!("Слишком много неудачных попыток входа. Попробуйте через {}.", crate::ratelimit::retry_in(wait));
        ApiError::TooMany(m, wait)
    })?;
    // The name as written first: an old account whose look-alike took the key logs in by
    // its exact name; then any look-alike spelling of a name.
    let user = match st.store.user_by_name(name).await? {
        Some(u) => Some(u),
        None => st.store.user_by_key(&key).await?,
    };
    let Some(u) = user else {
        st.logins.fail(&key, addr.0, now);
        return Err(ApiError::BadCredentials);
    };
    let right = st.passwords.verify(c.password.clone(), u.password_hash.clone()).await?;
    if !right {
        st.logins.fail(&key, addr.0, now);
        return Err(ApiError::BadCredentials);
    }
    st.logins.succeed(&key, addr.0, now);
    Ok((u.id, u.name))
}

async fn signup<S: Store>(
    State(st): State<Arc<AppState<S>>>,
    addr: ClientAddr,
    h: HeaderMap,
    body: Result<Json<Credentials>, axum::extract::rejection::JsonRejection>,
) -> Result<Response, ApiError> {
    require_csrf(&h)?;
    let Json(c) = body?;
    let id = register(&st, &c, addr).await.map_err(|(_, e)| e)?;
    start_session(&st, id, c.name.trim()).await
}

async fn login<S: Store>(
    State(st): State<Arc<AppState<S>>>,
    addr: ClientAddr,
    h: HeaderMap,
    body: Result<Json<Credentials>, axum::extract::rejection::JsonRejection>,
) -> Result<Response, ApiError> {
    require_csrf(&h)?;
    let Json(c) = body?;
    let (id, name) = verify(&st, &c, addr).await?;
    start_session(&st, id, &name).await
}

async fn logout<S: Store>(State(st): State<Arc<AppState<S>>>, h: HeaderMap) -> Result<Response, ApiError> {
    require_csrf(&h)?;
    if let Some(t) = token_of(&h) {
        st.store.delete_session(&t).await?;
    }
    let mut r = Json(serde_json::json!({"ok": true})).into_response();
    r.headers_mut().insert(
        header::SET_COOKIE,
        HeaderValue::from_static("ostrov_session=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0"),
    );
    Ok(r)
}

/// What `GET /api/me` says of an account: its id, name and profile.
pub fn me_json(u: &ostrov_store::User) -> serde_json::Value {
    serde_json::json!({"id": u.id, "name": u.name, "gender": u.gender, "forms": u.forms})
}

async fn me<S: Store>(State(st): State<Arc<AppState<S>>>, h: HeaderMap) -> Result<Response, ApiError> {
    let id = user_of(&st, &h).await?;
    let u = st.store.user_by_id(id).await?.ok_or(ApiError::Unauthorized)?;
    Ok(Json(me_json(&u)).into_response())
}

/// The six cases in the order of a `forms` list, for messages.
pub const CASES: [&str; 6] = ["именительный", "родительный", "дательный", "винительный", "творительный", "предложный"];

/// Which field of the profile an error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProfileField {
    Gender,
    /// The forms as a whole (how many there are).
    Forms,
    /// One form, by its index (0 = nominative).
    Form(usize),
}

/// A profile as checked, ready to store: the gender's id (`m`/`f`) and the six forms.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Profile {
    pub gender: Option<String>,
    pub forms: Option<Vec<String>>,
}

/// Checks a gender as given: `m`/`f` (also `м`/`ж`, `male`/`female`), or nothing.
pub fn profile_gender(raw: Option<&str>) -> Result<Option<String>, (ProfileField, ApiError)> {
    match raw.map(str::trim).filter(|g| !g.is_empty()) {
        None => Ok(None),
        Some(g) => ostrov_engine::ru::Gender::parse(g).map(|g| Some(g.id().to_string())).ok_or_else(|| {
            let m = "Пол указывается как \"m\" (мужской) или \"f\" (женский); чтобы не указывать его, оставьте пустым."
                .to_string();
            (ProfileField::Gender, ApiError::BadRequest(m))
        }),
    }
}

/// Checks the forms of the account `name`'s name: none, or exactly six, in the order of a
/// game file's `forms` (именительный … предложный), each one clean line of 1 to 40
/// characters with a letter or a digit and no invisible or control characters, the first
/// being the account's name itself or one that looks the same.
pub fn profile_forms(name: &str, raw: Option<&[String]>) -> Result<Option<Vec<String>>, (ProfileField, ApiError)> {
    let bad = |f, m: String| (f, ApiError::BadRequest(m));
    let Some(raw) = raw.filter(|l| !l.is_empty()) else { return Ok(None) };
    if raw.len() != 6 {
        return Err(bad(
            ProfileField::Forms,
            format!("Нужно шесть форм имени по падежам ({}) или ни одной, а не {}.", CASES.join(", "), raw.len()),
        ));
    }
    let mut out = Vec::with_capacity(6);
    for (k, f) in raw.iter().enumerate() {
        let which = format!("Форма {} ({} падеж)", k + 1, CASES[k]);
        if f.chars().any(crate::game::lobby::invisible) {
            return Err(bad(
                ProfileField::Form(k),
                format!("{which} не должна содержать невидимых и управляющих символов."),
            ));
        }
        let form = ostrov_engine::clean_name(f).map_err(|e| {
            let why = match e {
                ostrov_engine::NameProblem::Empty => "пустая".to_string(),
                ostrov_engine::NameProblem::TooLong { max, len } => {
                    format!("длиннее {max} символов ({len})")
                }
                ostrov_engine::NameProblem::NoLetters => "без единой буквы или цифры".to_string(),
            };
            bad(ProfileField::Form(k), format!("{which} {why}: нужно от 1 до 40 символов, с буквой или цифрой."))
        })?;
        out.push(form);
    }
    if ostrov_engine::skeleton(&out[0]) != ostrov_engine::skeleton(name) {
        return Err(bad(
            ProfileField::Form(0),
            format!("Первая форма (именительный падеж) «{}» должна быть вашим именем «{name}».", out[0]),
        ));
    }
    // Forms 2–6 are forms of the name (issue 28, point 6: «Бори» is not one of «Вика»),
    // by the engine's rule: the name's consonants kept (Лёва — Льва, Павел — Павла).
    for (k, f) in out.iter().enumerate().skip(1) {
        if !ostrov_engine::ru::is_form_of(name, f) {
            return Err(bad(
                ProfileField::Form(k),
                format!(
                    "Форма {} ({} падеж) «{f}» — не форма имени «{name}»: формы сохраняют согласные имени \
                     (Лёва — Льва, Павел — Павла, Любовь — Любовью).",
                    k + 1,
                    CASES[k]
                ),
            ));
        }
    }
    // What a game will make of them (the same check a game file's `forms` gets).
    ostrov_engine::ru::Speech::resolve(name, None, Some(&out))
        .map_err(|e| bad(ProfileField::Forms, format!("Формы имени не подходят: {e}.")))?;
    Ok(Some(out))
}

/// The body of `PATCH /api/me`: a key left out keeps its value, `null` clears it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProfileBody {
    #[serde(default, deserialize_with = "present")]
    pub gender: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    pub forms: Option<Option<Vec<String>>>,
    /// The e-mail address (issue 31): `null` or `""` removes it.
    #[serde(default, deserialize_with = "present")]
    pub email: Option<Option<String>>,
}

/// A key that is present (`null` included): `Some`.
fn present<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// Checks and stores a profile for `user`: the account as it is now.
pub async fn save_profile<S: Store>(
    st: &AppState<S>,
    user: &ostrov_store::User,
    p: Profile,
) -> Result<ostrov_store::User, ApiError> {
    st.store.set_profile(user.id, p.gender.as_deref(), p.forms.as_deref()).await?;
    Ok(ostrov_store::User { gender: p.gender, forms: p.forms, ..user.clone() })
}

/// `PATCH /api/me`: sets the gender and the forms of the name. They go into the game file
/// of every game the account plays that starts afterwards (see API.md).
async fn set_me<S: Store>(
    State(st): State<Arc<AppState<S>>>,
    h: HeaderMap,
    body: Result<crate::extract::Object<ProfileBody>, ApiError>,
) -> Result<Response, ApiError> {
    let id = user_of(&st, &h).await?;
    require_csrf(&h)?;
    let crate::extract::Object(b) = body?;
    let u = st.store.user_by_id(id).await?.ok_or(ApiError::Unauthorized)?;
    let gender = match b.gender {
        Some(g) => profile_gender(g.as_deref()).map_err(|(_, e)| e)?,
        None => u.gender.clone(),
    };
    let forms = match b.forms {
        Some(f) => profile_forms(&u.name, f.as_deref()).map_err(|(_, e)| e)?,
        None => u.forms.clone(),
    };
    let email = match &b.email {
        Some(e) => Some(crate::service::mail::set_address(&st, id, e.as_deref()).await?),
        None => None,
    };
    let u = save_profile(&st, &u, Profile { gender, forms }).await?;
    let mut out = me_json(&u);
    if let Some(e) = email {
        out["email"] = serde_json::json!(e);
    }
    Ok(Json(out).into_response())
}

/// Which field of the password form an error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PasswordField {
    Old,
    New,
    /// Neither (too many attempts, the server).
    Form,
}

/// Changes the password of `user`, whose session `keep` asks (issue 28, point 15): the
/// old password is checked under the login limits (a wrong one counts as a failed login of
/// the account from this address), the new one as at sign-up; then every other session of
/// the account ends, in the same transaction, and `keep` stays. The number of sessions ended.
pub async fn change_password<S: Store>(
    st: &AppState<S>,
    user: i64,
    keep: &str,
    old: &str,
    new: &str,
    addr: ClientAddr,
) -> Result<u64, (PasswordField, ApiError)> {
    let form = |e: ApiError| (PasswordField::Form, e);
    if old.is_empty() {
        return Err((PasswordField::Old, ApiError::BadRequest("Введите текущий пароль.".into())));
    }
    new_password(new).map_err(|e| (PasswordField::New, e))?;
    let u = st.store.user_by_id(user).await.map_err(|e| form(e.into()))?.ok_or(form(ApiError::Unauthorized))?;
    let key = ostrov_engine::skeleton(&u.name);
    let now = st.clock.now();
    st.logins.check(&key, addr.0, now).map_err(|wait| {
        let m = format!("Слишком много неудачных попыток ввести пароль. Попробуйте через {}.", retry_in(wait));
        form(ApiError::TooMany(m, wait))
    })?;
    let right = old.len() <= MAX_PASSWORD_BYTES
        && st.passwords.verify(old.to_string(), u.password_hash.clone()).await.map_err(form)?;
    if !right {
        st.logins.fail(&key, addr.0, now);
        return Err((PasswordField::Old, ApiError::WrongPassword));
    }
    st.logins.succeed(&key, addr.0, now);
    let hash = st.passwords.hash(new.to_string()).await.map_err(form)?;
    st.store.set_password(user, &hash, keep).await.map_err(|e| form(e.into()))
}

/// Ends every session of `user` but `keep`, the one that asks: the number ended.
pub async fn end_other_sessions<S: Store>(st: &AppState<S>, user: i64, keep: &str) -> Result<u64, ApiError> {
    Ok(st.store.end_other_sessions(user, keep).await?)
}

/// The session of a request that [`user_of`] let through: its user and token.
async fn session_of<S: Store>(st: &AppState<S>, h: &HeaderMap) -> Result<(i64, String), ApiError> {
    let user = user_of(st, h).await?;
    Ok((user, token_of(h).ok_or(ApiError::Unauthorized)?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PasswordBody {
    pub old: String,
    pub new: String,
}

/// `POST /api/me/password`: `{"old", "new"}`; every other session of the account ends.
async fn password<S: Store>(
    State(st): State<Arc<AppState<S>>>,
    addr: ClientAddr,
    h: HeaderMap,
    body: Result<crate::extract::Object<PasswordBody>, ApiError>,
) -> Result<Response, ApiError> {
    let (user, token) = session_of(&st, &h).await?;
    require_csrf(&h)?;
    let crate::extract::Object(b) = body?;
    let ended = change_password(&st, user, &token, &b.old, &b.new, addr).await.map_err(|(_, e)| e)?;
    Ok(Json(serde_json::json!({"ok": true, "ended": ended})).into_response())
}

/// `POST /api/me/sessions/end-others`: every session of the account but this one ends.
async fn end_others<S: Store>(State(st): State<Arc<AppState<S>>>, h: HeaderMap) -> Result<Response, ApiError> {
    let (user, token) = session_of(&st, &h).await?;
    require_csrf(&h)?;
    let ended = end_other_sessions(&st, user, &token).await?;
    Ok(Json(serde_json::json!({"ok": true, "ended": ended})).into_response())
}
