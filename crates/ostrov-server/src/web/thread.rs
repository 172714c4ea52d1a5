//! The day's thread and the pack's private chat: posting (the author's speech as the
//! engine says, the Palms bloom words found by the engine), the host's flags (a flag on a
//! player's post of the open day is also the host penalty of RULES.md §7), the live
//! fragment and the host's export.

use askama::Template;
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use ostrov_store::Store;
use serde::Deserialize;

use super::page::{page, St, Visitor, WebError};
use super::text::when;
use crate::error::ApiError;
use crate::game::{GameState, Post, Room, MAX_POST};
use crate::service::{self, reach};
use crate::view::Viewer;

/// A piece of a post's text; `banned`: a banned word of Palms bloom, highlighted.
pub struct Piece {
    pub text: String,
    pub banned: bool,
}

pub struct PostRow {
    /// The post's place in the game's whole log, from 1 (the host's flag buttons name it).
    pub no: usize,
    /// The post's number in its room, from 1 (what readers see).
    pub shown: usize,
    pub day: u32,
    pub name: String,
    pub speaker: String,
    pub mark: String,
    pub at: String,
    pub iso: String,
    pub lines: Vec<Vec<Piece>>,
    pub flagged: bool,
    pub palms: bool,
    pub palms_label: String,
    pub dismissed: bool,
    /// The host may still dismiss its Palms flag (the day is open).
    pub dismissible: bool,
}

#[derive(Template)]
#[template(path = "thread.html")]
pub struct ThreadView {
    pub id: i64,
    pub room: &'static str,
    pub heading: &'static str,
    pub posts: Vec<PostRow>,
    pub can_post: bool,
    pub host: bool,
    pub csrf: String,
    pub error: Option<String>,
    pub max: usize,
    pub palms_today: bool,
    pub as_spectator: bool,
    /// The day shown (0: before the start) and the other days with posts, as links.
    pub day: u32,
    pub days: Vec<DayLink>,
    /// The pages of the day shown, when it has more posts than one page holds.
    pub pages: Vec<PageLink>,
    /// The fragment's address for live updates (the same day and page).
    pub fragment: String,
    /// «Сообщение отправлено.» right after the reader's post (issue 30, point 13).
    pub confirm: Option<&'static str>,
    /// Why the reader has no post form here, when they might expect one.
    pub no_form: Option<String>,
    /// How the reader speaks here today, when not freely (tied to the post box).
    pub speech_note: Option<String>,
}

/// A day of a room in the thread's navigation.
pub struct DayLink {
    pub day: u32,
    pub posts: usize,
    pub current: bool,
    pub url: String,
}

/// A page of the shown day.
pub struct PageLink {
    pub no: usize,
    pub current: bool,
    pub url: String,
}

/// The most posts a page shows: the latest page of the open day by default.
pub const POSTS_PER_PAGE: usize = 50;

/// Which part of a room to show: a day (default: the open day, or the last with posts)
/// and a page of it counted from 1 (default: the last).
#[derive(Clone, Copy, Debug, Default, Deserialize)]
pub struct Shown {
    pub day: Option<u32>,
    pub page: Option<usize>,
}

pub(super) fn room_id(r: Room) -> &'static str {
    match r {
        Room::Thread => "thread",
        Room::Pack => "pack",
    }
}

/// The mark of a speaker: «ведущий», «зритель», or how a player speaks, agreeing with the
/// player's gender («говорит как мёртвая», issue 29, point 2).
fn speaker_mark(s: &str, g: Option<ostrov_engine::ru::Gender>) -> String {
    match s {
        "host" => "ведущий".to_string(),
        "spectator" => "зритель".to_string(),
        other => ostrov_engine::Speech::parse(other).map(|s| s.ru(g).to_string()).unwrap_or_default(),
    }
}

/// The gender of a post's author, when the author is a seat of the game and it is known.
fn author_gender(live: &GameState, p: &Post) -> Option<ostrov_engine::ru::Gender> {
    let m = live.m.as_ref()?;
    live.seat_of(p.user).and_then(|seat| m.state().who(seat).gender())
}

/// «„Пальмы цветут“: запрещённое слово» for one word, «запрещённые слова» for more
/// (issue 29, point 2).
pub(super) fn palms_label(words: usize) -> String {
    let what = if words == 1 { "запрещённое слово" } else { "запрещённые слова" };
    format!("«Пальмы цветут»: {what}")
}

/// How a post's author spoke, as `viewer` (the account `user`) may know it. The maniac's
/// victim is a secret (O-PAPER-2): only the host and the victim see that mark; to anyone
/// else the post looks like any free post.
fn speaker_seen(p: &Post, viewer: Viewer, user: i64) -> &str {
    let secret = p.speaker == ostrov_engine::Speech::LikeDead(ostrov_engine::Silence::Assaulted).id();
    if secret && viewer != Viewer::Host && p.user != user {
        ostrov_engine::Speech::Free.id()
    } else {
        &p.speaker
    }
}

/// The mark `viewer` sees on a post (the host's own marks say which only the host sees).
fn mark_seen(live: &GameState, p: &Post, viewer: Viewer, user: i64) -> String {
    let speaker = speaker_seen(p, viewer, user);
    let mark = speaker_mark(speaker, author_gender(live, p));
    let secret = speaker == ostrov_engine::Speech::LikeDead(ostrov_engine::Silence::Assaulted).id();
    if secret && viewer == Viewer::Host && p.user != user {
        format!("{mark} (видит только ведущий)")
    } else {
        mark
    }
}

fn pieces(line: &str, palms: bool) -> Vec<Piece> {
    let mut out: Vec<Piece> = Vec::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut Vec<Piece>| {
        if !word.is_empty() {
            let banned = palms && !ostrov_engine::palms_violations(word).is_empty();
            out.push(Piece { text: std::mem::take(word), banned });
        }
    };
    for c in line.chars() {
        if c.is_alphanumeric() {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            match out.last_mut() {
                Some(p) if !p.banned && !p.text.chars().next().is_some_and(char::is_alphanumeric) => p.text.push(c),
                _ => out.push(Piece { text: c.to_string(), banned: false }),
            }
        }
    }
    flush(&mut word, &mut out);
    out
}

/// A room of the game as `v` may read it; `error`: a refusal to show by the post form.
pub fn thread_view(live: &GameState, v: &Visitor, room: Room, error: Option<&str>, shown: Shown) -> ThreadView {
    let user = v.user.as_ref().map_or(-1, |u| u.0);
    let viewer = Viewer::of(live, user);
    let readable = service::talk::may_read(live, user, room);
    let tz = live.config.schedule.tz.as_str();
    let open = live.open_day();
    // Each post with its place in the whole log (what the host's buttons name) and its
    // number in its room (what readers see: the thread's numbers never show how many
    // posts the pack's chat holds between them, [`GameState::shown_number`]).
    let in_room: Vec<(usize, usize, &crate::game::Posted)> = if readable {
        let posts = live.posts.iter().enumerate().filter(|(_, p)| p.post.room == room);
        posts.enumerate().map(|(k, (i, p))| (i, k + 1, p)).collect()
    } else {
        Vec::new()
    };
    let mut counts: std::collections::BTreeMap<u32, usize> = std::collections::BTreeMap::new();
    for (_, _, p) in &in_room {
        *counts.entry(p.day).or_default() += 1;
    }
    let default_day = open.or_else(|| counts.keys().next_back().copied()).unwrap_or(live.days.len() as u32);
    let day = shown.day.filter(|d| counts.contains_key(d) || Some(*d) == open).unwrap_or(default_day);
    if Some(day) == open {
        counts.entry(day).or_default();
    }
    let rid = room_id(room);
    let base = format!("/games/{}?room={rid}", live.id);
    let days = counts
        .iter()
        .map(|(&d, &n)| DayLink { day: d, posts: n, current: d == day, url: format!("{base}&day={d}#{rid}") })
        .collect();
    let of_day: Vec<_> = in_room.into_iter().filter(|(_, _, p)| p.day == day).collect();
    let n_pages = of_day.len().div_ceil(POSTS_PER_PAGE).max(1);
    let page = shown.page.filter(|p| (1..=n_pages).contains(p)).unwrap_or(n_pages);
    let pages = if n_pages > 1 {
        (1..=n_pages)
            .map(|no| PageLink { no, current: no == page, url: format!("{base}&day={day}&page={no}#{rid}") })
            .collect()
    } else {
        Vec::new()
    };
    let fragment = match (shown.day.is_some(), shown.page.is_some()) {
        (false, false) => format!("/games/{}/thread?room={rid}", live.id),
        _ => format!("/games/{}/thread?room={rid}&day={day}&page={page}", live.id),
    };
    let posts = if readable {
        of_day
            .into_iter()
            .skip((page - 1) * POSTS_PER_PAGE)
            .take(POSTS_PER_PAGE)
            .map(|(i, shown, p)| {
                let w = when(p.at, tz);
                PostRow {
                    no: i + 1,
                    shown,
                    day: p.day,
                    name: p.post.name.clone(),
                    speaker: speaker_seen(&p.post, viewer, user).to_string(),
                    mark: mark_seen(live, &p.post, viewer, user),
                    at: w.text,
                    iso: w.iso,
                    lines: p.post.text.split('\n').map(|l| pieces(l, !p.post.banned.is_empty())).collect(),
                    flagged: p.flagged,
                    palms: !p.post.banned.is_empty(),
                    palms_label: palms_label(p.post.banned.len()),
                    dismissed: p.dismissed,
                    dismissible: p.palms_standing() && open == Some(p.day),
                }
            })
            .collect()
    } else {
        Vec::new()
    };
    let m = live.m.as_ref();
    let seat = match viewer {
        Viewer::Player(p) => Some(p),
        _ => None,
    };
    let alive = seat.zip(m).is_some_and(|(p, m)| m.state().alive(p));
    let over = live.status == crate::game::Status::Over;
    // O-THREAD-4: the dead read the pack's chat and do not write in it; the page says so
    // instead of a form that is always refused (issue 30, point 10).
    let dead_in_pack = room == Room::Pack && seat.is_some() && !alive && m.is_some();
    let no_form = if dead_in_pack {
        Some("Вы выбыли из игры: мёртвые читают чат стаи, но не пишут в него.".to_string())
    } else if over && readable {
        Some("Игра окончена: обсуждение закрыто.".to_string())
    } else {
        None
    };
    let speech_note = match (seat, m) {
        (Some(p), Some(m)) if room == Room::Thread && !over => match m.speech(p) {
            ostrov_engine::Speech::Free => None,
            ostrov_engine::Speech::Dead => {
                Some("Вы выбыли из игры: в обсуждении можно писать только тематический флуд.".to_string())
            }
            s => Some(format!(
                "В обсуждении сегодня: {}. Можно писать только тематический флуд, без споров, обвинений и алиби.",
                s.ru(m.state().who(p).gender())
            )),
        },
        _ => None,
    };
    ThreadView {
        id: live.id,
        room: room_id(room),
        heading: match room {
            Room::Thread => "Обсуждение дня",
            Room::Pack => "Логово стаи (видят только оборотни, полукровка и ведущий)",
        },
        posts,
        can_post: readable && v.user.is_some() && !over && !dead_in_pack,
        host: viewer == Viewer::Host,
        csrf: v.csrf.clone(),
        error: error.map(str::to_string),
        max: MAX_POST,
        palms_today: m.and_then(|m| m.today()).is_some_and(|t| t.event == Some(ostrov_engine::Event::PalmsBloom)),
        as_spectator: viewer == Viewer::Outsider,
        day,
        days,
        pages,
        fragment,
        confirm: None,
        no_form,
        speech_note,
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct RoomQuery {
    room: String,
    day: Option<u32>,
    page: Option<usize>,
    /// What the reader just did (`order-vote`, `post-thread`): the page confirms it.
    pub done: String,
}

impl RoomQuery {
    /// The room asked for, and which part of it.
    pub fn shown(&self) -> Result<(Room, Shown), WebError> {
        Ok((room_of(&self.room)?, Shown { day: self.day, page: self.page }))
    }
}

pub(super) fn room_of(s: &str) -> Result<Room, WebError> {
    match s {
        "" | "thread" => Ok(Room::Thread),
        "pack" => Ok(Room::Pack),
        _ => Err(ApiError::NotFound.into()),
    }
}

type Id = Result<Path<i64>, PathRejection>;

/// Whether a browser navigated to the fragment itself (a link, a new tab, a reload) rather
/// than the page's script fetching it: the browser says `Sec-Fetch-Mode: navigate`, or
/// asks for HTML without htmx's `HX-Request`.
fn opened_directly(h: &HeaderMap) -> bool {
    let navigate = h.get("sec-fetch-mode").is_some_and(|v| v.as_bytes() == b"navigate");
    let html = h.get(header::ACCEPT).and_then(|v| v.to_str().ok()).is_some_and(|a| a.contains("text/html"));
    navigate || (html && !h.contains_key("hx-request"))
}

/// `GET /games/{id}/thread?room=thread|pack`: the room's fragment (for live updates).
pub async fn fragment<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    p: Id,
    q: Result<Query<RoomQuery>, QueryRejection>,
) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    let Query(q) =
        q.map_err(|_| ApiError::BadRequest("Неверные параметры адреса страницы (день и страница — числа).".into()))?;
    let user = v.id()?;
    let Path(id) = p.map_err(ApiError::from)?;
    let (room, shown) = q.shown()?;
    let (slot, _) = reach(&st, id, Some(user)).await?;
    if !service::talk::may_read(&slot.live, user, room) {
        return Err(ApiError::Forbidden.into());
    }
    // A forum game has no thread here (issue 30, point 12).
    if room == Room::Thread && slot.live.forum() {
        return Err(ApiError::NotFound.into());
    }
    if opened_directly(&h) {
        // Opened directly (a link, a new tab), not by the live update: the whole page
        // with this room, day and page (issue 30, point 14), not a bare fragment.
        let mut url = format!("/games/{id}?room={}", room_id(room));
        if let Some(d) = shown.day {
            url.push_str(&format!("&day={d}"));
        }
        if let Some(p) = shown.page {
            url.push_str(&format!("&page={p}"));
        }
        return Ok(super::page::to(&format!("{url}#{}", room_id(room))));
    }
    Ok(page(&v, StatusCode::OK, &thread_view(&slot.live, &v, room, None, shown)))
}

/// Where a forum game's talk went, for the thread's export: the game's topic and each
/// day's, as Markdown links.
fn forum_md(live: &GameState) -> String {
    let mut out = String::from("\nОбсуждение дня шло на форуме, тред на странице игры был выключен.\n");
    let link =
        |what: String, url: &str| format!("\n- [{}](<{}>)", ostrov_paper::md_escape(&what), url.replace('>', "%3E"));
    if let crate::game::Discussion::Forum(Some(url)) = &live.config.discussion {
        out.push_str(&link("Тема игры".into(), url));
    }
    let mut topics = live.topics.clone();
    topics.sort_by_key(|(d, _)| *d);
    for (d, url) in &topics {
        out.push_str(&link(format!("Тема дня {d}"), url));
    }
    out.push('\n');
    out
}

/// `GET /games/{id}/thread.md`: the whole discussion as Markdown, for the game's record:
/// the host's at any time, and once the game is over anyone's who may reach the game (the
/// review's download); the pack's chat is in it only for the host and the pack.
pub async fn export<S: Store>(State(st): St<S>, h: HeaderMap, p: Id) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    // Signed in, as the thread is read.
    let user = v.id()?;
    let Path(id) = p.map_err(ApiError::from)?;
    let (slot, _) = reach(&st, id, Some(user)).await?;
    let live = &slot.live;
    // The host's at any time; once the game is over, whoever may reach it (O-THREAD-6),
    // the pack's chat only to the pack and the host (O-THREAD-4).
    if !crate::view::Viewer::of(live, user).sees_all(live) {
        return Err(ApiError::Forbidden.into());
    }
    let pack = crate::service::talk::may_read(live, user, Room::Pack);
    let tz = live.config.schedule.tz.as_str();
    let mut out = format!("# {}: обсуждение\n", ostrov_paper::md_escape(&live.config.title));
    if live.forum() {
        // A forum game's day-talk is on the forum: the export says where, and holds the
        // pack's chat alone (issue 30, point 12).
        out.push_str(&forum_md(live));
    }
    for room in [Room::Thread, Room::Pack].into_iter().filter(|r| if *r == Room::Thread { !live.forum() } else { pack })
    {
        let mut day = u32::MAX;
        if room == Room::Pack && live.posts.iter().any(|p| p.post.room == Room::Pack) {
            out.push_str("\n# Логово стаи\n");
        }
        for (i, p) in live.posts.iter().filter(|p| p.post.room == room).enumerate() {
            if p.day != day {
                day = p.day;
                out.push_str(&if day == 0 {
                    "\n## До начала игры\n".to_string()
                } else {
                    format!("\n## День {day}\n")
                });
            }
            let mut marks = vec![speaker_mark(&p.post.speaker, author_gender(live, &p.post))];
            if p.flagged {
                marks.push("нарушение (отметил ведущий)".into());
            }
            if !p.post.banned.is_empty() {
                let words = p.post.banned.join(", ");
                marks.push(if p.dismissed {
                    format!("«Пальмы»: {words} — отметка снята")
                } else {
                    format!("«Пальмы»: {words}")
                });
            }
            marks.retain(|m| !m.is_empty());
            let marks = if marks.is_empty() {
                String::new()
            } else {
                format!(" _({})_", ostrov_paper::md_escape(&marks.join("; ")))
            };
            out.push_str(&format!(
                "\n**№{} {}**, {}{marks}\n\n",
                i + 1,
                ostrov_paper::md_escape(&p.post.name),
                when(p.at, tz).text
            ));
            for l in p.post.text.split('\n') {
                out.push_str(&format!("> {}\n", ostrov_paper::md_escape(l)));
            }
        }
    }
    let mut r = out.into_response();
    r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("text/markdown; charset=utf-8"));
    let file = format!("attachment; filename=\"ostrov-{id}-thread.md\"");
    if let Ok(v) = HeaderValue::from_str(&file) {
        r.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(r)
}
