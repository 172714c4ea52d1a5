//! The scheduler: every half second, each game's steps that are due (the 13:00 stage, the
//! 21:00 resolution with the standing Palms bloom penalties before it, the next day's
//! opening), each appended exactly once, its request id naming the step.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use ostrov_store::Store;

use crate::app::AppState;
use crate::cache::LoadedGame;
use crate::commit::{commit, Committed};
use crate::error::ApiError;
use crate::game;
use crate::game::GameEvent;
use crate::game::Status;
use crate::registry;

/// Before the host resolves the open day early: the standing Palms bloom flags become
/// host penalties, each once and durable (the same entries as at the deadline).
pub async fn palms_penalties<S: Store>(st: &Arc<AppState<S>>, slot: &mut LoadedGame, now: i64) -> Result<(), ApiError> {
    for _ in 0..game::MAX_SLOTS {
        let Some(GameEvent::Order { day, order }) = slot.live.palms_due(now) else { return Ok(()) };
        let rid = format!("sched:palms:{day}:{}", order.target.as_deref().unwrap_or(""));
        let staged = commit(st, slot, GameEvent::Order { day, order }, None, Some(rid), now).await?;
        if let Committed::Duplicate(_) = staged.durable().await? {
            return Ok(());
        }
    }
    Ok(())
}

/// A scheduler step that could not run: which, and why.
#[derive(Debug)]
pub struct StepFailed {
    /// The step, in Russian ("подведение итогов дня 2").
    pub step: String,
    pub error: ApiError,
}

impl StepFailed {
    /// What the host is shown: the step and the reason (never an internal detail).
    pub fn reason(&self) -> String {
        let why = match &self.error {
            ApiError::Internal(_) | ApiError::NotSaved(_) => {
                "внутренняя ошибка сервера; сервер повторяет попытку".to_string()
            }
            e => e.message(),
        };
        format!("Не удалось выполнить шаг «{}»: {why}", self.step)
    }

    /// What the server's log gets: the reason with the internal detail.
    pub fn detail(&self) -> String {
        match &self.error {
            ApiError::Internal(d) | ApiError::NotSaved(d) => format!("{}: {d}", self.step),
            e => format!("{}: {}", self.step, e.message()),
        }
    }
}

/// Runs every scheduler step of a game that is due at `now` (the 13:00 stage, the
/// resolution, the next opening), each exactly once: its request id names the step. Each
/// step is durable before the next is staged (they are rare; the lock is held).
pub async fn advance<S: Store>(st: &Arc<AppState<S>>, slot: &mut LoadedGame, now: i64) -> Result<(), StepFailed> {
    st.repair(slot).await.map_err(|error| StepFailed { step: "чтение журнала игры".into(), error })?;
    // Each step, and before a resolution each standing Palms bloom flag, is one entry.
    for _ in 0..8 + game::MAX_SLOTS {
        let Some(ev) = slot.live.due(now) else { return Ok(()) };
        let (rid, step) = match &ev {
            GameEvent::Midday { day, .. } => (format!("sched:midday:{day}"), format!("промежуточный этап дня {day}")),
            GameEvent::Resolved { day, .. } => (format!("sched:resolve:{day}"), format!("подведение итогов дня {day}")),
            GameEvent::Opened { day, .. } => (format!("sched:open:{day}"), format!("открытие дня {day}")),
            GameEvent::Order { day, order } => (
                format!("sched:palms:{day}:{}", order.target.as_deref().unwrap_or("")),
                format!("штраф за цветение пальм, день {day}"),
            ),
            _ => return Ok(()),
        };
        let done = match commit(st, slot, ev, None, Some(rid), now).await {
            Ok(staged) => staged.durable().await,
            Err(e) => Err(e),
        };
        match done {
            // A step already in the log: done here; on a shared store memory has caught
            // up with it (another node ran it) and the next due step is looked at.
            Ok(Committed::Duplicate(_)) if !st.store.shared() => return Ok(()),
            Ok(_) => {}
            // Another node holds the game: its scheduler runs the step.
            Err(ApiError::Elsewhere(_)) => return Ok(()),
            Err(error) => return Err(StepFailed { step, error }),
        }
    }
    Ok(())
}

/// Runs the game's due steps and keeps the outcome in
/// [`GameState::broken`](crate::game::GameState::broken): a step that fails leaves the game
/// readable (and open to the host's fixes), marked broken with the reason until the step
/// runs. Returns the failure when it is new (to be logged once, not on every tick).
pub async fn run_due<S: Store>(st: &Arc<AppState<S>>, slot: &mut LoadedGame, now: i64) -> Option<StepFailed> {
    match advance(st, slot, now).await {
        Ok(()) => {
            slot.live.broken = None;
            None
        }
        Err(f) => {
            let reason = f.reason();
            let new = slot.live.broken.as_deref() != Some(reason.as_str());
            slot.live.broken = Some(reason);
            new.then_some(f)
        }
    }
}

/// Folds every unfinished game once (the scheduler's first tick), a few at a time, so that
/// each is in the scheduler's index; a game found over whose summary was not stored (the
/// server stopped in between) gets it now.
async fn warm<S: Store>(st: &Arc<AppState<S>>) {
    let ids: Vec<i64> = st.games.list().into_iter().filter(|(_, l)| l.finished.is_none()).map(|(id, _)| id).collect();
    for chunk in ids.chunks(8) {
        let mut set = tokio::task::JoinSet::new();
        for &id in chunk {
            let st = st.clone();
            set.spawn(async move {
                let Ok(game) = st.game(id).await else { return };
                let over = {
                    let slot = game.lock().await;
                    (slot.live.status == Status::Over)
                        .then(|| (registry::Summary::of(&slot.live), crate::results::result_of(&slot.live)))
                };
                if let Some((summary, result)) = over {
                    st.finish(id, summary, result).await;
                }
            });
        }
        while set.join_next().await.is_some() {}
    }
}

/// Runs the scheduler once: every game with a step due now (from the index of next due
/// times; the first tick starts folding every unfinished game, in the background, to fill
/// it), and drops finished games long unused.
pub async fn tick<S: Store>(st: &Arc<AppState<S>>) {
    // Of nodes sharing a store, the scheduler lease's holder runs the deadlines of every
    // game no other node owns (taking the game's lease), and every node those of the
    // games it owns (issue 34). Exactly once rests on the request ids, the expected seqs
    // and the games' fences, not on the leases.
    let lead = match st.store.lead().await {
        Ok(lead) => lead,
        Err(e) => {
            eprintln!("ostrov-server: scheduler lease: {e}");
            false
        }
    };
    if !lead {
        let now = st.clock.now();
        for id in st.games.due(now).into_iter().filter(|id| st.store.owns(*id)) {
            run_game(st, id).await;
        }
        return;
    }
    // The first tick starts folding every unfinished game, in the background: a game with a
    // long log never holds up the deadlines of the games already folded (issue 28, point 11);
    // each game joins the index of due times once folded.
    if !st.warm.swap(true, Ordering::AcqRel) {
        let st = st.clone();
        tokio::spawn(async move {
            warm(&st).await;
            crate::service::records::backfill(&st).await;
        });
    }
    let now = st.clock.now();
    for id in st.games.due(now) {
        run_game(st, id).await;
    }
    st.games.evict_idle();
}

/// Runs one game's due steps (for the scheduler's tick).
async fn run_game<S: Store>(st: &Arc<AppState<S>>, id: i64) {
    let Ok(game) = st.game(id).await else { return };
    let mut slot = game.lock().await;
    let now = st.clock.now();
    let failure = run_due(st, &mut slot, now).await.map(|f| f.detail());
    // The cause of a failing step is logged once (when it starts or changes), not on
    // every tick while it lasts.
    let mut logged = st.scheduler_errors.lock().unwrap_or_else(|p| p.into_inner());
    match failure {
        Some(why) if logged.get(&id) != Some(&why) => {
            eprintln!("ostrov-server: scheduler, game {id}: {why}");
            logged.insert(id, why);
        }
        Some(_) => {}
        None => {
            if logged.remove(&id).is_some() {
                eprintln!("ostrov-server: scheduler, game {id}: the due step has run");
            }
        }
    }
    drop(logged);
    st.games.note(&slot.live);
}
