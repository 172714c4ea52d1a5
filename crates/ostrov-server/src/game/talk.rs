//! The game's discussion: the day's thread and the pack's private chat, and the host's
//! flags on their posts. Every check here counts with [`Counts`], never by reading the
//! posts again, so a post costs the same however many the game holds.

use super::change::{Change, Unflag};
use super::event::{Post, Room, MAX_POST, MAX_POSTS_PER_DAY, MAX_POSTS_PER_GAME, MAX_SPECTATOR_POSTS_PER_GAME};
pub use super::posts::{Counts, Posted};
use super::state::{state, GameState, PublicNote, Refused};

impl GameState {
    pub(super) fn decide_post(&self, day: u32, post: &Post, at: i64) -> Result<Posted, Refused> {
        if day as usize != self.days.len() {
            return Err(state("not_now", "Сообщение можно написать только в текущий день."));
        }
        if post.room == Room::Thread && self.forum() {
            return Err(state("forum_game", super::forum::THREAD_OFF));
        }
        let n = post.text.chars().count();
        if post.text.trim().is_empty() || n > MAX_POST {
            return Err(state("bad_post", format!("Сообщение должно быть от 1 до {MAX_POST} символов, а в нём {n}.")));
        }
        // Issue 28, point 11: the whole game's record is bounded, and spectators fill at
        // most part of it.
        if self.post_counts.all() >= MAX_POSTS_PER_GAME {
            return Err(state(
                "game_full",
                format!("В обсуждении этой игры уже {MAX_POSTS_PER_GAME} сообщений: больше оно не принимает."),
            ));
        }
        if post.speaker == "spectator" && self.post_counts.by_spectators() >= MAX_SPECTATOR_POSTS_PER_GAME {
            return Err(state(
                "spectators_full",
                format!(
                    "Зрители уже написали в этой игре {MAX_SPECTATOR_POSTS_PER_GAME} сообщений: больше зрителям \
                     писать нельзя, игроки пишут как прежде."
                ),
            ));
        }
        if self.post_counts.by(day, post.user) >= MAX_POSTS_PER_DAY {
            return Err(state("too_many_posts", format!("Не больше {MAX_POSTS_PER_DAY} сообщений за день.")));
        }
        let shown = self.post_counts.in_room(post.room) + 1;
        Ok(Posted { at, day, post: post.clone(), shown, flagged: false, dismissed: false, withdrawn: 0 })
    }

    pub(super) fn evolve_post(&mut self, p: Posted) {
        *self.post_counts.by_author.entry((p.day, p.post.user)).or_default() += 1;
        if p.post.speaker == "spectator" {
            self.post_counts.spectators += 1;
        }
        match p.post.room {
            Room::Thread => self.post_counts.thread += 1,
            Room::Pack => self.post_counts.pack += 1,
        }
        self.posts.push(p);
    }

    /// The number readers see of the post at `post` in the log (from 0): its place in its
    /// own room, from 1, so the thread's numbers never count the pack's posts (O-THREAD-5).
    pub fn shown_number(&self, post: usize) -> Option<usize> {
        self.posts.get(post).map(|p| p.shown)
    }

    /// A host's flag on the post at `post` (from 0), or the dismissal of its automatic
    /// Palms bloom flag.
    pub(super) fn decide_flag(&self, post: usize, dismiss: bool) -> Result<Change, Refused> {
        let Some(p) = self.posts.get(post) else {
            return Err(state("no_post", "Такого сообщения нет."));
        };
        if dismiss {
            if p.post.banned.is_empty() || p.dismissed || self.open_day() != Some(p.day) {
                return Err(state("not_now", "Снять можно только автоматическую отметку «Пальм» открытого дня."));
            }
        } else if p.flagged {
            return Err(state("already_flagged", "Это сообщение уже отмечено как нарушение."));
        }
        Ok(Change::Flag { post, dismiss })
    }

    pub(super) fn evolve_flag(&mut self, post: usize, dismiss: bool, at: i64) {
        let p = &mut self.posts[post];
        let no = p.shown;
        let text = if dismiss {
            p.dismissed = true;
            format!("Ведущий снял отметку «Пальмы цветут» с сообщения №{no} ({}).", p.post.name)
        } else {
            p.flagged = true;
            format!("Ведущий отметил сообщение №{no} ({}) как нарушение.", p.post.name)
        };
        let day = p.day;
        self.history.push(PublicNote { at, day, text });
    }
}

/// The reason of the penalty a flag gives the author of post `shown` (in its room's
/// numbers): how the flag's penalty order is told from the host's other penalties.
pub fn flag_reason(shown: usize) -> String {
    format!("нарушение в обсуждении, сообщение №{shown}")
}

impl GameState {
    /// The host withdraws their flag on the post at `post` (from 0) before the deadline of
    /// its day (O-FLAG-1): the penalty the flag gave is withdrawn too, the open day played
    /// again from its opening without that order, as a fix of a tie-break replays it.
    pub(super) fn decide_unflag(&self, post: usize) -> Result<Change, Refused> {
        let Some(p) = self.posts.get(post) else {
            return Err(state("no_post", "Такого сообщения нет."));
        };
        if !p.flagged {
            return Err(state("not_flagged", "Это сообщение не отмечено как нарушение: снимать нечего."));
        }
        let Some(day) = self.open_day().filter(|d| *d == p.day) else {
            return Err(state(
                "not_now",
                "Отметку можно снять только до подведения итогов дня, в который написано сообщение.",
            ));
        };
        let reason = flag_reason(p.shown);
        let author = ostrov_engine::fold_name(&p.post.name);
        let entry = self.file.days.get(day as usize - 1).cloned().unwrap_or_default();
        let found = entry.orders.iter().rposition(|o| {
            o.by == "host"
                && o.act == "penalty"
                && o.reason.as_deref() == Some(reason.as_str())
                && o.target.as_deref().is_some_and(|t| ostrov_engine::fold_name(t) == author)
        });
        let penalty = match found {
            Some(i) => {
                let mut without = entry.clone();
                without.orders.remove(i);
                Some((i, Box::new(self.replayed(day, &without)?)))
            }
            None => None,
        };
        Ok(Change::Unflag(Box::new(Unflag { post, penalty })))
    }

    pub(super) fn evolve_unflag(&mut self, u: Unflag, at: i64) {
        let p = &mut self.posts[u.post];
        p.flagged = false;
        p.withdrawn += 1;
        let (day, no, name) = (p.day, p.shown, p.post.name.clone());
        let text = match u.penalty {
            Some((i, m)) => {
                self.m = Some(*m);
                self.day_entry(day).orders.remove(i);
                if let Some(sent) = self.sent_at.get_mut(day as usize - 1).filter(|s| i < s.len()) {
                    sent.remove(i);
                }
                format!("Ведущий снял отметку о нарушении с сообщения №{no} ({name}) и отменил штраф: голос снова учитывается.")
            }
            None => format!("Ведущий снял отметку о нарушении с сообщения №{no} ({name})."),
        };
        self.history.push(PublicNote { at, day, text });
    }
}
