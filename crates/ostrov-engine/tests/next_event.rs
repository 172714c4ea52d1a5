//! Issue 29, point 1: the next day's event as the game file fixes it — by id, in Russian,
//! or as no event — is the one day 1's report (`next_event`) and its step 21 log line
//! name, as the evening newspaper does (GAME_FILE.md `next_event`).

use ostrov_engine::{play, Event, Game, Report};

fn game(day2: &str) -> String {
    format!(
        r#"
seed = 11
[[players]]
name = "Аня"
role = "werewolf"
[[players]]
name = "Боря"
role = "seer"
[[players]]
name = "Вика"
role = "passenger"
[[players]]
name = "Гоша"
role = "passenger"
[[players]]
name = "Дима"
role = "passenger"
[[players]]
name = "Егор"
role = "passenger"

[[days]]
event = "none"

[[days]]
event = "{day2}"
"#
    )
}

fn day1(day2: &str) -> (Option<Event>, String, Option<Event>) {
    let g = Game::parse(&game(day2)).unwrap();
    let m = play(&g, true).unwrap();
    let r = Report::of(&m);
    let log = r.days[0].log.iter().filter(|l| l.step == 21).map(|l| l.text.clone()).collect::<Vec<_>>().join("\n");
    (r.days[0].next_event, log, m.days[1].event)
}

#[test]
fn a_fixed_next_event_is_named_by_day_1_whatever_its_spelling() {
    for spelling in ["full_moon", "Полнолуние", "полнолуние"] {
        let (next, log, played) = day1(spelling);
        assert_eq!(next, Some(Event::FullMoon), "{spelling}");
        assert_eq!(played, Some(Event::FullMoon), "{spelling}");
        assert_eq!(log, "Событие следующего дня (задано ведущим): Полнолуние", "{spelling}");
    }
    let (next, log, played) = day1("Ярость");
    assert_eq!((next, played), (Some(Event::Rage), Some(Event::Rage)));
    assert!(log.ends_with("Ярость"), "{log}");
    let (next, log, played) = day1("none");
    assert_eq!((next, played), (None, None));
    assert_eq!(log, "Следующий день без события (так задал ведущий)");
}
