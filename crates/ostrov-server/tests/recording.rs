//! The behaviour recording that guards the big refactor (issue 27): one scripted game of
//! twelve, played from the sign-ups to its final newspaper through the real server over
//! HTTP with the test clock, and five small games beside it for the events whose orders
//! a plain day cannot take (Bunker, Exchange, Choose me!, Mystic light, Fear, Palms
//! bloom, Full moon, Rage, Tsunami, Magnetic storm). Every request and its answer
//! (status, content type, the redirect's target, body) is appended to one transcript, cut
//! into a few snapshots by phase (`tests/snapshots/recording__*.snap`). The refactor must
//! leave every one of them as it is; what may change on purpose is taken out by
//! [`normalise`].
//!
//! Between the phases every page and API endpoint is fetched as the host, a werewolf, a
//! villager (the seer), a spectator and a visitor who is not signed in ([`Rec::sweep`]).
//! Each newspaper is fetched once, in every format, when it first appears (a published
//! paper never changes).

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::io::{Read, Write};

use ostrov_server::client::{Client, Reply};
use serde_json::{json, Value};
use support::{no_events, Server, HOUR, START};

const PASSWORD: &str = "пароль-для-теста";
const HOST: &str = "Ведущая";
const PLAYERS: [&str; 12] =
    ["Аня", "Боря", "Вика", "Гоша", "Даша", "Егор", "Женя", "Зоя", "Игорь", "Катя", "Лёва", "Маша"];
const SPECTATOR: &str = "Прохожий";
/// The visitor who is not signed in.
const VISITOR: &str = "гость";
const MINUTE: i64 = 60;
const FORMATS: [&str; 7] = ["markdown", "gfm", "bbcode", "bbcode-tables", "html", "html-fragment", "plain"];

/// What may differ between two runs of the same script, or is about to change on purpose,
/// taken out of one transcript entry:
/// - the value of every hidden `csrf` field (a digest of the session's random token);
/// - the random values the script learned (invite codes, the seed the server drew for
///   the game made in the web form): each replaced by its name, e.g. `<invite:game1>`;
/// - in a JSON body, every key named `seq` (the log's sequence numbers), at any depth;
///   the JSON is written pretty with its keys sorted (it is compared as a value).
///
/// Session cookies are never recorded (headers are not), nor the body of the
/// `/games/{id}/live` event stream (only its status line is, by [`Rec::live`]).
fn normalise(text: &str, secrets: &[(String, String)]) -> String {
    const FIELD: &str = "name=\"csrf\" value=\"";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(FIELD) {
        out.push_str(&rest[..at + FIELD.len()]);
        rest = &rest[at + FIELD.len()..];
        let end = rest.find('"').unwrap_or(rest.len());
        out.push_str("<csrf>");
        rest = &rest[end..];
    }
    out.push_str(rest);
    for (secret, name) in secrets {
        out = out.replace(secret.as_str(), name);
    }
    out
}

/// A JSON value without its `seq` keys, at any depth.
fn without_seq(v: &mut Value) {
    match v {
        Value::Object(o) => {
            o.remove("seq");
            o.values_mut().for_each(without_seq);
        }
        Value::Array(a) => a.iter_mut().for_each(without_seq),
        _ => {}
    }
}

/// `application/x-www-form-urlencoded` of one value.
fn enc(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => out.push(b as char),
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// One game of the script.
#[derive(Clone)]
struct Game {
    id: i64,
    label: &'static str,
}

impl Game {
    fn api(&self) -> String {
        format!("/api/games/{}", self.id)
    }
    fn page(&self) -> String {
        format!("/games/{}", self.id)
    }
}

/// What the host knows of a seat.
#[derive(Clone, Debug)]
struct Seat {
    name: String,
    role: String,
    item: Option<String>,
    charged: bool,
    alive: bool,
}

/// The recorder: the server, a client per actor, the transcript.
struct Rec {
    server: Server,
    clients: BTreeMap<String, Client>,
    n: usize,
    text: String,
    phase: String,
    parts: Vec<(String, String)>,
    secrets: Vec<(String, String)>,
    papers_seen: BTreeSet<String>,
    /// Every game made so far.
    games: Vec<i64>,
}

impl Rec {
    fn new() -> Rec {
        Rec {
            server: Server::start(),
            clients: BTreeMap::new(),
            n: 0,
            text: String::new(),
            phase: String::new(),
            parts: Vec::new(),
            secrets: Vec::new(),
            papers_seen: BTreeSet::new(),
            games: Vec::new(),
        }
    }

    /// Starts the next snapshot.
    fn phase(&mut self, name: &str) {
        if !self.phase.is_empty() {
            self.parts.push((self.phase.clone(), std::mem::take(&mut self.text)));
        }
        self.phase = name.to_string();
    }

    fn note(&mut self, s: &str) {
        self.text.push_str(&format!("=== {s} ===\n\n"));
    }

    fn secret(&mut self, value: &str, name: &str) {
        self.secrets.push((value.to_string(), format!("<{name}>")));
    }

    /// Moves the test clock (Unix seconds), noted in the transcript as Moscow time. Then
    /// every game is looked at (unrecorded), which runs its due steps: the lists and the
    /// home page show what a game's memory holds, and without this whether a step had run
    /// would depend on the scheduler's half-second tick.
    fn clock(&mut self, t: i64) {
        self.server.clock.set(t);
        for id in self.games.clone() {
            self.peek(HOST, &format!("/api/games/{id}"));
        }
        let at = jiff::Timestamp::from_second(t).unwrap().in_tz("Europe/Moscow").unwrap();
        self.note(&format!("clock: {}", at.strftime("%Y-%m-%d %H:%M:%S %Z")));
    }

    fn client(&mut self, who: &str) -> &mut Client {
        let addr = self.server.addr;
        self.clients.entry(who.to_string()).or_insert_with(|| Client::new(addr))
    }

    fn record(&mut self, who: &str, method: &str, path: &str, request: &str, r: &Reply) {
        self.n += 1;
        let ct = r.header("content-type").unwrap_or("-").to_string();
        let mut e = format!("### {:04} {who}: {method} {path}\n", self.n);
        if !request.is_empty() {
            e.push_str(request);
            e.push('\n');
        }
        e.push_str(&format!("→ {} {ct}\n", r.status));
        if let Some(l) = r.header("location") {
            e.push_str(&format!("location: {l}\n"));
        }
        let body = if ct.starts_with("application/json") {
            match serde_json::from_str::<Value>(&r.body) {
                Ok(mut v) => {
                    // A new game's invite code, named before it is first written down.
                    if let (Some(invite), Some(id)) = (v["invite"].as_str(), v["id"].as_i64()) {
                        if !self.secrets.iter().any(|(s, _)| s == invite) {
                            self.secret(invite, &format!("invite:game{id}"));
                        }
                    }
                    without_seq(&mut v);
                    serde_json::to_string_pretty(&v).unwrap()
                }
                Err(_) => r.body.clone(),
            }
        } else if path.starts_with("/static/htmx") {
            format!("({} bytes)", r.body.len())
        } else {
            r.body.clone()
        };
        e.push_str(&body);
        if !body.ends_with('\n') {
            e.push('\n');
        }
        e.push('\n');
        let e = normalise(&e, &self.secrets);
        self.text.push_str(&e);
        assert!(r.status < 500, "{method} {path}: HTTP {} {}", r.status, r.body);
    }

    fn call(&mut self, who: &str, method: &str, path: &str, body: Option<Value>) -> Reply {
        let r = self.client(who).call(method, path, body.as_ref()).expect("the server answers");
        let req = body.map(|b| b.to_string()).unwrap_or_default();
        self.record(who, method, path, &req, &r);
        r
    }

    fn get(&mut self, who: &str, path: &str) -> Reply {
        self.call(who, "GET", path, None)
    }

    fn post(&mut self, who: &str, path: &str, body: Value) -> Reply {
        self.call(who, "POST", path, Some(body))
    }

    /// A GET that is not recorded (the script looking something up).
    fn peek(&mut self, who: &str, path: &str) -> Reply {
        self.client(who).get(path).expect("the server answers")
    }

    /// Posts a web form to `path` with the token of the form on `page` (read unrecorded).
    fn form(&mut self, who: &str, page: &str, path: &str, fields: &[(&str, &str)]) -> Reply {
        let p = self.peek(who, page);
        let at = p.body.find("name=\"csrf\" value=\"").unwrap_or_else(|| panic!("{who}: no form on {page}")) + 19;
        let token = p.body[at..].split('"').next().unwrap().to_string();
        let mut body = format!("csrf={}", enc(&token));
        let mut shown = "csrf=<csrf>".to_string();
        for (k, v) in fields {
            body.push_str(&format!("&{}={}", enc(k), enc(v)));
            shown.push_str(&format!("&{k}={v}"));
        }
        let c = self.client(who);
        let r = c.raw("POST", path, "application/x-www-form-urlencoded", body.as_bytes()).expect("the server answers");
        self.record(who, "POST", path, &format!("(form) {shown}"), &r);
        r
    }

    /// The status line of the event stream (its body is not recorded).
    fn live(&mut self, who: &str, path: &str) {
        let c = self.client(who).clone();
        let mut s = std::net::TcpStream::connect(c.addr).unwrap();
        s.set_read_timeout(Some(std::time::Duration::from_secs(10))).unwrap();
        let cookie = c.cookie.as_ref().map(|k| format!("Cookie: {k}\r\n")).unwrap_or_default();
        write!(s, "GET {path} HTTP/1.1\r\nHost: x\r\n{cookie}\r\n").unwrap();
        let mut line = Vec::new();
        let mut byte = [0u8; 1];
        while !line.ends_with(b"\r\n") && s.read(&mut byte).unwrap_or(0) == 1 {
            line.push(byte[0]);
        }
        self.n += 1;
        let line = String::from_utf8_lossy(&line).trim_end().to_string();
        self.text.push_str(&format!(
            "### {:04} {who}: GET {path}\n→ {line}\n(the stream's body is not recorded)\n\n",
            self.n
        ));
    }

    fn signup(&mut self, who: &str) -> Reply {
        self.post(who, "/api/signup", json!({"name": who, "password": PASSWORD}))
    }

    fn order(&mut self, who: &str, g: &Game, body: Value) -> Reply {
        self.post(who, &format!("{}/orders", g.api()), body)
    }

    fn host(&mut self, g: &Game, action: &str, body: Value) -> Reply {
        self.post(HOST, &format!("{}/host/{action}", g.api()), body)
    }

    /// A host action from the host's panel on the game page.
    fn host_form(&mut self, g: &Game, fields: &[(&str, &str)]) -> Reply {
        self.form(HOST, &g.page(), &format!("{}/host", g.page()), fields)
    }

    /// An order from the order form on the player's game page.
    fn order_form(&mut self, who: &str, g: &Game, fields: &[(&str, &str)]) -> Reply {
        self.form(who, &g.page(), &format!("{}/order", g.page()), fields)
    }

    /// A post in the thread (`room` = `thread` or `pack`) from the web form.
    fn say(&mut self, who: &str, g: &Game, room: &str, text: &str) -> Reply {
        self.form(who, &g.page(), &format!("{}/thread", g.page()), &[("room", room), ("text", text)])
    }

    /// The seats as the host sees them, in the list order (unrecorded).
    fn seats(&mut self, g: &Game) -> Vec<Seat> {
        let v = self.peek(HOST, &g.api()).json();
        v["players"]
            .as_array()
            .map(|ps| {
                ps.iter()
                    .map(|p| Seat {
                        name: p["name"].as_str().unwrap().to_string(),
                        role: p["role"]["id"].as_str().unwrap().to_string(),
                        item: p["item"]["id"].as_str().map(str::to_string),
                        charged: p["item"]["charged"].as_bool().unwrap_or(false),
                        alive: p["alive"].as_bool().unwrap(),
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    fn status(&mut self, g: &Game) -> String {
        self.peek(HOST, &g.api()).json()["status"].as_str().unwrap_or_default().to_string()
    }

    /// Every page and API endpoint of `g` as each of `viewers` sees it; each newspaper
    /// the first time it is listed, in every format.
    fn sweep(&mut self, g: &Game, stage: &str, viewers: &[&str]) {
        self.note(&format!("sweep of {}: {stage}", g.label));
        let (api, page) = (g.api(), g.page());
        let papers: Vec<(u64, String)> = self
            .peek(HOST, &format!("{api}/newspapers"))
            .json()
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .map(|p| (p["day"].as_u64().unwrap(), p["kind"].as_str().unwrap().to_string()))
            .collect();
        let fresh: Vec<(u64, String)> =
            papers.iter().filter(|(d, k)| !self.papers_seen.contains(&format!("{}/{d}/{k}", g.id))).cloned().collect();
        for who in viewers {
            for p in [
                "/api/me".to_string(),
                "/api/games".to_string(),
                api.clone(),
                format!("{api}/orders"),
                format!("{api}/inbox"),
            ] {
                self.get(who, &p);
            }
            for f in ["json", "markdown", "gfm", "bbcode", "bbcode-tables", "html", "html-fragment", "plain"] {
                self.get(who, &format!("{api}/inbox?format={f}"));
            }
            self.get(who, &format!("{api}/newspapers"));
            self.get(who, &format!("{api}/report"));
            self.get(who, &format!("{api}/gamefile"));
            // The same for every viewer once the game is over: in JSON and the log, the
            // host's and the spectator's answers stand for the others'.
            if [HOST, SPECTATOR].contains(who) {
                self.get(who, &format!("{api}/gamefile?format=json"));
                self.get(who, &format!("{api}/events"));
            }
            for p in [
                "/".to_string(),
                page.clone(),
                format!("{page}/thread?room=thread"),
                format!("{page}/thread?room=pack"),
                format!("{page}/thread.md"),
            ] {
                self.get(who, &p);
            }
            self.live(who, &format!("{page}/live"));
            for (d, k) in &fresh {
                match *who {
                    HOST => {
                        self.get(who, &format!("{api}/newspapers/{d}/{k}"));
                        for f in FORMATS {
                            self.get(who, &format!("{api}/newspapers/{d}/{k}?format={f}"));
                        }
                        self.get(who, &format!("{page}/papers/{d}/{k}"));
                    }
                    VISITOR => {
                        self.get(who, &format!("{page}/papers/{d}/{k}"));
                        self.get(who, &format!("{api}/newspapers/{d}/{k}"));
                    }
                    _ => {}
                }
            }
        }
        for (d, k) in fresh {
            self.papers_seen.insert(format!("{}/{d}/{k}", g.id));
        }
    }

    /// The small sweep of a side game: the host's and one player's game view and page,
    /// and each new newspaper in Markdown and as its page.
    fn glance(&mut self, g: &Game, stage: &str, player: &str) {
        self.note(&format!("glance at {}: {stage}", g.label));
        let (api, page) = (g.api(), g.page());
        self.get(HOST, &api);
        self.get(player, &api);
        self.get(player, &page);
        self.get(player, &format!("{api}/inbox?format=markdown"));
        let list = self.get(HOST, &format!("{api}/newspapers")).json();
        for p in list.as_array().cloned().unwrap_or_default() {
            let (d, k) = (p["day"].as_u64().unwrap(), p["kind"].as_str().unwrap().to_string());
            if self.papers_seen.insert(format!("{}/{d}/{k}", g.id)) {
                self.get(HOST, &format!("{api}/newspapers/{d}/{k}"));
                self.get(VISITOR, &format!("{page}/papers/{d}/{k}"));
            }
        }
    }
}

fn names_with(seats: &[Seat], f: impl Fn(&Seat) -> bool) -> Vec<String> {
    seats.iter().filter(|s| f(s)).map(|s| s.name.clone()).collect()
}

fn one(seats: &[Seat], role: &str) -> String {
    names_with(seats, |s| s.role == role).into_iter().next().unwrap_or_else(|| panic!("no {role}: {seats:?}"))
}

fn holder(seats: &[Seat], item: &str) -> Option<String> {
    seats.iter().find(|s| s.alive && s.item.as_deref() == Some(item)).map(|s| s.name.clone())
}

fn wolf_side(s: &Seat) -> bool {
    s.role == "werewolf" || s.role == "halfblood"
}

/// A side game of five (a werewolf, a seer, a nurse, two passengers) with day 1's event
/// fixed by the host and every later day's event `later` (its weight the only one).
fn side_game(r: &mut Rec, label: &'static str, title: &str, seed: u64, deck: Value, later: &str, tie: &str) -> Game {
    let mut events = no_events();
    events[later] = json!(1);
    let body = json!({"title": title, "slots": 5, "setup": "werewolf,seer,nurse", "deck": deck, "seed": seed,
                      "rules": {"events": events, "no_repeat": false, "tie": tie}});
    let v = r.post(HOST, "/api/games", body).json();
    let g = Game { id: v["id"].as_i64().unwrap(), label };
    r.games.push(g.id);
    let invite = v["invite"].as_str().unwrap().to_string();
    for p in &PLAYERS[..5] {
        r.post(p, &format!("/api/invites/{invite}/join"), json!({}));
    }
    g
}

#[test]
fn a_whole_scripted_game_answers_as_recorded() {
    let t0 = std::time::Instant::now();
    let mut r = Rec::new();

    // ---------------------------------------------------------------- accounts
    r.phase("01_accounts_and_lobby");
    r.note("sign-ups, logins, profiles (the clock stands at 21:00 the day before the start)");
    r.get(VISITOR, "/");
    r.get(VISITOR, "/api/me");
    r.get(VISITOR, "/signup");
    r.get(VISITOR, "/login");
    r.get(VISITOR, "/rules");
    r.get(VISITOR, "/profile");
    r.get(VISITOR, "/new");
    for f in ["app.css", "app.js", "htmx.min.js", "nothing.js"] {
        r.get(VISITOR, &format!("/static/{f}"));
    }
    r.signup(HOST);
    for p in &PLAYERS[..11] {
        r.signup(p);
    }
    // Маша signs up through the form, logs out and in again through the forms.
    r.form("Маша", "/signup", "/signup", &[("name", "Маша"), ("password", PASSWORD)]);
    r.get("Маша", "/api/me");
    r.form("Маша", "/", "/logout", &[]);
    r.get("Маша", "/api/me");
    r.form("Маша", "/login", "/login", &[("name", "Маша"), ("password", "не-тот-пароль")]);
    r.form("Маша", "/login", "/login", &[("name", "маша"), ("password", PASSWORD)]);
    r.get("Маша", "/");
    // Refused sign-ups: a look-alike name, a short password.
    r.post("самозванка", "/api/signup", json!({"name": "АНЯ", "password": PASSWORD}));
    r.post("самозванка", "/api/signup", json!({"name": "Новенькая", "password": "корот"}));
    r.form("самозванка", "/signup", "/signup", &[("name", "Aня"), ("password", PASSWORD)]);
    // The API's login and logout.
    r.signup(SPECTATOR);
    r.post(SPECTATOR, "/api/logout", json!({}));
    r.get(SPECTATOR, "/api/me");
    r.post(SPECTATOR, "/api/login", json!({"name": SPECTATOR, "password": "не-тот-пароль"}));
    r.post(SPECTATOR, "/api/login", json!({"name": SPECTATOR, "password": PASSWORD}));
    r.get(SPECTATOR, "/api/me");
    // Profiles: by the API and by the form, with refusals.
    r.call(
        "Аня",
        "PATCH",
        "/api/me",
        Some(json!({"gender": "f", "forms": ["Аня", "Ани", "Ане", "Аню", "Аней", "Ане"]})),
    );
    r.call("Боря", "PATCH", "/api/me", Some(json!({"gender": "m"})));
    r.call("Гоша", "PATCH", "/api/me", Some(json!({"gender": "x", "forms": ["Гоша"]})));
    r.get("Вика", "/profile");
    r.form(
        "Вика",
        "/profile",
        "/profile",
        &[
            ("gender", "f"),
            ("form1", "Вика"),
            ("form2", "Вики"),
            ("form3", "Вике"),
            ("form4", "Вику"),
            ("form5", "Викой"),
            ("form6", "Вике"),
        ],
    );
    r.form(
        "Даша",
        "/profile",
        "/profile",
        &[
            ("gender", "f"),
            ("form1", "Маша"),
            ("form2", ""),
            ("form3", ""),
            ("form4", ""),
            ("form5", ""),
            ("form6", ""),
        ],
    );
    r.form("Даша", "/profile", "/profile", &[("gender", "f")]);
    r.get("Вика", "/profile");
    r.get("Вика", "/api/me");

    // ---------------------------------------------------------------- lobby
    r.note("the lobby: the main game by the API, another by the web form");
    let deck = json!([
        "shocker",
        "love_note",
        "voodoo",
        "megaphone",
        "trap",
        "fang",
        "bomb",
        "sheep_skin",
        "moon_fern",
        "camo_robe",
        "black_glasses",
        "totem"
    ]);
    let mut events = no_events();
    events["spirit_call"] = json!(0);
    let v = r
        .post(
            HOST,
            "/api/games",
            json!({"title": "Остров страха: запись", "slots": 12,
                   "setup": "werewolf=2,halfblood,seer,nurse,witch,sleepwalker,maniac,hamster,authority,untouchable",
                   "deck": deck, "seed": 20261227u64, "rules": {"tie": "random", "events": events},
                   "schedule": {"tz": "Europe/Moscow", "open": "22:00", "midday": "13:00", "deadline": "21:00"}}),
        )
        .json();
    let g1 = Game { id: v["id"].as_i64().unwrap(), label: "G1" };
    r.games.push(g1.id);
    let invite = v["invite"].as_str().unwrap().to_string();
    r.post(HOST, "/api/games", json!({"title": "", "slots": 2}));
    r.get(HOST, &g1.api());
    r.get("Аня", &format!("/api/invites/{invite}"));
    r.get("Аня", &format!("/join/{invite}"));
    for p in &PLAYERS[..10] {
        r.post(p, &format!("/api/invites/{invite}/join"), json!({}));
    }
    r.post("Аня", &format!("/api/invites/{invite}/join"), json!({}));
    r.post(HOST, &format!("/api/invites/{invite}/join"), json!({}));
    r.post(SPECTATOR, &format!("/api/invites/{invite}/join"), json!({"name": "Аня"}));
    r.post(HOST, &format!("{}/start", g1.api()), json!({}));
    r.form("Лёва", &format!("/join/{invite}"), &format!("/join/{invite}"), &[("name", "Лёва")]);
    r.form("Маша", &format!("/join/{invite}"), &format!("/join/{invite}"), &[("name", "")]);
    r.form("Маша", &format!("/join/{invite}"), &format!("/join/{invite}"), &[("name", "Маша")]);
    r.get("Маша", &format!("/join/{invite}"));
    r.post(SPECTATOR, &format!("/api/invites/{invite}/join"), json!({}));
    r.get(SPECTATOR, &format!("/join/{invite}"));

    // A game made in the web form by Катя (its seed is drawn by the server): joined by
    // the form and by the API, and left in the lobby.
    r.get("Катя", "/new");
    r.get("Катя", "/new/balance?slots=5&setup=custom&role_werewolf=1&role_seer=1&deck=&tie=random&max_days=40");
    r.form("Катя", "/new", "/new", &[("title", ""), ("slots", "99"), ("setup", "custom")]);
    let made = r.form(
        "Катя",
        "/new",
        "/new",
        &[
            ("title", "Вечерняя партия"),
            ("slots", "6"),
            ("setup", "custom"),
            ("role_werewolf", "1"),
            ("role_seer", "1"),
            ("role_nurse", "1"),
            ("deck", "trap, fang, none"),
            ("tie", "none"),
            ("parity", "on"),
            ("max_days", "20"),
            ("tz", "Europe/Moscow"),
            ("open", "22:00"),
            ("midday", "13:00"),
            ("deadline", "21:00"),
        ],
    );
    let web_id: i64 = made.header("location").unwrap().trim_start_matches("/games/").parse().unwrap();
    r.games.push(web_id);
    let wv = r.peek("Катя", &format!("/api/games/{web_id}")).json();
    r.secret(wv["invite"].as_str().unwrap(), &format!("invite:game{web_id}"));
    r.secret(&wv["setup"]["seed"].to_string(), "seed:web");
    let web_invite = wv["invite"].as_str().unwrap().to_string();
    r.get("Катя", &format!("/games/{web_id}"));
    r.get("Катя", &format!("/api/games/{web_id}"));
    r.form("Лёва", &format!("/join/{web_invite}"), &format!("/join/{web_invite}"), &[("name", "Лев")]);
    r.post("Маша", &format!("/api/invites/{web_invite}/join"), json!({"name": "Мария"}));
    r.get("Маша", &format!("/games/{web_id}"));
    r.post("Маша", &format!("/api/games/{web_id}/start"), json!({}));
    r.form("Катя", &format!("/games/{web_id}"), &format!("/games/{web_id}/start"), &[]);
    r.get("Катя", &format!("/api/games/{web_id}"));
    r.get("Катя", "/");
    r.get(HOST, "/");
    r.get(SPECTATOR, "/api/games");
    r.get(SPECTATOR, "/api/games?all=true");
    r.get(SPECTATOR, "/api/games?page=2");
    r.get(SPECTATOR, "/api/games?page=0");

    // The side games.
    let s1 = side_game(
        &mut r,
        "S1",
        "Бункер, потом Обмен",
        101,
        json!([
            "shocker",
            "love_note",
            "voodoo",
            "moon_fern",
            "camo_robe",
            "sheep_skin",
            "black_glasses",
            "none",
            "none",
            "none"
        ]),
        "exchange",
        "random",
    );
    let s2 = side_game(
        &mut r,
        "S2",
        "Выбери меня!, потом Мистический свет",
        102,
        json!(["shocker", "shocker", "shocker", "shocker", "shocker"]),
        "mystic_light",
        "random",
    );
    let s3 = side_game(
        &mut r,
        "S3",
        "Страх, потом Пальмы",
        103,
        json!(["none", "none", "none", "none", "none"]),
        "palms_bloom",
        "random",
    );
    let s4 = side_game(
        &mut r,
        "S4",
        "Полнолуние, потом Ярость",
        104,
        json!(["none", "none", "none", "none", "none"]),
        "rage",
        "none",
    );
    let s5 = side_game(
        &mut r,
        "S5",
        "Цунами, потом Магнитная буря",
        105,
        json!(["shocker", "love_note", "voodoo", "trap", "fang"]),
        "magnetic_storm",
        "random",
    );
    r.sweep(&g1, "the lobby", &[HOST, "Аня", SPECTATOR, VISITOR]);

    // ---------------------------------------------------------------- the start
    r.phase("02_start_and_day1_morning");
    r.clock(START);
    r.form(HOST, &g1.page(), &format!("{}/start", g1.page()), &[]);
    r.post(HOST, &format!("{}/start", g1.api()), json!({}));
    for g in [&s1, &s2, &s3, &s4, &s5] {
        r.post(HOST, &format!("{}/start", g.api()), json!({}));
    }
    // Day 1's events, fixed before any order.
    r.host_form(&g1, &[("action", "fix"), ("event", "spirit_call")]);
    r.host(&s1, "fix", json!({"event": "bunker"}));
    r.host(&s2, "fix", json!({"event": "choose_me"}));
    r.host(&s3, "fix", json!({"event": "fear"}));
    r.host(&s4, "fix", json!({"event": "full_moon"}));
    r.host(&s4, "fix", json!({"event": "tsunami", "day": 2}));
    r.host(&s4, "fix", json!({"chosen": "Аня"}));
    // S5 (Tsunami): the host fixes the deal: each item passed on to the next in the list.
    r.host(&s5, "fix", json!({"event": "tsunami"}));
    let s = r.seats(&s5);
    let mut deal = serde_json::Map::new();
    for (k, x) in s.iter().enumerate() {
        let next = &s[(k + 1) % s.len()];
        deal.insert(x.name.clone(), json!(next.item.clone().unwrap_or_else(|| "none".into())));
    }
    r.host(&s5, "fix", json!({"deal": {"Аня": "bomb"}}));
    r.host(&s5, "fix", json!({"deal": deal}));
    let s2_seats = r.seats(&s2);
    let s2_chosen = names_with(&s2_seats, |s| !wolf_side(s))[0].clone();
    r.host(&s2, "fix", json!({"chosen": s2_chosen}));
    let seats = r.seats(&g1);
    let wolves = names_with(&seats, |s| s.role == "werewolf");
    let (w1, w2) = (wolves[0].clone(), wolves[1].clone());
    let half = one(&seats, "halfblood");
    let seer = one(&seats, "seer");
    let nurse = one(&seats, "nurse");
    let witch = one(&seats, "witch");
    let sleep = one(&seats, "sleepwalker");
    let maniac = one(&seats, "maniac");
    let hamster = one(&seats, "hamster");
    let auth = one(&seats, "authority");
    let unt = one(&seats, "untouchable");
    let pass = one(&seats, "passenger");
    r.note(&format!(
        "G1 roles: werewolves {w1}, {w2}; halfblood {half}; seer {seer}; nurse {nurse}; witch {witch}; sleepwalker {sleep}; \
         maniac {maniac}; hamster {hamster}; authority {auth}; untouchable {unt}; passenger {pass}"
    ));
    let viewers = [HOST, w1.as_str(), seer.as_str(), SPECTATOR, VISITOR];
    r.sweep(&g1, "day 1 opened", &viewers);

    // ---------------------------------------------------------------- day 1, 10:00
    r.clock(START + 12 * HOUR);
    r.note("G1 day 1 (Spirit call): the morning's orders");
    r.order(&pass, &g1, json!({"act": "ask", "text": "Оборотень среди первых трёх в списке?"}));
    r.order(&unt, &g1, json!({"act": "ask", "text": "А второй вопрос?"}));
    r.host(&g1, "answer", json!({"answer": true}));
    r.host_form(&g1, &[("action", "answer"), ("answer", "no")]);
    r.host_form(&g1, &[("action", "answer"), ("answer", "")]);
    let living: Vec<String> = names_with(&seats, |s| s.alive);
    for (i, p) in living.iter().enumerate() {
        if i % 3 == 0 {
            r.order_form(p, &g1, &[("act", "vote"), ("target", &unt)]);
        } else {
            r.order(p, &g1, json!({"act": "vote", "target": unt, "request_id": format!("d1-vote-{i}")}));
        }
    }
    // An order change, a duplicate and a reused request id.
    r.order(&w2, &g1, json!({"act": "vote", "target": pass, "request_id": "d1-w2-vote"}));
    r.order(&w2, &g1, json!({"act": "vote", "target": pass, "request_id": "d1-w2-vote"}));
    r.order(&w2, &g1, json!({"act": "vote", "target": seer, "request_id": "d1-w2-vote"}));
    r.order(&w2, &g1, json!({"act": "vote", "target": unt}));
    if let Some(m) = holder(&seats, "megaphone") {
        r.order(&m, &g1, json!({"act": "megaphone", "target": unt}));
    }
    r.order_form(&auth, &g1, &[("act", "authority"), ("from", &w1), ("target", &unt)]);
    r.order(&w1, &g1, json!({"act": "kill", "target": seer}));
    r.order(&w2, &g1, json!({"act": "kill", "target": pass}));
    r.order(&half, &g1, json!({"act": "kill", "target": nurse}));
    r.order(&seer, &g1, json!({"act": "check", "target": w1}));
    r.order_form(&nurse, &g1, &[("act", "heal"), ("target", &w2)]);
    r.order(&witch, &g1, json!({"act": "kill", "target": hamster}));
    r.order_form(&sleep, &g1, &[("act", "swap"), ("target", &pass), ("target2", &unt)]);
    r.order(&maniac, &g1, json!({"act": "assault", "target": auth}));
    r.order(&hamster, &g1, json!({"act": "kill", "target": w2}));
    if let Some(h) = holder(&seats, "shocker") {
        let t = if h == pass { unt.clone() } else { pass.clone() };
        r.order(&h, &g1, json!({"act": "use", "item": "shocker", "target": t}));
    }
    if let Some(h) = holder(&seats, "love_note") {
        let t = if h == seer { nurse.clone() } else { seer.clone() };
        r.order(&h, &g1, json!({"act": "use", "target": t}));
    }
    if let Some(h) = holder(&seats, "voodoo") {
        let t = if h == maniac { sleep.clone() } else { maniac.clone() };
        r.order_form(&h, &g1, &[("act", "use"), ("target", &t)]);
    }
    r.note("G1 day 1: refused orders");
    r.order(&pass, &g1, json!({"act": "vote", "target": "Никто"}));
    r.order(&pass, &g1, json!({"act": "kill", "target": seer}));
    r.order(&pass, &g1, json!({"act": "check", "target": seer}));
    r.order(&unt, &g1, json!({"act": "heal", "target": seer}));
    r.order(&unt, &g1, json!({"act": "bunker"}));
    r.order(&unt, &g1, json!({"act": "exchange", "target": seer}));
    r.order(&unt, &g1, json!({"act": "light"}));
    r.order(&unt, &g1, json!({"act": "pair", "target": seer}));
    r.order(&unt, &g1, json!({"act": "sentence", "target": seer}));
    r.order(&unt, &g1, json!({"act": "cancel"}));
    r.order(&unt, &g1, json!({"act": "swap", "targets": [seer, nurse]}));
    r.order(&unt, &g1, json!({"act": "recharge", "target": seer}));
    r.order(&unt, &g1, json!({"act": "vote", "targets": [seer, nurse]}));
    r.order(&w1, &g1, json!({"act": "kill", "targets": [seer, nurse]}));
    r.order(&unt, &g1, json!({"act": "vote", "target": seer, "by": seer}));
    r.order(&unt, &g1, json!({"act": "vote", "target": seer, "day": 5}));
    r.order(&unt, &g1, json!({"act": "dance", "target": seer}));
    r.order(&unt, &g1, json!({"act": "vote"}));
    r.order(SPECTATOR, &g1, json!({"act": "vote", "target": seer}));
    r.order(HOST, &g1, json!({"act": "vote", "target": seer}));
    r.order_form(&unt, &g1, &[("act", "check"), ("target", &seer)]);
    r.post(VISITOR, &format!("{}/orders", g1.api()), json!({"act": "vote", "target": seer}));
    let mut noitem = names_with(&seats, |s| s.item.is_none() || s.item.as_deref() == Some("trap"));
    noitem.push(pass.clone());
    r.order(&noitem[0], &g1, json!({"act": "use", "target": seer}));
    r.order(&noitem[0], &g1, json!({"act": "use", "item": "voodoo", "target": seer}));
    r.order(&noitem[0], &g1, json!({"act": "megaphone", "target": seer}));
    r.get(&w2, &format!("{}/orders", g1.api()));

    r.note("G1 day 1: the thread and the pack's chat");
    r.say(&pass, &g1, "thread", "Доброе утро, остров! Кто что думает?");
    r.say(&w1, &g1, "pack", "Ночью идём к ясновидящей.");
    r.say(&seer, &g1, "thread", "Подозреваю неприкасаемого, голосую.");
    r.say(&seer, &g1, "pack", "Можно и мне в чат стаи?");
    r.say(HOST, &g1, "thread", "Ведущая: до дедлайна ещё далеко.");
    r.say(&unt, &g1, "thread", "");
    r.say(SPECTATOR, &g1, "thread", "Зритель пишет");
    r.form(HOST, &g1.page(), &format!("{}/flag", g1.page()), &[("post", "3"), ("action", "flag"), ("confirm", "1")]);
    r.form(HOST, &g1.page(), &format!("{}/flag", g1.page()), &[("post", "2"), ("action", "flag"), ("confirm", "1")]);
    r.form(&seer, &g1.page(), &format!("{}/flag", g1.page()), &[("post", "1"), ("action", "flag"), ("confirm", "1")]);
    r.get(&w1, &format!("{}/thread?room=pack&day=1", g1.page()));
    r.get(&pass, &format!("{}/thread?room=thread&day=1&page=1", g1.page()));

    r.note("the side games, day 1 (10:00)");
    // S1 (Bunker): a tie between the two passengers, fixed by the host.
    let s = r.seats(&s1);
    let civ = names_with(&s, |x| !wolf_side(x));
    let (sw, ss, sn) = (one(&s, "werewolf"), one(&s, "seer"), one(&s, "nurse"));
    let sp = names_with(&s, |x| x.role == "passenger");
    r.order(&sp[0], &s1, json!({"act": "bunker"}));
    r.order(&sp[1], &s1, json!({"act": "bunker", "item": "trap"}));
    r.order_form(&ss, &s1, &[("act", "bunker")]);
    r.order(&ss, &s1, json!({"act": "vote", "target": sp[0]}));
    r.order(&sn, &s1, json!({"act": "vote", "target": sp[1]}));
    r.order(&sp[0], &s1, json!({"act": "vote", "target": sp[1]}));
    r.order(&sp[1], &s1, json!({"act": "vote", "target": sp[0]}));
    r.order(&sw, &s1, json!({"act": "vote", "target": sw}));
    r.host(&s1, "fix", json!({"tie_break": [sp[0]]}));
    r.host(&s1, "fix", json!({"tie_break": ["Никто"]}));
    r.host(&s1, "fix", json!({"event": "rage"}));
    r.host(&s1, "fix", json!({"day": 2, "chosen": civ[0]}));
    // S2 (Choose me!): the chosen one pairs; a shocker used.
    let s = r.seats(&s2);
    let s2_wolf = one(&s, "werewolf");
    let s2_other: Vec<String> = names_with(&s, |x| !wolf_side(x) && x.name != s2_chosen);
    r.order(&s2_chosen, &s2, json!({"act": "pair", "target": s2_chosen}));
    r.order_form(&s2_chosen, &s2, &[("act", "pair"), ("target", &s2_other[0])]);
    r.order(&s2_other[1], &s2, json!({"act": "pair", "target": s2_other[2]}));
    r.order(&s2_other[1], &s2, json!({"act": "use", "target": s2_wolf}));
    r.order(&s2_other[1], &s2, json!({"act": "use", "target": s2_other[2]}));
    for p in names_with(&s, |_| true) {
        r.order(&p, &s2, json!({"act": "vote", "target": s2_other[2]}));
    }
    // S3 (Fear): the seer is elected leader and sentences a passenger.
    let s = r.seats(&s3);
    let s3_seer = one(&s, "seer");
    let s3_wolf = one(&s, "werewolf");
    let s3_pass = names_with(&s, |x| x.role == "passenger");
    for p in names_with(&s, |_| true) {
        r.order(&p, &s3, json!({"act": "vote", "target": s3_seer}));
    }
    r.order(&s3_seer, &s3, json!({"act": "sentence", "target": s3_wolf}));
    r.order_form(&s3_seer, &s3, &[("act", "sentence"), ("target", &s3_pass[0])]);
    r.order(&s3_wolf, &s3, json!({"act": "sentence", "target": s3_seer}));
    r.say(&s3_pass[0], &s3, "thread", "Страшно, но голосуем за лидера.");
    r.say(&s3_wolf, &s3, "pack", "Тихо сижу.");
    // S4 (Full moon): the werewolf attacks two; nobody is voted out (tie = none).
    let s = r.seats(&s4);
    let s4_wolf = one(&s, "werewolf");
    let s4_civ = names_with(&s, |x| !wolf_side(x));
    r.order(&s4_wolf, &s4, json!({"act": "kill", "targets": [s4_civ[0], s4_civ[1]]}));
    r.order_form(&s4_wolf, &s4, &[("act", "kill"), ("target", &s4_civ[0]), ("target2", &s4_civ[2])]);
    r.order(&s4_civ[3], &s4, json!({"act": "vote", "targets": [s4_civ[0], s4_civ[1]]}));
    r.order(&s4_civ[3], &s4, json!({"act": "vote", "target": s4_civ[3]}));
    // S5 (Tsunami): everyone votes the first civilian.
    let s = r.seats(&s5);
    let s5_civ = names_with(&s, |x| !wolf_side(x));
    for p in names_with(&s, |_| true) {
        r.order(&p, &s5, json!({"act": "vote", "target": s5_civ[0]}));
    }
    for g in [&s1, &s2, &s3, &s4, &s5] {
        let p = PLAYERS[0];
        r.glance(g, "day 1 morning", p);
    }
    r.sweep(&g1, "day 1, the morning's orders in", &viewers);

    // ---------------------------------------------------------------- day 1, 13:00
    r.phase("03_day1_afternoon_and_resolution");
    r.clock(START + 15 * HOUR);
    r.order(&unt, &g1, json!({"act": "ask", "text": "Ровно в 13:00?"}));
    r.clock(START + 15 * HOUR + 2 * MINUTE);
    r.note("after the 13:00 stage");
    r.order(&unt, &g1, json!({"act": "ask", "text": "Уже поздно?"}));
    r.order(&sp[0], &s1, json!({"act": "bunker"}));
    r.order(&s2_chosen, &s2, json!({"act": "pair", "target": s2_other[1]}));
    r.order(&w1, &g1, json!({"act": "vote", "target": pass}));
    r.order(&w1, &g1, json!({"act": "vote", "target": unt}));
    r.host(&g1, "penalty", json!({"target": pass, "reason": "слив роли"}));
    r.host_form(
        &g1,
        &[("action", "penalty"), ("target", &maniac), ("reason", "  грубость \n в треде "), ("confirm", "1")],
    );
    r.host_form(&g1, &[("action", "penalty"), ("target", "")]);
    r.host(&g1, "penalty", json!({"target": "Никто"}));
    r.host(&g1, "penalty", json!({"target": pass, "reason": "x".repeat(501)}));
    r.host(&g1, "nonsense", json!({}));
    r.host(&g1, "extend", json!({}));
    r.post(&seer, &format!("{}/host/resolve", g1.api()), json!({}));
    for g in [&s1, &s2, &s3, &s4, &s5] {
        r.glance(g, "day 1 afternoon", PLAYERS[1]);
    }
    r.sweep(&g1, "day 1 afternoon", &viewers);

    r.clock(START + 23 * HOUR);
    r.note("21:00 sharp: an order still counts");
    r.order(&sleep, &g1, json!({"act": "swap", "targets": [pass, nurse]}));
    r.clock(START + 23 * HOUR + MINUTE + 30);
    r.note("21:01:30: day 1 is resolved");
    r.order(&sleep, &g1, json!({"act": "swap", "targets": [pass, unt]}));
    r.host(&g1, "resolve", json!({}));
    r.host(&g1, "extend", json!({"minutes": 30}));
    for g in [&s1, &s2, &s3, &s4, &s5] {
        r.glance(g, "day 1 resolved", PLAYERS[2]);
    }
    r.sweep(&g1, "day 1 resolved", &viewers);

    // ---------------------------------------------------------------- day 2
    r.phase("04_day2");
    r.clock(START + 24 * HOUR);
    r.note("22:00: day 2 opens");
    r.host(&g1, "fix", json!({"event": "fear"}));
    r.clock(START + 36 * HOUR);
    r.note("G1 day 2, 10:00: the orders");
    let seats = r.seats(&g1);
    let alive = |n: &str| seats.iter().any(|s| s.name == n && s.alive);
    let living = names_with(&seats, |s| s.alive);
    let dead = names_with(&seats, |s| !s.alive);
    r.note(&format!("G1 living: {}; dead: {}", living.join(", "), dead.join(", ")));
    for p in &living {
        r.order(p, &g1, json!({"act": "vote", "target": w1}));
    }
    if let Some(d) = dead.first() {
        r.order(d, &g1, json!({"act": "vote", "target": w1}));
        r.order(&seer, &g1, json!({"act": "check", "target": d}));
        r.say(d, &g1, "thread", "Пишу с того света.");
    }
    r.order(&seer, &g1, json!({"act": "vote", "target": w1, "day": 1}));
    r.order(&seer, &g1, json!({"act": "vote", "target": w1, "request_id": "d1-vote-1"}));
    if alive(&witch) {
        r.order(&witch, &g1, json!({"act": "kill", "target": w2}));
        r.order_form(&witch, &g1, &[("act", "cancel")]);
    }
    if alive(&sleep) {
        let spent = seats.iter().find(|s| s.alive && s.item.is_some() && !s.charged).map(|s| s.name.clone());
        r.order(&sleep, &g1, json!({"act": "recharge", "target": spent.unwrap_or_else(|| seer.clone())}));
    }
    if alive(&w2) {
        r.order(&w2, &g1, json!({"act": "kill", "target": seer}));
    }
    r.order(&half, &g1, json!({"act": "kill", "target": seer}));
    r.order(&seer, &g1, json!({"act": "check", "target": half}));
    r.order(&nurse, &g1, json!({"act": "heal", "target": nurse}));
    r.order(&maniac, &g1, json!({"act": "assault", "target": nurse}));
    r.order(&hamster, &g1, json!({"act": "kill", "target": seer}));
    r.order(&auth, &g1, json!({"act": "authority", "from": seer, "target": w1}));
    for item in ["shocker", "voodoo", "love_note", "megaphone"] {
        if let Some(h) = seats.iter().find(|s| s.alive && s.item.as_deref() == Some(item)).map(|s| s.name.clone()) {
            let act = if item == "megaphone" { "megaphone" } else { "use" };
            r.order(&h, &g1, json!({"act": act, "target": w1}));
        }
    }
    r.say(&seer, &g1, "thread", "Сегодня голосуем за первого оборотня.");
    r.say(&w2, &g1, "pack", "Держимся.");
    r.form(HOST, &g1.page(), &format!("{}/flag", g1.page()), &[("post", "9"), ("action", "flag"), ("confirm", "1")]);
    r.form(HOST, &g1.page(), &format!("{}/flag", g1.page()), &[("post", "x"), ("action", "flag"), ("confirm", "1")]);
    r.form(HOST, &g1.page(), &format!("{}/flag", g1.page()), &[("post", "99"), ("action", "flag"), ("confirm", "1")]);
    r.form(HOST, &g1.page(), &format!("{}/flag", g1.page()), &[("post", "1"), ("action", "dismiss")]);

    r.note("the side games, day 2 (10:00)");
    // S1 (Exchange): two name each other; one names themself.
    let s = r.seats(&s1);
    let s1_living = names_with(&s, |x| x.alive);
    if s1_living.len() >= 3 {
        r.order(&s1_living[0], &s1, json!({"act": "exchange", "target": s1_living[1]}));
        r.order_form(&s1_living[1], &s1, &[("act", "exchange"), ("target", &s1_living[0])]);
        r.order(&s1_living[2], &s1, json!({"act": "exchange", "target": s1_living[2]}));
    }
    // S2 (Mystic light): the spent shocker lit again.
    let s = r.seats(&s2);
    for x in s.iter().filter(|x| x.alive) {
        r.order(&x.name, &s2, json!({"act": "light"}));
    }
    // S3 (Palms bloom): a banned word flagged automatically; the host dismisses one flag
    // and flags another post by hand.
    let s = r.seats(&s3);
    let s3_living = names_with(&s, |x| x.alive);
    r.say(&s3_living[0], &s3, "thread", "Я думаю, что да.");
    r.say(&s3_living[1], &s3, "thread", "Голосуем спокойно, без лишних слов.");
    r.say(&s3_living[2], &s3, "thread", "Они всё знают, нет?");
    r.form(HOST, &s3.page(), &format!("{}/flag", s3.page()), &[("post", "3"), ("action", "dismiss")]);
    r.form(HOST, &s3.page(), &format!("{}/flag", s3.page()), &[("post", "4"), ("action", "flag"), ("confirm", "1")]);
    r.form(HOST, &s3.page(), &format!("{}/flag", s3.page()), &[("post", "4"), ("action", "dismiss")]);
    r.get(HOST, &format!("{}/thread.md", s3.page()));
    // S4 (Rage): two votes each.
    let s = r.seats(&s4);
    let s4_living = names_with(&s, |x| x.alive);
    let s4_civ_living = names_with(&s, |x| x.alive && !wolf_side(x));
    for p in &s4_living {
        if s4_civ_living.len() >= 2 {
            r.order(p, &s4, json!({"act": "vote", "targets": [s4_civ_living[0], s4_civ_living[1]]}));
        }
    }
    // S5 (Magnetic storm): no item may be used.
    let s = r.seats(&s5);
    for x in s.iter().filter(|x| x.alive && matches!(x.item.as_deref(), Some("shocker" | "love_note" | "voodoo"))) {
        let t = s.iter().find(|y| y.alive && y.name != x.name).unwrap().name.clone();
        r.order(&x.name, &s5, json!({"act": "use", "target": t}));
    }
    let s5_civ = names_with(&s, |x| x.alive && !wolf_side(x));
    for p in names_with(&s, |x| x.alive) {
        r.order(&p, &s5, json!({"act": "vote", "target": s5_civ[0]}));
    }
    for g in [&s1, &s2, &s3, &s4, &s5] {
        r.glance(g, "day 2 morning", PLAYERS[3]);
    }
    r.sweep(&g1, "day 2, the orders in", &viewers);

    r.clock(START + 39 * HOUR + 2 * MINUTE);
    r.note("day 2 after the 13:00 stage");
    for g in [&s1, &s2, &s3] {
        r.glance(g, "day 2 afternoon", PLAYERS[4]);
    }
    r.order(&s2_chosen, &s2, json!({"act": "light"}));
    r.clock(START + 47 * HOUR + 2 * MINUTE);
    r.note("day 2 resolved");
    for g in [&s1, &s2, &s3, &s4, &s5] {
        r.glance(g, "day 2 resolved", PLAYERS[0]);
    }
    r.sweep(&g1, "day 2 resolved", &viewers);

    // ---------------------------------------------------------------- day 3: host powers
    r.phase("05_day3_host_powers");
    r.clock(START + 60 * HOUR);
    r.note("G1 day 3, 10:00: the host's powers, then an early resolution");
    let seats = r.seats(&g1);
    let living = names_with(&seats, |s| s.alive);
    let target = if seats.iter().any(|s| s.name == w2 && s.alive) { w2.clone() } else { half.clone() };
    for p in &living {
        r.order(p, &g1, json!({"act": "vote", "target": target}));
    }
    r.host(&g1, "extend", json!({"minutes": 30}));
    r.host_form(&g1, &[("action", "extend"), ("minutes", "15")]);
    r.host_form(&g1, &[("action", "extend"), ("minutes", "0")]);
    r.host(&g1, "extend", json!({"deadline": "2026-12-04T22:00:00+03:00"}));
    r.host(&g1, "extend", json!({"deadline": "завтра"}));
    r.host(&g1, "pause", json!({}));
    r.get(&seer, &g1.api());
    r.clock(START + 60 * HOUR + 10 * MINUTE);
    r.host(&g1, "pause", json!({}));
    r.host_form(&g1, &[("action", "resume")]);
    r.host(&g1, "resume", json!({}));
    r.host_form(&g1, &[("action", "pause")]);
    r.host(&g1, "resume", json!({"request_id": "resume-1"}));
    r.host(&g1, "resume", json!({"request_id": "resume-1"}));
    r.host_form(&g1, &[("action", "fly")]);
    r.host(&g1, "fix", json!({"day": 1, "tie_break": [seer]}));
    r.host(&g1, "fix", json!({"event": "fear"}));
    r.get(HOST, &g1.api());
    r.host(&g1, "resolve", json!({}));
    r.host(&g1, "resolve", json!({}));
    r.sweep(&g1, "day 3 resolved early", &viewers);

    // The side games end: their werewolves removed (by the API and by the form).
    r.note("the side games end");
    for (i, g) in [&s1, &s2, &s3, &s4, &s5].into_iter().enumerate() {
        if r.status(g) != "running" {
            continue;
        }
        for w in names_with(&r.seats(g), |x| x.alive && wolf_side(x)) {
            if i % 2 == 0 {
                r.host(g, "remove", json!({"target": w, "reason": "конец проверки"}));
            } else {
                r.host_form(g, &[("action", "remove"), ("target", &w), ("reason", "конец проверки"), ("confirm", "1")]);
            }
        }
        if r.status(g) == "running" {
            r.host_form(g, &[("action", "resolve"), ("confirm", "1")]);
        }
    }
    for g in [&s1, &s2, &s3, &s4, &s5] {
        r.glance(g, "over", PLAYERS[1]);
        r.get(HOST, &format!("{}/report", g.api()));
        r.get(PLAYERS[1], &format!("{}/gamefile", g.api()));
    }

    // ---------------------------------------------------------------- the end of G1
    r.phase("06_the_end");
    r.clock(START + 84 * HOUR);
    r.note("G1, the next day at 10:00: the host removes the rest of the werewolves' side and the hamster");
    let seats = r.seats(&g1);
    for (k, s) in seats.iter().filter(|s| s.alive && (wolf_side(s) || s.role == "hamster")).enumerate() {
        if k % 2 == 0 {
            r.host_form(
                &g1,
                &[("action", "remove"), ("target", &s.name), ("reason", "дисквалификация"), ("confirm", "1")],
            );
        } else {
            r.host(&g1, "remove", json!({"target": s.name, "reason": "дисквалификация"}));
        }
    }
    r.host(&g1, "remove", json!({"target": w1}));
    if r.status(&g1) == "running" {
        r.host(&g1, "resolve", json!({}));
    }
    r.order(&seer, &g1, json!({"act": "vote", "target": seer}));
    r.host(&g1, "pause", json!({}));
    r.sweep(&g1, "the game is over", &viewers);
    r.get(HOST, "/rules");
    for who in [HOST, w1.as_str(), SPECTATOR, VISITOR] {
        r.get(who, &format!("{}/thread?room=thread&day=1", g1.page()));
        r.get(who, &format!("{}/thread?room=pack&day=2", g1.page()));
    }
    r.get(HOST, &format!("{}/newspapers/99/evening", g1.api()));
    r.get(HOST, &format!("{}/newspapers/1/nothing", g1.api()));
    r.get(HOST, &format!("{}/newspapers/1/evening?format=pdf", g1.api()));
    r.get(HOST, &format!("{}/inbox?format=pdf", g1.api()));
    r.get(HOST, &format!("{}/gamefile?format=yaml", g1.api()));
    r.get(HOST, &format!("{}/papers/99/final", g1.page()));
    r.get(HOST, "/api/games/999");
    r.get(HOST, "/games/999");
    r.get(HOST, "/no-such-page");
    r.call(HOST, "DELETE", &g1.api(), None);
    r.get(HOST, "/");
    r.get(HOST, "/api/games");
    r.phase("");

    let requests = r.n;
    let total: usize = r.parts.iter().map(|(_, t)| t.len()).sum();
    eprintln!("recording: {requests} requests, {total} bytes, {:?}", t0.elapsed());
    let parts = std::mem::take(&mut r.parts);
    drop(r);
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(true);
    settings.set_omit_expression(true);
    settings.bind(|| {
        for (name, text) in parts {
            insta::assert_snapshot!(name, text);
        }
    });
}
