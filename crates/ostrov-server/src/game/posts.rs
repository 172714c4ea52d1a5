//! The discussion's record: a post as the game keeps it ([`Posted`]) and the counters of
//! the posts ([`Counts`]).

use std::collections::HashMap;

use super::event::{Post, Room};

/// A post in the game's record.
#[derive(Clone, Debug, PartialEq)]
pub struct Posted {
    pub at: i64,
    pub day: u32,
    pub post: Post,
    /// Its number in its room, from 1: what readers see (the thread's numbers never count
    /// the pack's posts between them, O-THREAD-5).
    pub shown: usize,
    /// Flagged by the host.
    pub flagged: bool,
    /// The automatic Palms bloom flag was dismissed by the host.
    pub dismissed: bool,
    /// How many times the host withdrew a flag on it (O-FLAG-1): a flag after a withdrawal
    /// is a new request, not a resend of the first.
    pub withdrawn: u32,
}

impl Posted {
    /// An automatic Palms bloom flag that still stands.
    pub fn palms_standing(&self) -> bool {
        !self.post.banned.is_empty() && !self.dismissed
    }
}

/// The discussion's counters: posts by account and day, posts by room.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub(super) by_author: HashMap<(u32, i64), usize>,
    pub(super) thread: usize,
    pub(super) pack: usize,
    pub(super) spectators: usize,
}

impl Counts {
    /// How many posts `user` wrote on day `day`.
    pub fn by(&self, day: u32, user: i64) -> usize {
        self.by_author.get(&(day, user)).copied().unwrap_or(0)
    }

    /// How many posts the game holds, both rooms.
    pub fn all(&self) -> usize {
        self.thread + self.pack
    }

    /// How many posts spectators wrote.
    pub fn by_spectators(&self) -> usize {
        self.spectators
    }

    /// How many posts room `room` holds.
    pub fn in_room(&self, room: Room) -> usize {
        match room {
            Room::Thread => self.thread,
            Room::Pack => self.pack,
        }
    }
}
