//! Many games in parallel, deterministic for a seed regardless of the thread count.

use ostrov_engine::{Actor, Clock, Command, DayPlan, Event, Match, Role, Rules, Seat, Setup, Winner};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

use crate::bot::{make, Bot, BotKind, Public, View};

/// What to simulate.
#[derive(Clone, Debug)]
pub struct Config {
    /// The roles, one per seat (dealt anew each game by the game seed).
    pub roles: Vec<Role>,
    pub rules: Rules,
    /// The item deck (empty: nobody gets an item).
    pub deck: Vec<Item>,
    pub games: u64,
    pub bots: BotKind,
    pub seed: u64,
}

use ostrov_engine::Item;

/// The outcome of one game.
#[derive(Clone, Debug)]
pub struct GameResult {
    pub winner: Winner,
    pub days: u32,
    /// (role, survived) per seat.
    pub survivors: Vec<(Role, bool)>,
}

/// The seed of game `index`: SplitMix64 of the base seed and the index.
pub fn game_seed(base: u64, index: u64) -> u64 {
    let mut z = base ^ index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Makes the bot for a seat; it learns its role from its own view.
pub type Factory = dyn Fn() -> Box<dyn Bot> + Sync;

/// Plays one whole game with the configured bots.
pub fn play_one(cfg: &Config, index: u64) -> GameResult {
    let kind = cfg.bots;
    play_with(cfg, index, &move || make(kind))
}

/// Plays one whole game with bots from `factory`.
pub fn play_with(cfg: &Config, index: u64, factory: &Factory) -> GameResult {
    play_in(cfg, index, factory, &mut Scratch::default())
}

/// Plays one whole game with bots from `factory` and gives back the finished match, with
/// its day records (the same game as [`play_with`] plays).
pub fn play_match(cfg: &Config, index: u64, factory: &Factory) -> Match {
    let mut scratch = Scratch::default();
    run(cfg, index, factory, &mut scratch);
    scratch.m.take().expect("the game was played")
}

/// Buffers kept from game to game by one worker.
#[derive(Default)]
struct Scratch {
    setup: Option<Setup>,
    roles: Vec<Role>,
    cmds: Vec<Command>,
    /// The day's public facts, gathered once for all the bots.
    public: Public,
    /// The bots of the last game, reset for the next one (see [`Bot::reset`]).
    bots: Vec<Box<dyn Bot>>,
    /// The last game's match, renewed for the next one.
    m: Option<Match>,
}

/// The time of the afternoon round's orders (the second half of the day runs 14:00–21:00).
const AFTERNOON: Clock = Clock::hm(14, 0);

fn play_in(cfg: &Config, index: u64, factory: &Factory, scratch: &mut Scratch) -> GameResult {
    let m = run(cfg, index, factory, scratch);
    GameResult {
        winner: m.winner().unwrap_or(Winner::Draw),
        days: m.days.len() as u32,
        survivors: m.state().players().iter().map(|p| (p.role, p.alive)).collect(),
    }
}

/// Whether the day's event takes orders that must come before 13:00 (R-EVENT-1).
pub fn has_morning(event: Option<Event>) -> bool {
    matches!(event, Some(Event::Bunker | Event::Exchange | Event::MysticLight | Event::ChooseMe | Event::SpiritCall))
}

/// One round of orders: every living player's bot proposes, the engine takes what it takes.
fn round(
    m: &mut Match,
    bots: &mut [Box<dyn Bot>],
    public: &Public,
    rng: &mut ChaCha8Rng,
    cmds: &mut Vec<Command>,
    morning: bool,
) {
    let at = if morning { Clock::NOON } else { AFTERNOON };
    for &p in public.living() {
        cmds.clear();
        let view = View::with_public(m, p, public);
        let bot = &mut bots[p.index()];
        if morning {
            bot.morning(&view, rng, cmds);
        } else {
            bot.orders(&view, rng, cmds);
        }
        for c in cmds.iter() {
            // Only orders the engine takes are sent (`try_send` checks them as `check` does).
            let _ = m.try_send(Actor::Player(p), at, c);
        }
    }
}

/// The setup every game of `cfg` starts from (its seed and the deal of the roles are each
/// game's own). Making a seat works out the grammar of its name, which costs more than a
/// short game: it is done once per run, not once per worker's chunk of games.
fn base_setup(cfg: &Config) -> Setup {
    Setup {
        title: None,
        seed: cfg.seed,
        rules: cfg.rules.clone(),
        seats: cfg.roles.iter().enumerate().map(|(i, r)| Seat::new(format!("p{i}"), *r, None)).collect(),
        deck: cfg.deck.clone(),
        blanks: 0,
        shuffle: false,
    }
}

/// Plays the game `index`; the finished match stays in the scratch.
fn run<'s>(cfg: &Config, index: u64, factory: &Factory, scratch: &'s mut Scratch) -> &'s Match {
    let seed = game_seed(cfg.seed, index);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(7);
    let setup = scratch.setup.get_or_insert_with(|| base_setup(cfg));
    setup.seed = seed;
    // The roles are dealt anew by the game seed.
    let roles = &mut scratch.roles;
    roles.clear();
    roles.extend_from_slice(&cfg.roles);
    rand::seq::SliceRandom::shuffle(roles.as_mut_slice(), &mut rng);
    for (seat, r) in setup.seats.iter_mut().zip(roles.iter()) {
        seat.role = *r;
    }
    match scratch.m.as_mut() {
        Some(m) => m.renew(setup, false),
        None => scratch.m = Some(Match::new(setup, false)),
    }
    let m = scratch.m.as_mut().expect("just made");
    // The last game's bots, reset; new ones if any cannot be.
    let bots = &mut scratch.bots;
    let n = setup.seats.len();
    if bots.len() != n || !bots.iter_mut().all(|b| b.reset()) {
        bots.clear();
        bots.extend((0..n).map(|_| factory()));
    }
    let plan = DayPlan::default();
    let (cmds, public) = (&mut scratch.cmds, &mut scratch.public);
    public.clear();
    while m.winner().is_none() {
        if m.open_day(&plan).is_err() {
            break;
        }
        public.gather(m);
        // Before 13:00, on a day whose event takes acts then: the event acts and morning
        // item uses (R-EVENT-1). On other days nothing an order could change is settled at
        // 13:00, so one round after it plays the same game.
        if has_morning(m.state().event()) {
            round(m, bots, public, &mut rng, cmds, true);
        }
        // The 13:00 stage, so that the afternoon's orders see its news. Nobody dies at 13:00.
        m.midday_stage();
        round(m, bots, public, &mut rng, cmds, false);
        if m.close_day().is_err() {
            break;
        }
    }
    m
}

/// A win rate with its 95% confidence interval (Wilson).
#[derive(Clone, Debug, serde::Serialize)]
pub struct Rate {
    pub wins: u64,
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

impl Rate {
    pub fn new(wins: u64, n: u64) -> Rate {
        if n == 0 {
            return Rate { wins, rate: 0.0, low: 0.0, high: 1.0 };
        }
        let (k, n) = (wins as f64, n as f64);
        let p = k / n;
        let z = 1.96f64;
        let d = 1.0 + z * z / n;
        let c = (p + z * z / (2.0 * n)) / d;
        let h = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / d;
        Rate { wins, rate: p, low: (c - h).max(0.0), high: (c + h).min(1.0) }
    }
}

/// Survival of one role.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Survival {
    pub role: String,
    pub seats: u64,
    pub survived: u64,
    pub rate: f64,
}

/// What K games say.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Summary {
    pub games: u64,
    pub civilians: Rate,
    pub werewolves: Rate,
    pub hamster: Rate,
    pub draw: Rate,
    pub mean_days: f64,
    /// `length[d]`: games that lasted d days.
    pub length: Vec<u64>,
    /// `wins_by_day[d]` = [civilians, werewolves, hamster, draw] of games ending on day d.
    pub wins_by_day: Vec<[u64; 4]>,
    pub survival: Vec<Survival>,
}

#[derive(Clone, Default)]
struct Acc {
    wins: [u64; 4],
    days_sum: u64,
    by_day: Vec<[u64; 4]>,
    seats: [u64; 16],
    survived: [u64; 16],
}

fn slot(w: Winner) -> usize {
    match w {
        Winner::Civilians => 0,
        Winner::Werewolves => 1,
        Winner::Hamster => 2,
        Winner::Draw => 3,
    }
}

impl Acc {
    /// Counts a finished game: what its [`GameResult`] says, read from the match without
    /// making one (no survivors' list per game).
    fn add(&mut self, m: &Match) {
        let (winner, days) = (m.winner().unwrap_or(Winner::Draw), m.days.len());
        let s = slot(winner);
        self.wins[s] += 1;
        self.days_sum += days as u64;
        if self.by_day.len() <= days {
            self.by_day.resize(days + 1, [0; 4]);
        }
        self.by_day[days][s] += 1;
        for p in m.state().players() {
            self.seats[p.role as usize] += 1;
            self.survived[p.role as usize] += p.alive as u64;
        }
    }
    fn merge(mut self, o: Acc) -> Acc {
        for i in 0..4 {
            self.wins[i] += o.wins[i];
        }
        self.days_sum += o.days_sum;
        if self.by_day.len() < o.by_day.len() {
            self.by_day.resize(o.by_day.len(), [0; 4]);
        }
        for (a, b) in self.by_day.iter_mut().zip(o.by_day) {
            for i in 0..4 {
                a[i] += b[i];
            }
        }
        for i in 0..16 {
            self.seats[i] += o.seats[i];
            self.survived[i] += o.survived[i];
        }
        self
    }
}

/// Runs `cfg.games` games on every core; `progress` is called with finished counts.
pub fn simulate_with(cfg: &Config, progress: &(dyn Fn(u64) + Sync)) -> Summary {
    let kind = cfg.bots;
    simulate_bots(cfg, &move || make(kind), progress)
}

/// Runs `cfg.games` games on every core with bots from `factory`.
pub fn simulate_bots(cfg: &Config, factory: &Factory, progress: &(dyn Fn(u64) + Sync)) -> Summary {
    // Chunks small enough that the cores finish together (3,000 games in chunks of 1,024
    // left one core a third of the run alone on two cores; in chunks of 128, up to 2 ms of a
    // 30 ms run); the sums do not depend on them, nor on which worker plays which chunk.
    const CHUNK: u64 = 32;
    let chunks = cfg.games.div_ceil(CHUNK);
    let base = base_setup(cfg);
    let next = AtomicU64::new(0);
    // A worker takes the next chunk until none is left, keeping one scratch (the match,
    // the bots, their buffers) and one sum for all its chunks, as `simulate_while` keeps
    // one scratch for all its games: a chunk costs no new match nor bots.
    let work = || {
        let mut scratch = Scratch { setup: Some(base.clone()), ..Scratch::default() };
        let mut acc = Acc::default();
        loop {
            let c = next.fetch_add(1, Ordering::Relaxed);
            if c >= chunks {
                return acc;
            }
            let end = ((c + 1) * CHUNK).min(cfg.games);
            for i in c * CHUNK..end {
                acc.add(run(cfg, i, factory, &mut scratch));
            }
            progress(end - c * CHUNK);
        }
    };
    // The calling thread is one of the workers, the pool's threads the others: the games
    // start at once, while the pool's threads may still be starting (in a process's first
    // parallel call they began their first chunk 0.2–3.3 ms late on two cores, of a 3,000-game
    // run's 25 ms). As many workers as the pool has threads.
    let workers = rayon::current_num_threads().max(1);
    let sums = Mutex::new(Vec::with_capacity(workers));
    rayon::in_place_scope(|s| {
        for _ in 1..workers {
            s.spawn(|_| {
                let acc = work();
                sums.lock().unwrap_or_else(PoisonError::into_inner).push(acc);
            });
        }
        let acc = work();
        sums.lock().unwrap_or_else(PoisonError::into_inner).push(acc);
    });
    let acc = sums.into_inner().unwrap_or_else(PoisonError::into_inner).into_iter().fold(Acc::default(), Acc::merge);
    summary(&acc, cfg.games)
}

/// Plays the games of [`simulate`] one after another on the calling thread, at most
/// `cfg.games`, asking `more(played)` before each whether to go on: the summary of the
/// games played (the same first games, by the same seeds, as [`simulate`] plays). For an
/// estimate whose work is bounded and that can be stopped between two games (the server's
/// balance hint stops when its time is up or its client has left).
pub fn simulate_while(cfg: &Config, more: &mut dyn FnMut(u64) -> bool) -> Summary {
    let kind = cfg.bots;
    let factory = move || make(kind);
    let mut scratch = Scratch::default();
    let mut acc = Acc::default();
    let mut played = 0;
    while played < cfg.games && more(played) {
        acc.add(run(cfg, played, &factory, &mut scratch));
        played += 1;
    }
    summary(&acc, played)
}

fn summary(acc: &Acc, n: u64) -> Summary {
    Summary {
        games: n,
        civilians: Rate::new(acc.wins[0], n),
        werewolves: Rate::new(acc.wins[1], n),
        hamster: Rate::new(acc.wins[2], n),
        draw: Rate::new(acc.wins[3], n),
        mean_days: if n == 0 { 0.0 } else { acc.days_sum as f64 / n as f64 },
        length: acc.by_day.iter().map(|d| d.iter().sum()).collect(),
        wins_by_day: acc.by_day.clone(),
        survival: Role::ALL
            .iter()
            .filter(|r| acc.seats[**r as usize] > 0)
            .map(|r| {
                let (s, a) = (acc.seats[*r as usize], acc.survived[*r as usize]);
                Survival { role: r.id().into(), seats: s, survived: a, rate: a as f64 / s as f64 }
            })
            .collect(),
    }
}

/// Runs `cfg.games` games on every core.
pub fn simulate(cfg: &Config) -> Summary {
    simulate_with(cfg, &|_| {})
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 28, point 12: the balance hint's bounded run plays the same first games as
    /// the parallel one and stops when told.
    #[test]
    fn a_bounded_run_stops_when_told_and_plays_the_same_games() {
        let cfg = Config {
            roles: Role::ALL
                .iter()
                .copied()
                .filter(|r| matches!(r, Role::Werewolf | Role::Seer))
                .chain([Role::Passenger; 6])
                .collect(),
            rules: Rules::default(),
            deck: Vec::new(),
            games: 40,
            bots: BotKind::Sensible,
            seed: 7,
        };
        let all = simulate_while(&cfg, &mut |_| true);
        let parallel = simulate(&cfg);
        assert_eq!((all.games, all.civilians.wins, all.mean_days), (40, parallel.civilians.wins, parallel.mean_days));
        let mut asked = 0;
        let some = simulate_while(&cfg, &mut |played| {
            asked += 1;
            played < 12
        });
        assert_eq!((some.games, asked), (12, 13));
    }
}
