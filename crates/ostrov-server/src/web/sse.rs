//! Live updates: a server-sent event stream per game that says only "changed" (with the
//! game's sequence number). The page then fetches its fragments again, each through the
//! same per-viewer view as the page itself, so the stream carries nothing to hide.

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream::{self, Stream};
use ostrov_store::Store;
use tokio::sync::broadcast::error::RecvError;

use super::{Visitor, WebError};
use crate::routes::St;
use crate::ApiError;

/// `GET /games/{id}/live`: `event: changed`, `data: <seq>` whenever the game changes.
pub async fn stream<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    p: Result<Path<i64>, PathRejection>,
) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    v.id()?;
    let Path(id) = p.map_err(ApiError::from)?;
    let game = st.game(id).await?;
    let rx = st.changes.subscribe();
    let seq = game.lock().await.live.seq;
    let first = Event::default().event("hello").data(seq.to_string());
    let events = stream::unfold((rx, game, Some(first)), move |(mut rx, game, first)| async move {
        if let Some(e) = first {
            return Some((Ok::<_, Infallible>(e), (rx, game, None)));
        }
        loop {
            match rx.recv().await {
                Ok(changed) if changed == id => break,
                Ok(_) => continue,
                Err(RecvError::Lagged(_)) => break,
                Err(RecvError::Closed) => return None,
            }
        }
        let seq = game.lock().await.live.seq;
        Some((Ok(Event::default().event("changed").data(seq.to_string())), (rx, game, None)))
    });
    Ok(sse(events))
}

fn sse(events: impl Stream<Item = Result<Event, Infallible>> + Send + 'static) -> Response {
    Sse::new(events).keep_alive(KeepAlive::new().interval(Duration::from_secs(20))).into_response()
}
