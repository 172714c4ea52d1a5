//! GameState updates: a server-sent event stream per game and viewer that says only "changed"
//! when something that viewer may see changed ([`view::stamp`]): a villager hears nothing
//! of the pack's chat or another player's orders. The data is the stream's own count of
//! its `changed` events (`hello` is 0), never anything of the game's log. The page then
//! fetches its fragments again, each through the same per-viewer view as the page itself.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream::{self, Stream};
use ostrov_store::Store;
use tokio::sync::broadcast::error::RecvError;

use super::page::{St, Visitor, WebError};
use crate::error::ApiError;
use crate::harden::ClientAddr;
use crate::view;

/// What a stream knows between two events.
struct Watch {
    rx: tokio::sync::broadcast::Receiver<i64>,
    game: Arc<tokio::sync::Mutex<crate::cache::LoadedGame>>,
    user: i64,
    /// The viewer's stamp last told.
    stamp: [u64; 3],
    /// How many `changed` events this stream sent.
    sent: u64,
    hello: bool,
    /// The stream's place among the open ones, given back when the stream ends.
    _place: crate::streams::Stream,
}

/// `GET /games/{id}/live`: `event: hello`, `data: 0`, then `event: changed`, `data: N` (this
/// stream's N-th) whenever something the viewer may see changed. At most
/// [`crate::streams::STREAMS_PER_ACCOUNT`] per account, [`crate::streams::STREAMS_PER_ADDRESS`]
/// per address and half the server's connections in all (429 in Russian past them).
pub async fn stream<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    addr: ClientAddr,
    p: Result<Path<i64>, PathRejection>,
) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    let user = v.id()?;
    let Path(id) = p.map_err(ApiError::from)?;
    let game = st.game(id).await?;
    let place = st.streams.open(user, addr.0, st.limits.total / 2)?;
    let rx = st.changes.subscribe();
    let stamp = {
        let slot = game.lock().await;
        // A private game's stream is its host's and players' (O-PRIVATE-1): 404 otherwise,
        // as for a game that does not exist.
        if !slot.live.reachable(Some(user)) {
            return Err(ApiError::NotFound.into());
        }
        view::stamp(&slot.live, user)
    };
    let watch = Watch { rx, game, user, stamp, sent: 0, hello: true, _place: place };
    let events = stream::unfold(watch, move |mut w| async move {
        if w.hello {
            w.hello = false;
            return Some((Ok::<_, Infallible>(Event::default().event("hello").data("0")), w));
        }
        loop {
            match w.rx.recv().await {
                Ok(changed) if changed == id => {}
                Ok(_) => continue,
                // Missed announcements: look at the game as it is now.
                Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => return None,
            }
            let stamp = {
                let slot = w.game.lock().await;
                view::stamp(&slot.live, w.user)
            };
            if stamp != w.stamp {
                w.stamp = stamp;
                w.sent += 1;
                let e = Event::default().event("changed").data(w.sent.to_string());
                return Some((Ok(e), w));
            }
        }
    });
    Ok(sse(events))
}

fn sse(events: impl Stream<Item = Result<Event, Infallible>> + Send + 'static) -> Response {
    Sse::new(events).keep_alive(KeepAlive::new().interval(Duration::from_secs(20))).into_response()
}
