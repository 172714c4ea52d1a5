//! The game page: the lobby (invite, players joined, start), then the day for a player
//! (event, deadline, role, item, order forms, inbox, newspapers, players, the thread and
//! the pack's chat), for a spectator (what is public), and for the host (everything, with
//! one-click host actions, the day's orders as they arrive and the last resolution's log).

use std::sync::Arc;

use askama::Template;
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Form, Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use ostrov_engine::ru::Gender;
use ostrov_store::Store;
use serde::Deserialize;

#[allow(unused_imports)] // the host template's words
use super::desk::{host_panel, FlagText, HostPanel, SeatText, TallyText};
use super::forms::{order_forms, OrderForm, PostedOrder};
use super::now::{Countdown, Now, Summary};
use super::page::{page, to, Chrome, St, Visitor, WebError};
use super::text::{death_ru, game_status, game_time, seats_ru, when, When};
use super::thread::{thread_view, RoomQuery, Shown, ThreadView};
use crate::app::AppState;
use crate::error::ApiError;
use crate::game::{GameState, Room, Status};
use crate::service::{self, reach};
use crate::view::{self, EventView, GameView, PlayerView, Viewer, YouView};

/// A refusal to show next to one form (`key`: the form's act or action), and which day
/// and page of a room the reader asked for (`?room=…&day=…&page=…`).
#[derive(Default)]
pub struct Notes {
    pub key: String,
    pub message: String,
    pub shown: Option<(Room, Shown)>,
    /// The host's board shows only the seats with something still to send (`?pending=1`).
    pub pending: bool,
    /// What the reader just did, to confirm (`order-vote`, `post-thread`; issue 30,
    /// point 13).
    pub done: String,
}

impl Notes {
    pub fn error(key: &str, message: String) -> Notes {
        Notes { key: key.to_string(), message, ..Notes::default() }
    }
    fn get(&self, key: &str) -> Option<&str> {
        (self.key == key && !self.message.is_empty()).then_some(self.message.as_str())
    }
}

/// The open day's clock, as the page shows it (what day and event it is: the view's;
/// the deadline: the page's [`Countdown`]).
pub struct OpenDay {
    pub phase: &'static str,
    pub midday: Option<When>,
}

/// What the page says of a player in the list, from the view ([`PlayerView`]).
pub trait PlayerText {
    /// «в игре», or how and when the player left, agreeing with their gender.
    fn status_ru(&self) -> String;
    /// The item as the list shows it, when the viewer may see it.
    fn item_ru(&self) -> Option<String>;
}

impl PlayerText for PlayerView {
    fn status_ru(&self) -> String {
        match self.death {
            Some(d) => format!("{}, день {}", death_ru(d.how, self.gender), d.day),
            None => "в игре".to_string(),
        }
    }

    fn item_ru(&self) -> Option<String> {
        self.item.as_ref().map(|i| match i {
            None => "нет вещи".to_string(),
            Some(i) => format!("{}{}", i.name, if i.charged { "" } else { " (использована)" }),
        })
    }
}

/// What the page says to a seated player of themself, from the view ([`YouView`]).
pub trait YouText {
    /// The role, agreeing with the player's gender («Ясновидящая»), and so does the note
    /// of a turned halfblood; with no gender known the note needs none.
    fn role_ru(&self) -> String;
    /// The item, and whether it is spent.
    fn item_ru(&self) -> Option<String>;
    /// The pack without the player.
    fn packmates(&self) -> Vec<&str>;
}

impl YouText for YouView {
    fn role_ru(&self) -> String {
        if self.role.turned {
            let turned = match self.gender {
                Some(Gender::Male) => "обратился в оборотня",
                Some(Gender::Female) => "обратилась в оборотня",
                None => "теперь оборотень",
            };
            format!("{} ({turned})", self.role.name)
        } else {
            self.role.name.clone()
        }
    }

    fn item_ru(&self) -> Option<String> {
        self.item.as_ref().map(|i| format!("{}{}", i.name, if i.charged { "" } else { " — использована, не заряжена" }))
    }

    fn packmates(&self) -> Vec<&str> {
        self.pack.iter().map(String::as_str).filter(|n| *n != self.name).collect()
    }
}

pub struct PaperLink {
    pub title: String,
    pub url: String,
}

#[derive(Template)]
#[template(path = "game.html")]
pub struct GamePage<'a> {
    pub c: Chrome<'a>,
    /// The game as this viewer may see it: the API's view, rendered as it is.
    pub game: GameView,
    pub status: String,
    pub lobby: bool,
    pub seats: String,
    pub invite_url: Option<String>,
    /// A private game (O-PRIVATE-1): not listed, its newspapers by the host's keyed links.
    pub private: bool,
    pub viewer: &'static str,
    pub open: Option<OpenDay>,
    /// The countdown to the open day's deadline, or at night to the next day.
    pub countdown: Option<Countdown>,
    /// A seated player's «what to do now» (issue 30, point 7).
    pub now: Option<Now>,
    /// The last resolution (issue 30, point 9).
    pub summary: Option<Summary>,
    pub forms: Vec<OrderForm>,
    /// «Голос принят: Вика (в 14:21).» right after the order was taken.
    pub confirm: Option<String>,
    pub inbox: Vec<(u32, String)>,
    pub papers: Vec<PaperLink>,
    pub history: Vec<(String, String)>,
    /// The day's thread; `None` in a forum game (issue 30, point 12), whose page links
    /// to the forum's topic instead (`game.forum`).
    pub thread: Option<ThreadView>,
    pub pack_thread: Option<ThreadView>,
    pub host: Option<HostPanel>,
    pub start_error: Option<String>,
    /// A refusal of the lobby's bot forms (issue 32).
    pub bots_error: Option<String>,
    /// The lobby's free seats: what the «Посадить ботов» form may fill.
    pub free: usize,
    pub host_error: Option<(String, String)>,
    /// A practice game of `ostrov demo`: its day's length in minutes, for the guide at the
    /// top of its player's page.
    pub practice: Option<u32>,
    /// The requests to the host this viewer may read (the host's all, a player's own;
    /// issue 31), filled in by [`render`].
    pub requests: Option<Vec<crate::service::requests::RequestView>>,
    /// Whether the viewer may write to the host (a seated player of a running game).
    pub may_request: bool,
    /// Why the request was refused, or that it was sent.
    pub request_error: Option<String>,
    pub request_sent: bool,
}

impl GamePage<'_> {
    /// The players in list order as the viewer may see them (none before the start).
    pub fn players(&self) -> &[PlayerView] {
        self.game.players.as_deref().unwrap_or_default()
    }

    /// Whether `p` is the viewer's own seat.
    pub fn is_you(&self, p: &PlayerView) -> bool {
        self.game.you.as_ref().is_some_and(|y| y.name == p.name)
    }

    /// The open day's event.
    pub fn event(&self) -> Option<&EventView> {
        self.game.open.as_ref().and_then(|o| o.event.as_ref())
    }

    pub fn host_err(&self, key: &str) -> Option<&str> {
        self.host_error.as_ref().filter(|(k, _)| k == key).map(|(_, m)| m.as_str())
    }
}

fn paper_title(day: u32, kind: &str) -> String {
    match kind {
        "bulletin" => format!("День {day}: сводка в 13:00"),
        "evening" => format!("День {day}: итоги дня"),
        _ => "Итоговая газета".to_string(),
    }
}

/// The whole page for `visitor` (signed in) of game `id` at `now`.
pub fn render_game_page<'a>(
    v: &'a Visitor,
    live: &GameState,
    invite: Option<String>,
    now: i64,
    notes: &Notes,
    preview: Option<Arc<crate::preview::Preview>>,
) -> GamePage<'a> {
    let user = v.user.as_ref().map_or(-1, |u| u.0);
    let viewer = Viewer::of(live, user);
    let tz = live.config.schedule.tz.as_str();
    let m = live.m.as_ref();
    let game = view::game(live, viewer, now);
    let open = live.open_day().filter(|_| game.open.is_some()).map(|d| {
        let t = &live.days[d as usize - 1];
        OpenDay {
            phase: if t.midday_done {
                "вторая половина дня (после 13:00)"
            } else {
                "первая половина дня (до 13:00)"
            },
            midday: (!t.midday_done).then(|| game_time(&live.times, t.midday_at, now, || when(t.midday_at, tz))),
        }
    });
    let forms = match viewer {
        Viewer::Player(p) if live.status == Status::Running => {
            order_forms(live, p, now, (!notes.key.is_empty()).then_some((notes.key.as_str(), notes.message.as_str())))
        }
        _ => Vec::new(),
    };
    let inbox = match (viewer, m) {
        (Viewer::Player(p), Some(m)) => {
            m.state().notices_to(p).map(|n| (n.day, ostrov_engine::notice_text(m.state(), n))).collect()
        }
        _ => Vec::new(),
    };
    // The host of a private game gets the newspapers' links with their key, to publish.
    let key = match (&invite, viewer) {
        (Some(i), Viewer::Host) if !live.config.visibility.is_open() => format!("?key={}", service::paper_key(i)),
        _ => String::new(),
    };
    let summary = super::now::summary(live, &game, &key);
    let papers = view::published(live)
        .into_iter()
        .rev()
        .map(|(d, k)| PaperLink { title: paper_title(d, k), url: format!("/games/{}/papers/{d}/{k}{key}", live.id) })
        .collect();
    let history =
        live.history.iter().rev().map(|n| (when(n.at, tz).text, n.text.clone())).collect::<Vec<(String, String)>>();
    let in_pack = match (viewer, m) {
        (Viewer::Player(p), Some(_)) => live.in_pack(p),
        (Viewer::Host, Some(_)) => true,
        _ => false,
    };
    let shown = |room| notes.shown.filter(|(r, _)| *r == room).map_or_else(Shown::default, |(_, s)| s);
    let mut thread =
        (!live.forum()).then(|| thread_view(live, v, Room::Thread, notes.get("post"), shown(Room::Thread)));
    let mut pack_thread = in_pack.then(|| thread_view(live, v, Room::Pack, notes.get("post_pack"), shown(Room::Pack)));
    let sent = "Сообщение отправлено.";
    match notes.done.as_str() {
        "post-thread" => thread.iter_mut().for_each(|t| t.confirm = Some(sent)),
        "post-pack" => pack_thread.iter_mut().for_each(|t| t.confirm = Some(sent)),
        _ => {}
    }
    let confirm = notes.done.strip_prefix("order-").and_then(|act| {
        let f = forms.iter().find(|f| f.act == act)?;
        Some(format!("{}: {}.", super::forms::accepted_ru(f.act, &f.title), f.current.as_ref()?))
    });
    // O-ORDER-4: «Голос отозван.», once nothing of the kind is in force.
    let confirm = confirm.or_else(|| {
        let act = notes.done.strip_prefix("withdraw-")?;
        let f = forms.iter().find(|f| f.act == act && f.current.is_none())?;
        Some(format!("{}.", super::forms::withdrawn_ru(f.act, &f.title)))
    });
    let host = (viewer == Viewer::Host)
        .then(|| host_panel(live, invite.clone().unwrap_or_default(), now, notes.pending, preview));
    let host_error = (viewer == Viewer::Host && !notes.key.is_empty() && notes.key.starts_with("host_"))
        .then(|| (notes.key.clone(), notes.message.clone()));
    GamePage {
        c: Chrome::new(v, live.config.title.clone()),
        status: game_status(view::phase(live)),
        lobby: live.status == Status::Lobby,
        seats: seats_ru(live.members.len(), live.config.slots),
        invite_url: invite.filter(|_| viewer == Viewer::Host).map(|i| format!("/join/{i}")),
        private: !live.config.visibility.is_open(),
        viewer: match viewer {
            Viewer::Host => "host",
            Viewer::Player(_) => "player",
            Viewer::Outsider => "spectator",
        },
        open,
        countdown: super::now::countdown(live, &game, now),
        now: super::now::now(&game, &forms),
        summary,
        forms,
        confirm,
        inbox,
        papers,
        history,
        thread,
        pack_thread,
        host,
        start_error: notes.get("start").map(str::to_string),
        bots_error: notes.get("bots").map(str::to_string),
        free: live.config.slots.saturating_sub(live.members.len()),
        host_error,
        practice: None,
        requests: None,
        may_request: matches!(viewer, Viewer::Player(_)) && live.status == Status::Running,
        request_error: notes.get("request").map(str::to_string),
        request_sent: notes.done == "request",
        game,
    }
}

/// Renders the page of game `id` for `v` (status 422 when `notes` holds a refusal).
pub async fn render<S: Store>(st: &Arc<AppState<S>>, v: &Visitor, id: i64, notes: Notes) -> Result<Response, WebError> {
    let user = v.id()?;
    let invite = st.store.game(id).await?.map(|g| g.invite);
    let (mut slot, now) = reach(st, id, Some(user)).await?;
    let invite = invite.filter(|_| slot.live.host == user);
    // The host's preview of the open day, made once per state of the game.
    let slot = &mut *slot;
    let preview = (slot.live.host == user && slot.live.open_day().is_some())
        .then(|| crate::preview::preview(&slot.live, &mut slot.preview).ok())
        .flatten();
    let mut p = render_game_page(v, &slot.live, invite, now, &notes, preview);
    p.practice = st.demo.as_ref().filter(|d| d.hosts(slot.live.host)).map(|d| d.day_minutes);
    p.requests = crate::service::requests::readable(st, &slot.live, user).await?;
    if slot.live.host == user {
        p.game.shared_access = Some(crate::service::sightings::shared(st, &slot.live).await?);
    }
    let status = if notes.message.is_empty() { StatusCode::OK } else { StatusCode::UNPROCESSABLE_ENTITY };
    Ok(page(v, status, &p))
}

type Id = Result<Path<i64>, PathRejection>;

/// `GET /games/{id}?room=thread|pack&day=N&page=K&pending=1`: the game page; the query
/// picks the day and page of a room's posts (default: the open day's last page) and, for
/// the host, whether the board shows only the seats with something still to send.
pub async fn show<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    p: Id,
    q: Result<Query<RoomQuery>, QueryRejection>,
    d: Result<Query<DeskQuery>, QueryRejection>,
) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    let Path(id) = p.map_err(ApiError::from)?;
    let Query(q) =
        q.map_err(|_| ApiError::BadRequest("Неверные параметры адреса страницы (день и страница — числа).".into()))?;
    let shown = Some(q.shown()?);
    // The same query string the room's query read: it reads here too.
    let d = d.map(|Query(d)| d).unwrap_or_default();
    let pending = matches!(d.pending.as_deref(), Some("1" | "true" | "yes" | "on"));
    render(&st, &v, id, Notes { shown, pending, done: q.done.clone(), ..Notes::default() }).await
}

/// The host's board filter: `?pending=1` shows only the seats with something still to
/// send («кто ещё не сходил»), without JavaScript.
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct DeskQuery {
    pending: Option<String>,
}

/// `POST /games/{id}/order`: a player's order from its form.
pub async fn order<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    p: Id,
    Form(f): Form<PostedOrder>,
) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    let user = v.id()?;
    v.check(&f.csrf)?;
    let Path(id) = p.map_err(ApiError::from)?;
    let act = f.act.trim().to_string();
    // A withdrawal is confirmed, and refused, on its kind of order.
    let (done, act) = match ostrov_engine::Act::parse(&act) {
        Some(ostrov_engine::Act::Withdraw) => ("withdraw", f.what.trim().to_string()),
        _ => ("order", act),
    };
    match service::send_order(&st, id, user, f.body()).await {
        // The page confirms it where the reader's focus goes (issue 30, point 13).
        Ok(_) => Ok(to(&format!("/games/{id}?done={done}-{}#confirm", super::account::percent(&act)))),
        Err(e @ ApiError::Internal(_)) => Err(e.into()),
        Err(ApiError::Forbidden) => Err(ApiError::Forbidden.into()),
        Err(e) => render(&st, &v, id, Notes::error(&act, e.message())).await,
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct RequestForm {
    csrf: String,
    text: String,
}

/// `POST /games/{id}/request`: «Написать ведущему» from the game page.
pub async fn request<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    p: Id,
    Form(f): Form<RequestForm>,
) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    let user = v.id()?;
    v.check(&f.csrf)?;
    let Path(id) = p.map_err(ApiError::from)?;
    match service::requests::send(&st, id, user, &f.text).await {
        Ok(_) => Ok(to(&format!("/games/{id}?done=request#requests"))),
        Err(e @ (ApiError::Internal(_) | ApiError::Forbidden | ApiError::NotFound)) => Err(e.into()),
        Err(e) => render(&st, &v, id, Notes::error("request", e.message())).await,
    }
}
