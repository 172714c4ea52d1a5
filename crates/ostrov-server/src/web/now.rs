//! The top of the game page (issue 30, points 7–9): for a player, what to do now — the
//! countdown to the next deadline (right without JavaScript; app.js only ticks it), what
//! is not sent yet, the orders in force with a link to change each, why there is no vote
//! form today, what the role and the item do — and for everyone, the last resolution's
//! summary with a link to its newspaper. Everything comes from the viewer's
//! [`GameView`] (the engine's `sight`, `unsent`, `vote_blocked`) and the order forms.

use ostrov_engine::{Item, Role};

use super::forms::OrderForm;
use super::rules::{item_text, role_text};
use super::text::{death_ru, game_time, left_ru, until, When};
use crate::game::GameState;
use crate::view::{GameView, PlayerView};

/// The countdown to the next deadline.
pub struct Countdown {
    /// What the deadline is: «Приказы принимаются», «День 3 начнётся».
    pub what: String,
    pub at: When,
    /// The deadline and the server's time of the page, as Unix times: the script that
    /// ticks `left` counts from the server's clock, not the reader's (which may be wrong).
    pub epoch: i64,
    pub now: i64,
    /// What is left, briefly («3 ч 12 мин»); `None` once it has passed.
    pub left: Option<String>,
    /// The game is paused: the deadline moves by the pause.
    pub paused: bool,
}

/// An order in force, as «Голос: Вика (в 14:21)», with its form's anchor.
pub struct InForce {
    pub act: &'static str,
    pub title: String,
    pub current: String,
}

/// A line of the rule book next to the role or the item, with its anchor on /rules.
pub struct RuleLine {
    pub anchor: String,
    pub text: &'static str,
}

/// What a seated player should do now.
pub struct Now {
    pub unsent: Vec<&'static str>,
    pub in_force: Vec<InForce>,
    pub no_vote: Option<&'static str>,
    pub role: Option<RuleLine>,
    pub item: Option<RuleLine>,
}

/// The last resolution, at the top of the page until the next one.
pub struct Summary {
    pub day: u32,
    /// «Боря — линчёван», «Аня — погибла ночью», or that nobody died.
    pub lines: Vec<String>,
    pub paper: String,
}

/// The countdown of game `live` at `now`: to the open day's deadline (21:00), or at night
/// to the next day's opening.
pub fn countdown(live: &GameState, game: &GameView, now: i64) -> Option<Countdown> {
    let tz = live.config.schedule.tz.as_str();
    let paused = live.paused_at.is_some();
    let (what, at) = match (&game.open, live.next_open_at) {
        (Some(_), _) => {
            let d = live.open_day()?;
            let at = live.deadline(now).unwrap_or(live.days.get(d as usize - 1)?.deadline_at);
            ("Приказы и голоса принимаются".to_string(), at)
        }
        (None, Some(next)) if game.winner.is_none() => (format!("День {} начнётся", live.days.len() + 1), next),
        _ => return None,
    };
    Some(Countdown {
        what,
        at: game_time(&live.times, at, now, || until(at, now, tz)),
        epoch: at,
        now,
        left: if paused { None } else { left_ru(at - now) },
        paused,
    })
}

/// Why a player's vote will not count today, as the page says it (the view's
/// `vote_blocked`).
pub fn no_vote_ru(id: &str) -> &'static str {
    match id {
        "assaulted" => "Сегодня у вас нет голоса: ночью вас навестил маньяк.",
        "shocked" => "Сегодня у вас нет голоса: на вас применили шокер.",
        _ => "Сегодня ваш голос не учитывается: ведущий отметил нарушение.",
    }
}

/// What a seated player should do now, from the view and the page's order forms.
pub fn now(game: &GameView, forms: &[OrderForm]) -> Option<Now> {
    let you = game.you.as_ref()?;
    let unsent = you
        .unsent
        .iter()
        .map(|d| match *d {
            "vote" => "голос",
            "megaphone" => "голос рупора",
            _ => "ночной ход",
        })
        .collect();
    let in_force = forms
        .iter()
        .filter_map(|f| f.current.as_ref().map(|c| InForce { act: f.act, title: f.title.clone(), current: c.clone() }))
        .collect();
    let role = Role::parse(you.role.id).map(|r| RuleLine { anchor: format!("role-{}", r.id()), text: role_text(r) });
    let item = you
        .item
        .as_ref()
        .and_then(|i| Item::parse(i.id))
        .map(|i| RuleLine { anchor: format!("item-{}", i.id()), text: item_text(i) });
    Some(Now {
        unsent,
        in_force,
        no_vote: you.vote_blocked.filter(|_| you.alive && game.open.is_some()).map(no_vote_ru),
        role,
        item,
    })
}

/// The summary of the last resolved day, as any viewer may read it (who died is public:
/// the evening paper says it); `paper_key`: the private game's key for the host's link.
pub fn summary(live: &GameState, game: &GameView, paper_key: &str) -> Option<Summary> {
    let day = live.days.iter().rposition(|d| d.resolved_at.is_some())? as u32 + 1;
    let players = game.players.as_deref()?;
    let of = |how: &str| -> Vec<&PlayerView> {
        players.iter().filter(|p| p.death.is_some_and(|d| d.how == how && d.day == day)).collect()
    };
    let (lynched, night, removed) = (of("lynch"), of("night"), of("removed"));
    Some(Summary {
        day,
        lines: summary_lines(&lynched, &night, &removed),
        paper: format!("/games/{}/papers/{day}/evening{paper_key}", live.id),
    })
}

/// The summary's sentences, each agreeing with its player's gender (issue 29, point 2).
pub fn summary_lines(lynched: &[&PlayerView], night: &[&PlayerView], removed: &[&PlayerView]) -> Vec<String> {
    let said = |p: &&PlayerView| format!("{} — {}", p.name, death_ru(p.death.map_or("", |d| d.how), p.gender));
    let mut lines = Vec::new();
    if lynched.is_empty() {
        lines.push("Никого не линчевали.".to_string());
    }
    lines.extend(lynched.iter().map(said));
    if night.is_empty() {
        lines.push("Ночью никто не погиб.".to_string());
    }
    lines.extend(night.iter().map(said));
    lines.extend(removed.iter().map(said));
    lines
}
