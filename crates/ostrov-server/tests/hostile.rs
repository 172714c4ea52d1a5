//! The hostile round (issue 28) over HTTP, one test per point fixed here:
//! - point 3: the dead read the pack's chat but do not post in it (O-THREAD-4);
//! - point 7: a seat may not take the host's account name or a look-alike of it;
//! - point 9: a finished game's discussion takes no post, from anyone (409, in Russian);
//! - point 10: every per-user answer, API and page, carries `Cache-Control: no-store`.

mod support;

support::both_stores!(the_dead_read_the_pack_but_do_not_post, a_finished_game_takes_no_post);

use ostrov_server::client::Client;
use serde_json::json;
use support::{error, no_events, ok, web_post, Server, HOUR, START};

const NAMES: [&str; 6] = ["Алла", "Борис", "Вера", "Глеб", "Дана", "Егор"];

struct Table {
    server: Server,
    host: Client,
    players: Vec<Client>,
    id: i64,
    roles: Vec<(String, String)>,
}

impl Table {
    fn start() -> Table {
        let server = Server::start();
        let mut host = server.user("Распорядитель");
        let g = ok(&host
            .post(
                "/api/games",
                json!({"title": "Остров", "slots": 6, "setup": "werewolf=2", "seed": 7u64, "rules": {"events": no_events()}}),
            )
            .unwrap());
        let (id, invite) = (g["id"].as_i64().unwrap(), g["invite"].as_str().unwrap().to_string());
        let players = server.join_all(&invite, &NAMES);
        ok(&host.post(&format!("/api/games/{id}/start"), json!({})).unwrap());
        server.clock.set(START + 10 * HOUR);
        let v = ok(&host.get(&format!("/api/games/{id}")).unwrap());
        let roles = v["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p["name"].as_str().unwrap().to_string(), p["role"]["id"].as_str().unwrap().to_string()))
            .collect();
        Table { server, host, players, id, roles }
    }

    fn seat(&mut self, name: &str) -> &mut Client {
        &mut self.players[NAMES.iter().position(|n| *n == name).unwrap()]
    }

    fn with_role(&self, role: &str) -> Vec<String> {
        self.roles.iter().filter(|(_, r)| r == role).map(|(n, _)| n.clone()).collect()
    }
}

/// Issue 28, point 3; O-THREAD-4.
fn the_dead_read_the_pack_but_do_not_post() {
    let mut t = Table::start();
    let wolves = t.with_role("werewolf");
    let id = t.id;
    assert_eq!(web_post(t.seat(&wolves[0]), id, "pack", "Живой волк пишет").status, 303);
    // The host removes the first werewolf: dead, still of the pack.
    ok(&t.host.post(&format!("/api/games/{id}/host/remove"), json!({"target": wolves[0]})).unwrap());
    let r = web_post(t.seat(&wolves[0]), id, "pack", "Мёртвый волк подсказывает");
    assert!(r.body.contains("Мёртвые читают чат стаи, но не пишут в него"), "{} {}", r.status, r.body);
    let pack = t.seat(&wolves[0]).get(&format!("/games/{id}/thread?room=pack")).unwrap();
    assert!(pack.body.contains("Живой волк пишет"), "the dead still read the pack: {}", pack.body);
    assert!(!pack.body.contains("Мёртвый волк подсказывает"), "{}", pack.body);
    // The dead still write their thematic flood in the public thread, marked.
    assert_eq!(web_post(t.seat(&wolves[0]), id, "thread", "Привет с того света").status, 303);
    let thread = t.host.get(&format!("/games/{id}/thread?room=thread")).unwrap();
    assert!(thread.body.contains("Привет с того света") && thread.body.contains("мёртвый"), "{}", thread.body);
    // The living werewolf still posts.
    assert_eq!(web_post(t.seat(&wolves[1]), id, "pack", "Я один остался").status, 303);
}

/// Issue 28, point 9.
fn a_finished_game_takes_no_post() {
    let mut t = Table::start();
    let id = t.id;
    let wolves = t.with_role("werewolf");
    for w in &wolves {
        ok(&t.host.post(&format!("/api/games/{id}/host/remove"), json!({"target": w})).unwrap());
    }
    let v = ok(&t.host.get(&format!("/api/games/{id}")).unwrap());
    if v["status"] != "over" {
        ok(&t.host.post(&format!("/api/games/{id}/host/resolve"), json!({})).unwrap());
    }
    assert_eq!(ok(&t.host.get(&format!("/api/games/{id}")).unwrap())["status"], "over");
    let before = ok(&t.host.get(&format!("/api/games/{id}/events")).unwrap()).as_array().unwrap().len();
    let mut outsider = t.server.user("Прохожий");
    let living = NAMES.iter().find(|n| !wolves.iter().any(|w| w == *n)).unwrap().to_string();
    for (who, room) in [("outsider", "thread"), ("player", "thread"), ("wolf", "pack"), ("host", "thread")] {
        let c = match who {
            "outsider" => &mut outsider,
            "player" => t.seat(&living),
            "wolf" => t.seat(&wolves[0]),
            _ => &mut t.host,
        };
        let r = web_post(c, id, room, "После конца");
        assert_eq!(r.status, 409, "{who}: {}", r.body);
        assert!(r.body.contains("Игра окончена: обсуждение закрыто"), "{who}: {} {}", r.status, r.body);
    }
    let after = ok(&t.host.get(&format!("/api/games/{id}/events")).unwrap()).as_array().unwrap().len();
    assert_eq!(before, after, "nothing was added to the finished record");
}

/// Issue 28, point 7.
#[test]
fn a_seat_cannot_take_the_hosts_name() {
    let server = Server::start();
    let mut host = server.user("Ольга");
    let g = ok(&host.post("/api/games", json!({"title": "Её игра", "slots": 5})).unwrap());
    let invite = g["invite"].as_str().unwrap().to_string();
    for (i, dressed) in ["Oльга", "ОЛЬГА", "ольга"].into_iter().enumerate() {
        let mut c = server.user(&format!("Гость {i}"));
        let r = c.post(&format!("/api/invites/{invite}/join"), json!({"name": dressed})).unwrap();
        assert_eq!(error(&r), (409, "bad_name".into()), "{dressed}: {}", r.body);
        assert!(r.body.contains("это имя ведущего этой игры"), "{}", r.body);
    }
    let mut c = server.user("Гость");
    ok(&c.post(&format!("/api/invites/{invite}/join"), json!({"name": "Оля"})).unwrap());
}

/// Issue 28, point 10.
#[test]
fn per_user_answers_are_not_cached() {
    let server = Server::start();
    let mut host = server.user("Хозяйка");
    let g = ok(&host.post("/api/games", json!({"title": "Кэш", "slots": 5})).unwrap());
    let id = g["id"].as_i64().unwrap();
    for path in [
        "/api/me".to_string(),
        format!("/api/games/{id}"),
        "/api/games".to_string(),
        "/".into(),
        format!("/games/{id}"),
    ] {
        let r = host.get(&path).unwrap();
        let cc = r.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case("cache-control")).map(|(_, v)| v.clone());
        assert_eq!(cc.as_deref(), Some("no-store"), "GET {path}");
    }
}

/// Issue 27: the orders in force are the engine's (R-ORDER-1): of two exchange requests
/// only the last stands, as the engine keeps it, not both as the view used to list.
#[test]
fn only_the_last_exchange_request_is_in_force() {
    let server = Server::start();
    let mut host = server.user("Распорядитель");
    let g = ok(&host.post("/api/games", json!({"title": "Обмен", "slots": 6, "seed": 9u64})).unwrap());
    let (id, invite) = (g["id"].as_i64().unwrap(), g["invite"].as_str().unwrap().to_string());
    let mut players = server.join_all(&invite, &NAMES);
    ok(&host.post(&format!("/api/games/{id}/start"), json!({})).unwrap());
    ok(&host.post(&format!("/api/games/{id}/host/fix"), json!({"event": "exchange"})).unwrap());
    server.clock.set(START + 10 * HOUR);
    for target in ["Борис", "Вера"] {
        ok(&players[0].post(&format!("/api/games/{id}/orders"), json!({"act": "exchange", "target": target})).unwrap());
    }
    let mine = ok(&players[0].get(&format!("/api/games/{id}/orders")).unwrap());
    let exchanges: Vec<_> = mine["orders"].as_array().unwrap().iter().filter(|o| o["act"] == "exchange").collect();
    assert_eq!(exchanges.len(), 1, "{mine}");
    assert_eq!(exchanges[0]["target"], "Вера");
}
