//! The host's desk (issue 30, points 1–2): the board of the seats and the preview of the
//! open day resolved now. Both read the game and change nothing; both are the host's
//! alone (403 for anyone else who may see the game, 409 `not_started` in the lobby).

use std::sync::Arc;

use ostrov_store::Store;

use super::host::host_of;
use super::locking::reach;
use crate::app::AppState;
use crate::desk::BoardView;
use crate::error::ApiError;
use crate::preview::Preview;

/// The board of game `id` for its host `user`: every seat, or (`pending`) only the seats
/// with something still to send today.
pub async fn board<S: Store>(st: &Arc<AppState<S>>, id: i64, user: i64, pending: bool) -> Result<BoardView, ApiError> {
    let (slot, now) = reach(st, id, Some(user)).await?;
    host_of(&slot.live, user)?;
    crate::desk::board(&slot.live, now, pending)
        .ok_or_else(|| ApiError::Conflict("not_started", "Игра ещё не началась.".into()))
}

/// The open day of game `id` resolved now on a copy, for its host `user`; nothing is
/// stored. 409 `not_open` when no day is open. Made once per state of the game.
pub async fn preview<S: Store>(st: &Arc<AppState<S>>, id: i64, user: i64) -> Result<Arc<Preview>, ApiError> {
    let (mut slot, _) = reach(st, id, Some(user)).await?;
    host_of(&slot.live, user)?;
    let slot = &mut *slot;
    Ok(crate::preview::preview(&slot.live, &mut slot.preview)?)
}
