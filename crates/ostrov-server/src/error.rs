use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use ostrov_engine::Refusal;

use crate::game::Refused;

/// Every error the API returns: a status code and `{"error": code, "message": Russian text}`.
/// Internal details are logged to stderr, never sent.
#[derive(Debug)]
pub enum ApiError {
    BadRequest(String),
    Unauthorized,
    BadCredentials,
    /// The current password, given to change it, is wrong: 403.
    WrongPassword,
    Forbidden,
    Csrf,
    NotFound,
    /// 404 with a message naming what was not found (a player's record of a name nobody has).
    Missing(String),
    Conflict(&'static str, String),
    /// The engine refused an order: 422 with the refusal's id (GAME_FILE.md) as `error`.
    Refused(Refusal),
    /// Well-formed but wrong (names nobody, unknown act …): 422.
    Invalid(&'static str, String),
    /// Too many attempts: 429 with `Retry-After` (the seconds to wait).
    TooMany(String, i64),
    /// The write did not reach the disk (the batch holding it failed, or one before it in
    /// the same game did): 503, nothing of the request was accepted. The detail is logged.
    NotSaved(String),
    /// Another node holds the game's lease (it serves at this address): nothing done here.
    /// The request is forwarded to it ([`crate::forward`]); answered as such only when it
    /// cannot be (503).
    Elsewhere(String),
    Internal(String),
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized | ApiError::BadCredentials => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden | ApiError::Csrf | ApiError::WrongPassword => StatusCode::FORBIDDEN,
            ApiError::NotFound | ApiError::Missing(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict(..) => StatusCode::CONFLICT,
            ApiError::Refused(_) | ApiError::Invalid(..) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::TooMany(..) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::NotSaved(_) | ApiError::Elsewhere(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            ApiError::BadRequest(_) => "bad_request",
            ApiError::Unauthorized => "unauthorized",
            ApiError::BadCredentials => "bad_credentials",
            ApiError::WrongPassword => "wrong_password",
            ApiError::Forbidden => "forbidden",
            ApiError::Csrf => "csrf",
            ApiError::NotFound | ApiError::Missing(_) => "not_found",
            ApiError::Conflict(code, _) | ApiError::Invalid(code, _) => code,
            ApiError::Refused(r) => r.code(),
            ApiError::TooMany(..) => "too_many_requests",
            ApiError::NotSaved(_) | ApiError::Elsewhere(_) => "not_saved",
            ApiError::Internal(_) => "internal",
        }
    }

    pub fn message(&self) -> String {
        match self {
            ApiError::BadRequest(m) | ApiError::TooMany(m, _) | ApiError::Missing(m) => m.clone(),
            ApiError::Unauthorized => "Нужно войти в систему.".into(),
            ApiError::BadCredentials => "Неверное имя или пароль.".into(),
            ApiError::WrongPassword => "Текущий пароль введён неверно.".into(),
            ApiError::Forbidden => "Недостаточно прав.".into(),
            ApiError::Csrf => "Запрос отклонён: нет заголовка X-Ostrov-Csrf.".into(),
            ApiError::NotFound => "Не найдено.".into(),
            ApiError::Conflict(_, m) | ApiError::Invalid(_, m) => m.clone(),
            ApiError::Refused(r) => {
                let mut s = String::from("Ход не принят: ");
                s.push_str(r.ru());
                s.push('.');
                s
            }
            ApiError::NotSaved(_) => {
                "Запрос не сохранён (ошибка записи на сервере) и не принят: отправьте его ещё раз.".into()
            }
            ApiError::Elsewhere(_) => {
                "Запрос не принят: игру сейчас ведёт другой узел сервера, и он не ответил. Отправьте запрос ещё раз."
                    .into()
            }
            ApiError::Internal(_) => "Внутренняя ошибка сервера.".into(),
        }
    }
}

impl From<Refused> for ApiError {
    fn from(r: Refused) -> Self {
        match r {
            Refused::Rule(r) => ApiError::Refused(r),
            Refused::State(code @ ("bad_order" | "bad_fix"), m) => ApiError::Invalid(code, m),
            Refused::State(code, m) => ApiError::Conflict(code, m),
        }
    }
}

impl From<ostrov_store::StoreError> for ApiError {
    fn from(e: ostrov_store::StoreError) -> Self {
        ApiError::Internal(e.to_string())
    }
}

impl From<axum::extract::rejection::JsonRejection> for ApiError {
    fn from(e: axum::extract::rejection::JsonRejection) -> Self {
        use axum::extract::rejection::JsonRejection as J;
        let m = match e {
            J::MissingJsonContentType(_) => "Нужен Content-Type: application/json.".to_string(),
            J::JsonSyntaxError(_) => "Тело запроса — не JSON.".to_string(),
            J::JsonDataError(d) => format!("Неверные данные: {}", d.body_text()),
            J::BytesRejection(_) => "Тело запроса слишком велико или не читается.".to_string(),
            _ => "Неверный запрос.".to_string(),
        };
        ApiError::BadRequest(m)
    }
}

impl From<axum::extract::rejection::PathRejection> for ApiError {
    fn from(_: axum::extract::rejection::PathRejection) -> Self {
        ApiError::NotFound
    }
}

impl From<axum::extract::rejection::QueryRejection> for ApiError {
    fn from(e: axum::extract::rejection::QueryRejection) -> Self {
        ApiError::BadRequest(format!("Неверные параметры запроса: {}", e.body_text()))
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        match &self {
            ApiError::Internal(detail) => eprintln!("ostrov-server: internal error: {detail}"),
            ApiError::NotSaved(detail) => eprintln!("ostrov-server: not saved: {detail}"),
            _ => {}
        }
        let body = serde_json::json!({"error": self.code(), "message": self.message()});
        let mut r = (self.status(), Json(body)).into_response();
        if let ApiError::TooMany(_, wait) = self {
            r.headers_mut().insert(axum::http::header::RETRY_AFTER, axum::http::HeaderValue::from(wait.max(1)));
        }
        r
    }
}
