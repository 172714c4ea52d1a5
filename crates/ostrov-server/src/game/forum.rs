//! A forum game (issue 30, point 12): the day's talk is on the community's own forum, in
//! a topic the host links (one for the whole game, or one a day); the thread here is off
//! (the pack's chat stays). What the fold keeps of it: the day's topics the host set.

use super::change::Change;
use super::state::{state, GameState, PublicNote, Refused, Status};
use super::topic::{topic_url, Discussion};

/// Why a post to the thread of a forum game is refused.
pub const THREAD_OFF: &str = "В этой игре обсуждение идёт на форуме, по ссылке на тему на странице игры: \
                              тред здесь выключен.";

impl GameState {
    /// Whether the game's talk is on a forum (the thread is off).
    pub fn forum(&self) -> bool {
        self.config.discussion.is_forum()
    }

    /// The forum topic to link now (O-FORUM-1): the one the host set for the latest day
    /// (the open day, or the next one between a resolution and the opening), else the
    /// game's; `None` in a game without a forum or before any link.
    pub fn forum_topic(&self) -> Option<(Option<u32>, &str)> {
        let game = match &self.config.discussion {
            Discussion::Thread => return None,
            Discussion::Forum(url) => url.as_deref(),
        };
        match self.topics.iter().max_by_key(|(d, _)| *d) {
            Some((d, url)) => Some((Some(*d), url.as_str())),
            None => game.map(|u| (None, u)),
        }
    }

    /// The day whose topic the host sets now: the open day, or the next one between a
    /// resolution and its opening.
    pub fn topic_day(&self) -> u32 {
        self.open_day().unwrap_or(self.days.len() as u32 + 1)
    }

    pub(super) fn decide_topic(&self, day: u32, url: &str) -> Result<Change, Refused> {
        if !self.forum() {
            return Err(state("not_forum", "Обсуждение этой игры идёт в треде на её странице, а не на форуме."));
        }
        match self.status {
            Status::Lobby => return Err(state("not_started", "Игра ещё не началась.")),
            Status::Over => return Err(state("game_over", "Игра окончена: новых дней не будет.")),
            Status::Running => {}
        }
        if day != self.topic_day() {
            return Err(state("not_now", format!("Тему можно дать только для дня {}.", self.topic_day())));
        }
        if topic_url(url, "url").map_err(|e| state("bad_url", e))? != url {
            return Err(state("bad_url", "Ссылка на тему форума (url) не нормализована."));
        }
        Ok(Change::Topic { day, url: url.to_string() })
    }

    pub(super) fn evolve_topic(&mut self, day: u32, url: String, at: i64) {
        match self.topics.iter_mut().find(|(d, _)| *d == day) {
            Some(t) => t.1 = url,
            None => self.topics.push((day, url)),
        }
        let text = format!("Ведущий дал ссылку на тему дня {day} на форуме.");
        self.history.push(PublicNote { at, day, text });
    }
}
