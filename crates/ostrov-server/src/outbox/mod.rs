//! The notifier: on the node that holds the scheduler's lease, every tick, the notices of
//! each game's new log entries and the reminders due go into the store's outbox, and the
//! outbox's due notices are sent (see the module [`crate::notify`] for what is promised).

pub mod derive;
mod mail;
mod retry;

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use ostrov_store::{NewNotice, Outgoing, Store};

use crate::app::AppState;
use crate::game::Status;
use crate::notify::{DEFAULT_REMIND_HOURS, REMIND_CHOICES};
use crate::telegram::api::ApiFailure;
use retry::{backoff, wall};

/// Notices claimed per tick: under Telegram's 30 messages a second.
const BATCH: i64 = 25;

/// A claim older than this (seconds) belongs to a sender that is gone: its notices are
/// claimed again.
pub const CLAIM_SECS: i64 = 120;

/// Starts the notifier (when a channel is on) and the Telegram bot's poller.
pub fn spawn_notifier<S: Store>(st: Arc<AppState<S>>) {
    if !st.notify.any() {
        return;
    }
    let tick = Duration::from_millis(if st.notify.tick_ms == 0 { 1000 } else { st.notify.tick_ms });
    {
        let st = st.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(tick);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                every.tick().await;
                run_once(&st).await;
            }
        });
    }
    if st.notify.telegram.is_some() {
        tokio::spawn(crate::chat::poll(st));
    }
}

/// One tick: derive, remind, send (only on the lease holder).
pub async fn run_once<S: Store>(st: &Arc<AppState<S>>) {
    match st.store.lead().await {
        Ok(true) => {}
        Ok(false) => return,
        Err(e) => {
            eprintln!("ostrov-server: notifier lease: {e}");
            return;
        }
    }
    if !st.store.shared() && !st.notifier.released.swap(true, Ordering::AcqRel) {
        // One process writes this store: whatever is marked `sending` was claimed by this
        // server before it stopped (a restart, a SIGKILL) and is sent again.
        if let Err(e) = st.store.outbox_release().await {
            eprintln!("ostrov-server: notifier: {e}");
        }
    }
    if let Err(e) = derive_all(st).await {
        eprintln!("ostrov-server: notifier: {e}");
    }
    if let Err(e) = send_due(st).await {
        eprintln!("ostrov-server: notifier: {e}");
    }
}

/// The notices of every game's new entries, and the reminders due.
async fn derive_all<S: Store>(st: &Arc<AppState<S>>) -> Result<(), String> {
    let now = st.clock.now();
    let site = st.notify.site.clone();
    for (id, listing) in st.games.list() {
        if listing.finished.is_some() && !st.games.is_folded(id) {
            continue;
        }
        let Ok(game) = st.game(id).await else { continue };
        let mut slot = game.lock().await;
        if st.store.shared() {
            let _ = st.refresh(&mut slot).await;
        }
        let live = &slot.live;
        // Only what is durable: an entry still being written may yet fail.
        if live.seq != slot.durable.load(Ordering::Acquire) {
            continue;
        }
        let known = st.notifier.read.lock().map_err(|e| e.to_string())?.get(&id).copied();
        if known != Some(live.seq) {
            let cursor = st.store.outbox_cursor(id).await.map_err(|e| e.to_string())?;
            if cursor < live.seq {
                let events = st.store.events_after(id, cursor).await.map_err(|e| e.to_string())?;
                let events: Vec<_> = events.into_iter().filter(|e| e.seq <= live.seq).collect();
                let notices = st.notify.per_channel(derive::notices(live, &events, now, site.as_deref()));
                st.store.outbox_put(id, live.seq, &notices, now).await.map_err(|e| e.to_string())?;
            }
            st.notifier.read.lock().map_err(|e| e.to_string())?.insert(id, live.seq);
        }
        if live.status == Status::Running {
            let reminders = remind(st, live, now, site.as_deref()).await?;
            if !reminders.is_empty() {
                let rows = st.notify.per_channel(reminders.clone());
                st.store.outbox_put(id, 0, &rows, now).await.map_err(|e| e.to_string())?;
                let mut done = st.notifier.reminded.lock().map_err(|e| e.to_string())?;
                for n in &reminders {
                    done.insert((id, live.open_day().unwrap_or(0), n.recipient));
                }
            }
        }
    }
    if let Ok(mut h) = st.notifier.hours.lock() {
        h.clear();
    }
    Ok(())
}

/// The reminders of one game due now, but those already put in the outbox by this node.
async fn remind<S: Store>(
    st: &Arc<AppState<S>>,
    live: &crate::game::GameState,
    now: i64,
    site: Option<&str>,
) -> Result<Vec<NewNotice>, String> {
    let Some(day) = live.open_day() else { return Ok(Vec::new()) };
    let deadline = live.days[day as usize - 1].deadline_at;
    let longest = REMIND_CHOICES.iter().max().copied().unwrap_or(6);
    if now < deadline - live.times.span(longest * 3600) || now >= deadline {
        return Ok(Vec::new());
    }
    // Each seat's account's setting, read once a tick.
    let mut hours = HashMap::new();
    for m in live.members.iter().filter(|m| !m.is_bot()) {
        let done = st.notifier.reminded.lock().map_err(|e| e.to_string())?.contains(&(live.id, day, m.user));
        if done {
            hours.insert(m.user, 0);
            continue;
        }
        let cached = st.notifier.hours.lock().map_err(|e| e.to_string())?.get(&m.user).copied();
        let h = match cached {
            Some(h) => h,
            None => {
                let h = st.store.remind_hours(m.user).await.map_err(|e| e.to_string())?;
                let h = h.unwrap_or(DEFAULT_REMIND_HOURS);
                st.notifier.hours.lock().map_err(|e| e.to_string())?.insert(m.user, h);
                h
            }
        };
        hours.insert(m.user, h);
    }
    Ok(derive::reminders(live, now, site, &|u| hours.get(&u).copied().unwrap_or(0)))
}

/// Sends the outbox's due notices: mail rows by mail ([`mail`]), the others by Telegram.
async fn send_due<S: Store>(st: &Arc<AppState<S>>) -> Result<(), String> {
    let now = wall();
    let telegram_held = st.notifier.hold_until.load(Ordering::Acquire) > now;
    let claim = format!("{}:{}", st.notifier.node, st.notifier.claims.fetch_add(1, Ordering::AcqRel));
    let due = st.store.outbox_claim(&claim, now, now - CLAIM_SECS, BATCH).await.map_err(|e| e.to_string())?;
    let mut held = telegram_held;
    for n in due {
        if n.kind.starts_with(crate::mail::PREFIX) {
            mail::send_one(st, &claim, &n).await?;
            continue;
        }
        let Some(bot) = st.notify.telegram.clone() else {
            st.store
                .outbox_done(n.id, &claim, "dropped", now, Some("telegram off"))
                .await
                .map_err(|e| e.to_string())?;
            continue;
        };
        if held {
            let until = st.notifier.hold_until.load(Ordering::Acquire).max(now);
            st.store.outbox_retry(n.id, &claim, until, "held").await.map_err(|e| e.to_string())?;
            continue;
        }
        held = send_one(st, &bot, &claim, &n).await?;
    }
    Ok(())
}

/// Sends one claimed notice: whether Telegram asked to hold every send.
async fn send_one<S: Store>(
    st: &Arc<AppState<S>>,
    bot: &crate::telegram::Bot,
    claim: &str,
    n: &Outgoing,
) -> Result<bool, String> {
    let store = |e: ostrov_store::StoreError| e.to_string();
    let Some(chat) = st.store.telegram_chat(n.recipient).await.map_err(store)? else {
        st.store.outbox_done(n.id, claim, "dropped", wall(), Some("no chat linked")).await.map_err(store)?;
        return Ok(false);
    };
    // One message a second to a chat: a second one waits for the next tick.
    let now_ms = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis());
    let last = st.notifier.last_sent.lock().map_err(|e| e.to_string())?.get(&chat).copied();
    if last.is_some_and(|t| now_ms < t + 1000) {
        st.store.outbox_retry(n.id, claim, wall(), "one a second per chat").await.map_err(store)?;
        return Ok(false);
    }
    let sent = bot.send(chat, &n.text, None).await;
    st.notifier.last_sent.lock().map_err(|e| e.to_string())?.insert(chat, now_ms);
    match sent {
        Ok(_) => {
            st.store.outbox_done(n.id, claim, "sent", wall(), None).await.map_err(store)?;
            Ok(false)
        }
        Err(ApiFailure::RetryAfter(secs)) => {
            let until = wall() + secs;
            st.notifier.hold_until.store(until, Ordering::Release);
            st.store.outbox_retry(n.id, claim, until, &format!("429: retry after {secs} s")).await.map_err(store)?;
            Ok(true)
        }
        Err(ApiFailure::Refused(code, why)) => {
            // The user blocked the bot, or the chat is gone: this notice cannot be delivered.
            st.store
                .outbox_done(n.id, claim, "dropped", wall(), Some(&format!("{code}: {why}")))
                .await
                .map_err(store)?;
            Ok(false)
        }
        Err(ApiFailure::Unreachable(why)) => {
            let wait = backoff(n.attempts);
            st.store.outbox_retry(n.id, claim, wall() + wait, &why).await.map_err(store)?;
            Ok(false)
        }
    }
}
