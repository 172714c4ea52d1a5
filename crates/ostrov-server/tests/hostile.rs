//! The hostile round (issue 28) over HTTP, one test per point fixed here:
//! - point 3: the dead read the pack's chat but do not post in it (O-THREAD-4);
//! - point 6: the profile's forms 2–6 are forms of the player's own name, and forms that
//!   are or look like another seat's name or forms are dropped at the start (she is told);
//! - point 7: a seat may not take the host's account name or a look-alike of it;
//! - point 8: a private game is listed, shown, streamed and published to its host and
//!   players only (404 to anyone else, as for no game), its newspapers also by a keyed link;
//! - point 9: a finished game's discussion takes no post, from anyone (409, in Russian);
//! - point 10: every per-user answer, API and page, carries `Cache-Control: no-store`;
//! - point 15: a password change checks the old one (under the login limits) and ends every
//!   other session of the account, as "end the other sessions" does, in the API and on
//!   the profile page;
//! - point 11: posts come at a pace per account, tighter for spectators and new accounts
//!   (429 in Russian, saying when to post again);
//! - point 13: a silent or half-sent request is closed after the header timeout, a
//!   connection with nothing moving after the idle timeout, a body in dribbles after the
//!   body time (408 in Russian), and one account holds at most
//!   a few live streams (429 in Russian).

mod support;

support::both_stores!(
    the_dead_read_the_pack_but_do_not_post,
    a_finished_game_takes_no_post,
    a_password_change_ends_the_intruders_session,
    the_profile_page_changes_the_password_and_ends_other_sessions,
    name_forms_are_the_players_own_and_never_anothers,
    a_private_game_is_found_by_its_members_only,
);

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use ostrov_server::client::{Client, Reply};
use ostrov_server::ratelimit::{NEW_SPECTATOR_PACE, SPECTATOR_PACE};
use ostrov_server::streams::STREAMS_PER_ACCOUNT;
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
        let roles = support::roles(&v);
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
    assert!(
        thread.body.contains("Привет с того света") && thread.body.contains("только тематический флуд"),
        "{}",
        thread.body
    );
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

const PASSWORD: &str = "пароль-для-теста";

/// A client logged in as `name` with `password`.
fn login(server: &Server, name: &str, password: &str) -> Reply {
    let mut c = server.client();
    let r = c.post("/api/login", json!({"name": name, "password": password})).unwrap();
    if r.status == 200 {
        assert!(c.cookie.is_some());
    }
    r
}

fn logged_in(server: &Server, name: &str, password: &str) -> Client {
    let mut c = server.client();
    ok(&c.post("/api/login", json!({"name": name, "password": password})).unwrap());
    c
}

/// Issue 28, point 15 (API): the owner changes the password; the intruder's session,
/// opened with the old one, is over; the owner's stays; the old password logs in no more.
fn a_password_change_ends_the_intruders_session() {
    let server = Server::start();
    let mut owner = server.user("Владелица");
    let mut intruder = logged_in(&server, "Владелица", PASSWORD);
    let mut laptop = logged_in(&server, "Владелица", PASSWORD);
    let mut other = server.user("Сосед");
    assert_eq!(ok(&intruder.get("/api/me").unwrap())["name"], "Владелица");
    let change =
        |c: &mut Client, old: &str, new: &str| c.post("/api/me/password", json!({"old": old, "new": new})).unwrap();
    // Refusals, in Russian, change nothing.
    owner.csrf = false;
    assert_eq!(error(&change(&mut owner, PASSWORD, "новый-пароль-1")), (403, "csrf".into()));
    owner.csrf = true;
    let r = change(&mut owner, "не тот пароль", "новый-пароль-1");
    assert_eq!(error(&r), (403, "wrong_password".into()), "{}", r.body);
    assert_eq!(r.json()["message"], "Текущий пароль введён неверно.");
    let r = change(&mut owner, PASSWORD, "корот");
    assert_eq!(error(&r), (400, "bad_request".into()));
    assert_eq!(r.json()["message"], "Пароль должен быть не короче 8 символов.");
    let r = change(&mut owner, PASSWORD, &"я".repeat(600));
    assert_eq!(r.json()["message"], "Пароль должен быть не длиннее 1024 байт.");
    let r = owner.post("/api/me/password", json!({"old": PASSWORD})).unwrap();
    assert_eq!(error(&r).0, 400, "{}", r.body);
    assert_eq!(error(&server.client().post("/api/me/password", json!({"old": PASSWORD, "new": "x"})).unwrap()).0, 401);
    assert_eq!(ok(&intruder.get("/api/me").unwrap())["name"], "Владелица", "nothing changed yet");

    let done = ok(&change(&mut owner, PASSWORD, "новый-пароль-1"));
    assert_eq!(done, json!({"ok": true, "ended": 2}));
    assert_eq!(error(&intruder.get("/api/me").unwrap()), (401, "unauthorized".into()), "the intruder is out");
    assert_eq!(error(&laptop.get("/api/me").unwrap()).0, 401);
    assert_eq!(ok(&owner.get("/api/me").unwrap())["name"], "Владелица", "the owner's session stays");
    assert_eq!(ok(&other.get("/api/me").unwrap())["name"], "Сосед", "another account is untouched");
    assert_eq!(error(&login(&server, "Владелица", PASSWORD)), (401, "bad_credentials".into()));
    let mut phone = logged_in(&server, "Владелица", "новый-пароль-1");

    // "End the other sessions": the phone is out, the owner stays.
    owner.csrf = false;
    assert_eq!(error(&owner.post("/api/me/sessions/end-others", json!({})).unwrap()), (403, "csrf".into()));
    owner.csrf = true;
    assert_eq!(ok(&owner.post("/api/me/sessions/end-others", json!({})).unwrap()), json!({"ok": true, "ended": 1}));
    assert_eq!(error(&phone.get("/api/me").unwrap()).0, 401);
    assert_eq!(ok(&owner.get("/api/me").unwrap())["name"], "Владелица");

    // The old password is checked under the login limits: after the free failures (one
    // was made above), guessing it through a stolen session waits like a login.
    let mut waited = None;
    for i in 0..8 {
        let r = change(&mut owner, &format!("догадка-{i}"), "новый-пароль-2");
        if r.status == 429 {
            waited = Some(i);
            assert!(r.header("retry-after").is_some());
            assert!(r.json()["message"].as_str().unwrap().starts_with("Слишком много неудачных попыток"), "{}", r.body);
            break;
        }
        assert_eq!(error(&r), (403, "wrong_password".into()));
    }
    assert!(waited.is_some(), "the guesses never waited");
    assert_eq!(error(&login(&server, "Владелица", "новый-пароль-1")).0, 429, "the same limit as a login");
}

/// A form post from the page at `from` (its CSRF token read from it) to `action`.
fn form(c: &mut Client, from: &str, action: &str, fields: &[(&str, &str)]) -> Reply {
    let page = c.get(from).unwrap().body;
    let at = page.find("name=\"csrf\" value=\"").unwrap() + 19;
    let token = page[at..].split('"').next().unwrap().to_string();
    let enc = |s: &str| s.bytes().map(|b| format!("%{b:02X}")).collect::<String>();
    let mut body = format!("csrf={token}");
    for (k, v) in fields {
        body.push_str(&format!("&{k}={}", enc(v)));
    }
    c.raw("POST", action, "application/x-www-form-urlencoded", body.as_bytes()).unwrap()
}

/// Issue 28, point 15 (the profile page): the same, from the page's two forms.
fn the_profile_page_changes_the_password_and_ends_other_sessions() {
    let server = Server::start();
    let mut owner = server.user("Хозяин");
    let mut intruder = logged_in(&server, "Хозяин", PASSWORD);
    let page = owner.get("/profile").unwrap();
    assert!(page.body.contains("action=\"/profile/password\"") && page.body.contains("Завершить другие сеансы"));
    // Without the form's token: refused before anything is read.
    let r = owner
        .raw("POST", "/profile/password", "application/x-www-form-urlencoded", b"csrf=x&old=a&new=bbbbbbbbbb")
        .unwrap();
    assert_eq!(r.status, 403);
    let r = form(&mut owner, "/profile", "/profile/password", &[("old", "не тот"), ("new", "новый-пароль-1")]);
    assert_eq!(r.status, 422);
    assert!(
        r.body.contains("<span class=\"error\" id=\"old-error\">Текущий пароль введён неверно.</span>"),
        "{}",
        r.body
    );
    let r = form(&mut owner, "/profile", "/profile/password", &[("old", PASSWORD), ("new", "коротко")]);
    assert!(r.body.contains("id=\"new-error\">Пароль должен быть не короче 8 символов."), "{}", r.body);
    assert_eq!(ok(&intruder.get("/api/me").unwrap())["name"], "Хозяин");
    let r = form(&mut owner, "/profile", "/profile/password", &[("old", PASSWORD), ("new", "новый-пароль-1")]);
    assert_eq!((r.status, r.header("location")), (303, Some("/profile?password=1")), "{}", r.body);
    assert!(owner.get("/profile?password=1").unwrap().body.contains("Пароль изменён; завершено других сеансов: 1."));
    assert_eq!(error(&intruder.get("/api/me").unwrap()).0, 401, "the intruder is out");
    assert_eq!(intruder.get("/profile").unwrap().status, 303, "and sent to log in");

    let mut tablet = logged_in(&server, "Хозяин", "новый-пароль-1");
    let r = form(&mut owner, "/profile", "/profile/sessions", &[]);
    assert_eq!((r.status, r.header("location")), (303, Some("/profile?ended=1")));
    assert!(owner.get("/profile?ended=1").unwrap().body.contains("Завершено других сеансов: 1."));
    assert_eq!(error(&tablet.get("/api/me").unwrap()).0, 401);
    assert_eq!(ok(&owner.get("/api/me").unwrap())["name"], "Хозяин");
}

/// Issue 28, point 6: forms 2–6 are refused unless they are forms of the name (the
/// engine's `is_form_of`: Лёва/Льва, Павел/Павла …); at the start, Вика's forms are
/// dropped, all six, because «Вики» looks like the seat «Bики» (a Latin B): the paper
/// declines her by the engine's table, and she is told on her page and in the API.
fn name_forms_are_the_players_own_and_never_anothers() {
    let server = Server::start();
    let mut host = server.user("Хозяйка");
    let g = ok(&host
        .post("/api/games", json!({"title": "Формы", "slots": 5, "seed": 3u64, "rules": {"events": no_events()}}))
        .unwrap());
    let (id, invite) = (g["id"].as_i64().unwrap(), g["invite"].as_str().unwrap().to_string());
    let forms = |f: [&str; 6]| json!({"forms": f});
    let mut vika = server.user("Вика");
    let r = vika.call("PATCH", "/api/me", Some(&forms(["Вика", "Бори", "Боре", "Борю", "Борей", "Боре"]))).unwrap();
    assert_eq!(error(&r), (400, "bad_request".into()), "{}", r.body);
    assert_eq!(
        r.json()["message"],
        "Форма 2 (родительный падеж) «Бори» — не форма имени «Вика»: формы сохраняют согласные имени \
         (Лёва — Льва, Павел — Павла, Любовь — Любовью)."
    );
    assert_eq!(ok(&vika.get("/api/me").unwrap())["forms"], serde_json::Value::Null, "nothing stored");
    // Real declensions pass: fleeting vowels, soft signs.
    for (name, f) in [
        ("Лёва", ["Лёва", "Льва", "Льву", "Льва", "Львом", "Льве"]),
        ("Павел", ["Павел", "Павла", "Павлу", "Павла", "Павлом", "Павле"]),
        ("Любовь", ["Любовь", "Любови", "Любови", "Любовь", "Любовью", "Любови"]),
        ("Илья", ["Илья", "Ильи", "Илье", "Илью", "Ильёй", "Илье"]),
    ] {
        let mut c = server.user(name);
        ok(&c.call("PATCH", "/api/me", Some(&forms(f))).unwrap());
        if name == "Лёва" {
            ok(&c.post(&format!("/api/invites/{invite}/join"), json!({})).unwrap());
        }
    }
    ok(&vika.call("PATCH", "/api/me", Some(&forms(["Вика", "Вики", "Вике", "Вику", "Викой", "Вике"]))).unwrap());
    ok(&vika.post(&format!("/api/invites/{invite}/join"), json!({})).unwrap());
    let _others = server.join_all(&invite, &["Bики", "Гоша"]);
    server.clock.set(START);
    ok(&host.post(&format!("/api/games/{id}/start"), json!({})).unwrap());

    let file = host.get(&format!("/api/games/{id}/gamefile")).unwrap().body;
    assert!(file.contains("forms = [\"Лёва\", \"Льва\", \"Льву\", \"Льва\", \"Львом\", \"Льве\"]"), "{file}");
    assert!(!file.contains("\"Вики\""), "her forms are dropped: {file}");
    let told = "Формы вашего имени из профиля не взяты в эту игру: «Вики» — имя или форма имени другого участника \
                (или выглядит так же) либо не форма вашего имени. Газеты склоняют ваше имя сами, если знают его, \
                или пишут его в именительном падеже.";
    let v = ok(&vika.get(&format!("/api/games/{id}")).unwrap());
    assert_eq!(v["you"]["forms_dropped"], told);
    assert!(vika.get(&format!("/games/{id}")).unwrap().body.contains(told), "told on her page");
    let others = ok(&host.get(&format!("/api/games/{id}")).unwrap());
    assert!(others.get("you").is_none());
}

/// Issue 28, point 8; O-PRIVATE-1.
fn a_private_game_is_found_by_its_members_only() {
    let server = Server::start();
    let mut host = server.user("Тайная");
    let body = json!({"title": "Тайный остров", "slots": 5, "seed": 5u64, "visibility": "private",
                      "rules": {"events": no_events()}});
    let g = ok(&host.post("/api/games", body).unwrap());
    let (id, invite) = (g["id"].as_i64().unwrap(), g["invite"].as_str().unwrap().to_string());
    assert_eq!(g["visibility"], "private");
    let key = g["paper_key"].as_str().unwrap().to_string();
    assert_eq!(key.len(), 24);
    let open = ok(&host.post("/api/games", json!({"title": "Открытый остров", "slots": 5})).unwrap());
    assert_eq!((open["visibility"].as_str(), open.get("paper_key")), (Some("open"), None));
    let open_id = open["id"].as_i64().unwrap();

    let mut outsider = server.user("Чужой");
    let listed = |c: &mut Client, q: &str| -> Vec<i64> {
        let l = ok(&c.get(&format!("/api/games{q}")).unwrap());
        l["games"].as_array().unwrap().iter().map(|g| g["id"].as_i64().unwrap()).collect()
    };
    assert_eq!(listed(&mut outsider, ""), vec![open_id], "not listed to join");
    assert_eq!(listed(&mut outsider, "?all=true"), vec![open_id], "nor among all games");
    assert!(!outsider.get("/").unwrap().body.contains("Тайный остров"));
    assert_eq!(listed(&mut host, ""), vec![open_id, id]);
    assert!(host.get("/").unwrap().body.contains("Тайный остров"));
    // Joined by the invite.
    let mut players = server.join_all(&invite, &["Аня", "Боря", "Вера"]);
    assert_eq!(listed(&mut players[0], ""), vec![open_id, id]);
    ok(&players[0].get(&format!("/api/invites/{invite}")).unwrap());
    ok(&host.post(&format!("/api/games/{id}/start"), json!({})).unwrap());
    server.clock.set(START + 16 * HOUR); // day 1's 13:00 bulletin is out
    let papers = ok(&players[0].get(&format!("/api/games/{id}/newspapers")).unwrap());
    assert_eq!(papers[0]["url"], format!("/api/games/{id}/newspapers/1/bulletin"));

    // An outsider gets what a game that does not exist gets, on every channel.
    let missing = 424242;
    let gets = |g: i64| {
        vec![
            format!("/api/games/{g}"),
            format!("/api/games/{g}/orders"),
            format!("/api/games/{g}/inbox"),
            format!("/api/games/{g}/newspapers"),
            format!("/api/games/{g}/newspapers/1/bulletin"),
            format!("/api/games/{g}/newspapers/1/bulletin?format=bbcode"),
            format!("/api/games/{g}/report"),
            format!("/api/games/{g}/gamefile"),
            format!("/api/games/{g}/events"),
            format!("/games/{g}"),
            format!("/games/{g}/thread?room=thread"),
            format!("/games/{g}/thread.md"),
            format!("/games/{g}/live"),
            format!("/games/{g}/papers/1/bulletin"),
        ]
    };
    for (mine, none) in gets(id).into_iter().zip(gets(missing)) {
        let (a, b) = (outsider.get(&mine).unwrap(), outsider.get(&none).unwrap());
        assert_eq!((a.status, &a.body), (404, &b.body), "GET {mine}");
    }
    for (path, body) in [
        (format!("/api/games/{id}/orders"), json!({"act": "vote", "target": "Аня"})),
        (format!("/api/games/{id}/host/pause"), json!({})),
        (format!("/api/games/{id}/start"), json!({})),
    ] {
        assert_eq!(error(&outsider.post(&path, body).unwrap()), (404, "not_found".into()), "POST {path}");
    }
    let home = outsider.get("/").unwrap().body;
    let at = home.find("name=\"csrf\" value=\"").unwrap() + 19;
    let token = home[at..].split('"').next().unwrap().to_string();
    let post = format!("csrf={token}&room=thread&text=%D0%AF");
    let r = outsider
        .raw("POST", &format!("/games/{id}/thread"), "application/x-www-form-urlencoded", post.as_bytes())
        .unwrap();
    assert_eq!(r.status, 404, "no spectator post: {}", r.body);
    // Signed out: the newspaper page is 404 without the key, the newspaper with it.
    let mut visitor = server.client();
    let page = format!("/games/{id}/papers/1/bulletin");
    assert_eq!(visitor.get(&page).unwrap().status, 404);
    assert_eq!(visitor.get(&format!("{page}?key={}", "0".repeat(24))).unwrap().status, 404, "a wrong key");
    let keyed = visitor.get(&format!("{page}?key={key}")).unwrap();
    assert_eq!(keyed.status, 200, "{}", keyed.body);
    assert!(keyed.body.contains("Тайный остров") && !keyed.body.contains(&format!("href=\"/games/{id}\"")));
    let api = outsider.get(&format!("/api/games/{id}/newspapers/1/bulletin?format=plain&key={key}")).unwrap();
    assert_eq!(api.status, 200, "{}", api.body);
    let list = ok(&outsider.get(&format!("/api/games/{id}/newspapers?key={key}")).unwrap());
    assert_eq!(list[0]["url"], format!("/api/games/{id}/newspapers/1/bulletin?key={key}"));
    let r = outsider.get(&format!("/api/games/{id}/events?key={key}")).unwrap();
    assert_eq!(r.status, 404, "the key opens the newspapers only");
    // The host's page links the newspapers with the key; members read them without.
    assert!(host.get(&format!("/games/{id}")).unwrap().body.contains(&format!("{page}?key={key}")));
    assert_eq!(players[1].get(&page).unwrap().status, 200);
    assert_eq!(ok(&players[1].get(&format!("/api/games/{id}")).unwrap())["visibility"], "private");
    // An open game stays as it was: its page and newspapers to everyone.
    assert_eq!(outsider.get(&format!("/games/{open_id}")).unwrap().status, 200);
    assert_eq!(ok(&outsider.get(&format!("/api/games/{open_id}")).unwrap())["viewer"], "outsider");
}

/// Issue 28, point 8: the create form makes a private game; open is the default.
#[test]
fn the_create_form_chooses_private() {
    let server = Server::start();
    let mut host = server.user("Ведущая формы");
    let page = host.get("/new").unwrap().body;
    assert!(page.contains("name=\"visibility\" value=\"private\""), "{page}");
    let fields = [
        ("title", "Закрытая из формы"),
        ("slots", "5"),
        ("setup", "recommended"),
        ("tz", "Europe/Moscow"),
        ("open", "22:00"),
        ("midday", "13:00"),
        ("deadline", "21:00"),
    ];
    let mut private = fields.to_vec();
    private.push(("visibility", "private"));
    let r = form(&mut host, "/new", "/new", &private);
    assert_eq!(r.status, 303, "{}", r.body);
    let id: i64 = r.header("location").unwrap().trim_start_matches("/games/").parse().unwrap();
    assert_eq!(ok(&host.get(&format!("/api/games/{id}")).unwrap())["visibility"], "private");
    assert!(host.get(&format!("/games/{id}")).unwrap().body.contains("закрытая игра"));
    let r = form(&mut host, "/new", "/new", &fields);
    let id: i64 = r.header("location").unwrap().trim_start_matches("/games/").parse().unwrap();
    assert_eq!(ok(&host.get(&format!("/api/games/{id}")).unwrap())["visibility"], "open");
    let mut bad = fields.to_vec();
    bad.push(("visibility", "secret"));
    let r = form(&mut host, "/new", "/new", &bad);
    assert!(r.status == 422 && r.body.contains("Выберите, открытая игра или закрытая."), "{}", r.body);
}

/// Issue 28, point 11: a new account writing as a spectator gets a burst of three posts,
/// then one each 30 s; a new account's player five, then one each 10 s; each refusal a 429
/// in Russian that says when to post again, and nothing of it in the record.
#[test]
fn posts_come_at_a_pace_tighter_for_new_spectators() {
    let mut t = Table::start();
    let id = t.id;
    let mut outsider = t.server.user("Прохожий");
    for k in 0..NEW_SPECTATOR_PACE.burst {
        assert_eq!(web_post(&mut outsider, id, "thread", &format!("Зритель {k}")).status, 303);
    }
    let r = web_post(&mut outsider, id, "thread", "Лишнее");
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(r.body.contains("Слишком часто: следующее сообщение можно написать через 30 с"), "{}", r.body);
    assert_eq!(r.header("retry-after"), Some("30"));
    t.server.clock.advance(30);
    assert_eq!(web_post(&mut outsider, id, "thread", "Через полминуты").status, 303);
    // A player with a new account: five, then one each ten seconds.
    for k in 0..SPECTATOR_PACE.burst {
        assert_eq!(web_post(t.seat("Алла"), id, "thread", &format!("Игрок {k}")).status, 303);
    }
    let r = web_post(t.seat("Алла"), id, "thread", "Лишнее");
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(r.body.contains("через 10 с"), "{}", r.body);
    let thread = t.host.get(&format!("/games/{id}/thread?room=thread")).unwrap().body;
    assert!(!thread.contains("Лишнее"), "a refused post is not in the record");
}

/// A server with short connection timeouts, on a fresh SQLite file.
fn quick_server(header: Duration, idle: Duration) -> (ostrov_server::local::LocalServer, std::path::PathBuf) {
    let limits = ostrov_server::net::Limits { header, idle, ..ostrov_server::net::Limits::for_descriptors(1024) };
    server_with(limits)
}

/// A server with `limits`, on a fresh SQLite file.
fn server_with(limits: ostrov_server::net::Limits) -> (ostrov_server::local::LocalServer, std::path::PathBuf) {
    let header = limits.header;
    let dir = std::env::temp_dir().join(format!("ostrov-hostile-{}-{}", std::process::id(), header.as_millis()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let clock = std::sync::Arc::new(ostrov_server::local::ManualClock::new(START));
    let db = dir.join("ostrov.db");
    (ostrov_server::local::LocalServer::start_with(db.to_str().unwrap(), clock, limits).unwrap(), dir)
}

/// How long until the server closes `s` (a read gives end of file or an error).
fn closed_after(mut s: TcpStream, limit: Duration) -> Option<Duration> {
    let t = Instant::now();
    s.set_read_timeout(Some(limit)).unwrap();
    let mut buf = [0u8; 1024];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return Some(t.elapsed()),
            Ok(_) => continue,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock || e.kind() == std::io::ErrorKind::TimedOut => {
                return None
            }
            Err(_) => return Some(t.elapsed()),
        }
    }
}

/// Issue 28, point 13: a connection that sends nothing, one that sends half a request's
/// head, and one that sends a head and then a body in dribbles are closed by the server
/// (they used to stay open for good; silent ones were still open after 35 s).
#[test]
fn silent_and_half_sent_requests_are_closed() {
    let (server, dir) = quick_server(Duration::from_secs(1), Duration::from_secs(2));
    let silent = TcpStream::connect(server.addr).unwrap();
    let mut half = TcpStream::connect(server.addr).unwrap();
    half.write_all(b"GET /api/me HTTP/1.1\r\nHost: x\r\n").unwrap();
    let mut body = TcpStream::connect(server.addr).unwrap();
    body.write_all(
        b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
    )
    .unwrap();
    for (what, s, limit) in [("silent", silent, 4), ("half a head", half, 4), ("a stalled body", body, 6)] {
        let after = closed_after(s, Duration::from_secs(limit));
        println!("{what}: closed after {after:?}");
        assert!(after.is_some(), "{what}: still open after {limit} s");
    }
    // A healthy client is served as before.
    let mut c = server.client();
    assert_eq!(c.get("/api/me").unwrap().status, 401);
    server.stop();
    let _ = std::fs::remove_dir_all(dir);
}

/// Issue 28, point 13: a body sent slowly but steadily (a byte every 300 ms, so the idle
/// timeout never trips) is given a bounded time to arrive whole: a 408 in Russian, and the
/// connection closed. A body that comes at once is served as before.
#[test]
fn a_body_in_dribbles_has_a_bounded_time() {
    let limits = ostrov_server::net::Limits {
        header: Duration::from_secs(5),
        idle: Duration::from_secs(5),
        body: Duration::from_secs(2),
        ..ostrov_server::net::Limits::for_descriptors(1024)
    };
    let (server, dir) = server_with(limits);
    let mut s = TcpStream::connect(server.addr).unwrap();
    let body = r#"{"name": "Капля", "password": "капля-за-каплей-9"}"#.as_bytes();
    write!(
        s,
        "POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .unwrap();
    let t = Instant::now();
    let mut answer = Vec::new();
    s.set_read_timeout(Some(Duration::from_millis(300))).unwrap();
    for b in body.iter() {
        if s.write_all(&[*b]).is_err() {
            break;
        }
        let mut buf = [0u8; 4096];
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => answer.extend_from_slice(&buf[..n]),
            Err(_) => {}
        }
        if !answer.is_empty() {
            break;
        }
    }
    let took = t.elapsed();
    let answer = String::from_utf8_lossy(&answer).to_string();
    assert!(answer.starts_with("HTTP/1.1 408"), "after {took:?}: {answer}");
    assert!(answer.contains("не пришло целиком за 2 с"), "{answer}");
    assert!(took < Duration::from_secs(4), "the body was given {took:?}");
    assert!(closed_after(s, Duration::from_secs(2)).is_some(), "the connection is closed");
    // A body that comes at once is taken as before (a wrong password: 401, not 408).
    let mut c = server.client();
    let r = c.post("/api/login", json!({"name": "Капля", "password": "капля-за-каплей-9"})).unwrap();
    assert_ne!(r.status, 408, "{}", r.body);
    server.stop();
    let _ = std::fs::remove_dir_all(dir);
}

/// Issue 28, point 13: one account holds at most a few live streams; the next is a 429 in
/// Russian, and a stream that ends gives its place back.
#[test]
fn one_account_holds_a_few_live_streams() {
    let server = Server::start();
    let mut host = server.user("Хозяйка");
    let g = ok(&host.post("/api/games", json!({"title": "Потоки", "slots": 5})).unwrap());
    let id = g["id"].as_i64().unwrap();
    let open = || {
        let mut s = TcpStream::connect(server.addr).unwrap();
        s.write_all(&host.request("GET", &format!("/games/{id}/live"), "", b"")).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut buf = vec![0u8; 2048];
        let n = s.read(&mut buf).unwrap();
        (s, String::from_utf8_lossy(&buf[..n]).to_string())
    };
    let mut streams = Vec::new();
    for i in 0..STREAMS_PER_ACCOUNT {
        let (s, head) = open();
        assert!(head.starts_with("HTTP/1.1 200"), "stream {i}: {head}");
        streams.push(s);
    }
    let (_, refused) = open();
    assert!(refused.starts_with("HTTP/1.1 429"), "{refused}");
    assert!(refused.contains("закройте лишние вкладки"), "{refused}");
    drop(streams.pop());
    // The server notices the closed stream at its next write; a new one is let in then.
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let (s, head) = open();
        if head.starts_with("HTTP/1.1 200") {
            drop(s);
            break;
        }
        assert!(Instant::now() < until, "the closed stream's place never came back: {head}");
        std::thread::sleep(Duration::from_millis(300));
    }
}
