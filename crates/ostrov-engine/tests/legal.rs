//! `Match::legal_orders` agrees with the engine's check (R-ORDER-1): for random games
//! stopped at a random moment, every seat's order of every act and every target is taken
//! iff some listed `LegalOrder` allows it.

use ostrov_engine::{
    Actor, Clock, Command, DayPlan, Event, Item, Match, Order, Phase, PlayerId, Role, Rules, Seat, Setup, Targets,
};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Every command a seat could write, naming any of `n` players (the dead too).
fn candidates(n: u16) -> Vec<Command> {
    let ids: Vec<PlayerId> = (0..n).map(PlayerId).collect();
    let mut out =
        vec![Command::Cancel, Command::Light, Command::Ask("Кто оборотень?".into()), Command::Bunker { item: None }];
    out.extend(Item::ALL.iter().map(|i| Command::Bunker { item: Some(*i) }));
    for &a in &ids {
        out.extend([
            Command::Vote(Targets::one(a)),
            Command::Kill(Targets::one(a)),
            Command::Megaphone(a),
            Command::Sentence(a),
            Command::Check(a),
            Command::Heal(a),
            Command::Recharge(a),
            Command::Assault(a),
            Command::Exchange(a),
            Command::Pair(a),
            Command::Use { item: None, target: a },
        ]);
        out.extend(Item::ALL.iter().map(|i| Command::Use { item: Some(*i), target: a }));
        for &b in &ids {
            out.extend([
                Command::Vote(Targets::two(a, b)),
                Command::Kill(Targets::two(a, b)),
                Command::Swap(a, b),
                Command::Authority { from: a, target: b },
            ]);
        }
    }
    out
}

/// A clock `minutes` after the day opened at 22:00.
fn since_opening(minutes: u16) -> Clock {
    Clock((minutes + 22 * 60) % (24 * 60))
}

/// A time of the current part of the open day: up to 13:00 before the 13:00 stage, after
/// it up to 21:00.
fn time_now(m: &Match, rng: &mut ChaCha8Rng) -> Clock {
    let midday = Clock::MIDDAY.since_opening();
    match m.today().map(|t| t.phase) {
        Some(Phase::Afternoon) => since_opening(rng.gen_range(midday + 1..=Clock::DEADLINE.since_opening())),
        _ => since_opening(rng.gen_range(0..=midday)),
    }
}

fn random_game(seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n: u16 = rng.gen_range(3..=8);
    let seats: Vec<Seat> =
        (0..n).map(|i| Seat::new(format!("p{i}"), Role::ALL[rng.gen_range(0..Role::ALL.len())], None)).collect();
    let setup = Setup {
        title: None,
        seed,
        rules: Rules::default(),
        seats,
        deck: Setup::default_deck(n as usize),
        blanks: 0,
        shuffle: rng.gen_bool(0.5),
    };
    let mut m = Match::new(&setup, false);
    let all = candidates(n);
    let days = rng.gen_range(1..=5);
    for day in 1..=days {
        let event = if rng.gen_bool(0.7) { Some(Event::ALL[rng.gen_range(0..Event::ALL.len())]) } else { None };
        if m.open_day(&DayPlan { event: Some(event), ..Default::default() }).is_err() {
            break;
        }
        // Random orders in time order; on the last day, stop at a random one.
        let count = rng.gen_range(0..40);
        let mut times: Vec<u16> = (0..count).map(|_| rng.gen_range(0..=23 * 60)).collect();
        times.sort_unstable();
        let stop = if day == days { rng.gen_range(0..=count) } else { count };
        for &t in &times[..stop] {
            let at = since_opening(t);
            if rng.gen_bool(0.03) {
                let target = PlayerId(rng.gen_range(0..n));
                let _ = m.submit(&Order { by: Actor::Host, at, command: Command::Remove { target, reason: None } });
                continue;
            }
            let by = Actor::Player(PlayerId(rng.gen_range(0..n)));
            let command = all[rng.gen_range(0..all.len())].clone();
            let _ = m.submit(&Order { by, at, command });
        }
        if day < days && m.close_day().is_err() {
            break;
        }
    }
    if rng.gen_bool(0.2) {
        m.midday_stage();
    }
    let at = time_now(&m, &mut rng);
    for p in (0..n).map(PlayerId) {
        let legal = m.legal_orders(p);
        for command in &all {
            let taken = m.check(&Order { by: Actor::Player(p), at, command: command.clone() }).is_ok();
            let listed = legal.iter().any(|l| l.allows(command));
            assert_eq!(
                taken,
                listed,
                "seed {seed}, day {}, seat {p:?} ({:?}), at {at}: {command:?} taken = {taken}, listed = {listed}; \
                 legal: {legal:?}",
                m.state().day(),
                m.state().player(p).role,
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    // R-ORDER-1: an order is checked when sent; `legal_orders` lists exactly what passes.
    #[test]
    fn legal_orders_are_the_orders_the_engine_takes(seed in any::<u64>()) {
        random_game(seed);
    }
}

#[test]
fn legal_orders_agree_on_many_seeds() {
    for seed in 0..300 {
        random_game(seed);
    }
}
