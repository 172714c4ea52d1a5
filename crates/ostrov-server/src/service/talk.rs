//! The game's discussion: a post to the day's thread or the pack's chat (the author's
//! speech as the engine says, the Palms bloom words the engine finds), and the host's flag
//! on a post (for a player's post of the open day also the host penalty of RULES.md §7).

use std::sync::Arc;

use ostrov_store::Store;

use super::host::{host_action, HostAction};
use super::locking::reach;
use crate::app::AppState;
use crate::commit::commit;
use crate::error::ApiError;
use crate::game::{GameEvent, GameState, Post, Room, MAX_POST};
use crate::ratelimit;

/// Where a post stands: its room and the number readers see there (from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Anchor {
    pub room: Room,
    pub shown: usize,
}

/// What the host does to a post.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flag {
    /// A violation: public, and for a seated player's post of the open day the host
    /// penalty too.
    Violation,
    /// The automatic Palms bloom flag is taken back before the deadline.
    DismissPalms,
    /// The host's own flag is withdrawn before the deadline, with the penalty it gave
    /// (O-FLAG-1).
    Withdraw,
}

/// Whether the account `user` may read (and write) room `room`: the thread every signed-in
/// user, the pack's chat the pack and the host.
pub fn may_read(g: &GameState, user: i64, room: Room) -> bool {
    match room {
        Room::Thread => true,
        Room::Pack => g.host == user || g.seat_of(user).is_some_and(|p| g.in_pack(p)),
    }
}

/// A post's text as it is stored: every line one clean line (no control, bidi or invisible
/// characters, NFC), no run of empty lines, none at the end.
pub fn clean_post(text: &str) -> String {
    let lines: Vec<String> = text.split('\n').map(ostrov_engine::clean_line).collect();
    let mut out: Vec<String> = Vec::new();
    for l in lines {
        if l.is_empty() && out.last().is_none_or(|p: &String| p.is_empty()) {
            continue;
        }
        out.push(l);
    }
    while out.last().is_some_and(String::is_empty) {
        out.pop();
    }
    out.join("\n")
}

/// The account `user` (named `account` outside the game) posts `text` to room `room` of
/// game `id`: as the seat's player (with how the engine says the player speaks now and the
/// Palms bloom words found), as the host, or as a spectator.
pub async fn post<S: Store>(
    st: &Arc<AppState<S>>,
    id: i64,
    user: i64,
    account: &str,
    room: Room,
    text: &str,
) -> Result<Anchor, ApiError> {
    let text = clean_post(text);
    let n = text.chars().count();
    if text.is_empty() {
        return Err(ApiError::Invalid("bad_post", "Сообщение пустое: напишите что-нибудь.".into()));
    }
    if n > MAX_POST {
        return Err(ApiError::Invalid(
            "bad_post",
            format!("Сообщение длиннее {MAX_POST} символов ({n}): сократите его."),
        ));
    }
    // The account's age sets its pace (a new account posts slower).
    let created_at = st.store.user_by_id(user).await?.and_then(|u| u.created_at);
    let (mut slot, now) = reach(st, id, Some(user)).await?;
    let live = &slot.live;
    if !may_read(live, user, room) {
        return Err(ApiError::Forbidden);
    }
    // Issue 30, point 12: a forum game's day-talk is on the forum (the decide step says
    // so too; here before the pace is counted).
    if room == Room::Thread && live.forum() {
        return Err(ApiError::Conflict("forum_game", crate::game::forum::THREAD_OFF.into()));
    }
    // A finished game is final (issue 28, point 9): its discussion takes nothing more.
    if live.status == crate::game::Status::Over {
        return Err(ApiError::Conflict(
            "game_over",
            "Игра окончена: обсуждение закрыто, новые сообщения не принимаются.".into(),
        ));
    }
    // O-THREAD-4: the dead read the pack's chat but do not write in it (the seed's
    // forbidden actions: the dead may not sway the game).
    if room == Room::Pack {
        if let (Some(p), Some(m)) = (live.seat_of(user), live.m.as_ref()) {
            if !m.state().alive(p) {
                return Err(ApiError::Conflict(
                    "dead_in_pack",
                    "Мёртвые читают чат стаи, но не пишут в него: стая решает без вас.".into(),
                ));
            }
        }
    }
    // Issue 28, point 11: each account posts at a pace, tighter for spectators and new
    // accounts, so a few throwaway accounts cannot flood a game's record.
    let (host, spectator) = (live.host == user, live.host != user && live.seat_of(user).is_none());
    st.posts.take(user, ratelimit::pace(host, spectator, created_at, now), now).map_err(|wait| {
        let m = format!("Слишком часто: следующее сообщение можно написать через {}.", ratelimit::retry_in(wait));
        ApiError::TooMany(m, wait)
    })?;
    let (name, speaker, banned) = if live.host == user {
        (account.to_string(), "host".to_string(), Vec::new())
    } else if let Some(p) = live.seat_of(user) {
        let name = live.members[p.index()].name.clone();
        match &live.m {
            Some(m) => {
                let speech = m.speech(p);
                let banned = if room == Room::Thread && speech == ostrov_engine::Speech::Free {
                    m.banned_words(&text).into_iter().map(str::to_string).collect()
                } else {
                    Vec::new()
                };
                (name, speech.id().to_string(), banned)
            }
            None => (name, "free".to_string(), Vec::new()),
        }
    } else {
        (account.to_string(), "spectator".to_string(), Vec::new())
    };
    let day = live.days.len() as u32;
    let post = Post { user, name, room, speaker, text, banned };
    let staged = commit(st, &mut slot, GameEvent::Posted { day, post }, Some(user), None, now).await?;
    let shown = slot.live.post_counts.in_room(room);
    drop(slot);
    staged.durable().await?;
    Ok(Anchor { room, shown })
}

/// The host `user` flags post `no` (its place in the game's whole log, from 1) of game
/// `id`, or dismisses its automatic Palms bloom flag. A flag on a seated player's post of
/// the open day is also that player's host penalty for the day.
pub async fn flag<S: Store>(
    st: &Arc<AppState<S>>,
    id: i64,
    user: i64,
    no: usize,
    what: Flag,
) -> Result<Anchor, ApiError> {
    let (name, penalise, anchor, round) = {
        let (slot, _) = reach(st, id, Some(user)).await?;
        let live = &slot.live;
        if live.host != user {
            return Err(ApiError::Forbidden);
        }
        let Some(p) = no.checked_sub(1).and_then(|i| live.posts.get(i)) else { return Err(ApiError::NotFound) };
        if p.post.room == Room::Pack && what == Flag::Violation {
            // A flag is public (O-THREAD-5): on the pack's chat it would name a werewolf.
            return Err(ApiError::Conflict(
                "pack_post",
                "Сообщения чата стаи не отмечаются: отметка видна всем и выдала бы автора. \
                 Наказать игрока можно штрафом в панели ведущего."
                    .into(),
            ));
        }
        let anchor = Anchor { room: p.post.room, shown: p.shown };
        let player = live.m.as_ref().and_then(|m| m.find(&p.post.name)).filter(|_| p.post.user != live.host);
        let seated = player.is_some() && live.seat_of(p.post.user).is_some();
        (p.post.name.clone(), seated && live.open_day() == Some(p.day) && !p.flagged, anchor, p.withdrawn)
    };
    let (ev, key) = match what {
        Flag::Violation => (GameEvent::Flagged { post: no - 1 }, "flag"),
        Flag::DismissPalms => (GameEvent::Dismissed { post: no - 1 }, "dismiss"),
        Flag::Withdraw => (GameEvent::Unflagged { post: no - 1 }, "unflag"),
    };
    if penalise && what == Flag::Violation {
        let reason = Some(crate::game::talk::flag_reason(anchor.shown));
        let action = HostAction::Penalty { target: name, reason };
        match host_action(st, id, user, action, None, |_, _| ()).await {
            Ok(_) | Err(ApiError::Refused(_)) => {}
            Err(e) => return Err(e),
        }
    }
    let (mut slot, now) = reach(st, id, Some(user)).await?;
    // A resend of the same form is the same request; a flag after a withdrawal is new.
    let request = format!("user{user}:flag:{key}:{no}:{round}");
    let staged = commit(st, &mut slot, ev, Some(user), Some(request), now).await?;
    drop(slot);
    staged.durable().await?;
    Ok(anchor)
}
