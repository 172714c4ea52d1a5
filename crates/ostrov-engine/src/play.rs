//! A game in play: deal, open a day, take orders, the 13:00 stage and the 21:00
//! resolution — the 21 steps of RULES.md in one explicit sequence ([`Match::close_day`]).

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::day::{self, Phase, Today};
use crate::draw;
use crate::error::ResolveError;
use crate::event::Event;
use crate::gamefile::{DayPlan, Game, Setup};
use crate::item::{Held, Item};
use crate::log::Log;
use crate::name::SeatName;
use crate::night::Night;
use crate::notice::{ItemSource, NoticeKind};
use crate::order::{Actor, Clock, Command, Order};
use crate::player::{Player, PlayerId, Spent};
use crate::record::{DayRecord, Snapshot};
use crate::refusal::Refusal;
use crate::side::Side;
use crate::state::State;
use crate::step::Step;
use crate::win::Winner;

/// A game in play. Pure: no IO, no clock; every random draw comes from one seeded
/// `ChaCha8Rng`.
///
/// ```
/// use ostrov_engine::{Command, Game, Match, Order};
/// let game = Game::parse(r#"
/// [[players]]
/// name = "Аня"
/// role = "seer"
/// item = "none"
/// [[players]]
/// name = "Боря"
/// role = "werewolf"
/// item = "none"
/// [[players]]
/// name = "Вика"
/// role = "passenger"
/// item = "none"
/// "#).unwrap();
/// let mut m = Match::new(&game.setup, true);
/// m.open_day(&Default::default()).unwrap();
/// let (anya, borya, vika) = (m.find("Аня").unwrap(), m.find("Боря").unwrap(), m.find("Вика").unwrap());
/// m.submit(&Order::new(anya, Command::Vote(ostrov_engine::Targets::one(borya)))).unwrap();
/// m.submit(&Order::new(vika, Command::Vote(ostrov_engine::Targets::one(borya)))).unwrap();
/// m.close_day().unwrap();
/// assert_eq!(m.winner(), Some(ostrov_engine::Winner::Civilians));
/// ```
#[derive(Clone, Debug)]
pub struct Match {
    /// Only the engine changes it; callers read it through [`Match::state`].
    pub(crate) state: State,
    pub(crate) rng: ChaCha8Rng,
    detail: bool,
    /// Boxed: the open day is moved in and out often, and it is large.
    today: Option<Box<Today>>,
    /// Night dead whose roles wait for the next morning (Solar eclipse may hide them).
    reveal_pending: Vec<PlayerId>,
    pub days: Vec<DayRecord>,
    pub title: Option<String>,
    /// The last closed day, kept for its buffers.
    spare: Option<Box<Today>>,
    /// Day records of an old game (see [`Match::renew`]), kept for their buffers.
    pool: Vec<DayRecord>,
    /// The night's working buffers, kept from day to day.
    /// Boxed, so that the night moves in and out of the resolution as a pointer.
    night_buf: Option<Box<Night>>,
    /// The next day's event as the game file fixes it, for step 21 of the open day
    /// ([`Match::fix_next_event`]).
    next_fixed: Option<Option<Event>>,
    /// The pack's list the deal gave the packmates' notices (what [`Match::pack`] tells
    /// them), kept to be refilled by the next game's deal (see [`Match::deal`]).
    pub(crate) pack: std::sync::Arc<[PlayerId]>,
}

/// Fills `slots` with the players of `from`, if they are exactly as many.
fn refill(slots: &mut [PlayerId], mut from: impl Iterator<Item = PlayerId>) -> bool {
    for slot in slots.iter_mut() {
        match from.next() {
            Some(p) => *slot = p,
            None => return false,
        }
    }
    from.next().is_none()
}

impl Match {
    /// Seats the players (shuffled if the setup asks), deals the items by the seed.
    /// `detail` turns on the Russian log and the daily snapshots (off for bulk simulation).
    pub fn new(setup: &Setup, detail: bool) -> Match {
        Self::with_rng(setup, ChaCha8Rng::seed_from_u64(setup.seed), detail)
    }

    /// Like [`Match::new`] with a given RNG.
    pub fn with_rng(setup: &Setup, rng: ChaCha8Rng, detail: bool) -> Match {
        let mut m = Match {
            state: State {
                players: Vec::new(),
                list_order: Vec::new(),
                position: Vec::new(),
                rules: setup.rules.clone(),
                reserve: Vec::new(),
                day: 0,
                event: None,
                previous_event: None,
                next_event: None,
                assaulted: Vec::new(),
                winner: None,
                ended_on: None,
                notices: Vec::new(),
                living_by_side: [0; 3],
                living_wolves: 0,
            },
            rng,
            detail,
            today: None,
            reveal_pending: Vec::new(),
            days: Vec::with_capacity(16),
            title: None,
            spare: None,
            pool: Vec::new(),
            night_buf: None,
            next_fixed: None,
            pack: std::sync::Arc::from([]),
        };
        m.deal(setup);
        m
    }

    /// Starts a new game on this match: afterwards it is exactly what
    /// `Match::new(setup, detail)` would be, but the buffers of the old game are reused
    /// (for bulk simulation).
    pub fn renew(&mut self, setup: &Setup, detail: bool) {
        // Seeded in place (the RNG is large: passed on by value, it is copied).
        self.rng = ChaCha8Rng::seed_from_u64(setup.seed);
        self.start_again(setup, detail);
    }

    /// Like [`Match::renew`] with a given RNG (what [`Match::with_rng`] is to [`Match::new`]).
    pub fn renew_with_rng(&mut self, setup: &Setup, rng: ChaCha8Rng, detail: bool) {
        self.rng = rng;
        self.start_again(setup, detail);
    }

    /// [`Match::renew`] once the RNG is set.
    fn start_again(&mut self, setup: &Setup, detail: bool) {
        self.detail = detail;
        if let Some(t) = self.today.take() {
            self.spare = Some(t);
        }
        self.reveal_pending.clear();
        self.next_fixed = None;
        // The old game's records join the pool: the shorter list is moved onto the longer
        // (a record is large, and every move copies it).
        if self.pool.len() < self.days.len() {
            std::mem::swap(&mut self.pool, &mut self.days);
        }
        self.pool.append(&mut self.days);
        self.deal(setup);
    }

    /// Seats the players and deals the items into a match whose buffers may hold an old game.
    fn deal(&mut self, setup: &Setup) {
        let n = setup.seats.len();
        let (st, rng) = (&mut self.state, &mut self.rng);
        st.list_order.clear();
        st.list_order.extend((0..n as u16).map(PlayerId));
        if setup.shuffle {
            draw::shuffle(rng, &mut st.list_order);
        }
        st.position.clear();
        st.position.resize(n, 0);
        for (pos, p) in st.list_order.iter().enumerate() {
            st.position[p.index()] = pos as u16;
        }
        // R-DECK-1: fixed items come out of the deck; the rest is dealt by the seed.
        let deck = &mut st.reserve;
        deck.clear();
        deck.extend_from_slice(&setup.deck);
        let mut blanks = setup.blanks;
        for seat in &setup.seats {
            match seat.item {
                Some(Some(it)) => {
                    if let Some(k) = deck.iter().position(|d| *d == it) {
                        deck.remove(k);
                    }
                }
                Some(None) => blanks = blanks.saturating_sub(1),
                None => {}
            }
        }
        // A deck with `none` cards is dealt as cards (a drawn `none` is no item); the
        // undealt items are the reserve. Without them the reserve itself is dealt from.
        let mut cards: Option<Vec<Option<Item>>> = None;
        if blanks == 0 {
            draw::shuffle(rng, deck);
        } else {
            let mut c: Vec<Option<Item>> = deck.drain(..).map(Some).collect();
            c.extend(std::iter::repeat_n(None, blanks));
            draw::shuffle(rng, &mut c);
            cards = Some(c);
        }
        st.players.truncate(n);
        for (i, s) in setup.seats.iter().enumerate() {
            let dealt = s.item.flatten().map(Held::new);
            let Some(old) = st.players.get_mut(i) else {
                st.players.push(Player {
                    name: s.name.clone(),
                    speech: s.speech.clone(),
                    role: s.role,
                    turned: false,
                    alive: true,
                    item: dealt,
                    died_on_day: None,
                    death: None,
                    spent: Spent::default(),
                    role_public: false,
                });
                continue;
            };
            // A seat of the old game is set as a fresh one, field by field, keeping its
            // buffers: a new game of a simulation seats the same names again.
            let Player { name, speech, role, turned, alive, item, died_on_day, death, spent, role_public } = old;
            if *name != s.name {
                name.clear();
                name.push_str(&s.name);
            }
            if *speech != s.speech {
                speech.clone_from(&s.speech);
            }
            *role = s.role;
            *turned = false;
            *alive = true;
            *item = dealt;
            *died_on_day = None;
            *death = None;
            *spent = Spent::default();
            *role_public = false;
        }
        for k in 0..n {
            let p = st.list_order[k];
            if setup.seats[p.index()].item.is_none() {
                st.players[p.index()].item = match cards.as_mut() {
                    None => st.reserve.pop(),
                    Some(c) => c.pop().flatten(),
                }
                .map(Held::new);
            }
        }
        if let Some(c) = cards {
            st.reserve.extend(c.into_iter().flatten());
        }
        st.rules = setup.rules.clone();
        st.day = 0;
        st.event = None;
        st.previous_event = None;
        st.next_event = None;
        st.assaulted.clear();
        st.assaulted.resize(n, false);
        st.winner = None;
        st.ended_on = None;
        st.notices.clear();
        st.notices.reserve(4 * n);
        st.count_living();
        // The pack's list, one for all the packmates' notices. The old game's list is
        // refilled in place when the notices just cleared were its only holders and it has
        // the room (a simulation deals as many werewolves every game): no allocation.
        let wolves = st.list_order.iter().copied().filter(|p| st.player(*p).role.side() == Side::Werewolves);
        if !std::sync::Arc::get_mut(&mut self.pack).is_some_and(|slots| refill(slots, wolves.clone())) {
            self.pack = wolves.collect();
        }
        for k in 0..n {
            let p = st.list_order[k];
            let pl = st.player(p);
            let (role, item) = (pl.role, pl.item);
            st.notify(p, NoticeKind::Role(role));
            st.notify(p, NoticeKind::Item { item, source: ItemSource::Dealt });
            if role.side() == Side::Werewolves {
                st.notify(p, NoticeKind::Pack(self.pack.clone()));
            }
        }
        st.turn_halfbloods(&mut Log::new(false), Step::Opening);
        self.title = setup.title.clone();
    }

    /// Finds a player by name: a look-alike of a player's name is that player
    /// ([`SeatName`]: case, `ё` = `е`, Latin look-alikes, invisible characters, spaces).
    pub fn find(&self, name: &str) -> Option<PlayerId> {
        let key = SeatName::key_of(name);
        self.state.players.iter().position(|p| SeatName::key_of(&p.name) == key).map(|i| PlayerId(i as u16))
    }

    /// The state of the game now (read only: only the engine changes it).
    #[inline]
    pub fn state(&self) -> &State {
        &self.state
    }

    pub fn winner(&self) -> Option<Winner> {
        self.state.winner
    }

    /// The open day, if any.
    pub fn today(&self) -> Option<&Today> {
        self.today.as_deref()
    }

    /// The record of day `day` as far as it is public now: the closed day's record, or
    /// the open day's record once its 13:00 stage has run (what the 13:00 bulletin shows).
    pub fn record(&self, day: u32) -> Option<&DayRecord> {
        if let Some(r) = self.days.get((day as usize).checked_sub(1)?) {
            return Some(r);
        }
        self.today.as_ref().filter(|t| t.record.day == day && t.phase == Phase::Afternoon).map(|t| &t.record)
    }

    /// Opens the next day at 22:00: its event (fixed or drawn), Tsunami's re-deal, the
    /// Choose me! draw (R-CHOOSE-1).
    pub fn open_day(&mut self, plan: &DayPlan) -> Result<(), ResolveError> {
        let day = self.state.day + 1;
        if let Some(w) = self.state.winner {
            return Err(ResolveError::AfterEnd {
                day,
                ended: self.state.ended_on.unwrap_or(self.state.day),
                winner: w.id().into(),
                winner_ru: w.ru().into(),
            });
        }
        if self.today.is_some() {
            self.close_day()?;
            return self.open_day(plan);
        }
        let st = &mut self.state;
        st.previous_event = st.event;
        st.day = day;
        let drawn = if day == 1 { draw::draw_event(&mut self.rng, &st.rules, None) } else { st.next_event };
        let event = plan.event.unwrap_or(drawn);
        st.event = event;
        // R-NIGHT-1 and Solar eclipse: last night's dead are revealed this morning, unless hidden.
        for &p in &self.reveal_pending {
            st.player_mut(p).role_public = event != Some(Event::SolarEclipse);
        }
        self.reveal_pending.clear();
        let mut today = match self.spare.take() {
            Some(mut t) => {
                t.reset(st.players.len(), day, event, self.detail);
                t
            }
            None => Box::new(Today::new(st.players.len(), day, event, self.detail)),
        };
        // Most days fix no tie break (a simulation's never do): the queue is left alone then.
        if !plan.tie_breaks.is_empty() {
            today.tie_breaks.extend(plan.tie_breaks.iter().copied());
        }
        // A fix the day's event gives nothing to decide is noted, never ignored in silence.
        if plan.chosen.is_some() && event != Some(Event::ChooseMe) {
            today.record.unused_fixes.push("chosen");
        }
        if plan.deal.is_some() && event != Some(Event::Tsunami) {
            today.record.unused_fixes.push("deal");
        }
        today.log.add(Step::Opening, || match event {
            Some(e) => format!("День {day}. Событие: {} — {}", e.ru(), e.meaning_ru()),
            None => format!("День {day}. Без события."),
        });
        self.today = Some(today);
        match event {
            Some(Event::Tsunami) => self.tsunami(plan)?,
            Some(Event::ChooseMe) => self.choose(plan)?,
            _ => {}
        }
        Ok(())
    }

    /// Checks an order against the state now, without recording it.
    pub fn check(&self, order: &Order) -> Result<(), Refusal> {
        match &self.today {
            None => Err(if self.state.winner.is_some() { Refusal::GameOver } else { Refusal::Late }),
            Some(t) => day::check(&self.state, t, order.by, order.at, &order.command),
        }
    }

    /// Takes an order sent at `order.at` (R-ORDER-1): checked now against the state;
    /// a refused one is listed in the day's `rejected` and changes nothing. An order
    /// after 13:00 first runs the 13:00 stage if it has not run.
    pub fn submit(&mut self, order: &Order) -> Result<(), Refusal> {
        // Anything sent after 13:00 — a late order too — comes after the 13:00 stage.
        if order.at > Clock::MIDDAY {
            self.midday_stage();
        }
        let Some(today) = self.today.as_mut() else {
            return Err(if self.state.winner.is_some() { Refusal::GameOver } else { Refusal::Late });
        };
        match day::check(&self.state, today, order.by, order.at, &order.command) {
            Ok(()) => {
                day::accept(&mut self.state, today, order.by, &order.command);
                Ok(())
            }
            Err(r) => {
                today.reject(order, r);
                Ok::<(), Refusal>(()).and(Err(r))
            }
        }
    }

    /// Like [`Match::submit`], but a refused order is not listed in the day's `rejected`:
    /// for drivers (the bots) that only send what [`Match::check`] takes.
    pub fn try_submit(&mut self, order: &Order) -> Result<(), Refusal> {
        self.try_send(order.by, order.at, &order.command)
    }

    /// [`Match::try_submit`] of the order `command` sent by `by` at `at`, without making an
    /// [`Order`] (the bots send their commands straight from their buffer).
    #[inline]
    pub fn try_send(&mut self, by: Actor, at: Clock, command: &Command) -> Result<(), Refusal> {
        if at > Clock::MIDDAY {
            self.midday_stage();
        }
        let Some(today) = self.today.as_mut() else {
            return Err(if self.state.winner.is_some() { Refusal::GameOver } else { Refusal::Late });
        };
        day::check(&self.state, today, by, at, command)?;
        day::accept(&mut self.state, today, by, command);
        Ok(())
    }

    /// Runs the 13:00 stage now, if it has not run today (R-EVENT-1).
    #[inline]
    pub fn midday_stage(&mut self) {
        // The check is inlined (every afternoon order makes it); the stage itself is not.
        if self.today.as_ref().is_some_and(|t| t.phase == Phase::Morning) {
            self.run_midday_stage();
        }
    }

    #[inline(never)]
    fn run_midday_stage(&mut self) {
        if let Some(today) = self.today.as_mut() {
            crate::midday::run(&mut self.state, today, &mut self.rng);
            today.phase = Phase::Afternoon;
        }
    }

    /// The 21:00 resolution of the open day: steps 1–21 of RULES.md, in order.
    pub fn close_day(&mut self) -> Result<&DayRecord, ResolveError> {
        let next_fixed = self.next_fixed.take();
        self.midday_stage();
        let Some(mut today) = self.today.take() else {
            return Err(ResolveError::NoDay { day: self.state.day });
        };
        let mut r = crate::resolution::Resolution { st: &mut self.state, day: &mut today, rng: &mut self.rng };

        // Steps 1–7: the day vote and the lynch.
        let shocks = r.step_1_finalise_day_items();
        r.step_2_event_corrections();
        let mut votes = r.step_3_item_corrections(shocks);
        r.step_4_authority(&mut votes);
        r.count(&mut votes);
        let mut places = r.step_5_trap_fang_sheep_skin(&votes)?;
        r.step_6_bomb(&votes, &mut places)?;
        r.step_7_rage_and_lynch(votes, places)?;
        let mut over = r.check_win(Step::RageAndLynch);

        // Steps 8–20: the night, unless the lynch ended the game.
        if !over {
            r.day.record.night = true;
            let mut night = r.collect_night(self.night_buf.take());
            r.step_8_fog_night(&mut night);
            r.step_9_voodoo(&mut night);
            r.step_10_witch(&mut night);
            r.step_11_sleepwalker(&mut night);
            r.step_12_werewolves(&mut night);
            r.step_13_untouchable(&mut night);
            r.step_14_moon_fern(&mut night);
            r.step_15_seer(&mut night);
            r.step_16_black_glasses(&mut night);
            r.step_17_maniac(&mut night);
            r.step_18_camo_robe(&mut night);
            r.step_19_hamster(&mut night);
            r.step_20_nurse(&mut night);
            r.apply_night_deaths(&night, &mut self.reveal_pending);
            self.night_buf = Some(night);
            over = r.check_win(Step::Nurse) || r.check_max_days();
            // Step 21: the next day's event.
            if !over {
                r.step_21_next_event(next_fixed);
            }
        }
        // R-SPIRIT-1: the one who asked is told the answer privately too.
        if let (Some((by, _)), Some(a)) = (&today.record.question, today.answer) {
            self.state.notify(*by, NoticeKind::Answer(a));
        }
        if over {
            for p in &mut self.state.players {
                p.role_public = true;
            }
            self.reveal_pending.clear();
        }
        if !today.tie_breaks.is_empty() {
            today.record.unused_fixes.push("tie_break");
        }
        let t = &mut *today;
        let record = &mut t.record;
        record.log = std::mem::take(&mut t.log.entries);
        record.winner = self.state.winner;
        record.next_event = if over { None } else { self.state.next_event };
        if self.detail {
            record.snapshot = self
                .state
                .list_order
                .iter()
                .map(|&id| {
                    let p = self.state.player(id);
                    Snapshot {
                        id,
                        role: p.role,
                        turned: p.turned,
                        alive: p.alive,
                        item: p.item,
                        role_public: p.role_public,
                    }
                })
                .collect();
        }
        // The record goes to the days, and the day's buffer becomes a pooled record (its
        // buffers kept): swapped in place rather than moved through the stack.
        self.days.push(self.pool.pop().unwrap_or_default());
        std::mem::swap(self.days.last_mut().expect("just pushed"), &mut today.record);
        self.spare = Some(today);
        Ok(self.days.last().expect("just pushed"))
    }

    /// The next day's event as the game file fixes it (`Some(None)`: no event), known
    /// before the open day closes: step 21 then names it, in the log and the report's
    /// `next_event`, as the next evening newspaper will (GAME_FILE.md).
    pub fn fix_next_event(&mut self, event: Option<Option<Event>>) {
        self.next_fixed = event;
    }

    /// Plays a whole day of a game file: opens it, takes its orders by time (the 13:00
    /// stage between those up to 13:00 and the later ones), and resolves it.
    pub fn play_day(&mut self, plan: &DayPlan) -> Result<(), ResolveError> {
        self.open_day(plan)?;
        let mut idx: Vec<usize> = (0..plan.orders.len()).collect();
        idx.sort_by_key(|&i| plan.orders[i].at);
        for i in idx {
            let _ = self.submit(&plan.orders[i]);
        }
        self.close_day().map(|_| ())
    }

    /// Tsunami (RULES.md §5, R-TSUNAMI-1): the items of the living are gathered and dealt again.
    fn tsunami(&mut self, plan: &DayPlan) -> Result<(), ResolveError> {
        let today = self.today.as_mut().expect("the day is open");
        let st = &mut self.state;
        // The items of the living in list order, gathered into the day's buffer (kept from
        // day to day) and dealt again in place.
        let mut dealt = std::mem::take(&mut today.deal_buf);
        dealt.clear();
        dealt.extend(st.living().map(|p| st.player(p).item));
        match &plan.deal {
            None => draw::shuffle(&mut self.rng, &mut dealt),
            Some(deal) => {
                let day = st.day;
                let bad = |ru: String, en: String| ResolveError::BadDeal { day, ru, en };
                let living: Vec<PlayerId> = st.living().collect();
                let mut pool = std::mem::take(&mut dealt);
                for p in &living {
                    let Some((_, it)) = deal.iter().find(|(q, _)| q == p) else {
                        return Err(bad(
                            format!("пропускает живого игрока «{}»", st.name(*p)),
                            format!("gives nothing to {}, who is alive", st.name(*p)),
                        ));
                    };
                    // Two items of one kind keep their states in list order.
                    let Some(k) = pool.iter().position(|h| h.map(|h| h.item) == *it) else {
                        let what = it.map_or("none", |i| i.id());
                        return Err(bad(
                            format!("даёт {what} игроку «{}», но такой вещи не собирали", st.name(*p)),
                            format!("gives {what} to {}, but that item was not gathered", st.name(*p)),
                        ));
                    };
                    dealt.push(pool.remove(k));
                }
                if let Some((q, _)) = deal.iter().find(|(q, _)| !st.alive(*q)) {
                    return Err(bad(
                        format!("называет «{}» — этого игрока уже нет в игре", st.name(*q)),
                        format!("names {}, who is not alive", st.name(*q)),
                    ));
                }
            }
        }
        let mut items = dealt.iter();
        for k in 0..st.list_order.len() {
            let p = st.list_order[k];
            if !st.alive(p) {
                continue;
            }
            let h = *items.next().expect("an item for each of the living");
            st.player_mut(p).item = h;
            st.notify(p, NoticeKind::Item { item: h, source: ItemSource::Tsunami });
        }
        today.deal_buf = dealt;
        today.record.tsunami = true;
        today.log.add(Step::Opening, || "Цунами: вещи живых игроков собраны и розданы заново".to_string());
        Ok(())
    }

    /// Choose me! (R-CHOOSE-1): the chosen player is drawn when the day opens.
    fn choose(&mut self, plan: &DayPlan) -> Result<(), ResolveError> {
        let today = self.today.as_mut().expect("the day is open");
        let st = &self.state;
        let chosen = match plan.chosen {
            Some(c) if st.alive(c) => c,
            Some(c) => return Err(ResolveError::ChosenNotAlive { day: st.day, name: st.name(c).into() }),
            // The draw `draw::pick` makes from the living, without collecting them.
            None => {
                let n = st.living().count();
                if n == 0 {
                    return Ok(());
                }
                st.living().nth(draw::index(&mut self.rng, n)).expect("an index below the living count")
            }
        };
        today.chosen = Some(chosen);
        today.sent[chosen.index()].immune = true;
        today.record.chosen = Some(chosen);
        today.log.add(Step::Opening, || crate::ru::say::chosen(st.who(chosen)).to_string());
        Ok(())
    }
}

/// Plays a game file through, returning the match (for callers that want the records).
pub fn play(game: &Game, detail: bool) -> Result<Match, ResolveError> {
    let mut m = Match::new(&game.setup, detail);
    for (i, plan) in game.days.iter().enumerate() {
        // A day written after the end with no orders in it (a host writing ahead) is
        // passed over; orders after the end are an error (GAME_FILE.md).
        if m.winner().is_some() && plan.orders.is_empty() {
            continue;
        }
        m.fix_next_event(game.days.get(i + 1).and_then(|next| next.event));
        m.play_day(plan)?;
    }
    Ok(m)
}

impl Match {
    /// Whether `p` is alive and holds a charged `item` that works today.
    pub fn item_works(&self, p: PlayerId, item: Item) -> bool {
        self.state.holds_charged(p, item) && self.today.as_ref().is_none_or(|t| t.items_work())
    }
}
