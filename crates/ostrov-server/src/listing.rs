//! The list of games a user sees (the API's `GET /api/games` and the home page): their own
//! games and the games open to join, newest first, a page at a time.

use std::sync::Arc;

use ostrov_store::Store;

use crate::app::AppState;
use crate::error::ApiError;
use crate::game::Status;

/// Games per page.
pub const PER_PAGE: usize = 50;

/// A game as a list shows it: public facts and the user's part in it.
#[derive(Clone, Debug)]
pub struct Listed {
    pub id: i64,
    pub title: String,
    pub status: Status,
    /// The status in Russian: «набор игроков», «идёт день 3», «игра окончена: победили мирные жители».
    pub status_ru: String,
    pub slots: usize,
    pub joined: usize,
    pub day: usize,
    pub yours: bool,
    pub playing: bool,
    /// A private game (O-PRIVATE-1): listed only to its host and players.
    pub private: bool,
    /// The seats the host calls for a substitute for (issue 30, point 4).
    pub wanted: Vec<String>,
}

impl Listed {
    /// The user hosts or plays it.
    pub fn mine(&self) -> bool {
        self.yours || self.playing
    }

    /// Anyone may still join it: an open game with a free seat (a private one is joined by
    /// its invite only).
    pub fn open(&self) -> bool {
        !self.private && self.status == Status::Lobby && self.joined < self.slots
    }

    /// A running open game whose host calls for a substitute: listed to everyone.
    pub fn seeking(&self) -> bool {
        !self.private && self.status == Status::Running && !self.wanted.is_empty()
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "id": self.id, "title": self.title, "status": self.status, "slots": self.slots,
            "joined": self.joined, "day": self.day, "yours": self.yours, "playing": self.playing,
            "visibility": if self.private { "private" } else { "open" }, "wanted": self.wanted,
        })
    }
}

/// How long a list waits for the games it has to fold first (after a restart): a game
/// with a long log is listed once it is in memory, never waited for (issue 28, point 11).
pub const LIST_PATIENCE: std::time::Duration = std::time::Duration::from_millis(50);

/// Every game `keep` lets through that `user` may find (a private game only its host's and
/// players'), newest first, as `user` sees it, and how many games were
/// left out because they are still being loaded (after a restart). A finished game is
/// listed from its stored summary, without folding it; an unfinished one not yet in memory
/// is loaded in the background and waited for at most [`LIST_PATIENCE`].
pub async fn games<S: Store>(
    st: &Arc<AppState<S>>,
    user: i64,
    keep: impl Fn(&Listed) -> bool,
) -> Result<(Vec<Listed>, usize), ApiError> {
    let listed = st.games.list();
    let loads: Vec<_> = listed
        .iter()
        .filter(|(id, l)| l.finished.is_none() && !st.games.is_folded(*id))
        .map(|(id, _)| {
            let (st, id) = (st.clone(), *id);
            tokio::spawn(async move { st.game(id).await.map(|_| ()) })
        })
        .collect();
    let _ = tokio::time::timeout(LIST_PATIENCE, async {
        for l in loads {
            let _ = l.await;
        }
    })
    .await;
    let mut out = Vec::new();
    let mut loading = 0;
    for (id, listing) in listed.into_iter().rev() {
        if listing.finished.is_none() && !st.games.is_folded(id) {
            // Still being folded (or its log does not fold: that is logged, not listed).
            loading += 1;
            continue;
        }
        let row = if let Some(f) = listing.finished {
            let status_ru =
                f.winner.as_ref().map_or_else(|| "игра окончена".to_string(), |w| format!("игра окончена: {w}"));
            Listed {
                id,
                title: f.title,
                status: Status::Over,
                status_ru,
                slots: f.slots,
                joined: f.joined,
                day: f.day,
                yours: listing.host == user,
                playing: f.members.contains(&user),
                private: f.private,
                wanted: Vec::new(),
            }
        } else {
            let Ok(game) = st.game(id).await else { continue };
            let mut slot = game.lock().await;
            st.repair(&mut slot).await?;
            let l = &slot.live;
            Listed {
                id,
                title: l.config.title.clone(),
                status: l.status,
                status_ru: crate::web::text::game_status(crate::view::phase(l)),
                slots: l.config.slots,
                joined: l.members.len(),
                day: l.days.len(),
                yours: l.host == user,
                playing: l.seat_of(user).is_some(),
                private: !l.config.visibility.is_open(),
                wanted: l.wanted_seats(),
            }
        };
        // A private game is listed to its host and players only, whatever the caller asks
        // (O-PRIVATE-1).
        if (!row.private || row.mine()) && keep(&row) {
            out.push(row);
        }
    }
    Ok((out, loading))
}

/// Page `page` (1-based) of `rows` and the number of pages (at least 1); a page past the
/// last is empty.
pub fn page<T>(rows: Vec<T>, page: usize) -> (Vec<T>, usize) {
    let pages = rows.len().div_ceil(PER_PAGE).max(1);
    let start = page.saturating_sub(1).saturating_mul(PER_PAGE);
    (rows.into_iter().skip(start).take(PER_PAGE).collect(), pages)
}

#[cfg(test)]
mod tests {
    #[test]
    fn pages_of_fifty() {
        let (p, n) = super::page((0..120).collect::<Vec<_>>(), 3);
        assert_eq!((p, n), ((100..120).collect::<Vec<_>>(), 3));
        assert_eq!(super::page(Vec::<u8>::new(), 1), (vec![], 1));
        assert!(super::page((0..10).collect::<Vec<_>>(), 9).0.is_empty());
    }
}
