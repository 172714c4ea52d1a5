//! The notices of a game (issue 31, point 3), derived from its log and its state: what
//! each account is told, in Russian, plain text. Everything a seat is told comes from
//! what the engine lets that seat see: the public view ([`crate::view::game`]) and its own
//! private messages ([`ostrov_engine::State::notices_to`]); the host sees everything.
//!
//! Each notice has its key `(game, seq, recipient, kind)` — the log entry that caused it —
//! so deriving the same entries again (another node, a restart) adds nothing. A reminder
//! has no entry of its own: its key is `(game, 0, recipient, "remind:{day}")`.

use ostrov_engine::{notice_text, Act, PlayerId};
use ostrov_store::{Event, NewNotice};

use crate::game::{GameEvent, GameState, Status};
use crate::notify::cut;
use crate::view::{self, Viewer};

/// Notices of entries older than this (the server was down, or notices were just turned
/// on) are not sent: news of yesterday is not news.
pub const STALE_SECS: i64 = 12 * 3600;

/// The longest notice, in characters (Telegram takes 4,096).
pub const MAX_TEXT: usize = 3500;

struct Out<'a> {
    live: &'a GameState,
    link: Option<String>,
    notices: Vec<NewNotice>,
}

impl Out<'_> {
    fn push(&mut self, seq: i64, recipient: i64, kind: &str, text: String) {
        let mut text = format!("«{}»: {text}", self.live.config.title);
        if let Some(l) = &self.link {
            text.push('\n');
            text.push_str(l);
        }
        let text = cut(&text, MAX_TEXT);
        self.notices.push(NewNotice { game_id: self.live.id, seq, recipient, kind: kind.into(), text });
    }
}

/// The notices of the entries `events` (in order, already folded into `live`), at `now`.
/// `site` is the public address of the server (for the link to the game's page).
pub fn notices(live: &GameState, events: &[Event], now: i64, site: Option<&str>) -> Vec<NewNotice> {
    let link = site.map(|s| format!("{}/games/{}", s.trim_end_matches('/'), live.id));
    let mut out = Out { live, link, notices: Vec::new() };
    let Some(m) = &live.m else { return out.notices };
    for e in events {
        if e.at < now - STALE_SECS {
            continue;
        }
        let Ok(ev) = GameEvent::join(&e.kind, &e.payload) else { continue };
        match ev {
            GameEvent::Started { .. } => {
                private(&mut out, e.seq, 0);
                // The start opens day 1.
                opened(&mut out, e.seq, 1, now);
            }
            GameEvent::Opened { day, .. } => opened(&mut out, e.seq, day, now),
            GameEvent::Midday { day, .. } => {
                let paper = ostrov_paper::bulletin(m, day).plain();
                let text = format!("вышла газета 13:00 дня {day}.\n{}", cut(paper.trim(), 1500));
                everyone(&mut out, e.seq, "paper", &text);
            }
            GameEvent::Resolved { day, .. } => {
                let text = format!("вышла вечерняя газета дня {day}. {}", headline(live, day, now));
                everyone(&mut out, e.seq, "paper", &text);
                private(&mut out, e.seq, day);
            }
            GameEvent::Order { day, order }
                if order.by != "host"
                    && (order.act.trim().eq_ignore_ascii_case(Act::Ask.id())
                        || Act::parse(&order.act) == Some(Act::Ask)) =>
            {
                let q = order.text.as_deref().unwrap_or("");
                let text = format!("{} задаёт вопрос Духу (день {day}): «{q}». Ответьте на странице игры.", order.by);
                out.push(e.seq, live.host, "host_ask", text);
            }
            _ => {}
        }
    }
    all_in(&mut out, now);
    out.notices
}

/// «A day opened», to the living seats: the event, what it means, the deadline. Only while
/// that day is open (derived late, the page's words for it would be another day's).
fn opened(out: &mut Out, seq: i64, day: u32, now: i64) {
    let live = out.live;
    let Some(m) = &live.m else { return };
    if live.open_day() != Some(day) {
        return;
    }
    let v = view::game(live, Viewer::Outsider, now);
    let what = match v.open.as_ref().and_then(|o| o.event.as_ref()) {
        Some(ev) => format!("Событие дня — «{}»: {}", ev.name, ev.meaning),
        None => "Событий сегодня нет.".to_string(),
    };
    let deadline = live.days[day as usize - 1].deadline_at;
    let text = format!("открылся день {day}. {what}\nПриказы принимаются до {}.", live.times.say(deadline));
    for p in m.state().living() {
        out.push(seq, live.members[p.index()].user, "day", text.clone());
    }
}

/// To every seat and the host.
fn everyone(out: &mut Out, seq: i64, kind: &str, text: &str) {
    let users: Vec<i64> = out.live.members.iter().map(|m| m.user).chain([out.live.host]).collect();
    for u in users {
        out.push(seq, u, kind, text.to_string());
    }
}

/// Each seat's own private messages of `day` (0: the deal), to that seat's account only.
fn private(out: &mut Out, seq: i64, day: u32) {
    let Some(m) = &out.live.m else { return };
    let st = m.state();
    for &p in st.list_order() {
        let lines: Vec<String> = st.notices_to(p).filter(|n| n.day == day).map(|n| notice_text(st, n)).collect();
        if lines.is_empty() {
            continue;
        }
        let head = if day == 0 {
            "игра началась. Лично вам:".to_string()
        } else {
            format!("личные сообщения дня {day}:")
        };
        let text = format!("{head}\n• {}", lines.join("\n• "));
        out.push(seq, out.live.members[p.index()].user, "private", text);
    }
}

/// The evening paper's headline from the public view: who was lynched, who died at night.
fn headline(live: &GameState, day: u32, now: i64) -> String {
    let v = view::game(live, Viewer::Outsider, now);
    let players = v.players.unwrap_or_default();
    let died = |how: &str| -> Vec<String> {
        players
            .iter()
            .filter(|p| p.death.as_ref().is_some_and(|d| d.day == day && d.how == how))
            .map(|p| p.name.clone())
            .collect()
    };
    let lynched = died("lynch");
    let night = died("night");
    let mut parts = Vec::new();
    parts.push(if lynched.is_empty() {
        "Линчевания не было.".to_string()
    } else {
        format!("Линчевание: {}.", lynched.join(", "))
    });
    parts.push(if night.is_empty() {
        "Ночью никто не погиб.".to_string()
    } else {
        format!("Погибшие ночью: {}.", night.join(", "))
    });
    if let Some(w) = v.winner {
        parts.push(format!("Игра окончена: {}.", w.name));
    } else if let Some(next) = live.next_open_at {
        parts.push(format!("Следующий день откроется {}.", live.times.say(next)));
    }
    parts.join(" ")
}

/// «Все сходили»: once a day, to the host, when every living player who may vote has.
fn all_in(out: &mut Out, now: i64) {
    let live = out.live;
    let (Some(day), Some(m)) = (live.open_day(), &live.m) else { return };
    let mut any = false;
    for p in m.state().living() {
        let may_vote = live.legal_orders(p, now).iter().any(|o| o.act == Act::Vote);
        if !may_vote {
            continue;
        }
        any = true;
        if m.standing_orders(p).vote.is_none() {
            return;
        }
    }
    if any {
        let text = format!("все сходили: каждый живой игрок проголосовал в день {day}.");
        out.push(0, live.host, &format!("all_in:{day}"), text);
    }
}

/// What seat `p` still has to send today: the vote, the night order (Russian words, for
/// the reminder and `/status`). Empty when nothing.
pub fn missing(live: &GameState, p: PlayerId, now: i64) -> Vec<&'static str> {
    let Some(m) = &live.m else { return Vec::new() };
    if live.open_day().is_none() || !m.state().alive(p) {
        return Vec::new();
    }
    let legal = live.legal_orders(p, now);
    let standing = m.standing_orders(p);
    let mut out = Vec::new();
    if standing.vote.is_none() && legal.iter().any(|o| o.act == Act::Vote) {
        out.push("голос");
    }
    if standing.night.is_none() && legal.iter().any(|o| o.act.is_night() && o.act != Act::Cancel) {
        out.push("ночной приказ");
    }
    out
}

/// The reminders due at `now` in a running game: to each living seat whose account's
/// setting (`hours_of`, hours of the game's time before the deadline, scaled on a fast clock; 0: off) has come and who has not sent
/// its vote or night order.
pub fn reminders(live: &GameState, now: i64, site: Option<&str>, hours_of: &dyn Fn(i64) -> i64) -> Vec<NewNotice> {
    let link = site.map(|s| format!("{}/games/{}", s.trim_end_matches('/'), live.id));
    let mut out = Out { live, link, notices: Vec::new() };
    let (Some(day), Some(m), Status::Running) = (live.open_day(), &live.m, live.status) else { return Vec::new() };
    if live.paused_at.is_some() {
        return Vec::new();
    }
    let deadline = live.days[day as usize - 1].deadline_at;
    for p in m.state().living() {
        let user = live.members[p.index()].user;
        let hours = hours_of(user);
        if hours <= 0 || now < deadline - live.times.span(hours * 3600) || now >= deadline {
            continue;
        }
        let todo = missing(live, p, now);
        if todo.is_empty() {
            continue;
        }
        let text = format!(
            "напоминание: до дедлайна дня {day} ({}) вы не отправили: {}.",
            live.times.say(deadline),
            todo.join(" и ")
        );
        out.push(0, user, &format!("remind:{day}"), text);
    }
    out.notices
}
