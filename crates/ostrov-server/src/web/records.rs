//! A player's record (`/users/{name}`) and the setups played on the server against the
//! simulator (`/stats`), issue 33. Both render the typed views of
//! [`crate::service::records`], made of the results stored when games end.

use askama::Template;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use ostrov_engine::ru::Gender;
use ostrov_store::Store;

use super::page::{page, Chrome, St, Visitor, WebError};
use crate::error::ApiError;
use crate::results::{RecordView, SetupView, Share, Tally, FAIR, FLAG_AFTER};
use crate::service::records;

/// A line of a table: a name and its games and wins.
struct Row {
    name: String,
    games: u32,
    wins: u32,
    percent: String,
}

impl Row {
    fn of(name: String, t: &Tally) -> Row {
        Row { name, games: t.games, wins: t.wins, percent: percent(t.wins, t.games) }
    }
}

fn percent(wins: u32, games: u32) -> String {
    if games == 0 {
        "—".into()
    } else {
        format!("{}%", (wins as f64 * 100.0 / games as f64).round())
    }
}

#[derive(Template)]
#[template(path = "record.html")]
struct RecordPage<'a> {
    c: Chrome<'a>,
    r: RecordView,
    /// «сыграл 12 игр», agreeing with the player's gender.
    summary: String,
    sides: Vec<Row>,
    roles: Vec<Row>,
    recent: Vec<Recent>,
}

/// A recent game as the page words it.
struct Recent {
    id: i64,
    title: String,
    role: String,
    /// «победил», «проиграла» …
    outcome: &'static str,
    /// «выжил», «погибла» …
    fate: &'static str,
}

/// The verbs of a record, agreeing with the player's gender (an unknown gender gets
/// words that need none).
pub fn summary_ru(name: &str, gender: Option<Gender>, games: u32, wins: u32, survived: u32) -> String {
    let n = |k: u32, one: &'static str, few: &'static str, many: &'static str| {
        format!("{k} {}", ostrov_engine::plural::form(k as u64, one, few, many))
    };
    let (played, won, lived) = match gender {
        Some(Gender::Male) => ("сыграл", "выиграл", "дожил"),
        Some(Gender::Female) => ("сыграла", "выиграла", "дожила"),
        None if games == 0 => return format!("{name}: законченных игр пока нет."),
        None => {
            return format!(
                "{name}: законченных игр — {games}, побед — {wins} ({}), в живых до конца — {survived}.",
                percent(wins, games)
            )
        }
    };
    if games == 0 {
        return format!("{name} ещё не {played} ни одной законченной игры.");
    }
    format!(
        "{name} {played} {}, {won} {} ({}), {lived} до конца в {}.",
        n(games, "игру", "игры", "игр"),
        n(wins, "раз", "раза", "раз"),
        percent(wins, games),
        n(survived, "игре", "играх", "играх"),
    )
}

fn outcome_ru(won: bool, gender: Option<Gender>) -> &'static str {
    match (won, gender) {
        (true, Some(Gender::Male)) => "победил",
        (true, Some(Gender::Female)) => "победила",
        (true, None) => "победа",
        (false, Some(Gender::Male)) => "проиграл",
        (false, Some(Gender::Female)) => "проиграла",
        (false, None) => "поражение",
    }
}

fn fate_ru(survived: bool, gender: Option<Gender>) -> &'static str {
    match (survived, gender) {
        (true, Some(Gender::Male)) => "выжил",
        (true, Some(Gender::Female)) => "выжила",
        (true, None) => "в живых до конца",
        (false, Some(Gender::Male)) => "погиб",
        (false, Some(Gender::Female)) => "погибла",
        (false, None) => "выбытие из игры",
    }
}

/// `GET /users/{name}`: the player's record, of the games the visitor may see.
pub async fn record<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    p: Result<Path<String>, PathRejection>,
) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    let Path(name) = p.map_err(ApiError::from)?;
    let r = records::record(&st, &name, v.user.as_ref().map(|u| u.0)).await?;
    let side_ru = |id: &str| id.parse::<ostrov_engine::Side>().map_or(id.to_string(), |s| s.ru().to_string());
    let role_ru = |id: &str| {
        id.parse::<ostrov_engine::Role>().map_or(id.to_string(), |x| ostrov_engine::ru::role(x, r.gender).to_string())
    };
    let p = RecordPage {
        c: Chrome::new(&v, format!("{}: статистика", r.name)),
        summary: summary_ru(&r.name, r.gender, r.games, r.wins, r.survived),
        sides: r.by_side.iter().map(|(k, t)| Row::of(side_ru(k), t)).collect(),
        roles: r.by_role.iter().map(|(k, t)| Row::of(role_ru(k), t)).collect(),
        recent: r
            .recent
            .iter()
            .map(|g| Recent {
                id: g.id,
                title: g.title.clone(),
                role: g.role_ru.clone(),
                outcome: outcome_ru(g.won, r.gender),
                fate: fate_ru(g.survived, r.gender),
            })
            .collect(),
        r,
    };
    Ok(page(&v, StatusCode::OK, &p))
}

#[derive(Template)]
#[template(path = "stats.html")]
struct StatsPage<'a> {
    c: Chrome<'a>,
    setups: Vec<SetupView>,
    low: u32,
    high: u32,
    after: u64,
}

impl StatsPage<'_> {
    fn share(&self, s: &Share) -> String {
        format!("{:.0}% ({:.0}–{:.0}%)", s.rate * 100.0, s.low * 100.0, s.high * 100.0)
    }

    fn players(&self, n: &u64) -> String {
        super::text::players_ru(*n as usize)
    }

    fn games(&self, n: &u64) -> String {
        format!("{n} {}", ostrov_engine::plural::form(*n, "игра", "игры", "игр"))
    }
}

/// `GET /stats`: every setup played on the server (of the games the visitor may see), the
/// town's observed win rate with its interval beside the simulator's, flagged outside the
/// fair range once a setup has enough games.
pub async fn stats<S: Store>(State(st): St<S>, h: HeaderMap) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    let setups = records::setups(&st, v.user.as_ref().map(|u| u.0)).await?;
    let p = StatsPage {
        c: Chrome::new(&v, "Расклады на этом сервере"),
        setups,
        low: (FAIR.0 * 100.0).round() as u32,
        high: (FAIR.1 * 100.0).round() as u32,
        after: FLAG_AFTER,
    };
    Ok(page(&v, StatusCode::OK, &p))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record's sentences agree with the player's gender, and one whose gender is not
    /// known gets words that need none, never «(а)».
    #[test]
    fn a_records_words_agree_with_the_players_gender() {
        let mut text = String::new();
        for (name, g) in [("Лев", Some(Gender::Male)), ("Кисуля", Some(Gender::Female)), ("Kot2000", None)] {
            text.push_str(&format!("## {name}\n"));
            for (games, wins, survived) in [(0, 0, 0), (1, 1, 1), (3, 2, 1), (12, 7, 5)] {
                text.push_str(&summary_ru(name, g, games, wins, survived));
                text.push('\n');
            }
            for (won, lived) in [(true, true), (false, false)] {
                text.push_str(&format!("{}, {}\n", outcome_ru(won, g), fate_ru(lived, g)));
            }
            // The review's list of roles: the living and the dead.
            text.push_str(&format!(
                "{name}: {}; {}; {}\n",
                super::super::review::alive_ru(g),
                super::super::text::death_ru("lynch", g),
                super::super::text::death_ru("night", g)
            ));
        }
        assert!(!text.contains("(а)"), "{text}");
        insta::assert_snapshot!(text);
    }
}
