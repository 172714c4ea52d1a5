//! The game API, one module per area: games (create, list, join, start, view), orders,
//! the host's powers, what a game publishes (newspapers, inbox, report, game file), and an
//! account's notifications (the Telegram link, the reminder).
//! Each handler parses its request, calls [`crate::service`] and renders the answer.

mod bots;
mod desk;
mod extract;
mod games;
mod host;
mod notify;
mod orders;
mod papers;
mod users;

use std::sync::Arc;

use axum::routing::{delete, get, post};
use axum::Router;
use ostrov_store::Store;

use crate::app::AppState;

pub use crate::extract::Object;

pub fn routes<S: Store>() -> Router<Arc<AppState<S>>> {
    Router::new()
        .route("/games", get(games::list::<S>).post(games::create::<S>))
        .route("/games/{id}", get(games::show::<S>))
        .route("/invites/{invite}", get(games::invite::<S>))
        .route("/invites/{invite}/join", post(games::join::<S>))
        .route("/games/{id}/start", post(games::start::<S>))
        .route("/games/{id}/bots", post(bots::add::<S>))
        .route("/games/{id}/bots/{name}", delete(bots::remove::<S>))
        .route("/games/{id}/orders", get(orders::mine::<S>).post(orders::send::<S>))
        .route("/games/{id}/inbox", get(papers::inbox::<S>))
        .route("/games/{id}/newspapers", get(papers::list::<S>))
        .route("/games/{id}/newspapers/{day}/{kind}", get(papers::paper::<S>))
        .route("/games/{id}/report", get(papers::report::<S>))
        .route("/games/{id}/review", get(papers::review::<S>))
        .route("/games/{id}/gamefile", get(papers::gamefile::<S>))
        .route("/games/{id}/events", get(papers::events::<S>))
        .route("/games/{id}/host/{action}", post(host::act::<S>))
        .route("/games/{id}/board", get(desk::board::<S>))
        .route("/games/{id}/requests", get(notify::requests::<S>).post(notify::request::<S>))
        .route("/games/{id}/preview", get(desk::preview::<S>))
        .route("/users/{name}/stats", get(users::stats::<S>))
        .route("/stats", get(users::setups::<S>))
        .route("/me/telegram", post(notify::link::<S>).delete(notify::unlink::<S>))
        .route("/me/notify", get(notify::show::<S>).patch(notify::set::<S>))
        .method_not_allowed_fallback(crate::extract::method_not_allowed)
}
