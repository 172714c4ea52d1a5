//! The hostile round's published leaks (issue 28), over HTTP:
//! - the maniac's victim is a secret (O-PAPER-2): no newspaper of any format names it, and
//!   the victim's posts carry the «жертва маньяка» mark for the host (marked host-only)
//!   and the victim alone.

mod support;

support::both_stores!(the_maniacs_victim_is_told_to_nobody_else);

use std::collections::BTreeMap;

use ostrov_server::client::Client;
use serde_json::json;
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
    let roles = v["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["name"].as_str().unwrap().to_string(), p["role"]["id"].as_str().unwrap().to_string()))
        .collect();
    Table { server, host, players, outsider, id, roles }
}

/// A post from the web form (the token read from the game page).
fn web_post(c: &mut Client, id: i64, room: &str, text: &str) {
    let page = c.get(&format!("/games/{id}")).unwrap().body;
    let at = page.find("name=\"csrf\" value=\"").unwrap() + 19;
    let token = page[at..].split('"').next().unwrap().to_string();
    let enc = |s: &str| s.bytes().map(|b| format!("%{b:02X}")).collect::<String>();
    let body = format!("csrf={token}&room={room}&text={}", enc(text));
    let r =
        c.raw("POST", &format!("/games/{id}/thread"), "application/x-www-form-urlencoded", body.as_bytes()).unwrap();
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
            assert!(!r.body.contains("навещает") && !r.body.contains("ни голоса, ни слова"), "{url} {f}: {}", r.body);
        }
        let page = url.replace("/api/games", "/games").replace("/newspapers/", "/papers/");
        let r = t.outsider.get(&page).unwrap();
        assert_eq!(r.status, 200, "{page}: {}", r.body);
        assert!(!r.body.contains("навещает"), "{page}: {}", r.body);
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
