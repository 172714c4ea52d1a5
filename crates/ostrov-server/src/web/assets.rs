//! The pages' static files, compiled into the binary: nothing is fetched at run time.

use axum::extract::Path;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

/// htmx 2.0.11, `dist/htmx.min.js` of the npm package `htmx.org` (see static/README.md).
const HTMX: &str = include_str!("../../static/htmx.min.js");
const APP_JS: &str = include_str!("../../static/app.js");
const APP_CSS: &str = include_str!("../../static/app.css");

/// `GET /static/{file}`.
pub async fn file(Path(name): Path<String>) -> Response {
    let (body, ct) = match name.as_str() {
        "htmx.min.js" => (HTMX, "text/javascript; charset=utf-8"),
        "app.js" => (APP_JS, "text/javascript; charset=utf-8"),
        "app.css" => (APP_CSS, "text/css; charset=utf-8"),
        _ => return (StatusCode::NOT_FOUND, "Не найдено.").into_response(),
    };
    let mut r = body.into_response();
    r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(ct));
    r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=3600"));
    r
}
