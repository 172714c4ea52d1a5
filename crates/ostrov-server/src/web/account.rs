//! Sign up, log in, log out.

use askama::Template;
use axum::extract::{Form, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use ostrov_store::Store;
use serde::Deserialize;

use super::page::{page, to, Chrome, St, Visitor, WebError};
use crate::auth::{self, Credentials, Field};
use crate::error::ApiError;
use crate::harden::ClientAddr;

#[derive(Template)]
#[template(path = "auth.html")]
struct AuthPage<'a> {
    c: Chrome<'a>,
    heading: &'static str,
    action: &'static str,
    button: &'static str,
    signup: bool,
    name: String,
    form_error: Option<String>,
    name_error: Option<String>,
    password_error: Option<String>,
    /// Where to go once signed in (a local path, [`safe_next`]); empty: the home page.
    next: String,
}

impl AuthPage<'_> {
    /// `?next=…` for the links between the two forms, or nothing.
    pub fn next_query(&self) -> String {
        if self.next.is_empty() {
            String::new()
        } else {
            format!("?next={}", percent(&self.next))
        }
    }
}

/// Where a sign-in may send the reader on (issue 30, point 10): only a path of this site —
/// one `/` then not a second `/` or `\\` (a scheme-relative `//evil.example` or `/\\evil`
/// leaves the site), no control character or space, at most 300 bytes. Anything else is
/// dropped, and the reader lands on the home page.
pub fn safe_next(s: &str) -> Option<String> {
    let ok = s.len() <= 300
        && s.starts_with('/')
        && !s[1..].starts_with(['/', '\\'])
        && !s.contains('\\')
        && !s.chars().any(|c| c.is_control() || c.is_whitespace());
    ok.then(|| s.to_string())
}

/// `s` percent-encoded for a query's value (everything but unreserved characters).
pub fn percent(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `?next=…` of the sign-in pages.
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct NextQuery {
    next: String,
}

impl<'a> AuthPage<'a> {
    fn new(v: &'a Visitor, signup: bool, next: &str) -> AuthPage<'a> {
        let (heading, action, button) = if signup {
            ("Регистрация", "/signup", "Зарегистрироваться")
        } else {
            ("Вход", "/login", "Войти")
        };
        AuthPage {
            c: Chrome::new(v, heading),
            heading,
            action,
            button,
            signup,
            name: String::new(),
            form_error: None,
            name_error: None,
            password_error: None,
            next: safe_next(next).unwrap_or_default(),
        }
    }
}

#[derive(Deserialize)]
pub struct AuthForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    next: String,
}

type Next = Result<Query<NextQuery>, axum::extract::rejection::QueryRejection>;

fn next_of(q: Next) -> String {
    q.map(|Query(q)| q.next).unwrap_or_default()
}

pub async fn signup_page<S: Store>(State(st): St<S>, h: HeaderMap, q: Next) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    let next = next_of(q);
    if v.user.is_some() {
        return Ok(to(&safe_next(&next).unwrap_or_else(|| "/".into())));
    }
    Ok(page(&v, StatusCode::OK, &AuthPage::new(&v, true, &next)))
}

pub async fn login_page<S: Store>(State(st): St<S>, h: HeaderMap, q: Next) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    let next = next_of(q);
    if v.user.is_some() {
        return Ok(to(&safe_next(&next).unwrap_or_else(|| "/".into())));
    }
    Ok(page(&v, StatusCode::OK, &AuthPage::new(&v, false, &next)))
}

fn signed_in(cookie: &str, next: &str) -> Result<Response, WebError> {
    let mut r = to(&safe_next(next).unwrap_or_else(|| "/".into()));
    let c = HeaderValue::from_str(cookie).map_err(|e| ApiError::Internal(e.to_string()))?;
    r.headers_mut().insert(header::SET_COOKIE, c);
    Ok(r)
}

fn refused(v: &Visitor, signup: bool, name: &str, next: &str, field: Field, e: ApiError) -> Response {
    let mut p = AuthPage::new(v, signup, next);
    p.name = name.to_string();
    let status = e.status();
    match field {
        Field::Name => p.name_error = Some(e.message()),
        Field::Password => p.password_error = Some(e.message()),
        Field::Form => p.form_error = Some(e.message()),
    }
    page(v, if status.is_server_error() { status } else { StatusCode::UNPROCESSABLE_ENTITY }, &p)
}

pub async fn signup<S: Store>(
    State(st): St<S>,
    addr: ClientAddr,
    h: HeaderMap,
    Form(f): Form<AuthForm>,
) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    v.check(&f.csrf)?;
    let c = Credentials { name: f.name.clone(), password: f.password };
    match auth::register(&st, &c, addr).await {
        Ok(id) => signed_in(&auth::new_session(&st, id).await?, &f.next),
        Err((field, ApiError::Internal(d))) => Err(WebError::Api(ApiError::Internal(format!("{field:?}: {d}")))),
        Err((field, e)) => Ok(refused(&v, true, &f.name, &f.next, field, e)),
    }
}

pub async fn login<S: Store>(
    State(st): St<S>,
    addr: ClientAddr,
    h: HeaderMap,
    Form(f): Form<AuthForm>,
) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    v.check(&f.csrf)?;
    if f.name.trim().is_empty() {
        return Ok(refused(&v, false, &f.name, &f.next, Field::Name, ApiError::BadRequest("Введите имя.".into())));
    }
    if f.password.is_empty() {
        return Ok(refused(
            &v,
            false,
            &f.name,
            &f.next,
            Field::Password,
            ApiError::BadRequest("Введите пароль.".into()),
        ));
    }
    let c = Credentials { name: f.name.clone(), password: f.password };
    match auth::verify(&st, &c, addr).await {
        Ok((id, _)) => signed_in(&auth::new_session(&st, id).await?, &f.next),
        Err(ApiError::Internal(d)) => Err(WebError::Api(ApiError::Internal(d))),
        Err(e) => Ok(refused(&v, false, &f.name, &f.next, Field::Form, e)),
    }
}

#[derive(Deserialize)]
pub struct TokenForm {
    #[serde(default)]
    csrf: String,
}

pub async fn logout<S: Store>(State(st): St<S>, h: HeaderMap, Form(f): Form<TokenForm>) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    v.check(&f.csrf)?;
    if let Some(t) = auth::token_of(&h) {
        st.store.delete_session(&t).await?;
    }
    let mut r = to("/");
    r.headers_mut().insert(
        header::SET_COOKIE,
        HeaderValue::from_static("ostrov_session=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0"),
    );
    Ok(r)
}
