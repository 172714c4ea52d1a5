//! The review page (`/games/{id}/review`, issue 33): a finished game day by day with every
//! role shown, for anyone who may reach the game once it is over and for its host at any
//! time; 404 to everyone else. It renders [`crate::review::ReviewView`] and nothing else,
//! and offers the downloads: the game file and the thread in Markdown.

use askama::Template;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use ostrov_store::Store;

use super::page::{page, Chrome, St, Visitor, WebError};
use super::paper::Bar;
use crate::error::ApiError;
use crate::review::{ReviewDay, ReviewView, TallyLine};
use crate::service::reach;
use crate::view::Viewer;

type Id = Result<Path<i64>, PathRejection>;

/// One day of the page: the view's day and its chart.
struct DayPage {
    d: ReviewDay,
    bars: Vec<Bar>,
    height: u32,
}

#[derive(Template)]
#[template(path = "review.html")]
struct ReviewPage<'a> {
    c: Chrome<'a>,
    r: ReviewView,
    days: Vec<DayPage>,
    /// Whether the visitor may open the game's own page (a private game's is its members').
    member: bool,
    /// A forum game's topics by day (the game's own as day 0): its days link their topic,
    /// not a thread (issue 30, point 12); `None` for a game with a thread.
    forum: Option<Vec<(u32, String)>>,
}

/// The bars of a day's tally (most votes first), as the evening paper draws them.
pub fn bars(tally: &[TallyLine]) -> Vec<Bar> {
    let most = tally.iter().map(|t| t.votes).max().unwrap_or(1).max(1);
    tally
        .iter()
        .enumerate()
        .map(|(i, t)| Bar {
            name: t.name.clone(),
            votes_ru: ostrov_engine::plural::votes(t.votes),
            width: (t.votes * 300 / most).max(4),
            y: i as u32 * 28,
            text_y: i as u32 * 28 + 17,
            lynched: t.lynched.then(|| super::text::death_ru("lynch", t.gender)),
        })
        .collect()
}

/// The review of game `id` for the visitor, or 404.
async fn reviewed<S: Store>(st: &St<S>, user: Option<i64>, id: i64) -> Result<Reviewed, WebError> {
    let (slot, _) = reach(&st.0, id, user).await?;
    let live = &slot.live;
    let viewer = user.map_or(Viewer::Outsider, |u| Viewer::of(live, u));
    let r = crate::review::review(live, viewer).ok_or(ApiError::NotFound)?;
    let forum = match &live.config.discussion {
        crate::game::Discussion::Thread => None,
        crate::game::Discussion::Forum(url) => {
            Some(url.iter().map(|u| (0, u.clone())).chain(live.topics.iter().cloned()).collect())
        }
    };
    Ok((r, viewer != Viewer::Outsider || live.config.visibility.is_open(), forum))
}

/// A review, whether the visitor may open the game's page, and a forum game's topics.
type Reviewed = (ReviewView, bool, Option<Vec<(u32, String)>>);

/// `GET /games/{id}/review`.
pub async fn show<S: Store>(st: St<S>, h: HeaderMap, p: Id) -> Result<Response, WebError> {
    let v = Visitor::of(&st.0, &h).await?;
    let Path(id) = p.map_err(ApiError::from)?;
    let (r, member, forum) = reviewed(&st, v.user.as_ref().map(|u| u.0), id).await?;
    let days = r
        .days
        .iter()
        .map(|d| {
            let bars = bars(&d.tally);
            DayPage { height: bars.len() as u32 * 28, bars, d: d.clone() }
        })
        .collect();
    let p = ReviewPage { c: Chrome::new(&v, format!("{}: разбор игры", r.title)), r, days, member, forum };
    Ok(page(&v, StatusCode::OK, &p))
}

/// `GET /games/{id}/review/game.toml`: the game file that replays the game, to whoever may
/// see its review.
pub async fn gamefile<S: Store>(State(st): St<S>, h: HeaderMap, p: Id) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    let Path(id) = p.map_err(ApiError::from)?;
    let user = v.user.as_ref().map(|u| u.0);
    let (slot, _) = reach(&st, id, user).await?;
    let viewer = user.map_or(Viewer::Outsider, |u| Viewer::of(&slot.live, u));
    if crate::review::review(&slot.live, viewer).is_none() {
        return Err(ApiError::NotFound.into());
    }
    let mut r = slot.live.exported().to_toml().into_response();
    r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/toml; charset=utf-8"));
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"ostrov-{id}.toml\"")) {
        r.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(r)
}

impl ReviewPage<'_> {
    /// The forum topic day `day` was discussed in: its own, else the latest before, else
    /// the game's (O-FORUM-1).
    fn topic(&self, day: &u32) -> Option<&str> {
        let t = self.forum.as_ref()?;
        t.iter().filter(|(d, _)| d <= day).max_by_key(|(d, _)| *d).map(|(_, u)| u.as_str())
    }

    /// How a player left the game, agreeing with their gender.
    fn death(&self, p: &crate::review::ReviewPlayer, d: &crate::view::DeathView) -> &'static str {
        super::text::death_ru(d.how, p.gender)
    }

    fn alive(&self, p: &crate::review::ReviewPlayer) -> &'static str {
        alive_ru(p.gender)
    }

    fn paper(&self, kind: &str) -> &'static str {
        match kind {
            "bulletin" => "сводка в 13:00",
            "evening" => "итоги дня",
            _ => "итоговая газета",
        }
    }
}

/// «жив», «жива» or «в живых», as the player's gender has it.
pub fn alive_ru(g: Option<ostrov_engine::ru::Gender>) -> &'static str {
    use ostrov_engine::ru::Gender::{Female, Male};
    match g {
        Some(Male) => "жив",
        Some(Female) => "жива",
        None => "в живых",
    }
}
