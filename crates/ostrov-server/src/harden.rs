//! What every response carries and what every request is known by: the security headers,
//! the `Secure` flag of cookies over HTTPS, and the client's address (for the login and
//! sign-up limits).

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::{header, request::Parts, HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// How the server is reached, set by `ostrov serve`.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The server is reached over HTTPS (`--public-url https://…`): cookies are `Secure`.
    pub https: bool,
    /// A reverse proxy in front is trusted (`--trust-proxy`): the client's address is the
    /// last one of `X-Forwarded-For`, and `X-Forwarded-Proto: https` makes cookies `Secure`.
    pub trust_proxy: bool,
}

/// The pages' policy: everything from the server itself, nothing inline, no framing.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                       connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
                       frame-ancestors 'none'";

/// The client's address: the peer of the connection, or the proxy's `X-Forwarded-For` when
/// the proxy is trusted; `None` in-process (tests without a socket).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClientAddr(pub Option<IpAddr>);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(parts.extensions.get::<ClientAddr>().copied().unwrap_or_default())
    }
}

fn forwarded_for(h: &HeaderMap) -> Option<IpAddr> {
    let last = h.get_all("x-forwarded-for").iter().next_back()?.to_str().ok()?;
    last.rsplit(',').next()?.trim().parse().ok()
}

/// The value of cookie `name` of a request.
fn cookie(h: &HeaderMap, name: &str) -> Option<String> {
    h.get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_string())
}

/// The middleware of every request: notes the client's address, and adds the security
/// headers (and `Secure` to cookies over HTTPS) to the response.
pub async fn layer(State(o): State<Options>, mut req: Request, next: Next) -> Response {
    let o = &o;
    let peer = req.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
    let addr = if o.trust_proxy { forwarded_for(req.headers()).or(peer) } else { peer };
    let https =
        o.https || (o.trust_proxy && req.headers().get("x-forwarded-proto").is_some_and(|v| v.as_bytes() == b"https"));
    req.extensions_mut().insert(ClientAddr(addr));
    // The browser's id (issue 30, point 5): from its cookie, or a new one set with the
    // first page a browser opens (the API's clients are not browsers).
    let known = cookie(req.headers(), crate::access::BROWSER_COOKIE).filter(|b| crate::access::is_browser_id(b));
    let path = req.uri().path();
    let page = req.method() == axum::http::Method::GET && !path.starts_with("/api/") && !path.starts_with("/static/");
    let fresh = (known.is_none() && page).then(crate::access::new_browser_id);
    let client = crate::access::Client { addr, browser: known.or_else(|| fresh.clone()) };
    let mut r = crate::access::CLIENT.scope(client, next.run(req)).await;
    let h = r.headers_mut();
    if let Some(b) = fresh {
        let c = format!(
            "{}={b}; HttpOnly; SameSite=Lax; Path=/; Max-Age={}",
            crate::access::BROWSER_COOKIE,
            crate::access::BROWSER_COOKIE_SECS
        );
        if let Ok(c) = HeaderValue::from_str(&c) {
            h.append(header::SET_COOKIE, c);
        }
    }
    h.insert("x-content-type-options", HeaderValue::from_static("nosniff"));
    h.insert("x-frame-options", HeaderValue::from_static("DENY"));
    h.insert("referrer-policy", HeaderValue::from_static("same-origin"));
    h.entry(header::CONTENT_SECURITY_POLICY).or_insert(HeaderValue::from_static(CSP));
    // Secrets are not cached (issue 28, point 10): every answer is per viewer unless it
    // says otherwise (the static files do), so neither a browser nor a proxy keeps one.
    h.entry(header::CACHE_CONTROL).or_insert(HeaderValue::from_static("no-store"));
    if https {
        let cookies: Vec<HeaderValue> = h.get_all(header::SET_COOKIE).iter().cloned().collect();
        if !cookies.is_empty() {
            h.remove(header::SET_COOKIE);
            for c in cookies {
                let secure = c.to_str().ok().and_then(|s| HeaderValue::from_str(&format!("{s}; Secure")).ok());
                h.append(header::SET_COOKIE, secure.unwrap_or(c));
            }
        }
    }
    r
}

/// Largest accepted request body, in bytes.
pub const MAX_BODY: usize = 64 * 1024;

/// The middleware that gives a request's body `limit` to arrive whole (issue 28, point 13:
/// a body sent a byte every few seconds moves often enough to pass the idle timeout, and
/// would hold its connection for hours). A body within [`MAX_BODY`] is read here and
/// handed on whole; a larger one is left to the routes, which refuse it as before. Past the
/// limit: a 408 in Russian, and the connection is closed.
pub async fn body_in_time(State(limit): State<std::time::Duration>, req: Request, next: Next) -> Response {
    let declared = req.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    let chunked = req.headers().contains_key(header::TRANSFER_ENCODING);
    if (declared.unwrap_or(0) == 0 && !chunked) || declared.is_some_and(|n| n > MAX_BODY as u64) {
        return next.run(req).await;
    }
    let (parts, body) = req.into_parts();
    match tokio::time::timeout(limit, axum::body::to_bytes(body, MAX_BODY)).await {
        Ok(Ok(bytes)) => next.run(Request::from_parts(parts, axum::body::Body::from(bytes))).await,
        Ok(Err(_)) => {
            crate::error::ApiError::BadRequest(format!("Тело запроса больше {} КиБ или оборвалось.", MAX_BODY / 1024))
                .into_response()
        }
        Err(_) => {
            let message = format!(
                "Тело запроса не пришло целиком за {} с: соединение закрыто. Отправьте запрос ещё раз.",
                limit.as_secs().max(1)
            );
            let mut r = (
                axum::http::StatusCode::REQUEST_TIMEOUT,
                axum::Json(serde_json::json!({"error": "slow_body", "message": message})),
            )
                .into_response();
            r.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
            r
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_forwarded_address_is_the_proxys_peer() {
        let mut h = HeaderMap::new();
        h.append("x-forwarded-for", HeaderValue::from_static("1.2.3.4, 10.0.0.7"));
        assert_eq!(forwarded_for(&h), Some("10.0.0.7".parse().unwrap()));
        h.append("x-forwarded-for", HeaderValue::from_static("::1"));
        assert_eq!(forwarded_for(&h), Some("::1".parse().unwrap()));
        let mut bad = HeaderMap::new();
        bad.append("x-forwarded-for", HeaderValue::from_static("evil"));
        assert_eq!(forwarded_for(&bad), None);
    }
}
