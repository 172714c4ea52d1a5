//! The web pages: play and host a game in a browser (server-rendered askama templates,
//! a little vendored htmx, live updates by server-sent events). Every page works without
//! JavaScript: forms are plain posts answered by a redirect (or, on bad input, the same
//! page with the message next to the field). The pages hold no rules: what a viewer may
//! see is [`crate::view::game`], what an order may be is the engine's check.
//!
//! Form posts carry a per-session CSRF token in a hidden field `csrf` (a cross-site form
//! cannot read it), checked as strictly as the API's header: a post without the right
//! token is refused with 403 before anything else is looked at.

mod account;
mod assets;
mod bots;
#[cfg(test)]
mod corpus;
mod demo;
mod desk;
mod forms;
mod game;
mod host;
mod lobby;
mod notify;
mod now;
mod page;
mod paper;
mod profile;
mod records;
mod review;
mod rules;
mod sse;
mod talk;
pub(crate) mod text;
mod thread;

use std::sync::Arc;

use axum::routing::{get, post};
use axum::Router;
use ostrov_store::Store;

use crate::app::AppState;

pub use game::{render_game_page, GamePage, Notes};
pub use page::{page, to, Chrome, Visitor, WebError, PRE_COOKIE};

/// The pages, merged into the one [`crate::app`] router.
pub fn routes<S: Store>() -> Router<Arc<AppState<S>>> {
    Router::new()
        .route("/", get(lobby::home::<S>))
        .route("/signup", get(account::signup_page::<S>).post(account::signup::<S>))
        .route("/login", get(account::login_page::<S>).post(account::login::<S>))
        .route("/logout", post(account::logout::<S>))
        .route("/profile", get(profile::show::<S>).post(profile::save::<S>))
        .route("/profile/password", post(profile::password::<S>))
        .route("/profile/sessions", post(profile::end_others::<S>))
        .route("/profile/telegram", post(notify::telegram::<S>))
        .route("/profile/notify", post(notify::remind::<S>))
        .route("/profile/email", post(notify::email::<S>))
        .route("/mail/confirm/{token}", get(notify::confirm::<S>))
        .route("/mail/unsubscribe/{secret}", get(notify::unsubscribe_page::<S>).post(notify::unsubscribe::<S>))
        .route("/new", get(lobby::create_page::<S>).post(lobby::create::<S>))
        .route("/new/balance", get(lobby::balance::<S>))
        .route("/join/{invite}", get(lobby::invite_page::<S>).post(lobby::join::<S>))
        .route("/games/{id}", get(game::show::<S>))
        .route("/games/{id}/start", post(lobby::start::<S>))
        .route("/games/{id}/bots", post(bots::add::<S>))
        .route("/games/{id}/bots/remove", post(bots::remove::<S>))
        .route("/games/{id}/order", post(game::order::<S>))
        .route("/games/{id}/request", post(game::request::<S>))
        .route("/games/{id}/host", post(host::host::<S>))
        .route("/games/{id}/thread", get(thread::fragment::<S>).post(talk::post::<S>))
        .route("/games/{id}/thread.md", get(thread::export::<S>))
        .route("/games/{id}/flag", post(talk::flag::<S>))
        .route("/games/{id}/live", get(sse::stream::<S>))
        .route("/games/{id}/papers/{day}/{kind}", get(paper::show::<S>))
        .route("/games/{id}/review", get(review::show::<S>))
        .route("/games/{id}/review/game.toml", get(review::gamefile::<S>))
        .route("/rules", get(rules::show::<S>))
        .route("/users/{name}", get(records::record::<S>))
        .route("/stats", get(records::stats::<S>))
        .route("/static/{file}", get(assets::file))
}
