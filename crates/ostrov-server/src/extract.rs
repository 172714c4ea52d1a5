//! What the JSON API's handlers take from a request and answer before any handler runs:
//! a body that must be a JSON object ([`Object`]), and 405 for a method a path does not take.

use axum::extract::{FromRequest, Request};
use axum::Json;
use serde::de::DeserializeOwned;

use crate::error::ApiError;

/// A JSON request body that must be a JSON object (serde would also read a struct from an
/// array, so `["vote","Аня"]` would pass as an order); errors are 400 `bad_request`.
pub struct Object<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Object<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let Json(v) = Json::<serde_json::Value>::from_request(req, state).await?;
        if !v.is_object() {
            return Err(ApiError::BadRequest("Тело запроса должно быть JSON-объектом {…}.".into()));
        }
        serde_json::from_value(v).map(Object).map_err(|e| ApiError::BadRequest(format!("Неверные данные: {e}")))
    }
}

/// A known path with a method it does not take: 405 with the JSON error body.
pub(crate) async fn method_not_allowed() -> (axum::http::StatusCode, Json<serde_json::Value>) {
    let body = serde_json::json!({"error": "method_not_allowed", "message": "Этот метод здесь не поддерживается."});
    (axum::http::StatusCode::METHOD_NOT_ALLOWED, Json(body))
}
