//! Players' records and the setups against reality (issue 33), read from the results
//! stored when games end ([`crate::results`]), never by folding a game: a record and the
//! setups' table are one query each. A private game counts only for a viewer who may see
//! it (its host and players, O-PRIVATE-1).

use std::sync::Arc;

use ostrov_store::Store;

use crate::app::AppState;
use crate::error::ApiError;
use crate::game::Config;
use crate::results::{RecordView, SetupView};

/// The record of the account named `name` as `viewer` (signed in or not) may see it; 404
/// in Russian for a name no account has.
pub async fn record<S: Store>(st: &AppState<S>, name: &str, viewer: Option<i64>) -> Result<RecordView, ApiError> {
    let name = name.trim();
    let user = match st.store.user_by_name(name).await? {
        Some(u) => Some(u),
        // However it is written: a look-alike of a name is that account (as at sign-in).
        None => st.store.user_by_key(&ostrov_engine::skeleton(name)).await?,
    };
    let Some(user) = user else {
        let shown: String = name.chars().filter(|c| !c.is_control()).take(40).collect();
        return Err(ApiError::Missing(format!("Игрока «{shown}» на сервере нет.")));
    };
    let played = st.store.played(user.id, viewer).await?;
    let gender = user.gender.as_deref().and_then(ostrov_engine::ru::Gender::parse);
    Ok(RecordView::of(&user.name, gender, &played))
}

/// Every setup played on the server, as `viewer` may count its games, most played first,
/// each with the simulator's estimate when the balance hint has it cached.
pub async fn setups<S: Store>(st: &AppState<S>, viewer: Option<i64>) -> Result<Vec<SetupView>, ApiError> {
    let counts = st.store.setup_counts(viewer, None).await?;
    let mut out = SetupView::all(&counts);
    for s in &mut out {
        s.predicted = st.hints.cached(&s.key).map(|p| predicted(&p));
    }
    Ok(out)
}

/// The setup of `config` as played on the server (`None`: never played, or the settings
/// are not a setup the engine takes), for the create form's line under the balance hint.
pub async fn setup_of<S: Store>(
    st: &AppState<S>,
    viewer: Option<i64>,
    config: &Config,
) -> Result<Option<SetupView>, ApiError> {
    let Ok(roles) = config.deal(config.slots) else { return Ok(None) };
    let key = crate::results::setup_key(config, &roles);
    let counts = st.store.setup_counts(viewer, Some(&key)).await?;
    Ok(SetupView::all(&counts).into_iter().next())
}

/// Every setup played on the server (its open games), each beside the simulator's
/// estimate of `games` games with the sensible bots (`ostrov simulate --db`): read from the
/// stored results, never by folding a game; the games simulated here, not on a request.
pub async fn against_simulator<S: Store>(store: &S, games: u64) -> Result<Vec<SetupView>, ApiError> {
    let counts = store.setup_counts(None, None).await?;
    let mut out = SetupView::all(&counts);
    for s in &mut out {
        let Some(config) = config_of(s) else { continue };
        let (Ok(roles), Ok(game)) = (config.deal(config.slots), config.placeholder()) else { continue };
        let cfg = super::balance::sim_config(roles, &game, games);
        s.predicted = Some(predicted(&ostrov_bots::simulate_with(&cfg, &|_| {})));
    }
    Ok(out)
}

/// The settings of a setup played on the server, read back from its key (the roles, the
/// deck, the house rules); `None` when the key does not read.
fn config_of(s: &SetupView) -> Option<Config> {
    let key: serde_json::Value = serde_json::from_str(&s.key).ok()?;
    let setup = s
        .roles
        .iter()
        .filter(|(id, n)| id.as_str() != "passenger" && **n > 0)
        .map(|(id, n)| format!("{id}={n}"))
        .collect::<Vec<_>>()
        .join(",");
    Some(Config {
        title: "расклад".into(),
        slots: s.players as usize,
        setup: (!setup.is_empty()).then_some(setup),
        deck: serde_json::from_value(key["deck"].clone()).ok()?,
        rules: serde_json::from_value(key["rules"].clone()).ok()?,
        seed: None,
        shuffle: false,
        schedule: Default::default(),
        discussion: Default::default(),
        visibility: Default::default(),
    })
}

/// The simulator's town share of an estimate.
pub fn predicted(s: &ostrov_bots::Summary) -> crate::results::Share {
    let c = &s.civilians;
    crate::results::Share { wins: c.wins, rate: c.rate, low: c.low, high: c.high }
}

/// Games whose result one pass of [`backfill`] stores at most.
pub const BACKFILL_BATCH: i64 = 64;
/// The most games [`backfill`] stores in one start.
pub const BACKFILL_MAX: usize = 100_000;

/// Stores the result of every finished game that has none (games that ended before
/// results were kept), once, in the background after the start: each folded from its log
/// on its own (not kept in memory), a batch at a time, never holding up the start or the
/// deadlines. A game whose log does not fold to a finished game is left, and counted in
/// one line of the log at the end.
pub async fn backfill<S: Store>(st: &Arc<AppState<S>>) {
    let (mut stored, mut failed) = (0usize, std::collections::BTreeSet::new());
    while stored + failed.len() < BACKFILL_MAX {
        let ids = match st.store.unrecorded(BACKFILL_BATCH + failed.len() as i64).await {
            Ok(ids) => ids,
            Err(e) => {
                eprintln!("ostrov-server: the results of finished games: {e}");
                return;
            }
        };
        let todo: Vec<i64> = ids.into_iter().filter(|id| !failed.contains(id)).collect();
        if todo.is_empty() {
            break;
        }
        for id in todo {
            let host = match st.store.game(id).await {
                Ok(Some(row)) => row.host_id,
                _ => {
                    failed.insert(id);
                    continue;
                }
            };
            let result = match crate::cache::fold_stored(&st.store, id, host).await {
                Ok(Some(slot)) => crate::results::result_of(&slot.live),
                _ => None,
            };
            match result {
                Some(r) if st.store.record_result(&r).await.is_ok() => stored += 1,
                _ => {
                    failed.insert(id);
                }
            }
        }
    }
    if stored > 0 {
        eprintln!("ostrov-server: stored the results of {stored} finished games");
    }
    if let Some(first) = failed.first() {
        eprintln!(
            "ostrov-server: the results of {} finished games could not be stored (their logs do not fold to a \
             finished game; the first: game {first})",
            failed.len()
        );
    }
}
