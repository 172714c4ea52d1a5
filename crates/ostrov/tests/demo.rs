//! `ostrov demo` as a new user meets it (issue 32, point 5): the real binary on a loopback
//! port over a new SQLite file. A fresh cookie session opening `/` is signed in as a guest
//! and lands on a running practice game where it holds a seat, with bots at the table, and
//! its vote is accepted; the game is its alone.

mod support;

use ostrov_server::client::{Client, Reply};
use serde_json::{json, Value};
use support::{ok, set_clock, temp_dir, Node, T0};

/// The game a fresh session's `GET /` sends it to, and that session.
fn arrive(node: &Node) -> (Client, i64) {
    let mut c = Client::new(node.addr);
    let r = c.get("/").expect("GET /");
    assert_eq!(r.status, 303, "{}", r.body);
    assert!(c.cookie.as_deref().is_some_and(|k| k.contains("ostrov_session=")), "a session cookie: {:?}", c.cookie);
    let to = r.header("location").expect("a Location").to_string();
    let id = to.strip_prefix("/games/").and_then(|i| i.parse().ok()).unwrap_or_else(|| panic!("to a game: {to}"));
    (c, id)
}

fn game(c: &mut Client, id: i64) -> Value {
    ok(c.get(&format!("/api/games/{id}")), "the game")
}

fn page(c: &mut Client, path: &str) -> Reply {
    c.get(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn issue_32_a_new_visitor_plays_at_once_as_a_guest_against_bots() {
    let dir = temp_dir("demo");
    let clock = dir.join("clock");
    set_clock(&clock, T0);
    let node = Node::demo(dir.join("ostrov-demo.db"), &clock, 5);
    let (mut c, id) = arrive(&node);

    // Signed in as a guest with a generated name, seated in a running game.
    let me = ok(c.get("/api/me"), "me");
    let g = game(&mut c, id);
    assert_eq!(g["status"], "running", "{g}");
    let you = &g["you"];
    assert!(you.is_object(), "the guest holds a seat: {g}");
    let players = g["players"].as_array().expect("players");
    assert_eq!(players.len(), 7, "{g}");
    let bots: Vec<&Value> = players.iter().filter(|p| p["bot"] == true).collect();
    assert!(bots.len() >= 4, "at least four bots at the table: {g}");
    assert!(players.iter().any(|p| p["bot"] != true && p["name"] == you["name"]), "the guest is no bot: {g}");
    assert!(me["name"].as_str().is_some_and(|n| n.starts_with(you["name"].as_str().unwrap())), "{me} {you}");

    // The page: the game, with the guide to the guest's role, item, event and what to do.
    let p = page(&mut c, &format!("/games/{id}"));
    assert_eq!(p.status, 200);
    assert!(p.body.contains("Практическая игра: коротко"), "{}", p.body);
    assert!(p.body.contains("Ваша роль"), "{}", p.body);
    assert!(p.body.contains("Что сделать сейчас"), "{}", p.body);

    // A vote, accepted.
    let target = bots[0]["name"].as_str().unwrap();
    let v = ok(c.post(&format!("/api/games/{id}/orders"), json!({"act": "vote", "target": target})), "a vote");
    assert_eq!(v["accepted"], true, "{v}");

    // Back on `/`, the guest goes back to the same game.
    let r = page(&mut c, "/");
    assert_eq!((r.status, r.header("location")), (303, Some(format!("/games/{id}").as_str())));

    // Another visitor gets a game of their own and cannot see this one.
    let (mut other, other_id) = arrive(&node);
    assert_ne!(other_id, id);
    assert_eq!(page(&mut other, &format!("/api/games/{id}")).status, 404);
    assert_eq!(page(&mut other, &format!("/games/{id}")).status, 404);
    drop(node);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The guests' limit per address: the seventh fresh session from one address within the
/// hour is told in Russian to wait.
#[test]
fn issue_32_guests_from_one_address_are_limited() {
    let dir = temp_dir("demo-limit");
    let clock = dir.join("clock");
    set_clock(&clock, T0);
    let node = Node::demo(dir.join("ostrov-demo.db"), &clock, 5);
    for _ in 0..6 {
        arrive(&node);
    }
    let r = page(&mut Client::new(node.addr), "/");
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(r.body.contains("Слишком много новых гостей"), "{}", r.body);
    // An hour later, one more.
    set_clock(&clock, T0 + 3601);
    arrive(&node);
    drop(node);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A whole practice game (issue 32): `ostrov demo --day-minutes 3` with the test clock, the
/// guest voting each day and the bots playing, moved on 10 real seconds at a time until the
/// game is over. Prints how long it took on the game's clock (days × 3 minutes: what a guest
/// waits) and on the wall clock of the test.
#[test]
fn issue_32_a_whole_practice_game_ends_on_the_fast_clock() {
    const MINUTES: i64 = 3;
    let dir = temp_dir("demo-game");
    let clock = dir.join("clock");
    set_clock(&clock, T0);
    let node = Node::demo(dir.join("ostrov-demo.db"), &clock, MINUTES as u32);
    let (mut c, id) = arrive(&node);
    let wall = std::time::Instant::now();
    let (mut now, mut voted) = (T0, 0);
    let g = loop {
        let g = game(&mut c, id);
        if g["status"] == "over" {
            break g;
        }
        assert!(now - T0 < 13 * MINUTES * 60 + 600, "a practice game ends within 12 days: {g}");
        let day = g["open"]["day"].as_i64().unwrap_or(0);
        if day > voted && g["you"]["alive"] == true {
            let target = g["players"].as_array().unwrap().iter().find(|p| p["bot"] == true && p["alive"] == true);
            if let Some(t) = target {
                let _ = c.post(&format!("/api/games/{id}/orders"), json!({"act": "vote", "target": t["name"]}));
            }
            voted = day;
        }
        now += 10;
        set_clock(&clock, now);
        std::thread::sleep(std::time::Duration::from_millis(250));
    };
    let days = g["day"].as_i64().unwrap_or(voted);
    println!(
        "a practice game of {days} days ({}) took {} min {} s on the game's clock ({MINUTES}-minute days) and \
         {:.1} s of the test's wall clock",
        g["winner"],
        (now - T0) / 60,
        (now - T0) % 60,
        wall.elapsed().as_secs_f64()
    );
    drop(node);
    std::fs::remove_dir_all(&dir).unwrap();
}
