//! The host's powers (RULES.md §7): answer the Spirit, flag a violation (the player's vote
//! does not count), disqualify a player, fix a random draw, extend a deadline, run the
//! 13:00 stage now, resolve now, open the next day now, pause and resume, link a forum
//! game's topic of the day. Each is an event in the log; the public ones are in the game's history.

use std::sync::Arc;

use ostrov_engine::OrderEntry;
use ostrov_store::Store;
use serde_json::json;

use super::locking::reach;
use crate::app::AppState;
use crate::error::ApiError;
use crate::game::{Fix, GameEvent, GameState, Status};
use crate::idempotency::RequestId;

/// The longest reason a host may give for a penalty or a removal, in characters.
pub const MAX_REASON: usize = 500;

/// One of the host's powers, as the front-ends read it from their requests.
#[derive(Clone, Debug, PartialEq)]
pub enum HostAction {
    /// The Spirit's answer to the day's question.
    Answer {
        yes: bool,
    },
    /// The host penalty: the player's vote does not count today.
    Penalty {
        target: String,
        reason: Option<String>,
    },
    /// The player leaves the game.
    Remove {
        target: String,
        reason: Option<String>,
    },
    /// A fix of day `day`'s random draws (the open day, or the next one, when `None`).
    Fix {
        day: Option<u32>,
        fix: Fix,
    },
    /// A later deadline for the open day.
    Extend(Deadline),
    /// The open day's 13:00 stage runs now (the bulletin is published).
    Midday,
    /// The open day is resolved now (its 13:00 stage first, if it has not run).
    Resolve,
    /// The next day opens now, between the resolution and its opening time; its 13:00
    /// and deadline follow from now by the schedule.
    Open,
    Pause,
    Resume,
    /// Another account (by its name) takes a seat (issue 30, point 4).
    Replace {
        seat: String,
        user: String,
    },
    /// The host calls for a substitute for a seat (`wanted: false`: withdraws the call).
    Want {
        seat: String,
        wanted: bool,
    },
    /// The forum topic of the open day (or of the next, between a resolution and its
    /// opening) in a forum game (issue 30, point 12).
    Topic {
        url: String,
    },
}

/// How the host moves the open day's deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deadline {
    /// At this Unix time.
    At(i64),
    /// This many minutes later than it is now (1 to 20,160: two weeks).
    Later(u32),
}

impl HostAction {
    /// The action's name in the API's path (`/host/{action}`).
    pub fn name(&self) -> &'static str {
        match self {
            HostAction::Answer { .. } => "answer",
            HostAction::Penalty { .. } => "penalty",
            HostAction::Remove { .. } => "remove",
            HostAction::Fix { .. } => "fix",
            HostAction::Extend(_) => "extend",
            HostAction::Midday => "midday",
            HostAction::Resolve => "resolve",
            HostAction::Open => "open",
            HostAction::Pause => "pause",
            HostAction::Resume => "resume",
            HostAction::Replace { .. } => "replace",
            HostAction::Want { .. } => "wanted",
            HostAction::Topic { .. } => "topic",
        }
    }
}

/// What a host action did: whether it was a resend of a request already stored, and the
/// log entry it made (the host sees every event).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostDone {
    pub duplicate: bool,
    pub seq: i64,
}

fn host_order(act: &str, target: Option<String>, reason: Option<String>, answer: Option<bool>) -> OrderEntry {
    OrderEntry {
        by: "host".into(),
        act: act.into(),
        target,
        reason,
        answer: answer.map(serde_json::Value::Bool),
        ..OrderEntry::default()
    }
}

/// Whether `user` may use the host's powers in game `id` now: its host, in a game that
/// has started (403 and 409 `not_started` otherwise). A front-end asks this before it
/// reports what is wrong with the request itself, so that nobody but the host learns more
/// than "forbidden".
pub async fn require_host<S: Store>(st: &Arc<AppState<S>>, id: i64, user: i64) -> Result<(), ApiError> {
    let (slot, _) = reach(st, id, Some(user)).await?;
    host_of(&slot.live, user)
}

/// Whether `user` hosts the started game `g` (403, and 409 `not_started` in the lobby).
pub(super) fn host_of(g: &GameState, user: i64) -> Result<(), ApiError> {
    if g.host != user {
        return Err(ApiError::Forbidden);
    }
    if g.status == Status::Lobby {
        return Err(ApiError::Conflict("not_started", "Игра ещё не началась.".into()));
    }
    Ok(())
}

/// The host `user` acts in game `id`, durably. A resend of `request` is answered as the
/// first time. `show` sees the game right after the action.
pub async fn host_action<S: Store, T>(
    st: &Arc<AppState<S>>,
    id: i64,
    user: i64,
    action: HostAction,
    request: Option<RequestId>,
    show: impl FnOnce(&GameState, i64) -> T,
) -> Result<(HostDone, T), ApiError> {
    // The substitute's account, looked up before the game is locked, once the caller is
    // known to be the host (nobody else learns whether an account exists).
    let substitute = match &action {
        HostAction::Replace { user: name, .. } => {
            require_host(st, id, user).await?;
            Some(account(st, name).await?)
        }
        _ => None,
    };
    let (mut slot, now) = reach(st, id, Some(user)).await?;
    host_of(&slot.live, user)?;
    let live = &slot.live;
    if let Some((r, seq)) =
        request.as_ref().and_then(|r| crate::commit::already_stored(&slot, r).transpose().map(|s| (r, s)))
    {
        // The same request again: the same answer, once the first is durable.
        let seq = seq?;
        let first = crate::commit::durable_request(st, &slot, r.id.clone(), seq);
        let shown = show(&slot.live, now);
        drop(slot);
        first.durable().await?;
        return Ok((HostDone { duplicate: true, seq }, shown));
    }
    let open = live.open_day();
    let need_open = || open.ok_or_else(|| ApiError::Conflict("not_open", "Сейчас нет открытого дня.".into()));
    let with_clock = |mut o: OrderEntry| -> Result<(u32, OrderEntry), ApiError> {
        need_open()?;
        let (d, at) = live.order_time(now)?;
        o.at = Some(json!(at.to_string()));
        Ok((d, o))
    };
    let ev = match action {
        HostAction::Answer { yes } => {
            let (day, order) = with_clock(host_order("answer", None, None, Some(yes)))?;
            GameEvent::Order { day, order }
        }
        HostAction::Penalty { ref target, ref reason } | HostAction::Remove { ref target, ref reason } => {
            if reason.as_ref().is_some_and(|r| r.chars().count() > MAX_REASON) {
                return Err(ApiError::BadRequest(format!("Причина длиннее {MAX_REASON} символов.")));
            }
            // Free text is one clean line before it is stored (it is published).
            let reason = reason.as_deref().map(ostrov_engine::clean_line).filter(|r| !r.is_empty());
            let (day, order) = with_clock(host_order(action.name(), Some(target.clone()), reason, None))?;
            GameEvent::Order { day, order }
        }
        HostAction::Fix { day, fix } => {
            let day = match (day, open) {
                (Some(d), _) => d,
                (None, Some(d)) => d,
                (None, None) => live.days.len() as u32 + 1,
            };
            GameEvent::Fixed { day, fix }
        }
        HostAction::Extend(deadline) => {
            let day = need_open()?;
            let current = live.days[day as usize - 1].deadline_at;
            let deadline_at = match deadline {
                Deadline::At(t) => t,
                Deadline::Later(m) if (1..=60 * 24 * 14).contains(&m) => current + live.times.span(m as i64 * 60),
                Deadline::Later(_) => {
                    return Err(ApiError::BadRequest(
                        "Укажите либо deadline (время RFC 3339), либо minutes (от 1 до 20160).".into(),
                    ))
                }
            };
            GameEvent::Extended { day, deadline_at }
        }
        HostAction::Midday => GameEvent::Midday { day: need_open()?, early: true },
        HostAction::Resolve => GameEvent::Resolved { day: need_open()?, early: true },
        HostAction::Open => {
            if open.is_some() {
                return Err(ApiError::Conflict("day_open", "День уже открыт: сначала подведите его итоги.".into()));
            }
            if live.status == Status::Over {
                return Err(ApiError::Conflict("game_over", "Игра окончена: новых дней не будет.".into()));
            }
            let (midday_at, deadline_at) = live.times.day_after_opening(now);
            GameEvent::Opened { day: live.days.len() as u32 + 1, midday_at, deadline_at, early: true }
        }
        HostAction::Pause => GameEvent::Paused {},
        HostAction::Resume => GameEvent::Resumed {},
        HostAction::Replace { seat, .. } => {
            let (user, name) =
                substitute.ok_or_else(|| ApiError::Internal("the substitute was not looked up".into()))?;
            GameEvent::Replaced { seat: live.seated_as(&seat).map_or(seat, str::to_string), user, name }
        }
        HostAction::Want { seat, wanted } => {
            GameEvent::Wanted { seat: live.seated_as(&seat).map_or(seat, str::to_string), wanted }
        }
        HostAction::Topic { url } => {
            if !live.forum() {
                return Err(ApiError::Conflict(
                    "not_forum",
                    "Обсуждение этой игры идёт в треде на её странице, а не на форуме.".into(),
                ));
            }
            let url = crate::game::topic_url(&url, "url").map_err(ApiError::BadRequest)?;
            GameEvent::Topic { day: live.topic_day(), url }
        }
    };
    if matches!(ev, GameEvent::Resolved { .. }) {
        crate::scheduler::palms_penalties(st, &mut slot, now).await?;
    }
    let staged = crate::commit::commit_request(st, &mut slot, ev, Some(user), request, now).await?;
    let shown = show(&slot.live, now);
    drop(slot);
    let c = staged.durable().await?;
    Ok((HostDone { duplicate: false, seq: c.seq() }, shown))
}

/// The longest account name a substitute is looked up by, in characters.
const MAX_ACCOUNT_NAME: usize = 80;

/// The account named `name` (however its look-alikes are written), as its id and its
/// name; 422 in Russian when there is none.
async fn account<S: Store>(st: &Arc<AppState<S>>, name: &str) -> Result<(i64, String), ApiError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > MAX_ACCOUNT_NAME {
        return Err(ApiError::BadRequest(format!(
            "Укажите имя учётной записи замены (user): от 1 до {MAX_ACCOUNT_NAME} символов."
        )));
    }
    let found = match st.store.user_by_name(name).await? {
        Some(u) => Some(u),
        None => st.store.user_by_key(&ostrov_engine::skeleton(name)).await?,
    };
    found.map(|u| (u.id, u.name)).ok_or_else(|| {
        ApiError::Invalid("no_account", format!("Учётной записи «{}» нет.", ostrov_engine::clean_line(name)))
    })
}
