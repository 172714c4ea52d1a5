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
use ostrov_engine::Event;
use ostrov_paper::Format;
use ostrov_store::Store;
use serde::Deserialize;

use super::forms::{order_forms, OrderForm, PostedOrder};
use super::now::{Countdown, Now, Summary};
use super::page::{page, to, Chrome, St, Visitor, WebError};
use super::text::{death_ru, game_status, seats_ru, when, When};
use super::thread::{thread_view, RoomQuery, Shown, ThreadView};
use crate::app::AppState;
use crate::error::ApiError;
use crate::game::{Fix, GameState, Room, Status};
use crate::service::host::Deadline;
use crate::service::{self, reach, HostAction};
use crate::view::{self, EventView, GameView, PlayerView, Viewer, YouView};

/// A refusal to show next to one form (`key`: the form's act or action), and which day
/// and page of a room the reader asked for (`?room=…&day=…&page=…`).
#[derive(Default)]
pub struct Notes {
    pub key: String,
    pub message: String,
    pub shown: Option<(Room, Shown)>,
    /// What the reader just did, to confirm (`order-vote`, `post-thread`; issue 30,
    /// point 13).
    pub done: String,
}

impl Notes {
    pub fn error(key: &str, message: String) -> Notes {
        Notes { key: key.to_string(), message, shown: None, done: String::new() }
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

pub struct HostPanel {
    pub invite: String,
    pub orders: Vec<String>,
    /// The step-by-step log of every resolved day, the last first.
    pub logs: Vec<(u32, Vec<String>)>,
    pub log_day: u32,
    pub bbcode: Option<String>,
    pub living: Vec<String>,
    pub question: Option<String>,
    pub events: Vec<(&'static str, &'static str)>,
    pub open: bool,
    pub paused: bool,
    pub running: bool,
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
    pub thread: ThreadView,
    pub pack_thread: Option<ThreadView>,
    pub host: Option<HostPanel>,
    pub start_error: Option<String>,
    pub host_error: Option<(String, String)>,
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
            midday: (!t.midday_done).then(|| when(t.midday_at, tz)),
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
    let mut thread = thread_view(live, v, Room::Thread, notes.get("post"), shown(Room::Thread));
    let mut pack_thread = in_pack.then(|| thread_view(live, v, Room::Pack, notes.get("post_pack"), shown(Room::Pack)));
    let sent = "Сообщение отправлено.";
    match notes.done.as_str() {
        "post-thread" => thread.confirm = Some(sent),
        "post-pack" => pack_thread.iter_mut().for_each(|t| t.confirm = Some(sent)),
        _ => {}
    }
    let confirm = notes.done.strip_prefix("order-").and_then(|act| {
        let f = forms.iter().find(|f| f.act == act)?;
        Some(format!("{}: {}.", super::forms::accepted_ru(f.act, &f.title), f.current.as_ref()?))
    });
    let host = (viewer == Viewer::Host).then(|| host_panel(live, invite.clone().unwrap_or_default(), now));
    let host_error = (viewer == Viewer::Host && !notes.key.is_empty() && notes.key.starts_with("host_"))
        .then(|| (notes.key.clone(), notes.message.clone()));
    GamePage {
        c: Chrome::new(v, live.config.title.clone()),
        status: game_status(live),
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
        host_error,
        game,
    }
}

fn host_panel(live: &GameState, invite: String, now: i64) -> HostPanel {
    let orders = view::orders_of(live, None)
        .iter()
        .map(|o| {
            let named: Vec<String> =
                o.from.iter().chain(o.target.iter()).chain(o.targets.iter().flatten()).cloned().collect();
            let act = ostrov_engine::Act::parse(&o.act);
            // A use names its item (issue 29, point 4): the one the order names, else the
            // one its sender holds.
            let item = (act == Some(ostrov_engine::Act::Use))
                .then(|| {
                    o.item.as_deref().and_then(ostrov_engine::Item::parse).or_else(|| {
                        let m = live.m.as_ref()?;
                        m.state().player(m.find(&o.by)?).item.map(|h| h.item)
                    })
                })
                .flatten();
            let what = match (act, item) {
                (_, Some(i)) => format!("применить {}", i.ru_acc()),
                (Some(a), None) => a.ru().to_string(),
                (None, None) => "?".to_string(),
            };
            let mut s = format!("{} {}: {what}", o.at.as_ref().and_then(|a| a.as_str()).unwrap_or(""), o.by);
            if !named.is_empty() {
                s.push_str(if act == Some(ostrov_engine::Act::Swap) { ": " } else { " → " });
                s.push_str(&named.join(if act == Some(ostrov_engine::Act::Swap) { " ↔ " } else { ", " }));
            }
            if let (Some(i), None) = (&o.item, item) {
                s.push_str(&format!(" ({i})"));
            }
            if let Some(t) = &o.text {
                s.push_str(&format!(" «{t}»"));
            }
            s
        })
        .collect();
    let m = live.m.as_ref();
    let last = live.days.iter().rposition(|d| d.resolved_at.is_some()).map(|i| i as u32 + 1);
    let logs = match (m, last) {
        (Some(m), Some(last)) => (1..=last)
            .rev()
            .filter_map(|d| {
                m.record(d).map(|r| (d, r.log.iter().map(|e| format!("{}. {}", e.step.number(), e.text)).collect()))
            })
            .collect(),
        _ => Vec::new(),
    };
    let bbcode = m.zip(last).map(|(m, d)| ostrov_paper::evening(m, d).render(Format::Bbcode));
    let question = m.and_then(|m| m.today()).and_then(|t| {
        t.question
            .as_ref()
            .filter(|_| t.answer.is_none())
            .map(|(p, q)| format!("{}: «{q}»", m.map_or("", |m| m.state().name(*p))))
    });
    let _ = now;
    HostPanel {
        invite,
        orders,
        logs,
        log_day: last.unwrap_or(0),
        bbcode,
        living: m.map(|m| m.state().living().map(|p| m.state().name(p).to_string()).collect()).unwrap_or_default(),
        question,
        events: Event::ALL.iter().map(|e| (e.id(), e.ru())).collect(),
        open: live.open_day().is_some(),
        paused: live.paused_at.is_some(),
        running: live.status == Status::Running,
    }
}

/// Renders the page of game `id` for `v` (status 422 when `notes` holds a refusal).
pub async fn render<S: Store>(st: &Arc<AppState<S>>, v: &Visitor, id: i64, notes: Notes) -> Result<Response, WebError> {
    let user = v.id()?;
    let invite = st.store.game(id).await?.map(|g| g.invite);
    let (slot, now) = reach(st, id, Some(user)).await?;
    let invite = invite.filter(|_| slot.live.host == user);
    let p = render_game_page(v, &slot.live, invite, now, &notes);
    let status = if notes.message.is_empty() { StatusCode::OK } else { StatusCode::UNPROCESSABLE_ENTITY };
    Ok(page(v, status, &p))
}

type Id = Result<Path<i64>, PathRejection>;

/// `GET /games/{id}?room=thread|pack&day=N&page=K`: the game page; the query picks the
/// day and page of a room's posts (default: the open day's last page).
pub async fn show<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    p: Id,
    q: Result<Query<RoomQuery>, QueryRejection>,
) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    let Path(id) = p.map_err(ApiError::from)?;
    let Query(q) =
        q.map_err(|_| ApiError::BadRequest("Неверные параметры адреса страницы (день и страница — числа).".into()))?;
    let shown = Some(q.shown()?);
    render(&st, &v, id, Notes { shown, done: q.done.clone(), ..Notes::default() }).await
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
    match service::send_order(&st, id, user, f.body()).await {
        // The page confirms it where the reader's focus goes (issue 30, point 13).
        Ok(_) => Ok(to(&format!("/games/{id}?done=order-{}#confirm", super::account::percent(&act)))),
        Err(e @ ApiError::Internal(_)) => Err(e.into()),
        Err(ApiError::Forbidden) => Err(ApiError::Forbidden.into()),
        Err(e) => render(&st, &v, id, Notes::error(&act, e.message())).await,
    }
}

/// A host action's form.
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct HostForm {
    csrf: String,
    action: String,
    target: String,
    reason: String,
    answer: String,
    minutes: String,
    event: String,
}

/// `POST /games/{id}/host`: one of the host's powers, as the API's host action.
pub async fn host<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    p: Id,
    Form(f): Form<HostForm>,
) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    let user = v.id()?;
    v.check(&f.csrf)?;
    let Path(id) = p.map_err(ApiError::from)?;
    let key = format!("host_{}", f.action);
    let reason = Some(ostrov_engine::clean_line(&f.reason)).filter(|r| !r.is_empty());
    let target = f.target.trim().to_string();
    let action = match f.action.as_str() {
        "answer" => match f.answer.as_str() {
            "yes" => HostAction::Answer { yes: true },
            "no" => HostAction::Answer { yes: false },
            _ => return render(&st, &v, id, Notes::error(&key, "Выберите ответ: «да» или «нет».".into())).await,
        },
        "penalty" | "remove" if target.is_empty() => {
            return render(&st, &v, id, Notes::error(&key, "Выберите игрока.".into())).await;
        }
        "penalty" => HostAction::Penalty { target, reason },
        "remove" => HostAction::Remove { target, reason },
        "extend" => match f.minutes.trim().parse::<u32>() {
            Ok(n) if (1..=20160).contains(&n) => HostAction::Extend(Deadline::Later(n)),
            _ => {
                let m = "Укажите, на сколько минут продлить день: целое число от 1 до 20160.".to_string();
                return render(&st, &v, id, Notes::error(&key, m)).await;
            }
        },
        "fix" => {
            if f.event.trim().is_empty() {
                return render(&st, &v, id, Notes::error(&key, "Выберите событие дня.".into())).await;
            }
            HostAction::Fix { day: None, fix: Fix { event: Some(f.event.trim().to_string()), ..Fix::default() } }
        }
        "resolve" => HostAction::Resolve,
        "pause" => HostAction::Pause,
        "resume" => HostAction::Resume,
        _ => return render(&st, &v, id, Notes::error("host_", "Неизвестное действие ведущего.".into())).await,
    };
    match service::host_action(&st, id, user, action, None, |_, _| ()).await {
        Ok(_) => Ok(to(&format!("/games/{id}"))),
        Err(e @ (ApiError::Internal(_) | ApiError::Forbidden | ApiError::NotFound)) => Err(e.into()),
        Err(e) => render(&st, &v, id, Notes::error(&key, e.message())).await,
    }
}
