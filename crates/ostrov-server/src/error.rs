use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

/// Every error the API returns: a status code and `{"error": code, "message": Russian text}`.
/// Internal details are logged to stderr, never sent.
#[derive(Debug)]
pub enum ApiError {
    BadRequest(String),
    Unauthorized,
    BadCredentials,
    Forbidden,
    Csrf,
    NotFound,
    Conflict(&'static str, String),
    Internal(String),
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized | ApiError::BadCredentials => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden | ApiError::Csrf => StatusCode::FORBIDDEN,
            ApiError::NotFound => StatusCode::NOT_FOUND,
            ApiError::Conflict(..) => StatusCode::CONFLICT,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            ApiError::BadRequest(_) => "bad_request",
            ApiError::Unauthorized => "unauthorized",
            ApiError::BadCredentials => "bad_credentials",
            ApiError::Forbidden => "forbidden",
            ApiError::Csrf => "csrf",
            ApiError::NotFound => "not_found",
            ApiError::Conflict(code, _) => code,
            ApiError::Internal(_) => "internal",
        }
    }

    pub fn message(&self) -> String {
        match self {
            ApiError::BadRequest(m) => m.clone(),
            ApiError::Unauthorized => "Нужно войти в систему.".into(),
            ApiError::BadCredentials => "Неверное имя или пароль.".into(),
            ApiError::Forbidden => "Недостаточно прав.".into(),
            ApiError::Csrf => "Запрос отклонён: нет заголовка X-Ostrov-Csrf.".into(),
            ApiError::NotFound => "Не найдено.".into(),
            ApiError::Conflict(_, m) => m.clone(),
            ApiError::Internal(_) => "Внутренняя ошибка сервера.".into(),
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

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Internal(detail) = &self {
            eprintln!("ostrov-server: internal error: {detail}");
        }
        let body = serde_json::json!({"error": self.code(), "message": self.message()});
        (self.status(), Json(body)).into_response()
    }
}
