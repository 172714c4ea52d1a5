//! A forum game (issue 30, point 12): the day's talk on the community's forum. The thread
//! is refused and absent (the pack's chat stays), the game page links to the topic (the
//! game's, or the day's the host gives as the game goes: an event in the log), the topic's
//! link is checked and normalised, the host's page gives each newspaper in BBCode the
//! moment it is published and not before, the desk gives a speech-rule penalty per seat
//! with confirmation, and the exported game file still replays.

mod support;

support::both_stores!(
    a_forum_game_has_no_thread_and_links_its_topic,
    the_host_gives_the_days_topic_and_only_the_host,
    a_topic_link_is_checked_and_normalised,
    the_bbcode_papers_are_on_the_hosts_page_at_publication,
    the_desk_gives_a_speech_penalty_per_seat_with_confirmation,
);

use serde_json::{json, Value};
use support::browser::{location, Browser};
use support::{error, no_events, ok, web_post, Server, Table, HOUR as H, START};

const NAMES: [&str; 6] = ["Аня", "Боря", "Вика", "Гоша", "Даша", "Егор"];
/// The game's topic as the host typed it, and as it is stored (O-FORUM-1).
const TYPED: &str = "  HTTPS://Forum.Example.ORG/viewtopic.php?t=12&x=<b>\"q\"  ";
const STORED: &str = "https://forum.example.org/viewtopic.php?t=12&x=%3Cb%3E%22q%22";

/// A host («Хозяйка») and six players (one werewolf, one seer), days without events, the
/// talk on a forum (`discussion`), started at [`START`].
fn table(discussion: Value) -> Table {
    let body = json!({"title": "Форумная", "slots": 6, "setup": "werewolf,seer", "seed": 3,
                      "rules": {"events": no_events()}, "discussion": discussion});
    Table::start("Хозяйка", body, &NAMES)
}

/// The text of an HTML text node or attribute as askama escaped it.
fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&#34;", "\"")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#38;", "&")
        .replace("&amp;", "&")
}

/// The content of the textarea `id` on `page`, if there is one.
fn textarea(page: &str, id: &str) -> Option<String> {
    let at = page.find(&format!("<textarea id=\"{id}\""))?;
    let start = at + page[at..].find('>')? + 1;
    let end = start + page[start..].find("</textarea>")?;
    Some(unescape(&page[start..end]))
}

fn a_forum_game_has_no_thread_and_links_its_topic() {
    let mut t = table(json!({"forum": TYPED}));
    let (id, base) = (t.id, t.base());
    let wolf = t.seat("werewolf");
    let other = (wolf + 1) % 6;
    let mut outsider = t.server.user("Зевака");
    // The view says where the talk is, to everyone: the link normalised.
    for c in [&mut t.players[other], &mut outsider, &mut t.host] {
        let v = ok(&c.get(&base).unwrap());
        assert_eq!(v["forum"], json!({"topic": STORED, "day": null}), "{v}");
    }
    assert_eq!(ok(&t.host.get(&base).unwrap())["setup"]["discussion"], json!({"forum": STORED}));

    // The thread is refused, with the reason, to a player, the host and a spectator …
    for c in [&mut t.players[other], &mut t.host, &mut outsider] {
        let r = web_post(c, id, "thread", "Привет всем!");
        assert_eq!(r.status, 409, "{}", r.body);
        assert!(r.body.contains("обсуждение идёт на форуме"), "{}", r.body);
    }
    // … and absent: no thread on the page, its fragment is not there; the page links to
    // the topic, escaped, opened without the referrer or the opener.
    let page = t.players[other].get(&format!("/games/{id}")).unwrap().body;
    assert!(!page.contains("id=\"thread\""), "{page}");
    assert!(!page.contains("name=\"room\" value=\"thread\""), "{page}");
    let link = format!(
        "<a href=\"{}\" rel=\"noopener noreferrer nofollow\">Тема игры на форуме</a>",
        STORED.replace('&', "&#38;")
    );
    assert!(page.contains(&link), "{page}");
    let fragment = t.players[other].get(&format!("/games/{id}/thread?room=thread")).unwrap();
    assert_eq!(fragment.status, 404, "{}", fragment.body);

    // The pack's chat stays as it is.
    let r = web_post(&mut t.players[wolf], id, "pack", "Ночью — Вика?");
    assert_eq!(r.status, 303, "{}", r.body);
    let page = t.players[wolf].get(&format!("/games/{id}")).unwrap().body;
    assert!(page.contains("id=\"pack\"") && page.contains("Ночью — Вика?"), "{page}");
    assert!(page.contains("а ещё чат стаи"), "{page}");

    // The thread's export says where the talk went and holds only the pack's chat.
    let md = t.host.get(&format!("/games/{id}/thread.md")).unwrap();
    assert_eq!(md.status, 200);
    assert!(md.body.contains("Обсуждение дня шло на форуме"), "{}", md.body);
    assert!(md.body.contains(&format!("[Тема игры](<{STORED}>)")), "{}", md.body);
    assert!(md.body.contains("# Логово стаи") && md.body.contains("Ночью — Вика?"), "{}", md.body);
    // No post of the thread in the log, and none in what the live stream counts for others.
    let events = ok(&t.host.get(&format!("{base}/events")).unwrap());
    let posts: Vec<&Value> = events.as_array().unwrap().iter().filter(|e| e["kind"] == "posted").collect();
    assert!(posts.iter().all(|e| e["payload"]["post"]["room"] == "pack"), "{posts:?}");

    // A day played to its end: the exported game file replays into the server's report.
    for (i, p) in t.players.iter_mut().enumerate() {
        let target = if i == wolf { NAMES[other] } else { NAMES[wolf] };
        ok(&p.post(&format!("{base}/orders"), json!({"act": "vote", "target": target})).unwrap());
    }
    t.server.clock.set(START + 24 * H);
    let v = ok(&t.host.get(&base).unwrap());
    assert!(v["next_day_opens"].is_string() || v["open"]["day"] == 2, "{v}");
    let report = t.host.get(&format!("{base}/report")).unwrap();
    let file = t.host.get(&format!("{base}/gamefile")).unwrap();
    let game = ostrov_engine::Game::parse(&file.body).expect("the exported game file is valid");
    let replayed = ostrov_engine::resolve(&game).expect("it resolves");
    assert_eq!(replayed.to_json(), report.body, "the exported file replays into the server's report");
}

fn the_host_gives_the_days_topic_and_only_the_host() {
    // A forum game without a game-wide topic: one a day.
    let mut t = table(json!({"forum": null}));
    let (id, base) = (t.id, t.base());
    let topic = format!("{base}/host/topic");
    let page = t.players[0].get(&format!("/games/{id}")).unwrap().body;
    assert!(page.contains("Ведущий ещё не дал ссылку на тему."), "{page}");
    assert_eq!(ok(&t.players[0].get(&base).unwrap())["forum"], json!({"topic": null, "day": null}));

    // Not a player's, nor a spectator's, to give: 403, nothing stored.
    let mut outsider = t.server.user("Зевака");
    let events = ok(&t.host.get(&format!("{base}/events")).unwrap()).as_array().unwrap().len();
    for c in [&mut t.players[0], &mut outsider] {
        let r = c.post(&topic, json!({"url": "https://forum.example.org/t/1"})).unwrap();
        assert_eq!(error(&r), (403, "forbidden".into()), "{}", r.body);
        let r = c.post(&topic, json!({"url": "javascript:alert(1)"})).unwrap();
        assert_eq!(r.status, 403, "nobody but the host learns what is wrong: {}", r.body);
    }
    assert_eq!(ok(&t.host.get(&format!("{base}/events")).unwrap()).as_array().unwrap().len(), events);

    // The host's: an event in the log, public, on every page.
    let v = ok(&t.host.post(&topic, json!({"url": "https://Forum.Example.org/t/1", "request_id": "t1"})).unwrap());
    assert_eq!(v["game"]["forum"], json!({"topic": "https://forum.example.org/t/1", "day": 1}));
    let page = t.players[0].get(&format!("/games/{id}")).unwrap().body;
    assert!(
        page.contains(
            "<a href=\"https://forum.example.org/t/1\" rel=\"noopener noreferrer nofollow\">Тема дня 1 на форуме</a>"
        ),
        "{page}"
    );
    let log = ok(&t.host.get(&format!("{base}/events")).unwrap());
    let last = log.as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        (last["kind"].as_str(), last["payload"].clone()),
        (Some("topic"), json!({"day": 1, "url": "https://forum.example.org/t/1"}))
    );
    let v = ok(&t.players[0].get(&base).unwrap());
    assert!(
        v["history"].as_array().unwrap().iter().any(|h| h["text"] == "Ведущий дал ссылку на тему дня 1 на форуме."),
        "{v}"
    );

    // Changed from the host's page (a web form, no confirmation: it can be changed again).
    let mut host = Browser::logged_in(t.server.addr, "Хозяйка");
    let game = format!("/games/{id}");
    let r = host.submit(&game, &format!("{game}/host"), &[("action", "topic"), ("url", "ftp://forum.example.org/t/2")]);
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(
        r.body.contains("Ссылка на тему форума (url): адрес должен начинаться с https:// или http://"),
        "{}",
        r.body
    );
    let r =
        host.submit(&game, &format!("{game}/host"), &[("action", "topic"), ("url", "https://forum.example.org/t/2")]);
    assert_eq!((r.status, location(&r)), (303, format!("{game}#host")), "{}", r.body);
    assert_eq!(ok(&t.players[0].get(&base).unwrap())["forum"]["topic"], "https://forum.example.org/t/2");

    // Between a resolution and the next opening, the link is the next day's.
    ok(&t.host.post(&format!("{base}/host/resolve"), json!({})).unwrap());
    let v = ok(&t.host.post(&topic, json!({"url": "https://forum.example.org/t/3"})).unwrap());
    assert_eq!(v["game"]["forum"], json!({"topic": "https://forum.example.org/t/3", "day": 2}));
    assert!(host.get(&game).body.contains("Тема дня 2 на форуме (ссылка)"));

    // A game whose talk is its thread has no topic to give.
    let mut thread = table(json!("thread"));
    let r = thread
        .host
        .post(&format!("{}/host/topic", thread.base()), json!({"url": "https://forum.example.org/"}))
        .unwrap();
    assert_eq!(error(&r), (409, "not_forum".into()), "{}", r.body);
    assert!(ok(&thread.host.get(&thread.base()).unwrap())["forum"].is_null());

    // The log replays: a restart folds the same topic.
    let mut server = t.server;
    server.restart();
    t.host.addr = server.addr;
    assert_eq!(ok(&t.host.get(&base).unwrap())["forum"]["topic"], "https://forum.example.org/t/3");
}

fn a_topic_link_is_checked_and_normalised() {
    let server = Server::start();
    let mut host = server.user("Хозяйка");
    let long = format!("https://forum.example.org/{}", "a".repeat(500));
    for (url, why) in [
        ("javascript:alert(1)", "адрес должен начинаться с https:// или http://"),
        ("JaVaScRiPt:alert(1)", "адрес должен начинаться с https:// или http://"),
        ("data:text/html,x", "адрес должен начинаться с https:// или http://"),
        ("forum.example.org/t/1", "это не адрес страницы"),
        ("https://forum.example.org/a b", "пробелов"),
        ("https://user:secret@forum.example.org/", "логина и пароля"),
        ("", "пустая"),
        (long.as_str(), "длиннее 500 символов"),
    ] {
        let r = host.post("/api/games", json!({"title": "Ф", "slots": 6, "discussion": {"forum": url}})).unwrap();
        assert_eq!(r.status, 400, "{url}: {}", r.body);
        let m = r.json()["message"].as_str().unwrap().to_string();
        assert!(m.starts_with("Ссылка на тему форума (discussion.forum): "), "{url}: {m}");
        assert!(m.contains(why), "{url}: {m}");
    }
    let r = host.post("/api/games", json!({"title": "Ф", "slots": 6, "discussion": {"site": "x"}})).unwrap();
    assert_eq!(r.status, 400, "{}", r.body);

    // The create form: the field named, the page again with the message.
    let mut web = Browser::logged_in(server.addr, "Хозяйка");
    let fields = [
        ("title", "Форумная"),
        ("slots", "6"),
        ("setup", "recommended"),
        ("tz", "Europe/Moscow"),
        ("open", "22:00"),
        ("midday", "13:00"),
        ("deadline", "21:00"),
        ("discussion", "forum"),
    ];
    let mut bad = fields.to_vec();
    bad.push(("forum", "javascript:alert(1)"));
    let r = web.submit("/new", "/new", &bad);
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body.contains("Ссылка на тему форума («Тема на форуме»): адрес должен начинаться"), "{}", r.body);
    let mut good = fields.to_vec();
    good.push(("forum", "https://Forum.Example.org/t/9"));
    let r = web.submit("/new", "/new", &good);
    assert_eq!(r.status, 303, "{}", r.body);
    let id: i64 = location(&r).trim_start_matches("/games/").parse().unwrap();
    let v = ok(&host.get(&format!("/api/games/{id}")).unwrap());
    assert_eq!(v["forum"]["topic"], "https://forum.example.org/t/9", "{v}");
}

fn the_bbcode_papers_are_on_the_hosts_page_at_publication() {
    let mut t = table(json!({"forum": "https://forum.example.org/t/1"}));
    let (id, base) = (t.id, t.base());
    let game = format!("/games/{id}");
    let host_page = |t: &mut Table| t.host.get(&game).unwrap().body;
    let page = host_page(&mut t);
    assert!(textarea(&page, "bb-1-bulletin").is_none(), "nothing published yet: {page}");
    assert!(!page.contains("в BBCode"), "{page}");

    // 13:00: the bulletin, as the API gives it in BBCode, with its copy button (JS shows it).
    ok(&t.host.post(&format!("{base}/host/midday"), json!({})).unwrap());
    let page = host_page(&mut t);
    let bulletin = t.host.get(&format!("{base}/newspapers/1/bulletin?format=bbcode")).unwrap().body;
    assert_eq!(textarea(&page, "bb-1-bulletin").as_deref(), Some(bulletin.as_str()), "{page}");
    assert!(page.contains("<textarea id=\"bb-1-bulletin\" readonly"), "a readonly field, to copy without JavaScript");
    assert!(page.contains("data-copy=\"bb-1-bulletin\""), "{page}");
    assert!(textarea(&page, "bb-1-evening").is_none(), "the evening paper is not out: {page}");
    // Nobody else gets it on the page.
    let player = t.players[0].get(&game).unwrap().body;
    assert!(!player.contains("bb-1-bulletin"), "{player}");

    // 21:00: the evening newspaper too.
    ok(&t.host.post(&format!("{base}/host/resolve"), json!({})).unwrap());
    let page = host_page(&mut t);
    let evening = t.host.get(&format!("{base}/newspapers/1/evening?format=bbcode")).unwrap().body;
    assert_eq!(textarea(&page, "bb-1-evening").as_deref(), Some(evening.as_str()), "{page}");
    assert!(evening.contains("[b]"), "{evening}");
    assert!(textarea(&page, "bb-1-bulletin").is_some());
}

fn the_desk_gives_a_speech_penalty_per_seat_with_confirmation() {
    let mut t = table(json!({"forum": "https://forum.example.org/t/1"}));
    let (id, base) = (t.id, t.base());
    let game = format!("/games/{id}");
    let mut host = Browser::logged_in(t.server.addr, "Хозяйка");
    let page = host.get(&game).body;
    assert_eq!(page.matches("class=\"speech-penalty\"").count(), 6, "one per living seat: {page}");
    let target = NAMES[2];
    let fields = [("action", "penalty"), ("target", target), ("reason", "писал после смерти")];
    let r = host.submit(&game, &format!("{game}/host"), &fields);
    assert_eq!(r.status, 200, "a confirmation first: {}", r.body);
    assert!(r.body.contains(&format!("Оштрафовать игрока {target}?")), "{}", r.body);
    assert!(!ok(&t.host.get(&format!("{base}/board")).unwrap())["seats"][2]["penalised"].as_bool().unwrap());
    let mut confirmed = fields.to_vec();
    confirmed.push(("confirm", "1"));
    let r = host.submit(&game, &format!("{game}/host"), &confirmed);
    assert_eq!(r.status, 303, "{}", r.body);
    let board = ok(&t.host.get(&format!("{base}/board")).unwrap());
    let card = board["seats"].as_array().unwrap().iter().find(|s| s["name"] == target).unwrap().clone();
    assert_eq!(card["penalised"], true, "{card}");
    let v = ok(&t.players[0].get(&base).unwrap());
    assert!(v["history"].to_string().contains("писал после смерти"), "{v}");
    let page = host.get(&game).body;
    assert_eq!(page.matches("class=\"speech-penalty\"").count(), 5, "not twice the same day: {page}");

    // A game whose talk is its thread flags posts instead: no such form on the board.
    let mut thread = table(json!("thread"));
    let page = thread.host.get(&format!("/games/{}", thread.id)).unwrap().body;
    assert!(!page.contains("speech-penalty"), "{page}");
}
