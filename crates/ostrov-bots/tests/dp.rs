//! The simulator against a closed form: werewolves and passengers only, no items, no
//! events, random lynch votes, random werewolf kills.
//!
//! Set-up: deck empty (nobody holds an item), every event weight 0 (no event ever),
//! `tie = random`, `parity = false`, `max_days = 40`. Every living player votes for a
//! uniformly random living player (themself included); every werewolf sends a `kill`
//! of a uniformly random living passenger, chosen before the lynch.
//!
//! Why the DP is simple: all votes are i.i.d. uniform over the living and the tie is broken
//! uniformly (R-TIE-1), so the lynch is exchangeable — each living player is lynched with
//! probability 1/(c+w). Then (R-WOLF-1, R-ORDER-1) the pack's order is the last `kill` of a
//! werewolf still alive; its target is uniform over the c passengers alive when it was sent,
//! and if that passenger was lynched today the order does not count (nobody dies).

use ostrov_bots::{simulate_bots, Bot, BotKind, Config, View};
use ostrov_engine::{Command, NoticeKind, PlayerId, Role, Rules, Targets};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

#[derive(Default)]
struct Uniform {
    pack: Option<Vec<PlayerId>>,
}

impl Bot for Uniform {
    fn orders(&mut self, v: &View, rng: &mut ChaCha8Rng, out: &mut Vec<Command>) {
        let living: Vec<PlayerId> = v.living().collect();
        out.push(Command::Vote(Targets::one(living[rng.gen_range(0..living.len())])));
        let pack = self.pack.get_or_insert_with(|| {
            if v.notices().any(|k| matches!(k, NoticeKind::Role(Role::Werewolf))) {
                v.pack()
            } else {
                Vec::new()
            }
        });
        if !pack.is_empty() {
            let prey: Vec<PlayerId> = living.iter().copied().filter(|p| !pack.contains(p)).collect();
            if !prey.is_empty() {
                out.push(Command::Kill(Targets::one(prey[rng.gen_range(0..prey.len())])));
            }
        }
    }
}

/// P(civilians win) from day `d` with `c` passengers and `w` werewolves alive.
fn exact(
    c: usize,
    w: usize,
    d: u32,
    max_days: u32,
    memo: &mut std::collections::HashMap<(usize, usize, u32), f64>,
) -> f64 {
    if w == 0 {
        return 1.0;
    }
    if c == 0 || d > max_days {
        return 0.0;
    }
    if let Some(p) = memo.get(&(c, w, d)) {
        return *p;
    }
    let n = (c + w) as f64;
    // A passenger is lynched.
    let mut p = 0.0;
    if c > 1 {
        let no_kill = 1.0 / c as f64; // the pack's target was the lynched passenger
        p += c as f64 / n * (no_kill * exact(c - 1, w, d + 1, max_days, memo));
        if c > 2 {
            p += c as f64 / n * ((1.0 - no_kill) * exact(c - 2, w, d + 1, max_days, memo));
        }
    }
    // A werewolf is lynched.
    p += w as f64 / n
        * if w == 1 {
            1.0
        } else if c > 1 {
            exact(c - 1, w - 1, d + 1, max_days, memo)
        } else {
            0.0
        };
    memo.insert((c, w, d), p);
    p
}

#[test]
fn civilians_win_rate_matches_the_dp() {
    let rules = Rules { event_weights: [0.0; 14], ..Rules::default() };
    for (i, &(players, wolves)) in [(5usize, 1usize), (8, 2), (11, 3), (15, 4)].iter().enumerate() {
        let mut roles = vec![Role::Werewolf; wolves];
        roles.resize(players, Role::Passenger);
        let cfg = Config {
            roles,
            rules: rules.clone(),
            deck: Vec::new(),
            games: 10_000,
            bots: BotKind::Random,
            seed: 42 + i as u64,
        };
        let s = simulate_bots(&cfg, &|| Box::<Uniform>::default(), &|_| {});
        let p = exact(players - wolves, wolves, 1, rules.max_days, &mut Default::default());
        println!(
            "{players} players, {wolves} wolves: exact {p:.4}, simulated {:.4} [{:.4}, {:.4}]",
            s.civilians.rate, s.civilians.low, s.civilians.high
        );
        assert!(
            s.civilians.low <= p && p <= s.civilians.high,
            "{players}/{wolves}: exact {p} outside {:?}",
            s.civilians
        );
        assert_eq!(s.hamster.wins, 0);
    }
}

#[test]
fn deterministic_regardless_of_threads() {
    let roles = ostrov_engine::Roster::parse("werewolf=3,seer,nurse,witch").unwrap().roles(12).unwrap();
    let cfg = Config {
        roles,
        rules: Rules::default(),
        deck: ostrov_engine::Setup::default_deck(12),
        games: 3000,
        bots: BotKind::Sensible,
        seed: 9,
    };
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap().install(|| ostrov_bots::simulate(&cfg));
    let many = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap().install(|| ostrov_bots::simulate(&cfg));
    assert_eq!(format!("{one:?}"), format!("{many:?}"));
}
