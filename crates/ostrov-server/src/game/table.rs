//! The engine's match on the server, the only module of [`crate::game`] that calls the
//! engine: the start, a day's opening, orders, the 13:00 stage, the 21:00 resolution and
//! the host's fixes of the draws. Whatever the engine could refuse is worked out when the
//! event is decided, on a copy of the match alone, and installed when it is evolved.

use ostrov_engine::{
    Actor, Clock, Command, DayEntry, Game, LegalOrder, Match, OrderEntry, PlayerEntry, PlayerId, Refusal, ResolveError,
    MIN_PLAYERS,
};

use super::change::{Accepted, Change, Opening, Started};
use super::event::{Fix, GameEvent, SeatSpeech};
use super::state::{state, Audience, DayTimes, GameState, PublicNote, Refused, Status};

/// A stored order's `at`.
fn at_of(v: &serde_json::Value) -> Option<Clock> {
    v.as_str().and_then(Clock::parse)
}

/// Why the engine could not play a day, in Russian, for the host.
pub fn resolve_error_ru(e: &ResolveError) -> String {
    match e {
        ResolveError::TieBreakNotTied { day, name, tied } => format!(
            "день {day}: исправленный жребий ничьей называет «{name}», а в ничьей {tied}; \
             исправьте tie_break (пустой список — жребий по зерну)"
        ),
        ResolveError::ChosenNotAlive { day, name } => {
            format!("день {day}: «Выбери меня!» (chosen) называет «{name}», а этот игрок выбыл из игры")
        }
        ResolveError::BadDeal { day, ru, .. } => format!("день {day}: раздача Цунами (deal) не подходит: {ru}"),
        ResolveError::AfterEnd { day, ended, .. } => format!("день {day}: игра уже окончена (в день {ended})"),
        ResolveError::NoDay { day } => format!("день {day} не открыт"),
    }
}

impl GameState {
    /// The match of a running game.
    fn running(&self) -> Result<&Match, Refused> {
        self.m.as_ref().ok_or_else(|| state("not_started", "Игра ещё не началась."))
    }

    fn setup(&self) -> Result<&ostrov_engine::Setup, Refused> {
        Ok(&self.game.as_ref().ok_or_else(|| state("not_started", "Игра ещё не началась."))?.setup)
    }

    pub(super) fn decide_start(
        &self,
        roles: &[String],
        speech: &[SeatSpeech],
        at: i64,
    ) -> Result<Box<Started>, Refused> {
        if self.status != Status::Lobby {
            return Err(state("started", "Игра уже началась."));
        }
        if self.members.len() < MIN_PLAYERS || roles.len() != self.members.len() {
            return Err(state(
                "too_few",
                format!("Для начала нужно хотя бы {MIN_PLAYERS} игрока, а присоединилось {}.", self.members.len()),
            ));
        }
        if !speech.is_empty() && speech.len() != self.members.len() {
            return Err(state("bad_setup", "Пол и формы имён даны не для каждого игрока."));
        }
        let mut file = self.file.clone();
        let none = SeatSpeech::default();
        file.players = self
            .members
            .iter()
            .zip(roles)
            .enumerate()
            .map(|(k, (m, r))| {
                let s = speech.get(k).unwrap_or(&none);
                PlayerEntry {
                    name: m.name.clone(),
                    role: r.clone(),
                    gender: s.gender.clone(),
                    forms: s.forms.clone(),
                    ..Default::default()
                }
            })
            .collect();
        let game = Game::from_file(&file).map_err(|e| state("bad_setup", e.to_string()))?;
        let mut m = Match::new(&game.setup, true);
        let (midday_at, deadline_at) = self.times.day_after_opening(at);
        let before = Box::new(m.clone());
        m.open_day(&game.setup.plan(1, &DayEntry::default()).map_err(|e| state("bad_setup", e.to_string()))?)
            .map_err(|e| state("engine", resolve_error_ru(&e)))?;
        let seats = game.setup.seat_index();
        let day = DayTimes::opened(at, midday_at, deadline_at);
        let dropped = speech.iter().map(|s| s.dropped.clone()).collect();
        Ok(Box::new(Started { file, game, seats, m, before, day, dropped }))
    }

    pub(super) fn evolve_start(&mut self, s: Started, at: i64) {
        self.before_open = Some(s.before);
        self.file = s.file;
        self.seats = s.seats;
        self.game = Some(s.game);
        self.m = Some(s.m);
        self.status = Status::Running;
        self.started_at = Some(at);
        self.days.push(s.day);
        self.dropped_forms = s.dropped;
    }

    pub(super) fn decide_open(
        &self,
        day: u32,
        midday_at: i64,
        deadline_at: i64,
        early: bool,
        at: i64,
    ) -> Result<Box<Opening>, Refused> {
        if self.status != Status::Running || self.open_day().is_some() || day as usize != self.days.len() + 1 {
            return Err(state("not_now", "Сейчас нельзя открыть новый день."));
        }
        // The host opens the next day early between the resolution and its opening time
        // (issue 30, point 3); the scheduler then has nothing left to open.
        if early {
            if self.paused_at.is_some() {
                return Err(state("paused", "Игра на паузе: снимите её с паузы, чтобы открыть следующий день."));
            }
            if self.next_open_at.is_none_or(|o| at >= o) {
                return Err(state("not_now", "Следующий день уже открывается по расписанию."));
            }
        }
        let entry = self.file.days.get(day as usize - 1).cloned().unwrap_or_default();
        let plan = self.setup()?.plan(day, &entry).map_err(|e| state("bad_fix", e.to_string()))?;
        let before = self.running()?.clone();
        let mut m = before.clone();
        m.open_day(&plan).map_err(|e| state("engine", resolve_error_ru(&e)))?;
        let day = DayTimes::opened(at, midday_at, deadline_at);
        Ok(Box::new(Opening { m, before, day, early }))
    }

    pub(super) fn evolve_open(&mut self, o: Opening, at: i64) {
        self.m = Some(o.m);
        self.before_open = Some(Box::new(o.before));
        self.sent_today.clear();
        self.days.push(o.day);
        self.next_open_at = None;
        if o.early {
            let day = self.days.len() as u32;
            let text = format!("Ведущий открыл день {day} досрочно.");
            self.history.push(PublicNote { at, day, text });
        }
    }

    /// Checks an order event without changing anything: what [`GameState::apply`] would say.
    pub fn check_order(&self, day: u32, order: &OrderEntry) -> Result<(), Refused> {
        self.decide_order(day, order).map(|_| ())
    }

    /// The orders `seat` may send at `now` on the open day, with their valid targets: the
    /// engine's [`Match::legal_orders`]. Past 13:00, while the scheduler has not run the
    /// 13:00 stage yet, they are the afternoon's — asked of the match with the stage run,
    /// as [`GameState::check_order`] checks an order sent then. Empty when no day is open
    /// or its deadline (with the grace minute) has passed ([`GameState::order_time`]).
    pub fn legal_orders(&self, seat: PlayerId, now: i64) -> Vec<LegalOrder> {
        self.order_match(now).map_or_else(Vec::new, |m| m.legal_orders(seat))
    }

    /// The match an order sent at `now` is checked against: the match itself, or past
    /// 13:00 before the scheduler ran the 13:00 stage a copy with the stage run; `None`
    /// when no order is taken now. What [`GameState::legal_orders`] asks, once for many
    /// seats (the host's board).
    pub fn order_match(&self, now: i64) -> Option<std::borrow::Cow<'_, Match>> {
        let (Ok((_, at)), Some(m)) = (self.order_time(now), self.m.as_ref()) else { return None };
        if at > Clock::MIDDAY && m.today().is_some_and(|t| t.phase == ostrov_engine::Phase::Morning) {
            let mut m = m.clone();
            m.midday_stage();
            return Some(std::borrow::Cow::Owned(m));
        }
        Some(std::borrow::Cow::Borrowed(m))
    }

    /// An order of the open day, checked by the engine against the state now.
    pub(super) fn decide_order(&self, day: u32, order: &OrderEntry) -> Result<Box<Accepted>, Refused> {
        if self.open_day() != Some(day) {
            return Err(Refused::Rule(if self.status == Status::Over { Refusal::GameOver } else { Refusal::Late }));
        }
        // A log written before `at` was kept in arrival order is put in order here: never
        // earlier than the day's previous order (the same phase either way).
        let mut entry = order.clone();
        let last = self.last_at(day);
        if entry.at.as_ref().and_then(at_of).is_some_and(|a| a < last) {
            entry.at = Some(serde_json::json!(last.to_string()));
        }
        let o = self
            .setup()?
            .order_in(&self.seats, &entry)
            .map_err(|e| state("bad_order", format!("Неверный приказ: {e}.")))?;
        let m = self.running()?;
        // Anything sent after 13:00 comes after the 13:00 stage: checked against the match
        // with the stage run when the scheduler has not run it yet.
        let morning = m.today().is_some_and(|t| t.phase == ostrov_engine::Phase::Morning);
        let after_midday = if o.at > Clock::MIDDAY && morning {
            let mut m = m.clone();
            m.midday_stage();
            m.check(&o).map_err(Refused::Rule)?;
            Some(Box::new(m))
        } else {
            m.check(&o).map_err(Refused::Rule)?;
            None
        };
        Ok(Box::new(Accepted { day, entry, order: o, after_midday }))
    }

    /// Who may see what an accepted order changed (issue 28, point 2): a player's order
    /// is theirs (and the host's); the host's answer to the Spirit is told to the asker
    /// alone until the evening newspaper prints it; the host's penalty and removal are
    /// public (the history, the papers).
    pub(super) fn order_audience(&self, a: &Accepted) -> Audience {
        match (a.order.by, &a.order.command) {
            (Actor::Player(p), _) => Audience::Seat(p.index()),
            (Actor::Host, Command::Answer(_)) => {
                let m = a.after_midday.as_deref().or(self.m.as_ref());
                match m.and_then(|m| m.today()).and_then(|t| t.question.as_ref()) {
                    Some((asker, _)) => Audience::Seat(asker.index()),
                    None => Audience::Host,
                }
            }
            (Actor::Host, _) => Audience::Everyone,
        }
    }

    pub(super) fn evolve_order(&mut self, a: Accepted, at: i64) {
        let Accepted { day, entry, order, after_midday } = a;
        if let Some(m) = after_midday {
            self.m = Some(*m);
        }
        if let Some(m) = self.m.as_mut() {
            let taken = m.submit(&order);
            debug_assert!(taken.is_ok(), "a decided order is taken: {taken:?}");
        }
        *self.sent_today.entry(entry.by.clone()).or_default() += 1;
        let t = &mut self.days[day as usize - 1];
        t.last_at = t.last_at.max(order.at);
        if self.sent_at.len() < day as usize {
            self.sent_at.resize(day as usize, Vec::new());
        }
        self.sent_at[day as usize - 1].push(at);
        if entry.act == "penalty" || entry.act == "remove" {
            let target = entry.target.clone().unwrap_or_default();
            let text = host_note(self.m.as_ref(), entry.act == "penalty", &target, entry.reason.as_deref());
            self.history.push(PublicNote { at, day, text });
        }
        self.day_entry(day).orders.push(entry);
    }

    pub(super) fn decide_midday(&self, day: u32, early: bool) -> Result<Change, Refused> {
        if self.open_day() != Some(day) || self.days[day as usize - 1].midday_done {
            return Err(state("not_now", "Промежуточный этап этого дня уже прошёл."));
        }
        if early && self.paused_at.is_some() {
            return Err(state("paused", "Игра на паузе: снимите её с паузы, чтобы провести этап 13:00."));
        }
        Ok(Change::Midday { day, early })
    }

    pub(super) fn evolve_midday(&mut self, day: u32, early: bool, at: i64) {
        if let Some(m) = self.m.as_mut() {
            m.midday_stage();
        }
        self.days[day as usize - 1].midday_done = true;
        if early {
            let text = format!("Ведущий провёл промежуточный этап (13:00) дня {day} досрочно.");
            self.history.push(PublicNote { at, day, text });
        }
    }

    pub(super) fn decide_resolve(&self, day: u32, early: bool) -> Result<Change, Refused> {
        if self.open_day() != Some(day) {
            return Err(state("not_now", "Этот день уже подведён."));
        }
        let mut m = self.running()?.clone();
        m.close_day().map_err(|e| state("engine", resolve_error_ru(&e)))?;
        Ok(Change::Resolve { day, early, m: Box::new(m) })
    }

    pub(super) fn evolve_resolve(&mut self, day: u32, early: bool, m: Match, at: i64) {
        let over = m.winner().is_some();
        self.m = Some(m);
        self.before_open = None;
        let t = &mut self.days[day as usize - 1];
        t.midday_done = true;
        t.resolved_at = Some(at);
        if over {
            self.status = Status::Over;
        } else {
            // The next day opens at the first opening time after the deadline (after the
            // resolution when the host resolved early); a resolution caught up after
            // downtime opens the next day at once (O-SERVER-3).
            let t = &self.days[day as usize - 1];
            let base = if early { at } else { at.min(t.deadline_at + self.times.grace()) };
            self.next_open_at = Some(self.times.next_open(base));
        }
        if early {
            let text = format!("Ведущий подвёл итоги дня {day} досрочно.");
            self.history.push(PublicNote { at, day, text });
        }
    }

    /// The next standing Palms bloom flag of the open day to become the host penalty
    /// (at the deadline, or before the host resolves early): a `penalty` order against a
    /// living author whose vote is not blocked yet. `None` when there is none left.
    pub fn palms_due(&self, now: i64) -> Option<GameEvent> {
        let day = self.open_day()?;
        let m = self.m.as_ref()?;
        let t = &self.days[day as usize - 1];
        let at = self.times.clock(now, t.deadline_at, t.midday_done);
        self.palms_orders(m, day, at)
            .find(|order| self.decide_order(day, order).is_ok())
            .map(|order| GameEvent::Order { day, order })
    }

    /// The penalty orders the standing Palms bloom flags of day `day` would give now in
    /// match `m`, at game time `at`: one per living author whose vote is not blocked yet.
    fn palms_orders<'a>(&'a self, m: &'a Match, day: u32, at: Clock) -> impl Iterator<Item = OrderEntry> + 'a {
        let today = m.today();
        self.posts.iter().filter(move |p| p.day == day && p.palms_standing()).filter_map(move |p| {
            let seat = m.find(&p.post.name)?;
            if today?.sent.get(seat.index()).is_none_or(|s| s.penalty) || !m.state().alive(seat) {
                return None;
            }
            let words = p.post.banned.iter().map(|w| format!("«{w}»")).collect::<Vec<_>>().join(", ");
            Some(OrderEntry {
                by: "host".into(),
                act: "penalty".into(),
                target: Some(p.post.name.clone()),
                reason: Some(format!("Пальмы цветут, запрещённые слова: {words}")),
                at: Some(serde_json::json!(at.to_string())),
                ..OrderEntry::default()
            })
        })
    }

    /// The open day resolved now on a copy of the match, nothing stored (issue 30, point
    /// 2): the orders in force, the standing Palms bloom flags' penalties as the resolution
    /// would give them first, then the 21:00 resolution with the match's own random draws,
    /// so the resolution that follows with the same orders gives the same result.
    pub fn preview(&self) -> Result<Match, Refused> {
        let day = self.open_day().ok_or_else(|| state("not_open", "Сейчас нет открытого дня."))?;
        let mut m = self.running()?.clone();
        let setup = self.setup()?;
        // One at a time, as the scheduler commits them: each penalty is checked against
        // the match with the ones before it.
        loop {
            let next = self
                .palms_orders(&m, day, Clock::DEADLINE)
                .find_map(|e| setup.order_in(&self.seats, &e).ok().filter(|o| m.check(o).is_ok()));
            let Some(o) = next else { break };
            if m.submit(&o).is_err() {
                break;
            }
        }
        m.close_day().map_err(|e| state("engine", resolve_error_ru(&e)))?;
        Ok(m)
    }

    /// A host's fix of day `day`'s draws, checked against the state it will meet: for the
    /// open day (Choose me! and Tsunami's deal only while it has no orders, the tie-breaks
    /// until it is resolved) the day is replayed from its opening; for the next day its
    /// opening is tried on a copy when nothing can change before it (no day open), and only
    /// its tie-breaks may be fixed while today is still open. A day already resolved is
    /// final (409 `day_resolved`), and so is an event the previous evening newspaper
    /// announced (409 `event_announced`: only day 1's event can be fixed, O-SERVER-5).
    pub(super) fn decide_fix(&self, day: u32, fix: &Fix) -> Result<Change, Refused> {
        if self.status != Status::Running {
            return Err(state("not_now", "Исправлять жребий можно только в идущей игре."));
        }
        if fix.is_empty() {
            return Err(state("empty_fix", "Не указано, какой жребий исправить."));
        }
        let open = self.open_day();
        let next = self.days.len() as u32 + 1;
        if day >= 1 && day < next && open != Some(day) {
            return Err(state(
                "day_resolved",
                format!("День {day} уже подведён: его итоги и газеты окончательны, жребий этого дня изменить нельзя."),
            ));
        }
        if day != next && open != Some(day) {
            return Err(state(
                "not_now",
                format!(
                    "Жребий можно исправить только для открытого дня или для следующего (дня {next}), а не для дня {day}."
                ),
            ));
        }
        if fix.event.is_some() && day >= 2 {
            return Err(state(
                "event_announced",
                format!(
                    "Событие дня {day} объявляет вечерняя газета дня {}: опубликованное не меняется, поэтому \
                     событие можно исправить только в первый день, пока нет ни одного хода.",
                    day - 1
                ),
            ));
        }
        if open == Some(day)
            && !(fix.only_ties() || self.file.days.get(day as usize - 1).is_none_or(|e| e.orders.is_empty()))
        {
            return Err(state(
                "not_now",
                "Событие, «Выбери меня!» и раздачу Цунами открытого дня можно исправить, только пока нет ни одного хода: \
                 они разыгрываются при открытии дня. Жребий ничьей можно исправить до подведения итогов.",
            ));
        }
        if open.is_some() && day == next && !fix.only_ties() {
            return Err(state(
                "not_now",
                format!(
                    "«Выбери меня!» и раздачу Цунами дня {day} можно исправить после подведения итогов дня {}: \
                     до тех пор неизвестно, кто будет жив.",
                    day - 1
                ),
            ));
        }
        let mut entry = self.file.days.get(day as usize - 1).cloned().unwrap_or_default();
        if let Some(e) = &fix.event {
            entry.event = Some(e.clone());
        }
        if let Some(c) = &fix.chosen {
            entry.chosen = Some(c.clone());
        }
        if let Some(t) = &fix.tie_break {
            entry.tie_break = Some(ostrov_engine::OneOrMany::Many(t.clone()));
        }
        if let Some(d) = &fix.deal {
            entry.deal = Some(d.clone());
        }
        let plan = self
            .setup()?
            .plan(day, &entry)
            .map_err(|e| state("bad_fix", format!("Неверное исправление жребия: {e}.")))?;
        let m = self.running()?;
        // A tie-break names a living player (the dead are in no tie).
        if let Some(p) = plan.tie_breaks.iter().find(|p| !m.state().alive(**p)) {
            return Err(state(
                "bad_fix",
                format!(
                    "Неверное исправление жребия: {} уже нет среди живых, а в ничьей бывают только живые.",
                    m.state().name(*p)
                ),
            ));
        }
        // What the day will meet: the open day replayed from its opening, or the next day
        // opened on a copy; while today is open only the names are checked (above).
        let trial = if open == Some(day) {
            Some(self.replayed(day, &entry)?)
        } else if open.is_none() {
            let mut m = m.clone();
            m.open_day(&plan)
                .map_err(|e| state("bad_fix", format!("Неверное исправление жребия: {}.", resolve_error_ru(&e))))?;
            Some(m)
        } else {
            None
        };
        if let Some(t) = &trial {
            let event = t.state().event();
            if plan.chosen.is_some() && event != Some(ostrov_engine::Event::ChooseMe) {
                return Err(state(
                    "bad_fix",
                    format!("В день {day} нет события «Выбери меня!»: исправлять chosen нечего."),
                ));
            }
            if plan.deal.is_some() && event != Some(ostrov_engine::Event::Tsunami) {
                return Err(state("bad_fix", format!("В день {day} нет Цунами: исправлять раздачу (deal) нечего.")));
            }
        }
        let m = if open == Some(day) { trial.map(Box::new) } else { None };
        Ok(Change::Fix { day, entry: Box::new(entry), m })
    }

    pub(super) fn evolve_fix(&mut self, day: u32, entry: DayEntry, m: Option<Box<Match>>) {
        *self.day_entry(day) = entry;
        if let Some(m) = m {
            self.m = Some(*m);
        }
    }

    /// The open day `day` played again from its opening with the day entry `entry`: its
    /// orders in the order they arrived (the file's order), its 13:00 stage if it has run.
    pub(super) fn replayed(&self, day: u32, entry: &DayEntry) -> Result<Match, Refused> {
        let setup = self.setup()?;
        let base = self.before_open.as_ref().ok_or_else(|| state("not_now", "День ещё не открыт."))?;
        let mut m = Match::clone(base);
        let plan =
            setup.plan(day, entry).map_err(|e| state("bad_fix", format!("Неверное исправление жребия: {e}.")))?;
        let bare = ostrov_engine::DayPlan { orders: Vec::new(), ..plan.clone() };
        m.open_day(&bare)
            .map_err(|e| state("bad_fix", format!("Неверное исправление жребия: {}.", resolve_error_ru(&e))))?;
        for o in &plan.orders {
            let _ = m.submit(o);
        }
        if self.days[day as usize - 1].midday_done {
            m.midday_stage();
        }
        Ok(m)
    }
}

/// The history's line for a host's penalty or removal of `target`, the name declined
/// where its forms are known: «нарушение правил Зоей», else «игроком Kot2000» (issue 29,
/// point 4).
pub(crate) fn host_note(m: Option<&ostrov_engine::Match>, penalty: bool, target: &str, reason: Option<&str>) -> String {
    use ostrov_engine::ru::{Case, Phrase};
    let why = reason.map(|r| format!(": {r}")).unwrap_or_default();
    let seat = m.and_then(|m| m.find(target).map(|p| (m, p)));
    let named = |c: Case| match seat {
        Some((m, p)) => Phrase::new().c(m.state().who(p), c).to_string(),
        None => format!("{} {target}", if c == Case::Ins { "игроком" } else { "игрока" }),
    };
    if penalty {
        format!(
            "Ведущий отметил нарушение правил {}{why}; голос этого игрока сегодня не учитывается.",
            named(Case::Ins)
        )
    } else {
        format!("Ведущий исключил из игры {}{why}.", named(Case::Acc))
    }
}
