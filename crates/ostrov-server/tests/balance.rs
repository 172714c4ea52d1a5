//! The balance hint under abuse (issue 28, point 12), over HTTP against a real server: a
//! 100-seat hint answers within its bound, a second request for the same setup comes from
//! the cache at once, a request whose client hangs up stops its games, and the caps on
//! hints running at once (per account and in all) refuse the extra with a 429 in Russian.
//!
//! One test: the games simulated are counted process-wide
//! ([`ostrov_server::service::balance::SIMULATED`]), and nothing else here simulates.

mod support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use ostrov_server::service::balance::{games_for, HINT_BUDGET, PAUSE_PER_GAME_US, SIMULATED};
use support::Server;

/// The hint's URL for a 100-seat table with twelve werewolves and three seers; `days` varies the
/// house rules, so that each value is a setup of its own (not cached).
fn big(days: u32) -> String {
    format!(
        "/new/balance?slots=100&setup=custom&role_werewolf=12&role_seer=3&tie=random&max_days={days}&tz=Europe/Moscow&open=22:00&midday=13:00&deadline=21:00"
    )
}

fn simulated() -> u64 {
    SIMULATED.load(Ordering::SeqCst)
}

/// Waits until no hint is simulating (the count stands still for a while).
fn settle() -> u64 {
    let mut last = simulated();
    loop {
        std::thread::sleep(Duration::from_millis(700));
        let now = simulated();
        if now == last {
            return now;
        }
        last = now;
    }
}

#[test]
fn the_balance_hint_is_bounded_cancelled_cached_and_capped() {
    // Each game is held 20 ms, so that a hint runs its whole budget and can be held open
    // (the bots alone play the 480 games of a 100-seat hint in about a quarter second).
    PAUSE_PER_GAME_US.store(20_000, Ordering::SeqCst);
    let server = Server::start();
    let mut anna = server.user("Анна");

    // Bounded: a 100-seat hint answers within its wall-time budget (it took 82 s).
    let before = simulated();
    let t = Instant::now();
    let r = anna.get(&big(40)).unwrap();
    let first = t.elapsed();
    let played = simulated() - before;
    println!("a 100-seat hint: {:.2} s, {played} games", first.as_secs_f64());
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body.contains("Мирные выигрывают"), "{}", r.body);
    assert!(first < HINT_BUDGET + Duration::from_secs(2), "{first:?}");
    assert!(played <= games_for(100), "{played} games");

    // Cached: the same setup again is instant and simulates nothing.
    let before = simulated();
    let t = Instant::now();
    let again = anna.get(&big(40)).unwrap();
    let cached = t.elapsed();
    println!("the same hint again: {:.1} ms", cached.as_secs_f64() * 1e3);
    assert_eq!(again.body, r.body);
    assert_eq!(simulated(), before, "nothing simulated for a cached hint");
    assert!(cached < Duration::from_millis(300), "{cached:?}");

    // Dropped: a client that hangs up after a fifth of the first hint's time stops its
    // games (it played a fraction of what a whole hint plays).
    let before = settle();
    let mut s = TcpStream::connect(server.addr).unwrap();
    s.write_all(&anna.request("GET", &big(39), "", b"")).unwrap();
    std::thread::sleep(first / 5);
    drop(s);
    let after = settle();
    println!("a hint dropped after {:?}: {} games (a whole one: {played})", first / 5, after - before);
    assert!(after - before < played.max(2) * 3 / 4, "{} games after the client left", after - before);

    // Capped: one running hint per account, and at most `at_once` in all; the extra gets a
    // 429 in Russian with Retry-After.
    let open = |c: &ostrov_server::client::Client, days: u32| {
        let mut s = TcpStream::connect(server.addr).unwrap();
        s.write_all(&c.request("GET", &big(days), "", b"")).unwrap();
        s
    };
    let held = open(&anna, 30);
    std::thread::sleep(Duration::from_millis(200));
    let r = anna.get(&big(31)).unwrap();
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(r.body.contains("ваших прежних настроек ещё считается"), "{}", r.body);
    assert!(r.header("retry-after").is_some());
    // Other accounts, each one hint, until the server is full.
    let mut others = Vec::new();
    let mut refused = None;
    for i in 0..16u32 {
        let c = server.user(&format!("Гость {i}"));
        let mut c2 = c.clone();
        let r = {
            let mut s = TcpStream::connect(server.addr).unwrap();
            s.set_read_timeout(Some(Duration::from_millis(300))).unwrap();
            s.write_all(&c.request("GET", &big(20 + i), "", b"")).unwrap();
            let mut buf = vec![0u8; 4096];
            let n = s.read(&mut buf).unwrap_or(0);
            others.push(s);
            String::from_utf8_lossy(&buf[..n]).to_string()
        };
        if r.starts_with("HTTP/1.1 429") {
            refused = Some(r);
            // Once full, a direct request is refused too.
            let again = c2.get(&big(60)).unwrap();
            assert_eq!(again.status, 429, "{}", again.body);
            break;
        }
    }
    let refused = refused.expect("the overall cap refused a hint");
    assert!(refused.contains("Сервер сейчас считает много оценок баланса"), "{refused}");
    drop(others);
    drop(held);
    settle();
    // Freed: the next hint runs.
    let r = anna.get(&big(31)).unwrap();
    assert_eq!(r.status, 200, "{}", r.body);
}
