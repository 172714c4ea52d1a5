//! Issue 31, point 5: e-mail notices through a real SMTP conversation with a sink on
//! loopback (support::mail): the confirmation mail and its link (single use, a day),
//! nothing else before confirming, the same notices as Telegram after it (a reminder), the
//! one-click unsubscribe (no login, RFC 8058 `List-Unsubscribe`), the limits of
//! confirmation mails, retries after an outage; and point 3, a player's request to the
//! host (private to the two of them).

mod support;

use serde_json::{json, Value};
use support::mail::{Mail, Sink};
use support::{error, ok, Server, HOUR, START};

const SITE: &str = "https://ostrov.test";
const NAMES: [&str; 6] = ["Аня", "Боря", "Вика", "Гоша", "Даша", "Егор"];

fn settings(c: &mut ostrov_server::client::Client) -> Value {
    ok(&c.get("/api/me/notify").unwrap())
}

fn set_email(c: &mut ostrov_server::client::Client, email: &str) -> ostrov_server::client::Reply {
    c.call("PATCH", "/api/me", Some(&json!({ "email": email }))).unwrap()
}

/// The path of a link to the site.
fn path(link: &str) -> &str {
    link.strip_prefix(SITE).unwrap()
}

/// Sets `email` for `c` and follows its confirmation link.
fn confirm(sink: &Sink, c: &mut ostrov_server::client::Client, email: &str) -> Mail {
    ok(&set_email(c, email));
    let m = sink.wait_for(email, "Подтвердите");
    let link = m.link(&format!("{SITE}/mail/confirm/")).unwrap();
    assert!(c.get(path(&link)).unwrap().body.contains("Адрес подтверждён"));
    m
}

/// A full game of six with no events, not started yet: its id, the host, the players.
fn game(server: &Server) -> (i64, ostrov_server::client::Client, Vec<ostrov_server::client::Client>) {
    server.lighthouse(&NAMES)
}

fn pause() {
    std::thread::sleep(std::time::Duration::from_millis(1500));
}

/// O-NOTIFY-4: only the confirmation until confirmed; one-click unsubscribe (RFC 8058).
#[test]
fn an_address_gets_only_its_confirmation_until_confirmed_then_the_notices_until_unsubscribed() {
    let sink = Sink::start();
    let server = Server::with_mail(&sink);
    let (id, mut host, mut players) = game(&server);
    let anya = &mut players[0];
    assert_eq!(settings(anya)["email"], json!({"address": null, "confirmed": false}));
    // Set, normalised (the domain in lower case, spaces trimmed): unconfirmed.
    let r = ok(&set_email(anya, "  Anya.K+ostrov@Example.RU "));
    assert_eq!(r["email"], json!({"address": "Anya.K+ostrov@example.ru", "confirmed": false}));
    let to = "Anya.K+ostrov@example.ru";
    let m = sink.wait_for(to, "Подтвердите");
    assert_eq!(m.from, "ostrov@ostrov.test");
    assert_eq!(m.login, Some(("ostrov".into(), "smtp-SECRET".into())), "signed in with the password from the settings");
    assert!(m.header("subject").unwrap().contains("Подтвердите адрес"), "{m:?}");
    assert!(m.header("content-type").unwrap().contains("charset=utf-8"));
    assert!(m.header("list-unsubscribe").is_none(), "nothing to unsubscribe from yet");
    let link = m.link(&format!("{SITE}/mail/confirm/")).unwrap();
    // Nothing but the confirmation before confirming: the day opens, nothing is mailed.
    server.clock.set(START);
    ok(&host.post(&format!("/api/games/{id}/start"), json!({})).unwrap());
    pause();
    assert_eq!(sink.to(to).len(), 1, "{:#?}", sink.to(to));
    // The link works once, with no login needed.
    let mut anon = server.client();
    assert!(anon.get(path(&link)).unwrap().body.contains("Адрес подтверждён"));
    assert!(anon.get(path(&link)).unwrap().body.contains("Ссылка не подошла"));
    assert_eq!(settings(anya)["email"], json!({"address": to, "confirmed": true}));
    // The 13:00 paper, then the reminder to one who has not voted (and none to one who has).
    let mut borya = players.remove(1);
    let anya = &mut players[0];
    confirm(&sink, &mut borya, "borya@example.ru");
    ok(&borya.post(&format!("/api/games/{id}/orders"), json!({"act": "vote", "target": "Вика"})).unwrap());
    server.clock.set(START + 15 * HOUR + 60);
    sink.wait_for(to, "вышла газета 13:00 дня 1");
    let deadline = START + 23 * HOUR;
    server.clock.set(deadline - 2 * HOUR + 60);
    let r = sink.wait_for(to, "напоминание");
    assert!(r.body.contains("голос"), "{}", r.body);
    assert!(r.body.contains(&format!("{SITE}/games/{id}")), "a link to the game's page: {}", r.body);
    assert!(r.header("subject").unwrap().starts_with("«Маяк»: напоминание"), "{r:?}");
    pause();
    assert!(!sink.to("borya@example.ru").iter().any(|m| m.body.contains("напоминание")), "Боря has voted");
    // Every mail carries the one-click unsubscribe (RFC 8058).
    let unsub = r.link(&format!("{SITE}/mail/unsubscribe/")).unwrap();
    assert_eq!(r.header("list-unsubscribe"), Some(format!("<{unsub}>").as_str()));
    assert_eq!(r.header("list-unsubscribe-post"), Some("List-Unsubscribe=One-Click"));
    // Following the link shows one button and changes nothing (a mail scanner unsubscribes
    // nobody); the POST, as a mail client sends it, unsubscribes, with no login.
    let page = anon.get(path(&unsub)).unwrap();
    assert!(page.body.contains("Отписаться от писем"), "{}", page.body);
    assert_eq!(settings(anya)["email"]["confirmed"], json!(true));
    let done =
        anon.raw("POST", path(&unsub), "application/x-www-form-urlencoded", b"List-Unsubscribe=One-Click").unwrap();
    assert!(done.body.contains("Вы отписались"), "{}", done.body);
    assert_eq!(settings(anya)["email"], json!({"address": null, "confirmed": false}));
    // No more mail: the evening paper goes to Боря, not to Аня.
    let before = sink.to(to).len();
    server.clock.set(deadline + 5 * 60);
    sink.wait_for("borya@example.ru", "вечерняя газета дня 1");
    pause();
    assert_eq!(sink.to(to).len(), before);
    // Each notice mailed once.
    let mut seen = std::collections::BTreeSet::new();
    for m in sink.mails() {
        assert!(seen.insert((m.to.clone(), m.body.clone())), "mailed twice: {m:?}");
    }
}

#[test]
fn a_confirmation_link_expires_after_a_day_and_a_new_address_needs_a_new_one() {
    let sink = Sink::start();
    let server = Server::with_mail(&sink);
    let mut anya = server.user("Аня");
    ok(&set_email(&mut anya, "anya@example.ru"));
    let old = sink.wait_for("anya@example.ru", "Подтвердите").link(&format!("{SITE}/mail/confirm/")).unwrap();
    server.clock.advance(24 * HOUR + 1);
    assert!(anya.get(path(&old)).unwrap().body.contains("Ссылка не подошла"));
    assert_eq!(settings(&mut anya)["email"]["confirmed"], json!(false));
    // A changed address: the earlier address's confirmation no longer confirms anything.
    ok(&set_email(&mut anya, "anya@example.ru"));
    let first = sink.wait_for("anya@example.ru", "Подтвердите");
    let first = first.link(&format!("{SITE}/mail/confirm/")).unwrap();
    ok(&set_email(&mut anya, "anna@example.ru"));
    sink.wait_for("anna@example.ru", "Подтвердите");
    assert!(anya.get(path(&first)).unwrap().body.contains("Ссылка не подошла"));
    assert_eq!(settings(&mut anya)["email"], json!({"address": "anna@example.ru", "confirmed": false}));
    // Removing it: null.
    let r = anya.call("PATCH", "/api/me", Some(&json!({"email": null}))).unwrap();
    assert_eq!(ok(&r)["email"], json!({"address": null, "confirmed": false}));
}

/// O-NOTIFY-4: the limits of confirmation mails.
#[test]
fn confirmation_mails_are_limited_per_account_and_per_address_so_strangers_are_not_mailed() {
    let sink = Sink::start();
    let server = Server::with_mail(&sink);
    let mut anya = server.user("Аня");
    for a in ["a1@example.ru", "a2@example.ru", "a3@example.ru"] {
        ok(&set_email(&mut anya, a));
    }
    let r = set_email(&mut anya, "a4@example.ru");
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(r.json()["message"].as_str().unwrap().contains("Слишком много писем"), "{}", r.body);
    assert!(r.header("retry-after").is_some());
    // One stranger's address, given by one account after another: three mails a day.
    for (i, name) in ["Боря", "Вика", "Гоша"].iter().enumerate() {
        let mut c = server.user(name);
        ok(&set_email(&mut c, if i == 1 { "Victim@Example.ru" } else { "victim@example.ru" }));
    }
    let mut dasha = server.user("Даша");
    assert_eq!(set_email(&mut dasha, "victim@example.ru").status, 429);
    pause();
    assert_eq!(sink.mails().iter().filter(|m| m.to.eq_ignore_ascii_case("victim@example.ru")).count(), 3);
    // Bad addresses: a clear Russian message naming what is wrong.
    for (bad, says) in [
        ("anya", "нет «@»"),
        ("anya@localhost", "домен"),
        ("аня@почта.рф", "не латинские"),
        ("a@b.ru\r\nBcc: x@y.ru", "до «@»"),
    ] {
        let r = set_email(&mut dasha, bad);
        assert_eq!(error(&r), (422, "bad_email".into()), "{bad:?}: {}", r.body);
        let m = r.json()["message"].as_str().unwrap().to_string();
        assert!(m.starts_with("E-mail: ") && m.contains(says), "{bad:?}: {m}");
    }
    assert_eq!(error(&dasha.call("PATCH", "/api/me", Some(&json!({"email": 5}))).unwrap()).0, 400);
}

#[test]
fn without_smtp_the_server_has_no_mail() {
    let server = Server::start();
    let mut anya = server.user("Аня");
    assert!(settings(&mut anya).get("email").is_none());
    let r = set_email(&mut anya, "anya@example.ru");
    assert_eq!(error(&r), (409, "mail_off".into()));
    assert!(r.json()["message"].as_str().unwrap().contains("почта не подключена"));
}

#[test]
fn an_smtp_outage_delays_a_mail_and_a_refused_address_is_not_retried() {
    let sink = Sink::start();
    let server = Server::with_mail(&sink);
    let mut anya = server.user("Аня");
    sink.down.store(true, std::sync::atomic::Ordering::SeqCst);
    ok(&set_email(&mut anya, "anya@example.ru"));
    pause();
    assert!(sink.mails().is_empty());
    sink.down.store(false, std::sync::atomic::Ordering::SeqCst);
    sink.wait_for("anya@example.ru", "Подтвердите");
    pause();
    assert_eq!(sink.to("anya@example.ru").len(), 1, "once");
    // 550: dropped, not tried again.
    sink.refuse.lock().unwrap().insert("nobody@example.ru".into());
    let mut borya = server.user("Боря");
    ok(&set_email(&mut borya, "nobody@example.ru"));
    std::thread::sleep(std::time::Duration::from_secs(4));
    assert!(sink.to("nobody@example.ru").is_empty());
}

/// O-NOTIFY-5: a request to the host is the sender's and the host's only.
#[test]
fn a_request_to_the_host_reaches_the_host_only() {
    let sink = Sink::start();
    let server = Server::with_mail(&sink);
    let (id, mut host, mut players) = game(&server);
    confirm(&sink, &mut host, "host@example.ru");
    confirm(&sink, &mut players[1], "borya@example.ru");
    let mut outsider = server.user("Прохожий");
    let url = format!("/api/games/{id}/requests");
    // Not before the game runs.
    let r = players[0].post(&url, json!({"text": "Когда начнём?"})).unwrap();
    assert_eq!(error(&r), (409, "not_running".into()));
    server.clock.set(START);
    ok(&host.post(&format!("/api/games/{id}/start"), json!({})).unwrap());
    // Sent, its text normalised (no bidi or control characters).
    let text = "Ведущая, найдите мне замену\u{202e}: уезжаю zqreq1x.\u{7}";
    let r = players[0].post(&url, json!({ "text": text })).unwrap();
    assert_eq!(r.status, 201, "{}", r.body);
    let sent = r.json();
    assert_eq!(sent["name"], json!("Аня"));
    assert_eq!(sent["text"], json!("Ведущая, найдите мне замену: уезжаю zqreq1x."));
    // The host is told by mail, with a link to the game's page.
    let m = sink.wait_for("host@example.ru", "пишет ведущему");
    assert!(m.body.contains("Аня пишет ведущему: «Ведущая, найдите мне замену: уезжаю zqreq1x.»"), "{}", m.body);
    assert!(m.body.contains(&format!("{SITE}/games/{id}#requests")));
    // The host reads every request, the sender its own, nobody else any.
    assert_eq!(ok(&host.get(&url).unwrap())["requests"][0]["text"], sent["text"]);
    assert_eq!(ok(&players[0].get(&url).unwrap())["requests"].as_array().unwrap().len(), 1);
    assert_eq!(ok(&players[1].get(&url).unwrap())["requests"], json!([]));
    assert_eq!(outsider.get(&url).unwrap().status, 403);
    assert_eq!(server.client().get(&url).unwrap().status, 401);
    // On no other channel: another player's pages, API, live stream's page, exports, mail.
    let game_page = format!("/games/{id}");
    assert!(host.get(&game_page).unwrap().body.contains("zqreq1x"));
    assert!(players[0].get(&game_page).unwrap().body.contains("zqreq1x"));
    for p in [
        format!("/api/games/{id}"),
        game_page.clone(),
        format!("/api/games/{id}/events"),
        format!("/api/games/{id}/inbox"),
        format!("/api/games/{id}/orders"),
        format!("{game_page}/thread.md"),
        format!("{game_page}/thread?room=thread"),
    ] {
        for c in [&mut players[1], &mut outsider] {
            let body = c.get(&p).unwrap().body;
            assert!(!body.contains("zqreq1x"), "{p}: {body}");
        }
    }
    for p in [format!("/api/games/{id}/gamefile"), format!("/api/games/{id}/report"), format!("/api/games/{id}/events")]
    {
        assert!(!host.get(&p).unwrap().body.contains("zqreq1x"), "{p}: the request is no part of the game's record");
    }
    pause();
    assert!(!sink.to("borya@example.ru").iter().any(|m| m.body.contains("zqreq1x")));
    // Limits: empty, too long, too often (three an hour per seat); the host writes to nobody.
    let r = players[0].post(&url, json!({"text": "  \u{200b} "})).unwrap();
    assert_eq!(error(&r), (422, "bad_request_text".into()));
    let r = players[0].post(&url, json!({"text": "я".repeat(501)})).unwrap();
    assert!(r.json()["message"].as_str().unwrap().contains("длиннее 500"), "{}", r.body);
    ok(&players[0].post(&url, json!({"text": "Вторая"})).unwrap());
    ok(&players[0].post(&url, json!({"text": "Третья"})).unwrap());
    let r = players[0].post(&url, json!({"text": "Четвёртая"})).unwrap();
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(r.json()["message"].as_str().unwrap().contains("Слишком часто"));
    ok(&players[1].post(&url, json!({"text": "А у меня вопрос по правилам."})).unwrap());
    assert_eq!(error(&host.post(&url, json!({"text": "Себе"})).unwrap()).1, "host_request");
    assert_eq!(ok(&host.get(&url).unwrap())["requests"].as_array().unwrap().len(), 4);
    // The form on the game page, and the host's list.
    let page = players[2].get(&game_page).unwrap().body;
    assert!(page.contains("Написать ведущему") && page.contains(&format!("/games/{id}/request")), "{page}");
    let desk = host.get(&game_page).unwrap().body;
    assert!(desk.contains("Просьбы игроков к ведущему") && desk.contains("Боря"), "{desk}");
}
