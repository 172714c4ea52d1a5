//! Seat bots (issue 32) through a real server with the test clock:
//!
//! - in the lobby the host seats bots (`POST /api/games/{id}/bots`) within the free seats,
//!   takes one back, and nobody else may; the bots are marked (`"bot": true`, «бот»);
//! - a whole game with one scripted person and six bots, to its end: every bot order is in
//!   the log as its seat's (through the engine's check: none is in the report's refusals
//!   as an order the engine would not take), every living bot has its vote in force by
//!   20:00, no bot post breaks a speech rule (it speaks freely, no Palms bloom word), and
//!   the exported game file replays into the server's report.

mod support;

support::both_stores!(the_host_seats_bots_in_the_lobby, a_whole_game_with_six_bots_plays_to_its_end);

use std::collections::{BTreeMap, BTreeSet};

use ostrov_server::client::Client;
use serde_json::{json, Value};
use support::{error, ok, Server, HOUR, START};

/// The host's client and a new game of `slots` seats with the seed `seed`: (client, id, invite).
fn hosted(server: &Server, slots: usize, seed: u64) -> (Client, i64, String) {
    let host = server.user("Ведущая");
    let mut host = host;
    let g = ok(&host.post("/api/games", json!({"title": "С ботами", "slots": slots, "seed": seed})).unwrap());
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

/// Waits for the scheduler's ticks (the bots' rounds and the steps due at the clock's time).
fn settle() {
    std::thread::sleep(std::time::Duration::from_millis(1600));
}

fn a_whole_game_with_six_bots_plays_to_its_end() {
    let server = Server::start();
    let clock = server.clock.clone();
    let (mut host, id, invite) = hosted(&server, 7, 20261206);
    let mut anya = server.join_all(&invite, &["Аня"]).remove(0);
    let bots: Vec<String> = ok(&host.post(&format!("/api/games/{id}/bots"), json!({"count": 6})).unwrap())["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap().to_string())
        .collect();
    clock.set(START);
    ok(&host.post(&format!("/api/games/{id}/start"), json!({})).unwrap());
    let mut over = false;
    let mut voted_days = 0;
    for day in 1..=15i64 {
        let opened = START + (day - 1) * 24 * HOUR;
        // 12:30: the event acts, the early posts; the scripted person votes.
        clock.set(opened + 14 * HOUR + 30 * 60);
        settle();
        let v = ok(&anya.get(&format!("/api/games/{id}")).unwrap());
        assert_eq!(v["open"]["day"], day, "{v}");
        if v["you"]["alive"] == true {
            let target = v["players"].as_array().unwrap().iter().find(|p| p["alive"] == true && p["name"] != "Аня");
            let target = target.unwrap()["name"].as_str().unwrap();
            ok(&anya.post(&format!("/api/games/{id}/orders"), json!({"act": "vote", "target": target})).unwrap());
            let r = support::web_post(&mut anya, id, "thread", "Голосую, посмотрим.");
            assert_eq!(r.status, 303, "{}", r.body);
        }
        // 13:02: the 13:00 stage.
        clock.set(opened + 15 * HOUR + 2 * 60);
        settle();
        // 20:00: every living bot has its vote in force.
        clock.set(opened + 22 * HOUR);
        settle();
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
        voted_days += 1;
        // 21:02: the resolution.
        clock.set(opened + 23 * HOUR + 2 * 60);
        settle();
        let v = ok(&host.get(&format!("/api/games/{id}")).unwrap());
        if v["status"] == "over" {
            over = true;
            break;
        }
        // 22:00: the next day.
        clock.set(opened + 24 * HOUR);
        settle();
    }
    assert!(over, "the game ended");
    assert!(voted_days >= 2, "several days were played");

    // Every bot order is in the log as its seat's; the bots' ids are no accounts.
    let entries = log(&mut host, id);
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

    // The exported game file replays into the server's report.
    let report = host.get(&format!("/api/games/{id}/report")).unwrap();
    let file = host.get(&format!("/api/games/{id}/gamefile")).unwrap();
    let game = ostrov_engine::Game::parse(&file.body).expect("the exported game file is valid");
    let replayed = ostrov_engine::resolve(&game).expect("it resolves");
    assert_eq!(replayed.to_json(), report.body, "the exported file replays into the server's report");
    // Every order in the file was taken by the engine when sent: none refused as not allowed
    // (a refusal at the resolution, of a blocked vote, is the rules' own).
    let r: Value = serde_json::from_str(&report.body).unwrap();
    for d in r["days"].as_array().unwrap() {
        for x in d["rejected"].as_array().into_iter().flatten() {
            let reason = x["reason"].as_str().unwrap_or_default();
            assert!(
                ["assaulted", "shocked", "penalty", "dead", "love_note", "blocked"].iter().any(|k| reason.contains(k))
                    || !bots.iter().any(|b| x["by"] == b.as_str()),
                "a bot order the engine refused: {x}"
            );
        }
    }
}
