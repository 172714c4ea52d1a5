//! Hidden information over HTTP: a real game (9 players: two werewolves, a halfblood, a
//! seer, a nurse, a maniac, passengers; an item each) played for two days with night
//! orders and deadlines passed by moving the clock, then ended by the host. At every
//! stage every player, an outsider and the host fetch every GET endpoint, and:
//! - nobody sees a living other player's role unless it is public or both are in the pack
//!   (R-SIDE-2), by the JSON structure and by scanning every text for "name … role";
//! - nobody sees another player's item (only a living player's passive item is public,
//!   in the players list too, and used ones);
//! - nobody sees another player's orders; the inbox holds exactly one's own notices;
//! - report, game file and log are the host's while the game runs (403, no detail);
//! - the host sees everything; once the game is over, everyone does;
//! - the same for every web page, fragment and event stream, for every player, a spectator
//!   and a visitor who is not signed in (only the newspapers are public by link); the
//!   pack's private chat is read by the pack and the host only;
//! - look-alike names (issue 16, point 11) buy nothing: an account or a seat dressed as a
//!   player's name is refused, a look-alike target is that player, and the impostor sees
//!   what any outsider sees;
//! - forged text (issue 16, point 10) in the thread and the pack's chat — markup, a fake
//!   heading, a script, bidi and invisible characters — stays inside its post on every
//!   page and in the thread's export.

mod support;

support::both_stores!(nobody_sees_what_they_may_not);

use std::collections::BTreeMap;

use ostrov_server::client::{Client, Reply};
use serde_json::{json, Value};
use support::{error, no_events, ok, Server, HOUR, START};

const NAMES: [&str; 9] = ["Агата", "Богдан", "Варвара", "Гордей", "Дарина", "Ефим", "Жанна", "Зиновий", "Илона"];
const PASSIVE: [&str; 8] = ["trap", "poison_thorn", "totem", "handcuffs", "bomb", "black_glasses", "fang", "megaphone"];

/// What the host knows of one player.
#[derive(Clone, Debug)]
struct Truth {
    name: String,
    role: String,
    role_ru: String,
    wolf_side: bool,
    item: Option<(String, String)>,
    alive: bool,
}

struct Game {
    server: Server,
    host: Client,
    players: Vec<Client>,
    outsider: Client,
    id: i64,
    invite: String,
}

impl Game {
    fn base(&self) -> String {
        format!("/api/games/{}", self.id)
    }

    fn truth(&mut self) -> BTreeMap<String, Truth> {
        let g = ok(&self.host.get(&self.base()).unwrap());
        let mut out = BTreeMap::new();
        for p in g["players"].as_array().unwrap() {
            let name = p["name"].as_str().unwrap().to_string();
            let role = p["role"]["id"].as_str().expect("the host sees every role").to_string();
            let item = match &p["item"] {
                Value::Null => None,
                i => Some((i["id"].as_str().unwrap().to_string(), i["name"].as_str().unwrap().to_string())),
            };
            assert!(p.get("item").is_some(), "the host sees every item: {p}");
            out.insert(
                name.clone(),
                Truth {
                    name,
                    wolf_side: role == "werewolf" || role == "halfblood",
                    role,
                    role_ru: p["role"]["name"].as_str().unwrap().to_string(),
                    item,
                    alive: p["alive"].as_bool().unwrap(),
                },
            );
        }
        out
    }

    fn order(&mut self, who: &str, body: Value) -> Reply {
        let i = NAMES.iter().position(|n| *n == who).unwrap();
        let path = format!("{}/orders", self.base());
        self.players[i].post(&path, body).unwrap()
    }

    /// Day 1's event (the later days have none: every event has weight 0).
    fn fix_none(&mut self) {
        let r = self.host.post(&format!("{}/host/fix", self.base()), json!({"event": "none"})).unwrap();
        ok(&r);
    }
}

fn start() -> Game {
    let server = Server::start();
    let mut host = server.user("Смотритель");
    let deck = ["shocker", "love_note", "voodoo", "sheep_skin", "moon_fern", "camo_robe", "trap", "fang", "megaphone"];
    let g = ok(&host
        .post(
            "/api/games",
            json!({"title": "Тайны острова", "slots": 9, "setup": "werewolf=2,halfblood,seer,nurse,maniac",
                   "deck": deck, "seed": 20261203u64, "rules": {"events": no_events()}}),
        )
        .unwrap());
    let (id, invite) = (g["id"].as_i64().unwrap(), g["invite"].as_str().unwrap().to_string());
    let mut players = server.join_all(&invite, &NAMES[..8]);
    // An impostor dressed as a player (Latin A, capitals, a variation selector) cannot have
    // that player's account or seat: sign-up and join are refused; their account is an
    // outsider like any other.
    for dressed in ["Aгата", "АГАТА", "Агата\u{FE0F}"] {
        let r = server.client().post("/api/signup", json!({"name": dressed, "password": "пароль-самозванца"})).unwrap();
        assert!((400..500).contains(&r.status), "signing up as {dressed:?}: {} {}", r.status, r.body);
    }
    let mut outsider = server.user("Прохожий");
    let r = outsider.post(&format!("/api/invites/{invite}/join"), json!({"name": "Aгата"})).unwrap();
    assert_eq!(error(&r), (409, "name_taken".into()), "joining as a look-alike of Агата: {}", r.body);
    players.extend(server.join_all(&invite, &NAMES[8..]));
    server.clock.set(START);
    ok(&host.post(&format!("/api/games/{id}/start"), json!({})).unwrap());
    let mut game = Game { server, host, players, outsider, id, invite };
    game.fix_none();
    game
}

/// The pieces of a response in which a name next to a role means that player's role: a
/// JSON response's strings, a text's lines (table rows, list items, paragraphs).
fn pieces(r: &Reply) -> Vec<String> {
    if let Ok(v) = serde_json::from_str::<Value>(&r.body) {
        let mut out = Vec::new();
        support::strings(&v, &mut out);
        return out;
    }
    r.body.split(['\n']).flat_map(|l| l.split("<tr")).map(str::to_string).collect()
}

/// Fetches every GET endpoint as `c`; returns (path, reply).
fn fetch_all(c: &mut Client, base: &str, invite: &str) -> Vec<(String, Reply)> {
    let mut paths = vec![
        "/api/me".to_string(),
        "/api/games".to_string(),
        base.to_string(),
        format!("/api/invites/{invite}"),
        format!("{base}/orders"),
        format!("{base}/newspapers"),
        format!("{base}/report"),
        format!("{base}/gamefile"),
        format!("{base}/gamefile?format=json"),
        format!("{base}/events"),
        format!("{base}/newspapers/99/evening"),
        format!("{base}/newspapers/1/nothing"),
    ];
    for f in ["json", "markdown", "bbcode", "html", "plain"] {
        paths.push(format!("{base}/inbox?format={f}"));
    }
    paths.push(format!("{base}/inbox"));
    let list = c.get(&format!("{base}/newspapers")).unwrap();
    for p in ok(&list).as_array().unwrap() {
        let url = p["url"].as_str().unwrap();
        paths.push(url.to_string());
        for f in ["markdown", "bbcode", "html", "plain"] {
            paths.push(format!("{url}?format={f}"));
        }
    }
    paths
        .into_iter()
        .map(|p| {
            let r = c.get(&p).unwrap();
            assert!(r.status < 500, "GET {p}: HTTP {} {}", r.status, r.body);
            (p, r)
        })
        .collect()
}

/// The first event of a server-sent event stream (the stream stays open: read only
/// until its first blank line), as a reply.
fn first_event(c: &Client, path: &str) -> Reply {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(c.addr).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(10))).unwrap();
    let cookie = c.cookie.as_ref().map(|k| format!("Cookie: {k}\r\n")).unwrap_or_default();
    write!(s, "GET {path} HTTP/1.1\r\nHost: x\r\n{cookie}\r\n").unwrap();
    let mut buf = Vec::new();
    let mut byte = [0u8; 1];
    while !String::from_utf8_lossy(&buf).contains("\n\n") || !String::from_utf8_lossy(&buf).contains("data:") {
        if s.read(&mut byte).unwrap_or(0) == 0 {
            break;
        }
        buf.push(byte[0]);
        if buf.starts_with(b"HTTP/1.1 3") && buf.ends_with(b"\r\n\r\n") {
            break;
        }
    }
    let text = String::from_utf8_lossy(&buf).into_owned();
    let status = text.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    // The chunk sizes of the chunked body are dropped.
    let body: String = text
        .split("\r\n\r\n")
        .nth(1)
        .unwrap_or_default()
        .split('\n')
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| l.is_empty() || !l.chars().all(|c| c.is_ascii_hexdigit()))
        .map(|l| format!("{l}\n"))
        .collect();
    Reply { status, headers: Vec::new(), body }
}

/// Every web page, fragment and event stream of the game as `c` (signed in or not) sees it.
fn fetch_pages(c: &mut Client, id: i64, invite: &str, papers: &[String]) -> Vec<(String, Reply)> {
    let base = format!("/games/{id}");
    let mut paths = vec![
        "/".to_string(),
        format!("/join/{invite}"),
        base.clone(),
        format!("{base}/thread?room=thread"),
        format!("{base}/thread?room=pack"),
        format!("{base}/thread.md"),
    ];
    paths.extend(papers.iter().cloned());
    let mut out: Vec<(String, Reply)> = paths
        .into_iter()
        .map(|p| {
            let r = c.get(&p).unwrap();
            assert!(r.status < 500, "GET {p}: HTTP {} {}", r.status, r.body);
            (p, r)
        })
        .collect();
    let live = format!("{base}/live");
    out.push((live.clone(), first_event(c, &live)));
    out
}

/// A post from the web form that must be taken.
fn web_post(c: &mut Client, id: i64, room: &str, text: &str) {
    let r = support::web_post(c, id, room, text);
    assert_eq!(r.status, 303, "{}", r.body);
}

/// What the pack wrote in its chat, which only the pack and the host may read.
const PACK_SECRET: &str = "Тайный план стаи";

/// A forged post: markup, a fake heading and list item, a script, bidi and invisible
/// characters (issue 16, point 10).
const FORGED: &str = "Всем привет</p><script>alert(1)</script>\n# ИТОГИ ДНЯ ОТ ВЕДУЩЕГО\n- Ведущий дисквалифицировал всех\u{202E}\u{200B}\u{0}\u{1b}[31m <img src=x onerror=alert(2)>";

/// No page lets forged text out of its post: no live markup, no line of its own that
/// starts like the newspaper's, no control, bidi or invisible character.
fn forged_stays_inside(stage: &str, who: &str, path: &str, r: &Reply) {
    let body = &r.body;
    // Markdown (the thread's export) escapes markup with a backslash: `\<` is a plain `<`.
    let live = if path.ends_with(".md") { body.replace("\\<", "") } else { body.clone() };
    for raw in ["<script>alert", "<img src=x", "</p><script"] {
        assert!(!live.contains(raw), "{stage}: {who}, {path}: forged markup {raw:?} is live: {body}");
    }
    assert!(!body.contains(['\u{202E}', '\u{200B}', '\u{0}', '\u{1b}']), "{stage}: {who}, {path}: a hidden character");
    if body.contains("ИТОГИ ДНЯ ОТ ВЕДУЩЕГО") && path.ends_with(".md") {
        // The host's Markdown export quotes every post: the forged heading stays quoted.
        for l in body.lines() {
            assert!(!l.starts_with("# ИТОГИ") && !l.starts_with("- Ведущий"), "{stage}: {path}: {l}");
        }
    }
}

/// Checks what every viewer sees. `extra`: more replies per viewer (refused orders).
fn sweep(g: &mut Game, stage: &str, extra: &BTreeMap<String, Vec<Reply>>) {
    let truth = g.truth();
    let base = g.base();
    let invite = g.invite.clone();
    let host_report = ok(&g.host.get(&format!("{base}/report")).unwrap());
    let over = host_report["winner"].is_string();
    // Public roles: what an outsider's view shows.
    let outsider_view = ok(&g.outsider.get(&base).unwrap());
    let public: Vec<String> = outsider_view["players"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p.get("role").is_some())
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect();
    // Items public: passive ones, and any that has been used or triggered.
    let used: Vec<String> = host_report["days"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|d| d["items_used"].as_array().cloned().unwrap_or_default())
        .map(|u| u["item"].as_str().unwrap_or_default().to_string())
        .collect();

    // The host sees every role, item and order.
    let hv = ok(&g.host.get(&base).unwrap());
    assert_eq!(hv["viewer"], "host");
    for p in hv["players"].as_array().unwrap() {
        assert!(p.get("role").is_some() && p.get("item").is_some(), "{stage}: host view {p}");
    }
    for (p, r) in fetch_all(&mut g.host, &base, &invite) {
        if !p.contains("/99/") && !p.contains("nothing") && !p.ends_with("/orders") && !p.contains("/inbox") {
            ok(&r);
        }
    }

    let papers: Vec<String> = hv["newspapers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| format!("/games/{}/papers/{}/{}", g.id, p["day"], p["kind"].as_str().unwrap()))
        .collect();
    let host_pages = fetch_pages(&mut g.host, g.id, &invite, &papers);
    for (p, r) in &host_pages {
        forged_stays_inside(stage, "the host", p, r);
    }
    let host_game = &host_pages.iter().find(|(p, _)| p == &format!("/games/{}", g.id)).unwrap().1;
    assert_eq!(host_game.status, 200);
    let pack_wrote = host_game.body.contains(PACK_SECRET);
    // A visitor who is not signed in: only the newspapers (public by link).
    let mut visitor = Client::new(g.server.addr);
    for (p, r) in fetch_pages(&mut visitor, g.id, &invite, &papers) {
        if papers.contains(&p) || p == "/" {
            assert_eq!(r.status, 200, "{stage}: a visitor GET {p}");
        } else {
            assert_eq!(r.status, 303, "{stage}: a visitor GET {p} is sent to the login page");
        }
        assert!(!r.body.contains(PACK_SECRET), "{stage}: a visitor reads the pack's chat at {p}");
        forged_stays_inside(stage, "a visitor", &p, &r);
        for q in truth.values().filter(|q| q.alive && !public.contains(&q.name) && !over) {
            for piece in pieces(&r) {
                assert!(!(piece.contains(&q.name) && piece.contains(&q.role_ru)), "{stage}: visitor, {p}: {piece}");
            }
        }
    }

    let mut viewers: Vec<(Option<String>, Client)> =
        NAMES.iter().zip(&g.players).map(|(n, c)| (Some(n.to_string()), c.clone())).collect();
    viewers.push((None, g.outsider.clone()));
    for (me, mut c) in viewers {
        let who = me.clone().unwrap_or_else(|| "outsider".into());
        let mine = me.as_ref().map(|n| truth[n].clone());
        let mut replies = fetch_all(&mut c, &base, &invite);
        let pages = fetch_pages(&mut c, g.id, &invite, &papers);
        let in_pack = mine.as_ref().is_some_and(|m| m.wolf_side);
        for (p, r) in &pages {
            forged_stays_inside(stage, &who, p, r);
            if p.ends_with("thread.md") {
                // The host's export until the end; once over, whoever may reach the game's
                // (O-THREAD-6; the pack's chat stays the pack's, which the leak test checks).
                assert_eq!(r.status, if over { 200 } else { 403 }, "{stage}: {who} exports the thread");
            }
            if p.ends_with("room=pack") && !in_pack {
                assert_eq!(r.status, 403, "{stage}: {who} reads the pack's chat fragment");
            }
            if !in_pack {
                assert!(!r.body.contains(PACK_SECRET), "{stage}: {who} reads the pack's chat at {p}");
            } else if pack_wrote && (p.ends_with("room=pack") || p == &format!("/games/{}", g.id)) {
                assert!(r.body.contains(PACK_SECRET), "{stage}: {who} of the pack does not see its chat at {p}");
            }
            if p.ends_with("/live") {
                assert!(
                    r.body.starts_with("event: hello\ndata: "),
                    "{stage}: {who}: the stream says only a number: {}",
                    r.body
                );
                assert!(
                    r.body.lines().all(|l| l.is_empty()
                        || l.starts_with("event: ")
                        || l.starts_with("data: ") && l[6..].trim().parse::<i64>().is_ok()),
                    "{}",
                    r.body
                );
            }
        }
        replies.extend(pages);
        let get = |suffix: &str| -> &Reply {
            &replies.iter().find(|(p, _)| p == &format!("{base}{suffix}")).unwrap_or_else(|| panic!("{suffix}")).1
        };
        let may_see_role = |q: &Truth| -> bool {
            over || public.contains(&q.name)
                || mine.as_ref().is_some_and(|m| m.name == q.name || (m.wolf_side && q.wolf_side))
        };

        // The game view's structure.
        let v = ok(get(""));
        assert_eq!(v["viewer"], if me.is_some() { "player" } else { "outsider" }, "{stage}/{who}");
        assert!(v.get("setup").is_none() && v.get("invite").is_none() && v.get("orders").is_none(), "{stage}/{who}");
        for p in v["players"].as_array().unwrap() {
            let q = &truth[p["name"].as_str().unwrap()];
            let own = me.as_deref() == Some(q.name.as_str());
            assert_eq!(p.get("role").is_some(), may_see_role(q), "{stage}: {who} and the role of {}: {p}", q.name);
            if let Some(r) = p.get("role") {
                assert_eq!(r["id"], q.role.as_str());
            }
            // A living player's passive item is public (RULES.md §3); an activated one is not.
            let public = q.alive && q.item.as_ref().is_some_and(|(id, _)| PASSIVE.contains(&id.as_str()));
            assert_eq!(
                p.get("item").is_some(),
                own || over || public,
                "{stage}: {who} and the item of {}: {p}",
                q.name
            );
        }
        match &mine {
            Some(m) => {
                assert_eq!(v["you"]["name"], m.name.as_str());
                assert_eq!(v["you"]["role"]["id"], m.role.as_str());
                let pack: Vec<&str> =
                    v["you"]["pack"].as_array().unwrap().iter().map(|x| x.as_str().unwrap()).collect();
                let want: Vec<&str> =
                    if m.wolf_side { NAMES.iter().copied().filter(|n| truth[*n].wolf_side).collect() } else { vec![] };
                assert_eq!(pack, want, "{stage}: {who}'s pack");
                for o in v["you"]["orders"].as_array().unwrap() {
                    assert_eq!(o["by"], m.name.as_str(), "{stage}: {who} sees another's order {o}");
                }
                let orders = ok(get("/orders"));
                for o in orders["orders"].as_array().unwrap() {
                    assert_eq!(o["by"], m.name.as_str(), "{stage}: {who} sees another's order {o}");
                }
                // The inbox: exactly one's own notices, as the host's report lists them.
                let inbox = ok(get("/inbox"));
                let want: Vec<&str> = host_report["notices"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|n| n["to"] == m.name.as_str())
                    .map(|n| n["text"].as_str().unwrap())
                    .collect();
                let got: Vec<&str> = inbox.as_array().unwrap().iter().map(|n| n["text"].as_str().unwrap()).collect();
                assert_eq!(got, want, "{stage}: {who}'s inbox");
                assert_eq!(ok(get("/inbox?format=json")), inbox);
                let md = &get("/inbox?format=markdown").body;
                assert!(got.iter().all(|t| md.contains(t.split(':').next().unwrap())), "{stage}: {md}");
            }
            None => {
                assert!(v.get("you").is_none());
                for s in ["/orders", "/inbox", "/inbox?format=markdown", "/inbox?format=html"] {
                    assert_eq!(error(get(s)), (403, "forbidden".into()), "{stage}: outsider {s}");
                }
            }
        }
        // Report, game file, log: the host's until the game is over.
        for s in ["/report", "/gamefile", "/gamefile?format=json", "/events"] {
            if over {
                ok(get(s));
            } else {
                let r = get(s);
                assert_eq!(error(r), (403, "forbidden".into()), "{stage}: {who} GET {s}");
                assert_eq!(r.json().as_object().unwrap().len(), 2, "{stage}: {}", r.body);
            }
        }

        // Scan every text for hidden roles and items of others.
        let mut all: Vec<&Reply> = replies.iter().map(|(_, r)| r).collect();
        all.extend(extra.get(&who).into_iter().flatten());
        for q in truth.values() {
            if me.as_deref() == Some(q.name.as_str()) || !q.alive || may_see_role(q) {
                continue;
            }
            for r in &all {
                for piece in pieces(r) {
                    assert!(
                        !(piece.contains(&q.name) && piece.contains(&q.role_ru)),
                        "{stage}: {who} learns that {} is {}: {piece:?} in {}",
                        q.name,
                        q.role_ru,
                        r.body
                    );
                    assert!(!piece.contains(&format!("{} ({}", q.name, q.role_ru)));
                }
            }
        }
        if !over {
            let own_item = mine.as_ref().and_then(|m| m.item.clone()).map(|i| i.0);
            for q in truth.values() {
                let Some((id, ru)) = &q.item else { continue };
                if me.as_deref() == Some(q.name.as_str())
                    || PASSIVE.contains(&id.as_str())
                    || used.contains(id)
                    || own_item.as_ref() == Some(id)
                {
                    continue;
                }
                for r in &all {
                    assert!(!r.body.contains(ru.as_str()), "{stage}: {who} learns {}'s item {ru}: {}", q.name, r.body);
                    assert!(
                        !r.body.contains(&format!("\"{id}\"")),
                        "{stage}: {who} learns {}'s item {id}: {}",
                        q.name,
                        r.body
                    );
                }
            }
        }
    }
}

/// `name` with its Cyrillic letters that have a Latin twin written in Latin (а→a, о→o …).
fn latin_look_alike(name: &str) -> String {
    name.chars()
        .map(|c| match c {
            'а' => 'a',
            'о' => 'o',
            'е' => 'e',
            'р' => 'p',
            'с' => 'c',
            'А' => 'A',
            'В' => 'B',
            'Е' => 'E',
            'О' => 'O',
            c => c,
        })
        .collect()
}

/// The first living player with this role.
fn with_role(t: &BTreeMap<String, Truth>, role: &str) -> Vec<String> {
    NAMES.iter().filter(|n| t[**n].role == role && t[**n].alive).map(|n| n.to_string()).collect()
}

/// Orders a player may not send; the refusals are scanned too.
fn refused_orders(g: &mut Game, t: &BTreeMap<String, Truth>) -> BTreeMap<String, Vec<Reply>> {
    let mut out: BTreeMap<String, Vec<Reply>> = BTreeMap::new();
    let living: Vec<String> = NAMES.iter().filter(|n| t[**n].alive).map(|n| n.to_string()).collect();
    for n in &living {
        let target = living.iter().find(|x| *x != n).unwrap().clone();
        let mut v = Vec::new();
        for body in [
            json!({"act": "check", "target": target}),
            json!({"act": "kill", "target": target}),
            json!({"act": "heal", "target": target}),
            json!({"act": "assault", "target": target}),
            json!({"act": "use", "target": target}),
            json!({"act": "vote", "target": "Никто"}),
            json!({"act": "authority", "from": target, "target": n}),
        ] {
            // An activated item's holder would really use it: only the others try.
            let holds_activated = t[n].item.as_ref().is_some_and(|(id, _)| !PASSIVE.contains(&id.as_str()));
            if body["act"] == "use" && holds_activated {
                continue;
            }
            let r = g.order(n, body);
            assert!(r.status < 500, "{}", r.body);
            if r.status != 200 {
                v.push(r);
            }
        }
        out.insert(n.clone(), v);
    }
    out
}

fn nobody_sees_what_they_may_not() {
    let mut g = start();
    let t = g.truth();
    let wolves = with_role(&t, "werewolf");
    let half = with_role(&t, "halfblood")[0].clone();
    let seer = with_role(&t, "seer")[0].clone();
    let nurse = with_role(&t, "nurse")[0].clone();
    let maniac = with_role(&t, "maniac")[0].clone();
    let pass = with_role(&t, "passenger");
    assert_eq!((wolves.len(), pass.len()), (2, 3));
    sweep(&mut g, "day 1 opened", &BTreeMap::new());

    // Day 1, 10:00 Moscow: everyone votes the first passenger; the night's orders.
    g.server.clock.set(START + 12 * HOUR);
    let extra = refused_orders(&mut g, &t);
    // Each voter writes the name as they like: a look-alike spelling is that player.
    let dressed =
        [pass[0].to_uppercase(), pass[0].to_lowercase(), format!("{}\u{FE0F}", pass[0]), latin_look_alike(&pass[0])];
    for (i, n) in NAMES.iter().enumerate() {
        let r = ok(&g.order(n, json!({"act": "vote", "target": dressed[i % dressed.len()]})));
        assert_eq!(r["order"]["target"], pass[0].as_str(), "{n}'s vote for {:?}: {r}", dressed[i % dressed.len()]);
    }
    for w in &wolves {
        ok(&g.order(w, json!({"act": "kill", "target": pass[1]})));
    }
    ok(&g.order(&seer, json!({"act": "check", "target": wolves[0]})));
    ok(&g.order(&nurse, json!({"act": "heal", "target": seer})));
    ok(&g.order(&maniac, json!({"act": "assault", "target": pass[2]})));
    let w = NAMES.iter().position(|n| *n == wolves[0]).unwrap();
    web_post(&mut g.players[w], g.id, "pack", &format!("{PACK_SECRET}: ночью идём к {}", pass[1]));
    let p = NAMES.iter().position(|n| *n == pass[0]).unwrap();
    web_post(&mut g.players[p], g.id, "thread", "Доброе утро, остров");
    web_post(&mut g.players[p], g.id, "thread", FORGED);
    web_post(&mut g.players[w], g.id, "pack", FORGED);
    let thread = g.players[p].get(&format!("/games/{}/thread?room=thread", g.id)).unwrap();
    assert!(
        thread.body.contains("&#60;script&#62;alert(1)&#60;/script&#62;")
            || thread.body.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "the forged post is shown escaped: {}",
        thread.body
    );
    // Posts are numbered within their room: the thread's numbers do not count the pack's
    // posts between them (O-THREAD-5).
    assert!(thread.body.contains("№1</span>") && thread.body.contains("№2</span>"), "{}", thread.body);
    assert!(!thread.body.contains("№3</span>") && !thread.body.contains("№4</span>"), "{}", thread.body);
    // A host flag is public, so the pack's chat takes none: it would name a werewolf.
    let r = support::host_flag(&mut g.host, g.id, 1);
    assert!(r.body.contains("Сообщения чата стаи не отмечаются"), "{} {}", r.status, r.body);
    let history = ok(&g.outsider.get(&g.base()).unwrap())["history"].to_string();
    assert!(!history.contains("отметил сообщение"), "{history}");
    sweep(&mut g, "day 1 orders in", &extra);
    // After 13:00: the bulletin.
    g.server.clock.set(START + 15 * HOUR + 120);
    sweep(&mut g, "day 1 afternoon", &BTreeMap::new());

    // 21:01 has passed: day 1 is resolved; the passenger lynched, another killed at night.
    g.server.clock.set(START + 23 * HOUR + 90);
    let t = g.truth();
    assert!(!t[&pass[0]].alive && !t[&pass[1]].alive, "{t:?}");
    sweep(&mut g, "day 1 resolved", &BTreeMap::new());

    // Day 2 opens at 22:00; 10:00 the next morning: the first werewolf is voted out.
    g.server.clock.set(START + 36 * HOUR);
    let extra = refused_orders(&mut g, &t);
    for n in NAMES.iter().filter(|n| t[**n].alive) {
        let _ = g.order(n, json!({"act": "vote", "target": wolves[0]}));
    }
    ok(&g.order(&wolves[1], json!({"act": "kill", "target": nurse})));
    ok(&g.order(&seer, json!({"act": "check", "target": half})));
    ok(&g.order(&nurse, json!({"act": "heal", "target": pass[2]})));
    ok(&g.order(&maniac, json!({"act": "assault", "target": seer})));
    sweep(&mut g, "day 2 orders in", &extra);
    g.server.clock.set(START + 47 * HOUR + 90);
    let t = g.truth();
    assert!(!t[&wolves[0]].alive && !t[&nurse].alive, "{t:?}");
    assert_eq!(ok(&g.host.get(&g.base()).unwrap())["status"], "running");
    sweep(&mut g, "day 2 resolved", &BTreeMap::new());

    // Day 3: the host disqualifies the rest of the pack and resolves now: civilians win.
    g.server.clock.set(START + 49 * HOUR);
    sweep(&mut g, "day 3 opened", &BTreeMap::new());
    let base = g.base();
    ok(&g.host.post(&format!("{base}/host/remove"), json!({"target": wolves[1], "reason": "тест"})).unwrap());
    sweep(&mut g, "day 3, a werewolf removed", &BTreeMap::new());
    ok(&g.host.post(&format!("{base}/host/remove"), json!({"target": half})).unwrap());
    let v = ok(&g.host.get(&base).unwrap());
    if v["status"] != "over" {
        ok(&g.host.post(&format!("{base}/host/resolve"), json!({})).unwrap());
    }
    let v = ok(&g.outsider.get(&base).unwrap());
    assert_eq!(v["status"], "over", "{v}");
    assert_eq!(v["winner"]["id"], "civilians");
    sweep(&mut g, "game over", &BTreeMap::new());
}
