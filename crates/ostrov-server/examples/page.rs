//! The game page's size and server render time for a 15-player game in the middle of a
//! day: every seat has voted, 80 posts in the thread (200 characters each), 10 in the pack's
//! chat; rendered for a werewolf (the largest player page: the pack's chat too) and for
//! the host (every role, item and order), as `GET /games/{id}` does after its lock.
//!
//! ```text
//! cargo run --release -p ostrov-server --example page
//! ```

use std::time::Instant;

use askama::Template;
use ostrov_engine::{OrderEntry, PlayerId};
use ostrov_server::game::{Config, GameEvent, GameState, Post, Room};
use ostrov_server::schedule::Schedule;
use ostrov_server::view::Viewer;
use ostrov_server::web::{render_game_page, Notes, Visitor};

const START: i64 = 1_796_151_600;

fn game() -> GameState {
    let config = Config {
        title: "Остров страха: зимний сезон".into(),
        slots: 15,
        setup: None,
        deck: None,
        rules: None,
        seed: Some(20261204),
        shuffle: false,
        schedule: Schedule::default(),
        visibility: Default::default(),
        discussion: Default::default(),
    };
    let mut live = GameState::new(1, 1000, config).unwrap();
    let names: Vec<String> =
        (0..15).map(|i| format!("{}{i}", ["Агата", "Богдан", "Варвара", "Гордей", "Дарина"][i % 5])).collect();
    for (i, n) in names.iter().enumerate() {
        live.apply(&GameEvent::Joined { user: i as i64, name: n.clone() }, START - 3600).unwrap();
    }
    let roles = live.config.deal(15).unwrap().iter().map(|r| r.id().to_string()).collect();
    live.apply(&GameEvent::Started { roles, speech: Vec::new() }, START).unwrap();
    live.apply(
        &GameEvent::Fixed {
            day: 1,
            fix: ostrov_server::game::Fix { event: Some("none".into()), ..Default::default() },
        },
        START,
    )
    .unwrap();
    for (i, n) in names.iter().enumerate() {
        let order = OrderEntry {
            by: n.clone(),
            act: "vote".into(),
            target: Some(names[(i + 1) % 15].clone()),
            at: Some(serde_json::json!("10:00")),
            ..OrderEntry::default()
        };
        live.apply(&GameEvent::Order { day: 1, order }, START + 12 * 3600).unwrap();
    }
    let text = "Вчера вечером кто-то слишком уверенно защищал соседа по списку, и это подозрительно. ".repeat(3);
    let text: String = text.chars().take(200).collect();
    for k in 0..90 {
        let i = k % 15;
        let room = if k % 9 == 8 { Room::Pack } else { Room::Thread };
        let post = Post {
            user: i as i64,
            name: names[i].clone(),
            room,
            speaker: "free".into(),
            text: text.clone(),
            banned: Vec::new(),
        };
        live.apply(&GameEvent::Posted { day: 1, post }, START + 12 * 3600 + k as i64).unwrap();
    }
    live
}

fn measure(live: &GameState, v: &Visitor, what: &str) {
    let now = START + 13 * 3600;
    let notes = Notes::default();
    let body = render_game_page(v, live, Some("0123456789abcdef01234567".into()), now, &notes, None).render().unwrap();
    let runs = 300;
    let t = Instant::now();
    for _ in 0..runs {
        let p = render_game_page(v, live, Some("0123456789abcdef01234567".into()), now, &notes, None);
        std::hint::black_box(p.render().unwrap());
    }
    let per = t.elapsed().as_secs_f64() * 1000.0 / runs as f64;
    println!(
        "{what}: {} bytes ({:.1} KB) of HTML, rendered in {per:.2} ms (mean of {runs})",
        body.len(),
        body.len() as f64 / 1024.0
    );
}

fn main() {
    let live = game();
    let m = live.m.as_ref().unwrap();
    let wolf = (0..15u16).map(PlayerId).find(|p| m.state().player(*p).role == ostrov_engine::Role::Werewolf).unwrap();
    let user = live.members[wolf.index()].user;
    assert_eq!(Viewer::of(&live, user), Viewer::Player(wolf));
    measure(
        &live,
        &Visitor::signed_in(user, &live.members[wolf.index()].name, "0123456789abcdef0123456789abcdef"),
        "a werewolf's page",
    );
    measure(&live, &Visitor::signed_in(1000, "Ведущий", "0123456789abcdef0123456789abcdef"), "the host's page");
}
