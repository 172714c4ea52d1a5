//! Several nodes over one PostgreSQL database, in process: a game created on one node after
//! the others started is served, listed and scheduled by every node; a node learns within
//! a second what another accepted (LISTEN/NOTIFY); orders sent to two nodes at once are
//! all answered and stored once; and two nodes whose clocks pass 21:00 together resolve
//! the day once — fifty times over. These run when `OSTROV_TEST_PG` names a PostgreSQL
//! server (ostrov_store::testdb); without it each says so in one line and passes.

mod support;

use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use ostrov_server::client::Client;
use ostrov_store::Store;
use serde_json::{json, Value};
use support::{ok, with_store, Db, Server, TestClock, HOUR, START};

const NAMES: [&str; 5] = ["Аня", "Боря", "Вика", "Гоша", "Даша"];

/// Runs `body` on PostgreSQL, or says in one line that it was not run.
fn on_postgres(body: fn()) {
    if std::env::var(ostrov_store::testdb::VAR).map_or(true, |v| v.is_empty()) {
        ostrov_store::testdb::skipped_once();
        return;
    }
    with_store(Db::Postgres, body);
}

/// Two nodes on one database, each with its own clock; the host and five players, signed
/// up on the first.
struct Two {
    a: Server,
    b: ostrov_server::local::LocalServer,
    clock_b: Arc<TestClock>,
    host: Client,
    players: Vec<Client>,
}

impl Two {
    fn start() -> Two {
        let a = Server::start();
        let clock_b = Arc::new(TestClock::new(START - HOUR));
        let b = a.node(clock_b.clone());
        let host = a.user("Ведущая");
        let players = NAMES.iter().map(|n| a.user(n)).collect();
        Two { a, b, clock_b, host, players }
    }

    fn set_clocks(&self, t: i64) {
        self.a.clock.set(t);
        self.clock_b.set(t);
    }

    /// A started five-player game, created and started on node `on`; the players joined
    /// half on each node.
    fn game_on(&mut self, on: usize) -> i64 {
        let mut host = self.on(&self.host, on);
        let g = ok(&host
            .post("/api/games", json!({"title": "Два узла", "slots": 5, "setup": "werewolf,seer", "seed": 5}))
            .unwrap());
        let (id, invite) = (g["id"].as_i64().unwrap(), g["invite"].as_str().unwrap().to_string());
        let (a, b) = (self.a.addr, self.b.addr);
        for (i, p) in self.players.iter_mut().enumerate() {
            p.addr = if i % 2 == 0 { b } else { a };
            ok(&p.post(&format!("/api/invites/{invite}/join"), json!({})).unwrap());
        }
        ok(&host.post(&format!("/api/games/{id}/start"), json!({})).unwrap());
        id
    }

    /// The players log in again (sessions last 30 days of the moved clock).
    fn log_in_again(&mut self) {
        for (c, name) in self.players.iter_mut().zip(NAMES) {
            c.cookie = None;
            ok(&c.post("/api/login", json!({"name": name, "password": "пароль-для-теста"})).unwrap());
        }
    }

    fn on(&self, c: &Client, node: usize) -> Client {
        Client { addr: if node == 0 { self.a.addr } else { self.b.addr }, ..c.clone() }
    }
}

fn log(c: &mut Client, id: i64) -> Vec<Value> {
    let v = ok(&c.get(&format!("/api/games/{id}/events")).unwrap());
    let log = v.as_array().unwrap().clone();
    for (i, e) in log.iter().enumerate() {
        assert_eq!(e["seq"].as_i64(), Some(i as i64 + 1), "the log's seqs run 1, 2, 3 …");
    }
    log
}

fn count(log: &[Value], kind: &str, day: u32) -> usize {
    log.iter().filter(|e| e["kind"] == kind && e["payload"]["day"] == day).count()
}

/// The kinds of a game's stored log, read from the database itself (no node's request
/// touches the game, so no node runs a due step on the way).
fn stored_kinds(db: &str, id: i64) -> Vec<String> {
    let db = db.to_string();
    std::thread::spawn(move || {
        tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async move {
            let store = ostrov_store::PgStore::open(&db).await.expect("the test database opens");
            let events = store.events(id).await.expect("the log reads");
            store.pool().close().await;
            events.into_iter().map(|e| e.kind).collect()
        })
    })
    .join()
    .unwrap()
}

fn a_game_created_on_one_node_is_served_listed_and_scheduled_by_the_other() {
    // Node A starts first, so its scheduler holds the lease; the game is created, joined
    // and started on node B after A has read its list of games.
    let mut t = Two::start();
    t.set_clocks(START);
    let mut host_b = t.on(&t.host, 1);
    let g = ok(&host_b
        .post("/api/games", json!({"title": "С узла Б", "slots": 5, "setup": "werewolf,seer", "seed": 7}))
        .unwrap());
    let (id, invite) = (g["id"].as_i64().unwrap(), g["invite"].as_str().unwrap().to_string());
    // Node A serves it at once (a miss looks the game up in the store) …
    let mut host_a = t.on(&t.host, 0);
    let v = ok(&host_a.get(&format!("/api/games/{id}")).unwrap());
    assert_eq!(v["id"], json!(id), "{v}");
    assert_eq!(v["invite"], json!(invite), "node A shows the host the invite: {v}");
    for p in t.players.iter_mut() {
        p.addr = t.b.addr;
        ok(&p.post(&format!("/api/invites/{invite}/join"), json!({})).unwrap());
    }
    ok(&host_b.post(&format!("/api/games/{id}/start"), json!({})).unwrap());
    // … and lists it to everyone: the host's own list and a player's.
    for c in [&mut host_a, &mut t.on(&t.players[0], 0)] {
        let list = ok(&c.get("/api/games").unwrap());
        let ids: Vec<i64> = list["games"].as_array().unwrap().iter().map(|g| g["id"].as_i64().unwrap()).collect();
        assert!(ids.contains(&id), "node A lists game {id}: {list}");
    }
    let home = host_a.get("/").unwrap();
    assert!(home.body.contains("С узла Б"), "node A's home page lists the game");
    // A game created on B while A is running is heard by A's watcher: A's scheduler (the
    // lease holder) runs its 13:00 stage and its 21:00 resolution with no request to the
    // game on either node.
    t.set_clocks(START + 15 * HOUR + 90); // 13:00 of day 1 (Moscow) and its minute of grace have passed
    let until = Instant::now() + Duration::from_secs(10);
    while !stored_kinds(&t.a.db, id).iter().any(|k| k == "midday") {
        assert!(Instant::now() < until, "no node ran the 13:00 stage of a game created on node B");
        std::thread::sleep(Duration::from_millis(100));
    }
    t.set_clocks(START + 23 * HOUR + 90);
    let until = Instant::now() + Duration::from_secs(10);
    while !stored_kinds(&t.a.db, id).iter().any(|k| k == "resolved") {
        assert!(Instant::now() < until, "no node resolved day 1 of a game created on node B");
        std::thread::sleep(Duration::from_millis(100));
    }
    let log = log(&mut host_a, id);
    assert_eq!(count(&log, "midday", 1), 1, "the 13:00 stage once");
    assert_eq!(count(&log, "resolved", 1), 1, "one resolution");
    // A node started after the game was created lists it from the start, and a game id
    // that is in no node's store is still 404 on a shared store.
    let clock_c = Arc::new(TestClock::new(START + 23 * HOUR + 90));
    let c = t.a.node(clock_c);
    let mut host_c = Client { addr: c.addr, ..t.host.clone() };
    let list = ok(&host_c.get("/api/games").unwrap());
    assert_eq!(list["games"][0]["id"], json!(id), "{list}");
    assert_eq!(host_a.get(&format!("/api/games/{}", id + 1000)).unwrap().status, 404);
    assert_eq!(host_b.get(&format!("/api/games/{}", id + 1000)).unwrap().status, 404);
    c.stop();
}

fn two_nodes_racing_for_one_deadline_resolve_it_once_fifty_times() {
    let mut t = Two::start();
    for round in 0..50i64 {
        let opened = START + round * 24 * HOUR;
        t.set_clocks(opened);
        if round % 20 == 19 {
            t.log_in_again();
        }
        // A host of its own each round: a host keeps at most 10 unfinished games.
        t.host = t.a.user(&format!("Ведущий{round}"));
        // Every other game is created on the node that did not start first.
        let id = t.game_on((round % 2) as usize);
        // Both clocks past 21:00 at once, and a request on each node at the same moment
        // (each runs the due steps); the lease holder's scheduler may join in too.
        t.set_clocks(opened + 23 * HOUR + 61);
        let gate = Arc::new(Barrier::new(2));
        let racers: Vec<_> = (0..2)
            .map(|n| {
                let (mut c, gate) = (t.on(&t.host, n), gate.clone());
                std::thread::spawn(move || {
                    gate.wait();
                    ok(&c.get(&format!("/api/games/{id}")).unwrap())
                })
            })
            .collect();
        let views: Vec<Value> = racers.into_iter().map(|r| r.join().unwrap()).collect();
        for v in &views {
            assert!(v["open"].is_null(), "round {round}: day 1 is resolved on every node: {}", v["open"]);
        }
        let log = log(&mut t.host, id);
        assert_eq!(count(&log, "midday", 1), 1, "round {round}: the 13:00 stage once");
        assert_eq!(count(&log, "resolved", 1), 1, "round {round}: one resolution");
        let again: Vec<Value> =
            (0..2).map(|n| ok(&t.on(&t.host, n).get(&format!("/api/games/{id}")).unwrap())).collect();
        assert_eq!(again[0], again[1], "round {round}: both nodes show the same game");
    }
}

fn any_node_serves_any_game_and_hears_the_others_within_a_second() {
    let mut t = Two::start();
    t.set_clocks(START);
    let id = t.game_on(0);
    t.set_clocks(START + 14 * HOUR);
    let mut host_b = t.on(&t.host, 1);
    let orders_on_b = |h: &mut Client| {
        let v = ok(&h.get(&format!("/api/games/{id}")).unwrap());
        v["orders"].as_array().unwrap_or_else(|| panic!("no orders in the host's view: {v}")).len()
    };
    assert_eq!(orders_on_b(&mut host_b), 0);
    // A vote accepted by node A shows on node B within a second (NOTIFY, no request of
    // B's touching the store for it).
    let mut anya = t.on(&t.players[0], 0);
    let sent = Instant::now();
    let v = ok(&anya.post(&format!("/api/games/{id}/orders"), json!({"act": "vote", "target": "Боря"})).unwrap());
    assert_eq!(v["accepted"], json!(true), "{v}");
    while orders_on_b(&mut host_b) == 0 {
        assert!(sent.elapsed() < Duration::from_secs(1), "node B did not hear node A within a second");
        std::thread::sleep(Duration::from_millis(10));
    }
    // Every player votes on both nodes at once, again and again: all answered, each once.
    let racers: Vec<_> = (0..NAMES.len())
        .flat_map(|p| (0..2).map(move |n| (p, n)))
        .map(|(p, n)| {
            let mut c = t.on(&t.players[p], n);
            std::thread::spawn(move || {
                let mut seqs = Vec::new();
                for k in 0..15 {
                    let target = NAMES[(p + 1 + k % 4) % NAMES.len()];
                    let rid = format!("n{n}-{k}");
                    let v = ok(&c
                        .post(
                            &format!("/api/games/{id}/orders"),
                            json!({"act": "vote", "target": target, "request_id": rid}),
                        )
                        .unwrap());
                    assert_eq!((v["accepted"].clone(), v["duplicate"].clone()), (json!(true), json!(false)), "{v}");
                    seqs.push(v["seq"].as_i64().unwrap());
                }
                seqs
            })
        })
        .collect();
    let mut seqs: Vec<i64> = racers.into_iter().flat_map(|r| r.join().unwrap()).collect();
    let n = seqs.len();
    seqs.sort_unstable();
    seqs.dedup();
    assert_eq!(seqs.len(), n, "every accepted order has a seq of its own");
    let log = log(&mut t.host, id);
    assert_eq!(log.iter().filter(|e| e["kind"] == "order").count(), n + 1);
    let until = Instant::now() + Duration::from_secs(2);
    loop {
        let views: Vec<Value> =
            (0..2).map(|k| ok(&t.on(&t.host, k).get(&format!("/api/games/{id}")).unwrap())).collect();
        if views[0] == views[1] {
            break;
        }
        assert!(Instant::now() < until, "the nodes differ: {} / {}", views[0]["orders"], views[1]["orders"]);
        std::thread::sleep(Duration::from_millis(20));
    }
    // The game file is the same game on either node.
    let files: Vec<String> =
        (0..2).map(|k| t.on(&t.host, k).get(&format!("/api/games/{id}/gamefile")).unwrap().body).collect();
    assert_eq!(files[0], files[1]);
}

#[test]
fn game_created_on_another_node() {
    on_postgres(a_game_created_on_one_node_is_served_listed_and_scheduled_by_the_other);
}

#[test]
fn deadline_race_fifty_times() {
    on_postgres(two_nodes_racing_for_one_deadline_resolve_it_once_fifty_times);
}

#[test]
fn orders_on_both_nodes() {
    on_postgres(any_node_serves_any_game_and_hears_the_others_within_a_second);
}
