//! Seat bots (issue 32) through a real server with the test clock:
//!
//! - in the lobby the host seats bots (`POST /api/games/{id}/bots`) within the free seats,
//!   takes one back, and nobody else may; the bots are marked (`"bot": true`, «бот»);
//! - a whole game with one scripted person and six bots, to its end: every bot order is in
//!   the log as its seat's (through the engine's check: none is in the report's refusals
//!   as an order the engine would not take), every living bot has its vote in force by
//!   20:00, no bot post breaks a speech rule (it speaks freely, no Palms bloom word), and
//!   the exported game file replays into the server's report; played again on another
//!   server, the same game comes out bit for bit. Day 1 is Palms bloom (the host's fix).

mod support;

support::both_stores!(
    the_host_seats_bots_in_the_lobby,
    a_whole_game_with_six_bots_plays_to_its_end,
    a_whole_practice_game_plays_to_its_end_on_the_fast_clock
);

use std::collections::{BTreeMap, BTreeSet};

use ostrov_server::client::Client;
use serde_json::{json, Value};
use support::{error, ok, Server, HOUR, START};

/// The host's client and a new game of `slots` seats with the seed `seed`: (client, id, invite).
fn hosted(server: &Server, slots: usize, seed: u64) -> (Client, i64, String) {
    hosted_on(server, slots, seed, None)
}

/// [`hosted`] with a fast clock (`day_minutes`, issue 32 point 4) when given.
fn hosted_on(server: &Server, slots: usize, seed: u64, day_minutes: Option<i64>) -> (Client, i64, String) {
    let mut host = server.user("Ведущая");
    let mut body = json!({"title": "С ботами", "slots": slots, "seed": seed});
    if let Some(n) = day_minutes {
        body["schedule"] = json!({"day_minutes": n});
    }
    let g = ok(&host.post("/api/games", body).unwrap());
    (host, g["id"].as_i64().unwrap(), g["invite"].as_str().unwrap().to_string())
}

fn the_host_seats_bots_in_the_lobby() {
    let server = Server::start();
    let (mut host, id, invite) = hosted(&server, 7, 5);
    let mut anya = server.join_all(&invite, &["Аня"]).remove(0);
    let bots = format!("/api/games/{id}/bots");
    // Only the host, and only within the free seats.
    assert_eq!(anya.post(&bots, json!({"count": 1})).unwrap().status, 403);
    for n in [0, 7] {
        let (status, code) = error(&host.post(&bots, json!({"count": n})).unwrap());
        assert_eq!((status, code.as_str()), (422, "bad_count"), "{n} bots");
    }
    assert_eq!(host.post(&bots, json!({"count": "три"})).unwrap().status, 400);
    let r = ok(&host.post(&bots, json!({"count": 6})).unwrap());
    let names: Vec<String> = r["bots"].as_array().unwrap().iter().map(|n| n.as_str().unwrap().to_string()).collect();
    assert_eq!(names.len(), 6);
    assert!(names.iter().all(|n| n.starts_with("Бот ")), "{names:?}");
    assert_eq!(r["game"]["bots"], json!(names));
    assert_eq!(r["game"]["members"].as_array().unwrap().len(), 7);
    // Full: no more bots, nor people.
    assert_eq!(error(&host.post(&bots, json!({"count": 1})).unwrap()).1, "bad_count");
    // A bot is taken back; a person is not a bot.
    let gone = &names[2];
    let r = ok(&host.call("DELETE", &format!("{bots}/{}", path(gone)), None).unwrap());
    assert!(!r["game"]["members"].as_array().unwrap().iter().any(|m| m == gone.as_str()));
    assert_eq!(error(&host.call("DELETE", &format!("{bots}/{}", path("Аня")), None).unwrap()).1, "not_bot");
    assert_eq!(anya.call("DELETE", &format!("{bots}/{}", path(&names[0])), None).unwrap().status, 403);
    // The lobby page marks the bots and offers the host the forms.
    let page = host.get(&format!("/games/{id}")).unwrap();
    assert!(page.body.contains("Посадить ботов") && page.body.contains("class=\"bot-mark\""), "{}", page.body);
    let r = ok(&host.post(&bots, json!({"count": 1})).unwrap());
    let again = r["bots"][0].as_str().unwrap().to_string();
    assert!(!names[..2].contains(&again) && !names[3..].contains(&again), "a free name: {again}");
    // Started: every bot is marked in the game view, as seen by anyone.
    server.clock.set(START);
    ok(&host.post(&format!("/api/games/{id}/start"), json!({})).unwrap());
    let v = ok(&anya.get(&format!("/api/games/{id}")).unwrap());
    let marked: Vec<&str> = v["players"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["bot"] == true)
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(marked.len(), 6, "{v}");
    assert!(v["players"].as_array().unwrap().iter().any(|p| p["name"] == "Аня" && p.get("bot").is_none()));
    assert_eq!(error(&host.post(&bots, json!({"count": 1})).unwrap()).1, "started");
    // The opening newspaper names them as bots, declined by their gender.
    let page = anya.get(&format!("/games/{id}")).unwrap();
    assert!(page.body.contains("class=\"bot-mark\""));
}

/// A name as one segment of a path, every byte percent-encoded.
fn path(s: &str) -> String {
    s.bytes().map(|b| format!("%{b:02X}")).collect()
}

/// The host's event log: (kind, author, payload) of each entry.
fn log(host: &mut Client, id: i64) -> Vec<(String, Option<i64>, Value)> {
    let v = ok(&host.get(&format!("/api/games/{id}/events")).unwrap());
    v.as_array()
        .unwrap()
        .iter()
        .map(|e| (e["kind"].as_str().unwrap().to_string(), e["author"].as_i64(), e["payload"].clone()))
        .collect()
}

/// Waits until the scheduler's ticks (the bots' rounds and the steps due at the clock's
/// time) are done: the log stops growing for two looks in a row.
fn settle(host: &mut Client, id: i64) {
    let mut last = usize::MAX;
    let mut same = 0;
    for _ in 0..100 {
        std::thread::sleep(std::time::Duration::from_millis(300));
        let n = log(host, id).len();
        same = if n == last { same + 1 } else { 0 };
        last = n;
        if same >= 2 {
            return;
        }
    }
    panic!("the log kept growing");
}

/// A game of one scripted person («Аня») and six bots (seed `seed`), played to its end with
/// the clock moved through each day: the bots' names, and the host's client and game id.
fn play(server: &Server, seed: u64) -> (Vec<String>, Client, i64) {
    play_on(server, seed, None)
}

/// [`play`] on a calendar day (`None`) or on a fast clock of `day_minutes` a day: the game
/// is created at `START` (its clock then equals the real one) and each of the day's
/// moments below is that moment of the game's clock, scaled (O-CLOCK-1).
fn play_on(server: &Server, seed: u64, day_minutes: Option<i64>) -> (Vec<String>, Client, i64) {
    let clock = server.clock.clone();
    let real = |t: i64| match day_minutes {
        Some(n) => START + (t - START) * n / 1440,
        None => t,
    };
    if day_minutes.is_some() {
        clock.set(START);
    }
    let (mut host, id, invite) = hosted_on(server, 7, seed, day_minutes);
    let mut anya = server.join_all(&invite, &["Аня"]).remove(0);
    let bots: Vec<String> = ok(&host.post(&format!("/api/games/{id}/bots"), json!({"count": 6})).unwrap())["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap().to_string())
        .collect();
    clock.set(START);
    ok(&host.post(&format!("/api/games/{id}/start"), json!({})).unwrap());
    // Day 1 is Palms bloom: the bots' greetings hold no banned word.
    ok(&host.post(&format!("/api/games/{id}/host/fix"), json!({"day": 1, "event": "palms_bloom"})).unwrap());
    for day in 1..=15i64 {
        let opened = START + (day - 1) * 24 * HOUR;
        // Moscow time of the day: 22:00 the evening before is `opened`.
        let at = |h: i64, m: i64| opened + (h + 2) * HOUR + m * 60;
        // The morning: the event acts, the early posts; at 12:30 the scripted person votes.
        for t in [at(9, 0), at(12, 30)] {
            clock.set(real(t));
            settle(&mut host, id);
        }
        let v = ok(&anya.get(&format!("/api/games/{id}")).unwrap());
        assert_eq!(v["open"]["day"], day, "{v}");
        if v["you"]["alive"] == true {
            let target = v["players"].as_array().unwrap().iter().find(|p| p["alive"] == true && p["name"] != "Аня");
            let target = target.unwrap()["name"].as_str().unwrap();
            ok(&anya.post(&format!("/api/games/{id}/orders"), json!({"act": "vote", "target": target})).unwrap());
            let r = support::web_post(&mut anya, id, "thread", "Голосую, посмотрим.");
            assert_eq!(r.status, 303, "{}", r.body);
        }
        // The 13:00 stage, the afternoon, 20:00.
        for t in [at(13, 2), at(16, 0), at(20, 0)] {
            clock.set(real(t));
            settle(&mut host, id);
        }
        // By 20:00 every living bot has its vote in force.
        let v = ok(&host.get(&format!("/api/games/{id}")).unwrap());
        let living: BTreeSet<&str> = v["players"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["alive"] == true && p["bot"] == true)
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        let voters: BTreeSet<&str> = v["orders"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|o| o["act"] == "vote")
            .map(|o| o["by"].as_str().unwrap())
            .collect();
        for b in &living {
            assert!(voters.contains(b), "day {day}: {b} has a vote in force by 20:00: {}", v["orders"]);
        }
        // The person sees no living bot's role but the pack's (R-SIDE-2; this table has no
        // authority to reveal one).
        let mine = ok(&anya.get(&format!("/api/games/{id}")).unwrap());
        let pack = mine["you"]["pack"].as_array().unwrap();
        for p in mine["players"].as_array().unwrap() {
            let hidden = p["name"] != "Аня" && p["alive"] == true && !pack.contains(&p["name"]);
            assert!(!hidden || p.get("role").is_none(), "day {day}: {p}");
        }
        // 21:02: the resolution; 22:00: the next day.
        clock.set(real(at(21, 2)));
        settle(&mut host, id);
        if ok(&host.get(&format!("/api/games/{id}")).unwrap())["status"] == "over" {
            return (bots, host, id);
        }
        clock.set(real(opened + 24 * HOUR));
        settle(&mut host, id);
    }
    panic!("the game did not end in 15 days");
}

fn a_whole_game_with_six_bots_plays_to_its_end() {
    let server = Server::start();
    let (bots, mut host, id) = play(&server, 20261206);
    // The same game again, on another server: the bots play it bit for bit.
    let again = Server::start();
    let (_, mut host2, id2) = play(&again, 20261206);
    let file = host.get(&format!("/api/games/{id}/gamefile")).unwrap().body;
    assert_eq!(file, host2.get(&format!("/api/games/{id2}/gamefile")).unwrap().body, "the same game again");
    played_by_the_rules(&bots, &mut host, id, &file);
}

/// Issue 32's practice game: one person and six bots on a fast clock (a day in 24
/// minutes), through the real server and its scheduler, to the end; the same checks.
fn a_whole_practice_game_plays_to_its_end_on_the_fast_clock() {
    let server = Server::start();
    let (bots, mut host, id) = play_on(&server, 20261206, Some(24));
    let file = host.get(&format!("/api/games/{id}/gamefile")).unwrap().body;
    played_by_the_rules(&bots, &mut host, id, &file);
}

/// Every bot order is in the log as its seat's and was taken by the engine; no bot post
/// breaks a speech rule; the exported game file replays into the server's report.
fn played_by_the_rules(bots: &[String], host: &mut Client, id: i64, file: &str) {
    // Every bot order is in the log as its seat's; the bots' ids are no accounts.
    let entries = log(host, id);
    let seated: BTreeMap<String, i64> = entries
        .iter()
        .filter(|(k, ..)| k == "bots_added")
        .flat_map(|(_, _, p)| p["bots"].as_array().unwrap().clone())
        .map(|b| (b["name"].as_str().unwrap().to_string(), b["user"].as_i64().unwrap()))
        .collect();
    let mut by_bot: BTreeMap<&str, usize> = BTreeMap::new();
    for (kind, author, p) in &entries {
        if kind == "order" {
            let by = p["order"]["by"].as_str().unwrap();
            if let Some(&user) = seated.get(by) {
                assert_eq!(*author, Some(user), "a bot's order is sent by its own seat: {p}");
                assert!(user < 0);
                *by_bot.entry(bots.iter().find(|b| *b == by).unwrap()).or_default() += 1;
            }
        }
    }
    assert_eq!(by_bot.len(), 6, "every bot sent orders: {by_bot:?}");
    // No bot post breaks a speech rule: it spoke freely, with no banned word.
    let mut posts = 0;
    for (kind, author, p) in &entries {
        if kind == "posted" && author.is_some_and(|a| a < 0) {
            posts += 1;
            let post = &p["post"];
            assert_eq!(post["speaker"], "free", "a bot speaks only when it may: {post}");
            assert!(post.get("banned").is_none(), "no banned word: {post}");
            assert!(bots.contains(&post["name"].as_str().unwrap().to_string()));
        }
    }
    assert!(posts >= 6, "the bots spoke: {posts} posts");
    let palms_day: Vec<&Value> = entries
        .iter()
        .filter(|(k, a, p)| k == "posted" && a.is_some_and(|a| a < 0) && p["day"] == 1)
        .map(|e| &e.2)
        .collect();
    assert!(palms_day.len() >= 3, "the bots spoke on Palms bloom: {palms_day:?}");

    if std::env::var("OSTROV_BOTS_DEBUG").is_ok() {
        for (kind, author, p) in &entries {
            eprintln!("{kind} {author:?} {p}");
        }
    }
    // The exported game file replays into the server's report.
    let report = host.get(&format!("/api/games/{id}/report")).unwrap();
    let game = ostrov_engine::Game::parse(file).expect("the exported game file is valid");
    let replayed = ostrov_engine::resolve(&game).expect("it resolves");
    assert_eq!(replayed.to_json(), report.body, "the exported file replays into the server's report");
    // Every order in the file was taken by the engine when sent: replayed, none is refused
    // (a Bunker draw that finds the reserve empty at 13:00 is the only refusal after sending).
    let r: Value = serde_json::from_str(&report.body).unwrap();
    assert!(r["days"].as_array().unwrap().len() >= 2, "several days were played");
    for d in r["days"].as_array().unwrap() {
        for x in d["rejected"].as_array().into_iter().flatten() {
            let by_bot = bots.iter().any(|b| x["by"] == b.as_str());
            assert!(!by_bot || x["act"] == "bunker", "a bot order the engine refused: {x}");
        }
    }
}
