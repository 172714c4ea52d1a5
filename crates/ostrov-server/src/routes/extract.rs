//! What every handler of the API takes: the state, the logged-in user, the path's id and
//! the body.

use std::sync::Arc;

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use ostrov_store::Store;

use crate::app::AppState;
use crate::auth::{require_csrf, user_of};
use crate::error::ApiError;
use crate::extract::Object;

pub(crate) type St<S> = State<Arc<AppState<S>>>;
pub(super) type Body<T> = Result<Object<T>, ApiError>;
pub(super) type Id = Result<Path<i64>, PathRejection>;

/// The logged-in user (401 otherwise); for a mutating request also the CSRF header.
pub(super) async fn who<S: Store>(st: &AppState<S>, h: &HeaderMap, mutating: bool) -> Result<i64, ApiError> {
    let user = user_of(st, h).await?;
    if mutating {
        require_csrf(h)?;
    }
    Ok(user)
}
