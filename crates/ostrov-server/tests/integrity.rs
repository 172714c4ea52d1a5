//! Game integrity under a careless host and a retrying client (issue 16, points 1–4), over
//! a real server on a loopback port and a real SQLite file:
//! 1. votes on both sides of an extension past midnight and of a pause keep their order
//!    of arrival in the game file: the exported file replays into exactly the live game;
//! 2. a resolved day is final: a late fix is 409 `day_resolved`, and the day-1 newspapers
//!    (every format) are byte-identical before and after every later host action;
//! 3. a fix is checked against the state it will meet (a dead or unknown player, a draw
//!    for an event the day does not have); a stored fix that fails at the resolution (a
//!    tie-break naming someone who is not in the tie) marks the game broken for the host,
//!    everything else still reads, and the host's new fix lets the day resolve;
//! 4. a request id sent again with another body, or on another day, is 409
//!    `request_id_reused`; with the same body it is the same answer.

mod support;

use ostrov_server::client::Client;
use serde_json::{json, Value};
use support::{error, no_events, ok, Server, HOUR, START};

const NAMES: [&str; 8] = ["Аня", "Боря", "Вика", "Гоша", "Даша", "Егор", "Жанна", "Зоя"];
const MIN: i64 = 60;

struct World {
    server: Server,
    host: Client,
    players: Vec<Client>,
    base: String,
}

impl World {
    fn seat(&mut self, name: &str) -> &mut Client {
        let i = NAMES.iter().position(|n| *n == name).expect("a player");
        &mut self.players[i]
    }

    fn vote(&mut self, by: &str, target: &str) -> Value {
        let path = format!("{}/orders", self.base);
        ok(&self.seat(by).post(&path, json!({"act": "vote", "target": target})).unwrap())
    }

    fn host(&mut self, action: &str, body: Value) -> ostrov_server::client::Reply {
        let path = format!("{}/host/{action}", self.base);
        self.host.post(&path, body).unwrap()
    }

    fn view(&mut self) -> Value {
        let path = self.base.clone();
        ok(&self.host.get(&path).unwrap())
    }

    /// Every day-1 newspaper in every format, as an outsider reads it.
    fn day1_papers(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        for kind in ["bulletin", "evening"] {
            for f in ["markdown", "bbcode", "html", "plain"] {
                let path = format!("{}/newspapers/1/{kind}?format={f}", self.base);
                let r = self.players[0].get(&path).unwrap();
                assert_eq!(r.status, 200, "{path}: {}", r.body);
                out.push(r.body);
            }
        }
        out
    }
}

fn alive(view: &Value, name: &str) -> bool {
    view["players"].as_array().unwrap().iter().any(|p| p["name"] == name && p["alive"] == true)
}

#[test]
fn extensions_pauses_and_fixes_keep_the_game_replayable_and_its_past_final() {
    let server = Server::start();
    let mut host = server.user("Ведущая");
    let g = ok(&host
        .post(
            "/api/games",
            json!({"title": "Честная игра", "slots": 8, "setup": "werewolf=2,seer,nurse", "seed": 161,
                   "deck": vec!["none"; 8], "rules": {"tie": "random", "events": no_events()}}),
        )
        .unwrap());
    let (id, invite) = (g["id"].as_i64().unwrap(), g["invite"].as_str().unwrap().to_string());
    let players = server.join_all(&invite, &NAMES);
    server.clock.set(START);
    ok(&host.post(&format!("/api/games/{id}/start"), json!({})).unwrap());
    let mut w = World { server, host, players, base: format!("/api/games/{id}") };
    let clock = w.server.clock.clone();
    ok(&w.host("fix", json!({"event": "none"})));

    // Who is who (the host sees every role): the werewolves and six others.
    let v = w.view();
    let role = |n: &str| -> String {
        v["players"].as_array().unwrap().iter().find(|p| p["name"] == n).unwrap()["role"]["id"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let wolves: Vec<&str> = NAMES.iter().copied().filter(|n| role(n) == "werewolf").collect();
    let c: Vec<&str> = NAMES.iter().copied().filter(|n| role(n) != "werewolf").collect();
    assert_eq!((wolves.len(), c.len()), (2, 6));

    // Day 1, 2 Dec 18:00: three votes for c[4]; one of them carries a request id.
    clock.set(START + 20 * HOUR);
    w.vote(c[0], c[4]);
    w.vote(c[1], c[4]);
    let path = format!("{}/orders", w.base);
    let first =
        ok(&w.seat(c[2]).post(&path, json!({"act": "vote", "target": c[4], "request_id": "мой-голос"})).unwrap());
    // The host extends the day past midnight, to 3 Dec 21:00.
    ok(&w.host("extend", json!({"deadline": "2026-12-03T21:00:00+03:00"})));
    // 3 Dec 10:00: two voters change their minds. Their votes come after the 18:00 ones.
    clock.set(START + 36 * HOUR);
    let a = w.vote(c[0], c[5]);
    assert!(a["at"].as_str().unwrap() >= "18:00", "a later vote is not earlier in the game day: {a}");
    w.vote(c[1], c[5]);
    // A pause of an hour moves the deadline to 22:00.
    clock.set(START + 37 * HOUR);
    ok(&w.host("pause", json!({})));
    clock.set(START + 38 * HOUR);
    let g = ok(&w.host("resume", json!({})));
    assert_eq!(g["game"]["open"]["deadline"], "2026-12-03T22:00:00+03:00");
    // 3 Dec 21:30 (after the usual 21:00, before the extended deadline): a vote that counts.
    clock.set(START + 47 * HOUR + 30 * MIN);
    let late_vote = w.vote(c[3], c[5]);
    assert!(late_vote["at"].as_str().unwrap() <= "21:00", "an accepted order is never late in the file: {late_vote}");
    // A wolf kills; the host fixes a tie-break of the open day (replayed from its opening).
    let path = format!("{}/orders", w.base);
    ok(&w.seat(wolves[0]).post(&path, json!({"act": "kill", "target": c[1]})).unwrap());
    ok(&w.host("fix", json!({"tie_break": [wolves[1]]})));
    // The game file keeps all seven orders; the view shows the current ones (the two
    // votes replaced by a later vote are not shown).
    let path = format!("{}/gamefile?format=json", w.base);
    let file = ok(&w.host.get(&path).unwrap());
    assert_eq!(file["days"][0]["orders"].as_array().unwrap().len(), 7, "the fix kept every order");
    assert_eq!(w.view()["orders"].as_array().unwrap().len(), 5, "the current orders");
    // A dead or unknown tie-break is refused at once.
    let r = w.host("fix", json!({"tie_break": ["Никто"]}));
    assert_eq!(error(&r), (422, "bad_fix".into()), "{}", r.body);

    // 22:01: day 1 is resolved. c[5] is lynched (three votes against one), c[1] killed.
    clock.set(START + 48 * HOUR + 2 * MIN);
    let v = w.view();
    assert!(!alive(&v, c[5]), "the live game lynched c[5]: {}", v["players"]);
    assert!(alive(&v, c[4]));
    let papers = w.day1_papers();
    assert!(papers[4].contains(c[5]), "the evening paper names the lynched: {}", papers[4]);
    let same_past = |w: &mut World, after: &str| {
        for (now, then) in w.day1_papers().iter().zip(&papers) {
            let diff: Vec<_> = now.lines().zip(then.lines()).filter(|(a, b)| a != b).collect();
            assert_eq!(now, then, "the day-1 newspapers changed after {after}: {diff:?}");
        }
    };

    // A late fix of day 1: refused, the past unchanged.
    let r = w.host("fix", json!({"day": 1, "tie_break": [c[0]]}));
    assert_eq!(error(&r), (409, "day_resolved".into()), "{}", r.body);
    assert!(r.json()["message"].as_str().unwrap().contains("уже подведён"), "{}", r.body);
    same_past(&mut w, "a late fix");
    // Day 2's draws, checked against the state they will meet.
    // (Day 2's event was announced by day 1's evening paper: not to be changed.)
    let r = w.host("fix", json!({"day": 2, "event": "choose_me"}));
    assert_eq!(error(&r), (409, "event_announced".into()), "{}", r.body);
    let r = w.host("fix", json!({"day": 2, "chosen": c[5]}));
    assert_eq!(error(&r), (422, "bad_fix".into()), "a dead chosen, on a day without Choose me!: {}", r.body);
    let r = w.host("fix", json!({"day": 2, "chosen": "Никто"}));
    assert_eq!(error(&r), (422, "bad_fix".into()), "an unknown chosen: {}", r.body);
    let r = w.host("fix", json!({"day": 2, "deal": {c[0]: "trap"}}));
    assert_eq!(error(&r), (422, "bad_fix".into()), "no Tsunami on day 2: {}", r.body);
    ok(&w.host("fix", json!({"day": 2, "tie_break": [c[0]]})));
    let r = w.host("fix", json!({"day": 3, "tie_break": [c[0]]}));
    assert_eq!(error(&r), (409, "not_now".into()), "{}", r.body);
    same_past(&mut w, "day 2's fixes");

    // Day 2 opens on 4 Dec at 22:00 (the extended day 1 ended on 3 Dec at 22:00).
    clock.set(START + 72 * HOUR);
    assert_eq!(w.view()["open"]["day"], 2);
    // Point 4: the day-1 request id again on day 2, the same body: reused.
    let path = format!("{}/orders", w.base);
    let r = w.seat(c[2]).post(&path, json!({"act": "vote", "target": c[4], "request_id": "мой-голос"})).unwrap();
    assert_eq!(error(&r), (409, "request_id_reused".into()), "{}", r.body);
    // An id for a vote, then for another vote: reused; the same vote again: a duplicate.
    let v1 = ok(&w.seat(c[0]).post(&path, json!({"act": "vote", "target": wolves[0], "request_id": "r1"})).unwrap());
    let r = w.seat(c[0]).post(&path, json!({"act": "vote", "target": c[2], "request_id": "r1"})).unwrap();
    assert_eq!(error(&r), (409, "request_id_reused".into()), "{}", r.body);
    let again = ok(&w.seat(c[0]).post(&path, json!({"act": "vote", "target": wolves[0], "request_id": "r1"})).unwrap());
    assert_eq!(again["duplicate"].as_bool(), Some(true), "{again}");
    assert_eq!(again["order"], v1["order"]);
    // A host request id is checked the same way.
    ok(&w.host("penalty", json!({"target": c[3], "reason": "спам", "request_id": "h1"})));
    let r = w.host("penalty", json!({"target": c[4], "request_id": "h1"}));
    assert_eq!(error(&r), (409, "request_id_reused".into()), "{}", r.body);
    assert_eq!(
        ok(&w.host("penalty", json!({"target": c[3], "reason": "спам", "request_id": "h1"})))["duplicate"],
        true
    );
    let _ = first;
    same_past(&mut w, "day 2's orders and penalty");

    // Point 3: a tie between wolves[0] and c[4], and a tie-break naming c[3], who is alive
    // but not in the tie: accepted now, it cannot apply at 21:00.
    // (A player who does not vote votes for themself; c[3]'s blocked vote stays on them.)
    w.vote(c[2], wolves[0]);
    w.vote(wolves[0], c[4]);
    w.vote(wolves[1], c[4]);
    w.vote(c[4], c[0]);
    ok(&w.host("fix", json!({"tie_break": [c[3]]})));
    clock.set(START + 95 * HOUR + 2 * MIN);
    let v = w.view();
    let broken = v["broken"].as_str().unwrap_or_default().to_string();
    assert!(broken.contains("подведение итогов дня 2") && broken.contains(c[3]), "the host sees why: {v}");
    // Everything else still reads; a player sees no reason; orders are late.
    let pv = ok(&w.players[0].get(&w.base.clone()).unwrap());
    assert!(pv.get("broken").is_none(), "{pv}");
    let path = format!("{}/orders", w.base);
    let r = w.seat(c[0]).post(&path, json!({"act": "vote", "target": c[4]})).unwrap();
    assert_eq!(error(&r), (422, "late".into()), "{}", r.body);
    same_past(&mut w, "a failed resolution");
    // The host fixes the tie-break; the day resolves.
    ok(&w.host("fix", json!({"tie_break": [wolves[0]]})));
    let v = w.view();
    assert!(v.get("broken").is_none(), "{v}");
    assert!(!alive(&v, wolves[0]), "the fixed tie-break lynched wolves[0]: {}", v["players"]);
    same_past(&mut w, "day 2's resolution");
    let r = w.host("fix", json!({"event": "fear"}));
    assert_eq!(error(&r), (409, "event_announced".into()), "day 3's event was announced: {}", r.body);
    same_past(&mut w, "day 3's refused event fix");

    // Day 3 (5 Dec 22:00): the host disqualifies the last wolf and resolves now.
    clock.set(START + 96 * HOUR);
    assert_eq!(w.view()["open"]["day"], 3);
    ok(&w.host("remove", json!({"target": wolves[1], "reason": "два аккаунта"})));
    ok(&w.host("resolve", json!({})));
    let v = w.view();
    assert_eq!(v["status"], "over", "{v}");
    same_past(&mut w, "the end of the game");

    // The exported game file replays into exactly the live game.
    let report = w.host.get(&format!("{}/report", w.base)).unwrap();
    let file = w.host.get(&format!("{}/gamefile", w.base)).unwrap();
    let game = ostrov_engine::Game::parse(&file.body).expect("the exported file reads");
    let replayed = ostrov_engine::resolve(&game).expect("it resolves");
    assert_eq!(replayed.to_json(), report.body, "the exported file replays into the server's report");
    let f: ostrov_engine::GameFile = ostrov_engine::GameFile::parse(&file.body).unwrap();
    let ats: Vec<String> =
        f.days[0].orders.iter().map(|o| o.at.as_ref().unwrap().as_str().unwrap().to_string()).collect();
    let mut sorted = ats.clone();
    sorted.sort();
    assert_eq!(ats, sorted, "day 1's times are in arrival order");

    // A restart folds the same game.
    w.server.restart();
    let addr = w.server.addr;
    w.host.addr = addr;
    for p in &mut w.players {
        p.addr = addr;
    }
    assert_eq!(w.host.get(&format!("{}/report", w.base)).unwrap().body, report.body);
    same_past(&mut w, "a restart");
}
