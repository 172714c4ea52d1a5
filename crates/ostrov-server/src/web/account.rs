//! Sign up, log in, log out.

use askama::Template;
use axum::extract::{Form, State};
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
}

impl<'a> AuthPage<'a> {
    fn new(v: &'a Visitor, signup: bool) -> AuthPage<'a> {
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
}

pub async fn signup_page<S: Store>(State(st): St<S>, h: HeaderMap) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    if v.user.is_some() {
        return Ok(to("/"));
    }
    Ok(page(&v, StatusCode::OK, &AuthPage::new(&v, true)))
}

pub async fn login_page<S: Store>(State(st): St<S>, h: HeaderMap) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    if v.user.is_some() {
        return Ok(to("/"));
    }
    Ok(page(&v, StatusCode::OK, &AuthPage::new(&v, false)))
}

fn signed_in(cookie: &str) -> Result<Response, WebError> {
    let mut r = to("/");
    let c = HeaderValue::from_str(cookie).map_err(|e| ApiError::Internal(e.to_string()))?;
    r.headers_mut().insert(header::SET_COOKIE, c);
    Ok(r)
}

fn refused(v: &Visitor, signup: bool, name: &str, field: Field, e: ApiError) -> Response {
    let mut p = AuthPage::new(v, signup);
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
        Ok(id) => signed_in(&auth::new_session(&st, id).await?),
        Err((field, ApiError::Internal(d))) => Err(WebError::Api(ApiError::Internal(format!("{field:?}: {d}")))),
        Err((field, e)) => Ok(refused(&v, true, &f.name, field, e)),
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
        return Ok(refused(&v, false, &f.name, Field::Name, ApiError::BadRequest("Введите имя.".into())));
    }
    if f.password.is_empty() {
        return Ok(refused(&v, false, &f.name, Field::Password, ApiError::BadRequest("Введите пароль.".into())));
    }
    let c = Credentials { name: f.name.clone(), password: f.password };
    match auth::verify(&st, &c, addr).await {
        Ok((id, _)) => signed_in(&auth::new_session(&st, id).await?),
        Err(ApiError::Internal(d)) => Err(WebError::Api(ApiError::Internal(d))),
        Err(e) => Ok(refused(&v, false, &f.name, Field::Form, e)),
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
