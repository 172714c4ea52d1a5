//! The newspaper page: public by link, the same content as `ostrov resolve` (ostrov-paper's
//! HTML rendering), with a server-rendered SVG chart of the day's tally.

use askama::Template;
use axum::extract::rejection::PathRejection;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use ostrov_paper::Format;
use ostrov_store::Store;
use serde::Deserialize;

use super::page::{page, Chrome, St, Visitor, WebError};
use crate::error::ApiError;
use crate::service::reach_papers;
use crate::view;

/// One bar of the tally chart.
pub struct Bar {
    pub name: String,
    pub votes_ru: String,
    /// The bar's width in the chart's units (0–220) and its row's top: the name on its
    /// own line, the bar and its count under it, so that on a 360 px phone the chart's
    /// 400 units shrink to no less than 12 px text (issue 30, point 11).
    pub width: u32,
    pub y: u32,
    pub text_y: u32,
    /// «линчёван», «линчёвана» or «линчевание», as the lynched player's gender has it.
    pub lynched: Option<&'static str>,
}

#[derive(Template)]
#[template(path = "paper.html")]
struct PaperPage<'a> {
    c: Chrome<'a>,
    id: i64,
    title: String,
    /// ostrov-paper's HTML: every player-typed text in it is escaped by its renderer.
    body: String,
    bars: Vec<Bar>,
    height: u32,
    signed_in: bool,
}

/// The bars of a day's tally, most votes first (the engine's tally order otherwise).
pub fn bars(m: &ostrov_engine::Match, day: u32) -> Vec<Bar> {
    let Some(r) = m.record(day) else { return Vec::new() };
    let mut tally: Vec<(ostrov_engine::PlayerId, u32)> = r.tally.iter().copied().filter(|(_, n)| *n > 0).collect();
    tally.sort_by_key(|t| std::cmp::Reverse(t.1));
    let most = tally.first().map_or(1, |t| t.1.max(1));
    tally
        .iter()
        .enumerate()
        .map(|(i, (p, n))| Bar {
            name: m.state().name(*p).to_string(),
            votes_ru: ostrov_engine::plural::votes(*n),
            width: (n * 220 / most).max(4),
            y: i as u32 * 44,
            text_y: i as u32 * 44 + 15,
            lynched: r.lynched.contains(p).then(|| super::text::death_ru("lynch", m.state().who(*p).gender())),
        })
        .collect()
}

/// The newspaper page's query: the key of a private game's newspaper links.
#[derive(Deserialize, Default)]
pub struct KeyQuery {
    #[serde(default)]
    key: Option<String>,
}

/// `GET /games/{id}/papers/{day}/{kind}[?key=…]` (`bulletin`, `evening`, `final`): public by
/// link in an open game; in a private one, to its host and players or with the key
/// (O-PRIVATE-1), 404 otherwise.
pub async fn show<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    p: Result<Path<(i64, u32, String)>, PathRejection>,
    q: Result<Query<KeyQuery>, QueryRejection>,
) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    let Path((id, day, kind)) = p.map_err(ApiError::from)?;
    let Query(q) = q.unwrap_or_default();
    let user = v.user.as_ref().map(|u| u.0);
    let (slot, _) = reach_papers(&st, id, user, q.key.as_deref()).await?;
    let live = &slot.live;
    if !view::published(live).iter().any(|(d, k)| *d == day && *k == kind) {
        return Err(ApiError::NotFound.into());
    }
    let m = live.m.as_ref().ok_or(ApiError::NotFound)?;
    let doc = view::paper(live, day, &kind).ok_or(ApiError::NotFound)?;
    let bars = if kind == "evening" { bars(m, day) } else { Vec::new() };
    let height = bars.len() as u32 * 44;
    let p = PaperPage {
        c: Chrome::new(&v, format!("{}: газета", live.config.title)),
        id,
        title: live.config.title.clone(),
        body: doc.render(Format::HtmlFragment),
        bars,
        height,
        signed_in: v.user.is_some() && live.reachable(user),
    };
    Ok(page(&v, StatusCode::OK, &p))
}
