//! Issue 31, point 6: an `ostrov serve` process with the Telegram bot (at a stand-in of the
//! Bot API on loopback) is killed with SIGKILL in the middle of sending its notices and
//! started again on the same database: every notice arrives, none twice. And whatever the
//! server logs (an outage of the API included) never holds the bot's token.

#[path = "../../ostrov-server/tests/support/telegram.rs"]
mod standin;
mod support;

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use ostrov_server::client::Client;
use serde_json::json;
use standin::{BotApi, TOKEN};
use support::{ok, set_clock, temp_dir, T0};

/// `ostrov serve` with the bot's token in its environment: the process and its address;
/// its stderr is collected in `log`.
fn serve(db: &Path, clock: &Path, api: &str, log: &Path) -> (Child, std::net::SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ostrov"))
        .args(["serve", "--bind", "127.0.0.1:0", "--signups-per-hour", "0", "--public-url", "https://ostrov.test"])
        .arg("--db")
        .arg(db)
        .arg("--clock-file")
        .arg(clock)
        .args(["--telegram-api", api])
        .env("OSTROV_TELEGRAM_TOKEN", TOKEN)
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(log).unwrap())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    let addr = line.split("http://").nth(1).and_then(|r| r.split('/').next()).unwrap().parse().unwrap();
    // The rest of stdout (the bot's line), read so that it never blocks the server.
    std::thread::spawn(move || {
        let mut rest = String::new();
        let _ = out.read_to_string(&mut rest);
    });
    (child, addr)
}

fn user(addr: std::net::SocketAddr, name: &str) -> Client {
    let mut c = Client::new(addr);
    ok(c.post("/api/signup", json!({"name": name, "password": "пароль-для-теста"})), "signup");
    c
}

const NAMES: [&str; 6] = ["Аня", "Боря", "Вика", "Гоша", "Даша", "Егор"];

#[test]
fn a_sigkill_while_sending_loses_and_doubles_no_notice() {
    let dir = temp_dir("telegram-crash");
    let (db, clock, log) = (dir.join("ostrov.db"), dir.join("clock"), dir.join("stderr"));
    set_clock(&clock, T0);
    let api = BotApi::start();
    let (mut server, addr) = serve(&db, &clock, &api.url("n1"), &log);

    let mut host = user(addr, "Ведущая");
    let mut players: Vec<Client> = NAMES.iter().map(|n| user(addr, n)).collect();
    let g =
        ok(host.post("/api/games", json!({"title": "Маяк", "slots": 6, "setup": "werewolf,seer", "seed": 5})), "game");
    let (id, invite) = (g["id"].as_i64().unwrap(), g["invite"].as_str().unwrap().to_string());
    for (i, c) in std::iter::once(&mut host).chain(players.iter_mut()).enumerate() {
        let code = ok(c.post("/api/me/telegram", json!({})), "code")["code"].as_str().unwrap().to_string();
        api.say(500 + i as i64, &format!("/start {code}"));
        api.wait_for(500 + i as i64, "подключён к аккаунту");
    }
    for c in players.iter_mut() {
        ok(c.post(&format!("/api/invites/{invite}/join"), json!({})), "join");
    }
    // An outage first: the server logs it, and the log must not hold the token.
    api.down.store(true, Ordering::SeqCst);
    std::thread::sleep(Duration::from_secs(3));
    api.down.store(false, Ordering::SeqCst);

    // The sends hang (never delivered); the server is killed while one is in flight.
    api.hang_sends.store(true, Ordering::SeqCst);
    let before = api.sent().len();
    let calls = api.calls().len();
    ok(host.post(&format!("/api/games/{id}/start"), json!({})), "start");
    let end = Instant::now() + Duration::from_secs(20);
    while !api.calls().iter().skip(calls).any(|(_, m)| m == "sendMessage") {
        assert!(Instant::now() < end, "no send began");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(api.sent().len(), before, "nothing delivered before the kill");
    server.kill().unwrap();
    server.wait().unwrap();
    api.hang_sends.store(false, Ordering::SeqCst);

    // Started again: what was in flight is sent again, everything once.
    let (mut again, _) = serve(&db, &clock, &api.url("n1"), &log.with_extension("2"));
    // Each player: «игра началась» (the deal) and «открылся день 1».
    let sent = api.wait_until(60, "every notice", |s| {
        (501..=506).all(|chat| {
            s.iter().any(|m| m.chat == chat && m.text.contains("игра началась"))
                && s.iter().any(|m| m.chat == chat && m.text.contains("открылся день 1"))
        })
    });
    std::thread::sleep(Duration::from_secs(2));
    let sent = api.sent().len().max(sent.len());
    let all = api.sent();
    assert_eq!(all.len(), sent);
    let mut seen = std::collections::BTreeSet::new();
    for m in &all[before..] {
        assert!(seen.insert((m.chat, m.text.clone())), "sent twice: {m:?}");
    }
    let _ = again.kill();
    let _ = again.wait();

    for f in [log.clone(), log.with_extension("2")] {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        assert!(!text.contains(TOKEN) && !text.contains("SECRET"), "the token in the log: {text}");
    }
    let first = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(first.contains("telegram") || first.contains("Telegram"), "the outage is logged: {first}");
    let _ = std::fs::remove_dir_all(&dir);
}
