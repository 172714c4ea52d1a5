//! `GET /` of a practice server (`ostrov demo`): the visitor is signed in as a guest when
//! they are not, and sent to their practice game ([`crate::service::demo::arrive`]).

use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::Response;
use ostrov_store::Store;

use super::page::{to, St, Visitor, WebError};
use crate::error::ApiError;
use crate::harden::ClientAddr;
use crate::service;

/// To the visitor's practice game, with a new guest's session cookie.
pub async fn home<S: Store>(st: St<S>, h: &HeaderMap, addr: ClientAddr) -> Result<Response, WebError> {
    let axum::extract::State(st) = st;
    let v = Visitor::of(&st, h).await?;
    let a = service::demo::arrive(&st, v.user.clone(), addr).await?;
    let mut r = to(&format!("/games/{}", a.game));
    if let Some(cookie) = a.session {
        let c = HeaderValue::from_str(&cookie).map_err(|e| ApiError::Internal(e.to_string()))?;
        r.headers_mut().append(header::SET_COOKIE, c);
    }
    Ok(r)
}
