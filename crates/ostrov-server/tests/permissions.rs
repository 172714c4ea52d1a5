//! Permissions over HTTP: a player acts only for themself and only in their own game;
//! the host's endpoints are the host's; a logged-out client gets 401 everywhere; a
//! request without the CSRF header (a forged cross-site request) is refused on every POST.

mod support;

support::both_stores!(
    a_logged_out_client_gets_401_everywhere,
    a_request_without_the_csrf_header_is_refused_on_every_post,
    a_player_acts_only_for_themself,
    nobody_acts_in_a_game_they_are_not_in,
    the_host_endpoints_are_the_hosts
);

use ostrov_server::client::Client;
use serde_json::{json, Value};
use support::{error, ok, Server, HOUR, START};

const HOST_ACTIONS: [&str; 8] = ["answer", "penalty", "remove", "fix", "extend", "resolve", "pause", "resume"];

/// A running 6-player game, plus a second game in its lobby.
struct World {
    server: Server,
    host: Client,
    players: Vec<Client>,
    names: Vec<&'static str>,
    outsider: Client,
    id: i64,
    invite: String,
    other_id: i64,
    other_invite: String,
}

fn world() -> World {
    let server = Server::start();
    let mut host = server.user("Ведущая");
    let g = ok(&host
        .post("/api/games", json!({"title": "Права", "slots": 6, "setup": "werewolf,seer,nurse", "seed": 3}))
        .unwrap());
    let (id, invite) = (g["id"].as_i64().unwrap(), g["invite"].as_str().unwrap().to_string());
    let names = vec!["Аня", "Боря", "Вика", "Гоша", "Даша", "Егор"];
    let players = server.join_all(&invite, &names);
    let mut other_host = server.user("Другой ведущий");
    let g2 = ok(&other_host.post("/api/games", json!({"title": "Другая", "slots": 5})).unwrap());
    let outsider = server.user("Зевака");
    server.clock.set(START);
    ok(&host.post(&format!("/api/games/{id}/start"), json!({})).unwrap());
    World {
        server,
        host,
        players,
        names,
        outsider,
        id,
        invite,
        other_id: g2["id"].as_i64().unwrap(),
        other_invite: g2["invite"].as_str().unwrap().to_string(),
    }
}

/// Every GET endpoint of a game (and the account endpoints).
fn gets(id: i64, invite: &str) -> Vec<String> {
    let b = format!("/api/games/{id}");
    vec![
        "/api/me".into(),
        "/api/games".into(),
        b.clone(),
        format!("/api/invites/{invite}"),
        format!("{b}/orders"),
        format!("{b}/inbox"),
        format!("{b}/inbox?format=markdown"),
        format!("{b}/newspapers"),
        format!("{b}/newspapers/1/bulletin"),
        format!("{b}/report"),
        format!("{b}/gamefile"),
        format!("{b}/events"),
    ]
}

/// Every POST endpoint that needs a session, with a plausible body.
fn posts(id: i64, invite: &str) -> Vec<(String, Value)> {
    let b = format!("/api/games/{id}");
    let mut v = vec![
        ("/api/games".to_string(), json!({"title": "Ещё одна", "slots": 5})),
        (format!("/api/invites/{invite}/join"), json!({})),
        (format!("{b}/start"), json!({})),
        (format!("{b}/orders"), json!({"act": "vote", "target": "Аня"})),
    ];
    for a in HOST_ACTIONS {
        let body = match a {
            "answer" => json!({"answer": true}),
            "penalty" | "remove" => json!({"target": "Аня"}),
            "fix" => json!({"event": "none"}),
            "extend" => json!({"minutes": 30}),
            _ => json!({}),
        };
        v.push((format!("{b}/host/{a}"), body));
    }
    v
}

fn assert_error_json(r: &ostrov_server::client::Reply, what: &str) {
    let j = r.json();
    assert!(j["error"].is_string() && j["message"].is_string(), "{what}: not an error JSON: {}", r.body);
}

fn a_logged_out_client_gets_401_everywhere() {
    let w = world();
    let mut anon = w.server.client();
    for path in gets(w.id, &w.invite) {
        let r = anon.get(&path).unwrap();
        assert_eq!(error(&r), (401, "unauthorized".into()), "GET {path}: {}", r.body);
        assert_error_json(&r, &path);
    }
    for (path, body) in posts(w.id, &w.invite) {
        let r = anon.post(&path, body).unwrap();
        assert_eq!(error(&r), (401, "unauthorized".into()), "POST {path}: {}", r.body);
    }
    // A made-up or expired session is no session.
    let mut fake = w.server.client();
    fake.cookie = Some("ostrov_session=0123456789abcdef".into());
    for path in gets(w.id, &w.invite) {
        assert_eq!(fake.get(&path).unwrap().status, 401, "GET {path} with a made-up session");
    }
    let mut gone = w.server.user("Ушедший");
    let cookie = gone.cookie.clone();
    ok(&gone.post("/api/logout", json!({})).unwrap());
    gone.cookie = cookie;
    for (path, body) in posts(w.id, &w.invite) {
        assert_eq!(gone.post(&path, body).unwrap().status, 401, "POST {path} after logout");
    }
    // Nothing of the above reached the game.
    let mut host = w.host.clone();
    let events = ok(&host.get(&format!("/api/games/{}/events", w.id)).unwrap());
    assert!(events.as_array().unwrap().iter().all(|e| e["kind"] != "order"), "{events}");
}

fn a_request_without_the_csrf_header_is_refused_on_every_post() {
    let w = world();
    let mut forged: Vec<Client> = vec![w.host.clone(), w.players[0].clone(), w.outsider.clone()];
    for c in &mut forged {
        c.csrf = false;
        for (path, body) in posts(w.id, &w.invite) {
            let r = c.post(&path, body).unwrap();
            assert_eq!(error(&r), (403, "csrf".into()), "POST {path} without the header: {}", r.body);
            assert_error_json(&r, &path);
        }
        for path in ["/api/signup", "/api/login", "/api/logout"] {
            let r = c.post(path, json!({"name": "Кто-то", "password": "пароль-кого-то"})).unwrap();
            assert_eq!(error(&r), (403, "csrf".into()), "POST {path} without the header");
        }
        // A wrong header value is no header.
        let mut raw = c.clone();
        let r = raw.raw("POST", &format!("/api/games/{}/orders", w.id), "application/json", b"{\"act\":\"vote\"}");
        assert_eq!(error(&r.unwrap()), (403, "csrf".into()));
    }
    // Still logged in (logout was refused), and the game is untouched.
    let mut host = w.host.clone();
    assert_eq!(host.get("/api/me").unwrap().status, 200);
    let events = ok(&host.get(&format!("/api/games/{}/events", w.id)).unwrap());
    assert_eq!(events.as_array().unwrap().len(), 8, "created, 6 joined, started: {events}");
    let g = ok(&host.get(&format!("/api/games/{}", w.id)).unwrap());
    assert_eq!(g["paused"], false);
    assert!(g["history"].as_array().unwrap().is_empty());
}

fn a_player_acts_only_for_themself() {
    let mut w = world();
    let orders = format!("/api/games/{}/orders", w.id);
    let (me, other) = (w.names[0], w.names[1]);
    w.server.clock.set(START + 10 * HOUR);
    // `by` naming another player, in any spelling, or the host: refused.
    for by in [other, "БОРЯ", "боря", "host", "Ведущий", "Ведущая", "Зевака", ""] {
        let r = w.players[0].post(&orders, json!({"act": "vote", "target": "Вика", "by": by})).unwrap();
        assert_eq!(error(&r), (409, "not_yours".into()), "by = {by:?}: {}", r.body);
    }
    // `by` naming oneself is fine, and the order is recorded as one's own.
    let r = ok(&w.players[0].post(&orders, json!({"act": "vote", "target": "Вика", "by": "аня"})).unwrap());
    assert_eq!(r["order"]["by"], me);
    // The host's acts through the player's order endpoint are refused and change nothing.
    for (act, extra) in [
        ("remove", json!({"target": other})),
        ("penalty", json!({"target": other})),
        ("answer", json!({"answer": "yes"})),
    ] {
        let mut body = json!({"act": act});
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        let r = w.players[0].post(&orders, body.clone()).unwrap();
        assert!(r.status == 400 || r.status == 422, "{act} by a player: HTTP {} {}", r.status, r.body);
        assert_error_json(&r, act);
        body.as_object_mut().unwrap().remove("answer");
        let r = w.players[0].post(&orders, body).unwrap();
        assert!(r.status == 400 || r.status == 422, "{act} by a player: HTTP {} {}", r.status, r.body);
    }
    // A request id reused by another player is that player's own: no cross-user duplicate.
    ok(&w.players[2].post(&orders, json!({"act": "vote", "target": "Аня", "request_id": "r1"})).unwrap());
    let r = ok(&w.players[3].post(&orders, json!({"act": "vote", "target": "Боря", "request_id": "r1"})).unwrap());
    assert_eq!(r["duplicate"], false);
    assert_eq!(r["order"]["by"], w.names[3]);
    // Every order in the log is by its sender; nobody else was removed or penalised.
    let g = ok(&w.host.get(&format!("/api/games/{}", w.id)).unwrap());
    let by: Vec<&str> = g["orders"].as_array().unwrap().iter().map(|o| o["by"].as_str().unwrap()).collect();
    assert_eq!(by, vec![me, w.names[2], w.names[3]], "{g}");
    assert!(g["players"].as_array().unwrap().iter().all(|p| p["alive"] == true));
    assert!(g["history"].as_array().unwrap().is_empty());
    // Each player's orders endpoint has only their own.
    let mine = ok(&w.players[0].get(&orders).unwrap());
    assert_eq!(mine["orders"].as_array().unwrap().len(), 1);
    assert!(ok(&w.players[1].get(&orders).unwrap())["orders"].as_array().unwrap().is_empty());
}

fn nobody_acts_in_a_game_they_are_not_in() {
    let mut w = world();
    w.server.clock.set(START + 10 * HOUR);
    let b = format!("/api/games/{}", w.id);
    let other = format!("/api/games/{}", w.other_id);
    for (c, gid) in [(&mut w.outsider, &b), (&mut w.players[0], &other)] {
        let r = c.post(&format!("{gid}/orders"), json!({"act": "vote", "target": "Аня"})).unwrap();
        assert_eq!(error(&r), (403, "forbidden".into()), "{gid}: {}", r.body);
        assert_eq!(error(&c.get(&format!("{gid}/orders")).unwrap()), (403, "forbidden".into()));
        assert_eq!(error(&c.get(&format!("{gid}/inbox")).unwrap()), (403, "forbidden".into()));
        assert_eq!(error(&c.get(&format!("{gid}/inbox?format=markdown")).unwrap()), (403, "forbidden".into()));
        assert_eq!(error(&c.post(&format!("{gid}/start"), json!({})).unwrap()), (403, "forbidden".into()));
    }
    // The outsider views the game as an outsider: no roles, no orders, and of the items
    // only the passive ones living players hold (public, as the newspaper shows them).
    let g = ok(&w.outsider.get(&b).unwrap());
    assert_eq!(g["viewer"], "outsider");
    assert!(
        g.get("you").is_none() && g.get("orders").is_none() && g.get("setup").is_none() && g.get("invite").is_none()
    );
    let host_view = ok(&w.host.get(&b).unwrap());
    for (p, full) in g["players"].as_array().unwrap().iter().zip(host_view["players"].as_array().unwrap()) {
        assert!(p.get("role").is_none(), "{p}");
        let passive = full["item"]["id"]
            .as_str()
            .and_then(|id| id.parse::<ostrov_engine::Item>().ok())
            .is_some_and(|i| i.is_passive());
        if passive && p["alive"] == true {
            assert_eq!(p["item"], full["item"], "{p}");
        } else {
            assert!(p.get("item").is_none(), "{p}");
        }
    }
    // Joining a running game is refused; the host cannot play their own game.
    let r = w.outsider.post(&format!("/api/invites/{}/join", w.invite), json!({})).unwrap();
    assert_eq!(error(&r), (409, "started".into()));
    let r = w.host.post(&format!("/api/invites/{}/join", w.invite), json!({})).unwrap();
    assert_eq!(error(&r).0, 409);
    // Joining twice, or under a name already taken, is refused.
    let r = w.players[0].post(&format!("/api/invites/{}/join", w.other_invite), json!({})).unwrap();
    ok(&r);
    let r = w.players[0].post(&format!("/api/invites/{}/join", w.other_invite), json!({"name": "Ещё Аня"})).unwrap();
    assert_eq!(error(&r), (409, "already_joined".into()));
    let r = w.players[1].post(&format!("/api/invites/{}/join", w.other_invite), json!({"name": "аня"})).unwrap();
    assert_eq!(error(&r), (409, "name_taken".into()));
    for name in ["host", "Ведущий", "АВТОР"] {
        let r = w.players[1].post(&format!("/api/invites/{}/join", w.other_invite), json!({"name": name})).unwrap();
        assert_eq!(error(&r), (409, "bad_name".into()), "{name}");
    }
}

fn the_host_endpoints_are_the_hosts() {
    let mut w = world();
    w.server.clock.set(START + 10 * HOUR);
    let b = format!("/api/games/{}", w.id);
    let mut who: Vec<Client> = w.players.clone();
    who.push(w.outsider.clone());
    for c in &mut who {
        for (path, body) in posts(w.id, &w.invite).into_iter().filter(|(p, _)| p.contains("/host/")) {
            let r = c.post(&path, body).unwrap();
            assert_eq!(error(&r), (403, "forbidden".into()), "POST {path}: {}", r.body);
            assert_error_json(&r, &path);
        }
        // An unknown host action is still the host's business: 403 before 404.
        assert_eq!(c.post(&format!("{b}/host/nothing"), json!({})).unwrap().status, 403);
        assert_eq!(error(&c.post(&format!("{b}/start"), json!({})).unwrap()), (403, "forbidden".into()));
        for path in
            [format!("{b}/report"), format!("{b}/gamefile"), format!("{b}/gamefile?format=json"), format!("{b}/events")]
        {
            let r = c.get(&path).unwrap();
            assert_eq!(error(&r), (403, "forbidden".into()), "GET {path} while the game runs: {}", r.body);
        }
        // Another game's host endpoints, in the lobby: 403 as well.
        let o = format!("/api/games/{}", w.other_id);
        for path in [format!("{o}/report"), format!("{o}/gamefile"), format!("{o}/events")] {
            assert_eq!(c.get(&path).unwrap().status, 403, "GET {path} in the lobby");
        }
        assert_eq!(c.post(&format!("{o}/start"), json!({})).unwrap().status, 403);
    }
    // Nothing happened: no pause, no removal, no extension.
    let g = ok(&w.host.get(&b).unwrap());
    assert!(g["history"].as_array().unwrap().is_empty(), "{g}");
    assert_eq!(g["paused"], false);
    // The host may.
    for path in [format!("{b}/report"), format!("{b}/gamefile"), format!("{b}/events")] {
        ok(&w.host.get(&path).unwrap_or_else(|e| panic!("{path}: {e}")));
    }
    // Once the game is over, everyone may read the report, the game file and the log.
    ok(&w.host.post(&format!("{b}/host/remove"), json!({"target": w.names[0]})).unwrap());
    let roles = ok(&w.host.get(&format!("{b}/report")).unwrap());
    let wolf = roles["players"].as_array().unwrap().iter().find(|p| p["role"] == "werewolf").unwrap();
    let wolf = wolf["name"].as_str().unwrap().to_string();
    if wolf != w.names[0] {
        ok(&w.host.post(&format!("{b}/host/remove"), json!({"target": wolf})).unwrap());
    }
    ok(&w.host.post(&format!("{b}/host/resolve"), json!({})).unwrap());
    let g = ok(&w.host.get(&b).unwrap());
    assert_eq!(g["status"], "over", "{g}");
    for c in &mut who {
        for path in [format!("{b}/report"), format!("{b}/gamefile"), format!("{b}/events")] {
            ok(&c.get(&path).unwrap());
        }
    }
}
