//! The bots' orders in played games: every event act is sent and taken by the engine,
//! the sensible authority and love note get used, no order names a dead player, the
//! sensible bot sends only orders the engine takes, and a reset bot plays like a new one.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use ostrov_bots::{has_morning, play_match, simulate_bots, Bot, BotKind, Config, Factory, View};
use ostrov_engine::{Command, Event, Item, Roster, Rules, Setup};
use rand_chacha::ChaCha8Rng;

const EVENT_ACTS: [Event; 5] = [Event::Bunker, Event::Exchange, Event::MysticLight, Event::ChooseMe, Event::SpiritCall];

/// 15 players with every role that has an act, the default deck; `event` fixed every day.
fn config(bots: BotKind, event: Option<Event>, games: u64) -> Config {
    let mut rules = Rules::default();
    if let Some(e) = event {
        rules.event_weights = [0.0; 14];
        rules.event_weights[e as usize] = 1.0;
        rules.no_repeat = false;
    }
    Config {
        roles: Roster::parse("werewolf=3,seer,nurse,authority,witch,maniac,sleepwalker,hamster")
            .unwrap()
            .roles(15)
            .unwrap(),
        rules,
        deck: Setup::default_deck(15),
        games,
        bots,
        seed: 11,
    }
}

/// What the day records of `cfg.games` games show was taken and done.
#[derive(Debug, Default, PartialEq)]
struct Count {
    bunker: usize,
    exchanges: usize,
    lights: usize,
    pairs: usize,
    questions: usize,
    authority: usize,
    love_notes: usize,
    days: usize,
}

impl Count {
    fn of(&self, e: Event) -> usize {
        match e {
            Event::Bunker => self.bunker,
            Event::Exchange => self.exchanges,
            Event::MysticLight => self.lights,
            Event::ChooseMe => self.pairs,
            Event::SpiritCall => self.questions,
            _ => unreachable!(),
        }
    }
}

fn count(cfg: &Config, factory: &Factory) -> Count {
    let mut c = Count::default();
    for i in 0..cfg.games {
        let m = play_match(cfg, i, factory);
        for d in &m.days {
            c.days += 1;
            c.bunker += d.bunker.len();
            c.exchanges += d.exchanges.len();
            c.lights += d.lights.len();
            c.pairs += d.pair.is_some() as usize;
            c.questions += d.question.is_some() as usize;
            c.authority += d.authority.is_some() as usize;
            c.love_notes += d.items_used.iter().filter(|u| u.item == Item::LoveNote).count();
        }
    }
    c
}

fn kind(k: BotKind) -> impl Fn() -> Box<dyn Bot> + Sync {
    move || k.make()
}

#[test]
fn every_event_act_is_sent_and_taken() {
    for bots in [BotKind::Random, BotKind::Sensible] {
        for e in EVENT_ACTS {
            let cfg = config(bots, Some(e), 100);
            let c = count(&cfg, &kind(bots));
            println!("{bots:?} on {e:?} every day: {c:?}");
            assert!(c.of(e) > 0, "{bots:?} bots never got a {e:?} act done: {c:?}");
            // The other event acts are refused on the wrong event.
            for other in EVENT_ACTS.iter().filter(|o| **o != e) {
                assert_eq!(c.of(*other), 0, "{other:?} done on {e:?} days");
            }
        }
    }
}

#[test]
fn the_sensible_authority_and_love_note_get_used() {
    let cfg = config(BotKind::Sensible, None, 300);
    let c = count(&cfg, &kind(BotKind::Sensible));
    println!("{c:?}");
    // One authority and one love note a game: used in most games that last.
    assert!(c.authority > 150, "{c:?}");
    assert!(c.love_notes > 150, "{c:?}");
    // Without the authority nobody takes a vote.
    let mut cfg = cfg;
    cfg.roles = Roster::parse("werewolf=3,seer,nurse,witch").unwrap().roles(15).unwrap();
    assert_eq!(count(&cfg, &kind(BotKind::Sensible)).authority, 0);
}

/// Wraps a bot and checks each order it proposes before the driver sends it.
struct Checked {
    inner: Box<dyn Bot>,
    sent: Arc<AtomicU64>,
    dead: Arc<AtomicU64>,
    refused: Arc<Mutex<Vec<String>>>,
}

impl Checked {
    fn check(&self, v: &View, cmds: &[Command], morning: bool) {
        assert_eq!(morning, has_morning(v.event()) && v.morning(), "the morning round runs before 13:00 on its days");
        for c in cmds {
            self.sent.fetch_add(1, Ordering::Relaxed);
            if c.named_iter().any(|p| !v.alive(p)) {
                self.dead.fetch_add(1, Ordering::Relaxed);
            }
            let legal = v.legal(c);
            if !legal {
                self.refused.lock().unwrap().push(format!("day {} {:?}: {c:?} by {:?}", v.day(), v.event(), v.role()));
            }
            // R-ORDER-1, issue 27 point 3: the engine's list of what this seat may send
            // now says of every order a bot proposes what the check says.
            let listed = v.legal_orders().iter().any(|l| l.allows(c));
            assert_eq!(listed, legal, "day {} {:?}: {c:?} by {:?}", v.day(), v.event(), v.role());
        }
    }
}

impl Bot for Checked {
    fn morning(&mut self, v: &View, rng: &mut ChaCha8Rng, out: &mut Vec<Command>) {
        let from = out.len();
        self.inner.morning(v, rng, out);
        self.check(v, &out[from..], true);
    }
    fn orders(&mut self, v: &View, rng: &mut ChaCha8Rng, out: &mut Vec<Command>) {
        let from = out.len();
        self.inner.orders(v, rng, out);
        self.check(v, &out[from..], false);
    }
    fn reset(&mut self) -> bool {
        self.inner.reset()
    }
}

fn checked(bots: BotKind, cfg: &Config) -> (u64, u64, Vec<String>) {
    let (sent, dead, refused) =
        (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)), Arc::new(Mutex::new(Vec::new())));
    let factory = {
        let (sent, dead, refused) = (sent.clone(), dead.clone(), Arc::clone(&refused));
        move || -> Box<dyn Bot> {
            Box::new(Checked { inner: bots.make(), sent: sent.clone(), dead: dead.clone(), refused: refused.clone() })
        }
    };
    simulate_bots(cfg, &factory, &|_| {});
    let refused = std::mem::take(&mut *refused.lock().unwrap());
    (sent.load(Ordering::Relaxed), dead.load(Ordering::Relaxed), refused)
}

#[test]
fn no_order_names_a_dead_player_and_sensible_orders_are_all_taken() {
    for bots in [BotKind::Random, BotKind::Sensible] {
        for event in [None].into_iter().chain(EVENT_ACTS.map(Some)) {
            let cfg = config(bots, event, 300);
            let (sent, dead, refused) = checked(bots, &cfg);
            println!("{bots:?}, {event:?}: {sent} orders, {} refused", refused.len());
            assert!(sent > 10_000);
            assert_eq!(dead, 0, "{bots:?} bots named dead players");
            if bots == BotKind::Sensible {
                assert!(refused.is_empty(), "{} refused, e.g. {:?}", refused.len(), &refused[..refused.len().min(5)]);
            } else {
                // The random bot is refused now and then (a used-up ability, itself as a pair …).
                assert!(!refused.is_empty());
            }
        }
    }
}

/// A bot that cannot be reset: the driver makes new ones every game.
struct Fresh(Box<dyn Bot>);

impl Bot for Fresh {
    fn morning(&mut self, v: &View, rng: &mut ChaCha8Rng, out: &mut Vec<Command>) {
        self.0.morning(v, rng, out)
    }
    fn orders(&mut self, v: &View, rng: &mut ChaCha8Rng, out: &mut Vec<Command>) {
        self.0.orders(v, rng, out)
    }
}

#[test]
fn a_reset_bot_plays_like_a_new_one() {
    for bots in [BotKind::Random, BotKind::Sensible] {
        let cfg = config(bots, None, 2000);
        let made = Arc::new(AtomicU64::new(0));
        let counter = made.clone();
        let reused = simulate_bots(
            &cfg,
            &move || {
                counter.fetch_add(1, Ordering::Relaxed);
                bots.make()
            },
            &|_| {},
        );
        // Whole sets of bots, at most one per worker thread, not one per game nor per
        // chunk of games: a worker keeps its bots from chunk to chunk.
        let made = made.load(Ordering::Relaxed);
        let threads = rayon::current_num_threads() as u64;
        assert!(
            made.is_multiple_of(15) && (15..=threads * 15).contains(&made),
            "{made} bots made on {threads} threads"
        );
        let fresh = simulate_bots(&cfg, &move || Box::new(Fresh(bots.make())), &|_| {});
        assert_eq!(format!("{reused:?}"), format!("{fresh:?}"), "{bots:?}");
    }
}

#[test]
fn random_games_are_deterministic_regardless_of_threads() {
    let cfg = config(BotKind::Random, None, 3000);
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap().install(|| ostrov_bots::simulate(&cfg));
    let two = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap().install(|| ostrov_bots::simulate(&cfg));
    assert_eq!(format!("{one:?}"), format!("{two:?}"));
}
