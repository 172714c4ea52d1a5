//! Bad input to every endpoint: wrong JSON types, missing and unknown fields, non-JSON, a
//! 200 KB body, unknown and non-numeric ids, unicode junk (RTL marks, zero-width
//! characters, 4-byte emoji, NUL) in names and targets, huge numbers. Each gets a clear
//! 4xx JSON error `{error, message}`: never a 500, never a panic, never a dropped
//! connection; and the server still serves afterwards.

mod support;

support::both_stores!(
    malformed_bodies_get_400_json_everywhere,
    wrong_types_missing_and_unknown_fields,
    unknown_and_malformed_ids,
    unicode_junk_in_names_and_targets,
    huge_numbers
);

use ostrov_server::client::{Client, Reply};
use serde_json::{json, Value};
use support::{ok, Server, HOUR, START};

/// Asserts a clear 4xx JSON error and returns its code.
#[track_caller]
fn bad(r: std::io::Result<Reply>, what: &str) -> String {
    let r = r.unwrap_or_else(|e| panic!("{what}: no reply: {e}"));
    assert!((400..500).contains(&r.status), "{what}: HTTP {} {}", r.status, r.body);
    let j = r.json();
    let (e, m) = (j["error"].as_str(), j["message"].as_str());
    assert!(
        e.is_some_and(|e| !e.is_empty()) && m.is_some_and(|m| !m.is_empty()),
        "{what}: not a JSON error: {:?}",
        r.body
    );
    assert!(j.as_object().unwrap().len() == 2, "{what}: {}", r.body);
    assert!(r.header("content-type").is_some_and(|c| c.starts_with("application/json")), "{what}: {:?}", r.headers);
    e.unwrap().to_string()
}

const JUNK: [&str; 10] = [
    "\u{202E}ьтесолоГ",
    "Аня\u{200B}",
    "\u{200D}\u{200C}\u{FEFF}",
    "😀🦊🐺",
    "А\u{0}ня",
    "\u{0}",
    "\u{7}\u{1b}[31m",
    "\u{301}\u{301}\u{301}",
    "\u{FFFF}\u{10FFFF}",
    "   ",
];

/// A running 6-player game.
struct World {
    server: Server,
    host: Client,
    player: Client,
    id: i64,
    lobby_invite: String,
}

fn world() -> World {
    let server = Server::start();
    let mut host = server.user("Ведущий игры");
    let g = ok(&host.post("/api/games", json!({"title": "Ввод", "slots": 6, "setup": "werewolf,seer"})).unwrap());
    let (id, invite) = (g["id"].as_i64().unwrap(), g["invite"].as_str().unwrap().to_string());
    let mut players = server.join_all(&invite, &["Аня", "Боря", "Вика", "Гоша", "Даша", "Егор"]);
    let g2 = ok(&host.post("/api/games", json!({"title": "Лобби", "slots": 5})).unwrap());
    server.clock.set(START);
    ok(&host.post(&format!("/api/games/{id}/start"), json!({})).unwrap());
    server.clock.set(START + 10 * HOUR);
    World { player: players.remove(0), server, host, id, lobby_invite: g2["invite"].as_str().unwrap().to_string() }
}

/// Every POST endpoint (as the caller who may use it).
fn post_paths(w: &World) -> Vec<(String, bool)> {
    let b = format!("/api/games/{}", w.id);
    let mut v = vec![
        ("/api/signup".to_string(), false),
        ("/api/login".to_string(), false),
        ("/api/games".to_string(), true),
        (format!("/api/invites/{}/join", w.lobby_invite), false),
        (format!("{b}/orders"), false),
    ];
    for a in ["answer", "penalty", "remove", "fix", "extend"] {
        v.push((format!("{b}/host/{a}"), true));
    }
    v
}

fn malformed_bodies_get_400_json_everywhere() {
    let mut w = world();
    let big = format!("{{\"name\":\"{}\",\"act\":\"vote\",\"title\":\"x\",\"slots\":5}}", "я".repeat(100_000));
    let bodies: Vec<(&str, Vec<u8>)> = vec![
        ("application/json", b"not json".to_vec()),
        ("application/json", b"{".to_vec()),
        ("application/json", b"{\"a\":1,}".to_vec()),
        ("application/json", b"null".to_vec()),
        ("application/json", b"[]".to_vec()),
        ("application/json", b"\"text\"".to_vec()),
        ("application/json", b"12345678901234567890123456789".to_vec()),
        ("application/json", vec![0xff, 0xfe, 0x00, 0x7b]),
        ("application/json", b"{\"a\":\"\\ud800\"}".to_vec()),
        ("application/json", big.clone().into_bytes()),
        ("application/json", vec![b' '; 200_000]),
        ("text/plain", "{\"act\":\"vote\",\"target\":\"Аня\"}".as_bytes().to_vec()),
        ("application/x-www-form-urlencoded", b"act=vote&target=x".to_vec()),
        ("multipart/form-data; boundary=x", b"--x\r\n\r\n--x--".to_vec()),
    ];
    for (path, as_host) in post_paths(&w) {
        for (ct, body) in &bodies {
            let c = if as_host { &mut w.host } else { &mut w.player };
            let what = format!(
                "POST {path} ({ct}, {} bytes: {:?})",
                body.len(),
                String::from_utf8_lossy(&body[..body.len().min(30)])
            );
            bad(c.raw("POST", &path, ct, body), &what);
        }
    }
    // start and logout take no body: a junk one changes nothing and is no 500.
    let r = w.host.raw("POST", &format!("/api/games/{}/start", w.id), "application/json", big.as_bytes()).unwrap();
    assert!(r.status < 500, "{}", r.body);
    let r = w.host.raw("POST", "/api/logout", "application/json", big.as_bytes()).unwrap();
    assert!(r.status < 500, "{}", r.body);
    let mut w2 = world();
    assert_eq!(w2.player.get("/api/me").unwrap().status, 200);
    let _ = &mut w2;
}

fn wrong_types_missing_and_unknown_fields() {
    let mut w = world();
    let b = format!("/api/games/{}", w.id);
    let cases: Vec<(String, bool, Value)> = vec![
        ("/api/signup".into(), false, json!({"name": 5, "password": "пароль-для-теста"})),
        ("/api/signup".into(), false, json!({"name": "Новый"})),
        ("/api/signup".into(), false, json!({"password": "пароль-для-теста"})),
        ("/api/signup".into(), false, json!({"name": ["a"], "password": {"x": 1}})),
        ("/api/signup".into(), false, json!({"name": "Новый", "password": null})),
        ("/api/login".into(), false, json!({"name": "Аня", "password": 12345678})),
        ("/api/login".into(), false, json!({})),
        ("/api/games".into(), true, json!({})),
        ("/api/games".into(), true, json!({"title": "Т"})),
        ("/api/games".into(), true, json!({"slots": 6})),
        ("/api/games".into(), true, json!({"title": 7, "slots": 6})),
        ("/api/games".into(), true, json!({"title": "Т", "slots": "шесть"})),
        ("/api/games".into(), true, json!({"title": "Т", "slots": 6.5})),
        ("/api/games".into(), true, json!({"title": "Т", "slots": -6})),
        ("/api/games".into(), true, json!({"title": "Т", "slots": 6, "admin": true})),
        ("/api/games".into(), true, json!({"title": "Т", "slots": 6, "schedule": {"tz": "Europe/Moscow", "x": 1}})),
        ("/api/games".into(), true, json!({"title": "Т", "slots": 6, "schedule": "22:00"})),
        ("/api/games".into(), true, json!({"title": "Т", "slots": 6, "deck": "trap"})),
        ("/api/games".into(), true, json!({"title": "Т", "slots": 6, "shuffle": "yes"})),
        ("/api/games".into(), true, json!({"title": "Т", "slots": 6, "rules": {"tie": "coin"}})),
        ("/api/games".into(), true, json!({"title": "Т", "slots": 6, "setup": 5})),
        (format!("/api/invites/{}/join", w.lobby_invite), false, json!({"name": 5})),
        (format!("/api/invites/{}/join", w.lobby_invite), false, json!({"seat": 1})),
        (format!("/api/invites/{}/join", w.lobby_invite), false, json!({"name": "Х", "request_id": 5})),
        (format!("{b}/orders"), false, json!({})),
        (format!("{b}/orders"), false, json!({"target": "Боря"})),
        (format!("{b}/orders"), false, json!({"act": 1, "target": "Боря"})),
        (format!("{b}/orders"), false, json!({"act": "vote", "target": 2})),
        (format!("{b}/orders"), false, json!({"act": "vote", "target": ["Боря"]})),
        (format!("{b}/orders"), false, json!({"act": "vote", "targets": "Боря"})),
        (format!("{b}/orders"), false, json!({"act": "vote", "targets": ["Боря", "Вика", "Гоша"]})),
        (format!("{b}/orders"), false, json!({"act": "vote", "target": "Боря", "day": "1"})),
        (format!("{b}/orders"), false, json!({"act": "vote", "target": "Боря", "day": -1})),
        (format!("{b}/orders"), false, json!({"act": "vote", "target": "Боря", "at": "12:00"})),
        (format!("{b}/orders"), false, json!({"act": "vote", "target": "Боря", "answer": true})),
        (format!("{b}/orders"), false, json!({"act": "vote", "target": "Боря", "reason": "x"})),
        (format!("{b}/orders"), false, json!({"act": "vote", "target": "Боря", "request_id": ""})),
        (format!("{b}/orders"), false, json!({"act": "vote", "target": "Боря", "request_id": "x".repeat(101)})),
        (format!("{b}/orders"), false, json!({"act": "vote", "target": "Боря", "request_id": "a\u{0}b"})),
        (format!("{b}/orders"), false, json!({"act": "a".repeat(41)})),
        (format!("{b}/orders"), false, json!({"act": "ask", "text": "т".repeat(501)})),
        (format!("{b}/orders"), false, json!({"act": "vote", "target": "Б".repeat(81)})),
        (format!("{b}/orders"), false, json!({"act": "vote", "target": "Боря", "bogus": 1})),
        (format!("{b}/host/answer"), true, json!({})),
        (format!("{b}/host/answer"), true, json!({"answer": "да"})),
        (format!("{b}/host/answer"), true, json!({"answer": 1})),
        (format!("{b}/host/answer"), true, json!({"answer": true, "extra": 1})),
        (format!("{b}/host/penalty"), true, json!({})),
        (format!("{b}/host/penalty"), true, json!({"target": 5})),
        (format!("{b}/host/penalty"), true, json!({"target": "Боря", "reason": "п".repeat(501)})),
        (format!("{b}/host/remove"), true, json!({"target": null})),
        (format!("{b}/host/remove"), true, json!({"target": "Боря", "why": "x"})),
        (format!("{b}/host/fix"), true, json!({})),
        (format!("{b}/host/fix"), true, json!({"event": 5})),
        (format!("{b}/host/fix"), true, json!({"tie_break": "Боря"})),
        (format!("{b}/host/fix"), true, json!({"deal": ["trap"]})),
        (format!("{b}/host/fix"), true, json!({"day": "2", "event": "none"})),
        (format!("{b}/host/fix"), true, json!({"event": "none", "x": 1})),
        (format!("{b}/host/extend"), true, json!({})),
        (format!("{b}/host/extend"), true, json!({"minutes": "30"})),
        (format!("{b}/host/extend"), true, json!({"minutes": -30})),
        (format!("{b}/host/extend"), true, json!({"minutes": 0})),
        (format!("{b}/host/extend"), true, json!({"minutes": 30, "deadline": "2026-12-02T22:00:00+03:00"})),
        (format!("{b}/host/extend"), true, json!({"deadline": "завтра"})),
        (format!("{b}/host/extend"), true, json!({"deadline": 1796248800})),
        (format!("{b}/host/resolve"), true, json!({"now": true})),
        (format!("{b}/host/pause"), true, json!({"request_id": 5})),
        (format!("{b}/host/resume"), true, json!([])),
    ];
    for (path, as_host, body) in cases {
        let c = if as_host { &mut w.host } else { &mut w.player };
        bad(c.post(&path, body.clone()), &format!("POST {path} {body}"));
    }
    // Nothing of it reached the game.
    let g = ok(&w.host.get(&b).unwrap());
    assert!(g["orders"].as_array().unwrap().is_empty(), "{g}");
    assert!(g["history"].as_array().unwrap().is_empty() && g["paused"] == false, "{g}");
}

fn unknown_and_malformed_ids() {
    let mut w = world();
    let ids = [
        "999999",
        "0",
        "-1",
        "abc",
        "1.5",
        "1e3",
        "99999999999999999999999",
        "9223372036854775807",
        "-9223372036854775808",
        "%00",
        "%F0%9F%98%80",
        "%E2%80%AE1",
        "1%20",
        "",
    ];
    for id in ids {
        let b = format!("/api/games/{id}");
        for p in [
            b.clone(),
            format!("{b}/orders"),
            format!("{b}/inbox"),
            format!("{b}/newspapers"),
            format!("{b}/newspapers/1/bulletin"),
            format!("{b}/report"),
            format!("{b}/gamefile"),
            format!("{b}/events"),
        ] {
            let code = bad(w.host.get(&p), &format!("GET {p}"));
            assert!(code == "not_found", "GET {p}: {code}");
        }
        for (p, body) in [
            (format!("{b}/start"), json!({})),
            (format!("{b}/orders"), json!({"act": "vote", "target": "Боря"})),
            (format!("{b}/host/pause"), json!({})),
            (format!("{b}/host/remove"), json!({"target": "Боря"})),
        ] {
            bad(w.host.post(&p, body), &format!("POST {p}"));
        }
    }
    // Invites: unknown, huge, junk.
    let long = "a".repeat(5000);
    for inv in ["nope", "00000000000000000000000", long.as_str(), "%00", "%F0%9F%90%BA", "..%2F..%2Fetc", "%E2%80%8B"] {
        let code = bad(w.player.get(&format!("/api/invites/{inv}")), &format!("invite {inv:.20}"));
        assert_eq!(code, "not_found");
        bad(w.player.post(&format!("/api/invites/{inv}/join"), json!({})), &format!("join {inv:.20}"));
    }
    // Newspapers: day and kind.
    let b = format!("/api/games/{}", w.id);
    for p in [
        "abc/bulletin",
        "-1/bulletin",
        "0/bulletin",
        "4294967296/evening",
        "99999999999999999999/evening",
        "1/nothing",
        "1/%00",
        "1/%F0%9F%98%80",
        "1/final",
        "2/bulletin",
        "1/bulletin/extra",
    ] {
        bad(w.player.get(&format!("{b}/newspapers/{p}")), &format!("newspaper {p}"));
    }
    // Formats and queries.
    for q in [
        "newspapers/1/evening?format=pdf",
        "inbox?format=xml",
        "inbox?format=",
        "inbox?format=%00",
        "inbox?bogus=1",
        "inbox?format=json&format=html",
        "gamefile?format=yaml",
    ] {
        let c = if q.starts_with("gamefile") { &mut w.host } else { &mut w.player };
        bad(c.get(&format!("{b}/{q}")), &format!("GET {q}"));
    }
    // Unknown routes and methods.
    for (m, p) in [
        ("GET", "/api/nothing"),
        ("GET", "/api/games/1/nothing"),
        ("POST", "/api/games/1/host/nothing"),
        ("GET", "/api/games/1/host/pause"),
        ("PUT", "/api/games"),
        ("DELETE", &b),
        ("DELETE", "/api/me"),
        ("PUT", "/api/me"),
        ("GET", "/api/signup"),
    ] {
        let r = w.host.raw(m, p, "application/json", b"{}");
        bad(r, &format!("{m} {p}"));
    }
}

fn unicode_junk_in_names_and_targets() {
    let mut w = world();
    let b = format!("/api/games/{}", w.id);
    for (i, junk) in JUNK.iter().enumerate() {
        if ostrov_engine::skeleton(junk) == ostrov_engine::skeleton("Аня") {
            // A look-alike of a seated name is that name (one skeleton per name): a vote
            // for it is a vote for Аня, not junk.
            let r = w.player.post(&format!("{b}/orders"), json!({"act": "vote", "target": junk})).unwrap();
            assert_eq!(r.status, 200, "a vote for a look-alike of Аня: {}", r.body);
            assert_eq!(r.json()["order"]["by"], json!("Аня"), "{}", r.body);
            continue;
        }
        // Orders naming junk: refused, 4xx.
        for body in [
            json!({"act": "vote", "target": junk}),
            json!({"act": "vote", "targets": [junk, junk]}),
            json!({"act": junk}),
            json!({"act": "vote", "target": "Боря", "by": junk}),
            json!({"act": "authority", "from": junk, "target": junk}),
            json!({"act": "use", "target": "Боря", "item": junk}),
        ] {
            bad(w.player.post(&format!("{b}/orders"), body.clone()), &format!("order {body}"));
        }
        for a in ["penalty", "remove"] {
            bad(w.host.post(&format!("{b}/host/{a}"), json!({"target": junk})), &format!("{a} {junk:?}"));
        }
        for body in [json!({"event": junk}), json!({"chosen": junk}), json!({"deal": {(*junk): "trap"}})] {
            let r = w.host.post(&format!("{b}/host/fix"), body.clone());
            if junk.trim().is_empty() && body.get("event").is_some() {
                // A blank event is read as no event (the engine's word for it).
                assert!(r.unwrap().status < 500);
            } else {
                bad(r, &format!("fix {body}"));
            }
        }
        bad(w.host.post(&format!("{b}/host/extend"), json!({"deadline": junk})), "extend");
        // A player or account name with control or invisible characters (NUL, an RTL
        // override, zero-width ones: "Аня\u{200B}" would pass for "Аня"), or blank, is
        // refused; an accepted one is stored exactly.
        let refused = i != 3 && i != 7;
        let r = w.server.client().post("/api/signup", json!({"name": junk, "password": "пароль-для-теста"}));
        if refused {
            bad(r, &format!("signup as {junk:?}"));
        } else {
            assert_eq!(ok(&r.unwrap())["name"], junk.trim());
        }
        let mut c = w.server.user(&format!("Гость{i}"));
        let r = c.post(&format!("/api/invites/{}/join", w.lobby_invite), json!({"name": junk})).unwrap();
        if refused {
            bad(Ok(r), &format!("join as {junk:?}"));
        } else {
            assert!(r.status == 200 || (400..500).contains(&r.status), "join as {junk:?}: {} {}", r.status, r.body);
        }
        // Game titles are free text (issue 16, point 10): cleaned to one line at the API
        // (no control, bidi or invisible characters, NFC) and stored so; a title that
        // cleans to nothing is refused.
        let r = w.host.post("/api/games", json!({"title": junk, "slots": 5})).unwrap();
        let clean = ostrov_engine::clean_line(junk);
        if clean.trim().is_empty() {
            bad(Ok(r), &format!("title {junk:?}"));
        } else if r.status == 201 {
            let title = r.json()["title"].as_str().unwrap_or_default().to_string();
            assert_eq!(title, clean.trim(), "title {junk:?} is stored cleaned");
            assert!(!title.chars().any(|c| c.is_control()), "title {junk:?}: {title:?}");
        } else {
            assert!((400..500).contains(&r.status), "title {junk:?}: {} {}", r.status, r.body);
        }
        // Login with junk names: a clear 401 (or 400), never a 500.
        let r = w.server.client().post("/api/login", json!({"name": junk, "password": "не-тот-пароль"}));
        bad(r, &format!("login as {junk:?}"));
    }
    let lobby = ok(&w.player.get(&format!("/api/invites/{}", w.lobby_invite)).unwrap());
    assert!(lobby["members"].as_array().unwrap().len() <= 5, "{lobby}");
    // Only the look-alike's vote (for Аня) is an order; no junk is.
    assert_eq!(ok(&w.host.get(&b).unwrap())["orders"].as_array().unwrap().len(), 1);
}

fn huge_numbers() {
    let mut w = world();
    let b = format!("/api/games/{}", w.id);
    for body in [
        r#"{"title":"Т","slots":18446744073709551616}"#,
        r#"{"title":"Т","slots":1e30}"#,
        r#"{"title":"Т","slots":100000}"#,
        r#"{"title":"Т","slots":2}"#,
        r#"{"title":"Т","slots":0}"#,
        r#"{"title":"Т","slots":6,"seed":-1}"#,
        r#"{"title":"Т","slots":6,"seed":1e300}"#,
        r#"{"title":"Т","slots":6,"seed":340282366920938463463374607431768211456}"#,
        r#"{"title":"Т","slots":6,"setup":"werewolf=65536"}"#,
        r#"{"title":"Т","slots":6,"setup":"werewolf=99999999999999999999"}"#,
        r#"{"title":"Т","slots":6,"setup":"werewolf=7"}"#,
        r#"{"title":"Т","slots":6,"rules":{"max_days":-1}}"#,
        r#"{"title":"Т","slots":6,"rules":{"max_days":1e99}}"#,
        r#"{"title":"Т","slots":6,"rules":{"events":{"tsunami":-1}}}"#,
        r#"{"title":"Т","slots":6,"schedule":{"open":"99:99"}}"#,
        r#"{"title":"Т","slots":6,"schedule":{"tz":"Mars/Olympus"}}"#,
        r#"{"title":"Т","slots":6,"schedule":{"midday":"21:00","deadline":"21:00"}}"#,
        r#"{"title":"Т","slots":6,"deck":["nonsense"]}"#,
    ] {
        bad(w.host.raw("POST", "/api/games", "application/json", body.as_bytes()), body);
    }
    // Nesting deep enough to overflow a naive parser.
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    bad(w.host.raw("POST", "/api/games", "application/json", deep.as_bytes()), "deep nesting");
    let deep = format!("{{\"act\":{}1{}}}", "[".repeat(5_000), "]".repeat(5_000));
    bad(w.player.raw("POST", &format!("{b}/orders"), "application/json", deep.as_bytes()), "deep nesting");
    for body in [
        r#"{"act":"vote","target":"Боря","day":4294967296}"#,
        r#"{"act":"vote","target":"Боря","day":99}"#,
        r#"{"act":"vote","target":"Боря","day":0}"#,
        r#"{"act":"vote","target":"Боря","day":1e10}"#,
    ] {
        bad(w.player.raw("POST", &format!("{b}/orders"), "application/json", body.as_bytes()), body);
    }
    for body in [
        r#"{"minutes":4294967296}"#,
        r#"{"minutes":20161}"#,
        r#"{"minutes":1e9}"#,
        r#"{"deadline":"99999-01-01T00:00:00Z"}"#,
        r#"{"deadline":"-9999-01-01T00:00:00Z"}"#,
        r#"{"deadline":"2000-01-01T00:00:00Z"}"#,
    ] {
        bad(w.host.raw("POST", &format!("{b}/host/extend"), "application/json", body.as_bytes()), body);
    }
    for body in
        [r#"{"day":4294967296,"event":"none"}"#, r#"{"day":4294967295,"event":"none"}"#, r#"{"day":0,"event":"none"}"#]
    {
        bad(w.host.raw("POST", &format!("{b}/host/fix"), "application/json", body.as_bytes()), body);
    }
    // The game goes on: a normal order and a normal extension still work.
    ok(&w.player.post(&format!("{b}/orders"), json!({"act": "vote", "target": "Боря"})).unwrap());
    ok(&w.host.post(&format!("{b}/host/extend"), json!({"minutes": 30})).unwrap());
}
