//! Substitutes (issue 30, point 4): the host seats another account in a seat, which keeps
//! its name, role, item, orders, inbox and pack; the one who left becomes a spectator at
//! once, on every channel; the newspaper and the history say «Аню заменяет Новичок»; the
//! exported game file still replays to the same report. And the host's call for one.
//!
//! One player, one account (issue 30, point 5): two seats that come from one browser (or
//! one address) are flagged to the host, with when, and to nobody else; neither the
//! address, nor the browser's id, nor their stored hash is in any answer.

mod support;

support::both_stores!(
    a_substitute_takes_the_seat_and_the_leaver_loses_it_at_once,
    two_seats_from_one_browser_are_flagged_to_the_host_alone
);

use std::io::BufRead;
use std::time::Duration;

use serde_json::{json, Value};
use support::{error, ok, web_post, Server, HOUR as H, START};

/// The `changed` events a live stream sends within `wait`.
fn changes(s: &mut std::io::BufReader<std::net::TcpStream>, wait: Duration) -> usize {
    s.get_ref().set_read_timeout(Some(wait)).unwrap();
    let mut n = 0;
    loop {
        let mut l = String::new();
        match s.read_line(&mut l) {
            Ok(0) | Err(_) => return n,
            Ok(_) if l.starts_with("event: changed") || l.starts_with("event:changed") => n += 1,
            Ok(_) => {}
        }
    }
}

fn history(v: &Value) -> Vec<String> {
    v["history"].as_array().unwrap().iter().map(|h| h["text"].as_str().unwrap().to_string()).collect()
}

fn a_substitute_takes_the_seat_and_the_leaver_loses_it_at_once() {
    let server = Server::start();
    let clock = server.clock.clone();
    let mut host = server.user("Хозяйка");
    let g = ok(&host
        .post(
            "/api/games",
            json!({"title": "Замены", "slots": 6, "setup": "werewolf=2,seer", "seed": 11,
                   "rules": {"events": support::no_events()}}),
        )
        .unwrap());
    let (id, invite) = (g["id"].as_i64().unwrap(), g["invite"].as_str().unwrap().to_string());
    let names = ["Вика", "Боря", "Аня", "Гоша", "Даша", "Егор"];
    let a = 2; // Аня
    let mut p = server.join_all(&invite, &names);
    let base = format!("/api/games/{id}");
    let mut newbie = server.user("Новичок");
    let mut spare = server.user("Запасной");
    let mut outsider = server.user("Зевака");

    // Only a running game takes a substitute.
    let r = host.post(&format!("{base}/host/replace"), json!({"seat": "Аня", "user": "Новичок"})).unwrap();
    assert_eq!(error(&r), (409, "not_started".into()), "{}", r.body);
    clock.set(START);
    ok(&host.post(&format!("{base}/start"), json!({})).unwrap());
    let roles = support::roles(&ok(&host.get(&base).unwrap()));
    let role = |n: &str| roles.iter().find(|(name, _)| name == n).unwrap().1.clone();
    assert_eq!(role("Аня"), "werewolf", "the seed deals Аня a werewolf: {roles:?}");
    let wolf2 = roles.iter().find(|(n, r)| r == "werewolf" && n != "Аня").unwrap().0.clone();
    let w2 = names.iter().position(|n| *n == wolf2).unwrap();
    assert_ne!(role("Боря"), "werewolf", "{roles:?}");

    // Аня's day: a post in the pack's chat, a vote in force.
    assert_eq!(web_post(&mut p[a], id, "pack", "Аня в стае: трогаем Вику?").status, 303);
    ok(&p[a].post(&format!("{base}/orders"), json!({"act": "vote", "target": "Вика"})).unwrap());

    // The host's call for a substitute: public, on the game page and in the lobby.
    ok(&host.post(&format!("{base}/host/wanted"), json!({"seat": "аня"})).unwrap());
    let v = ok(&outsider.get(&base).unwrap());
    assert_eq!(v["wanted"], json!(["Аня"]), "{v}");
    let page = outsider.get(&format!("/games/{id}")).unwrap().body;
    assert!(page.contains("Ищем замену:</strong> Аня"), "{page}");
    let list = ok(&outsider.get("/api/games").unwrap());
    let listed = list["games"].as_array().or(list.as_array()).unwrap().iter().find(|g| g["id"] == id).cloned();
    assert_eq!(listed.expect("a game seeking a substitute is listed to everyone")["wanted"], json!(["Аня"]));
    let home = outsider.get("/").unwrap().body;
    assert!(home.contains("Ищем замену: Аня"), "{home}");
    let r = host.post(&format!("{base}/host/wanted"), json!({"seat": "Аня"})).unwrap();
    assert_eq!(error(&r), (409, "already_wanted".into()));

    // Only the host; only an account that exists, is not the host and holds no seat.
    let replace = |c: &mut ostrov_server::client::Client, seat: &str, user: &str| {
        c.post(&format!("{base}/host/replace"), json!({"seat": seat, "user": user})).unwrap()
    };
    assert_eq!(replace(&mut p[1], "Аня", "Новичок").status, 403);
    assert_eq!(replace(&mut newbie, "Аня", "Новичок").status, 403);
    let r = replace(&mut host, "Аня", "Никого-такого");
    assert_eq!(error(&r), (422, "no_account".into()));
    assert!(r.json()["message"].as_str().unwrap().contains("Учётной записи «Никого-такого» нет"), "{}", r.body);
    assert_eq!(error(&replace(&mut host, "Аня", "Хозяйка")), (409, "host_cannot_play".into()));
    let r = replace(&mut host, "Аня", "Боря");
    assert_eq!(error(&r), (409, "already_joined".into()));
    assert!(r.json()["message"].as_str().unwrap().contains("уже играет в этой игре за «Боря»"), "{}", r.body);
    let r = replace(&mut host, "Незнакомка", "Новичок");
    assert_eq!(error(&r), (409, "no_seat".into()));
    assert!(r.json()["message"].as_str().unwrap().contains("В игре нет игрока «Незнакомка»"), "{}", r.body);
    assert_eq!(host.post(&format!("{base}/host/replace"), json!({"seat": "Аня"})).unwrap().status, 400);

    // The leaver's live stream, open before the replacement.
    let mut leaver_stream = support::live(&p[a], id);
    assert_eq!(changes(&mut leaver_stream, Duration::from_millis(300)), 0);

    let g = ok(&replace(&mut host, "аня", "Новичок"));
    assert!(g["game"]["wanted"].is_null(), "the call is withdrawn when the seat is filled: {}", g["game"]);
    assert!(history(&g["game"]).contains(&"Аню заменяет Новичок.".to_string()), "{}", g["game"]);
    assert_eq!(error(&replace(&mut host, "Боря", "Новичок")), (409, "already_joined".into()));

    // The substitute holds the seat: its name, role, orders in force, inbox and pack.
    let v = ok(&newbie.get(&base).unwrap());
    assert_eq!(v["viewer"], "player");
    assert_eq!(v["you"]["name"], "Аня");
    assert_eq!(v["you"]["role"]["id"], "werewolf");
    assert_eq!(v["you"]["pack"], json!(["Аня", wolf2.clone()]), "{v}");
    assert!(v["you"]["orders"].to_string().contains("Вика"), "the seat's vote stays in force: {v}");
    assert_eq!(newbie.get(&format!("{base}/inbox")).unwrap().status, 200);
    let page = newbie.get(&format!("/games/{id}")).unwrap().body;
    assert!(page.contains("Аня в стае: трогаем Вику?"), "the substitute reads the pack's chat");
    ok(&newbie.post(&format!("{base}/orders"), json!({"act": "vote", "target": "Гоша"})).unwrap());

    // The leaver is a spectator at once: no seat, no orders, no pack, no private pages.
    let v = ok(&p[a].get(&base).unwrap());
    assert_eq!(v["viewer"], "outsider");
    assert!(v["you"].is_null());
    assert!(v["players"].as_array().unwrap().iter().filter(|q| q["name"] != "Аня").all(|q| q["role"].is_null()));
    let r = p[a].post(&format!("{base}/orders"), json!({"act": "vote", "target": "Боря"})).unwrap();
    assert_eq!(error(&r), (409, "replaced".into()));
    let msg = r.json()["message"].as_str().unwrap().to_string();
    assert!(msg.contains("ведущий заменил вас") && msg.contains("«Аня»") && msg.contains("Новичок"), "{msg}");
    assert_eq!(p[a].get(&format!("{base}/inbox")).unwrap().status, 403);
    assert_eq!(web_post(&mut p[a], id, "pack", "я ещё тут").status, 403);
    let page = p[a].get(&format!("/games/{id}")).unwrap().body;
    assert!(!page.contains("Аня в стае"), "the leaver's page has no pack chat");
    assert!(!page.contains("Личные сообщения"), "the leaver's page has no private messages");
    // The stream told of the replacement (public), then nothing of the seat's or pack's.
    assert_eq!(changes(&mut leaver_stream, Duration::from_millis(500)), 1);
    assert_eq!(web_post(&mut newbie, id, "pack", "Новичок в стае").status, 303);
    ok(&newbie.post(&format!("{base}/orders"), json!({"act": "vote", "target": "Даша"})).unwrap());
    assert_eq!(changes(&mut leaver_stream, Duration::from_millis(700)), 0, "no private change reaches the leaver");
    let pack = ok(&p[w2].get(&base).unwrap());
    assert_eq!(pack["you"]["pack"], json!(["Аня", wolf2.clone()]), "the pack still counts the seat: {pack}");

    // A male seat too; the host resolves the day; the evening newspaper says so.
    ok(&replace(&mut host, "Боря", "Запасной"));
    assert_eq!(ok(&spare.get(&base).unwrap())["you"]["name"], "Боря");
    clock.set(START + 12 * H);
    ok(&host.post(&format!("{base}/host/resolve"), json!({})).unwrap());
    let plain = outsider.get(&format!("{base}/newspapers/1/evening?format=plain")).unwrap().body;
    assert!(plain.contains("Аню заменяет Новичок"), "{plain}");
    assert!(plain.contains("Борю заменяет Запасной"), "{plain}");
    let bb = outsider.get(&format!("{base}/newspapers/1/evening?format=bbcode")).unwrap().body;
    assert!(bb.contains("[b]Аню[/b] заменяет Новичок"), "{bb}");
    let md = outsider.get(&format!("{base}/newspapers/1/evening?format=markdown")).unwrap().body;
    assert!(md.contains("**Борю** заменяет Запасной"), "{md}");
    let html = outsider.get(&format!("/games/{id}/papers/1/evening")).unwrap().body;
    assert!(html.contains("<b>Аню</b> заменяет Новичок"), "{html}");
    let bulletin = outsider.get(&format!("{base}/newspapers/1/bulletin?format=plain")).unwrap().body;
    assert!(!bulletin.contains("заменяет"), "{bulletin}");
    let v = ok(&outsider.get(&base).unwrap());
    assert!(history(&v).contains(&"Борю заменяет Запасной.".to_string()), "{v}");

    // The exported game file replays to the same report: the engine does not care who
    // plays a seat.
    let report = host.get(&format!("{base}/report")).unwrap();
    assert_eq!(report.status, 200);
    let file = host.get(&format!("{base}/gamefile")).unwrap();
    let game = ostrov_engine::Game::parse(&file.body).expect("the exported game file is valid");
    let replayed = ostrov_engine::resolve(&game).expect("it resolves");
    assert_eq!(replayed.to_json(), report.body, "the exported file replays into the server's report");
    let log = ok(&host.get(&format!("{base}/events")).unwrap());
    assert!(log.as_array().unwrap().iter().any(|e| e["kind"] == "replaced" && e["payload"]["seat"] == "Аня"));

    // A restart folds the same seats from the log.
    let mut server = server;
    server.restart();
    for c in [&mut newbie, &mut p[a], &mut outsider] {
        c.addr = server.addr;
    }
    assert_eq!(ok(&newbie.get(&base).unwrap())["you"]["name"], "Аня");
    assert_eq!(ok(&p[a].get(&base).unwrap())["viewer"], "outsider");
    let again = outsider.get(&format!("{base}/newspapers/1/evening?format=plain")).unwrap().body;
    assert_eq!(again, plain, "the published newspaper is the same after a restart");
}

/// The browser id a client's cookies carry.
fn browser_of(c: &ostrov_server::client::Client) -> String {
    let jar = c.cookie.clone().unwrap_or_default();
    let id = jar.split("; ").find_map(|kv| kv.strip_prefix("ostrov_browser=")).map(str::to_string);
    id.expect("a page sets the browser cookie")
}

fn two_seats_from_one_browser_are_flagged_to_the_host_alone() {
    let server = Server::start();
    let clock = server.clock.clone();
    let mut bodies: Vec<String> = Vec::new();
    let mut host = server.user("Ведущая");
    let g = ok(&host.post("/api/games", json!({"title": "Один браузер", "slots": 5, "seed": 3})).unwrap());
    let (id, invite) = (g["id"].as_i64().unwrap(), g["invite"].as_str().unwrap().to_string());
    let mut p = server.join_all(&invite, &["Аня", "Боря", "Вика", "Гоша", "Даша"]);
    let base = format!("/api/games/{id}");

    // The first page a browser opens gives it its id: HttpOnly, SameSite=Lax, long-lived.
    let first = p[0].get(&format!("/games/{id}")).unwrap();
    let set = first.headers.iter().filter(|(k, _)| k == "set-cookie").map(|(_, v)| v.clone()).collect::<Vec<_>>();
    let b = set.iter().find(|c| c.starts_with("ostrov_browser=")).expect("a browser cookie").clone();
    assert!(b.contains("HttpOnly") && b.contains("SameSite=Lax") && b.contains("Max-Age=34560000"), "{b}");
    let shared_browser = browser_of(&p[0]);
    // Боря plays from Аня's browser; the others from their own.
    let jar = p[1].cookie.clone().unwrap();
    p[1].cookie = Some(format!("{jar}; ostrov_browser={shared_browser}"));
    for c in p.iter_mut().skip(2) {
        bodies.push(c.get(&format!("/games/{id}")).unwrap().body);
    }
    let browsers: Vec<String> = p.iter().map(browser_of).collect();
    assert_eq!(browsers[1], browsers[0]);
    assert!(browsers[2..].iter().all(|b| *b != browsers[0]), "{browsers:?}");

    // Nothing is noted in the lobby: only while the game runs.
    bodies.push(p[1].get(&format!("/games/{id}")).unwrap().body);
    clock.set(START + 2 * H + 21 * 60);
    ok(&host.post(&format!("{base}/start"), json!({})).unwrap());
    let v = ok(&host.get(&base).unwrap());
    assert_eq!(v["shared_access"], json!([]), "{v}");

    // Each comes to the running game: a page, the API, an order.
    for (i, c) in p.iter_mut().enumerate() {
        clock.set(START + 2 * H + 21 * 60 + i as i64 * 60);
        bodies.push(c.get(&format!("/games/{id}")).unwrap().body);
        bodies.push(c.get(&base).unwrap().body);
    }
    // The sightings are written apart from the requests; the host's reading waits for those
    // under way, so it holds every visit answered before it.
    let v = ok(&host.get(&base).unwrap());
    bodies.push(v.to_string());
    let warnings = v["shared_access"].as_array().unwrap().clone();
    let browser: Vec<&Value> = warnings.iter().filter(|w| w["kind"] == "browser").collect();
    assert_eq!(browser.len(), 1, "only Аня and Боря share a browser: {warnings:?}");
    assert_eq!(browser[0]["seats"], json!(["Аня", "Боря"]));
    assert_eq!(browser[0]["text"], "Аня и Боря заходили из одного браузера (2 декабря, 00:22)");
    assert!(browser[0]["since"].as_str().unwrap().starts_with("2026-12-02T00:22:00"), "{}", browser[0]);
    // Every test client comes from 127.0.0.1: one address for all of them.
    assert!(
        warnings
            .iter()
            .any(|w| w["kind"] == "address" && w["text"] == "Аня и Боря заходили с одного адреса (2 декабря, 00:22)"),
        "{warnings:?}"
    );
    let page = host.get(&format!("/games/{id}")).unwrap().body;
    assert!(page.contains("Аня и Боря заходили из одного браузера (2 декабря, 00:22)"), "{page}");
    bodies.push(page);

    // Nobody else learns anything of it: not the players, not a spectator.
    let mut outsider = server.user("Зевака");
    for c in p.iter_mut().chain(std::iter::once(&mut outsider)) {
        let v = c.get(&base).unwrap().body;
        assert!(!v.contains("shared_access") && !v.contains("заходили"), "{v}");
        let page = c.get(&format!("/games/{id}")).unwrap().body;
        assert!(!page.contains("заходили") && !page.contains("Один игрок — одна учётная запись"), "{page}");
        bodies.push(v);
        bodies.push(page);
        bodies.push(c.get(&format!("{base}/events")).unwrap().body);
        bodies.push(c.get("/api/games").unwrap().body);
    }
    for path in ["/events", "/report", "/gamefile", "/orders", "/newspapers"] {
        bodies.push(host.get(&format!("{base}{path}")).unwrap().body);
    }

    // Neither an address, nor a browser's id, nor a stored hash is in any answer.
    let mut secrets: Vec<String> = browsers.clone();
    secrets.push("127.0.0.1".into());
    if !server.db.starts_with("postgres") {
        let db = rusqlite::Connection::open(&server.db).unwrap();
        let mut q = db.prepare("SELECT key FROM sightings").unwrap();
        let keys: Vec<String> = q.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect();
        assert!(keys.len() >= 6, "{keys:?}");
        assert!(keys.iter().all(|k| k.len() == 32 && !browsers.contains(k)), "only hashes are kept: {keys:?}");
        let all: String = db
            .prepare("SELECT group_concat(key || kind, ' ') FROM sightings")
            .unwrap()
            .query_row([], |r| r.get(0))
            .unwrap();
        assert!(!all.contains("127.0.0.1") && !browsers.iter().any(|b| all.contains(b.as_str())));
        secrets.extend(keys);
    }
    for body in &bodies {
        for s in &secrets {
            assert!(!body.contains(s.as_str()), "{s} in an answer: {body}");
        }
    }

    // The host replaces Боря from the page's form, which asks for a confirmation on a page
    // of its own (without JavaScript too); the warnings follow the accounts that hold the
    // seats now.
    let _newbie = server.user("Сменщик");
    let page = host.get(&format!("/games/{id}")).unwrap().body;
    assert!(page.contains("Замена игрока") && page.contains("Заменить игрока"), "{page}");
    let at = page.find("name=\"csrf\" value=\"").unwrap() + 19;
    let csrf = page[at..].split('"').next().unwrap().to_string();
    let enc = |s: &str| s.bytes().map(|b| format!("%{b:02X}")).collect::<String>();
    let form =
        |confirm: &str| format!("csrf={csrf}&action=replace&target={}&user={}{confirm}", enc("Боря"), enc("Сменщик"));
    let ct = "application/x-www-form-urlencoded";
    let r = host.raw("POST", &format!("/games/{id}/host"), ct, form("").as_bytes()).unwrap();
    assert_eq!(r.status, 200);
    assert!(
        r.body.contains("Место «Боря» займёт Сменщик: заменить игрока?") && r.body.contains("Да, заменить"),
        "{}",
        r.body
    );
    assert_eq!(ok(&p[1].get(&base).unwrap())["you"]["name"], "Боря", "nothing changed unconfirmed");
    let r = host.raw("POST", &format!("/games/{id}/host"), ct, form("&confirm=1").as_bytes()).unwrap();
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(ok(&p[1].get(&base).unwrap())["viewer"], "outsider");
    let v = ok(&host.get(&base).unwrap());
    assert!(history(&v).contains(&"Борю заменяет Сменщик.".to_string()), "{v}");
    let warnings = v["shared_access"].as_array().unwrap();
    assert!(
        warnings.iter().all(|w| w["seats"] != json!(["Аня", "Боря"])),
        "the leaver's visits are not the seat's: {warnings:?}"
    );
}
