//! Seat bots (issue 32): the host seats bots in free seats of the lobby ([`add_bots`]) and
//! may take one back before the start ([`remove_bot`]); once the game runs, the driver
//! ([`drive`], run with the scheduler on the node that owns the game) makes each living
//! bot act at its times ([`crate::game::bots`]): its orders through [`send_order`] and its
//! posts through [`post`], checked as anyone's. A bot decides with the simulator's sensible
//! bot over its own seat's [`ostrov_bots::View`] (its role, item, pack, private messages
//! and the public record), never the whole table.

use std::sync::Arc;

use ostrov_bots::{Bot, Public, SensibleBot, View};
use ostrov_engine::{Command, PlayerId};
use ostrov_store::Store;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::locking::{locked, reach};
use super::orders::{send_order, OrderRequest};
use super::talk::post;
use crate::app::AppState;
use crate::commit::commit;
use crate::error::ApiError;
use crate::game::bots::{bot_user, Round};
use crate::game::{BotSeat, GameEvent, GameState, Room, SeatSpeech};

/// The bots' first names and genders: a bot is «Бот» and one of them («Бот Глеб»).
const NAMES: &[(&str, &str)] = &[
    ("Глеб", "m"),
    ("Вера", "f"),
    ("Олег", "m"),
    ("Нина", "f"),
    ("Фёдор", "m"),
    ("Зоя", "f"),
    ("Игорь", "m"),
    ("Ольга", "f"),
    ("Павел", "m"),
    ("Алла", "f"),
    ("Роман", "m"),
    ("Инна", "f"),
    ("Тимур", "m"),
    ("Лидия", "f"),
    ("Юрий", "m"),
    ("Рита", "f"),
    ("Вадим", "m"),
    ("Майя", "f"),
    ("Степан", "m"),
    ("Тамара", "f"),
    ("Кирилл", "m"),
    ("Полина", "f"),
    ("Артём", "m"),
    ("Дарья", "f"),
];

/// «Бот» in the six cases, for the forms of a bot's name.
const BOT: [&str; 6] = ["Бот", "Бота", "Боту", "Бота", "Ботом", "Боте"];

/// How a bot's name is spoken: its gender, and its six forms when the first name declines
/// («Бота Глеба», «Боту Вере»); a number after the name stays as it is («Бот Глеб 2»).
pub fn bot_speech(name: &str, gender: &str) -> SeatSpeech {
    let mut words = name.split(' ');
    let (Some("Бот"), Some(first)) = (words.next(), words.next()) else {
        return SeatSpeech { gender: Some(gender.to_string()), forms: None, dropped: Vec::new() };
    };
    let rest: String = words.map(|w| format!(" {w}")).collect();
    let forms = ostrov_engine::ru::Speech::resolve(first, Some(gender), None)
        .ok()
        .and_then(|s| s.forms)
        .map(|f| f.iter().zip(BOT).map(|(form, bot)| format!("{bot} {form}{rest}")).collect::<Vec<_>>());
    SeatSpeech { gender: Some(gender.to_string()), forms, dropped: Vec::new() }
}

/// Free names for `count` bots in `live`, in an order drawn from the game's seed: the first
/// names not taken (nor looking like a taken name), then the same with a number.
fn names_for(live: &GameState, count: usize) -> Vec<(String, &'static str)> {
    let mut order: Vec<&(&str, &str)> = NAMES.iter().collect();
    let seed = live.config.seed.unwrap_or(0);
    order.shuffle(&mut ChaCha8Rng::seed_from_u64(ostrov_bots::game_seed(seed, live.bots_added as u64)));
    let mut out: Vec<(String, &'static str)> = Vec::with_capacity(count);
    for n in 1.. {
        for (first, gender) in &order {
            if out.len() == count {
                return out;
            }
            let name = if n == 1 { format!("Бот {first}") } else { format!("Бот {first} {n}") };
            let key = ostrov_engine::skeleton(&name);
            if live.seat_name(&name).is_ok() && !out.iter().any(|(o, _)| ostrov_engine::skeleton(o) == key) {
                out.push((name, *gender));
            }
        }
    }
    out
}

/// The host `host` seats `count` bots in free seats of game `game` before the start. The
/// bots' names, in seat order.
pub async fn add_bots<S: Store>(
    st: &Arc<AppState<S>>,
    host: i64,
    game: i64,
    count: usize,
) -> Result<Vec<String>, ApiError> {
    let (mut slot, now) = reach(st, game, Some(host)).await?;
    if slot.live.host != host {
        return Err(ApiError::Forbidden);
    }
    if slot.live.status != crate::game::Status::Lobby {
        return Err(ApiError::Conflict("started", "Игра уже началась: ботов можно посадить только до начала.".into()));
    }
    let free = slot.live.config.slots.saturating_sub(slot.live.members.len());
    if count == 0 || count > free {
        return Err(ApiError::Invalid(
            "bad_count",
            format!("Свободных мест: {free}. Ботов можно посадить от 1 до {free}, а не {count}."),
        ));
    }
    let bots: Vec<BotSeat> = names_for(&slot.live, count)
        .into_iter()
        .enumerate()
        .map(|(k, (name, gender))| BotSeat {
            user: bot_user(game, slot.live.bots_added + k),
            name,
            gender: gender.to_string(),
        })
        .collect();
    let names = bots.iter().map(|b| b.name.clone()).collect();
    let staged = commit(st, &mut slot, GameEvent::BotsAdded { bots }, Some(host), None, now).await?;
    drop(slot);
    staged.durable().await?;
    Ok(names)
}

/// The host `host` takes the bot `name` out of its seat in game `game`, before the start.
pub async fn remove_bot<S: Store>(st: &Arc<AppState<S>>, host: i64, game: i64, name: &str) -> Result<(), ApiError> {
    if name.chars().count() > 80 {
        return Err(ApiError::BadRequest("Имя бота длиннее 80 символов.".into()));
    }
    let (mut slot, now) = reach(st, game, Some(host)).await?;
    if slot.live.host != host {
        return Err(ApiError::Forbidden);
    }
    let ev = GameEvent::BotRemoved { name: name.to_string() };
    let staged = commit(st, &mut slot, ev, Some(host), None, now).await?;
    drop(slot);
    staged.durable().await?;
    Ok(())
}

/// What a bot does in one round: orders in game-file words, or a post.
#[derive(Debug)]
enum Action {
    Order(OrderRequest),
    Post(String),
}

/// The random numbers of one bot's round: from the game's seed, the day, the seat and the
/// round, so the same game plays the same.
fn round_rng(live: &GameState, day: u32, seat: usize, round: Round) -> ChaCha8Rng {
    let key = (1u64 << 60) | ((day as u64) << 32) | ((seat as u64) << 8) | round as u64;
    ChaCha8Rng::seed_from_u64(ostrov_bots::game_seed(live.config.seed.unwrap_or(0), key))
}

/// An order of the engine's words in the game file's (the players it names by name, as
/// [`Command::named_iter`] lists them); the host's acts are none of a bot's.
fn request(m: &ostrov_engine::Match, c: &Command) -> Option<OrderRequest> {
    let mut names = c.named_iter().map(|p| m.state().name(p).to_string());
    let mut r = OrderRequest { act: c.act().id().to_string(), ..Default::default() };
    match c {
        Command::Answer(_) | Command::Penalty { .. } | Command::Remove { .. } => return None,
        Command::Authority { .. } => (r.from, r.target) = (names.next(), names.next()),
        Command::Use { item, .. } => (r.item, r.target) = (item.map(|i| i.id().to_string()), names.next()),
        Command::Ask(q) => r.text = Some(q.clone()),
        _ => {
            let all: Vec<String> = names.collect();
            match all.len() {
                2 => r.targets = Some(all),
                _ => r.target = all.into_iter().next(),
            }
        }
    }
    Some(r)
}

/// What the bot of `seat` does in `round` of day `day`, from its own seat's view.
fn plan(live: &GameState, day: u32, seat: usize, round: Round) -> Vec<Action> {
    let Some(m) = live.m.as_ref() else { return Vec::new() };
    let me = PlayerId(seat as u16);
    let mut rng = round_rng(live, day, seat, round);
    let mut public = Public::default();
    public.gather(m);
    let view = View::with_public(m, me, &public);
    let mut bot = SensibleBot::default();
    let mut cmds = Vec::new();
    match round {
        Round::Morning => bot.morning(&view, &mut rng, &mut cmds),
        Round::Orders => bot.orders(&view, &mut rng, &mut cmds),
        Round::Talk => {
            // What it says fits what it will do: the vote of its orders round, drawn alike.
            let mut orders = Vec::new();
            bot.orders(&view, &mut round_rng(live, day, seat, Round::Orders), &mut orders);
            let vote = orders.iter().find_map(|c| match c {
                Command::Vote(t) => Some(t.first),
                _ => None,
            });
            let user = live.members[seat].user;
            let posted = live.posts.iter().any(|p| p.day == day && p.post.user == user);
            return if posted {
                Vec::new()
            } else {
                super::bot_talk::say(m, &view, vote, &mut rng).map(Action::Post).into_iter().collect()
            };
        }
    }
    cmds.iter().filter_map(|c| request(m, c)).map(Action::Order).collect()
}

/// Runs every bot round of game `id` that is due now: each round once, its orders and
/// posts sent through the services as the seat's own. A refused order is refused as
/// anyone's would be, and dropped.
pub async fn act<S: Store>(st: &Arc<AppState<S>>, id: i64) -> Result<(), ApiError> {
    for _ in 0..3 * crate::game::MAX_SLOTS {
        let (mut slot, now) = locked(st, id).await?;
        let Some((day, seat, round)) = slot.live.bot_due(now) else {
            st.games.note(&slot.live);
            return Ok(());
        };
        slot.live.bot_rounds.insert((day, seat, round as u8));
        let (user, name) = (slot.live.members[seat].user, slot.live.members[seat].name.clone());
        let actions = plan(&slot.live, day, seat, round);
        st.games.note(&slot.live);
        drop(slot);
        for (k, a) in actions.into_iter().enumerate() {
            let done = match a {
                Action::Order(mut r) => {
                    r.request_id = Some(format!("bot:{day}:{}:{k}", round as u8));
                    send_order(st, id, user, r).await.map(drop)
                }
                Action::Post(text) => post(st, id, user, &name, Room::Thread, &text).await.map(drop),
            };
            match done {
                Ok(()) => {}
                // Refused as anyone's would be: the bot goes on with the rest.
                Err(ApiError::Refused(_) | ApiError::Invalid(..) | ApiError::Conflict(..) | ApiError::TooMany(..)) => {}
                Err(e) => return Err(e),
            }
        }
    }
    Ok(())
}

/// One pass of the bots' driver: every game with a bot round due now. As with the
/// scheduler's steps ([`crate::scheduler::tick`]), of nodes sharing a store each drives the
/// bots of the games it owns, and the scheduler lease's holder those of the games no other
/// node is known to own (its first order takes the game's lease); a game owned elsewhere is
/// its owner's to drive.
pub async fn drive<S: Store>(st: &Arc<AppState<S>>) {
    let lead = matches!(st.store.lead().await, Ok(true));
    let now = st.clock.now();
    for id in st.games.due(now) {
        if !(st.store.owns(id) || lead && st.store.owner_hint(id).is_none()) {
            continue;
        }
        let Ok(game) = st.game(id).await else { continue };
        let due = game.lock().await.live.bot_due(now).is_some();
        if due {
            match act(st, id).await {
                // Another node took the game meanwhile: its driver sends the round.
                Ok(()) | Err(ApiError::Elsewhere(_)) => {}
                Err(e) => eprintln!("ostrov-server: bots, game {id}: {}", e.message()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Config, GameEvent};
    use crate::schedule::Schedule;
    use ostrov_engine::{OrderEntry, Viewer};

    const START: i64 = 1_796_151_600;
    const H: i64 = 3600;

    /// A 7-seat game of one person and six bots, started with the roles `roles` (by seat).
    fn table(roles: &[&str]) -> GameState {
        let config = Config {
            title: "Тест".into(),
            slots: 7,
            setup: Some("werewolf=2,seer,nurse".into()),
            deck: None,
            rules: None,
            seed: Some(11),
            shuffle: false,
            schedule: Schedule::default(),
            discussion: Default::default(),
            visibility: Default::default(),
        };
        let mut live = GameState::new(1, 100, config).unwrap();
        live.apply(&GameEvent::Joined { user: 5, name: "Аня".into() }, START - H).unwrap();
        let bots: Vec<BotSeat> = names_for(&live, 6)
            .into_iter()
            .enumerate()
            .map(|(k, (name, g))| BotSeat { user: bot_user(1, k), name, gender: g.to_string() })
            .collect();
        live.apply(&GameEvent::BotsAdded { bots }, START - H).unwrap();
        let speech = live
            .members
            .iter()
            .map(|m| m.bot.as_ref().map_or_else(SeatSpeech::default, |g| bot_speech(&m.name, g)))
            .collect();
        let roles = roles.iter().map(|r| r.to_string()).collect();
        live.apply(&GameEvent::Started { roles, speech }, START).unwrap();
        live
    }

    /// R-SIDE-2 and O-PAPER-2 for bots: what a bot does depends on what its seat may see
    /// alone. The roles it may not see dealt otherwise, and other seats' orders of the
    /// day, change none of its rounds.
    #[test]
    fn a_bot_decides_from_its_own_seat_alone() {
        let roles = ["passenger", "werewolf", "seer", "passenger", "werewolf", "nurse", "passenger"];
        let a = table(&roles);
        let m = a.m.as_ref().unwrap();
        for seat in 1..7 {
            let sight = m.sight(Viewer::Seat(PlayerId(seat as u16)));
            // The roles this seat may not see, swapped around among themselves.
            let hidden: Vec<usize> = (0..7).filter(|q| !sight.role(PlayerId(*q as u16))).collect();
            let mut other = roles;
            let swapped: Vec<&str> = hidden.iter().map(|q| roles[*q]).collect();
            for (k, q) in hidden.iter().enumerate() {
                other[*q] = swapped[(k + 1) % swapped.len()];
            }
            let mut b = table(&other);
            // Others' orders of the day, which the seat may not see either.
            for q in (0..7).filter(|q| *q != seat) {
                let by = b.members[q].name.clone();
                let target = b.members[(q + 1) % 7].name.clone();
                let order = OrderEntry { by, act: "vote".into(), target: Some(target), ..Default::default() };
                let _ = b.apply(&GameEvent::Order { day: 1, order }, START + 14 * H);
            }
            b.apply(&GameEvent::Midday { day: 1, early: false }, START + 15 * H + 60).unwrap();
            let mut a = a.clone();
            a.apply(&GameEvent::Midday { day: 1, early: false }, START + 15 * H + 60).unwrap();
            for round in [Round::Talk, Round::Orders] {
                let (x, y) = (plan(&a, 1, seat, round), plan(&b, 1, seat, round));
                assert_eq!(format!("{x:?}"), format!("{y:?}"), "seat {seat}, {round:?}");
            }
        }
    }

    #[test]
    fn bots_have_their_gender_and_forms() {
        let s = bot_speech("Бот Глеб", "m");
        assert_eq!(
            s.forms.unwrap(),
            ["Бот Глеб", "Бота Глеба", "Боту Глебу", "Бота Глеба", "Ботом Глебом", "Боте Глебе"]
        );
        let s = bot_speech("Бот Вера 2", "f");
        assert_eq!(s.gender.as_deref(), Some("f"));
        assert_eq!(s.forms.unwrap()[3], "Бота Веру 2");
    }

    /// The bots act at their times: the orders of a day between 13:00 and 20:00, the event
    /// acts before 13:00, each round once.
    #[test]
    fn bot_rounds_come_at_their_times() {
        let mut live = table(&["passenger", "werewolf", "seer", "passenger", "werewolf", "nurse", "passenger"]);
        for seat in live.bot_seats().collect::<Vec<_>>() {
            let t = live.bot_time(1, seat, Round::Orders).unwrap();
            assert!((START + 15 * H..=START + 22 * H).contains(&t), "orders at {}", (t - START) / 60);
            let talk = live.bot_time(1, seat, Round::Talk).unwrap();
            assert!((START..START + 23 * H).contains(&talk));
        }
        assert!(live.bot_due(START + 14 * H).is_none_or(|(_, _, r)| r != Round::Orders), "no orders before 13:00");
        live.apply(&GameEvent::Midday { day: 1, early: false }, START + 15 * H + 60).unwrap();
        let mut seen = BTreeSet::new();
        while let Some((day, seat, round)) = live.bot_due(START + 22 * H) {
            assert!(seen.insert((seat, round)), "each round once");
            live.bot_rounds.insert((day, seat, round as u8));
        }
        assert_eq!(seen.iter().filter(|(_, r)| *r == Round::Orders).count(), 6, "by 20:00 every bot's orders");
        assert_eq!(live.next_bot_at(), None);
    }

    /// A bot is silent when the engine says it speaks like the dead: here the day after
    /// the maniac's visit (R-MANIAC-1).
    #[test]
    fn a_bot_is_silent_when_it_speaks_like_the_dead() {
        let mut live = table(&["maniac", "werewolf", "seer", "passenger", "werewolf", "nurse", "passenger"]);
        let target = live.members[3].name.clone();
        let order =
            OrderEntry { by: "Аня".into(), act: "assault".into(), target: Some(target), ..Default::default() };
        live.apply(&GameEvent::Order { day: 1, order }, START + 14 * H).unwrap();
        for now in [START + 15 * H + 60, START + 23 * H + 60, START + 24 * H] {
            let ev = live.due(now).unwrap();
            live.apply(&ev, now).unwrap();
        }
        assert_eq!(live.open_day(), Some(2));
        let speech = live.m.as_ref().unwrap().speech(PlayerId(3));
        assert_eq!(speech, ostrov_engine::Speech::LikeDead(ostrov_engine::Silence::Assaulted));
        assert!(plan(&live, 2, 3, Round::Talk).is_empty(), "silent");
        assert!(!plan(&live, 2, 2, Round::Talk).is_empty(), "the others speak");
    }

    /// R-PALMS-1: on Palms bloom every bot that speaks writes no banned word.
    #[test]
    fn on_palms_bloom_a_bot_writes_no_banned_word() {
        let mut live = table(&["passenger", "werewolf", "seer", "passenger", "werewolf", "nurse", "passenger"]);
        let fix = crate::game::Fix { event: Some("palms_bloom".into()), ..Default::default() };
        live.apply(&GameEvent::Fixed { day: 1, fix }, START + H).unwrap();
        let m = live.m.as_ref().unwrap();
        assert_eq!(m.state().event(), Some(ostrov_engine::Event::PalmsBloom));
        for seat in 1..7 {
            let said = plan(&live, 1, seat, Round::Talk);
            assert_eq!(said.len(), 1, "seat {seat} says something");
            let Action::Post(text) = &said[0] else { panic!("a post") };
            assert!(m.banned_words(text).is_empty(), "{text}");
        }
    }

    /// O-FORUM-1: in a forum game the talk is on the forum, so the bots do not post (the
    /// thread would refuse them); their orders come as in any game.
    #[test]
    fn in_a_forum_game_bots_give_orders_and_do_not_post() {
        let mut live = table(&["passenger", "werewolf", "seer", "passenger", "werewolf", "nurse", "passenger"]);
        live.config.discussion = crate::game::Discussion::Forum(None);
        assert!(live.forum());
        live.apply(&GameEvent::Midday { day: 1, early: false }, START + 15 * H + 60).unwrap();
        let mut rounds = Vec::new();
        while let Some((day, seat, round)) = live.bot_due(START + 22 * H) {
            rounds.push(round);
            live.bot_rounds.insert((day, seat, round as u8));
        }
        assert!(!rounds.contains(&Round::Talk), "no bot posts in a forum game: {rounds:?}");
        assert_eq!(rounds.iter().filter(|r| **r == Round::Orders).count(), 6, "every bot's orders");
        assert!(live.bot_seats().all(|seat| live.bot_time(1, seat, Round::Talk).is_none()));
    }

    use std::collections::BTreeSet;
}
