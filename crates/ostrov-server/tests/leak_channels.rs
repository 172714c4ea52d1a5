//! Issue 28, "Done when": a leak test over every channel.
//!
//! Three seeded games (7, 8 and 9 seats) run side by side on one server, driven over HTTP
//! with the test clock for a few days by the simulator's bots (`ostrov-bots`: each seat's
//! orders come from what that seat sees, in a mirror of the game the test replays from the
//! host's game file). Everything a client can make secret carries a unique marker word
//! (`zq` + kind + number + `x`), written into a ledger with who may see it:
//! - a post in the thread: everyone (also by the dead, a spectator and the host);
//! - a post in the pack's chat (by the pack or the host): the pack, dead or alive, and the
//!   host (the engine's `Sight::pack_chat`, O-THREAD-4), also once the game is over
//!   (O-THREAD-6);
//! - an order (its `request_id`): its seat and the host (`Sight::orders`); once the game is
//!   over everyone, since the game file and the log are published then (O-THREAD-6);
//! - a Spirit question (its text): the asker and the host, and everyone from the 13:00
//!   stage on if it is the day's question (R-SPIRIT-1, RULES.md: question and author go in
//!   the newspaper);
//! - the invite code: the host and the seats; the seed: the host (everyone once over);
//! - a request to the host (issue 31, point 3): its sender and the host, ever.
//!
//! Twice a day every viewer — each seat alive and dead, the host, a spectator who posts,
//! an outsider, a member of another game, a visitor who is not signed in — fetches every
//! page, API endpoint, inbox and paper format, the thread's rooms of every day, the thread
//! export and the live stream, and every marker found in an answer must be one that viewer
//! may see. Beside the markers, facts without a unique word are checked by structure against
//! the engine's `Match::sight` of the mirror: which roles and items the game view shows,
//! whose orders and notices, a living player's role next to their name in any text, the
//! text of another seat's seer result, and «маньяк» next to the maniac's victim. The live
//! stream: after a batch of secret acts (orders, the pack's posts, the host's answer to
//! the Spirit) only the streams of those who may see one of them say `changed`.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use ostrov_bots::{has_morning, Bot, RandomBot, SensibleBot, View};
use ostrov_engine::{Actor, Clock, Command, Game, Match, NoticeKind, Order, PlayerId, Viewer};
use ostrov_server::client::{Client, Reply};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use support::{ok, Server, HOUR, START};

/// The games: seed, setup, seat names (no name is a part of another, in any game).
const GAMES: [(u64, &str, &[&str]); 3] = [
    (
        7_316_480_025_913,
        "werewolf,halfblood,seer,maniac,nurse",
        &["Агния", "Богдана", "Всеволод", "Гликерия", "Доброслав", "Евпраксия", "Ждан"],
    ),
    (
        5_902_871_334_067,
        "werewolf=2,seer,maniac,witch,authority",
        &["Златослава", "Изяслав", "Капитолина", "Лукьян", "Мирослава", "Никодим", "Олимпиада", "Пантелей"],
    ),
    (
        4_418_093_776_251,
        "werewolf=2,halfblood,seer,maniac,nurse,sleepwalker,hamster",
        &["Ростислава", "Святополк", "Таисия", "Ульян", "Фекла", "Харитон", "Цветана", "Чеслав", "Шушаника"],
    ),
];
const HOSTS: [&str; 3] = ["Смотрительница", "Лоцман", "Сторож маяка"];
const SPECTATOR: &str = "Зевака";
const OUTSIDER: &str = "Прохожий";
/// Days played before the hosts end the games that still run.
const DAYS: u32 = 3;
const PAPER_FORMATS: [&str; 7] = ["markdown", "gfm", "bbcode", "bbcode-tables", "html", "html-fragment", "plain"];
const INBOX_FORMATS: [&str; 8] =
    ["json", "markdown", "gfm", "bbcode", "bbcode-tables", "html", "html-fragment", "plain"];
/// How long a stream is given to hear of a change.
const SETTLE: Duration = Duration::from_millis(500);

/// Who may see a marker.
#[derive(Clone, Debug)]
enum Audience {
    /// Everyone.
    Public,
    /// The pack's chat (O-THREAD-4).
    Pack,
    /// A seat's own: its orders.
    Seat(PlayerId),
    /// A Spirit question: the asker's until it is the day's question at 13:00.
    Question { asker: PlayerId, day: u32, word: String },
    /// The host and the seats (the invite).
    Members,
    /// The host's (the seed).
    Host,
    /// A request to the host: its sender's and the host's, also once the game is over.
    Request(PlayerId),
}

struct Secret {
    game: usize,
    audience: Audience,
}

/// One account and what it is in each game.
#[derive(Clone)]
struct Account {
    label: String,
    client: Option<Client>,
    /// Per game: the seat, if any.
    seats: Vec<Option<PlayerId>>,
    /// Per game: whether this is its host.
    hosts: Vec<bool>,
}

impl Account {
    fn viewer(&self, g: usize) -> Viewer {
        if self.hosts[g] {
            Viewer::Host
        } else if let Some(p) = self.seats[g] {
            Viewer::Seat(p)
        } else if self.client.is_some() {
            Viewer::Spectator
        } else {
            Viewer::Outsider
        }
    }
}

/// A game as the test drives it.
struct Table {
    id: i64,
    invite: String,
    host: usize,
    /// The seats' names, as they joined.
    names: &'static [&'static str],
    /// Account index per seat, in the order of `names`.
    seats: Vec<usize>,
    bots: Vec<Box<dyn Bot>>,
    rng: ChaCha8Rng,
    /// The mirror of the game, replayed from the host's game file.
    m: Match,
    over: bool,
    /// The host's report now (notices with their texts).
    report: Value,
    /// The host's view of the players: name → (role name as shown, role id).
    roles: BTreeMap<String, String>,
    papers_seen: BTreeSet<String>,
    /// The over game has had its last sweep.
    done: bool,
}

impl Table {
    /// The index in `names` (and `seats`, `bots`) of seat `p`.
    fn at(&self, p: PlayerId) -> usize {
        let name = self.m.state().name(p);
        self.names.iter().position(|n| *n == name).unwrap()
    }

    /// The account of seat `p`.
    fn account(&self, p: PlayerId) -> usize {
        self.seats[self.at(p)]
    }
}

/// The status line of a GET of `path` without a session (the body is not read).
fn status_line(addr: std::net::SocketAddr, path: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(s, "GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    let mut line = String::new();
    BufReader::new(s).read_line(&mut line).unwrap();
    line
}

/// An open live stream.
struct Stream {
    account: usize,
    game: usize,
    lines: BufReader<TcpStream>,
    /// Everything read so far (checked for markers and shape).
    seen: String,
}

impl Stream {
    fn open(c: &Client, account: usize, game: usize, id: i64) -> Stream {
        let lines = support::live(c, id);
        Stream { account, game, lines, seen: String::new() }
    }

    /// The events that have come (waiting at most `wait` for each next line).
    fn drain(&mut self, wait: Duration) -> Vec<(String, String)> {
        self.lines.get_ref().set_read_timeout(Some(wait)).unwrap();
        let mut out = Vec::new();
        let (mut event, mut data) = (String::new(), String::new());
        loop {
            let mut l = String::new();
            match self.lines.read_line(&mut l) {
                Ok(0) | Err(_) => return out,
                Ok(_) => {}
            }
            self.seen.push_str(&l);
            let l = l.trim_end_matches(['\r', '\n']);
            if let Some(e) = l.strip_prefix("event:") {
                event = e.trim().to_string();
            } else if let Some(d) = l.strip_prefix("data:") {
                data = d.trim().to_string();
                assert!(data.parse::<u64>().is_ok(), "a stream's data is a number: {data:?}");
            } else if l.is_empty() && !event.is_empty() {
                out.push((std::mem::take(&mut event), std::mem::take(&mut data)));
            }
        }
    }
}

struct World {
    server: Server,
    accounts: Vec<Account>,
    tables: Vec<Table>,
    ledger: BTreeMap<String, Secret>,
    next: u32,
    streams: Vec<Stream>,
    requests: usize,
    /// Other seats' seer results looked for, at most, in one viewer's answers.
    seer_texts: usize,
    /// The stand-in of Telegram's Bot API: every signed-in account's chat is linked
    /// (chat [`CHAT0`] + the account's index), and each chat's messages are checked as any
    /// other answer to that account (issue 31).
    telegram: support::telegram::BotApi,
    /// Each account's Telegram messages checked so far.
    telegram_seen: Vec<usize>,
    /// The SMTP sink: every signed-in account's address ([`address`]) is confirmed, and
    /// each mail to it is checked as any other answer to that account (issue 31).
    mail: support::mail::Sink,
    /// Each account's mails checked so far.
    mail_seen: Vec<usize>,
}

/// The e-mail address of account `a`.
fn address(a: usize) -> String {
    format!("konto{a}@ostrov.test")
}

/// The first account's Telegram chat.
const CHAT0: i64 = 70_000;

/// A marker word of kind `k`.
fn marker(next: &mut u32, k: char) -> String {
    *next += 1;
    format!("zq{k}{:05}x", *next)
}

/// The markers in a text.
fn markers_in(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut from = 0;
    while let Some(at) = text[from..].find("zq") {
        let s = from + at;
        if s + 9 <= b.len()
            && b[s + 2].is_ascii_lowercase()
            && b[s + 3..s + 8].iter().all(u8::is_ascii_digit)
            && b[s + 8] == b'x'
        {
            out.push(&text[s..s + 9]);
        }
        from = s + 2;
    }
    out
}

/// An order of a bot as the API takes it (`None`: the host's acts).
fn order_json(m: &Match, c: &Command) -> Option<Value> {
    let n = |p: PlayerId| m.state().name(p).to_string();
    let one = |act: &str, p: PlayerId| json!({"act": act, "target": n(p)});
    Some(match c {
        Command::Vote(t) | Command::Kill(t) => {
            let act = if matches!(c, Command::Vote(_)) { "vote" } else { "kill" };
            match t.second {
                Some(s) => json!({"act": act, "targets": [n(t.first), n(s)]}),
                None => one(act, t.first),
            }
        }
        Command::Megaphone(p) => one("megaphone", *p),
        Command::Sentence(p) => one("sentence", *p),
        Command::Check(p) => one("check", *p),
        Command::Heal(p) => one("heal", *p),
        Command::Recharge(p) => one("recharge", *p),
        Command::Assault(p) => one("assault", *p),
        Command::Exchange(p) => one("exchange", *p),
        Command::Pair(p) => one("pair", *p),
        Command::Authority { from, target } => json!({"act": "authority", "from": n(*from), "target": n(*target)}),
        Command::Swap(a, b) => json!({"act": "swap", "targets": [n(*a), n(*b)]}),
        Command::Use { target, .. } => one("use", *target),
        Command::Cancel => json!({"act": "cancel"}),
        Command::Light => json!({"act": "light"}),
        Command::Bunker { .. } => json!({"act": "bunker"}),
        Command::Ask(_) => json!({"act": "ask"}),
        Command::Withdraw(what) => json!({"act": "withdraw", "what": what.id()}),
        Command::Answer(_) | Command::Penalty { .. } | Command::Remove { .. } => return None,
    })
}

/// The game as the engine has it now, replayed from the host's game file; `open`: the
/// server's open day and whether its 13:00 stage has run.
fn replay(toml: &str, open: Option<(u32, bool)>) -> Match {
    let game = Game::parse(toml).unwrap_or_else(|e| panic!("the host's game file parses: {e:?}\n{toml}"));
    let mut m = Match::new(&game.setup, false);
    let n = game.days.len();
    for (i, plan) in game.days.iter().enumerate() {
        if m.winner().is_some() && plan.orders.is_empty() {
            continue;
        }
        let last_open = i + 1 == n && open.is_some_and(|(d, _)| d as usize == n);
        if !last_open {
            m.fix_next_event(game.days.get(i + 1).and_then(|next| next.event));
            m.play_day(plan).unwrap();
            continue;
        }
        m.open_day(plan).unwrap();
        let mut orders = plan.orders.clone();
        orders.sort_by_key(|o| o.at);
        for o in &orders {
            let _ = m.submit(o);
        }
        if open.is_some_and(|(_, afternoon)| afternoon) {
            m.midday_stage();
        }
    }
    // An opened day without an order yet is not in the file: its event is the one drawn.
    if let Some((d, afternoon)) = open.filter(|(d, _)| *d as usize == n + 1) {
        m.open_day(&ostrov_engine::DayPlan::default()).unwrap();
        assert_eq!(m.state().day(), d);
        if afternoon {
            m.midday_stage();
        }
    }
    m
}

/// The body of a 200 reply.
fn ok_text(r: &Reply) -> String {
    assert_eq!(r.status, 200, "{}", r.body);
    r.body.clone()
}

/// The pieces of a text in which a name next to a word says something of that player: a
/// JSON answer's strings; a thread's posts; a text's lines, paragraphs, list items and
/// table rows.
fn pieces(body: &str) -> Vec<String> {
    if let Ok(v) = serde_json::from_str::<Value>(body) {
        let mut out = Vec::new();
        support::strings(&v, &mut out);
        return out;
    }
    // A post of the thread (its author, marks and text) is one piece.
    let mut out = Vec::new();
    for (i, chunk) in body.split("<li id=\"post-").enumerate() {
        let (post, rest) = if i == 0 { ("", chunk) } else { chunk.split_once("</li>").unwrap_or((chunk, "")) };
        if !post.is_empty() {
            out.push(post.to_string());
        }
        let mut parts = vec![rest.to_string()];
        for cut in ["\n", "<tr", "<li", "<p", "<br", "[*]", "[tr]"] {
            parts = parts.iter().flat_map(|p| p.split(cut)).map(str::to_string).collect();
        }
        out.extend(parts);
    }
    out
}

impl World {
    fn client(&self, a: usize) -> Client {
        self.accounts[a].client.clone().expect("a signed-in account")
    }

    fn get(&mut self, a: usize, path: &str) -> Reply {
        self.requests += 1;
        let mut visitor = Client::new(self.server.addr);
        let c = self.accounts[a].client.as_mut().unwrap_or(&mut visitor);
        let r = c.get(path).unwrap_or_else(|e| panic!("GET {path}: {e}"));
        assert!(r.status < 500, "{}: GET {path}: HTTP {} {}", self.accounts[a].label, r.status, r.body);
        r
    }

    fn post(&mut self, a: usize, path: &str, body: Value) -> Reply {
        self.requests += 1;
        let r = self.accounts[a].client.as_mut().expect("signed in").post(path, body).unwrap();
        assert!(r.status < 500, "{}: POST {path}: HTTP {} {}", self.accounts[a].label, r.status, r.body);
        r
    }

    /// A post to `room` of game `g` by account `a` from the web form, carrying a new
    /// marker; `true` when it was taken.
    fn say(&mut self, g: usize, a: usize, room: &str, audience: Audience) -> bool {
        let k = if room == "pack" { 'p' } else { 't' };
        let m = marker(&mut self.next, k);
        let id = self.tables[g].id;
        let c = self.accounts[a].client.as_mut().expect("signed in");
        self.requests += 2;
        let r = support::web_post(c, id, room, &format!("Заметка {m} про остров и погоду."));
        assert!(r.status < 500, "{}", r.body);
        let taken = r.status == 303;
        if taken {
            self.ledger.insert(m, Secret { game: g, audience });
        }
        taken
    }

    /// Runs every due step of every game (a GET as the host).
    fn touch(&mut self) {
        for g in 0..self.tables.len() {
            let (h, id) = (self.tables[g].host, self.tables[g].id);
            self.get(h, &format!("/api/games/{id}"));
        }
    }

    /// Replays every game's mirror from its host's game file; the host's report and roles.
    fn refresh(&mut self) {
        for g in 0..self.tables.len() {
            let (h, id) = (self.tables[g].host, self.tables[g].id);
            let v = ok(&self.get(h, &format!("/api/games/{id}")));
            let open = v["open"]["day"].as_u64().map(|d| (d as u32, v["open"]["phase"] == "afternoon"));
            let toml = self.get(h, &format!("/api/games/{id}/gamefile")).body;
            let report = ok(&self.get(h, &format!("/api/games/{id}/report")));
            let t = &mut self.tables[g];
            t.m = replay(&toml, open);
            t.over = v["status"] == "over";
            assert_eq!(t.over, t.m.winner().is_some(), "the mirror of game {g} agrees: {v}");
            for p in v["players"].as_array().unwrap() {
                let name = p["name"].as_str().unwrap();
                let id = t.m.find(name).unwrap();
                assert_eq!(p["alive"].as_bool(), Some(t.m.state().alive(id)), "the mirror of game {g}: {name}");
                t.roles.insert(name.to_string(), p["role"]["name"].as_str().unwrap().to_string());
            }
            t.report = report;
        }
    }

    /// Whether account `a` may see secret `s` now.
    fn may_see(&self, a: usize, s: &Secret) -> bool {
        let t = &self.tables[s.game];
        let v = self.accounts[a].viewer(s.game);
        let sight = t.m.sight(v);
        // The game file, the report and the log are everyone's once the game is over (API.md).
        let over = sight.sees_all();
        match &s.audience {
            Audience::Public => true,
            Audience::Pack => sight.pack_chat(),
            Audience::Seat(p) => sight.orders(*p) || over,
            Audience::Question { asker, day, word } => {
                sight.orders(*asker)
                    || over
                    || t.m
                        .record(*day)
                        .and_then(|r| r.question.as_ref())
                        .is_some_and(|(_, q)| q.contains(word.as_str()))
            }
            Audience::Members => v == Viewer::Host || matches!(v, Viewer::Seat(_)),
            Audience::Host => over,
            Audience::Request(p) => v == Viewer::Host || v == Viewer::Seat(*p),
        }
    }

    /// The markers account `a` may not see now, and the other secrets as text.
    fn forbidden(&self, a: usize) -> (BTreeSet<String>, Vec<(String, String)>) {
        let markers = self.ledger.iter().filter(|(_, s)| !self.may_see(a, s)).map(|(k, _)| k.clone()).collect();
        let mut texts = Vec::new();
        for (g, t) in self.tables.iter().enumerate() {
            let v = self.accounts[a].viewer(g);
            if !self.may_see(a, &Secret { game: g, audience: Audience::Members }) {
                texts.push((t.invite.clone(), format!("the invite of game {g}")));
            }
            if !self.may_see(a, &Secret { game: g, audience: Audience::Host }) {
                texts.push((GAMES[g].0.to_string(), format!("the seed of game {g}")));
            }
            // Another seat's seer results, word for word.
            let sight = t.m.sight(v);
            let own: BTreeSet<&str> = t.report["notices"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|n| t.m.find(n["to"].as_str().unwrap()).is_some_and(|p| sight.notices(p)))
                .map(|n| n["text"].as_str().unwrap())
                .collect();
            for n in t.m.state().notices() {
                let NoticeKind::Check { target, .. } = n.kind else { continue };
                if sight.notices(n.to) || sight.sees_all() {
                    continue;
                }
                let (to, target) = (t.m.state().name(n.to), t.m.state().name(target));
                for r in t.report["notices"].as_array().unwrap() {
                    let text = r["text"].as_str().unwrap();
                    if r["to"] == to && r["day"] == n.day && text.contains(target) && !own.contains(text) {
                        texts.push((text.to_string(), format!("{to}'s seer result in game {g}")));
                    }
                }
            }
        }
        (markers, texts)
    }

    /// Checks one answer to account `a`.
    fn check(
        &self,
        a: usize,
        path: &str,
        body: &str,
        forbidden: &(BTreeSet<String>, Vec<(String, String)>),
        stage: &str,
    ) {
        let who = &self.accounts[a].label;
        for m in markers_in(body) {
            assert!(
                !forbidden.0.contains(m),
                "{stage}: {who} sees {m} ({:?} of game {}) at {path}:\n{body}",
                self.ledger[m].audience,
                self.ledger[m].game
            );
            assert!(self.ledger.contains_key(m), "{stage}: an unknown marker {m} at {path}");
        }
        for (text, what) in &forbidden.1 {
            assert!(!body.contains(text.as_str()), "{stage}: {who} sees {what} ({text}) at {path}:\n{body}");
        }
        // Roles of the living others, and the maniac's victims, next to their names.
        let ps = pieces(body);
        for (g, t) in self.tables.iter().enumerate() {
            let sight = t.m.sight(self.accounts[a].viewer(g));
            let victims: Vec<PlayerId> = t
                .m
                .state()
                .notices()
                .iter()
                .filter(|n| matches!(n.kind, NoticeKind::Assaulted) && !sight.maniac_victim(n.to) && !sight.sees_all())
                .map(|n| n.to)
                .collect();
            let maniac =
                t.m.state()
                    .list_order()
                    .iter()
                    .copied()
                    .find(|q| t.m.state().player(*q).role == ostrov_engine::Role::Maniac);
            let maniac_shown = maniac.filter(|q| sight.role(*q)).map(|q| t.m.state().name(q));
            // A seer knows the side of whom they checked (their own notices).
            let checked: Vec<PlayerId> =
                t.m.state()
                    .notices()
                    .iter()
                    .filter(|n| sight.notices(n.to))
                    .filter_map(|n| match n.kind {
                        NoticeKind::Check { target, .. } => Some(target),
                        _ => None,
                    })
                    .collect();
            for q in t.m.state().list_order().iter().copied() {
                let name = t.m.state().name(q);
                let hidden_role = t.m.state().alive(q) && !sight.role(q) && !checked.contains(&q);
                let victim = victims.contains(&q);
                if !hidden_role && !victim {
                    continue;
                }
                let role = &t.roles[name];
                for piece in ps.iter().filter(|p| p.contains(name)) {
                    assert!(
                        !hidden_role || !piece.contains(role.as_str()),
                        "{stage}: {who} learns that {name} is {role} at {path}: {piece:?}"
                    );
                    assert!(
                        !victim
                            || !(piece.contains("аньяк") || piece.contains("assaulted"))
                            || maniac_shown.is_some_and(|n| piece.contains(n)),
                        "{stage}: {who} learns that {name} was the maniac's victim at {path}: {piece:?}"
                    );
                }
            }
        }
    }
}

impl World {
    /// Every page and API answer of every game as every account and a visitor sees it, each
    /// checked (see [`World::check`]); each newspaper in every format the first time it is
    /// listed.
    fn sweep(&mut self, stage: &str) {
        self.refresh();
        let visitor = self.accounts.len() - 1;
        let mut papers: Vec<Vec<String>> = Vec::new();
        for g in 0..self.tables.len() {
            let (h, id) = (self.tables[g].host, self.tables[g].id);
            let list = ok(&self.get(h, &format!("/api/games/{id}/newspapers")));
            let mut fresh = Vec::new();
            for p in list.as_array().unwrap() {
                let url = p["url"].as_str().unwrap().to_string();
                if self.tables[g].papers_seen.insert(url.clone()) {
                    let page = format!("/games/{id}/papers/{}/{}", p["day"], p["kind"].as_str().unwrap());
                    fresh.push(page);
                    fresh.push(url.clone());
                    fresh.extend(PAPER_FORMATS.iter().map(|f| format!("{url}?format={f}")));
                }
            }
            papers.push(fresh);
        }
        for a in 0..self.accounts.len() {
            let forbidden = self.forbidden(a);
            self.seer_texts = self.seer_texts.max(forbidden.1.iter().filter(|(_, w)| w.contains("seer")).count());
            let mut paths: Vec<String> =
                ["/", "/profile", "/api/me", "/api/games", "/api/games?all=true"].map(String::from).to_vec();
            for (t, fresh) in self.tables.iter().zip(&papers) {
                if t.done {
                    continue;
                }
                let (id, invite) = (t.id, t.invite.clone());
                let api = format!("/api/games/{id}");
                let page = format!("/games/{id}");
                paths.extend([
                    api.clone(),
                    format!("/api/invites/{invite}"),
                    format!("/join/{invite}"),
                    format!("{api}/orders"),
                    format!("{api}/newspapers"),
                    format!("{api}/report"),
                    format!("{api}/gamefile"),
                    format!("{api}/gamefile?format=json"),
                    format!("{api}/events"),
                    format!("{api}/inbox"),
                    format!("{api}/requests"),
                    page.clone(),
                    format!("{page}/thread?room=thread"),
                    format!("{page}/thread?room=pack"),
                    format!("{page}/thread.md"),
                ]);
                paths.extend(INBOX_FORMATS.iter().map(|f| format!("{api}/inbox?format={f}")));
                for d in 1..=t.m.state().day() {
                    paths.push(format!("{page}/thread?room=thread&day={d}"));
                    paths.push(format!("{page}/thread?room=pack&day={d}"));
                }
                paths.extend(fresh.iter().cloned());
            }
            if a == visitor {
                for t in self.tables.iter().filter(|t| !t.done) {
                    let line = status_line(self.server.addr, &format!("/games/{}/live", t.id));
                    assert!(!line.contains(" 200 "), "{stage}: a visitor opens the live stream: {line}");
                }
            }
            if a != visitor {
                // What the bot told this account's chat since the last sweep.
                let said = self.telegram.to(CHAT0 + a as i64);
                for text in &said[self.telegram_seen[a]..] {
                    self.check(a, "telegram", text, &forbidden, stage);
                }
                self.telegram_seen[a] = said.len();
                // And what was mailed to its address.
                let mailed = self.mail.to(&address(a));
                for m in &mailed[self.mail_seen[a]..] {
                    let whole = format!("{}\n{}", m.header("subject").unwrap_or(""), m.body);
                    self.check(a, "mail", &whole, &forbidden, stage);
                }
                self.mail_seen[a] = mailed.len();
            }
            for p in paths {
                let r = self.get(a, &p);
                self.check(a, &p, &r.body, &forbidden, stage);
                if a != visitor {
                    self.structure(a, &p, &r, stage);
                } else if !p.contains("/papers/") && !p.contains("/newspapers/") && p != "/" {
                    assert!(r.status >= 300, "{stage}: a visitor GET {p}: {} {}", r.status, r.body);
                }
            }
        }
        for g in 0..self.tables.len() {
            if self.tables[g].over {
                self.tables[g].done = true;
            }
        }
    }

    /// The answers whose structure says what the engine's sight allows: the game view's
    /// roles, items and orders, the orders and the inbox (only one's own), the host's
    /// files (the host's until the game is over).
    fn structure(&self, a: usize, path: &str, r: &Reply, stage: &str) {
        let who = &self.accounts[a].label;
        for (g, t) in self.tables.iter().enumerate() {
            let api = format!("/api/games/{}", t.id);
            let Some(rest) = path.strip_prefix(&api) else { continue };
            let v = self.accounts[a].viewer(g);
            let sight = t.m.sight(v);
            let me = match v {
                Viewer::Seat(p) => Some(t.m.state().name(p).to_string()),
                _ => None,
            };
            let whose = |o: &Value| {
                assert_eq!(o["by"].as_str(), me.as_deref(), "{stage}: {who} sees another's order at {path}: {o}")
            };
            match rest {
                "" => {
                    let v = ok(r);
                    for p in v["players"].as_array().unwrap() {
                        let q = t.m.find(p["name"].as_str().unwrap()).unwrap();
                        let name = t.m.state().name(q);
                        assert_eq!(
                            p.get("role").is_some(),
                            sight.role(q),
                            "{stage}: {who} and the role of {name}: {p}; the event today: {:?}, day {}, public {}, open {}",
                            t.m.state().event(),
                            t.m.state().day(),
                            t.m.state().player(q).role_public,
                            t.m.today().is_some()
                        );
                        assert_eq!(
                            p.get("item").is_some(),
                            sight.item(q),
                            "{stage}: {who} and the item of {name}: {p}"
                        );
                    }
                    if !self.accounts[a].hosts[g] {
                        for k in ["orders", "setup", "invite", "broken"] {
                            assert!(v.get(k).is_none(), "{stage}: {who} gets the host's {k}: {v}");
                        }
                    }
                    v["you"]["orders"].as_array().into_iter().flatten().for_each(whose);
                    assert_eq!(v.get("you").is_some(), me.is_some(), "{stage}: {who}: {v}");
                }
                "/orders" if me.is_some() && r.status == 200 => {
                    r.json()["orders"].as_array().unwrap().iter().for_each(whose)
                }
                "/inbox" | "/inbox?format=json" if me.is_some() => {
                    let got: Vec<String> =
                        ok(r).as_array().unwrap().iter().map(|n| n["text"].as_str().unwrap().to_string()).collect();
                    let want: Vec<String> = t.report["notices"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .filter(|n| n["to"].as_str() == me.as_deref())
                        .map(|n| n["text"].as_str().unwrap().to_string())
                        .collect();
                    assert_eq!(got, want, "{stage}: {who}'s inbox");
                }
                "/orders" | "/inbox" if v == Viewer::Spectator => {
                    assert_eq!(r.status, 403, "{stage}: {who} GET {path}: {}", r.body)
                }
                s if s.starts_with("/inbox?") && v == Viewer::Spectator => {
                    assert_eq!(r.status, 403, "{stage}: {who} GET {path}: {}", r.body)
                }
                "/requests" => match v {
                    Viewer::Host => {
                        ok(r);
                    }
                    Viewer::Seat(_) => {
                        for q in ok(r)["requests"].as_array().unwrap() {
                            assert_eq!(q["name"].as_str(), me.as_deref(), "{stage}: {who} sees another's request: {q}");
                        }
                    }
                    _ => assert_eq!(r.status, 403, "{stage}: {who} GET {path}: {}", r.body),
                },
                "/report" | "/gamefile" | "/gamefile?format=json" | "/events" => {
                    if sight.sees_all() {
                        ok(r);
                    } else {
                        assert_eq!(r.status, 403, "{stage}: {who} GET {path}: {}", r.body);
                    }
                }
                _ => {}
            }
        }
    }

    /// Waits for the streams to hear of what happened, and reads what they heard: per
    /// stream, how many events.
    fn listen(&mut self) -> Vec<usize> {
        std::thread::sleep(SETTLE);
        let mut out = vec![0; self.streams.len()];
        // Until a pass hears nothing more (a loaded machine may be slow to send).
        for _ in 0..20 {
            let mut any = false;
            for (s, n) in self.streams.iter_mut().zip(&mut out) {
                let k = s.drain(Duration::from_millis(15)).len();
                *n += k;
                any |= k > 0;
            }
            if !any {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        for s in &self.streams {
            assert!(markers_in(&s.seen).is_empty(), "a live stream carries a marker: {}", s.seen);
        }
        out
    }

    /// The secret acts of one round of every running game: each living seat's bot orders
    /// (each with a marker `request_id`, a question with a marker in its text), a post in
    /// the pack's chat by a living packmate and by the host, a dead packmate's try; in the
    /// afternoon the host's answer to the Spirit. Returns who may hear of them: (game,
    /// account) pairs.
    fn secret_round(&mut self, morning: bool) -> BTreeSet<(usize, usize)> {
        let mut told = BTreeSet::new();
        for g in 0..self.tables.len() {
            if self.tables[g].over {
                continue;
            }
            let t = &mut self.tables[g];
            let day = t.m.state().day();
            let at = if morning { Clock::MIDDAY } else { Clock::DEADLINE };
            let mut sends: Vec<(usize, PlayerId, Command)> = Vec::new();
            let living: Vec<PlayerId> = t.m.state().living().collect();
            for p in t.m.state().list_order().to_vec() {
                if !living.contains(&p) {
                    continue;
                }
                let i = t.at(p);
                let mut out = Vec::new();
                let view = View::new(&t.m, p);
                if morning {
                    if has_morning(t.m.state().event()) {
                        t.bots[i].morning(&view, &mut t.rng, &mut out);
                    }
                } else {
                    t.bots[i].orders(&view, &mut t.rng, &mut out);
                }
                for c in out {
                    if t.m.check(&Order { by: Actor::Player(p), at, command: c.clone() }).is_ok() {
                        sends.push((t.seats[i], p, c));
                    }
                }
            }
            let (id, host) = (t.id, t.host);
            for (a, p, c) in sends {
                let Some(mut body) = order_json(&self.tables[g].m, &c) else { continue };
                let rid = marker(&mut self.next, 'o');
                body["request_id"] = json!(rid);
                if let Command::Ask(_) = c {
                    let q = marker(&mut self.next, 'q');
                    body["text"] = json!(format!("Дух, {q} — правда ли, что оборотень рядом?"));
                    let audience = Audience::Question { asker: p, day, word: q.clone() };
                    self.ledger.insert(q, Secret { game: g, audience });
                }
                let r = self.post(a, &format!("/api/games/{id}/orders"), body);
                if r.status == 200 {
                    self.ledger.insert(rid, Secret { game: g, audience: Audience::Seat(p) });
                    told.insert((g, a));
                }
            }
            if !morning {
                let asker = self.tables[g].m.record(day).and_then(|r| r.question.as_ref()).map(|(by, _)| *by);
                if let Some(asker) = asker {
                    ok(&self.post(host, &format!("/api/games/{id}/host/answer"), json!({"answer": true})));
                    told.insert((g, self.tables[g].account(asker)));
                }
            }
            // The pack's chat: a living packmate, the host, and a dead packmate's try.
            let t = &self.tables[g];
            let pack: Vec<PlayerId> =
                t.m.state().list_order().iter().copied().filter(|q| !t.m.pack(*q).is_empty()).collect();
            let living_wolf = pack.iter().copied().find(|q| t.m.state().alive(*q));
            let dead_wolf = pack.iter().copied().find(|q| !t.m.state().alive(*q));
            let pack_accounts: Vec<usize> = pack.iter().map(|q| t.account(*q)).collect();
            let mut posted = false;
            let tries: Vec<(usize, bool)> = living_wolf
                .map(|q| (t.account(q), true))
                .into_iter()
                .chain([(host, true)])
                .chain(dead_wolf.map(|q| (t.account(q), false)))
                .collect();
            for (a, alive) in tries {
                let taken = self.say(g, a, "pack", Audience::Pack);
                assert!(taken || !alive, "a living packmate's or the host's post to the pack's chat is taken");
                posted |= taken;
            }
            if posted {
                told.extend(pack_accounts.iter().map(|a| (g, *a)));
            }
            // A request to the host by one seat (it changes no game: no stream hears of it).
            let t = &self.tables[g];
            let seats = t.m.state().list_order().to_vec();
            let p = seats[(day as usize + g) % seats.len()];
            let (a, m) = (t.account(p), marker(&mut self.next, 'r'));
            let r = self.post(
                a,
                &format!("/api/games/{id}/requests"),
                json!({"text": format!("Ведущий, {m}: найдите мне замену.")}),
            );
            if r.status == 201 {
                self.ledger.insert(m, Secret { game: g, audience: Audience::Request(p) });
            } else {
                assert_eq!(r.status, 429, "{}", r.body);
            }
            told.insert((g, host));
        }
        told
    }

    /// The public posts of one round: every seat (the dead too), the host, the spectator.
    fn public_round(&mut self) {
        let spectator = self.accounts.iter().position(|a| a.label == SPECTATOR).unwrap();
        for g in 0..self.tables.len() {
            if self.tables[g].over {
                continue;
            }
            let mut who: Vec<usize> = self.tables[g].seats.clone();
            who.push(self.tables[g].host);
            who.push(spectator);
            for a in who {
                assert!(self.say(g, a, "thread", Audience::Public), "a post to the thread is taken");
            }
        }
    }

    /// One round: secret acts, then public posts, each checked on the live streams, then a
    /// sweep.
    fn round(&mut self, stage: &str, morning: bool) {
        self.touch();
        self.refresh();
        self.listen();
        let told = self.secret_round(morning);
        let heard = self.listen();
        for (s, n) in self.streams.iter().zip(&heard) {
            let may = told.contains(&(s.game, s.account));
            assert!(
                *n == 0 || may,
                "{stage}: {} hears of game {}'s secret acts on the live stream ({n} events)",
                self.accounts[s.account].label,
                s.game
            );
        }
        let running: Vec<bool> = self.tables.iter().map(|t| !t.over).collect();
        self.public_round();
        let heard = self.listen();
        for (s, n) in self.streams.iter().zip(&heard) {
            assert!(
                *n > 0 || !running[s.game],
                "{stage}: {} hears nothing of game {}'s public posts: the stream check would be empty",
                self.accounts[s.account].label,
                s.game
            );
        }
        self.sweep(stage);
    }
}

#[test]
fn every_channel_shows_each_viewer_only_what_the_engines_sight_allows() {
    let t0 = Instant::now();
    let telegram = support::telegram::BotApi::start();
    let mail = support::mail::Sink::start();
    let server = Server::start_notifying(ostrov_server::notify::Settings {
        mail: support::mail_settings(&mail).mail,
        ..support::bot_settings(&telegram, "leak")
    });
    let n_games = GAMES.len();
    let mut accounts: Vec<Account> = Vec::new();
    let (api, sink) = (&telegram, &mail);
    let add = |accounts: &mut Vec<Account>, label: &str, server: &Server, n_games: usize| -> usize {
        let mut c = server.user(label);
        // The account's Telegram chat, linked through the bot.
        let chat = CHAT0 + accounts.len() as i64;
        let code = ok(&c.post("/api/me/telegram", json!({})).unwrap())["code"].as_str().unwrap().to_string();
        api.say(chat, &format!("/start {code}"));
        api.wait_for(chat, "подключён к аккаунту");
        // The account's address, confirmed by the link of its confirmation mail.
        let to = address(accounts.len());
        ok(&c.call("PATCH", "/api/me", Some(&json!({"email": to}))).unwrap());
        let link = sink.wait_for(&to, "Подтвердите").link("https://ostrov.test/mail/confirm/").unwrap();
        assert!(c.get(link.trim_start_matches("https://ostrov.test")).unwrap().body.contains("Адрес подтверждён"));
        accounts.push(Account {
            label: label.to_string(),
            client: Some(c.keep_alive()),
            seats: vec![None; n_games],
            hosts: vec![false; n_games],
        });
        accounts.len() - 1
    };
    let mut tables = Vec::new();
    let events = json!({
        "spirit_call": 4, "full_moon": 1, "rage": 1, "bunker": 1, "exchange": 1, "choose_me": 1,
        "solar_eclipse": 1, "mystic_light": 1, "fear": 1, "tsunami": 1, "fog_night": 1,
        "lunar_eclipse": 1, "magnetic_storm": 1, "palms_bloom": 0
    });
    for (g, (seed, setup, names)) in GAMES.iter().enumerate() {
        let host = add(&mut accounts, HOSTS[g], &server, n_games);
        let seats: Vec<usize> = names.iter().map(|n| add(&mut accounts, n, &server, n_games)).collect();
        let mut hc = accounts[host].client.clone().unwrap();
        let v = ok(&hc
            .post(
                "/api/games",
                json!({"title": format!("Остров №{}", g + 1), "slots": names.len(), "setup": setup,
                       "seed": seed, "rules": {"events": events}}),
            )
            .unwrap());
        let (id, invite) = (v["id"].as_i64().unwrap(), v["invite"].as_str().unwrap().to_string());
        for &a in &seats {
            ok(&accounts[a].client.clone().unwrap().post(&format!("/api/invites/{invite}/join"), json!({})).unwrap());
        }
        ok(&hc.post(&format!("/api/games/{id}/start"), json!({})).unwrap());
        accounts[host].hosts[g] = true;
        let bots: Vec<Box<dyn Bot>> = (0..names.len())
            .map(|i| -> Box<dyn Bot> {
                if (i + g) % 2 == 0 {
                    Box::new(RandomBot::default())
                } else {
                    Box::new(SensibleBot::default())
                }
            })
            .collect();
        tables.push(Table {
            names,
            id,
            invite,
            host,
            seats,
            bots,
            rng: ChaCha8Rng::seed_from_u64(*seed),
            // Replaced by the first `refresh`.
            m: replay(&ok_text(&hc.get(&format!("/api/games/{id}/gamefile")).unwrap()), None),
            over: false,
            report: Value::Null,
            roles: BTreeMap::new(),
            papers_seen: BTreeSet::new(),
            done: false,
        });
    }
    add(&mut accounts, SPECTATOR, &server, n_games);
    add(&mut accounts, OUTSIDER, &server, n_games);
    // The visitor who is not signed in: the last account.
    accounts.push(Account {
        label: "гость".into(),
        client: None,
        seats: vec![None; n_games],
        hosts: vec![false; n_games],
    });
    let n_accounts = accounts.len();
    let mut w = World {
        server,
        accounts,
        tables,
        ledger: BTreeMap::new(),
        next: 0,
        streams: Vec::new(),
        requests: 0,
        seer_texts: 0,
        telegram_seen: vec![0; n_accounts],
        telegram,
        mail_seen: vec![0; n_accounts],
        mail,
    };
    w.server.clock.set(START);
    for g in 0..n_games {
        let (h, id) = (w.tables[g].host, w.tables[g].id);
        ok(&w.post(h, &format!("/api/games/{id}/host/fix"), json!({"event": "spirit_call"})));
    }
    w.refresh();
    for g in 0..n_games {
        for q in w.tables[g].m.state().list_order().to_vec() {
            let a = w.tables[g].account(q);
            w.accounts[a].seats[g] = Some(q);
        }
    }
    // A live stream for each viewer of each game: its host and seats, the spectator, the
    // outsider and a member of the next game.
    let spectator = w.accounts.iter().position(|a| a.label == SPECTATOR).unwrap();
    let outsider = w.accounts.iter().position(|a| a.label == OUTSIDER).unwrap();
    for g in 0..n_games {
        let mut who = vec![w.tables[g].host];
        who.extend(w.tables[g].seats.iter().copied());
        who.extend([spectator, outsider, w.tables[(g + 1) % n_games].seats[0]]);
        for a in who {
            let s = Stream::open(&w.client(a), a, g, w.tables[g].id);
            w.streams.push(s);
        }
    }
    w.sweep("day 1 opened");
    for day in 1..=DAYS {
        let open = START + (day as i64 - 1) * 24 * HOUR;
        w.server.clock.set(open + 12 * HOUR);
        w.round(&format!("day {day}, morning"), true);
        w.server.clock.set(open + 16 * HOUR);
        w.round(&format!("day {day}, afternoon"), false);
    }
    // The next morning the hosts end the games that still run: the pack is removed.
    w.server.clock.set(START + DAYS as i64 * 24 * HOUR + 12 * HOUR);
    w.touch();
    w.refresh();
    for g in 0..n_games {
        if w.tables[g].over {
            continue;
        }
        let (h, id) = (w.tables[g].host, w.tables[g].id);
        let t = &w.tables[g];
        let wolves: Vec<String> =
            t.m.state()
                .list_order()
                .iter()
                .filter(|q| t.m.state().alive(**q) && !t.m.pack(**q).is_empty())
                .map(|q| t.m.state().name(*q).to_string())
                .collect();
        for name in wolves {
            ok(&w.post(h, &format!("/api/games/{id}/host/remove"), json!({"target": name})));
        }
        let v = ok(&w.get(h, &format!("/api/games/{id}")));
        if v["status"] != "over" {
            ok(&w.post(h, &format!("/api/games/{id}/host/resolve"), json!({})));
        }
    }
    // The outbox drains (one message a second per chat).
    std::thread::sleep(Duration::from_secs(8));
    w.sweep("the games are over");
    let told = w.telegram.sent().len();
    assert!(told > 100, "the bot told the players their news: {told} messages");
    assert!(w.tables.iter().all(|t| t.over));
    let kinds: BTreeMap<char, usize> = w.ledger.keys().fold(BTreeMap::new(), |mut m, k| {
        *m.entry(k.as_bytes()[2] as char).or_default() += 1;
        m
    });
    let count = |f: &dyn Fn(&Match) -> usize| w.tables.iter().map(|t| f(&t.m)).sum::<usize>();
    let notices = |m: &Match, k: fn(&NoticeKind) -> bool| m.state().notices().iter().filter(|n| k(&n.kind)).count();
    let victims = count(&|m| notices(m, |k| matches!(k, NoticeKind::Assaulted)));
    let dead = count(&|m| m.state().list_order().iter().filter(|q| !m.state().alive(**q)).count());
    eprintln!(
        "leak_channels: {} requests, markers by kind {kinds:?}, {victims} maniac's victims, {dead} dead, \
         up to {} seer results looked for, {:?}",
        w.requests,
        w.seer_texts,
        t0.elapsed()
    );
    // The checks are not empty: questions, the maniac's victims, seer results were there.
    assert!(kinds.get(&'q').is_some_and(|n| *n >= n_games), "every game had a Spirit question: {kinds:?}");
    assert!(victims > 0 && w.seer_texts > 0, "a maniac's victim and a seer's result to keep secret");
}
