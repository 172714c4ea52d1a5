//! The server's clockwork: every half second, the seat bots' rounds that are due
//! ([`crate::service::bots::drive`]: their orders and posts go through the services, as
//! anyone's), then the scheduler's due steps ([`crate::scheduler::tick`]: 13:00, 21:00,
//! 22:00). The bots go first, so a round due before a step is sent before it runs. Apart
//! from `scheduler.rs`, which the services call (a request runs a game's due steps first).

use std::sync::Arc;

use ostrov_store::Store;

use crate::app::AppState;

/// Starts the scheduler: every half second, the bots' due rounds and every game's due steps.
pub fn spawn_scheduler<S: Store>(st: Arc<AppState<S>>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(std::time::Duration::from_millis(500));
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        loop {
            every.tick().await;
            crate::service::bots::drive(&st).await;
            crate::scheduler::tick(&st).await;
        }
    })
}
