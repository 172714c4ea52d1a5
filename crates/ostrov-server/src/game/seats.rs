//! Substitutes (issue 30, point 4): the host seats another account in a seat, which keeps
//! its name, role, item, orders, inbox and pack (the engine does not know who plays a
//! seat, so the game file and its report stay the same); and the host's call for one.

use ostrov_engine::PlayerId;

use super::change::Change;
use super::state::{state, GameState, PublicNote, Refused, Replacement, Status};

/// The history's and the newspaper's sentence: «Аню заменяет Новичок.»
pub fn replaced_ru(live: &GameState, seat: usize, by: &str) -> String {
    match &live.m {
        Some(m) if seat < m.state().players().len() => {
            format!("{}.", ostrov_engine::ru::say::substitute(m.state().who(PlayerId(seat as u16)), by))
        }
        _ => format!("Игрока {} заменяет {by}.", live.members.get(seat).map_or("", |m| m.name.as_str())),
    }
}

/// The most substitutes one game may seat (two per seat of the largest game): what a game
/// keeps of them stays bounded.
pub const MAX_REPLACEMENTS: usize = 2 * super::event::MAX_SLOTS;

impl GameState {
    /// The seat `name` names (however it is written), in a running game.
    fn running_seat(&self, name: &str, what: &str) -> Result<usize, Refused> {
        match self.status {
            Status::Lobby => {
                return Err(state("not_started", format!("Игра ещё не началась: {what} — только в идущей игре.")))
            }
            Status::Over => return Err(state("game_over", format!("Игра окончена: {what} не нужна."))),
            Status::Running => {}
        }
        let seat = self.seats.find(name).map(PlayerId::index).filter(|i| *i < self.members.len());
        seat.ok_or_else(|| state("no_seat", format!("В игре нет игрока «{}».", ostrov_engine::clean_line(name))))
    }

    /// Whether the account `user` (`name`) may take seat `seat` now: a running game, a
    /// seat of it, an account that is neither its host nor already seated in it.
    pub(super) fn decide_replace(&self, seat: &str, user: i64, name: &str, at: i64) -> Result<Replacement, Refused> {
        let i = self.running_seat(seat, "замена")?;
        if self.replaced.len() >= MAX_REPLACEMENTS {
            return Err(state(
                "too_many_replacements",
                format!("В одной игре можно сделать не больше {MAX_REPLACEMENTS} замен."),
            ));
        }
        if user == self.host {
            return Err(state("host_cannot_play", "Ведущий не может быть игроком своей игры."));
        }
        if let Some(p) = self.seat_of(user) {
            let held = &self.members[p.index()].name;
            return Err(state("already_joined", format!("{name} уже играет в этой игре за «{held}».")));
        }
        let day = self.open_day().unwrap_or(self.days.len() as u32 + 1);
        Ok(Replacement { seat: i, from: self.members[i].user, to: user, name: name.to_string(), day, at })
    }

    pub(super) fn evolve_replace(&mut self, r: Replacement) {
        let text = replaced_ru(self, r.seat, &r.name);
        self.history.push(PublicNote { at: r.at, day: r.day, text });
        self.members[r.seat].user = r.to;
        self.members[r.seat].bot = None;
        self.wanted.retain(|w| *w != r.seat);
        self.replaced.push(r);
    }

    /// Whether the host may call for a substitute for `seat` (or withdraw the call) now.
    pub(super) fn decide_wanted(&self, seat: &str, wanted: bool) -> Result<Change, Refused> {
        let i = self.running_seat(seat, "замена")?;
        let name = &self.members[i].name;
        match (wanted, self.wanted.contains(&i)) {
            (true, true) => Err(state("already_wanted", format!("Замена для «{name}» уже объявлена."))),
            (false, false) => Err(state("not_wanted", format!("Замена для «{name}» не объявлена."))),
            _ => Ok(Change::Want { seat: i, wanted }),
        }
    }

    pub(super) fn evolve_wanted(&mut self, seat: usize, wanted: bool) {
        if wanted {
            self.wanted.push(seat);
        } else {
            self.wanted.retain(|w| *w != seat);
        }
    }

    /// The latest replacement that took a seat from `user`, if `user` holds no seat now.
    pub fn replaced_from(&self, user: i64) -> Option<&Replacement> {
        self.replaced.iter().rev().find(|r| r.from == user && self.seat_of(user).is_none())
    }

    /// The seats' names the host calls for a substitute for.
    pub fn wanted_seats(&self) -> Vec<String> {
        self.wanted.iter().filter_map(|i| self.members.get(*i)).map(|m| m.name.clone()).collect()
    }
}
