//! Seat bots in the fold (issue 32): the host seats bots in free seats of the lobby and may
//! take them back before the start; once the game runs, each living bot has its rounds of
//! the day — the event acts before 13:00, a post in the thread, the votes and night orders
//! before 20:00 — at times drawn from the game's seed on the game's own schedule.
//! What a bot sends is the service's ([`crate::service::bots`]): through the same checks as
//! anyone's order or post.

use super::change::Change;
use super::event::{BotSeat, MAX_SLOTS};
use super::state::{state, GameState, Member, Refused, Status};
use crate::schedule::GRACE;

/// The most bots one game may ever seat (taken back ones count): what the lobby's log
/// keeps of them stays bounded.
pub const MAX_BOTS_ADDED: usize = 2 * MAX_SLOTS;

/// A bot's round of the day.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Round {
    /// Before 13:00, on a day whose event takes acts then: the event acts.
    Morning = 0,
    /// A post in the day's thread.
    Talk = 1,
    /// After 13:00 and before 20:00: the votes, the night order, the items.
    Orders = 2,
}

impl Round {
    const ALL: [Round; 3] = [Round::Morning, Round::Talk, Round::Orders];
}

/// The id of the `k`-th bot seated in game `game`: negative, so no account has it, and
/// different in every game (the pace of posts is kept per id).
pub fn bot_user(game: i64, k: usize) -> i64 {
    -(game * 1000 + k as i64 + 1)
}

/// A draw in `0..n` (`n > 0`) from the game's seed, the day, the seat and the round:
/// SplitMix64, so the same game draws the same times.
fn draw(seed: u64, day: u32, seat: usize, round: Round, n: i64) -> i64 {
    let key = ((day as u64) << 32) | ((seat as u64) << 8) | round as u64;
    (ostrov_bots::game_seed(seed, key) % n.max(1) as u64) as i64
}

impl GameState {
    /// Whether bots may be seated now, and the members they become: a lobby with that many
    /// free seats, each bot with the next id and a free name.
    pub(super) fn decide_bots(&self, bots: &[BotSeat]) -> Result<Change, Refused> {
        if self.status != Status::Lobby {
            return Err(state("started", "Игра уже началась: ботов можно посадить только до начала."));
        }
        let free = self.config.slots.saturating_sub(self.members.len());
        if bots.is_empty() || bots.len() > free {
            return Err(state("bad_count", format!("Свободных мест: {free}. Ботов можно посадить от 1 до {free}.")));
        }
        if self.bots_added + bots.len() > MAX_BOTS_ADDED {
            return Err(state(
                "too_many_bots",
                format!("В одной игре можно посадить не больше {MAX_BOTS_ADDED} ботов."),
            ));
        }
        let mut members: Vec<Member> = Vec::with_capacity(bots.len());
        for (k, b) in bots.iter().enumerate() {
            if b.user != bot_user(self.id, self.bots_added + k) || !matches!(b.gender.as_str(), "m" | "f") {
                return Err(state("bad_bot", "Неверная запись о боте."));
            }
            let key = ostrov_engine::skeleton(&b.name);
            if members.iter().any(|m| ostrov_engine::skeleton(&m.name) == key) {
                return Err(state("name_taken", format!("Имя «{}» в этой игре уже занято.", b.name)));
            }
            let name = self.seat_name(&b.name)?;
            members.push(Member { user: b.user, name, bot: Some(b.gender.clone()) });
        }
        Ok(Change::Bots(members))
    }

    pub(super) fn evolve_bots(&mut self, members: Vec<Member>) {
        self.bots_added += members.len();
        self.members.extend(members);
    }

    /// Whether the host may take the bot `name` out of its seat now: in the lobby only.
    pub(super) fn decide_unbot(&self, name: &str) -> Result<Change, Refused> {
        if self.status != Status::Lobby {
            return Err(state("started", "Игра уже началась: бот остаётся на своём месте."));
        }
        let key = ostrov_engine::skeleton(name);
        match self.members.iter().position(|m| ostrov_engine::skeleton(&m.name) == key) {
            Some(i) if self.members[i].is_bot() => Ok(Change::Unseat(i)),
            Some(i) => Err(state("not_bot", format!("«{}» — не бот: убрать можно только бота.", self.members[i].name))),
            None => Err(state("no_seat", format!("В игре нет бота «{}».", ostrov_engine::clean_line(name)))),
        }
    }

    pub(super) fn evolve_unbot(&mut self, seat: usize) {
        self.members.remove(seat);
    }

    /// The seats bots hold, by index.
    pub fn bot_seats(&self) -> impl Iterator<Item = usize> + '_ {
        self.members.iter().enumerate().filter(|(_, m)| m.is_bot()).map(|(i, _)| i)
    }

    /// When the bot of seat `seat` runs `round` on the open day `day`, if it has that
    /// round: drawn from the seed within the day's own times (a calendar day or the fast
    /// clock alike); a forum game's bots do not post. The event acts between a third of
    /// the way to 13:00 and a little before it; the post between the morning and the late
    /// afternoon; the orders between 13:00 and 7/8 of the way to the deadline (20:00 of a
    /// 21:00 deadline).
    pub fn bot_time(&self, day: u32, seat: usize, round: Round) -> Option<i64> {
        let t = self.days.get(day as usize - 1)?;
        let m = self.m.as_ref()?;
        let seed = self.config.seed.unwrap_or(0);
        let span = |from: i64, to: i64, lo: i64, hi: i64| {
            // From `lo`/100 to `hi`/100 of the way from `from` to `to`.
            let len = (to - from).max(0);
            let (a, b) = (from + len * lo / 100, from + len * hi / 100);
            a + draw(seed, day, seat, round, b - a + 1)
        };
        Some(match round {
            Round::Morning => {
                if !ostrov_bots::has_morning(m.state().event()) || t.midday_at >= t.deadline_at {
                    return None;
                }
                span(t.opened_at, t.midday_at, 35, 92)
            }
            // In a forum game the talk is on the forum, where bots do not go (O-FORUM-1).
            Round::Talk if self.forum() => return None,
            Round::Talk => span(t.opened_at, t.deadline_at, 40, 85),
            Round::Orders => span(t.midday_at.min(t.deadline_at), t.deadline_at, 5, 87),
        })
    }

    /// Whether `round` of a bot may run now: the morning's before the 13:00 stage ran, the
    /// orders after it.
    fn bot_round_open(&self, day: u32, round: Round) -> bool {
        let t = &self.days[day as usize - 1];
        match round {
            Round::Morning => !t.midday_done,
            Round::Talk => true,
            Round::Orders => t.midday_done || t.midday_at >= t.deadline_at,
        }
    }

    /// The bot rounds of the open day not run yet, with their times: living bots only.
    fn bot_pending(&self) -> Vec<(i64, usize, Round)> {
        let mut out = Vec::new();
        if self.status != Status::Running || self.paused_at.is_some() {
            return out;
        }
        let (Some(day), Some(m)) = (self.open_day(), self.m.as_ref()) else { return out };
        for seat in self.bot_seats() {
            if !m.state().alive(ostrov_engine::PlayerId(seat as u16)) {
                continue;
            }
            for round in Round::ALL {
                if self.bot_rounds.contains(&(day, seat, round as u8)) {
                    continue;
                }
                if let Some(at) = self.bot_time(day, seat, round) {
                    out.push((at, seat, round));
                }
            }
        }
        out
    }

    /// The bot round due at `now`, the earliest first: (day, seat, round).
    pub fn bot_due(&self, now: i64) -> Option<(u32, usize, Round)> {
        let day = self.open_day()?;
        let deadline = self.deadline(now)?;
        if now >= deadline + GRACE {
            return None;
        }
        let mut due: Vec<_> =
            self.bot_pending().into_iter().filter(|(at, _, r)| *at <= now && self.bot_round_open(day, *r)).collect();
        due.sort();
        due.first().map(|(_, seat, r)| (day, *seat, *r))
    }

    /// When a bot round is next due (for the scheduler's index of due times): a morning
    /// round whose 13:00 stage has run is never due, an afternoon one not before it.
    pub fn next_bot_at(&self) -> Option<i64> {
        let day = self.open_day()?;
        let t = &self.days[day as usize - 1];
        self.bot_pending()
            .into_iter()
            .filter(|(_, _, r)| *r != Round::Morning || !t.midday_done)
            .map(|(at, _, r)| if self.bot_round_open(day, r) { at } else { at.max(t.midday_at + GRACE) })
            .min()
    }
}
