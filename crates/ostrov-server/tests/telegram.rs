//! Issue 31: the Telegram bot against a stand-in of the Bot API on loopback
//! (support::telegram): linking a chat by a one-time code, each notice, the reminder, and
//! orders from the bot with the page's Russian refusals.

mod support;

use serde_json::{json, Value};
use support::telegram::{BotApi, BOT};
use support::{error, ok, Server, HOUR, START};

/// Links `chat` to the account of `c` through the bot: the code's JSON.
fn link(api: &BotApi, c: &mut ostrov_server::client::Client, chat: i64) -> Value {
    let r = ok(&c.post("/api/me/telegram", json!({})).unwrap());
    let code = r["code"].as_str().unwrap().to_string();
    let before = api.to(chat).iter().filter(|t| t.contains("подключён к аккаунту")).count();
    api.say(chat, &format!("/start {code}"));
    api.wait_until(20, "the link", |s| {
        s.iter().filter(|m| m.chat == chat && m.text.contains("подключён к аккаунту")).count() > before
    });
    r
}

fn settings(c: &mut ostrov_server::client::Client) -> Value {
    ok(&c.get("/api/me/notify").unwrap())
}

#[test]
fn a_chat_is_linked_by_a_code_that_works_once_and_expires() {
    let api = BotApi::start();
    let server = Server::with_bot(&api, "a");
    let mut anya = server.user("Аня");
    assert_eq!(settings(&mut anya)["telegram_linked"], json!(false));
    let r = ok(&anya.post("/api/me/telegram", json!({})).unwrap());
    let code = r["code"].as_str().unwrap().to_string();
    assert_eq!(r["link"], json!(format!("https://t.me/{BOT}?start={code}")));
    assert_eq!(r["expires_in"], json!(900));

    api.say(101, &format!("/start {code}"));
    assert!(api.wait_for(101, "подключён к аккаунту").contains("аккаунту Аня"));
    let s = settings(&mut anya);
    assert_eq!(s["telegram_linked"], json!(true));
    assert!(!s.to_string().contains("101"), "a chat id is never shown: {s}");

    // The code works once.
    api.say(102, &format!("/start {code}"));
    assert!(api.wait_for(102, "Код не подошёл").contains("15 минут"));
    // And expires after 15 minutes.
    let mut borya = server.user("Боря");
    let late = ok(&borya.post("/api/me/telegram", json!({})).unwrap())["code"].as_str().unwrap().to_string();
    server.clock.advance(15 * 60 + 1);
    api.say(103, &format!("/start {late}"));
    api.wait_for(103, "Код не подошёл");
    assert_eq!(settings(&mut borya)["telegram_linked"], json!(false));
    // A made-up code, and a command from a chat linked to nobody.
    api.say(104, "/start ../../etc");
    api.wait_for(104, "Код не подошёл");
    api.say(104, "/games");
    api.wait_for(104, "не подключён к аккаунту");

    // /stop in the bot unlinks; so does «Отключить» (DELETE) on the profile.
    api.say(101, "/stop");
    api.wait_for(101, "отключён от аккаунта");
    assert_eq!(settings(&mut anya)["telegram_linked"], json!(false));
    link(&api, &mut anya, 101);
    assert_eq!(ok(&anya.call("DELETE", "/api/me/telegram", None).unwrap())["unlinked"], json!(true));
    assert_eq!(settings(&mut anya)["telegram_linked"], json!(false));

    // A group chat is never linked or answered.
    let code = ok(&anya.post("/api/me/telegram", json!({})).unwrap())["code"].as_str().unwrap().to_string();
    api.say_in_group(-500, &format!("/start {code}"));
    api.say(105, "/help");
    api.wait_for(105, "/vote");
    assert!(api.to(-500).is_empty());
    assert_eq!(settings(&mut anya)["telegram_linked"], json!(false));

    // Without the CSRF header or a session: refused.
    let mut anon = server.client();
    assert_eq!(error(&anon.post("/api/me/telegram", json!({})).unwrap()).0, 401);
    let mut forged = anya.clone();
    forged.csrf = false;
    assert_eq!(error(&forged.post("/api/me/telegram", json!({})).unwrap()).0, 403);
    // The reminder setting: 0, 1, 2 or 6 hours.
    let r = anya.call("PATCH", "/api/me/notify", Some(&json!({"remind_hours": 6}))).unwrap();
    assert_eq!(ok(&r)["remind_hours"], json!(6));
    let r = anya.call("PATCH", "/api/me/notify", Some(&json!({"remind_hours": 3}))).unwrap();
    assert_eq!(r.status, 400);
    assert!(r.json()["message"].as_str().unwrap().contains("1, 2 или 6"));
}

#[test]
fn without_a_token_the_server_has_no_bot() {
    let server = Server::start();
    let mut anya = server.user("Аня");
    let r = anya.post("/api/me/telegram", json!({})).unwrap();
    assert_eq!(error(&r), (409, "telegram_off".into()));
    assert!(r.json()["message"].as_str().unwrap().contains("Telegram не подключён"));
    assert_eq!(settings(&mut anya)["telegram_available"], json!(false));
}

const NAMES: [&str; 6] = ["Аня", "Боря", "Вика", "Гоша", "Даша", "Егор"];

/// A started game of six, every player's chat linked (chat 1000 + seat), the host's too
/// (chat 999): the game's id, the host, the players, the host's view.
fn game(
    api: &BotApi,
    server: &Server,
) -> (i64, ostrov_server::client::Client, Vec<ostrov_server::client::Client>, Value) {
    let (id, mut host, mut players) = server.lighthouse(&NAMES);
    link(api, &mut host, 999);
    for (i, p) in players.iter_mut().enumerate() {
        link(api, p, 1000 + i as i64);
    }
    server.clock.set(START);
    ok(&host.post(&format!("/api/games/{id}/start"), json!({})).unwrap());
    let view = ok(&host.get(&format!("/api/games/{id}")).unwrap());
    (id, host, players, view)
}

#[test]
fn each_notice_reaches_its_own_chat_only() {
    let api = BotApi::start();
    let server = Server::with_bot(&api, "a");
    let (id, _host, _players, view) = game(&api, &server);
    let roles = support::roles(&view);
    // The deal: each seat its own role, nobody another's.
    for (i, (name, role)) in roles.iter().enumerate() {
        let chat = 1000 + NAMES.iter().position(|n| n == name).unwrap() as i64;
        let text = api.wait_for(chat, "игра началась");
        assert!(text.starts_with("«Маяк»: "), "{text}");
        assert!(text.contains(&format!("https://ostrov.test/games/{id}")), "{text}");
        let ru = ostrov_engine::Role::parse(role).unwrap().ru();
        assert!(text.to_lowercase().contains(&ru.to_lowercase()), "seat {i} {name} is told its role {ru}: {text}");
    }
    // Day 1 opened at the start: the day's notice with the deadline in Moscow time.
    let day = api.wait_for(1000, "открылся день 1");
    assert!(day.contains("Приказы принимаются до 2 декабря, 21:00 по московскому времени"), "{day}");
    // The 13:00 paper, to everyone and the host.
    server.clock.set(START + 15 * HOUR + 60);
    for chat in [999, 1000, 1005] {
        api.wait_for(chat, "вышла газета 13:00 дня 1");
    }
    // The evening paper with its headline.
    server.clock.set(START + 23 * HOUR + 5 * 60);
    let evening = api.wait_for(1003, "вечерняя газета дня 1");
    assert!(evening.contains("Линчевани"), "{evening}");
    // Nobody's chat holds another seat's private line: the seer's result goes to the seer.
    let sent = api.sent();
    for (name, role) in &roles {
        let mine = 1000 + NAMES.iter().position(|n| n == name).unwrap() as i64;
        let ru = ostrov_engine::Role::parse(role).unwrap().ru().to_lowercase();
        for m in sent.iter().filter(|m| m.chat != mine && m.chat != 999 && m.text.contains("Лично вам")) {
            assert!(!m.text.to_lowercase().contains(&format!("{} — {ru}", name.to_lowercase())), "{m:?}");
        }
    }
    // Every notice once: no text twice to a chat.
    let mut seen = std::collections::BTreeSet::new();
    for m in &sent {
        assert!(seen.insert((m.chat, m.text.clone())) || !m.text.contains("«Маяк»: "), "sent twice: {m:?}");
    }
}

#[test]
fn a_vote_from_the_bot_is_taken_and_a_wrong_one_refused_in_russian() {
    let api = BotApi::start();
    let server = Server::with_bot(&api, "a");
    let (id, _host, mut players, _) = game(&api, &server);
    api.wait_for(1000, "открылся день 1");
    api.say(1000, "/vote Боря");
    let yes = api.wait_for(1000, "принято");
    assert!(yes.contains("Боря") && yes.contains("день 1"), "{yes}");
    let mine = ok(&players[0].get(&format!("/api/games/{id}/orders")).unwrap());
    assert_eq!(mine["orders"][0]["target"], json!("Боря"));
    // A name nobody has: the page's own refusal, in Russian.
    api.say(1000, "/vote Зорро");
    let page = players[0].post(&format!("/api/games/{id}/orders"), json!({"act": "vote", "target": "Зорро"})).unwrap();
    let reason = page.json()["message"].as_str().unwrap().to_string();
    let no = api.wait_for(1000, &reason);
    assert!(no.starts_with("«Маяк»: "), "{no}");
    // Without a name: a keyboard of the living; a press votes.
    api.say(1001, "/vote");
    let k = api.wait_until(20, "a keyboard", |s| s.iter().any(|m| m.chat == 1001 && m.markup.is_some()));
    let markup = k.iter().rev().find(|m| m.chat == 1001 && m.markup.is_some()).unwrap().markup.clone().unwrap();
    let rows = markup["inline_keyboard"].as_array().unwrap();
    assert_eq!(rows.len(), 6);
    let vika = rows.iter().find(|r| r[0]["text"] == json!("Вика")).unwrap()[0]["callback_data"].as_str().unwrap();
    api.press(1001, vika);
    assert!(api.wait_for(1001, "принято").contains("Вика"));
    // /status: what is still to send.
    api.say(1002, "/status");
    assert!(api.wait_for(1002, "ещё не отправлено").contains("голос"));
    api.say(1000, "/status");
    api.wait_for(1000, "всё отправлено");
    api.say(1000, "/games");
    assert!(api.wait_for(1000, "день 1, приказы до").starts_with("«Маяк»"));
}

#[test]
fn the_reminder_goes_to_who_has_not_voted_and_not_to_who_has() {
    let api = BotApi::start();
    let server = Server::with_bot(&api, "a");
    let (id, _host, mut players, _) = game(&api, &server);
    api.wait_for(1000, "открылся день 1");
    // Everyone but Аня votes; Боря turned reminders off.
    for (i, p) in players.iter_mut().enumerate().skip(1) {
        let target = NAMES[(i + 1) % NAMES.len()];
        ok(&p.post(&format!("/api/games/{id}/orders"), json!({"act": "vote", "target": target})).unwrap());
    }
    ok(&players[1].call("PATCH", "/api/me/notify", Some(&json!({"remind_hours": 0}))).unwrap());
    // Three hours before the deadline (21:00 Moscow): not yet (the default is two).
    let deadline = START + 23 * HOUR;
    server.clock.set(deadline - 3 * HOUR);
    std::thread::sleep(std::time::Duration::from_millis(800));
    assert!(!api.sent().iter().any(|m| m.text.contains("напоминание")));
    server.clock.set(deadline - 2 * HOUR + 60);
    let r = api.wait_for(1000, "напоминание");
    assert!(r.contains("голос"), "{r}");
    std::thread::sleep(std::time::Duration::from_millis(800));
    let reminded: Vec<i64> = api.sent().iter().filter(|m| m.text.contains("напоминание")).map(|m| m.chat).collect();
    // Аня only (the night roles of this setup, werewolf and seer, are told if they have not
    // sent theirs): never one who has sent everything.
    assert!(reminded.contains(&1000));
    for chat in &reminded {
        let seat = (*chat - 1000) as usize;
        let todo = api.to(*chat).into_iter().find(|t| t.contains("напоминание")).unwrap();
        if seat != 0 {
            assert!(!todo.contains("голос"), "{todo}");
            assert!(todo.contains("ночной приказ"), "{todo}");
        }
    }
    assert_eq!(reminded.iter().filter(|c| **c == 1000).count(), 1, "once");
}

#[test]
fn a_429_and_an_outage_delay_a_notice_but_never_lose_or_double_it() {
    let api = BotApi::start();
    let server = Server::with_bot(&api, "a");
    let mut anya = server.user("Аня");
    link(&api, &mut anya, 1000);
    let mut host = server.user("Ведущая");
    link(&api, &mut host, 999);
    let before = api.sent().len();
    api.throttle.store(2, std::sync::atomic::Ordering::SeqCst);
    let g = ok(&host
        .post("/api/games", json!({"title": "Маяк", "slots": 6, "setup": "werewolf,seer", "seed": 5}))
        .unwrap());
    let invite = g["invite"].as_str().unwrap().to_string();
    ok(&anya.post(&format!("/api/invites/{invite}/join"), json!({})).unwrap());
    let others = server.join_all(&invite, &NAMES[1..]);
    drop(others);
    api.down.store(true, std::sync::atomic::Ordering::SeqCst);
    server.clock.set(START);
    ok(&host.post(&format!("/api/games/{}/start", g["id"]), json!({})).unwrap());
    std::thread::sleep(std::time::Duration::from_millis(1500));
    api.down.store(false, std::sync::atomic::Ordering::SeqCst);
    api.wait_for(1000, "игра началась");
    std::thread::sleep(std::time::Duration::from_secs(3));
    let sent = api.sent()[before..].to_vec();
    assert_eq!(sent.iter().filter(|m| m.chat == 1000 && m.text.contains("игра началась")).count(), 1, "{sent:#?}");
}

/// Two nodes on one PostgreSQL, each with the bot: one polls at a time (the lease holder),
/// and every notice is sent once. Runs when `OSTROV_TEST_PG` names a server.
#[test]
fn two_nodes_share_one_poller_and_send_each_notice_once() {
    support::with_store(support::Db::Postgres, two_nodes);
}

fn two_nodes() {
    let api = BotApi::start();
    let server = Server::with_bot(&api, "n1");
    let second = server.node_with_bot(server.clock.clone(), &api, "n2");
    let (id, _host, _players, _) = game(&api, &server);
    // Orders go to the other node too.
    let mut on_second = second.client();
    ok(&on_second.post("/api/login", json!({"name": "Аня", "password": "пароль-для-теста"})).unwrap());
    for chat in 1000..1006 {
        api.wait_for(chat, "открылся день 1");
    }
    api.say(1001, "/vote Аня");
    api.wait_for(1001, "принято");
    server.clock.set(START + 15 * HOUR + 60);
    for chat in [999, 1000, 1005] {
        api.wait_for(chat, "вышла газета 13:00 дня 1");
    }
    std::thread::sleep(std::time::Duration::from_secs(2));
    let sent = api.sent();
    let mut seen = std::collections::BTreeSet::new();
    for m in sent.iter().filter(|m| m.text.starts_with("«Маяк»: ")) {
        assert!(seen.insert((m.chat, m.text.clone())), "sent twice: {m:?}");
    }
    // One poller: every getUpdates from one node, never two open at once.
    let pollers: std::collections::BTreeSet<String> =
        api.calls().into_iter().filter(|(_, m)| m == "getUpdates").map(|(n, _)| n).collect();
    assert_eq!(pollers.len(), 1, "{pollers:?}");
    assert_eq!(api.overlaps(), 0);
    assert!(ok(&on_second.get(&format!("/api/games/{id}")).unwrap())["open"].is_object());
    drop(second);
}
