use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use ostrov_server::{app, AppState, SystemClock};
use ostrov_store::SqliteStore;
use tower::ServiceExt;

async fn call(
    r: &axum::Router,
    method: &str,
    uri: &str,
    csrf: bool,
    cookie: Option<&str>,
    body: &str,
) -> (StatusCode, Option<String>, serde_json::Value) {
    let mut b = Request::builder().method(method).uri(uri).header("content-type", "application/json");
    if csrf {
        b = b.header("x-ostrov-csrf", "1");
    }
    if let Some(c) = cookie {
        b = b.header("cookie", c);
    }
    let resp = r.clone().oneshot(b.body(Body::from(body.to_string())).unwrap()).await.unwrap();
    let status = resp.status();
    let set = resp.headers().get("set-cookie").map(|v| v.to_str().unwrap().to_string());
    let bytes = axum::body::to_bytes(resp.into_body(), 1 << 20).await.unwrap();
    (status, set, serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null))
}

#[tokio::test]
async fn signup_login_me_logout_csrf_and_bad_input() {
    let store = SqliteStore::open(":memory:").await.unwrap();
    let r = app(Arc::new(AppState::load(store, Arc::new(SystemClock)).await.unwrap()));
    let creds = r#"{"name":"Вика","password":"секрет-пароль"}"#;

    // CSRF header is required on mutating requests.
    let (s, _, j) = call(&r, "POST", "/api/signup", false, None, creds).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    assert_eq!(j["error"], "csrf");

    let (s, set, _) = call(&r, "POST", "/api/signup", true, None, creds).await;
    assert_eq!(s, StatusCode::OK);
    let set = set.unwrap();
    assert!(set.contains("HttpOnly") && set.contains("SameSite=Strict"));
    let cookie = set.split(';').next().unwrap().to_string();

    let (s, _, j) = call(&r, "GET", "/api/me", false, Some(&cookie), "").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(j["name"], "Вика");

    let (s, _, j) = call(&r, "POST", "/api/signup", true, None, creds).await;
    assert_eq!((s, j["error"].as_str()), (StatusCode::CONFLICT, Some("name_taken")));

    let (s, _, j) = call(&r, "POST", "/api/login", true, None, r#"{"name":"Вика","password":"wrong-wrong"}"#).await;
    assert_eq!((s, j["error"].as_str()), (StatusCode::UNAUTHORIZED, Some("bad_credentials")));
    let (s, set, _) = call(&r, "POST", "/api/login", true, None, creds).await;
    assert_eq!(s, StatusCode::OK);
    let cookie2 = set.unwrap().split(';').next().unwrap().to_string();

    let (s, _, _) = call(&r, "POST", "/api/logout", true, Some(&cookie2), "").await;
    assert_eq!(s, StatusCode::OK);
    let (s, _, j) = call(&r, "GET", "/api/me", false, Some(&cookie2), "").await;
    assert_eq!((s, j["error"].as_str()), (StatusCode::UNAUTHORIZED, Some("unauthorized")));
    let (s, _, _) = call(&r, "GET", "/api/me", false, None, "").await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);

    // Bad input: wrong types, not JSON, huge body, unknown route: clear 4xx JSON.
    let (s, _, j) = call(&r, "POST", "/api/login", true, None, r#"{"name":5,"password":[]}"#).await;
    assert_eq!((s, j["error"].as_str()), (StatusCode::BAD_REQUEST, Some("bad_request")));
    let (s, _, j) = call(&r, "POST", "/api/login", true, None, "not json").await;
    assert_eq!((s, j["error"].as_str()), (StatusCode::BAD_REQUEST, Some("bad_request")));
    let huge = format!(r#"{{"name":"{}","password":"x"}}"#, "a".repeat(200_000));
    let (s, _, j) = call(&r, "POST", "/api/login", true, None, &huge).await;
    assert!(s.is_client_error(), "{s}");
    assert!(j["message"].is_string());
    let (s, _, j) = call(&r, "GET", "/api/nothing", false, None, "").await;
    assert_eq!((s, j["error"].as_str()), (StatusCode::NOT_FOUND, Some("not_found")));
}

#[tokio::test]
async fn five_wrong_passwords_lock_the_login_for_a_while() {
    let store = SqliteStore::open(":memory:").await.unwrap();
    let clock = Arc::new(ostrov_server::local::ManualClock::new(1_796_151_600));
    let r = app(Arc::new(AppState::load(store, clock.clone()).await.unwrap()));
    let creds = r#"{"name":"Гоша","password":"правильный-пароль"}"#;
    assert_eq!(call(&r, "POST", "/api/signup", true, None, creds).await.0, StatusCode::OK);
    let wrong = r#"{"name":"гоша","password":"неправильный"}"#;
    for _ in 0..ostrov_server::ratelimit::MAX_FAILURES {
        assert_eq!(call(&r, "POST", "/api/login", true, None, wrong).await.0, StatusCode::UNAUTHORIZED);
    }
    // Locked: even the right password waits; the message says how long.
    let (s, _, j) = call(&r, "POST", "/api/login", true, None, creds).await;
    assert_eq!((s, j["error"].as_str()), (StatusCode::TOO_MANY_REQUESTS, Some("too_many_requests")));
    assert!(j["message"].as_str().unwrap().contains("300 с"), "{j}");
    clock.advance(ostrov_server::ratelimit::WINDOW);
    assert_eq!(call(&r, "POST", "/api/login", true, None, creds).await.0, StatusCode::OK);
}
