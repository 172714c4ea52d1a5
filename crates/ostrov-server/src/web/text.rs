//! Russian words of the pages: statuses, counts with their plural, times with the zone.

use jiff::tz::TimeZone;
use jiff::Timestamp;
use ostrov_engine::plural;

use crate::view::Phase;

/// "5 игроков", "1 игрок", "3 игрока".
pub fn players_ru(n: usize) -> String {
    format!("{n} {}", plural::form(n as u64, "игрок", "игрока", "игроков"))
}

/// Seats taken of a game's seats, agreeing with the first number (issue 29, point 2):
/// «1 игрок из 7», «3 игрока из 3», «0 игроков из 7».
pub fn seats_ru(joined: usize, slots: usize) -> String {
    format!("{} из {slots}", players_ru(joined))
}

/// Where a game stands, in a few words.
pub fn game_status(phase: Phase) -> String {
    match phase {
        Phase::Lobby => "набор игроков".to_string(),
        Phase::Over { winner: Some(w) } => format!("игра окончена: {}", w.ru()),
        Phase::Over { winner: None } => "игра окончена".to_string(),
        Phase::Paused { day } => format!("на паузе, день {day}"),
        Phase::Day { day } => format!("идёт день {day}"),
        Phase::Night { after } => format!("ночь после дня {after}"),
    }
}

/// A moment for the page: "2 декабря, 21:00 по московскому времени", in the game's zone.
pub struct When {
    /// RFC 3339, for `<time datetime>` and the script that adds the reader's own zone.
    pub iso: String,
    pub text: String,
}

/// `t` in the zone `tz` (an IANA name the game's schedule has checked).
pub fn when(t: i64, tz: &str) -> When {
    let zone = TimeZone::get(tz).unwrap_or(TimeZone::UTC);
    let Ok(ts) = Timestamp::from_second(t) else { return When { iso: String::new(), text: String::new() } };
    let z = ts.to_zoned(zone.clone());
    let text = crate::schedule::moment_ru(ts, &zone);
    When { iso: z.strftime("%Y-%m-%dT%H:%M:%S%:z").to_string(), text }
}

/// `t` as a deadline read at `now`, in the zone `tz`: «21:00 по московскому времени» on
/// the same date, else with its date.
pub fn until(t: i64, now: i64, tz: &str) -> When {
    let zone = TimeZone::get(tz).unwrap_or(TimeZone::UTC);
    let (Ok(ts), Ok(n)) = (Timestamp::from_second(t), Timestamp::from_second(now)) else {
        return When { iso: String::new(), text: String::new() };
    };
    let iso = ts.to_zoned(zone.clone()).strftime("%Y-%m-%dT%H:%M:%S%:z").to_string();
    When { iso, text: crate::schedule::until_ru(ts, n, &zone) }
}

/// A time of game `times` (a deadline, the 13:00 stage) read at `now`: on a calendar day
/// `calendar` of it (the page's [`when`] or [`until`]), on a fast clock the game's time and
/// the real time, «21:00 по часам игры (19:42:10 по московскому времени)» (issue 32, point 4).
pub fn game_time(times: &crate::schedule::Times, t: i64, now: i64, calendar: impl FnOnce() -> When) -> When {
    match times.day_minutes() {
        Some(_) => When { iso: times.show(t), text: times.until(t, now) },
        None => calendar(),
    }
}

/// What is left until a deadline, briefly (the countdown of the game page; app.js words
/// it the same way): «3 ч 12 мин», «45 мин», «2 дн. 3 ч», «меньше минуты»; `None` when
/// nothing is left.
pub fn left_ru(secs: i64) -> Option<String> {
    if secs <= 0 {
        return None;
    }
    if secs < 60 {
        return Some("меньше минуты".to_string());
    }
    let mins = secs / 60;
    let (d, h, m) = (mins / 1440, mins / 60 % 24, mins % 60);
    let mut parts = Vec::new();
    if d > 0 {
        parts.push(format!("{d} дн."));
    }
    if h > 0 {
        parts.push(format!("{h} ч"));
    }
    if m > 0 && d == 0 {
        parts.push(format!("{m} мин"));
    }
    Some(parts.join(" "))
}

/// How a player left the game, agreeing with their gender (issue 29, point 2): «Даша
/// линчёвана», «Аня погибла ночью»; for a player whose gender is unknown, a noun that
/// needs none («линчевание», «гибель ночью»), never «(а)».
pub fn death_ru(how: &str, gender: Option<ostrov_engine::ru::Gender>) -> &'static str {
    use ostrov_engine::ru::Gender::{Female, Male};
    match (how, gender) {
        ("lynch", Some(Male)) => "линчёван",
        ("lynch", Some(Female)) => "линчёвана",
        ("lynch", None) => "линчевание",
        ("night", Some(Male)) => "погиб ночью",
        ("night", Some(Female)) => "погибла ночью",
        ("night", None) => "гибель ночью",
        (_, Some(Male)) => "исключён ведущим",
        (_, Some(Female)) => "исключена ведущим",
        (_, None) => "исключение ведущим",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_times_read_as_russian() {
        assert_eq!(players_ru(1), "1 игрок");
        assert_eq!(players_ru(3), "3 игрока");
        assert_eq!(players_ru(11), "11 игроков");
        assert_eq!(players_ru(21), "21 игрок");
        assert_eq!(left_ru(3 * 3600 + 12 * 60 + 59).as_deref(), Some("3 ч 12 мин"));
        assert_eq!(left_ru(45 * 60).as_deref(), Some("45 мин"));
        assert_eq!(left_ru(2 * 86400 + 3 * 3600 + 60).as_deref(), Some("2 дн. 3 ч"));
        assert_eq!(left_ru(59).as_deref(), Some("меньше минуты"));
        assert_eq!(left_ru(0), None);
        // 2026-12-02 18:00 UTC is 21:00 in Moscow; at 17:48 that day it is «21:00».
        assert_eq!(
            until(1_796_234_400, 1_796_234_400 - 3 * 3600 - 12 * 60, "Europe/Moscow").text,
            "21:00 по московскому времени"
        );
        assert_eq!(
            until(1_796_234_400, 1_796_234_400 - 86400, "Europe/Moscow").text,
            "2 декабря, 21:00 по московскому времени"
        );
        // 2026-12-02 18:00 UTC is 21:00 in Moscow.
        let w = when(1_796_234_400, "Europe/Moscow");
        assert_eq!(w.text, "2 декабря, 21:00 по московскому времени");
        assert_eq!(w.iso, "2026-12-02T21:00:00+03:00");
        assert_eq!(when(1_796_234_400, "Asia/Yekaterinburg").text, "2 декабря, 23:00 (Asia/Yekaterinburg)");
    }

    /// Issue 29, point 2: «3 из 3 игрока» → the count agrees with its own number.
    #[test]
    fn seats_agree_with_their_number() {
        assert_eq!(seats_ru(3, 3), "3 игрока из 3");
        assert_eq!(seats_ru(0, 7), "0 игроков из 7");
        assert_eq!(seats_ru(1, 7), "1 игрок из 7");
        assert_eq!(seats_ru(21, 25), "21 игрок из 25");
    }

    /// Issue 29, point 2: the players' status agrees with each player's gender.
    #[test]
    fn how_a_player_left_agrees_with_their_gender() {
        assert_eq!(super::death_ru("lynch", Some(ostrov_engine::ru::Gender::Female)), "линчёвана");
        assert_eq!(super::death_ru("night", Some(ostrov_engine::ru::Gender::Female)), "погибла ночью");
        assert_eq!(super::death_ru("removed", Some(ostrov_engine::ru::Gender::Female)), "исключена ведущим");
        assert_eq!(super::death_ru("lynch", Some(ostrov_engine::ru::Gender::Male)), "линчёван");
        assert_eq!(super::death_ru("night", Some(ostrov_engine::ru::Gender::Male)), "погиб ночью");
        // Unknown gender: a noun, with no gendered ending and no «(а)».
        assert_eq!(super::death_ru("lynch", None), "линчевание");
        assert_eq!(super::death_ru("night", None), "гибель ночью");
        assert_eq!(super::death_ru("removed", None), "исключение ведущим");
    }
}
