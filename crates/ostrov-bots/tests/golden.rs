//! The games the bots play, pinned bit for bit (issue 32, point 6).
//!
//! Speed work on the bots and the engine must not change a single game: the recommended
//! table and `ostrov suggest` are computed from these games. For several player counts,
//! rosters and decks, every game of a run is hashed — every order every bot proposed, in
//! the order it proposed them, and the game's outcome (winner, days, each day's event,
//! ballots, lynch, night deaths, item uses, seer checks; every player's role, life and
//! item at the end) — and the summaries of `simulate` and `simulate_while` too. The
//! expected hashes were recorded from the code before the optimisation.
//!
//! The hash is FNV-1a over `Debug` text of engine types, so it is stable between runs and
//! toolchains as long as those types print the same. To print the current values (after a
//! change that is meant to change the games, never for speed work):
//! `OSTROV_GOLDEN_PRINT=1 cargo test --release -p ostrov-bots --test golden -- --nocapture`.

use std::sync::{Arc, Mutex};

use ostrov_bots::{game_seed, has_morning, play_match, simulate, simulate_while, Bot, BotKind, Config, View};
use ostrov_engine::{Actor, Clock, Command, DayPlan, Match, PlayerId, Roster, Rules, Seat, Setup, Winner};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// FNV-1a, 64 bits.
#[derive(Clone, Copy)]
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn text(&mut self, s: &str) {
        for b in s.bytes().chain([0xff]) {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// A bot that passes everything through to the real one and hashes every order it proposes.
struct Recorder {
    inner: Box<dyn Bot>,
    log: Arc<Mutex<Fnv>>,
}

impl Recorder {
    fn note(&self, me: usize, morning: bool, out: &[Command]) {
        let mut h = self.log.lock().unwrap();
        h.text(&format!("{me}{}", if morning { "m" } else { "a" }));
        for c in out {
            h.text(&format!("{c:?}"));
        }
    }
}

impl Bot for Recorder {
    fn morning(&mut self, v: &View, rng: &mut ChaCha8Rng, out: &mut Vec<Command>) {
        let from = out.len();
        self.inner.morning(v, rng, out);
        self.note(v.me.index(), true, &out[from..]);
    }
    fn orders(&mut self, v: &View, rng: &mut ChaCha8Rng, out: &mut Vec<Command>) {
        let from = out.len();
        self.inner.orders(v, rng, out);
        self.note(v.me.index(), false, &out[from..]);
    }
}

fn roster(n: usize) -> &'static str {
    match n {
        6 => "werewolf=1,seer=1,nurse=1",
        8 => "werewolf=2,seer=1,nurse=1,witch=1",
        15 => {
            "werewolf=3,halfblood=1,hamster=1,seer=1,nurse=1,witch=1,sleepwalker=1,authority=1,maniac=1,untouchable=1"
        }
        40 => {
            "werewolf=9,halfblood=1,hamster=2,seer=2,nurse=2,witch=2,sleepwalker=2,authority=1,maniac=1,untouchable=1"
        }
        _ => {
            "werewolf=22,halfblood=2,hamster=2,seer=3,nurse=3,witch=3,sleepwalker=2,authority=2,maniac=2,untouchable=2"
        }
    }
}

fn config(n: usize, bots: BotKind, deck: bool, games: u64) -> Config {
    Config {
        roles: Roster::parse(roster(n)).unwrap().roles(n).unwrap(),
        rules: Rules::default(),
        deck: if deck { Setup::default_deck(n) } else { Vec::new() },
        games,
        bots,
        seed: 20_261_206,
    }
}

/// The hash of the games `0..cfg.games` played one by one, with every order recorded.
fn games_hash(cfg: &Config) -> u64 {
    let log = Arc::new(Mutex::new(Fnv::new()));
    let kind = cfg.bots;
    let l = log.clone();
    let factory = move || -> Box<dyn Bot> { Box::new(Recorder { inner: kind.make(), log: l.clone() }) };
    let mut wins = [0u64; 4];
    for i in 0..cfg.games {
        log.lock().unwrap().text(&format!("game {i}"));
        let m = play_match(cfg, i, &factory);
        let mut h = log.lock().unwrap();
        let w = m.winner().unwrap_or(Winner::Draw);
        wins[w as usize] += 1;
        h.text(&format!("{w:?} {}", m.days.len()));
        for d in &m.days {
            h.text(&format!(
                "{} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
                d.day,
                d.event,
                d.chosen,
                d.pair,
                d.bunker,
                d.exchanges,
                d.lights,
                d.question,
                d.items_used,
                d.ballots,
                d.lynched,
                d.night_deaths,
                d.checks
            ));
        }
        for p in m.state().players() {
            h.text(&format!("{:?} {} {} {:?} {:?}", p.role, p.alive, p.turned, p.item, p.died_on_day));
        }
    }
    let h = log.lock().unwrap().0;
    // Not every game may end the same way: a pin of a run where one side always wins
    // would pin little.
    assert!(wins.iter().filter(|w| **w > 0).count() >= 2 || cfg.games < 20, "{wins:?}");
    h
}

/// The hash of the summaries of `simulate` (parallel, bots reset between games) and of
/// `simulate_while` (one thread, the server's balance hint).
fn summary_hash(cfg: &Config) -> u64 {
    let mut h = Fnv::new();
    h.text(&format!("{:?}", simulate(cfg)));
    h.text(&format!("{:?}", simulate_while(cfg, &mut |_| true)));
    h.0
}

/// (players, bots, deck, games played one by one, games summarised, expected hashes).
const CASES: &[(usize, BotKind, bool, u64, u64, u64, u64)] = &[
    (6, BotKind::Sensible, true, 600, 3000, 0x596fc142b4c76589, 0x7321adb646a921cd),
    (6, BotKind::Sensible, false, 300, 3000, 0xcc05823d0b59ef4b, 0x66a495f146325fc3),
    (8, BotKind::Sensible, true, 600, 3000, 0x79f15005c9f06b9b, 0x53b72719cc3197cd),
    (8, BotKind::Random, true, 200, 3000, 0xdaf18cb6ac3ba877, 0xe3bcbb4f0f538925),
    (15, BotKind::Sensible, true, 400, 3000, 0x34a483561f94650d, 0x991fba921e46f7b7),
    (15, BotKind::Sensible, false, 200, 2000, 0x5cfbc2ff5733dc71, 0x06410938a36a5465),
    (15, BotKind::Random, true, 200, 2000, 0x0a4b8286c9511521, 0x04f4fd5f3a1b8175),
    (40, BotKind::Sensible, true, 150, 1000, 0x28f1928b25d62404, 0x7a3f6464b9e45d69),
    (40, BotKind::Sensible, false, 60, 300, 0xe4aa049186bdb1ed, 0x799fa2558d334c05),
    (40, BotKind::Random, true, 60, 300, 0x839018b4dafb866c, 0x05cb53c7dec794e5),
    (100, BotKind::Sensible, true, 12, 24, 0xa7f951aadb622c95, 0x6258b880fdb565a9),
];

#[test]
fn the_bots_play_the_same_games_bit_for_bit() {
    let print = std::env::var_os("OSTROV_GOLDEN_PRINT").is_some();
    let mut wrong = Vec::new();
    for &(n, bots, deck, one_by_one, summarised, games, summary) in CASES {
        let g = games_hash(&config(n, bots, deck, one_by_one));
        let s = summary_hash(&config(n, bots, deck, summarised));
        if print {
            println!("    ({n}, BotKind::{bots:?}, {deck}, {one_by_one}, {summarised}, 0x{g:016x}, 0x{s:016x}),");
        }
        if (g, s) != (games, summary) {
            wrong.push(format!("{n} players, {bots:?}, deck {deck}: games 0x{g:016x}, summaries 0x{s:016x}"));
        }
    }
    assert!(wrong.is_empty(), "the bots play other games than before:\n{}", wrong.join("\n"));
}

/// The same game as `play_match` plays, driven without the day's gathered public facts:
/// every bot's view is `View::with_living` (or `View::new`), as a driver other than the
/// simulator may give it, so the bots work the facts out themselves.
fn play_alone(cfg: &Config, index: u64, shared_living: bool) -> Match {
    let seed = game_seed(cfg.seed, index);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(7);
    let mut roles = cfg.roles.clone();
    rand::seq::SliceRandom::shuffle(roles.as_mut_slice(), &mut rng);
    let setup = Setup {
        title: None,
        seed,
        rules: cfg.rules.clone(),
        seats: roles.iter().enumerate().map(|(i, r)| Seat::new(format!("p{i}"), *r, None)).collect(),
        deck: cfg.deck.clone(),
        blanks: 0,
        shuffle: false,
    };
    let mut m = Match::new(&setup, false);
    let mut bots: Vec<_> = setup.seats.iter().map(|_| cfg.bots.make()).collect();
    let mut cmds = Vec::new();
    while m.winner().is_none() {
        if m.open_day(&DayPlan::default()).is_err() {
            break;
        }
        let living: Vec<PlayerId> = m.state().living().collect();
        for morning in [true, false] {
            if morning && !has_morning(m.state().event()) {
                continue;
            }
            if !morning {
                m.midday_stage();
            }
            let at = if morning { Clock::NOON } else { Clock::hm(14, 0) };
            for &p in &living {
                cmds.clear();
                let view = if shared_living { View::with_living(&m, p, &living) } else { View::new(&m, p) };
                if morning {
                    bots[p.index()].morning(&view, &mut rng, &mut cmds);
                } else {
                    bots[p.index()].orders(&view, &mut rng, &mut cmds);
                }
                for c in &cmds {
                    let _ = m.try_send(Actor::Player(p), at, c);
                }
            }
        }
        if m.close_day().is_err() {
            break;
        }
    }
    m
}

#[test]
fn bots_without_the_gathered_facts_play_the_same_games() {
    for (n, games) in [(8, 60), (15, 40), (40, 12)] {
        for deck in [true, false] {
            let cfg = config(n, BotKind::Sensible, deck, games);
            let factory = || BotKind::Sensible.make();
            for i in 0..games {
                let m = play_match(&cfg, i, &factory);
                let want = format!("{:?} {:?}", m.days, m.state().players());
                for shared_living in [true, false] {
                    let alone = play_alone(&cfg, i, shared_living);
                    let got = format!("{:?} {:?}", alone.days, alone.state().players());
                    assert!(got == want, "{n} players, deck {deck}, game {i}: another game without Public");
                }
            }
        }
    }
}
