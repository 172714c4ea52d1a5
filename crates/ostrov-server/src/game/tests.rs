//! The fold and the scheduler's steps on a game without a server.

use super::*;
use crate::schedule::Schedule;
use ostrov_engine::OrderEntry;

/// 2026-12-01 22:00 Moscow: day 1 opens; 13:00 is 15 hours later, 21:00 23 hours.
pub(crate) const START: i64 = 1_796_151_600;
pub(crate) const H: i64 = 3600;

fn game(n: usize) -> (GameState, Vec<(i64, GameEvent)>) {
    game_of(n, "werewolf,seer")
}

/// A game of `n` seats dealt `setup` (seed 7), started at [`START`], and its log.
pub(crate) fn game_of(n: usize, setup: &str) -> (GameState, Vec<(i64, GameEvent)>) {
    let config = Config {
        title: "Тест".into(),
        slots: n,
        setup: Some(setup.into()),
        deck: None,
        rules: None,
        seed: Some(7),
        shuffle: false,
        schedule: Schedule::default(),
        visibility: Default::default(),
        discussion: Default::default(),
    };
    let mut log = vec![(START - H, GameEvent::Created(config.clone()))];
    let mut live = GameState::new(1, 100, config).unwrap();
    for i in 0..n {
        let ev = GameEvent::Joined { user: i as i64, name: format!("Игрок{i}") };
        live.apply(&ev, START - H).unwrap();
        log.push((START - H, ev));
    }
    let roles = live.config.deal(n).unwrap().iter().map(|r| r.id().to_string()).collect();
    let ev = GameEvent::Started { roles, speech: Vec::new() };
    live.apply(&ev, START).unwrap();
    log.push((START, ev));
    (live, log)
}

fn step(live: &mut GameState, log: &mut Vec<(i64, GameEvent)>, now: i64) -> Option<GameEvent> {
    let ev = live.due(now)?;
    live.apply(&ev, now).unwrap();
    log.push((now, ev.clone()));
    Some(ev)
}

#[test]
fn the_scheduler_runs_13_00_then_21_00_then_22_00_each_once() {
    let (mut live, mut log) = game(5);
    assert_eq!(live.due(START + 15 * H), None, "13:00 is not over yet");
    assert_eq!(step(&mut live, &mut log, START + 15 * H + 60), Some(GameEvent::Midday { day: 1, early: false }));
    assert_eq!(live.due(START + 15 * H + 61), None, "the 13:00 stage ran once");
    assert_eq!(live.due(START + 23 * H + 59), None, "21:00 is still in time (O-TIME-1)");
    assert_eq!(step(&mut live, &mut log, START + 23 * H + 60), Some(GameEvent::Resolved { day: 1, early: false }));
    assert_eq!(live.due(START + 23 * H + 61), None, "resolved once");
    assert_eq!(live.next_open_at, Some(START + 24 * H));
    let opened = step(&mut live, &mut log, START + 24 * H);
    assert_eq!(
        opened,
        Some(GameEvent::Opened { day: 2, midday_at: START + 39 * H, deadline_at: START + 47 * H, early: false })
    );
    // The fold of the log is the same game.
    let again = GameState::fold(1, 100, &log).unwrap();
    assert_eq!(again.days, live.days);
    assert_eq!(again.file, live.file);
}

#[test]
fn a_server_down_at_21_00_resolves_on_start_and_opens_the_next_day_at_once() {
    let (mut live, mut log) = game(5);
    // Back up at 23:30 the next evening: the missed deadline, then the next day.
    let now = START + 25 * H + 30 * 60;
    assert_eq!(step(&mut live, &mut log, now), Some(GameEvent::Midday { day: 1, early: false }));
    assert_eq!(step(&mut live, &mut log, now), Some(GameEvent::Resolved { day: 1, early: false }));
    let Some(GameEvent::Opened { day: 2, midday_at, deadline_at, .. }) = step(&mut live, &mut log, now) else {
        panic!("day 2 opens")
    };
    assert_eq!((midday_at, deadline_at), (START + 39 * H, START + 47 * H), "day 2 keeps its whole schedule");
    assert_eq!(live.due(now), None);
}

#[test]
fn a_pause_holds_the_deadline_and_resume_moves_it_by_the_pause() {
    let (mut live, _) = game(5);
    live.apply(&GameEvent::Paused {}, START + 10 * H).unwrap();
    assert_eq!(live.due(START + 30 * H), None, "nothing runs while paused");
    assert_eq!(live.deadline(START + 12 * H), Some(START + 25 * H));
    live.apply(&GameEvent::Resumed {}, START + 12 * H).unwrap();
    assert_eq!(live.days[0].deadline_at, START + 25 * H);
    assert_eq!(live.days[0].midday_at, START + 17 * H);
    assert!(live.apply(&GameEvent::Resumed {}, START + 13 * H).is_err(), "not paused");
}

#[test]
fn the_host_fixes_draws_only_before_they_matter() {
    let (mut live, _) = game(5);
    let tie = Fix { tie_break: Some(vec!["Игрок1".into()]), ..Fix::default() };
    let event = Fix { event: Some("fog_night".into()), ..Fix::default() };
    live.apply(&GameEvent::Fixed { day: 1, fix: event.clone() }, START + H).unwrap();
    assert_eq!(live.m.as_ref().unwrap().state().event(), Some(ostrov_engine::Event::FogNight));
    let vote = OrderEntry {
        by: "Игрок0".into(),
        act: "vote".into(),
        target: Some("Игрок1".into()),
        at: Some(serde_json::json!("10:00")),
        ..OrderEntry::default()
    };
    live.apply(&GameEvent::Order { day: 1, order: vote }, START + 2 * H).unwrap();
    assert!(matches!(live.apply(&GameEvent::Fixed { day: 1, fix: event }, START + 3 * H), Err(Refused::State(..))));
    live.apply(&GameEvent::Fixed { day: 1, fix: tie }, START + 3 * H).unwrap();
    assert_eq!(live.file.days[0].orders.len(), 1, "the replay kept the order");
    let nobody = Fix { chosen: Some("Никто".into()), ..Fix::default() };
    assert!(live.apply(&GameEvent::Fixed { day: 2, fix: nobody }, START + 3 * H).is_err());
}

#[test]
fn events_round_trip_through_the_store_form() {
    for ev in [
        GameEvent::Paused {},
        GameEvent::Resolved { day: 3, early: true },
        GameEvent::Joined { user: 5, name: "Ёжик".into() },
        GameEvent::Started {
            roles: vec!["seer".into()],
            speech: vec![SeatSpeech { gender: Some("f".into()), forms: None, dropped: Vec::new() }],
        },
    ] {
        let (kind, payload) = ev.split();
        assert_eq!(GameEvent::join(&kind, &payload).unwrap(), ev);
    }
    // A start logged before profiles reads with no speech.
    let old = GameEvent::join("started", &serde_json::json!({"roles": ["seer"]})).unwrap();
    assert_eq!(old, GameEvent::Started { roles: vec!["seer".into()], speech: Vec::new() });
    assert!(GameEvent::join("exploded", &serde_json::json!({})).is_err());
}

/// Issue 28, point 6 (O-NAME-1): at the start a seat's profile forms are dropped, all six
/// (the gender stays), when one is, or looks like, another seat's name or form (given or
/// the engine's own), or the host's name, or is no form of the seat's name (a profile
/// saved before the rule); the dropped forms are listed for the player.
#[test]
fn colliding_or_foreign_name_forms_are_dropped_at_the_start() {
    let mut live = game(4).0;
    live.members = ["Вика", "Bики", "Лёва", "Гоша"]
        .iter()
        .enumerate()
        .map(|(i, n)| Member { user: i as i64, name: n.to_string(), bot: None })
        .collect();
    let forms = |f: [&str; 6]| Some(f.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    let lev = || SeatSpeech {
        gender: Some("m".into()),
        forms: forms(["Лёва", "Льва", "Льву", "Льва", "Львом", "Льве"]),
        dropped: vec![],
    };
    let speech = vec![
        SeatSpeech {
            gender: Some("f".into()),
            forms: forms(["Вика", "Вики", "Вике", "Вику", "Викой", "Вике"]),
            dropped: vec![],
        },
        SeatSpeech::default(),
        lev(),
        SeatSpeech {
            gender: None, forms: forms(["Гоша", "Бори", "Гоше", "Гошу", "Гошей", "Гоше"]), dropped: vec![]
        },
    ];
    let out = live.speech_at_start(Some("Хозяйка"), speech.clone());
    // «Вики» looks like the seat «Bики» (a Latin B).
    assert_eq!(out[0], SeatSpeech { gender: Some("f".into()), forms: None, dropped: vec!["Вики".into()] });
    assert_eq!(out[2], lev(), "Лёва's forms are his own and nobody else's");
    assert_eq!(out[3].dropped, vec!["Бори".to_string()], "no form of «Гоша»");
    // The host's name is nobody's form.
    let out = live.speech_at_start(Some("ЛЬВУ"), speech);
    assert_eq!(out[2].dropped, vec!["Льву".to_string()]);
}

/// O-ORDER-4, issue 30 point 7: a withdrawal is as secret as the order it takes back — its
/// change is the seat's (and the host's) alone: nobody else's live stream moves, and the
/// pack hears nothing of it either.
#[test]
fn a_withdrawal_is_told_to_its_seat_alone() {
    let (mut live, _) = game_of(5, "werewolf,seer");
    let m = live.m.as_ref().unwrap();
    let (p, q) = (m.state().list_order()[0], m.state().list_order()[1]);
    let (by, target) = (m.state().name(p).to_string(), m.state().name(q).to_string());
    let order = |act: &str, target: Option<String>, what: Option<&str>| OrderEntry {
        by: by.clone(),
        act: act.into(),
        target,
        what: what.map(str::to_string),
        at: Some(serde_json::json!("10:00")),
        ..OrderEntry::default()
    };
    live.apply(&GameEvent::Order { day: 1, order: order("vote", Some(target), None) }, START + 12 * H).unwrap();
    let before = live.changes.clone();
    live.apply(&GameEvent::Order { day: 1, order: order("withdraw", None, Some("vote")) }, START + 12 * H).unwrap();
    let after = &live.changes;
    assert_eq!((after.everyone, after.pack), (before.everyone, before.pack), "nobody else hears of it");
    for (i, (a, b)) in after.seats.iter().zip(before.seats.iter().chain(std::iter::repeat(&0))).enumerate() {
        assert_eq!(*a, b + u64::from(i == p.index()), "seat {i}");
    }
    assert_eq!(live.m.as_ref().unwrap().standing_orders(p).vote, None, "withdrawn");
}
