//! The open day as if resolved now (issue 30, point 2): the engine resolves a copy of the
//! open day's match with the orders in force and the match's own random draws, so the
//! resolution that follows with the same orders gives the same result; nothing is stored.
//! Made once per state of the game and kept with it ([`Cached`]). Also the step log of a
//! day folded by step, for the host's page.

use std::sync::Arc;

use ostrov_engine::{Match, PlayerId, Report, Step};
use serde::Serialize;

use crate::game::{GameState, Refused};

/// The lines of one step of a day's log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StepLog {
    /// RULES.md's number (0: the opening, 13:00, the host's decisions).
    pub number: u8,
    /// What the step does, in Russian.
    pub name: &'static str,
    pub lines: Vec<String>,
}

/// Day `day`'s log of match `m`, folded by step: a run of lines of one step is one entry.
pub fn steps(m: &Match, day: u32) -> Vec<StepLog> {
    let mut out: Vec<(Step, StepLog)> = Vec::new();
    for e in m.record(day).map(|r| r.log.as_slice()).unwrap_or_default() {
        match out.last_mut() {
            Some((s, l)) if *s == e.step => l.lines.push(e.text.clone()),
            _ => {
                out.push((e.step, StepLog { number: e.step.number(), name: e.step.ru(), lines: vec![e.text.clone()] }))
            }
        }
    }
    out.into_iter().map(|(_, l)| l).collect()
}

/// The open day as if resolved now (issue 30, point 2): the report of the game in
/// GAME_FILE.md's JSON form, and what the host's page shows of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Preview {
    pub day: u32,
    /// The whole report as `GET /api/games/{id}/report` would give it after the resolution.
    pub report: Report,
    pub lynched: Vec<String>,
    pub night_deaths: Vec<String>,
    /// The winner's name in Russian, when the resolution would end the game.
    pub winner: Option<&'static str>,
    pub steps: Vec<StepLog>,
}

/// A game's last preview and the sequence number of the state it was made from (kept
/// with the game in memory, [`crate::loaded::LoadedGame::preview`]).
pub type Cached = Option<(i64, Arc<Preview>)>;

/// The preview of game `live` now: made once per state of the game (its sequence number)
/// and kept in `cache`, so a host reloading it costs one resolution of a copy per change.
pub fn preview(live: &GameState, cache: &mut Cached) -> Result<Arc<Preview>, Refused> {
    let seq = live.seq;
    if let Some((s, p)) = cache {
        if *s == seq {
            return Ok(p.clone());
        }
    }
    let day = live.open_day().ok_or_else(|| crate::game::state::state("not_open", "Сейчас нет открытого дня."))?;
    let m = live.preview()?;
    let names = |ps: &[PlayerId]| ps.iter().map(|p| m.state().name(*p).to_string()).collect();
    let r = m.record(day);
    let p = Arc::new(Preview {
        day,
        report: Report::of(&m),
        lynched: r.map(|r| names(&r.lynched)).unwrap_or_default(),
        night_deaths: r.map(|r| names(&r.night_deaths)).unwrap_or_default(),
        winner: m.winner().map(|w| w.ru()),
        steps: steps(&m, day),
    });
    *cache = Some((seq, p.clone()));
    Ok(p)
}
