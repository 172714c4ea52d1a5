//! End to end: a whole 8-player game played through the HTTP API of a real server on a
//! loopback port over a real SQLite file. The host creates the game, players join by the
//! invite, the game starts, players send orders each day, the injected clock passes the
//! 13:00 stage, the 21:00 deadline and the 22:00 opening, newspapers are published, a
//! winner is declared — and the game file the server exports replays, through the engine,
//! into exactly the report the server holds. Then the server is restarted on the same file
//! and folds the same game from its log.

mod support;

support::both_stores!(an_eight_player_game_through_the_api_replays_from_its_exported_game_file);

use ostrov_server::client::Client;
use serde_json::{json, Value};
use support::{ok, Server, HOUR, START};

struct Seat {
    c: Client,
    name: String,
}

fn living(view: &Value) -> Vec<String> {
    view["players"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["alive"] == true)
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect()
}

fn an_eight_player_game_through_the_api_replays_from_its_exported_game_file() {
    let mut server = Server::start();
    let clock = server.clock.clone();
    let addr = server.addr;
    let mut host = Client::new(addr);
    ok(&host.post("/api/signup", json!({"name": "Ведущая", "password": "остров-страха"})).unwrap());
    let g = ok(&host
        .post(
            "/api/games",
            json!({"title": "Проверка", "slots": 8, "setup": "werewolf=2,seer,nurse,halfblood", "seed": 20261201}),
        )
        .unwrap());
    let (id, invite) = (g["id"].as_i64().unwrap(), g["invite"].as_str().unwrap().to_string());
    assert_eq!(g["status"], "lobby");

    let names = ["Аня", "Боря", "Вика", "Гоша", "Даша", "Егор", "Жанна", "Зоя"];
    let mut seats: Vec<Seat> =
        server.join_all(&invite, &names).into_iter().zip(names).map(|(c, n)| Seat { c, name: n.to_string() }).collect();
    // Only the host starts the game.
    assert_eq!(seats[0].c.post(&format!("/api/games/{id}/start"), json!({})).unwrap().status, 403);
    clock.set(START);
    let g = ok(&host.post(&format!("/api/games/{id}/start"), json!({})).unwrap());
    assert_eq!(g["game"]["status"], "running");
    assert_eq!(g["game"]["open"]["deadline"], "2026-12-02T21:00:00+03:00");

    // Each player learns their role and, for the pack, each other.
    let mut roles = std::collections::HashMap::new();
    let mut pack = std::collections::HashMap::new();
    for s in &mut seats {
        let v = ok(&s.c.get(&format!("/api/games/{id}")).unwrap());
        roles.insert(s.name.clone(), v["you"]["role"]["id"].as_str().unwrap().to_string());
        pack.insert(s.name.clone(), v["you"]["pack"].as_array().unwrap().len());
    }
    assert_eq!(roles.values().filter(|r| *r == "werewolf").count(), 2);
    for (n, r) in &roles {
        let expected = if r == "werewolf" || r == "halfblood" { 3 } else { 0 };
        assert_eq!(pack[n], expected, "{n} ({r}) knows the pack");
    }
    let wolf = |n: &str| roles[n] == "werewolf" || roles[n] == "halfblood";

    let mut winner = Value::Null;
    for day in 1..=12u32 {
        let morning = START + (day as i64 - 1) * 24 * HOUR;
        // 12:00 Moscow: orders.
        clock.set(morning + 14 * HOUR);
        let view = ok(&host.get(&format!("/api/games/{id}")).unwrap());
        assert_eq!(view["open"]["day"], day);
        let alive = living(&view);
        let civilian_target = alive.iter().find(|n| !wolf(n)).cloned();
        let wolf_target = alive.iter().rev().find(|n| wolf(n)).cloned();
        for s in &mut seats {
            if !alive.contains(&s.name) {
                let r =
                    s.c.post(&format!("/api/games/{id}/orders"), json!({"act": "vote", "target": &alive[0]})).unwrap();
                assert_eq!((r.status, r.json()["error"].as_str()), (422, Some("sender_dead")), "{}", r.body);
                continue;
            }
            // Civilians vote for the first werewolf on day 2 on (the seer found one), the pack
            // for a civilian; on day 1 everybody votes for the last living player.
            let target = if day == 1 {
                alive.last().cloned()
            } else if wolf(&s.name) {
                civilian_target.clone()
            } else {
                wolf_target.clone().or(civilian_target.clone())
            };
            let target = target.filter(|t| *t != s.name).unwrap_or_else(|| alive[0].clone());
            let r =
                s.c.post(
                    &format!("/api/games/{id}/orders"),
                    json!({"act": "vote", "target": target, "request_id": format!("vote-{day}")}),
                )
                .unwrap();
            let v = ok(&r);
            assert_eq!(v["day"], day);
            assert_eq!(v["at"], "12:00");
            // A resend is a no-op that answers the same.
            let again = ok(&s
                .c
                .post(
                    &format!("/api/games/{id}/orders"),
                    json!({"act": "vote", "target": target, "request_id": format!("vote-{day}")}),
                )
                .unwrap());
            assert_eq!(again["duplicate"].as_bool(), Some(true));
            assert!(v.get("seq").is_none() && again.get("seq").is_none(), "no reply counts the log (issue 28)");
            assert_eq!((&again["day"], &again["at"], &again["order"]), (&v["day"], &v["at"], &v["order"]));
            let night = match roles[&s.name].as_str() {
                "werewolf" => civilian_target.clone().map(|t| json!({"act": "kill", "target": t})),
                "seer" => alive.iter().find(|n| **n != s.name).map(|t| json!({"act": "check", "target": t})),
                "nurse" => Some(json!({"act": "heal", "target": s.name})),
                _ => None,
            };
            if let Some(o) = night {
                let r = s.c.post(&format!("/api/games/{id}/orders"), o).unwrap();
                assert!(r.status == 200 || r.status == 422, "{}", r.body);
                if r.status == 422 {
                    let e = r.json();
                    assert!(e["message"].as_str().unwrap().starts_with("Ход не принят: "), "{e}");
                }
            }
            // The player sees the orders they sent, and only theirs.
            let mine = ok(&s.c.get(&format!("/api/games/{id}/orders")).unwrap());
            assert!(mine["orders"].as_array().unwrap().iter().all(|o| o["by"] == s.name.as_str()));
        }
        // A wrong order is refused with its reason, not dropped silently.
        if let Some(s) = seats.iter_mut().find(|s| alive.contains(&s.name) && roles[&s.name] == "passenger") {
            let r = s.c.post(&format!("/api/games/{id}/orders"), json!({"act": "check", "target": &alive[0]})).unwrap();
            assert_eq!((r.status, r.json()["error"].as_str()), (422, Some("not_your_ability")));
        }

        if day == 1 {
            // The host flags a violation: the player's vote does not count today (R-HOST).
            let g = ok(&host
                .post(&format!("/api/games/{id}/host/penalty"), json!({"target": "Зоя", "reason": "слив роли"}))
                .unwrap());
            // Зоя declined, «нарушение правил Зоей» (issue 29, point 4).
            assert!(g["game"]["history"][0]["text"].as_str().unwrap().contains("правил Зоей"), "{g}");
            let v = ok(&seats[0].c.get(&format!("/api/games/{id}")).unwrap());
            assert!(v["history"][0]["text"].as_str().unwrap().contains("слив роли"), "public: {v}");
            // A player cannot use the host's powers.
            let r = seats[0].c.post(&format!("/api/games/{id}/host/penalty"), json!({"target": "Боря"})).unwrap();
            assert_eq!(r.status, 403);
        }
        // 13:01 Moscow: the 13:00 bulletin is out.
        clock.set(morning + 15 * HOUR + 60);
        let papers = ok(&seats[0].c.get(&format!("/api/games/{id}/newspapers")).unwrap());
        assert!(papers.as_array().unwrap().iter().any(|p| p["day"] == day && p["kind"] == "bulletin"), "{papers}");
        let b = seats[0].c.get(&format!("/api/games/{id}/newspapers/{day}/bulletin")).unwrap();
        assert_eq!(b.status, 200);
        assert!(b.body.contains(&format!("День {day}, 13:00")), "{}", b.body);

        if day == 2 {
            // The host moves the deadline by half an hour; it shows in the public history.
            let g = ok(&host.post(&format!("/api/games/{id}/host/extend"), json!({"minutes": 30})).unwrap());
            assert_eq!(g["game"]["open"]["deadline"], "2026-12-03T21:30:00+03:00");
            clock.set(morning + 23 * HOUR + 10 * 60);
            let v = ok(&host.get(&format!("/api/games/{id}")).unwrap());
            assert_eq!(v["open"]["day"], 2, "the extended day is still open at 21:10");
            clock.set(morning + 23 * HOUR + 31 * 60);
        } else {
            // 21:00 exactly is still in time (O-TIME-1); 21:01 is the resolution.
            clock.set(morning + 23 * HOUR + 30);
            if let Some(s) = seats.iter_mut().find(|s| alive.contains(&s.name)) {
                let r = s.c.post(&format!("/api/games/{id}/orders"), json!({"act": "vote", "target": &alive[0]}));
                let r = r.unwrap();
                assert!(r.status == 200 || r.status == 422, "{}", r.body);
                if r.status == 200 {
                    assert_eq!(r.json()["at"], "21:00");
                }
            }
            clock.set(morning + 23 * HOUR + 61);
        }
        // The scheduler resolves the day on its own: wait for its tick, do not poke the game.
        let mut resolved = false;
        for _ in 0..100 {
            std::thread::sleep(std::time::Duration::from_millis(50));
            let papers = ok(&seats[1].c.get(&format!("/api/games/{id}/newspapers")).unwrap());
            if papers.as_array().unwrap().iter().any(|p| p["day"] == day && p["kind"] == "evening") {
                resolved = true;
                break;
            }
        }
        assert!(resolved, "day {day} was resolved by the scheduler");
        let late = seats
            .iter_mut()
            .find(|s| alive.contains(&s.name))
            .unwrap()
            .c
            .post(&format!("/api/games/{id}/orders"), json!({"act": "vote", "target": &alive[0], "day": day}))
            .unwrap();
        assert_eq!(late.status, 422, "{}", late.body);
        assert!(["late", "game_over"].contains(&late.json()["error"].as_str().unwrap()), "{}", late.body);
        let e = ok(&seats[2].c.get(&format!("/api/games/{id}/newspapers/{day}/evening?format=html")).unwrap());
        let _ = e;
        let v = ok(&host.get(&format!("/api/games/{id}")).unwrap());
        if v["status"] == "over" {
            winner = v["winner"]["id"].clone();
            break;
        }
        assert_eq!(v["next_day_opens"], format!("2026-12-{:02}T22:00:00+03:00", day + 1));
        // 22:00: the next day opens.
        clock.set(morning + 24 * HOUR);
    }
    assert!(winner.is_string(), "the game ended with a winner");
    let days = ok(&host.get(&format!("/api/games/{id}")).unwrap())["day"].as_u64().unwrap();
    eprintln!("the game ended on day {days}: {winner}");
    assert!(days >= 3, "several days were played");

    // Once over, every player may read the report and the game file.
    let report = seats[3].c.get(&format!("/api/games/{id}/report")).unwrap();
    assert_eq!(report.status, 200);
    let file = seats[3].c.get(&format!("/api/games/{id}/gamefile")).unwrap();
    assert_eq!(file.status, 200);
    let game = ostrov_engine::Game::parse(&file.body).expect("the exported game file is valid");
    let replayed = ostrov_engine::resolve(&game).expect("it resolves");
    assert_eq!(replayed.to_json(), report.body, "the exported file replays into the server's report");
    assert_eq!(replayed.winner.as_deref(), winner.as_str());
    let final_paper = ok(&seats[0].c.get(&format!("/api/games/{id}/newspapers")).unwrap());
    assert!(final_paper.as_array().unwrap().iter().any(|p| p["kind"] == "final"));

    // A restart folds the same game from the log.
    server.restart();
    host.addr = server.addr;
    let again = host.get(&format!("/api/games/{id}/report")).unwrap();
    assert_eq!(again.body, report.body, "the restarted server folds the same game");
}
