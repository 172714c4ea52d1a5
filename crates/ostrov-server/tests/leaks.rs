//! The hostile round's two published leaks (issue 28, points 1 and 2), over HTTP:
//! - the maniac's victim is a secret (O-PAPER-2): no newspaper of any format names it, and
//!   the victim's posts carry the «жертва маньяка» mark for the host (marked host-only)
//!   and the victim alone;
//! - the live stream tells a viewer only of what that viewer may see: a secret order or a
//!   pack post sends no `changed` to a villager or an outsider, and nothing a viewer gets
//!   (the stream's data, an order's reply) counts the game's hidden events.
//!
//! And two found by the leak test over every channel (tests/leak_channels.rs): the host's
//! answer to the Spirit told every stream that the host had answered, and the log of a
//! finished game (`/api/games/{id}/events`, everyone's once over) printed the pack's chat.

mod support;

support::both_stores!(
    the_maniacs_victim_is_told_to_nobody_else,
    the_live_stream_tells_each_viewer_only_what_they_see,
    the_spirits_answer_is_heard_on_the_stream_only_by_the_asker,
    the_log_of_a_finished_game_keeps_the_packs_chat_to_the_pack,
);

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::time::Duration;

use ostrov_server::client::Client;
use serde_json::{json, Value};
use support::{no_events, ok, Server, HOUR, START};

const NAMES: [&str; 6] = ["Алла", "Борис", "Вера", "Глеб", "Дана", "Егор"];

struct Table {
    server: Server,
    host: Client,
    players: Vec<Client>,
    outsider: Client,
    id: i64,
    /// Name → role id, as the host sees them.
    roles: BTreeMap<String, String>,
}

impl Table {
    fn base(&self) -> String {
        format!("/api/games/{}", self.id)
    }

    fn seat(&mut self, name: &str) -> &mut Client {
        let i = NAMES.iter().position(|n| *n == name).unwrap();
        &mut self.players[i]
    }

    fn with_role(&self, role: &str) -> Vec<String> {
        self.roles.iter().filter(|(_, r)| *r == role).map(|(n, _)| n.clone()).collect()
    }
}

/// Six players (a werewolf, a halfblood, a maniac, a seer and two passengers), no events,
/// started: day 1 opens at [`START`].
fn table() -> Table {
    let server = Server::start();
    let mut host = server.user("Распорядитель");
    let g = ok(&host
        .post(
            "/api/games",
            json!({"title": "Тихий остров", "slots": 6, "setup": "werewolf,halfblood,maniac,seer",
                   "seed": 20261206u64, "rules": {"events": no_events()}}),
        )
        .unwrap());
    let (id, invite) = (g["id"].as_i64().unwrap(), g["invite"].as_str().unwrap().to_string());
    let players = server.join_all(&invite, &NAMES);
    let outsider = server.user("Прохожий");
    ok(&host.post(&format!("/api/games/{id}/start"), json!({})).unwrap());
    server.clock.set(START);
    let v = ok(&host.get(&format!("/api/games/{id}")).unwrap());
    let roles = support::roles(&v).into_iter().collect();
    Table { server, host, players, outsider, id, roles }
}

/// A post from the web form that must be taken.
fn web_post(c: &mut Client, id: i64, room: &str, text: &str) {
    let r = support::web_post(c, id, room, text);
    assert_eq!(r.status, 303, "{}", r.body);
}

/// Issue 28, point 1; O-PAPER-2.
fn the_maniacs_victim_is_told_to_nobody_else() {
    let mut t = table();
    let (id, base) = (t.id, t.base());
    let maniac = t.with_role("maniac")[0].clone();
    let victim = t.with_role("passenger")[0].clone();
    let other = t.with_role("seer")[0].clone();
    t.server.clock.set(START + 12 * HOUR);
    ok(&t.seat(&maniac).post(&format!("{base}/orders"), json!({"act": "assault", "target": victim})).unwrap());
    // 21:01 has passed: day 1 is resolved; day 2 opens at 22:00; 10:00 the next morning.
    t.server.clock.set(START + 36 * HOUR);
    let papers = ok(&t.outsider.get(&format!("{base}/newspapers")).unwrap());
    let urls: Vec<String> = papers.as_array().unwrap().iter().map(|p| p["url"].as_str().unwrap().to_string()).collect();
    assert!(urls.iter().any(|u| u.ends_with("/1/evening")), "{papers}");
    for url in &urls {
        for f in ["markdown", "gfm", "bbcode", "html", "html-fragment", "plain"] {
            let r = t.outsider.get(&format!("{url}?format={f}")).unwrap();
            assert_eq!(r.status, 200, "{url} {f}: {}", r.body);
            assert!(!r.body.contains("навестил") && !r.body.contains("ни голоса, ни слова"), "{url} {f}: {}", r.body);
        }
        let page = url.replace("/api/games", "/games").replace("/newspapers/", "/papers/");
        let r = t.outsider.get(&page).unwrap();
        assert_eq!(r.status, 200, "{page}: {}", r.body);
        assert!(!r.body.contains("навестил"), "{page}: {}", r.body);
    }
    // The victim is told privately.
    let inbox = ok(&t.seat(&victim).get(&format!("{base}/inbox")).unwrap()).to_string();
    assert!(inbox.contains("assaulted") || inbox.contains("Сексманьяк"), "{inbox}");

    web_post(t.seat(&victim), id, "thread", "Доброе утро всем");
    let thread = format!("/games/{id}/thread?room=thread");
    for who in [other.as_str(), maniac.as_str()] {
        let r = t.seat(who).get(&thread).unwrap();
        assert!(r.body.contains("Доброе утро всем"), "{who}: {}", r.body);
        assert!(!r.body.contains("жертва маньяка") && !r.body.contains("assaulted"), "{who} sees: {}", r.body);
    }
    let r = t.outsider.get(&thread).unwrap();
    assert!(!r.body.contains("жертва маньяка") && !r.body.contains("assaulted"), "an outsider sees: {}", r.body);
    let own = t.seat(&victim).get(&thread).unwrap();
    assert!(own.body.contains("жертва маньяка"), "the victim sees their own mark: {}", own.body);
    assert!(!own.body.contains("видит только ведущий"), "{}", own.body);
    let host = t.host.get(&thread).unwrap();
    assert!(host.body.contains("жертва маньяка") && host.body.contains("видит только ведущий"), "{}", host.body);
}

/// An open live stream of a game: its events as they come, `(event, data)`.
struct Stream {
    lines: BufReader<TcpStream>,
}

impl Stream {
    fn open(c: &Client, id: i64) -> Stream {
        let lines = support::live(c, id);
        Stream { lines }
    }

    /// The next event within `wait`, or `None`. Keep-alive comments are skipped.
    fn next(&mut self, wait: Duration) -> Option<(String, String)> {
        self.lines.get_ref().set_read_timeout(Some(wait)).unwrap();
        let (mut event, mut data) = (String::new(), String::new());
        loop {
            let mut l = String::new();
            match self.lines.read_line(&mut l) {
                Ok(0) | Err(_) => return None,
                Ok(_) => {}
            }
            let l = l.trim_end_matches(['\r', '\n']);
            if let Some(e) = l.strip_prefix("event:") {
                event = e.trim().to_string();
            } else if let Some(d) = l.strip_prefix("data:") {
                data = d.trim().to_string();
            } else if l.is_empty() && !event.is_empty() {
                return Some((event, data));
            }
        }
    }
}

const QUIET: Duration = Duration::from_millis(700);

/// Issue 28, point 2.
fn the_live_stream_tells_each_viewer_only_what_they_see() {
    let mut t = table();
    let (id, base) = (t.id, t.base());
    t.server.clock.set(START + 12 * HOUR);
    let wolf = t.with_role("werewolf")[0].clone();
    let half = t.with_role("halfblood")[0].clone();
    let seer = t.with_role("seer")[0].clone();
    let villager = t.with_role("passenger")[0].clone();
    let i = |n: &str| NAMES.iter().position(|x| *x == n).unwrap();
    let mut villager_s = Stream::open(&t.players[i(&villager)], id);
    let mut outsider_s = Stream::open(&t.outsider, id);
    let mut half_s = Stream::open(&t.players[i(&half)], id);
    let mut host_s = Stream::open(&t.host, id);
    let mut seer_s = Stream::open(&t.players[i(&seer)], id);
    for s in [&mut villager_s, &mut outsider_s, &mut half_s, &mut host_s, &mut seer_s] {
        let (e, data) = s.next(Duration::from_secs(5)).expect("hello");
        assert_eq!(e, "hello");
        assert_eq!(data, "0", "the first event counts nothing of the game");
    }

    // Secret: the wolf's night order and the pack's posts. The pack and the host hear of the
    // posts; the host of the order; the villager, the seer and the outsider hear nothing.
    let r = ok(&t.seat(&wolf).post(&format!("{base}/orders"), json!({"act": "kill", "target": villager})).unwrap());
    assert!(r.get("seq").is_none(), "an order's reply counts no events: {r}");
    assert_eq!(host_s.next(QUIET).map(|e| e.0), Some("changed".into()), "the host sees every order");
    for _ in 0..3 {
        web_post(t.seat(&wolf), id, "pack", "Тихо, идём ночью");
    }
    let got = half_s.next(QUIET).expect("the halfblood reads the pack's chat");
    assert_eq!(got, ("changed".to_string(), "1".to_string()), "a stream counts only its own changes");
    assert!(host_s.next(QUIET).is_some());
    for (who, s) in [("villager", &mut villager_s), ("outsider", &mut outsider_s), ("seer", &mut seer_s)] {
        assert_eq!(s.next(QUIET), None, "the {who} hears of a secret order or the pack's posts");
    }
    // The seer's own check: the seer and the host, nobody else.
    ok(&t.seat(&seer).post(&format!("{base}/orders"), json!({"act": "check", "target": wolf})).unwrap());
    assert_eq!(seer_s.next(QUIET), Some(("changed".into(), "1".into())));
    assert_eq!(villager_s.next(QUIET), None);
    // Public: a post in the thread reaches everyone, and each stream's count is its own.
    web_post(t.seat(&villager), id, "thread", "Всем привет");
    for (who, s, n) in
        [("villager", &mut villager_s, "1"), ("outsider", &mut outsider_s, "1"), ("seer", &mut seer_s, "2")]
    {
        let mut last = None;
        while let Some(e) = s.next(QUIET) {
            last = Some(e);
        }
        assert_eq!(last, Some(("changed".into(), n.into())), "the {who} sees the thread's post");
    }
    // The API's game view and the orders reply carry no counter of the log.
    for c in [&mut t.players[i(&villager)], &mut t.outsider] {
        let v: Value = ok(&c.get(&base).unwrap());
        assert!(v.get("seq").is_none(), "{v}");
    }
}

/// Issue 28, point 2; O-THREAD-6 (found by tests/leak_channels.rs): the host's answer to the Spirit is
/// told privately to the one who asked (R-SPIRIT-1) and printed by the evening newspaper,
/// so no other stream hears that the host answered.
fn the_spirits_answer_is_heard_on_the_stream_only_by_the_asker() {
    let mut t = table();
    let (id, base) = (t.id, t.base());
    ok(&t.host.post(&format!("{base}/host/fix"), json!({"event": "spirit_call"})).unwrap());
    t.server.clock.set(START + 12 * HOUR);
    let asker = t.with_role("seer")[0].clone();
    let other = t.with_role("passenger")[0].clone();
    ok(&t
        .seat(&asker)
        .post(&format!("{base}/orders"), json!({"act": "ask", "text": "Есть ли среди нас оборотень?"}))
        .unwrap());
    // 14:00: the 13:00 stage has asked the question.
    t.server.clock.set(START + 16 * HOUR);
    ok(&t.host.get(&base).unwrap());
    let i = |n: &str| NAMES.iter().position(|x| *x == n).unwrap();
    let mut asker_s = Stream::open(&t.players[i(&asker)], id);
    let mut other_s = Stream::open(&t.players[i(&other)], id);
    let mut outsider_s = Stream::open(&t.outsider, id);
    for s in [&mut asker_s, &mut other_s, &mut outsider_s] {
        assert_eq!(s.next(Duration::from_secs(5)).map(|e| e.0), Some("hello".into()));
    }
    ok(&t.host.post(&format!("{base}/host/answer"), json!({"answer": true})).unwrap());
    assert_eq!(asker_s.next(QUIET), Some(("changed".into(), "1".into())), "the asker is told the answer");
    assert_eq!(other_s.next(QUIET), None, "another player hears that the host answered the Spirit");
    assert_eq!(outsider_s.next(QUIET), None, "an outsider hears that the host answered the Spirit");
}

/// O-THREAD-6, O-THREAD-4 (found by tests/leak_channels.rs): the pack's chat is the pack's and the
/// host's also once the game is over; the log, everyone's then, leaves its posts out for
/// anyone else (the pages never showed them).
fn the_log_of_a_finished_game_keeps_the_packs_chat_to_the_pack() {
    let mut t = table();
    let (id, base) = (t.id, t.base());
    t.server.clock.set(START + 12 * HOUR);
    let wolf = t.with_role("werewolf")[0].clone();
    let half = t.with_role("halfblood")[0].clone();
    let villager = t.with_role("passenger")[0].clone();
    web_post(t.seat(&wolf), id, "pack", "Тайный план стаи на ночь");
    web_post(t.seat(&villager), id, "thread", "Открытое слово в треде");
    // The host flags the thread's post: the second of the log's posts, the first a villager sees.
    assert_eq!(support::host_flag(&mut t.host, id, 2).status, 303);
    for w in [&wolf, &half] {
        ok(&t.host.post(&format!("{base}/host/remove"), json!({"target": w})).unwrap());
    }
    if ok(&t.host.get(&base).unwrap())["status"] != "over" {
        ok(&t.host.post(&format!("{base}/host/resolve"), json!({})).unwrap());
    }
    assert_eq!(ok(&t.outsider.get(&base).unwrap())["status"], "over");
    let events = format!("{base}/events");
    for (who, c) in [("an outsider", &mut t.outsider.clone()), ("a villager", &mut t.seat(&villager).clone())] {
        let log = ok(&c.get(&events).unwrap()).to_string();
        assert!(log.contains("Открытое слово в треде"), "{who}: the log is whole otherwise: {log}");
        assert!(!log.contains("Тайный план стаи"), "{who} reads the pack's chat in the log: {log}");
        // Nothing counts the pack's posts: no gap in the numbers, and the flag names the post
        // by its place among the posts shown (issue 28, point 2).
        let log = ok(&c.get(&events).unwrap());
        let entries = log.as_array().unwrap();
        let seqs: Vec<i64> = entries.iter().map(|e| e["seq"].as_i64().unwrap()).collect();
        assert_eq!(seqs, (1..=entries.len() as i64).collect::<Vec<_>>(), "{who}: {log}");
        let flag = entries.iter().find(|e| e["kind"] == "flagged").unwrap();
        assert_eq!(flag["payload"]["post"], 0, "{who}: {flag}");
        let r = c.get(&format!("/games/{id}/thread?room=pack")).unwrap();
        assert_eq!(r.status, 403, "{who}: the pack's chat page: {}", r.body);
    }
    for (who, c) in [("the host", &mut t.host.clone()), ("a dead packmate", &mut t.seat(&half).clone())] {
        let log = ok(&c.get(&events).unwrap()).to_string();
        assert!(log.contains("Тайный план стаи"), "{who} reads the pack's chat in the log: {log}");
        let log = ok(&c.get(&events).unwrap());
        let flag = log.as_array().unwrap().iter().find(|e| e["kind"] == "flagged").unwrap().clone();
        assert_eq!(flag["payload"]["post"], 1, "{who}: the whole log's own numbers: {flag}");
    }
}
