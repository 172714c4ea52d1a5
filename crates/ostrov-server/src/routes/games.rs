//! Games: create, list, view, invite, join, start.

use argon2::password_hash::rand_core::{OsRng, RngCore};
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use ostrov_store::Store;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{client_request, locked, who, Body, Id, Object, St};
use crate::game::{Config, GameEvent, GameState, SeatSpeech};
use crate::view::{self, Viewer};
use std::sync::Arc;

use crate::{commit, commit_request, ApiError, AppState, LoadedGame};

/// `POST /api/games`: the host creates a game; the response has its id and invite code.
pub async fn create<S: Store>(State(st): St<S>, h: HeaderMap, body: Body<Config>) -> Result<Response, ApiError> {
    let user = who(&st, &h, true).await?;
    let Object(config) = body?;
    let (_, v) = create_game(&st, user, config).await?;
    Ok((StatusCode::CREATED, Json(v)).into_response())
}

/// Creates a game hosted by `user` (the settings checked first): its id and the host's
/// view of it with the invite code.
pub async fn create_game<S: Store>(
    st: &Arc<AppState<S>>,
    user: i64,
    mut config: Config,
) -> Result<(i64, serde_json::Value), ApiError> {
    if config.seed.is_none() {
        config.seed = Some(OsRng.next_u64() >> 1);
    }
    config.title = ostrov_engine::clean_line(&config.title);
    config.check().map_err(ApiError::BadRequest)?;
    // At the API only: a game stored before this limit still loads.
    if let Some(deck) = config.deck.as_ref().filter(|d| d.len() > 4 * config.slots) {
        return Err(ApiError::BadRequest(format!(
            "В колоде {} карт: для {} игроков — не больше {}.",
            deck.len(),
            config.slots,
            4 * config.slots
        )));
    }
    // What one host may keep the server busy with: unfinished games at once, and games a day.
    use crate::ratelimit::{GAMES_PER_DAY, OPEN_GAMES};
    let open = st.games.list().iter().filter(|(_, l)| l.host == user && l.finished.is_none()).count();
    if open >= OPEN_GAMES {
        return Err(ApiError::Conflict(
            "too_many_games",
            format!("У вас уже {open} незаконченных игр: больше {OPEN_GAMES} одновременно вести нельзя."),
        ));
    }
    st.creations.take(user, st.clock.now()).map_err(|wait| {
        let m = format!(
            "За сутки можно создать не больше {GAMES_PER_DAY} игр. Попробуйте через {} ч.",
            (wait + 3599) / 3600
        );
        ApiError::TooMany(m, wait)
    })?;
    let mut b = [0u8; 12];
    OsRng.fill_bytes(&mut b);
    let invite = crate::hex(&b);
    let setup = serde_json::to_value(&config).map_err(|e| ApiError::Internal(e.to_string()))?;
    // Stored and registered in a task of its own, so that a client hanging up cannot leave
    // a game in the database that the server does not know.
    let task = {
        let st = st.clone();
        tokio::spawn(async move {
            let now = st.clock.now();
            let id = st.store.create_game(&config.title, user, &invite, &setup, now).await?;
            let ev = GameEvent::Created(config.clone());
            let (kind, payload) = ev.split();
            let created = ostrov_store::NewEvent {
                at: now,
                author: Some(user),
                client_request_id: None,
                request_hash: None,
                kind,
                payload,
            };
            match st.store.append(id, 0, created).await? {
                ostrov_store::Appended::New(1) => {}
                other => return Err(ApiError::Internal(format!("game {id}: the created event: {other:?}"))),
            }
            let mut live = GameState::new(id, user, config).map_err(ApiError::BadRequest)?;
            live.seq = 1;
            let mut v = view::game(&live, Viewer::Host, now);
            v["invite"] = json!(invite);
            st.games.insert(id, user, LoadedGame::new(live, Default::default()));
            let _ = st.changes.send(id);
            Ok::<_, ApiError>((id, v))
        })
    };
    task.await.map_err(|e| ApiError::Internal(e.to_string()))?
}

/// The query of `GET /api/games`.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// Every game, not only the caller's and those open to join.
    #[serde(default)]
    pub all: bool,
    /// The page, from 1.
    #[serde(default)]
    pub page: Option<usize>,
}

/// `GET /api/games`: the caller's games and the games open to join (`?all=true`: every
/// game), public facts only, newest first, [`crate::listing::PER_PAGE`] a page.
pub async fn list<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    q: Result<axum::extract::Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let user = who(&st, &h, false).await?;
    let axum::extract::Query(q) = q?;
    let page = q.page.unwrap_or(1);
    if page == 0 || page > 1_000_000 {
        return Err(ApiError::BadRequest("Параметр page: номер страницы от 1.".into()));
    }
    let rows = crate::listing::games(&st, user, |g| q.all || g.mine() || g.open()).await?;
    let total = rows.len();
    let (rows, pages) = crate::listing::page(rows, page);
    let games: Vec<serde_json::Value> = rows.iter().map(|g| g.json()).collect();
    Ok(Json(json!({"games": games, "page": page, "pages": pages, "total": total})).into_response())
}

/// `GET /api/games/{id}`: the game as the caller may see it.
pub async fn show<S: Store>(State(st): St<S>, h: HeaderMap, id: Id) -> Result<Response, ApiError> {
    let user = who(&st, &h, false).await?;
    let Path(id) = id?;
    let (slot, now) = locked(&st, id).await?;
    let viewer = Viewer::of(&slot.live, user);
    let mut v = view::game(&slot.live, viewer, now);
    if viewer == Viewer::Host {
        if let Some(row) = st.store.game(id).await? {
            v["invite"] = json!(row.invite);
        }
    }
    Ok(Json(v).into_response())
}

/// The game of an invite code.
pub async fn by_invite<S: Store>(st: &AppState<S>, invite: &str) -> Result<i64, ApiError> {
    if invite.len() > 64 {
        return Err(ApiError::NotFound);
    }
    Ok(st.store.game_by_invite(invite).await?.ok_or(ApiError::NotFound)?.id)
}

/// `GET /api/invites/{invite}`: what the invite is for.
pub async fn invite<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    p: Result<Path<String>, PathRejection>,
) -> Result<Response, ApiError> {
    let _ = who(&st, &h, false).await?;
    let Path(invite) = p?;
    let id = by_invite(&st, &invite).await?;
    let (slot, _) = locked(&st, id).await?;
    let l = &slot.live;
    Ok(Json(json!({
        "id": l.id, "title": l.config.title, "status": l.status, "slots": l.config.slots,
        "members": l.members.iter().map(|m| m.name.clone()).collect::<Vec<_>>(),
    }))
    .into_response())
}

#[derive(Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields)]
pub struct JoinBody {
    /// The player name in this game; the account name by default.
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default, skip_serializing)]
    pub request_id: Option<String>,
}

/// `POST /api/invites/{invite}/join`: takes a seat.
pub async fn join<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    p: Result<Path<String>, PathRejection>,
    body: Body<JoinBody>,
) -> Result<Response, ApiError> {
    let user = who(&st, &h, true).await?;
    let Path(invite) = p?;
    let Object(b) = body?;
    let id = by_invite(&st, &invite).await?;
    let what = serde_json::to_value(&b).map_err(|e| ApiError::Internal(e.to_string()))?;
    let rid = client_request(user, b.request_id, "join", &what)?;
    let name = match b.name {
        Some(n) => n,
        None => st.store.user_by_id(user).await?.ok_or(ApiError::Unauthorized)?.name,
    };
    let (mut slot, now) = locked(&st, id).await?;
    // A resend is answered as the first time; a new seat's name is checked first.
    let resent = rid.as_ref().map(|r| crate::already_stored(&slot, r)).transpose()?.flatten().is_some();
    let name = if resent { name } else { slot.live.seat_name(&name)? };
    let staged = commit_request(&st, &mut slot, GameEvent::Joined { user, name }, Some(user), rid, now).await?;
    let v = view::game(&slot.live, Viewer::of(&slot.live, user), now);
    drop(slot);
    staged.durable().await?;
    Ok(Json(json!({"game": v})).into_response())
}

/// `POST /api/games/{id}/start`: the host deals the roles (by the seed) and day 1 opens.
pub async fn start<S: Store>(State(st): St<S>, h: HeaderMap, id: Id) -> Result<Response, ApiError> {
    let user = who(&st, &h, true).await?;
    let Path(id) = id?;
    let (mut slot, now) = locked(&st, id).await?;
    let staged = start_game(&st, &mut slot, user, now).await?;
    let v = view::game(&slot.live, Viewer::Host, now);
    drop(slot);
    let c = staged.durable().await?;
    Ok(Json(json!({"seq": c.seq(), "game": v})).into_response())
}

/// The host `user` starts the game: the roles dealt by the seed, day 1 open (staged).
pub async fn start_game<S: Store>(
    st: &Arc<AppState<S>>,
    slot: &mut LoadedGame,
    user: i64,
    now: i64,
) -> Result<crate::Staged, ApiError> {
    if slot.live.host != user {
        return Err(ApiError::Forbidden);
    }
    let n = slot.live.members.len();
    if n < ostrov_engine::MIN_PLAYERS {
        return Err(ApiError::Conflict(
            "too_few",
            format!("Для начала нужно хотя бы {} игрока, а присоединилось {n}.", ostrov_engine::MIN_PLAYERS),
        ));
    }
    let roles = slot.live.config.deal(n).map_err(|m| ApiError::Conflict("bad_setup", m))?;
    let roles = roles.iter().map(|r| r.id().to_string()).collect();
    let mut speech = Vec::with_capacity(n);
    for m in &slot.live.members {
        speech.push(seat_speech(st.store.user_by_id(m.user).await?, &m.name));
    }
    commit(st, slot, GameEvent::Started { roles, speech }, Some(user), None, now).await
}

/// A seat's gender and forms from its account's profile as it stands when the game starts
/// (a change made in the lobby counts; a started game keeps what it started with). The
/// forms are the account name's: they go with a seat whose name is that name or looks the
/// same, not with another name the player took in this game.
fn seat_speech(account: Option<ostrov_store::User>, seat: &str) -> SeatSpeech {
    let Some(u) = account else { return SeatSpeech::default() };
    let forms =
        u.forms.filter(|f| f.first().is_some_and(|n| ostrov_engine::skeleton(n) == ostrov_engine::skeleton(seat)));
    SeatSpeech { gender: u.gender, forms }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn account(forms: Option<[&str; 6]>) -> ostrov_store::User {
        ostrov_store::User {
            id: 1,
            name: "Кисуля".into(),
            password_hash: String::new(),
            gender: Some("f".into()),
            forms: forms.map(|f| f.iter().map(|s| s.to_string()).collect()),
        }
    }

    #[test]
    fn a_seat_takes_the_forms_only_under_its_account_name() {
        let forms = ["Кисуля", "Кисули", "Кисуле", "Кисулю", "Кисулей", "Кисуле"];
        let own = seat_speech(Some(account(Some(forms))), "Кисуля");
        assert_eq!((own.gender.as_deref(), own.forms.as_ref().map(Vec::len)), (Some("f"), Some(6)));
        // A look-alike of the name (upper case, a Latin K) is the name.
        assert_eq!(seat_speech(Some(account(Some(forms))), "KИСУЛЯ"), own);
        // Another name in this game: the gender only.
        let other = seat_speech(Some(account(Some(forms))), "Мурка");
        assert_eq!(other, SeatSpeech { gender: Some("f".into()), forms: None });
        assert_eq!(seat_speech(Some(account(None)), "Кисуля"), other);
        assert_eq!(seat_speech(None, "Кисуля"), SeatSpeech::default());
    }
}
