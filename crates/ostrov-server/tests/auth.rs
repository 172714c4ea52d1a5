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

/// A request from a client address (as `ostrov serve` sees the connection's peer), with
/// the response's headers.
async fn call_from(
    r: &axum::Router,
    from: &str,
    uri: &str,
    body: &str,
) -> (StatusCode, axum::http::HeaderMap, serde_json::Value) {
    let addr: std::net::SocketAddr = format!("{from}:40000").parse().unwrap();
    let mut req = Request::builder()
        .method("POST")
        .uri(uri)
        .header("content-type", "application/json")
        .header("x-ostrov-csrf", "1")
        .body(Body::from(body.to_string()))
        .unwrap();
    req.extensions_mut().insert(axum::extract::ConnectInfo(addr));
    let resp = r.clone().oneshot(req).await.unwrap();
    let (status, headers) = (resp.status(), resp.headers().clone());
    let bytes = axum::body::to_bytes(resp.into_body(), 1 << 20).await.unwrap();
    (status, headers, serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null))
}

/// Issue 16 (point 5): wrong passwords slow the account down with backoff (429 with
/// Retry-After), whatever look-alike spelling of the name is guessed, and the owner still
/// logs in from an address they logged in from before.
#[tokio::test]
async fn wrong_passwords_slow_the_account_but_not_its_owner() {
    use ostrov_server::ratelimit::{FREE_FAILURES, MAX_WAIT};
    let store = SqliteStore::open(":memory:").await.unwrap();
    let clock = Arc::new(ostrov_server::local::ManualClock::new(1_796_151_600));
    let r = app(Arc::new(AppState::load(store, clock.clone()).await.unwrap()));
    let (home, attacker) = ("10.0.0.1", "10.6.6.6");
    let creds = r#"{"name":"Вика","password":"правильный-пароль"}"#;
    assert_eq!(call_from(&r, home, "/api/signup", creds).await.0, StatusCode::OK);
    // Look-alikes of the name are the same name: no second account…
    for twin in ["вика", "ВИКА", "Bика", "Вика\\u200b", "Ｂика"] {
        let body = format!(r#"{{"name":"{twin}","password":"другой-пароль"}}"#);
        let (s, _, j) = call_from(&r, "10.0.0.9", "/api/signup", &body).await;
        assert!(s == StatusCode::CONFLICT || s == StatusCode::BAD_REQUEST, "{twin}: {s} {j}");
    }
    // … and the owner logs in under any of them.
    let lower = r#"{"name":"вика","password":"правильный-пароль"}"#;
    let (s, _, j) = call_from(&r, home, "/api/login", lower).await;
    assert_eq!((s, j["name"].as_str()), (StatusCode::OK, Some("Вика")));
    // Guesses under every spelling count against the one account.
    let spellings = ["вика", "ВИКА", "Bика", "Вика"];
    for i in 0..FREE_FAILURES as usize {
        let wrong = format!(r#"{{"name":"{}","password":"неправильный"}}"#, spellings[i % 4]);
        assert_eq!(call_from(&r, attacker, "/api/login", &wrong).await.0, StatusCode::UNAUTHORIZED);
    }
    let (s, h, j) = call_from(&r, attacker, "/api/login", creds).await;
    assert_eq!((s, j["error"].as_str()), (StatusCode::TOO_MANY_REQUESTS, Some("too_many_requests")), "{j}");
    assert_eq!(h["retry-after"], "1");
    assert!(j["message"].as_str().unwrap().contains("через 1 с"), "{j}");
    // The wait doubles with each further failure, up to a minute.
    for _ in 0..10 {
        clock.advance(MAX_WAIT);
        let wrong = r#"{"name":"Bика","password":"неправильный"}"#;
        assert_eq!(call_from(&r, attacker, "/api/login", wrong).await.0, StatusCode::UNAUTHORIZED);
    }
    let (s, h, _) = call_from(&r, "10.0.0.2", "/api/login", creds).await;
    assert_eq!((s, h["retry-after"].to_str().unwrap()), (StatusCode::TOO_MANY_REQUESTS, "60"));
    // The owner, from where they logged in before, is not locked out.
    let (s, _, j) = call_from(&r, home, "/api/login", creds).await;
    assert_eq!(s, StatusCode::OK, "{j}");
    // After the wait, the right password works from anywhere.
    clock.advance(MAX_WAIT);
    assert_eq!(call_from(&r, "10.0.0.2", "/api/login", creds).await.0, StatusCode::OK);
}

/// Issue 16 (points 6 and 9): names over 40 characters and huge passwords are refused
/// before anything is kept or hashed; one address signs up at most 10 times an hour.
#[tokio::test]
async fn long_names_keep_nothing_and_signups_are_limited_per_address() {
    let store = SqliteStore::open(":memory:").await.unwrap();
    let clock = Arc::new(ostrov_server::local::ManualClock::new(1_796_151_600));
    let state = Arc::new(AppState::load(store, clock.clone()).await.unwrap());
    let r = app(state.clone());
    for i in 0..200 {
        let body = format!(r#"{{"name":"{}{i}","password":"неправильный"}}"#, "я".repeat(30_000));
        let (s, _, j) = call_from(&r, "10.0.0.1", "/api/login", &body).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{j}");
        assert!(j["message"].as_str().unwrap().contains("от 1 до 40 символов"), "{j}");
    }
    assert_eq!(state.logins.size(), (0, 0, 0), "nothing kept for refused names");
    let long_password = format!(r#"{{"name":"Гоша","password":"{}"}}"#, "x".repeat(2000));
    let (s, _, j) = call_from(&r, "10.0.0.1", "/api/signup", &long_password).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(j["message"].as_str().unwrap().contains("не длиннее 1024 байт"), "{j}");
    for i in 0..ostrov_server::ratelimit::SIGNUPS_PER_HOUR {
        let body = format!(r#"{{"name":"Игрок{i}","password":"пароль-пароль"}}"#);
        assert_eq!(call_from(&r, "10.0.0.1", "/api/signup", &body).await.0, StatusCode::OK);
    }
    let body = r#"{"name":"Ещё","password":"пароль-пароль"}"#;
    let (s, h, j) = call_from(&r, "10.0.0.1", "/api/signup", body).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{j}");
    assert!(j["message"].as_str().unwrap().contains("регистраций с этого адреса"), "{j}");
    assert_eq!(h["retry-after"], "3600");
    assert_eq!(call_from(&r, "10.0.0.2", "/api/signup", body).await.0, StatusCode::OK);
}

/// Issue 16 (point 12): every response carries the security headers; behind a trusted
/// proxy that says HTTPS, or with an https public URL, the session cookie is Secure.
#[tokio::test]
async fn security_headers_and_secure_cookies() {
    let store = SqliteStore::open(":memory:").await.unwrap();
    let r = app(Arc::new(AppState::load(store, Arc::new(SystemClock)).await.unwrap()));
    for uri in ["/", "/api/me", "/rules", "/nothing"] {
        let resp = r.clone().oneshot(Request::builder().uri(uri).body(Body::empty()).unwrap()).await.unwrap();
        let h = resp.headers();
        assert_eq!(h["x-content-type-options"], "nosniff", "{uri}");
        assert_eq!(h["x-frame-options"], "DENY", "{uri}");
        let csp = h["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("frame-ancestors 'none'") && csp.contains("script-src 'self'"), "{uri}: {csp}");
    }
    let creds = r#"{"name":"Гоша","password":"правильный-пароль"}"#;
    let (_, set, _) = call(&r, "POST", "/api/signup", true, None, creds).await;
    assert!(!set.unwrap().contains("Secure"), "plain HTTP: no Secure flag");

    let store = SqliteStore::open(":memory:").await.unwrap();
    let mut state = AppState::load(store, Arc::new(SystemClock)).await.unwrap();
    state.options = ostrov_server::harden::Options { https: false, trust_proxy: true };
    let r = app(Arc::new(state));
    let req = Request::builder()
        .method("POST")
        .uri("/api/signup")
        .header("content-type", "application/json")
        .header("x-ostrov-csrf", "1")
        .header("x-forwarded-proto", "https")
        .body(Body::from(creds))
        .unwrap();
    let resp = r.clone().oneshot(req).await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let cookie = resp.headers()["set-cookie"].to_str().unwrap();
    assert!(cookie.ends_with("; Secure") && cookie.contains("HttpOnly"), "{cookie}");

    let store = SqliteStore::open(":memory:").await.unwrap();
    let mut state = AppState::load(store, Arc::new(SystemClock)).await.unwrap();
    state.options = ostrov_server::harden::Options { https: true, trust_proxy: false };
    let (_, set, _) = call(&app(Arc::new(state)), "POST", "/api/signup", true, None, creds).await;
    assert!(set.unwrap().ends_with("; Secure"));
}

/// Issue 16 (point 5): accounts made before names had keys get theirs at start; of two
/// old look-alike accounts both still log in (the younger by its exact name), and no new
/// look-alike can sign up.
#[tokio::test]
async fn old_look_alike_accounts_keep_working() {
    use ostrov_store::Accounts;
    let dir = std::env::temp_dir().join(format!("ostrov-auth-legacy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("legacy.db");
    let path = path.to_str().unwrap();
    let hash = {
        use argon2::password_hash::{PasswordHasher, SaltString};
        let salt = SaltString::encode_b64(b"fixed salt bytes").unwrap();
        argon2::Argon2::default().hash_password("пароль-пароль".as_bytes(), &salt).unwrap().to_string()
    };
    {
        let store = SqliteStore::open(path).await.unwrap();
        drop(store);
        use sqlx::Connection;
        let mut c = sqlx::SqliteConnection::connect(&format!("sqlite://{path}")).await.unwrap();
        for name in ["Вика", "вика"] {
            sqlx::query("INSERT INTO users (name, password_hash) VALUES (?, ?)")
                .bind(name)
                .bind(&hash)
                .execute(&mut c)
                .await
                .unwrap();
        }
    }
    let store = SqliteStore::open(path).await.unwrap();
    let r = app(Arc::new(AppState::load(store, Arc::new(SystemClock)).await.unwrap()));
    for name in ["Вика", "вика"] {
        let body = format!(r#"{{"name":"{name}","password":"пароль-пароль"}}"#);
        let (s, _, j) = call(&r, "POST", "/api/login", true, None, &body).await;
        assert_eq!((s, j["name"].as_str()), (StatusCode::OK, Some(name)), "{j}");
    }
    let (s, _, j) = call(&r, "POST", "/api/signup", true, None, r#"{"name":"ВИКА","password":"пароль-пароль"}"#).await;
    assert_eq!((s, j["error"].as_str()), (StatusCode::CONFLICT, Some("name_taken")), "{j}");
    let store = SqliteStore::open(path).await.unwrap();
    assert_eq!(store.users_without_key().await.unwrap().len(), 1, "the younger look-alike has no key");
    let _ = std::fs::remove_dir_all(&dir);
}
