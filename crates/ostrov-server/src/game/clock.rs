//! A game's time: each day's 13:00 and deadline, the host's extensions and pauses, the
//! game-day time an order is written with, and what the scheduler runs when.

use ostrov_engine::{Clock, Refusal};

use super::change::Change;
use super::event::GameEvent;
use super::state::{state, GameState, PublicNote, Refused, Status};

impl GameState {
    /// The pause so far, to be added to pending times.
    pub(super) fn pause_shift(&self, now: i64) -> i64 {
        self.paused_at.map_or(0, |p| (now - p).max(0))
    }

    /// The open day's deadline as it stands at `now` (a pause holds it back).
    pub fn deadline(&self, now: i64) -> Option<i64> {
        let d = self.open_day()?;
        Some(self.days[d as usize - 1].deadline_at + self.pause_shift(now))
    }

    /// The scheduler's next event, if one is due at `now`.
    pub fn due(&self, now: i64) -> Option<GameEvent> {
        if self.status != Status::Running || self.paused_at.is_some() {
            return None;
        }
        if let Some(day) = self.open_day() {
            let t = &self.days[day as usize - 1];
            if !t.midday_done && now >= t.midday_at + self.times.grace() && t.midday_at < t.deadline_at {
                return Some(GameEvent::Midday { day, early: false });
            }
            if now >= t.deadline_at + self.times.grace() {
                if let Some(p) = self.palms_due(now) {
                    return Some(p);
                }
                return Some(GameEvent::Resolved { day, early: false });
            }
            return None;
        }
        let open = self.next_open_at?;
        (now >= open).then(|| {
            // Opened late (the server was down): the day gets its whole schedule from now.
            let (midday_at, deadline_at) = self.times.day_after_opening(open.max(now));
            GameEvent::Opened { day: self.days.len() as u32 + 1, midday_at, deadline_at, early: false }
        })
    }

    /// When the scheduler next has something to do (for a sleeping loop): a step, or a
    /// bot's round ([`GameState::next_bot_at`]).
    pub fn next_due(&self) -> Option<i64> {
        if self.status != Status::Running || self.paused_at.is_some() {
            return None;
        }
        let step = self.next_step();
        match self.next_bot_at() {
            Some(b) => Some(step.map_or(b, |s| s.min(b))),
            None => step,
        }
    }

    /// When the scheduler's next step is due.
    fn next_step(&self) -> Option<i64> {
        match self.open_day() {
            Some(day) => {
                let t = &self.days[day as usize - 1];
                Some(if t.midday_done { t.deadline_at } else { t.midday_at.min(t.deadline_at) } + self.times.grace())
            }
            None => self.next_open_at,
        }
    }

    /// The game-day time of the latest order of day `day` (00:00 before any).
    pub(super) fn last_at(&self, day: u32) -> Clock {
        self.days.get(day as usize - 1).map_or(Clock(0), |t| t.last_at)
    }

    /// The open day and the game-day time (`at`) of an order arriving at `now`: the
    /// schedule's wall-clock time in the day's phase ([`crate::schedule::Times::clock`]),
    /// never earlier than the day's previous order, so the game file's order by `at` is the
    /// order of arrival whatever extensions and pauses moved the deadline (the engine takes
    /// equal times in file order). `late` when no day is open or its deadline (with its
    /// grace minute) has passed.
    pub fn order_time(&self, now: i64) -> Result<(u32, Clock), Refused> {
        let late = || Refused::Rule(if self.status == Status::Over { Refusal::GameOver } else { Refusal::Late });
        let day = self.open_day().ok_or_else(late)?;
        let t = &self.days[day as usize - 1];
        let deadline = self.deadline(now).unwrap_or(t.deadline_at);
        if now >= deadline + self.times.grace() {
            return Err(late());
        }
        Ok((day, self.times.clock(now, deadline, t.midday_done).max(self.last_at(day))))
    }

    pub(super) fn decide_extend(&self, day: u32, deadline_at: i64) -> Result<Change, Refused> {
        if self.open_day() != Some(day) {
            return Err(state("not_now", "Продлить можно только открытый день."));
        }
        if deadline_at <= self.days[day as usize - 1].deadline_at {
            return Err(state("bad_deadline", "Новый дедлайн должен быть позже прежнего."));
        }
        Ok(Change::Extend { day, deadline_at })
    }

    pub(super) fn evolve_extend(&mut self, day: u32, deadline_at: i64, at: i64) {
        self.days[day as usize - 1].deadline_at = deadline_at;
        let text = format!("Ведущий продлил день {day} до {}.", self.times.say(deadline_at));
        self.history.push(PublicNote { at, day, text });
    }

    pub(super) fn decide_pause(&self) -> Result<Change, Refused> {
        if self.status != Status::Running || self.paused_at.is_some() {
            return Err(state("not_now", "Игра не идёт или уже на паузе."));
        }
        Ok(Change::Pause)
    }

    pub(super) fn evolve_pause(&mut self, at: i64) {
        self.paused_at = Some(at);
        let day = self.days.len() as u32;
        self.history
            .push(PublicNote { at, day, text: "Ведущий поставил игру на паузу.".into() });
    }

    pub(super) fn decide_resume(&self) -> Result<Change, Refused> {
        if self.paused_at.is_none() {
            return Err(state("not_now", "Игра не на паузе."));
        }
        Ok(Change::Resume)
    }

    /// The clock goes on: pending times move by the pause's length.
    pub(super) fn evolve_resume(&mut self, at: i64) {
        let shift = self.pause_shift(at);
        if let Some(d) = self.open_day() {
            let t = &mut self.days[d as usize - 1];
            if !t.midday_done {
                t.midday_at += shift;
            }
            t.deadline_at += shift;
        }
        if let Some(o) = &mut self.next_open_at {
            *o += shift;
        }
        self.paused_at = None;
        let day = self.days.len() as u32;
        self.history.push(PublicNote { at, day, text: "Ведущий снял игру с паузы.".into() });
    }
}
