//! Which games the server holds, without folding them all: every game's row is listed at
//! start (one query), a game is folded from its log on first use, a finished game is
//! listed from the summary stored when it ended and folded only when someone opens it (and
//! dropped again after [`IDLE_EVICT`] unused), and the scheduler reads a small index of
//! each running game's next due time instead of visiting every game. On a store several
//! nodes share, a game another node created after this one started is listed when this
//! node first hears of it ([`Registry::learn`]: a request for it, or the watcher).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use tokio::sync::{Mutex, OnceCell};

use crate::game::GameState;
use crate::loaded::LoadedGame;

/// A finished game not used for this long is dropped from memory (it is folded again
/// from its log if someone opens it).
pub const IDLE_EVICT: Duration = Duration::from_secs(600);

/// What the game list shows of a finished game, stored with it when it ends
/// ([`ostrov_store::Store::finish_game`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub title: String,
    pub slots: usize,
    pub joined: usize,
    pub day: usize,
    /// The user of each seat.
    pub members: Vec<i64>,
    /// Who won, in Russian (`Winner::ru`); `None` for a draw.
    #[serde(default)]
    pub winner: Option<String>,
    /// A private game (O-PRIVATE-1): listed only to its host and players. Absent in the
    /// summaries of games that ended before private games: they were open.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub private: bool,
}

impl Summary {
    pub fn of(live: &GameState) -> Summary {
        Summary {
            title: live.config.title.clone(),
            slots: live.config.slots,
            joined: live.members.len(),
            day: live.days.len(),
            members: live.members.iter().map(|m| m.user).collect(),
            winner: live.winner().map(|w| w.ru().to_string()),
            private: !live.config.visibility.is_open(),
        }
    }
}

/// A game as listed without its fold.
#[derive(Clone, Debug)]
pub struct Listing {
    pub host: i64,
    pub finished: Option<Summary>,
}

/// A game in memory, folded on first use.
#[derive(Default)]
pub struct Loaded {
    pub slot: OnceCell<Arc<Mutex<LoadedGame>>>,
    /// Milliseconds since the registry started, at the last use.
    used: AtomicU64,
}

/// Every game: the listing of each, the folded ones, and the scheduler's index.
pub struct Registry {
    started: Instant,
    pub listing: std::sync::RwLock<BTreeMap<i64, Listing>>,
    pub loaded: std::sync::RwLock<HashMap<i64, Arc<Loaded>>>,
    dues: std::sync::Mutex<Dues>,
}

/// Each folded running game's next due time (the 13:00 stage, the deadline, the opening).
#[derive(Default)]
struct Dues {
    by_time: BTreeSet<(i64, i64)>,
    of: HashMap<i64, i64>,
}

impl Registry {
    pub fn new(listing: BTreeMap<i64, Listing>) -> Registry {
        Registry {
            started: Instant::now(),
            listing: std::sync::RwLock::new(listing),
            loaded: Default::default(),
            dues: Default::default(),
        }
    }

    fn now_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    /// The in-memory cell of a listed game (`None`: no such game), marked used now.
    pub fn cell(&self, id: i64) -> Option<(Arc<Loaded>, i64)> {
        let host = self.listing.read().ok()?.get(&id)?.host;
        let found = self.loaded.read().ok()?.get(&id).cloned();
        let cell = match found {
            Some(c) => c,
            None => self.loaded.write().ok()?.entry(id).or_default().clone(),
        };
        cell.used.store(self.now_ms(), Ordering::Relaxed);
        Some((cell, host))
    }

    /// A game the server just created. If the game is in memory already (on a shared
    /// store the watcher may have heard of its `created` entry and folded it first), that
    /// fold stays: both are folds of the same log.
    pub fn insert(&self, id: i64, host: i64, slot: LoadedGame) {
        self.note(&slot.live);
        if let Ok(mut l) = self.listing.write() {
            l.insert(id, Listing { host, finished: None });
        }
        let cell = match self.loaded.write() {
            Ok(mut g) => g.entry(id).or_default().clone(),
            Err(_) => return,
        };
        let _ = cell.slot.set(Arc::new(Mutex::new(slot)));
        cell.used.store(self.now_ms(), Ordering::Relaxed);
    }

    /// Lists a game this server did not create and had not listed (another node sharing
    /// the store created it after this one started); a game already listed is left as it
    /// is. Whether it was new.
    pub fn learn(&self, id: i64, host: i64, finished: Option<Summary>) -> bool {
        let Ok(mut l) = self.listing.write() else { return false };
        if l.contains_key(&id) {
            return false;
        }
        l.insert(id, Listing { host, finished });
        true
    }

    /// Whether the game is folded in memory now.
    pub fn is_folded(&self, id: i64) -> bool {
        self.loaded.read().is_ok_and(|g| g.get(&id).is_some_and(|c| c.slot.initialized()))
    }

    /// Forgets a game whose row has no log (its creation was cut short).
    pub fn forget(&self, id: i64) {
        if let Ok(mut l) = self.listing.write() {
            l.remove(&id);
        }
        if let Ok(mut g) = self.loaded.write() {
            g.remove(&id);
        }
    }

    /// Records the game's next due time (from its fold as it now stands).
    pub fn note(&self, live: &GameState) {
        let due = live.next_due();
        let id = live.id;
        if let Ok(mut d) = self.dues.lock() {
            if let Some(old) = d.of.remove(&id) {
                d.by_time.remove(&(old, id));
            }
            if let Some(t) = due {
                d.of.insert(id, t);
                d.by_time.insert((t, id));
            }
        }
    }

    /// The games with something due at `now`.
    pub fn due(&self, now: i64) -> Vec<i64> {
        self.dues.lock().map(|d| d.by_time.range(..=(now, i64::MAX)).map(|&(_, id)| id).collect()).unwrap_or_default()
    }

    /// Marks a game finished, with its summary.
    pub fn finish(&self, id: i64, summary: Summary) {
        if let Ok(mut l) = self.listing.write() {
            if let Some(e) = l.get_mut(&id) {
                e.finished = Some(summary);
            }
        }
    }

    /// Every listed game, in id order, with its summary if it is finished.
    pub fn list(&self) -> Vec<(i64, Listing)> {
        self.listing.read().map(|l| l.iter().map(|(k, v)| (*k, v.clone())).collect()).unwrap_or_default()
    }

    /// Drops the finished games nobody has used for [`IDLE_EVICT`] and nobody holds.
    pub fn evict_idle(&self) {
        let now = self.now_ms();
        let idle = IDLE_EVICT.as_millis() as u64;
        let finished: Vec<i64> = self
            .listing
            .read()
            .map(|l| l.iter().filter(|(_, v)| v.finished.is_some()).map(|(k, _)| *k).collect())
            .unwrap_or_default();
        if let Ok(mut g) = self.loaded.write() {
            for id in finished {
                let drop_it = g.get(&id).is_some_and(|c| {
                    now.saturating_sub(c.used.load(Ordering::Relaxed)) > idle
                        && Arc::strong_count(c) == 1
                        && c.slot.get().is_none_or(|s| Arc::strong_count(s) == 1)
                });
                if drop_it {
                    g.remove(&id);
                }
            }
        }
    }

    /// How many games are folded in memory.
    pub fn folded(&self) -> usize {
        self.loaded.read().map(|g| g.values().filter(|c| c.slot.initialized()).count()).unwrap_or(0)
    }
}
