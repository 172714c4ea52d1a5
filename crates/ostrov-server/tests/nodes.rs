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
use ostrov_store::EventLog;
use serde_json::{json, Value};
use support::{error, ok, with_store, Db, Server, TestClock, HOUR, START};

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
    /// Node B (`None` once stopped) and its address.
    b: Option<ostrov_server::local::LocalServer>,
    b_addr: std::net::SocketAddr,
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
        Two { a, b_addr: b.addr, b: Some(b), clock_b, host, players }
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
        let (a, b) = (self.a.addr, self.b_addr);
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
        Client { addr: if node == 0 { self.a.addr } else { self.b_addr }, ..c.clone() }
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

/// A five-player game created on node `on` by `host`, joined there by every player and
/// started there.
fn game_only_on(t: &mut Two, host: &mut Client, title: &str) -> i64 {
    let g =
        ok(&host.post("/api/games", json!({"title": title, "slots": 5, "setup": "werewolf,seer", "seed": 7})).unwrap());
    let (id, invite) = (g["id"].as_i64().unwrap(), g["invite"].as_str().unwrap().to_string());
    for p in t.players.iter_mut() {
        p.addr = host.addr;
        ok(&p.post(&format!("/api/invites/{invite}/join"), json!({})).unwrap());
    }
    ok(&host.post(&format!("/api/games/{id}/start"), json!({})).unwrap());
    id
}

fn a_game_created_on_one_node_is_served_listed_and_scheduled_by_the_other() {
    // Node A starts first (its scheduler takes the lease) and reads its list of games;
    // then two games are created, joined and started on node B.
    let mut t = Two::start();
    t.set_clocks(START);
    let mut host_a = t.on(&t.host, 0);
    let mut host_b = t.on(&t.host, 1);
    let first = game_only_on(&mut t, &mut host_b, "С узла Б");
    // Node A serves the first at once (a miss looks the game up in the store).
    let v = ok(&host_a.get(&format!("/api/games/{first}")).unwrap());
    assert_eq!((v["id"].as_i64(), v["status"].as_str()), (Some(first), Some("running")), "{v}");
    assert!(v["invite"].is_string(), "node A shows the host the invite: {v}");
    // The second is never asked of node A: A lists it from the announcement of its log
    // (the watcher), to its host and to a player, in the API and on the home page.
    let second = game_only_on(&mut t, &mut host_b, "Тоже с узла Б");
    let until = Instant::now() + Duration::from_secs(2);
    for c in [&mut host_a, &mut t.on(&t.players[0], 0)] {
        loop {
            let list = ok(&c.get("/api/games").unwrap());
            let ids: Vec<i64> = list["games"].as_array().unwrap().iter().map(|g| g["id"].as_i64().unwrap()).collect();
            if ids.contains(&first) && ids.contains(&second) {
                break;
            }
            assert!(Instant::now() < until, "node A does not list both games of node B: {list}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    let home = host_a.get("/").unwrap();
    assert!(home.body.contains("С узла Б") && home.body.contains("Тоже с узла Б"), "node A's home page lists both");
    // Node B stops: A's scheduler (the one node left, the lease holder) runs the 13:00
    // stage and the 21:00 resolution of both games, with no request to either.
    t.b.take().expect("node B runs").stop();
    for (when, kind) in [(START + 15 * HOUR + 90, "midday"), (START + 23 * HOUR + 90, "resolved")] {
        t.set_clocks(when); // past 13:00 (21:00) Moscow and its minute of grace
        for id in [first, second] {
            let until = Instant::now() + Duration::from_secs(10);
            while !stored_kinds(&t.a.db, id).iter().any(|k| k == kind) {
                assert!(Instant::now() < until, "node A's scheduler did not run `{kind}` of game {id}");
                std::thread::sleep(Duration::from_millis(100));
            }
        }
    }
    for id in [first, second] {
        let log = log(&mut host_a, id);
        assert_eq!(count(&log, "midday", 1), 1, "game {id}: the 13:00 stage once");
        assert_eq!(count(&log, "resolved", 1), 1, "game {id}: one resolution");
    }
    // A node started after the games were created lists them from the start, and a game id
    // that is in the store of no node is still 404 on a shared store.
    let c = t.a.node(Arc::new(TestClock::new(START + 23 * HOUR + 90)));
    let mut host_c = Client { addr: c.addr, ..t.host.clone() };
    let list = ok(&host_c.get("/api/games").unwrap());
    assert_eq!((list["games"][0]["id"].as_i64(), list["games"][1]["id"].as_i64()), (Some(second), Some(first)));
    assert_eq!(host_a.get(&format!("/api/games/{}", second + 1000)).unwrap().status, 404);
    assert_eq!(host_c.get(&format!("/api/games/{}", second + 1000)).unwrap().status, 404);
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
        // The node that owns the game (issue 34) runs its due steps; the other serves the
        // log as it last heard it, so it shows the resolution within a moment.
        for (n, v) in views.iter().enumerate() {
            let until = Instant::now() + Duration::from_secs(5);
            let mut v = v.clone();
            while !v["open"].is_null() {
                assert!(Instant::now() < until, "round {round}: day 1 is resolved on node {n}: {}", v["open"]);
                std::thread::sleep(Duration::from_millis(50));
                v = ok(&t.on(&t.host, n).get(&format!("/api/games/{id}")).unwrap());
            }
        }
        let log = log(&mut t.host, id);
        assert_eq!(count(&log, "midday", 1), 1, "round {round}: the 13:00 stage once");
        assert_eq!(count(&log, "resolved", 1), 1, "round {round}: one resolution");
        let again: Vec<Value> =
            (0..2).map(|n| ok(&t.on(&t.host, n).get(&format!("/api/games/{id}")).unwrap())).collect();
        assert_eq!(again[0], again[1], "round {round}: both nodes show the same game");
    }
}

/// Issue 32 with issue 34: a game with bots is owned by the node it was created on, and
/// that node's driver sends its bots' orders, whichever node holds the scheduler's lease.
/// One game on each node; by 20:00 of day 1 every bot has its vote in force in both.
fn each_node_drives_the_bots_of_the_games_it_owns() {
    let t = Two::start();
    t.set_clocks(START);
    let mut games = Vec::new();
    for on in 0..2 {
        let mut host = t.on(&t.host, on);
        let g = ok(&host
            .post(
                "/api/games",
                json!({"title": format!("Боты, узел {on}"), "slots": 5, "setup": "werewolf,seer", "seed": 9}),
            )
            .unwrap());
        let (id, invite) = (g["id"].as_i64().unwrap(), g["invite"].as_str().unwrap().to_string());
        let mut anya = t.on(&t.players[0], on);
        ok(&anya.post(&format!("/api/invites/{invite}/join"), json!({})).unwrap());
        let r = ok(&host.post(&format!("/api/games/{id}/bots"), json!({"count": 4})).unwrap());
        assert_eq!(r["bots"].as_array().unwrap().len(), 4);
        ok(&host.post(&format!("/api/games/{id}/start"), json!({})).unwrap());
        games.push((id, on));
    }
    // 13:00 passes, then 20:30: every bot's orders round is behind it, the deadline not yet.
    t.set_clocks(START + 15 * HOUR + 61);
    std::thread::sleep(Duration::from_millis(1500));
    t.set_clocks(START + 22 * HOUR + 30 * 60);
    for (id, on) in games {
        let until = Instant::now() + Duration::from_secs(15);
        loop {
            let log = log(&mut t.on(&t.host, on), id);
            let voters: std::collections::BTreeSet<i64> = log
                .iter()
                .filter(|e| e["kind"] == "order" && e["payload"]["order"]["act"] == "vote")
                .filter_map(|e| e["author"].as_i64().filter(|a| *a < 0))
                .collect();
            assert_eq!(count(&log, "resolved", 1), 0, "game {id}: day 1 is still open");
            if voters.len() == 4 {
                break;
            }
            assert!(Instant::now() < until, "game {id} (created on node {on}): the bots' votes by 20:00: {voters:?}");
            std::thread::sleep(Duration::from_millis(200));
        }
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
                let mut rids = Vec::new();
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
                    rids.push(rid);
                }
                rids
            })
        })
        .collect();
    let n: usize = racers.into_iter().map(|r| r.join().unwrap().len()).sum();
    let log = log(&mut t.host, id);
    assert_eq!(log.iter().filter(|e| e["kind"] == "order").count(), n + 1);
    // Every accepted request once in the log (a player's request ids, by the author).
    let mut stored = std::collections::HashSet::new();
    for e in log.iter().filter(|e| e["request_id"].is_string()) {
        assert!(stored.insert((e["author"].to_string(), e["request_id"].to_string())), "twice in the log: {e}");
    }
    assert_eq!(stored.len(), n, "every accepted order has an entry of its own");
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

/// Drops the last event of game `id` from the database behind the nodes' backs, as a
/// promoted replica that had not received it would have lost it.
fn lose_last_event(db: &str, id: i64) {
    let db = db.to_string();
    std::thread::spawn(move || {
        tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async move {
            let store = ostrov_store::PgStore::open(&db).await.expect("the test database opens");
            let mut tx = store.pool().begin().await.unwrap();
            sqlx::query("ALTER TABLE events DISABLE TRIGGER events_no_update").execute(&mut *tx).await.unwrap();
            sqlx::query(
                "DELETE FROM events WHERE game_id = $1 AND seq = (SELECT MAX(seq) FROM events WHERE game_id = $1)",
            )
            .bind(id)
            .execute(&mut *tx)
            .await
            .unwrap();
            sqlx::query("ALTER TABLE events ENABLE TRIGGER events_no_update").execute(&mut *tx).await.unwrap();
            tx.commit().await.unwrap();
            store.pool().close().await;
        })
    })
    .join()
    .unwrap()
}

/// After an asynchronous fail-over (or a restored backup) the log may end before what the
/// node owning the game holds: its next append is refused (nothing is written past the
/// log's end: the writer checks that the log holds the entry before the batch's), that
/// request is answered 503 `not_saved` (send it again), the node refolds the game from the
/// log, and the request sent again is accepted against it; the log stays without a hole.
/// (Node B is stopped first: DEPLOY.md's fail-over stops every node, and two running nodes
/// that both hold a lost entry cannot both notice once one has written at its number.)
fn a_node_ahead_of_the_log_refolds_from_it() {
    let mut t = Two::start();
    t.set_clocks(START);
    let id = t.game_on(0);
    t.set_clocks(START + 12 * HOUR);
    t.log_in_again();
    t.b.take().expect("node B runs").stop();
    let a = t.a.addr;
    for p in t.players.iter_mut() {
        p.addr = a;
    }
    let orders = format!("/api/games/{id}/orders");
    ok(&t.players[0].post(&orders, json!({"act": "vote", "target": NAMES[1]})).unwrap());
    ok(&t.players[1].post(&orders, json!({"act": "vote", "target": NAMES[2]})).unwrap());
    let before = stored_kinds(&t.a.db, id).len();
    lose_last_event(&t.a.db, id);
    assert_eq!(stored_kinds(&t.a.db, id).len(), before - 1);
    // Node A owns the game and still holds the lost vote: the next vote is refused as not
    // saved (and nothing stored), accepted when sent again (after a refold), and the one
    // after it as usual.
    let vote = json!({"act": "vote", "target": NAMES[0], "request_id": "after-the-loss"});
    let first = t.players[2].post(&orders, vote.clone()).unwrap();
    assert_eq!(error(&first), (503, "not_saved".to_string()), "{}", first.body);
    assert_eq!(stored_kinds(&t.a.db, id).len(), before - 1, "nothing written past the log's end");
    for (p, vote) in [(2, vote), (3, json!({"act": "vote", "target": NAMES[0]}))] {
        let r = ok(&t.players[p].post(&orders, vote).unwrap());
        assert_eq!((r["accepted"].clone(), r["duplicate"].clone()), (json!(true), json!(false)), "{r}");
    }
    let mut host = t.host.clone();
    let log = log(&mut host, id);
    let votes: Vec<&str> = log
        .iter()
        .filter(|e| e["kind"] == "order")
        .map(|e| e["payload"]["order"]["by"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(votes, [NAMES[0], NAMES[2], NAMES[3]], "the lost vote is gone, the later ones stored once: {log:?}");
    // Node A agrees with the log: the lost vote is not in force.
    let mut c = t.on(&t.host, 0);
    let view = ok(&c.get(&format!("/api/games/{id}")).unwrap());
    let by: Vec<&str> = view["orders"].as_array().unwrap().iter().map(|o| o["by"].as_str().unwrap()).collect();
    assert_eq!(by, [NAMES[0], NAMES[2], NAMES[3]], "{view}");
}

/// Each node keeps the sessions it has read (a query less per request), yet a session
/// ended on one node is refused on the other at once: a logout, "end my other sessions"
/// and a password change each reach the node that had the session cached.
fn a_session_ended_on_one_node_is_refused_on_the_other() {
    let t = Two::start();
    let refused_on_b = |c: &Client| {
        let mut c = t.on(c, 1);
        // The notice crosses PostgreSQL: within a second, not at the next expiry.
        (0..100).any(|_| {
            let gone = c.get("/api/me").unwrap().status == 401;
            if !gone {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            gone
        })
    };
    let login = |node: usize| {
        let mut c = t.on(&t.players[0], node);
        c.cookie = None;
        ok(&c.post("/api/login", json!({"name": NAMES[0], "password": "пароль-для-теста"})).unwrap());
        c
    };
    // A logout on node A.
    let mut phone = login(0);
    assert_eq!(t.on(&phone, 1).get("/api/me").unwrap().status, 200, "B reads it (and keeps it)");
    assert_eq!(t.on(&phone, 1).get("/api/me").unwrap().status, 200);
    ok(&phone.post("/api/logout", json!({})).unwrap());
    assert!(refused_on_b(&phone), "a logout on A ends the session on B");
    // "End my other sessions" on node A, asked from the laptop.
    let (mut laptop, tablet) = (login(0), login(1));
    assert_eq!(t.on(&tablet, 1).get("/api/me").unwrap().status, 200);
    let ended = ok(&laptop.post("/api/me/sessions/end-others", json!({})).unwrap());
    assert!(ended["ended"].as_u64().unwrap() >= 1, "{ended}");
    assert!(refused_on_b(&tablet), "the tablet's session ends on B");
    assert_eq!(t.on(&laptop, 1).get("/api/me").unwrap().status, 200, "the laptop's stays");
    // A password change on node A.
    let other = login(1);
    assert_eq!(t.on(&other, 1).get("/api/me").unwrap().status, 200);
    ok(&laptop.post("/api/me/password", json!({"old": "пароль-для-теста", "new": "пароль-для-теста"})).unwrap());
    assert!(refused_on_b(&other), "a password change ends the other sessions on B");
    assert_eq!(t.on(&laptop, 1).get("/api/me").unwrap().status, 200);
}

#[test]
fn sessions_across_nodes() {
    on_postgres(a_session_ended_on_one_node_is_refused_on_the_other);
}

#[test]
fn node_ahead_of_the_log() {
    on_postgres(a_node_ahead_of_the_log_refolds_from_it);
}

#[test]
fn bots_on_each_owner() {
    on_postgres(each_node_drives_the_bots_of_the_games_it_owns);
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
