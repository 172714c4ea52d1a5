//! The lobby's use cases: a host creates a game, players join it by its invite, the host
//! starts it.

use std::sync::Arc;

use argon2::password_hash::rand_core::{OsRng, RngCore};
use ostrov_store::Store;

use super::locking::locked;
use crate::app::AppState;
use crate::cache::LoadedGame;
use crate::commit::commit;
use crate::commit::commit_request;
use crate::error::ApiError;
use crate::game::{Config, GameEvent, GameState, SeatSpeech};
use crate::idempotency::RequestId;

/// A game just created.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Created {
    pub id: i64,
    /// The invite code that lets players join.
    pub invite: String,
}

/// The game of an invite code.
pub async fn by_invite<S: Store>(st: &AppState<S>, invite: &str) -> Result<i64, ApiError> {
    Ok(invited(st, invite).await?.id)
}

/// The stored row of the game of an invite code.
async fn invited<S: Store>(st: &AppState<S>, invite: &str) -> Result<ostrov_store::GameRow, ApiError> {
    if invite.len() > 64 {
        return Err(ApiError::NotFound);
    }
    st.store.game_by_invite(invite).await?.ok_or(ApiError::NotFound)
}

/// Creates a game hosted by `user` (the settings checked first, the title one clean line,
/// the seed drawn when not given), within what one host may keep the server busy with.
/// `show` sees the new game.
pub async fn create_game<S: Store, T: Send + 'static>(
    st: &Arc<AppState<S>>,
    user: i64,
    mut config: Config,
    show: impl FnOnce(&GameState, i64) -> T + Send + 'static,
) -> Result<(Created, T), ApiError> {
    if config.seed.is_none() {
        config.seed = Some(OsRng.next_u64() >> 1);
    }
    config.title = ostrov_engine::clean_line(&config.title);
    config.discussion = config.discussion.normalised("discussion.forum").map_err(ApiError::BadRequest)?;
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
    store_game(st, user, config, show).await
}

/// Stores and registers a game hosted by `user` with settings already checked and a seed
/// drawn, without the limits of one host ([`create_game`] checks them; the practice games
/// of `ostrov demo`, all hosted by one account, have limits of their own).
pub(crate) async fn store_game<S: Store, T: Send + 'static>(
    st: &Arc<AppState<S>>,
    user: i64,
    config: Config,
    show: impl FnOnce(&GameState, i64) -> T + Send + 'static,
) -> Result<(Created, T), ApiError> {
    let mut b = [0u8; 12];
    OsRng.fill_bytes(&mut b);
    let invite = crate::hex::hex(&b);
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
            let mut live = GameState::created(id, user, config, now).map_err(ApiError::BadRequest)?;
            live.seq = 1;
            let shown = show(&live, now);
            st.games.insert(id, user, LoadedGame::new(live, Default::default()));
            let _ = st.changes.send(id);
            Ok::<_, ApiError>((Created { id, invite }, shown))
        })
    };
    task.await.map_err(|e| ApiError::Internal(e.to_string()))?
}

/// `user` takes a seat in the game of `invite` under `name` (the account's name when
/// `None`), checked against the seats taken by its look-alike key. A resend of `request`
/// is answered as the first time. `show` sees the game after the join.
pub async fn join<S: Store, T>(
    st: &Arc<AppState<S>>,
    user: i64,
    invite: &str,
    name: Option<String>,
    request: Option<RequestId>,
    show: impl FnOnce(&GameState, i64) -> T,
) -> Result<(i64, T), ApiError> {
    let row = invited(st, invite).await?;
    let (id, host) = (row.id, row.host_id);
    let name = match name {
        Some(n) => n,
        None => st.store.user_by_id(user).await?.ok_or(ApiError::Unauthorized)?.name,
    };
    let host_name = st.store.user_by_id(host).await?.map(|u| u.name);
    let (mut slot, now) = locked(st, id).await?;
    // The host's account name and its look-alikes are the host's in this game (issue 28,
    // point 7): a seat under it would speak as the host.
    if user != host && host_name.is_some_and(|h| ostrov_engine::skeleton(&h) == ostrov_engine::skeleton(&name)) {
        return Err(ApiError::Conflict(
            "bad_name",
            format!("Имя «{}» — это имя ведущего этой игры (или выглядит так же): выберите другое.", name.trim()),
        ));
    }
    // A resend is answered as the first time; a new seat's name is checked first.
    let resent = request.as_ref().map(|r| crate::commit::already_stored(&slot, r)).transpose()?.flatten().is_some();
    let name = if resent { name } else { slot.live.seat_name(&name)? };
    let staged = commit_request(st, &mut slot, GameEvent::Joined { user, name }, Some(user), request, now).await?;
    let shown = show(&slot.live, now);
    drop(slot);
    staged.durable().await?;
    Ok((id, shown))
}

/// The host `user` starts game `id`: the roles dealt by the seed, each seat's gender and
/// name forms from its account's profile, day 1 open. `show` sees the started game.
pub async fn start<S: Store, T>(
    st: &Arc<AppState<S>>,
    user: i64,
    id: i64,
    show: impl FnOnce(&GameState, i64) -> T,
) -> Result<T, ApiError> {
    let (mut slot, now) = super::locking::reach(st, id, Some(user)).await?;
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
        speech.push(match &m.bot {
            Some(gender) => super::bots::bot_speech(&m.name, gender),
            None => seat_speech(st.store.user_by_id(m.user).await?, &m.name),
        });
    }
    // No seat is printed under a form that is another's, or the host's (issue 28, point 6).
    let host_name = st.store.user_by_id(user).await?.map(|u| u.name);
    let speech = slot.live.speech_at_start(host_name.as_deref(), speech);
    let staged = commit(st, &mut slot, GameEvent::Started { roles, speech }, Some(user), None, now).await?;
    let shown = show(&slot.live, now);
    drop(slot);
    staged.durable().await?;
    Ok(shown)
}

/// A seat's gender and forms from its account's profile as it stands when the game starts
/// (a change made in the lobby counts; a started game keeps what it started with). The
/// forms are the account name's: they go with a seat whose name is that name or looks the
/// same, not with another name the player took in this game.
fn seat_speech(account: Option<ostrov_store::User>, seat: &str) -> SeatSpeech {
    let Some(u) = account else { return SeatSpeech::default() };
    let forms =
        u.forms.filter(|f| f.first().is_some_and(|n| ostrov_engine::skeleton(n) == ostrov_engine::skeleton(seat)));
    SeatSpeech { gender: u.gender, forms, dropped: Vec::new() }
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
            created_at: None,
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
        assert_eq!(other, SeatSpeech { gender: Some("f".into()), forms: None, dropped: Vec::new() });
        assert_eq!(seat_speech(Some(account(None)), "Кисуля"), other);
        assert_eq!(seat_speech(None, "Кисуля"), SeatSpeech::default());
    }
}
