//! Where seats' accounts come from (issue 30, point 5): noted as each request reaches a
//! running game ([`note`], from [`super::reach`]), and read for the host ([`shared`]). What is
//! kept and why: [`crate::access`].

use std::sync::Arc;

use ostrov_store::Store;

use crate::access::{is_browser_id, Shared, SharedAccess, CLIENT, MAX_SIGHTINGS};
use crate::app::AppState;
use crate::error::ApiError;
use crate::game::{GameState, Status};

/// Notes where the request being answered comes from, if `user` holds a seat of the
/// running game `live` (called by [`super::reach`], so every channel counts).
/// The write is made apart from the request; a failed one is logged, never the request's
/// failure.
pub async fn note<S: Store>(st: &Arc<AppState<S>>, live: &GameState, user: i64, now: i64) {
    if live.status != Status::Running || live.seat_of(user).is_none() {
        return;
    }
    let Ok(client) = CLIENT.try_with(Clone::clone) else { return };
    let s = &st.sightings;
    let mut todo = Vec::new();
    if let Some(a) = client.addr {
        todo.push((Shared::Address, s.key(Shared::Address, &crate::net::bucket(a).to_string())));
    }
    if let Some(b) = client.browser.filter(|b| is_browser_id(b)) {
        todo.push((Shared::Browser, s.key(Shared::Browser, &b)));
    }
    let todo: Vec<_> = todo.into_iter().filter(|(kind, key)| s.due((live.id, user, *kind, key.clone()), now)).collect();
    if todo.is_empty() {
        return;
    }
    // Written apart from the request: it holds the game's lock, and a write here would
    // queue every request of the game behind the store (with SQLite, behind the writer's
    // batch), undoing the group commit.
    let (st, game) = (st.clone(), live.id);
    st.sightings.begin();
    tokio::spawn(async move {
        for (kind, key) in todo {
            if let Err(e) = st.store.note_sighting(game, user, kind.id(), &key, now, MAX_SIGHTINGS).await {
                eprintln!("ostrov-server: game {game}: noting a sighting: {e}");
            }
        }
        st.sightings.end();
    });
}

/// The host's warnings of game `live`: every two seats (held by their accounts now) that
/// came from one address prefix or one browser, the latest first.
pub async fn shared<S: Store>(st: &Arc<AppState<S>>, live: &GameState) -> Result<Vec<SharedAccess>, ApiError> {
    if live.status == Status::Lobby {
        return Ok(Vec::new());
    }
    // Every visit answered before this reading is in it.
    st.sightings.settle().await;
    let rows = st.store.sightings(live.id).await?;
    Ok(crate::access::warnings(live, &rows))
}
