//! A game's settings and the typed events of its append-only log, as they are stored.

use std::collections::BTreeMap;

use ostrov_engine::{Game, GameFile, OrderEntry, PlayerEntry, Role, Roster, RulesEntry, MIN_PLAYERS};
use serde::{Deserialize, Serialize};

use super::topic::Discussion;
use crate::schedule::{Schedule, Times};

/// The most players a server game may have.
pub const MAX_SLOTS: usize = 100;

/// A game's settings, fixed when the host creates it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub title: String,
    /// How many players the game is for.
    pub slots: usize,
    /// Role counts, as `ostrov new --setup` takes them ("werewolf=2,seer,nurse");
    /// `None` or "recommended": the recommended setup for the number of players.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<String>,
    /// The item deck (GAME_FILE.md `deck`); `None`: the default deck.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck: Option<Vec<String>>,
    /// House rules (GAME_FILE.md `[rules]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<RulesEntry>,
    /// The seed of every random draw; chosen by the server when not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Shuffle the list order by the seed.
    #[serde(default)]
    pub shuffle: bool,
    #[serde(default)]
    pub schedule: Schedule,
    /// Who may find the game and read it (O-PRIVATE-1). Not written when open, so a log
    /// written before private games (which has no such key) folds as open, as it was.
    #[serde(default, skip_serializing_if = "Visibility::is_open")]
    pub visibility: Visibility,
    /// Where the day's talk happens (issue 30, point 12): the thread here, or a forum
    /// topic. Not written for the thread, so a log written before forum games folds as it was.
    #[serde(default, skip_serializing_if = "Discussion::is_thread")]
    pub discussion: Discussion,
}

/// Who may find a game and read it (O-PRIVATE-1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// Listed to everyone with «Присоединиться» while seats are free; its page, thread and
    /// newspapers are public to every signed-in user, the newspapers to anyone by link, as
    /// on a forum. The default: what every game was before private games.
    #[default]
    Open,
    /// Not listed but to its host and players; joined only by the invite; its page,
    /// thread, live stream, exports and newspapers only for its host and players (anyone
    /// else gets 404, as for a game that does not exist), the newspapers also to anyone
    /// with the host's unguessable newspaper link.
    Private,
}

impl Visibility {
    pub fn is_open(&self) -> bool {
        *self == Visibility::Open
    }
}

impl Config {
    fn roster(&self) -> Result<Option<Roster>, String> {
        match self.setup.as_deref().map(str::trim) {
            None | Some("") | Some("recommended") => Ok(None),
            Some(s) => Roster::parse(s).map(Some).map_err(|e| format!("Неверный расклад ролей: {e}.")),
        }
    }

    /// The roles for `players` players, in the order dealt by the seed.
    pub fn deal(&self, players: usize) -> Result<Vec<Role>, String> {
        let roster = match self.roster()? {
            Some(r) => r,
            None => Roster::recommended(players).map_err(|e| format!("Нет рекомендуемого расклада: {e}."))?,
        };
        roster.deal(players, self.seed.unwrap_or(0)).map_err(|e| format!("Неверный расклад ролей: {e}."))
    }

    /// Checks everything the host chose, with a Russian message naming what is wrong.
    pub fn check(&self) -> Result<Times, String> {
        let title = self.title.trim();
        if title.is_empty() || title.chars().count() > 120 || title.chars().any(char::is_control) {
            return Err("Название игры должно быть от 1 до 120 символов, без управляющих символов.".into());
        }
        if !(MIN_PLAYERS..=MAX_SLOTS).contains(&self.slots) {
            return Err(format!("Число игроков должно быть от {MIN_PLAYERS} до {MAX_SLOTS}, а не {}.", self.slots));
        }
        let times = self.schedule.check()?;
        self.discussion.check()?;
        self.deal(self.slots)?;
        self.placeholder()?;
        Ok(times)
    }

    /// The game as the engine reads it with placeholder players (all passengers): the
    /// deck and the house rules checked, for the settings' check and the balance hint.
    pub fn placeholder(&self) -> Result<Game, String> {
        let mut file = self.file(&vec![Role::Passenger; self.slots]);
        for (i, p) in file.players.iter_mut().enumerate() {
            p.name = format!("p{i}");
        }
        Game::from_file(&file).map_err(|e| format!("Неверные настройки игры: {e}."))
    }

    /// The game file of this game before any player has joined.
    pub(super) fn file(&self, roles: &[Role]) -> GameFile {
        GameFile {
            title: Some(self.title.trim().to_string()),
            seed: Some(self.seed.unwrap_or(0)),
            deck: self.deck.clone(),
            shuffle: self.shuffle.then_some(true),
            rules: self.rules.clone(),
            players: roles
                .iter()
                .map(|r| PlayerEntry { name: String::new(), role: r.id().to_string(), ..Default::default() })
                .collect(),
            days: Vec::new(),
        }
    }
}

/// A host's fix of a day's random draws (RULES.md §7), in game-file words.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fix {
    /// The day's event ("none" for no event).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// The Choose me! draw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chosen: Option<String>,
    /// The results of the day's random ties, in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tie_break: Option<Vec<String>>,
    /// The Tsunami re-deal: player → item.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal: Option<BTreeMap<String, String>>,
}

impl Fix {
    pub(super) fn is_empty(&self) -> bool {
        self.event.is_none() && self.chosen.is_none() && self.tie_break.is_none() && self.deal.is_none()
    }
    /// Only the tie-breaks may still be fixed once the day has orders: the rest is drawn
    /// when the day opens.
    pub(super) fn only_ties(&self) -> bool {
        self.event.is_none() && self.chosen.is_none() && self.deal.is_none()
    }
}

/// One entry of a game's log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "payload", rename_all = "snake_case")]
pub enum GameEvent {
    /// The host created the game.
    Created(Config),
    /// A user took a seat under a player name.
    Joined { user: i64, name: String },
    /// The host started the game: the roles as dealt by the seed, seat by seat, and how
    /// each seat's name is spoken, from its account's profile at the start (none in a log
    /// written before profiles).
    Started {
        roles: Vec<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        speech: Vec<SeatSpeech>,
    },
    /// A day opened: by the scheduler at its time, or `early`, when the host opened it
    /// between the resolution and the opening time (issue 30, point 3).
    Opened {
        day: u32,
        midday_at: i64,
        deadline_at: i64,
        #[serde(default, skip_serializing_if = "is_false")]
        early: bool,
    },
    /// An accepted order, in game-file words (`by` is the player's name or "host").
    Order { day: u32, order: OrderEntry },
    /// The 13:00 stage ran: at 13:00, or `early`, when the host ran it before.
    Midday {
        day: u32,
        #[serde(default, skip_serializing_if = "is_false")]
        early: bool,
    },
    /// The 21:00 resolution ran (on time, or when the host resolved the day early).
    Resolved { day: u32, early: bool },
    /// The host fixed a random draw of a day.
    Fixed { day: u32, fix: Fix },
    /// The host moved the deadline of the open day.
    Extended { day: u32, deadline_at: i64 },
    /// The host stopped the clock.
    Paused {},
    /// The host started the clock again; pending times move by the pause's length.
    Resumed {},
    /// A post to the game's discussion (the day's thread or the pack's chat), with how its
    /// author spoke when it was sent, as the engine said ([`ostrov_engine::Match::speech`]).
    Posted { day: u32, post: Post },
    /// The host flagged a post as a violation (a player's post also gets the host penalty
    /// of RULES.md §7, a separate `penalty` order).
    Flagged { post: usize },
    /// The host dismissed the automatic Palms bloom flag of a post before the deadline.
    Dismissed { post: usize },
    /// The host seated another account in a seat (issue 30, point 4): the seat keeps its
    /// name, role, item, orders, inbox and pack; the account that held it becomes a
    /// spectator. `seat` is the seat's name, `name` the substitute's account name as it
    /// was then (for the history and the newspaper).
    Replaced { seat: String, user: i64, name: String },
    /// The host's call for a substitute for a seat, on the game page and in the lobby
    /// («Ищем замену …»); `wanted: false` withdraws it (a replacement also does).
    Wanted { seat: String, wanted: bool },
    /// The host withdrew their flag on a post of the open day before the deadline; the
    /// penalty the flag gave (its `penalty` order) is withdrawn with it (O-FLAG-1).
    Unflagged { post: usize },
    /// The host set the forum topic of a day of a forum game (issue 30, point 12): the
    /// open day, or the next one between a resolution and its opening; `url` normalised.
    Topic { day: u32, url: String },
    /// The host seated bots in free seats of the lobby (issue 32), in order.
    BotsAdded { bots: Vec<BotSeat> },
    /// The host took a bot's seat back before the start.
    BotRemoved { name: String },
}

/// A seat bot as the lobby seats it: its own id in this game (negative: no account has
/// it, nobody signs in as it), its name (which says it is a bot: «Бот Глеб») and its
/// grammatical gender (`m` or `f`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BotSeat {
    pub user: i64,
    pub name: String,
    pub gender: String,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A seat's gender and forms of its name, as the game file's `gender` and `forms` take them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatSpeech {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gender: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forms: Option<Vec<String>>,
    /// The profile's forms left out at the start (issue 28, point 6): one of them is, or
    /// looks like, another seat's name or form, or the host's name, or is no form of the
    /// seat's own name. The seat is declined as without a profile; the player is told.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dropped: Vec<String>,
}

/// Where a post is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Room {
    /// The day's thread: everyone reads it.
    Thread,
    /// The pack's private chat: the pack (werewolves and the halfblood) and the host.
    Pack,
}

/// A post as sent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Post {
    pub user: i64,
    /// The player's name in this game, or the account name of a spectator or the host.
    pub name: String,
    pub room: Room,
    /// How the author spoke: `host`, `spectator`, or [`ostrov_engine::Speech::id`].
    pub speaker: String,
    /// The text, one clean line per paragraph.
    pub text: String,
    /// The banned words of a Palms bloom day (R-PALMS-1) found in the text, as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub banned: Vec<String>,
}

/// The longest post, in characters.
pub const MAX_POST: usize = 2000;
/// The most posts one account may send per game day.
pub const MAX_POSTS_PER_DAY: usize = 300;
/// The most posts a game's discussion holds in all (both rooms, every day): what the
/// server keeps in memory and folds at a start stays bounded (issue 28, point 11).
pub const MAX_POSTS_PER_GAME: usize = 20_000;
/// The most of those spectators may write: the rest stay the players', so a flood of
/// spectators cannot close the discussion to the game itself.
pub const MAX_SPECTATOR_POSTS_PER_GAME: usize = 8_000;

impl GameEvent {
    /// The store's `kind` and `payload` of this event.
    pub fn split(&self) -> (String, serde_json::Value) {
        let mut v = serde_json::to_value(self).expect("events serialise");
        let kind = v["kind"].as_str().unwrap_or_default().to_string();
        let payload = v.get_mut("payload").map(serde_json::Value::take).unwrap_or(serde_json::json!({}));
        (kind, payload)
    }

    /// The event of a stored `kind` and `payload`.
    pub fn join(kind: &str, payload: &serde_json::Value) -> Result<GameEvent, String> {
        serde_json::from_value(serde_json::json!({"kind": kind, "payload": payload}))
            .map_err(|e| format!("log entry `{kind}` does not read: {e}"))
    }
}
