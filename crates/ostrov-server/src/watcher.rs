//! The watcher: on a store other nodes also append to, this node's games are kept level
//! with what the others append and create.

use std::sync::Arc;

use ostrov_store::Store;

use crate::app::AppState;
use crate::error::ApiError;

/// Keeps this node's games up to date with what other nodes append, when the store is
/// shared (PostgreSQL `LISTEN/NOTIFY`): each announced append is folded in (only the new
/// events) and announced on [`AppState::changes`] (the pages' live updates); a game
/// another node created is listed (so the game lists and the scheduler's index of this
/// node have it) and folded from its log. Nothing for a store only this node writes.
pub fn spawn_watcher<S: Store>(st: Arc<AppState<S>>) -> Option<tokio::task::JoinHandle<()>> {
    let mut heard = st.store.changes()?;
    Some(tokio::spawn(async move {
        while let Some(c) = heard.recv().await {
            let ids = match c {
                // This node's own appends (a game it holds): nothing to fold in.
                ostrov_store::Change::Appended { game_id, .. } if st.store.owns(game_id) => continue,
                ostrov_store::Change::Appended { game_id, seq } => match st.game(game_id).await {
                    Ok(g) if g.lock().await.live.seq >= seq => continue,
                    _ => vec![game_id],
                },
                // Every game the store holds is listed (some may be new to this node);
                // the unfinished ones and those in memory are caught up.
                ostrov_store::Change::Missed => match st.store.games().await {
                    Ok(rows) => {
                        for r in &rows {
                            st.list_row(r);
                        }
                        rows.iter().filter(|r| r.finished.is_none() || st.games.is_folded(r.id)).map(|r| r.id).collect()
                    }
                    Err(e) => {
                        eprintln!("ostrov-server: catching up: {e}");
                        continue;
                    }
                },
            };
            for id in ids {
                if let Err(e) = catch_up_game(&st, id).await {
                    eprintln!("ostrov-server: catching up game {id}: {}", e.message());
                }
            }
        }
    }))
}

async fn catch_up_game<S: Store>(st: &Arc<AppState<S>>, id: i64) -> Result<(), ApiError> {
    let game = match st.game(id).await {
        Err(ApiError::NotFound) => return Ok(()), // its `created` entry is not stored yet
        g => g?,
    };
    let mut slot = game.lock().await;
    st.refresh(&mut slot).await
}
