//! The practice server's use case (`ostrov demo`, issue 32, point 5): whoever comes is
//! signed in as a guest and seated in a fresh practice game with six bots, started at
//! once ([`arrive`]). The settings and the limits are [`crate::demo`].

use std::sync::Arc;

use argon2::password_hash::rand_core::{OsRng, RngCore};
use ostrov_store::{Store, StoreError};

use crate::app::AppState;
use crate::demo::{self, Demo};
use crate::error::ApiError;
use crate::game::Status;
use crate::harden::ClientAddr;
use crate::ratelimit::retry_in;

/// Makes `st` a practice server, `day_minutes` a practice day: the account that hosts the
/// practice games is found, or made on the first start.
pub async fn enable<S: Store>(st: &mut AppState<S>, day_minutes: u32) -> Result<(), ApiError> {
    let key = ostrov_engine::skeleton(demo::HOST_NAME);
    let host = match st.store.user_by_key(&key).await? {
        Some(u) => u.id,
        None => {
            let hash = st.passwords.hash(secret()).await?;
            st.store.create_user(demo::HOST_NAME, &key, &hash, st.clock.now()).await?
        }
    };
    st.demo = Some(Demo::new(host, day_minutes));
    Ok(())
}

/// A password nobody knows (a guest's, the practice host's): they sign in by their cookie
/// alone.
fn secret() -> String {
    let mut b = [0u8; 32];
    OsRng.fill_bytes(&mut b);
    crate::hex::hex(&b)
}

/// Where a visitor of the practice server goes: their game, and the session cookie of a
/// new guest (`Set-Cookie`).
#[derive(Debug)]
pub struct Arrival {
    pub game: i64,
    pub session: Option<String>,
}

/// A visitor comes to the practice server: `user` (the account signed in, with its name)
/// goes back to their practice game while it runs; anyone else gets a new one, seated as
/// a guest when not signed in (a new account with a generated name and a session). Not
/// found on a server that is not a practice server.
pub async fn arrive<S: Store>(
    st: &Arc<AppState<S>>,
    user: Option<(i64, String)>,
    addr: ClientAddr,
) -> Result<Arrival, ApiError> {
    let d = st.demo.as_ref().ok_or(ApiError::NotFound)?;
    let (running, theirs) = practice_games(st, d, user.as_ref().map(|u| u.0)).await?;
    if let Some(game) = theirs {
        return Ok(Arrival { game, session: None });
    }
    if running >= demo::LIVE_GAMES {
        return Err(ApiError::TooMany(
            format!(
                "Сейчас идёт {running} практических игр — больше этот сервер одновременно не ведёт. Попробуйте \
                 через несколько минут."
            ),
            60 * i64::from(d.day_minutes),
        ));
    }
    let (user, name, session) = match user {
        Some((id, name)) => (id, name, None),
        None => {
            let (id, name) = new_guest(st, d, addr).await?;
            (id, name, Some(crate::auth::new_session(st, id).await?))
        }
    };
    let game = practice_game(st, d, user, &name).await?;
    Ok(Arrival { game, session })
}

/// How many practice games are running, and the one `user` plays in (the newest), if any.
async fn practice_games<S: Store>(
    st: &Arc<AppState<S>>,
    d: &Demo,
    user: Option<i64>,
) -> Result<(usize, Option<i64>), ApiError> {
    let mut running = 0;
    let mut theirs = None;
    for (id, _) in st.games.list().into_iter().rev().filter(|(_, l)| d.hosts(l.host) && l.finished.is_none()) {
        let (slot, _) = super::locked(st, id).await?;
        if slot.live.status == Status::Lobby || slot.live.status == Status::Over {
            continue;
        }
        running += 1;
        if theirs.is_none() && user.is_some_and(|u| slot.live.seat_of(u).is_some()) {
            theirs = Some(id);
        }
    }
    Ok((running, theirs))
}

/// A new guest account from `addr` (within the guests' limits): a generated Russian name,
/// its gender in the profile, a password nobody knows.
async fn new_guest<S: Store>(st: &Arc<AppState<S>>, d: &Demo, addr: ClientAddr) -> Result<(i64, String), ApiError> {
    let now = st.clock.now();
    let busy = |wait: i64| {
        ApiError::TooMany(format!("Слишком много новых гостей. Попробуйте через {}.", retry_in(wait)), wait)
    };
    if let Some(ip) = addr.0 {
        d.guests.take(ip, now).map_err(busy)?;
    }
    d.all_guests.take((), now).map_err(busy)?;
    let hash = st.passwords.hash(secret()).await?;
    for _ in 0..8 {
        let (name, _, gender) = demo::guest_name(OsRng.next_u64());
        match st.store.create_user(&name, &ostrov_engine::skeleton(&name), &hash, now).await {
            Ok(id) => {
                st.store.set_profile(id, Some(gender.id()), None).await?;
                return Ok((id, name));
            }
            Err(StoreError::Conflict(_)) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(ApiError::Internal("no free guest name in eight draws".into()))
}

/// A new practice game with `user` (named `name`) in a seat and the bots in the others,
/// started.
async fn practice_game<S: Store>(st: &Arc<AppState<S>>, d: &Demo, user: i64, name: &str) -> Result<i64, ApiError> {
    let mut config = d.config();
    config.seed = Some(OsRng.next_u64() >> 1);
    config.check().map_err(ApiError::BadRequest)?;
    let (created, ()) = super::lobby::store_game(st, d.host, config, |_, _| ()).await?;
    let seat = demo::guest_seat(name).map(str::to_string);
    super::lobby::join(st, user, &created.invite, seat, None, |_, _| ()).await?;
    super::bots::add_bots(st, d.host, created.id, demo::BOTS).await?;
    super::lobby::start(st, d.host, created.id, |_, _| ()).await?;
    Ok(created.id)
}
