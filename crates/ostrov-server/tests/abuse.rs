//! Issue 16 (points 6–9): a bounded abuse run against a real server (loopback, a real
//! SQLite file). 2,000 failed logins with long names, 200 game creations by one host,
//! 1,000 orders from one player and 50 parallel sign-ups: every refusal is a clear 4xx,
//! the server's memory stays small, `GET /api/me` stays fast during the sign-ups, and the
//! lists and views stay small.

mod support;

use std::time::{Duration, Instant};

use serde_json::json;
use support::{error, ok, Server, HOUR as H, START};

/// The resident memory of this process (the server runs in it), in MiB.
fn rss_mib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
        .map_or(0, |kib| kib / 1024)
}

#[test]
fn the_server_survives_a_bounded_abuse_run() {
    let server = Server::start();
    let clock = server.clock.clone();

    // 2,000 failed logins with 20 KB names: 400 each, nothing kept.
    let mut c = server.client();
    for i in 0..2_000 {
        let r = c.post("/api/login", json!({"name": format!("{}{i}", "ж".repeat(10_000)), "password": "x"})).unwrap();
        assert_eq!(error(&r), (400, "bad_request".into()), "{}", r.body);
    }

    // One host, 200 creations: 10 unfinished games at most, each refusal a 409 that says why;
    // a huge deck is refused.
    let mut host = server.user("Хозяйка");
    let deck: Vec<&str> = std::iter::repeat_n("trap", 7_000).collect();
    let r = host.post("/api/games", json!({"title": "Колода", "slots": 10, "deck": deck})).unwrap();
    assert_eq!(error(&r).0, 400);
    assert!(r.body.contains("не больше 40"), "{}", r.body);
    let mut created = Vec::new();
    for i in 0..200 {
        let r = host.post("/api/games", json!({"title": format!("Игра {i}"), "slots": 6, "seed": i})).unwrap();
        if r.status == 201 || r.status == 200 {
            created.push(r.json());
        } else {
            assert_eq!(error(&r), (409, "too_many_games".into()), "{}", r.body);
            assert!(r.body.contains("незаконченных игр"), "{}", r.body);
        }
    }
    assert_eq!(created.len(), ostrov_server::ratelimit::OPEN_GAMES);
    // The list: the caller's games and those open to join, a page at a time.
    let list = ok(&host.get("/api/games").unwrap());
    assert_eq!((list["total"].as_u64(), list["pages"].as_u64()), (Some(10), Some(1)), "{list}");
    let r = host.get("/api/games?page=0").unwrap();
    assert_eq!(error(&r).0, 400);

    // 1,000 orders from one player: 200 a day, then 429 with Retry-After; the views hold
    // only the current order of each kind.
    let invite = created[0]["invite"].as_str().unwrap().to_string();
    let id = created[0]["id"].as_i64().unwrap();
    let names = ["Аня", "Боря", "Вика", "Гоша", "Даша", "Егор"];
    let mut p = server.join_all(&invite, &names);
    clock.set(START);
    ok(&host.post(&format!("/api/games/{id}/start"), json!({})).unwrap());
    clock.set(START + 12 * H);
    let orders = format!("/api/games/{id}/orders");
    let (mut accepted, mut limited) = (0, 0);
    for i in 0..1_000 {
        let target = names[1 + i % 5];
        let r = p[0].post(&orders, json!({"act": "vote", "target": target})).unwrap();
        match r.status {
            200 => accepted += 1,
            429 => {
                limited += 1;
                assert!(r.body.contains("не больше 200"), "{}", r.body);
            }
            s => panic!("order {i}: {s} {}", r.body),
        }
    }
    assert_eq!((accepted, limited), (ostrov_server::service::MAX_ORDERS_PER_DAY, 800));
    let mine = ok(&p[0].get(&orders).unwrap());
    assert_eq!(mine["orders"].as_array().unwrap().len(), 1, "only the current vote: {mine}");
    let view = host.get(&format!("/api/games/{id}")).unwrap();
    assert!(view.body.len() < 20_000, "the host's view is {} bytes", view.body.len());
    assert_eq!(ok(&p[1].post(&orders, json!({"act": "vote", "target": "Аня"})).unwrap())["accepted"], true);

    // 50 parallel sign-ups while a signed-in user asks who they are.
    let addr = server.addr;
    let signups: Vec<_> = (0..50)
        .map(|i| {
            std::thread::spawn(move || {
                let mut c = ostrov_server::client::Client::new(addr);
                let r =
                    c.post("/api/signup", json!({"name": format!("Гость{i}"), "password": "пароль-гостя"})).unwrap();
                assert!(r.status == 200 || r.status == 429, "{} {}", r.status, r.body);
            })
        })
        .collect();
    let mut times = Vec::new();
    let until = Instant::now() + Duration::from_secs(30);
    while signups.iter().any(|t| !t.is_finished()) && Instant::now() < until {
        let t = Instant::now();
        ok(&host.get("/api/me").unwrap());
        times.push(t.elapsed());
    }
    for t in signups {
        t.join().unwrap();
    }
    times.sort();
    let p99 = times.get(times.len() * 99 / 100).copied().unwrap_or_default();
    println!("GET /api/me during 50 sign-ups: {} requests, p99 {:.1} ms", times.len(), p99.as_secs_f64() * 1e3);
    assert!(p99 < Duration::from_millis(50), "p99 {p99:?}");

    let rss = rss_mib();
    println!("resident memory after the abuse run: {rss} MiB");
    assert!(rss < 100, "{rss} MiB");
}
