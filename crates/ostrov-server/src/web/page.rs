//! What every page is made of: the visitor (session and CSRF token), the frame around a
//! page ([`Chrome`]), the answer ([`page`], [`to`]) and the error page ([`WebError`]).

use std::sync::Arc;

use askama::Template;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use blake2::{Blake2s256, Digest};
use ostrov_store::Store;

use crate::app::AppState;
use crate::error::ApiError;

/// The server's state, as the pages' handlers take it.
pub(crate) type St<S> = axum::extract::State<Arc<AppState<S>>>;

/// The cookie that carries a visitor's CSRF secret before they have a session.
pub const PRE_COOKIE: &str = "ostrov_pre";

/// Who is looking at a page: the signed-in user, if any, and the CSRF token of their forms.
pub struct Visitor {
    pub user: Option<(i64, String)>,
    pub csrf: String,
    /// A pre-session secret made for this request, to be set as a cookie.
    fresh: Option<String>,
}

fn digest(secret: &str) -> String {
    let mut h = Blake2s256::new();
    h.update(b"ostrov-csrf\0");
    h.update(secret.as_bytes());
    crate::hex::hex(&h.finalize()[..16])
}

fn cookie(h: &HeaderMap, name: &str) -> Option<String> {
    let prefix = format!("{name}=");
    h.get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .map(str::trim)
        .find_map(|kv| kv.strip_prefix(&prefix).map(str::to_string))
        .filter(|v| !v.is_empty() && v.len() <= 128)
}

impl Visitor {
    /// The visitor of a request.
    pub async fn of<S: Store>(st: &AppState<S>, h: &HeaderMap) -> Result<Visitor, ApiError> {
        if let Some(token) = cookie(h, crate::auth::COOKIE) {
            if let Some(id) = st.store.session_user(&token, st.clock.now()).await? {
                if let Some(u) = st.store.user_by_id(id).await? {
                    return Ok(Visitor {
                        user: Some((u.id, u.name)),
                        csrf: digest(&format!("s:{token}")),
                        fresh: None,
                    });
                }
            }
        }
        let (pre, fresh) = match cookie(h, PRE_COOKIE) {
            Some(p) => (p, None),
            None => {
                use argon2::password_hash::rand_core::{OsRng, RngCore};
                let mut b = [0u8; 16];
                OsRng.fill_bytes(&mut b);
                let p = crate::hex::hex(&b);
                (p.clone(), Some(p))
            }
        };
        Ok(Visitor { user: None, csrf: digest(&format!("p:{pre}")), fresh })
    }

    /// A signed-in visitor with a given form token, for rendering outside a request (the
    /// page benchmark).
    pub fn signed_in(user: i64, name: &str, csrf: &str) -> Visitor {
        Visitor { user: Some((user, name.to_string())), csrf: csrf.to_string(), fresh: None }
    }

    /// The signed-in user's id, or a redirect to the login page.
    pub fn id(&self) -> Result<i64, WebError> {
        self.user.as_ref().map(|u| u.0).ok_or(WebError::Login)
    }

    pub fn name(&self) -> &str {
        self.user.as_ref().map_or("", |u| u.1.as_str())
    }

    /// Checks a form's token (constant time); 403 otherwise.
    pub fn check(&self, token: &str) -> Result<(), WebError> {
        let (a, b) = (self.csrf.as_bytes(), token.as_bytes());
        let same = a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0;
        if same && self.fresh.is_none() {
            Ok(())
        } else {
            Err(WebError::Csrf)
        }
    }
}

/// The layout's facts every page needs.
pub struct Chrome<'a> {
    pub title: String,
    pub user: Option<&'a str>,
    pub csrf: &'a str,
}

impl<'a> Chrome<'a> {
    pub fn new(v: &'a Visitor, title: impl Into<String>) -> Chrome<'a> {
        Chrome { title: title.into(), user: v.user.as_ref().map(|u| u.1.as_str()), csrf: &v.csrf }
    }
}

/// A rendered page (with the visitor's fresh pre-session cookie, if one was made).
pub fn page(v: &Visitor, status: StatusCode, t: &impl Template) -> Response {
    match t.render() {
        Ok(body) => {
            let mut r = (status, body).into_response();
            let hs = r.headers_mut();
            hs.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
            hs.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            if let Some(p) = &v.fresh {
                let c = format!("{PRE_COOKIE}={p}; HttpOnly; SameSite=Strict; Path=/; Max-Age=86400");
                if let Ok(c) = HeaderValue::from_str(&c) {
                    hs.append(header::SET_COOKIE, c);
                }
            }
            r
        }
        Err(e) => WebError::Api(ApiError::Internal(e.to_string())).into_response(),
    }
}

/// A "303 See Other" to `to` (the answer to a form post that worked).
pub fn to(to: &str) -> Response {
    Redirect::to(to).into_response()
}

/// What a page answers when something is wrong.
#[derive(Debug)]
pub enum WebError {
    /// Not signed in: to the login page.
    Login,
    /// A form post without the right token.
    Csrf,
    Api(ApiError),
}

impl From<ostrov_store::StoreError> for WebError {
    fn from(e: ostrov_store::StoreError) -> Self {
        WebError::Api(e.into())
    }
}

impl From<ApiError> for WebError {
    fn from(e: ApiError) -> Self {
        match e {
            ApiError::Unauthorized => WebError::Login,
            e => WebError::Api(e),
        }
    }
}

#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage<'a> {
    c: Chrome<'a>,
    message: String,
}

impl IntoResponse for WebError {
    fn into_response(self) -> Response {
        let (status, message) = match self {
            WebError::Login => return to("/login"),
            WebError::Csrf => (
                StatusCode::FORBIDDEN,
                "Запрос отклонён: форма устарела или отправлена с другого сайта. Обновите страницу и попробуйте ещё раз."
                    .to_string(),
            ),
            WebError::Api(e) => {
                if let ApiError::Internal(d) = &e {
                    eprintln!("ostrov-server: internal error: {d}");
                }
                (e.status(), e.message())
            }
        };
        let v = Visitor { user: None, csrf: String::new(), fresh: None };
        let c = Chrome { title: "Ошибка".into(), user: None, csrf: "" };
        let mut r = page(&v, status, &ErrorPage { c, message });
        *r.status_mut() = status;
        r
    }
}
