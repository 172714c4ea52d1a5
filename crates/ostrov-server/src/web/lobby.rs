//! The home page (my games, games open to join), creating a game with the live balance
//! hint, the invite page, joining and starting.

use std::collections::HashMap;

use askama::Template;
use axum::extract::rejection::PathRejection;
use axum::extract::{Form, Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use ostrov_engine::{plural, Role, RulesEntry};
use ostrov_store::Store;
use serde::Deserialize;

use super::page::{page, to, Chrome, St, Visitor, WebError};
use super::text::{game_status, seats_ru};
use crate::app::AppState;
use crate::error::ApiError;
use crate::game::{topic_url, Config, Discussion, Visibility, MAX_SLOTS};
use crate::schedule::Schedule;
use crate::service;
use crate::view::{self, Standing};

/// A game in a list.
pub struct Row {
    pub id: i64,
    pub title: String,
    pub status: String,
    pub seats: String,
    pub invite: Option<String>,
    pub role: &'static str,
    /// The seats whose substitute the host seeks, joined («Аня, Боря»), or empty.
    pub wanted: String,
}

#[derive(Template)]
#[template(path = "home.html")]
struct Home<'a> {
    c: Chrome<'a>,
    mine: Vec<Row>,
    open: Vec<Row>,
    nav: Pages,
}

/// The home page's page links.
struct Pages {
    page: usize,
    pages: usize,
    prev: Option<usize>,
    next: Option<usize>,
}

/// The query of the home page: `?page=N` pages both lists.
#[derive(Deserialize, Default)]
pub struct HomeQuery {
    #[serde(default)]
    page: Option<String>,
}

/// `GET /`: a visitor sees what the game is and how to start; a user their games and the
/// games open to join, newest first, [`crate::listing::PER_PAGE`] of each a page. On a
/// practice server, [`super::demo::home`] instead.
pub async fn home<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    addr: crate::harden::ClientAddr,
    q: Result<axum::extract::Query<HomeQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, WebError> {
    // A practice server seats whoever comes in a game of their own (`ostrov demo`).
    if st.demo.is_some() {
        return super::demo::home(State(st), &h, addr).await;
    }
    let v = Visitor::of(&st, &h).await?;
    let bad = || WebError::Api(ApiError::BadRequest("Неверный номер страницы.".into()));
    let axum::extract::Query(q) = q.map_err(|_| bad())?;
    let page_no = match q.page.as_deref() {
        None | Some("") => 1,
        Some(p) => p.parse::<usize>().ok().filter(|&n| (1..=1_000_000).contains(&n)).ok_or_else(bad)?,
    };
    let mut mine = Vec::new();
    let mut open = Vec::new();
    let mut pages = 1;
    if let Some((user, _)) = v.user {
        let (rows, _loading) = crate::listing::games(&st, user, |g| g.mine() || g.open() || g.seeking()).await?;
        let (own, others): (Vec<_>, Vec<_>) = rows.into_iter().partition(|g| g.mine());
        let (own, own_pages) = crate::listing::page(own, page_no);
        let (others, other_pages) = crate::listing::page(others, page_no);
        pages = own_pages.max(other_pages);
        for (g, is_mine) in own.into_iter().map(|g| (g, true)).chain(others.into_iter().map(|g| (g, false))) {
            // The invite of a shown game only (one row each), not of every game.
            let invite = if g.open() { st.store.game(g.id).await?.map(|r| r.invite) } else { None };
            let list = if is_mine { &mut mine } else { &mut open };
            list.push(Row {
                id: g.id,
                title: g.title,
                status: g.status_ru,
                seats: seats_ru(g.joined, g.slots),
                wanted: g.wanted.join(", "),
                invite,
                role: if g.yours {
                    "вы ведущий"
                } else if g.playing && g.status == crate::game::Status::Over {
                    "вы играли"
                } else if g.playing {
                    "вы играете"
                } else {
                    ""
                },
            });
        }
    }
    let nav = Pages {
        page: page_no,
        pages,
        prev: page_no.checked_sub(1).filter(|&p| p >= 1),
        next: (page_no < pages).then_some(page_no + 1),
    };
    Ok(page(&v, StatusCode::OK, &Home { c: Chrome::new(&v, "Главная"), mine, open, nav }))
}

/// The create form as typed (every field a string, so that a bad value comes back to the
/// form with its message instead of a 422 from the extractor).
#[derive(Deserialize, Default, Clone)]
#[serde(default)]
pub struct CreateForm {
    csrf: String,
    title: String,
    slots: String,
    /// `recommended` or `custom`.
    setup: String,
    deck: String,
    tie: String,
    parity: Option<String>,
    max_days: String,
    tz: String,
    open: String,
    midday: String,
    deadline: String,
    /// A practice game's day in real minutes (issue 32, point 4); empty: a calendar day.
    day_minutes: String,
    /// `open` (or empty) or `private` (O-PRIVATE-1).
    visibility: String,
    /// `thread` (or empty) or `forum` (issue 30, point 12).
    discussion: String,
    /// The forum topic's link for the whole game (empty: the host gives one a day).
    forum: String,
    #[serde(flatten)]
    roles: HashMap<String, String>,
}

/// One role's count field.
pub struct RoleField {
    pub id: &'static str,
    pub name: &'static str,
    pub count: String,
}

#[derive(Template)]
#[template(path = "create.html")]
struct Create<'a> {
    c: Chrome<'a>,
    f: CreateForm,
    roles: Vec<RoleField>,
    errors: HashMap<&'static str, String>,
    h: Hint,
}

/// The balance hint's fragment.
#[derive(Template)]
#[template(path = "balance.html")]
struct HintFragment {
    h: Hint,
}

/// The balance hint for a setup.
#[derive(Default)]
pub struct Hint {
    pub text: Option<String>,
    pub detail: Option<String>,
    pub error: Option<String>,
    /// How the same setup went on this server (issue 33): «на этом сервере: 12 игр, …».
    pub observed: Option<String>,
    /// With «Рекомендуемый расклад»: the roles it deals for the number of seats (issue 30,
    /// point 10), «Оборотень — 1, Ясновидящий — 1, …, Пассажир — 3».
    pub deal: Option<String>,
}

/// The roles the recommended setup deals for the form's number of seats, if it has one.
fn recommended_deal(f: &CreateForm) -> Option<String> {
    if f.setup == "custom" {
        return None;
    }
    let n: usize = f.slots.trim().parse().ok()?;
    let roles = ostrov_engine::Roster::recommended(n).ok()?.roles(n).ok()?;
    let counts: Vec<String> = Role::ALL
        .iter()
        .filter_map(|r| {
            let k = roles.iter().filter(|x| *x == r).count();
            (k > 0).then(|| format!("{} — {k}", r.ru()))
        })
        .collect();
    Some(format!("Расклад на {}: {}.", super::text::players_ru(n), counts.join(", ")))
}

fn role_fields(f: &CreateForm) -> Vec<RoleField> {
    Role::ALL
        .iter()
        .filter(|r| **r != Role::Passenger)
        .map(|r| RoleField {
            id: r.id(),
            name: r.ru(),
            count: f.roles.get(&format!("role_{}", r.id())).cloned().unwrap_or_default(),
        })
        .collect()
}

fn defaults() -> CreateForm {
    let s = Schedule::default();
    CreateForm {
        slots: "8".into(),
        setup: "recommended".into(),
        tie: "random".into(),
        max_days: "40".into(),
        tz: s.tz,
        open: s.open,
        midday: s.midday,
        deadline: s.deadline,
        ..CreateForm::default()
    }
}

/// Reads the form into a game's settings; the errors by field.
fn config_of(f: &CreateForm) -> Result<Config, HashMap<&'static str, String>> {
    let mut errors = HashMap::new();
    let title = f.title.trim().to_string();
    if title.is_empty() || title.chars().count() > 120 || title.chars().any(crate::game::lobby::invisible) {
        errors.insert("title", "Название игры должно быть от 1 до 120 символов, без невидимых символов.".to_string());
    }
    let slots = match f.slots.trim().parse::<usize>() {
        Ok(n) if (ostrov_engine::MIN_PLAYERS..=MAX_SLOTS).contains(&n) => n,
        _ => {
            errors.insert(
                "slots",
                format!("Число игроков — целое число от {} до {MAX_SLOTS}.", ostrov_engine::MIN_PLAYERS),
            );
            ostrov_engine::MIN_PLAYERS
        }
    };
    let setup = if f.setup == "custom" {
        let mut parts = Vec::new();
        for r in Role::ALL.iter().filter(|r| **r != Role::Passenger) {
            let raw = f.roles.get(&format!("role_{}", r.id())).map(|s| s.trim()).unwrap_or("");
            match raw.parse::<u16>() {
                _ if raw.is_empty() => {}
                Ok(0) => {}
                Ok(n) if n <= MAX_SLOTS as u16 => parts.push(format!("{}={n}", r.id())),
                _ => {
                    errors.insert("setup", format!("Число ролей «{}» — целое число от 0 до {MAX_SLOTS}.", r.ru()));
                }
            }
        }
        if parts.is_empty() {
            errors.insert("setup", "Укажите, сколько каких ролей в игре (остальные — пассажиры).".to_string());
        }
        Some(parts.join(","))
    } else {
        None
    };
    let deck: Vec<String> =
        f.deck.split([',', ';', '\n']).map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect();
    if deck.len() > 4 * MAX_SLOTS {
        errors.insert("deck", format!("В колоде не больше {} карт.", 4 * MAX_SLOTS));
    }
    let max_days = match f.max_days.trim() {
        "" => None,
        s => match s.parse::<u32>() {
            Ok(n) if (1..=ostrov_engine::MAX_DAYS as u32).contains(&n) => Some(n),
            _ => {
                errors.insert("max_days", format!("Число дней — от 1 до {}.", ostrov_engine::MAX_DAYS));
                None
            }
        },
    };
    let tie = match f.tie.as_str() {
        "" | "random" => None,
        t @ ("none" | "all") => Some(t.to_string()),
        _ => {
            errors.insert("tie", "Выберите правило ничьей из списка.".to_string());
            None
        }
    };
    let rules = RulesEntry { tie, parity: f.parity.as_ref().map(|_| true), max_days, ..RulesEntry::default() };
    let day_minutes = match f.day_minutes.trim() {
        "" => None,
        s => match s.parse::<u32>() {
            Ok(n) if crate::schedule::FAST_MINUTES.contains(&n) => Some(n),
            _ => {
                let (lo, hi) = (crate::schedule::FAST_MINUTES.start(), crate::schedule::FAST_MINUTES.end());
                errors.insert(
                    "day_minutes",
                    format!("Длина дня на быстрых часах — целое число минут от {lo} до {hi} (пусто — обычные сутки)."),
                );
                None
            }
        },
    };
    let schedule = Schedule {
        tz: f.tz.trim().to_string(),
        open: f.open.trim().to_string(),
        midday: f.midday.trim().to_string(),
        deadline: f.deadline.trim().to_string(),
        day_minutes,
    };
    if let Err(e) = schedule.check() {
        errors.insert("schedule", e);
    }
    let visibility = match f.visibility.as_str() {
        "" | "open" => Visibility::Open,
        "private" => Visibility::Private,
        _ => {
            errors.insert("visibility", "Выберите, открытая игра или закрытая.".to_string());
            Visibility::Open
        }
    };
    let discussion = match (f.discussion.as_str(), f.forum.trim()) {
        ("" | "thread", "") => Discussion::Thread,
        ("" | "thread", _) => {
            errors.insert(
                "forum",
                "Ссылка на тему дана, но выбрано обсуждение на странице игры: выберите «на форуме» или сотрите \
                 ссылку."
                    .to_string(),
            );
            Discussion::Thread
        }
        ("forum", "") => Discussion::Forum(None),
        ("forum", url) => match topic_url(url, "«Тема на форуме»") {
            Ok(url) => Discussion::Forum(Some(url)),
            Err(e) => {
                errors.insert("forum", e);
                Discussion::Thread
            }
        },
        _ => {
            errors.insert("forum", "Выберите, где идёт обсуждение: на странице игры или на форуме.".to_string());
            Discussion::Thread
        }
    };
    let config = Config {
        title,
        slots,
        setup,
        deck: (!deck.is_empty()).then_some(deck),
        rules: Some(rules),
        seed: None,
        shuffle: false,
        schedule,
        visibility,
        discussion,
    };
    if errors.is_empty() {
        if let Err(e) = config.deal(slots) {
            errors.insert("setup", e);
        } else if let Err(e) = config.placeholder() {
            errors.insert("deck", e);
        }
    }
    if errors.is_empty() {
        Ok(config)
    } else {
        Err(errors)
    }
}

/// The settings to estimate: the form's, the title aside (the hint does not need one).
fn to_estimate(f: &CreateForm) -> Result<Config, HashMap<&'static str, String>> {
    let mut f = f.clone();
    if f.title.trim().is_empty() {
        f.title = "—".into();
    }
    config_of(&f)
}

/// The hint's text for the simulator's estimate.
fn hint_of(s: &ostrov_bots::Summary) -> Hint {
    let pct = |r: &ostrov_bots::Rate| (r.rate * 100.0).round() as u64;
    let margin = ((s.civilians.high - s.civilians.low) * 50.0).round().max(1.0) as u64;
    let mut detail = format!("оборотни — {}%", pct(&s.werewolves));
    if s.hamster.wins > 0 {
        detail.push_str(&format!(", хомяк — {}%", pct(&s.hamster)));
    }
    if s.draw.wins > 0 {
        detail.push_str(&format!(", ничья — {}%", pct(&s.draw)));
    }
    let days = s.mean_days.round() as u64;
    detail.push_str(&format!(
        "; игра длится в среднем {days} {} ({} {} ботов)",
        plural::form(days, "день", "дня", "дней"),
        s.games,
        plural::form(s.games, "партия", "партии", "партий")
    ));
    Hint {
        text: Some(format!("Мирные выигрывают {}% ± {margin}%", pct(&s.civilians))),
        detail: Some(detail),
        error: None,
        observed: None,
        deal: None,
    }
}

/// The hint for the settings of `f`, for the account `user`: the estimate's text, the
/// form's first error, or the refusal (a full cap) with its status.
async fn hint_for<S: Store>(st: &AppState<S>, user: i64, f: &CreateForm) -> (StatusCode, Hint) {
    let (status, mut hint) = estimate_hint(st, user, f).await;
    hint.deal = recommended_deal(f);
    (status, hint)
}

async fn estimate_hint<S: Store>(st: &AppState<S>, user: i64, f: &CreateForm) -> (StatusCode, Hint) {
    let config = match to_estimate(f) {
        Ok(c) => c,
        Err(e) => return (StatusCode::OK, Hint { error: e.into_values().next(), ..Hint::default() }),
    };
    let observed = match service::records::setup_of(st, Some(user), &config).await {
        Ok(Some(s)) => Some(s.line_ru()),
        Ok(None) => Some("на этом сервере в такой расклад ещё не играли".to_string()),
        Err(_) => None,
    };
    match service::balance::estimate(st, user, &config).await {
        Ok(s) => (StatusCode::OK, Hint { observed, ..hint_of(&s) }),
        Err(ApiError::Invalid(_, m)) => (StatusCode::OK, Hint { error: Some(m), ..Hint::default() }),
        Err(e) => (e.status(), Hint { error: Some(e.message()), ..Hint::default() }),
    }
}

pub async fn create_page<S: Store>(State(st): St<S>, h: HeaderMap) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    let user = v.id()?;
    let f = defaults();
    let (_, hint) = hint_for(&st, user, &f).await;
    let p = Create {
        c: Chrome::new(&v, "Новая игра"), roles: role_fields(&f), f, errors: HashMap::new(), h: hint
    };
    Ok(page(&v, StatusCode::OK, &p))
}

/// `GET /new/balance?…`: the hint for the form's settings (an htmx fragment).
pub async fn balance<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    Query(f): Query<CreateForm>,
) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    let user = v.id()?;
    let (status, hint) = hint_for(&st, user, &f).await;
    let mut r = page(&v, status, &HintFragment { h: hint });
    if status == StatusCode::TOO_MANY_REQUESTS {
        let wait = service::balance::HINT_BUDGET.as_secs();
        r.headers_mut().insert(axum::http::header::RETRY_AFTER, axum::http::HeaderValue::from(wait));
    }
    Ok(r)
}

pub async fn create<S: Store>(State(st): St<S>, h: HeaderMap, Form(f): Form<CreateForm>) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    let user = v.id()?;
    v.check(&f.csrf)?;
    match config_of(&f) {
        Ok(config) => {
            let id = service::create_game(&st, user, config, |_, _| ()).await?.0.id;
            Ok(to(&format!("/games/{id}")))
        }
        Err(errors) => {
            let p = Create {
                c: Chrome::new(&v, "Новая игра"), roles: role_fields(&f), f, errors, h: Hint::default()
            };
            Ok(page(&v, StatusCode::UNPROCESSABLE_ENTITY, &p))
        }
    }
}

#[derive(Template)]
#[template(path = "invite.html")]
struct Invite<'a> {
    c: Chrome<'a>,
    invite: String,
    id: i64,
    title: String,
    status: String,
    members: Vec<String>,
    seats: String,
    name: String,
    error: Option<String>,
    state: &'static str,
}

async fn invite_view<S: Store>(
    st: &std::sync::Arc<crate::app::AppState<S>>,
    v: &Visitor,
    invite: &str,
    name: String,
    error: Option<String>,
) -> Result<Response, WebError> {
    let user = v.id()?;
    let id = service::by_invite(st, invite).await?;
    let i = {
        let (slot, _) = service::locked(st, id).await?;
        view::invite(&slot.live, user)
    };
    let state = match i.standing {
        Standing::Host => "host",
        Standing::Joined => "joined",
        Standing::Started => "started",
        Standing::Full => "full",
        Standing::Open => "open",
    };
    let status = if error.is_some() { StatusCode::UNPROCESSABLE_ENTITY } else { StatusCode::OK };
    let p = Invite {
        c: Chrome::new(v, format!("Приглашение: {}", i.title)),
        invite: invite.to_string(),
        id,
        status: game_status(i.phase),
        seats: seats_ru(i.members.len(), i.slots),
        title: i.title,
        members: i.members,
        name: if name.is_empty() { v.name().to_string() } else { name },
        error,
        state,
    };
    Ok(page(v, status, &p))
}

pub async fn invite_page<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    p: Result<Path<String>, PathRejection>,
) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    let Path(invite) = p.map_err(ApiError::from)?;
    if v.user.is_none() {
        // Signed out: sign in (or up), then back to this invite (issue 30, point 10).
        let back = super::account::percent(&format!("/join/{invite}"));
        return Ok(super::page::to(&format!("/login?next={back}")));
    }
    invite_view(&st, &v, &invite, String::new(), None).await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct JoinForm {
    csrf: String,
    name: String,
}

pub async fn join<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    p: Result<Path<String>, PathRejection>,
    Form(f): Form<JoinForm>,
) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    let user = v.id()?;
    v.check(&f.csrf)?;
    let Path(invite) = p.map_err(ApiError::from)?;
    let name = f.name.trim().to_string();
    match service::join(&st, user, &invite, Some(name.clone()), None, |_, _| ()).await {
        Ok((id, ())) => Ok(to(&format!("/games/{id}"))),
        Err(e @ (ApiError::Internal(_) | ApiError::NotFound | ApiError::Unauthorized)) => Err(e.into()),
        Err(e) => invite_view(&st, &v, &invite, name, Some(e.message())).await,
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct TokenForm {
    csrf: String,
}

/// `POST /games/{id}/start`: the host deals the roles; day 1 opens.
pub async fn start<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    p: Result<Path<i64>, PathRejection>,
    Form(f): Form<TokenForm>,
) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    let user = v.id()?;
    v.check(&f.csrf)?;
    let Path(id) = p.map_err(ApiError::from)?;
    match service::start(&st, user, id, |_, _| ()).await {
        Ok(()) => Ok(to(&format!("/games/{id}"))),
        Err(e @ (ApiError::Conflict(..) | ApiError::Invalid(..))) => {
            super::game::render(&st, &v, id, super::game::Notes::error("start", e.message())).await
        }
        Err(e) => Err(e.into()),
    }
}
