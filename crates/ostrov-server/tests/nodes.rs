//! Several nodes over one PostgreSQL database, in process: any node serves any game, a
//! node learns within a second what another accepted (LISTEN/NOTIFY), orders sent to two
//! nodes at once are all answered and stored once (the append carries the seq it was
//! checked at; the loser folds in the new events and checks again), and two nodes whose
//! clocks pass 21:00 together resolve the day once — fifty times over. These run when
//! `OSTROV_TEST_PG` names a PostgreSQL server (ostrov_store::testdb).

mod support;

use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use ostrov_server::client::Client;
use serde_json::{json, Value};
use support::{ok, with_store, Db, Server, TestClock, HOUR, START};

const NAMES: [&str; 5] = ["Аня", "Боря", "Вика", "Гоша", "Даша"];

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

    /// A started five-player game; the players joined half on each node.
    fn game(&mut self) -> i64 {
        let g = ok(&self
            .host
            .post("/api/games", json!({"title": "Два узла", "slots": 5, "setup": "werewolf,seer", "seed": 5}))
            .unwrap());
        let (id, invite) = (g["id"].as_i64().unwrap(), g["invite"].as_str().unwrap().to_string());
        let (a, b) = (self.a.addr, self.b.addr);
        for (i, p) in self.players.iter_mut().enumerate() {
            p.addr = if i % 2 == 0 { a } else { b };
            ok(&p.post(&format!("/api/invites/{invite}/join"), json!({})).unwrap());
        }
        ok(&self.host.post(&format!("/api/games/{id}/start"), json!({})).unwrap());
        id
    }

    fn log_in_again(&mut self) {
        let mut all: Vec<(&mut Client, &str)> = vec![(&mut self.host, "Ведущая")];
        all.extend(self.players.iter_mut().zip(NAMES));
        for (c, name) in all {
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

#[test]
fn two_nodes_racing_for_one_deadline_resolve_it_once_fifty_times() {
    with_store(Db::Postgres, || {
        let mut t = Two::start();
        for round in 0..50i64 {
            let opened = START + round * 24 * HOUR;
            t.set_clocks(opened);
            if round % 20 == 19 {
                t.log_in_again(); // sessions last 30 days of the moved clock
            }
            let id = t.game();
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
    });
}

#[test]
fn any_node_serves_any_game_and_hears_the_others_within_a_second() {
    with_store(Db::Postgres, || {
        let mut t = Two::start();
        t.set_clocks(START);
        let id = t.game();
        t.set_clocks(START + 14 * HOUR);
        let mut host_b = t.on(&t.host, 1);
        let orders_on_b = |h: &mut Client| {
            let v = ok(&h.get(&format!("/api/games/{id}")).unwrap());
            v["orders"].as_array().unwrap_or_else(|| panic!("no orders in the host's view: {v}")).len()
        };
        assert_eq!(orders_on_b(&mut host_b), 0);
        // A vote accepted by node A shows on node B within a second (NOTIFY, no request
        // of B's touching the store for it).
        let mut anya = t.on(&t.players[0], 0);
        let sent = Instant::now();
        let v = ok(&anya.post(&format!("/api/games/{id}/orders"), json!({"act": "vote", "target": "Боря"})).unwrap());
        assert_eq!(v["accepted"], json!(true), "{v}");
        while orders_on_b(&mut host_b) == 0 {
            assert!(sent.elapsed() < Duration::from_secs(1), "node B did not hear node A within a second");
            std::thread::sleep(Duration::from_millis(10));
        }
        eprintln!("node B showed node A's order {:?} after it was sent", sent.elapsed());
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
    });
}
