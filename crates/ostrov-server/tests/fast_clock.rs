//! Practice games on a fast clock (issue 32, point 4): `"schedule": {"day_minutes": N}`
//! runs the 22:00 → 13:00 → 21:00 cycle in N real minutes. With N = 24 a game hour is a
//! real minute: the scheduler, the deadlines, the newspapers, the countdown and the host's
//! «open the next day now» run as in a calendar game, and the exported game file (each
//! order at its scaled Moscow time) replays to the server's report.

mod support;

use ostrov_server::client::Client;
use serde_json::{json, Value};
use support::browser::Browser;
use support::{error, ok, Server, HOUR, START};

/// A game hour, in real seconds, on a 24-minute day.
const GAME_HOUR: i64 = 60;

fn living(view: &Value) -> Vec<String> {
    let players = view["players"].as_array().unwrap();
    players.iter().filter(|p| p["alive"] == true).map(|p| p["name"].as_str().unwrap().to_string()).collect()
}

/// Waits for the scheduler to publish day `day`'s newspaper `kind`.
fn paper(c: &mut Client, id: i64, day: u64, kind: &str) {
    for _ in 0..100 {
        let papers = ok(&c.get(&format!("/api/games/{id}/newspapers")).unwrap());
        if papers.as_array().unwrap().iter().any(|p| p["day"] == day && p["kind"] == kind) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("the scheduler published no {kind} of day {day}");
}

fn rfc(t: i64) -> String {
    jiff::Timestamp::from_second(t)
        .unwrap()
        .to_zoned(jiff::tz::TimeZone::get("Europe/Moscow").unwrap())
        .strftime("%Y-%m-%dT%H:%M:%S%:z")
        .to_string()
}

/// Three days and more on a 24-minute day, to the end: each 13:00 bulletin and evening
/// newspaper on its scaled time, orders written at their scaled Moscow time (R-ORDER-1:
/// the file's order is the order of arrival; 21:00 exactly is in time, O-TIME-1; after
/// the grace it is late), and the exported file replays to the same report.
#[test]
fn a_fast_game_runs_its_days_on_the_scaled_deadlines_and_replays() {
    let mut server = Server::start();
    let clock = server.clock.clone();
    // Created at 21:00 Moscow (the test clock's start): both clocks agree there.
    let origin = START - HOUR;
    let mut host = server.user("Ведущая");
    let g = ok(&host
        .post(
            "/api/games",
            json!({"title": "Тренировка", "slots": 8, "setup": "werewolf=2,seer,nurse,halfblood",
                   "seed": 20261201, "schedule": {"day_minutes": 24}}),
        )
        .unwrap());
    let (id, invite) = (g["id"].as_i64().unwrap(), g["invite"].as_str().unwrap().to_string());
    assert_eq!(g["schedule"]["day_minutes"], 24, "{g}");
    let names = ["Аня", "Боря", "Вика", "Гоша", "Даша", "Егор", "Жанна", "Зоя"];
    let mut seats = server.join_all(&invite, &names);
    // Started at 21:30 of the game's clock: day 1 runs to 13:00 and 21:00 of the next date.
    clock.set(origin + 30);
    let g = ok(&host.post(&format!("/api/games/{id}/start"), json!({})).unwrap());
    assert_eq!(g["game"]["open"]["midday"], rfc(origin + 16 * GAME_HOUR));
    assert_eq!(g["game"]["open"]["deadline"], rfc(origin + 24 * GAME_HOUR));
    let roles: Vec<String> = seats
        .iter_mut()
        .map(|c| ok(&c.get(&format!("/api/games/{id}")).unwrap())["you"]["role"]["id"].as_str().unwrap().to_string())
        .collect();
    let wolf = |n: &str| {
        let i = names.iter().position(|m| *m == n).unwrap();
        roles[i] == "werewolf" || roles[i] == "halfblood"
    };

    let mut days = 0;
    for day in 1..=12u64 {
        days = day;
        // 21:00 of the game's clock on the date before day `day`'s 13:00 and deadline.
        let eve = origin + 24 * GAME_HOUR * (day as i64 - 1);
        let (midday, deadline) = (eve + 16 * GAME_HOUR, eve + 24 * GAME_HOUR);
        // 12:00 of the game's clock: every living player votes, the pack kills.
        clock.set(eve + 15 * GAME_HOUR);
        let view = ok(&host.get(&format!("/api/games/{id}")).unwrap());
        assert_eq!(view["open"]["day"], day);
        assert_eq!(view["open"]["deadline"], rfc(deadline));
        let alive = living(&view);
        let civilian = alive.iter().find(|n| !wolf(n)).cloned().unwrap();
        let target_of = |n: &str| {
            let t =
                if day == 1 || wolf(n) { civilian.clone() } else { alive.iter().find(|m| wolf(m)).cloned().unwrap() };
            if t == n {
                alive.iter().find(|m| *m != n).cloned().unwrap()
            } else {
                t
            }
        };
        for (i, c) in seats.iter_mut().enumerate() {
            if !alive.iter().any(|n| n == names[i]) {
                continue;
            }
            let r = c.post(&format!("/api/games/{id}/orders"), json!({"act": "vote", "target": target_of(names[i])}));
            assert_eq!(ok(&r.unwrap())["at"], "12:00", "the game's clock, not Moscow time");
            if roles[i] == "werewolf" {
                let r = c.post(&format!("/api/games/{id}/orders"), json!({"act": "kill", "target": civilian}));
                let r = r.unwrap();
                assert!(r.status == 200 || r.status == 422, "{}", r.body);
            }
        }
        // The countdown on the page is the game's time and the real one, never 21:00 Moscow.
        let page = seats[0].get(&format!("/games/{id}")).unwrap().body;
        if alive.iter().any(|n| n == names[0]) {
            assert!(page.contains("21:00 по часам игры"), "{page}");
        }
        // The 13:00 stage runs once the game's minute of 13:00 is over (one real second).
        clock.set(midday);
        std::thread::sleep(std::time::Duration::from_millis(700));
        assert!(!ok(&host.get(&format!("/api/games/{id}/newspapers")).unwrap())
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["day"] == day && p["kind"] == "bulletin"));
        clock.set(midday + 1);
        paper(&mut host, id, day, "bulletin");
        // 20:30 of the game's clock; then 21:00 exactly is still in time (O-TIME-1).
        let voter = (0..names.len()).find(|&i| alive.iter().any(|n| n == names[i])).unwrap();
        clock.set(eve + 23 * GAME_HOUR + GAME_HOUR / 2);
        let t = target_of(names[voter]);
        let r =
            ok(&seats[voter].post(&format!("/api/games/{id}/orders"), json!({"act": "vote", "target": t})).unwrap());
        assert_eq!(r["at"], "20:30");
        clock.set(deadline);
        let r =
            ok(&seats[voter].post(&format!("/api/games/{id}/orders"), json!({"act": "vote", "target": t})).unwrap());
        assert_eq!(r["at"], "21:00");
        // After the grace the day is resolved by the scheduler and an order is late.
        clock.set(deadline + 1);
        paper(&mut host, id, day, "evening");
        let r = seats[voter].post(&format!("/api/games/{id}/orders"), json!({"act": "vote", "target": t})).unwrap();
        assert_eq!(r.status, 422, "{}", r.body);
        let v = ok(&host.get(&format!("/api/games/{id}")).unwrap());
        if v["status"] == "over" {
            break;
        }
        assert_eq!(v["next_day_opens"], rfc(deadline + GAME_HOUR));
        clock.set(deadline + GAME_HOUR);
    }
    assert!(days >= 3, "three days and more were played");
    let report = host.get(&format!("/api/games/{id}/report")).unwrap();
    assert_eq!(report.status, 200);
    let file = host.get(&format!("/api/games/{id}/gamefile")).unwrap();
    let game = ostrov_engine::Game::parse(&file.body).expect("the exported game file is valid");
    let replayed = ostrov_engine::resolve(&game).expect("it resolves");
    assert_eq!(replayed.to_json(), report.body, "the exported file replays into the server's report");
    // The schedule is in the log: a restart folds the same game on the same clock.
    server.restart();
    host.addr = server.addr;
    assert_eq!(host.get(&format!("/api/games/{id}/report")).unwrap().body, report.body);
    assert_eq!(ok(&host.get(&format!("/api/games/{id}")).unwrap())["schedule"]["day_minutes"], 24);
}

/// The host's «open the next day now» on a fast clock: the day gets the scaled 13:00 and
/// deadline from the moment it opens; the host's extension is in the game's minutes.
#[test]
fn the_host_opens_a_fast_day_now_and_extends_it_in_game_minutes() {
    let server = Server::start();
    let clock = server.clock.clone();
    let origin = START - HOUR;
    let mut host = server.user("Ведущий");
    let g = ok(&host
        .post(
            "/api/games",
            json!({"title": "Быстрая", "slots": 8, "setup": "werewolf=2,seer,nurse,halfblood", "seed": 7,
                   "schedule": {"day_minutes": 24}}),
        )
        .unwrap());
    let (id, invite) = (g["id"].as_i64().unwrap(), g["invite"].as_str().unwrap().to_string());
    server.join_all(&invite, &["Аня", "Боря", "Вика", "Гоша", "Даша", "Егор", "Жанна", "Зоя"]);
    clock.set(origin + 30);
    ok(&host.post(&format!("/api/games/{id}/start"), json!({})).unwrap());
    let g = ok(&host.post(&format!("/api/games/{id}/host/resolve"), json!({})).unwrap());
    assert_eq!(g["game"]["status"], "running", "{g}");
    // 21:45 of the game's clock on the first date, before the scheduler's 22:00: opened
    // now, the day runs to 13:00 and 21:00 of the next date.
    clock.set(origin + 45);
    let g = ok(&host.post(&format!("/api/games/{id}/host/open"), json!({})).unwrap());
    assert_eq!(g["game"]["open"]["day"], 2, "{g}");
    assert_eq!(g["game"]["open"]["deadline"], rfc(origin + 24 * GAME_HOUR));
    // Thirty minutes of the game's clock are thirty real seconds.
    let g = ok(&host.post(&format!("/api/games/{id}/host/extend"), json!({"minutes": 30})).unwrap());
    assert_eq!(g["game"]["open"]["deadline"], rfc(origin + 24 * GAME_HOUR + 30));
    let history = g["game"]["history"].as_array().unwrap();
    assert!(history.iter().any(|n| n["text"].as_str().unwrap().contains("до 21:30 по часам игры (")), "{g}");
}

/// The create body's and the create form's day length: from 3 to 720 minutes, each
/// error in Russian naming the field; a calendar game has no `day_minutes` at all.
#[test]
fn the_day_length_is_checked_with_a_russian_message() {
    let server = Server::start();
    let mut host = server.user("Ведущая проверки");
    for bad in [json!(2), json!(721), json!(0)] {
        let r = host.post("/api/games", json!({"title": "Т", "slots": 5, "schedule": {"day_minutes": bad}})).unwrap();
        assert_eq!(error(&r), (400, "bad_request".to_string()), "{}", r.body);
        let message = r.json()["message"].as_str().unwrap().to_string();
        assert!(message.contains("schedule.day_minutes") && message.contains("от 3 до 720"), "{message}");
    }
    let r = host.post("/api/games", json!({"title": "Т", "slots": 5, "schedule": {"day_minutes": "пять"}})).unwrap();
    assert!(r.status == 400 || r.status == 422, "{}", r.body);
    let g = ok(&host.post("/api/games", json!({"title": "Т", "slots": 5})).unwrap());
    assert!(g["schedule"].get("day_minutes").is_none(), "a calendar game is unchanged: {g}");

    let mut b = Browser::logged_in(server.addr, "Ведущая проверки");
    let page = b.get("/new").body;
    assert!(page.contains("name=\"day_minutes\""), "{page}");
    let fields = [("title", "Из формы"), ("slots", "5"), ("setup", "recommended"), ("tz", "Europe/Moscow")];
    let fields = [&fields[..], &[("open", "22:00"), ("midday", "13:00"), ("deadline", "21:00")]].concat();
    let mut bad = fields.clone();
    bad.push(("day_minutes", "1"));
    let r = b.submit("/new", "/new", &bad);
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body.contains("Длина дня на быстрых часах — целое число минут от 3 до 720"), "{}", r.body);
    let mut good = fields.clone();
    good.push(("day_minutes", "5"));
    let r = b.submit("/new", "/new", &good);
    assert_eq!(r.status, 303, "{}", r.body);
    let id: i64 = support::browser::location(&r).trim_start_matches("/games/").parse().unwrap();
    assert_eq!(ok(&host.get(&format!("/api/games/{id}")).unwrap())["schedule"]["day_minutes"], 5);
}
