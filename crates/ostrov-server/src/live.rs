//! A game on the server: the typed events of its append-only log, and their fold into
//! the game's state. The fold holds no rules: every rule is the engine's ([`Match`]);
//! this only turns log entries into engine calls and keeps the game file that replays them.

use std::collections::{BTreeMap, HashMap};

use ostrov_engine::{
    fold_name, Clock, DayEntry, Game, GameFile, Match, OrderEntry, PlayerEntry, PlayerId, Refusal, ResolveError, Role,
    Roster, RulesEntry, SeatIndex, Winner, MIN_PLAYERS,
};
use serde::{Deserialize, Serialize};

use crate::schedule::{Schedule, Times, GRACE};

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
    fn file(&self, roles: &[Role]) -> GameFile {
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
    fn is_empty(&self) -> bool {
        self.event.is_none() && self.chosen.is_none() && self.tie_break.is_none() && self.deal.is_none()
    }
    /// Only the tie-breaks may still be fixed once the day has orders: the rest is drawn
    /// when the day opens.
    fn only_ties(&self) -> bool {
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
    /// A day opened.
    Opened { day: u32, midday_at: i64, deadline_at: i64 },
    /// An accepted order, in game-file words (`by` is the player's name or "host").
    Order { day: u32, order: OrderEntry },
    /// The 13:00 stage ran.
    Midday { day: u32 },
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
}

/// A seat's gender and forms of its name, as the game file's `gender` and `forms` take them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatSpeech {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gender: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forms: Option<Vec<String>>,
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

/// A post in the game's record.
#[derive(Clone, Debug, PartialEq)]
pub struct Posted {
    pub at: i64,
    pub day: u32,
    pub post: Post,
    /// Flagged by the host.
    pub flagged: bool,
    /// The automatic Palms bloom flag was dismissed by the host.
    pub dismissed: bool,
}

impl Posted {
    /// An automatic Palms bloom flag that still stands.
    pub fn palms_standing(&self) -> bool {
        !self.post.banned.is_empty() && !self.dismissed
    }
}

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

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Players are joining.
    Lobby,
    Running,
    Over,
}

/// A seat and the account that holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    pub user: i64,
    pub name: String,
}

/// The times of one day.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DayTimes {
    pub opened_at: i64,
    pub midday_at: i64,
    pub deadline_at: i64,
    pub midday_done: bool,
    pub resolved_at: Option<i64>,
    /// The game-day time of the day's latest order (00:00 before any).
    pub last_at: Clock,
}

/// A host action the rules make public, for the game's history.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PublicNote {
    pub at: i64,
    pub day: u32,
    pub text: String,
}

/// Why an event cannot be applied.
#[derive(Clone, Debug, PartialEq)]
pub enum Refused {
    /// The engine refuses the order.
    Rule(Refusal),
    /// The event does not fit where the game is; a Russian message.
    State(&'static str, String),
}

/// The fold of a game's log.
#[derive(Clone, Debug)]
pub struct Live {
    pub id: i64,
    pub host: i64,
    pub config: Config,
    pub times: Times,
    pub members: Vec<Member>,
    pub status: Status,
    pub started_at: Option<i64>,
    /// The game file: setup, players, and every day's fixed draws and orders.
    pub file: GameFile,
    pub game: Option<Game>,
    /// The seats by their names' skeletons, made once at the start: an order is checked
    /// against it without computing every seat's skeleton again under the game's lock.
    pub seats: SeatIndex,
    pub m: Option<Match>,
    /// The match as it stood just before the open day opened: a fix of the open day replays
    /// only that day from here, so the days already resolved are never played again.
    pub before_open: Option<Box<Match>>,
    pub days: Vec<DayTimes>,
    /// When the next day opens, between a resolution and the next opening.
    pub next_open_at: Option<i64>,
    pub paused_at: Option<i64>,
    pub history: Vec<PublicNote>,
    /// The discussion: every post, in order.
    pub posts: Vec<Posted>,
    /// The orders each sender has sent on the open day (changes included), by name: what
    /// the cap of orders a day counts without reading the day's orders.
    pub sent_today: HashMap<String, usize>,
    /// The last sequence number folded.
    pub seq: i64,
    /// How many folded events each audience could see the effect of: what the live
    /// stream compares to tell a viewer only of what that viewer may see (issue 28).
    pub changes: ChangeCounts,
    /// Why the game cannot go on by itself, for the host: a scheduler step that fails (the
    /// server retries it). Set by the server, not by the fold.
    pub broken: Option<String>,
    /// Stored entries that no longer apply (a log written by an older server that checked
    /// less), skipped by the fold rather than stopping the game: for the host.
    pub skipped: Vec<String>,
}

/// Who may see what one event changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// Everyone who may look at the game.
    Everyone,
    /// The pack (werewolves and the halfblood, dead or alive) and the host.
    Pack,
    /// One seat (by its index) and the host.
    Seat(usize),
    /// The host alone.
    Host,
}

/// How many folded events each audience could see the effect of. The host sees every
/// event ([`Live::seq`]); a viewer's own count is what [`crate::view::stamp`] reads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChangeCounts {
    pub everyone: u64,
    pub pack: u64,
    /// By seat index.
    pub seats: Vec<u64>,
}

impl ChangeCounts {
    fn count(&mut self, audience: Audience) {
        match audience {
            Audience::Everyone => self.everyone += 1,
            Audience::Pack => self.pack += 1,
            Audience::Seat(i) => {
                if self.seats.len() <= i {
                    self.seats.resize(i + 1, 0);
                }
                self.seats[i] += 1;
            }
            Audience::Host => {}
        }
    }
}

fn state(code: &'static str, msg: impl Into<String>) -> Refused {
    Refused::State(code, msg.into())
}

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

impl Live {
    /// A game from its `created` event.
    pub fn new(id: i64, host: i64, config: Config) -> Result<Live, String> {
        let times = config.check()?;
        let file = config.file(&[]);
        Ok(Live {
            id,
            host,
            config,
            times,
            members: Vec::new(),
            status: Status::Lobby,
            started_at: None,
            file,
            game: None,
            seats: SeatIndex::default(),
            m: None,
            before_open: None,
            days: Vec::new(),
            next_open_at: None,
            paused_at: None,
            history: Vec::new(),
            posts: Vec::new(),
            sent_today: HashMap::new(),
            seq: 0,
            changes: ChangeCounts::default(),
            broken: None,
            skipped: Vec::new(),
        })
    }

    /// Folds a whole log.
    pub fn fold(id: i64, host: i64, log: &[(i64, GameEvent)]) -> Result<Live, String> {
        let Some((_, GameEvent::Created(config))) = log.first() else {
            return Err(format!("game {id}: the log does not start with `created`"));
        };
        let mut live = Live::new(id, host, config.clone())?;
        live.seq = 1;
        for (at, ev) in &log[1..] {
            live.seq += 1;
            if let Err(e) = live.apply_checked(ev, *at) {
                let why = match e {
                    Refused::Rule(r) => r.ru().to_string(),
                    Refused::State(_, m) => m,
                };
                eprintln!("ostrov-server: game {id}, log entry {}: does not apply, skipped: {why}", live.seq);
                live.skipped.push(format!("Запись журнала №{} не применяется и пропущена: {why}", live.seq));
            }
        }
        Ok(live)
    }

    /// The open day's number, if a day is open.
    pub fn open_day(&self) -> Option<u32> {
        let d = self.days.len();
        (self.status == Status::Running && d > 0 && self.days[d - 1].resolved_at.is_none()).then_some(d as u32)
    }

    /// The seat of a user.
    pub fn seat_of(&self, user: i64) -> Option<PlayerId> {
        self.members.iter().position(|m| m.user == user).map(|i| PlayerId(i as u16))
    }

    /// The pause so far, to be added to pending times.
    fn pause_shift(&self, now: i64) -> i64 {
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
            if !t.midday_done && now >= t.midday_at + GRACE && t.midday_at < t.deadline_at {
                return Some(GameEvent::Midday { day });
            }
            if now >= t.deadline_at + GRACE {
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
            GameEvent::Opened { day: self.days.len() as u32 + 1, midday_at, deadline_at }
        })
    }

    /// When the scheduler next has something to do (for a sleeping loop).
    pub fn next_due(&self) -> Option<i64> {
        if self.status != Status::Running || self.paused_at.is_some() {
            return None;
        }
        match self.open_day() {
            Some(day) => {
                let t = &self.days[day as usize - 1];
                Some(if t.midday_done { t.deadline_at } else { t.midday_at.min(t.deadline_at) } + GRACE)
            }
            None => self.next_open_at,
        }
    }

    /// The name of the seat `name` names, however it is written (a look-alike of a seat's
    /// name is that seat); `None` before the start or when no seat matches.
    pub fn seated_as(&self, name: &str) -> Option<&str> {
        let seat = self.seats.find(name)?;
        Some(self.game.as_ref()?.setup.seats.get(seat.index())?.name.as_str())
    }

    fn setup(&self) -> &ostrov_engine::Setup {
        &self.game.as_ref().expect("a started game").setup
    }

    fn day_entry(&mut self, day: u32) -> &mut DayEntry {
        while self.file.days.len() < day as usize {
            self.file.days.push(DayEntry::default());
        }
        &mut self.file.days[day as usize - 1]
    }

    /// Checks an order event without changing anything: what [`Live::apply`] would say.
    pub fn check_order(&self, day: u32, order: &OrderEntry) -> Result<(), Refused> {
        if self.open_day() != Some(day) {
            return Err(Refused::Rule(if self.status == Status::Over { Refusal::GameOver } else { Refusal::Late }));
        }
        let o = self
            .setup()
            .order_in(&self.seats, order)
            .map_err(|e| state("bad_order", format!("Неверный приказ: {e}.")))?;
        self.m.as_ref().expect("a running game has a match").check(&o).map_err(Refused::Rule)
    }

    /// [`Live::apply`], leaving the game as it was when the event is refused (an order is
    /// checked by the engine first, anything else is applied to a copy).
    pub fn apply_checked(&mut self, ev: &GameEvent, at: i64) -> Result<(), Refused> {
        if let GameEvent::Order { day, order } = ev {
            self.check_order(*day, order)?;
            return self.apply(ev, at);
        }
        let mut next = self.clone();
        next.apply(ev, at)?;
        *self = next;
        Ok(())
    }

    /// Applies one event at time `at`. On an error nothing has changed that matters: the
    /// server applies events to a copy first and keeps it only when this succeeds.
    pub fn apply(&mut self, ev: &GameEvent, at: i64) -> Result<(), Refused> {
        let audience = self.apply_event(ev, at)?;
        self.changes.count(audience);
        Ok(())
    }

    /// [`Live::apply`]'s work; says who may see what the event changed.
    fn apply_event(&mut self, ev: &GameEvent, at: i64) -> Result<Audience, Refused> {
        let mut audience = Audience::Everyone;
        match ev {
            GameEvent::Created(_) => return Err(state("created", "Игра уже создана.")),
            GameEvent::Joined { user, name } => self.join(*user, name)?,
            GameEvent::Started { roles, speech } => self.start(roles, speech, at)?,
            GameEvent::Opened { day, midday_at, deadline_at } => {
                if self.status != Status::Running || self.open_day().is_some() || *day as usize != self.days.len() + 1 {
                    return Err(state("not_now", "Сейчас нельзя открыть новый день."));
                }
                let entry = self.day_entry(*day).clone();
                let plan = self.setup().plan(*day, &entry).map_err(|e| state("bad_fix", e.to_string()))?;
                let m = self.m.as_mut().expect("a running game has a match");
                let before = Box::new(m.clone());
                m.open_day(&plan).map_err(|e| state("engine", resolve_error_ru(&e)))?;
                self.before_open = Some(before);
                self.sent_today.clear();
                self.days.push(DayTimes {
                    opened_at: at,
                    midday_at: *midday_at,
                    deadline_at: *deadline_at,
                    midday_done: false,
                    resolved_at: None,
                    last_at: Clock(0),
                });
                self.next_open_at = None;
            }
            GameEvent::Order { day, order } => {
                if self.open_day() != Some(*day) {
                    return Err(Refused::Rule(if self.status == Status::Over {
                        Refusal::GameOver
                    } else {
                        Refusal::Late
                    }));
                }
                // A log written before `at` was kept in arrival order is put in order here:
                // never earlier than the day's previous order (the same phase either way).
                let mut order = order.clone();
                let last = self.last_at(*day);
                if order.at.as_ref().and_then(at_of).is_some_and(|a| a < last) {
                    order.at = Some(serde_json::json!(last.to_string()));
                }
                let order = &order;
                let o = self
                    .setup()
                    .order_in(&self.seats, order)
                    .map_err(|e| state("bad_order", format!("Неверный приказ: {e}.")))?;
                let m = self.m.as_mut().expect("a running game has a match");
                m.submit(&o).map_err(Refused::Rule)?;
                // A player's order is theirs and the host's (a host's order is public:
                // its effects are in the history and the papers).
                if let ostrov_engine::Actor::Player(p) = o.by {
                    audience = Audience::Seat(p.index());
                }
                self.day_entry(*day).orders.push(order.clone());
                *self.sent_today.entry(order.by.clone()).or_default() += 1;
                let t = &mut self.days[*day as usize - 1];
                t.last_at = t.last_at.max(o.at);
                if order.act == "penalty" || order.act == "remove" {
                    let target = order.target.clone().unwrap_or_default();
                    let why = order.reason.as_deref().map(|r| format!(": {r}")).unwrap_or_default();
                    let text = if order.act == "penalty" {
                        format!("Ведущий отметил нарушение правил игроком {target}{why}; голос этого игрока сегодня не учитывается.")
                    } else {
                        format!("Ведущий исключил из игры игрока {target}{why}.")
                    };
                    self.history.push(PublicNote { at, day: *day, text });
                }
            }
            GameEvent::Midday { day } => {
                if self.open_day() != Some(*day) || self.days[*day as usize - 1].midday_done {
                    return Err(state("not_now", "Промежуточный этап этого дня уже прошёл."));
                }
                self.m.as_mut().expect("a running game has a match").midday_stage();
                self.days[*day as usize - 1].midday_done = true;
            }
            GameEvent::Resolved { day, early } => {
                if self.open_day() != Some(*day) {
                    return Err(state("not_now", "Этот день уже подведён."));
                }
                let m = self.m.as_mut().expect("a running game has a match");
                m.close_day().map_err(|e| state("engine", resolve_error_ru(&e)))?;
                self.before_open = None;
                let t = &mut self.days[*day as usize - 1];
                t.midday_done = true;
                t.resolved_at = Some(at);
                if self.m.as_ref().and_then(Match::winner).is_some() {
                    self.status = Status::Over;
                } else {
                    // The next day opens at the first opening time after the deadline (after
                    // the resolution when the host resolved early); a resolution caught up
                    // after downtime opens the next day at once (O-SERVER-3).
                    let t = &self.days[*day as usize - 1];
                    let base = if *early { at } else { at.min(t.deadline_at + GRACE) };
                    self.next_open_at = Some(self.times.next_open(base));
                }
                if *early {
                    self.history.push(PublicNote {
                        at,
                        day: *day,
                        text: format!("Ведущий подвёл итоги дня {day} досрочно."),
                    });
                }
            }
            GameEvent::Fixed { day, fix } => {
                self.fix(*day, fix)?;
                // A fixed tie-break shows only in the day's resolution.
                if fix.only_ties() {
                    audience = Audience::Host;
                }
            }
            GameEvent::Extended { day, deadline_at } => {
                if self.open_day() != Some(*day) {
                    return Err(state("not_now", "Продлить можно только открытый день."));
                }
                let t = &mut self.days[*day as usize - 1];
                if *deadline_at <= t.deadline_at {
                    return Err(state("bad_deadline", "Новый дедлайн должен быть позже прежнего."));
                }
                t.deadline_at = *deadline_at;
                let text = format!("Ведущий продлил день {day} до {}.", self.times.show(*deadline_at));
                self.history.push(PublicNote { at, day: *day, text });
            }
            GameEvent::Paused {} => {
                if self.status != Status::Running || self.paused_at.is_some() {
                    return Err(state("not_now", "Игра не идёт или уже на паузе."));
                }
                self.paused_at = Some(at);
                self.history.push(PublicNote {
                    at,
                    day: self.days.len() as u32,
                    text: "Ведущий поставил игру на паузу.".into(),
                });
            }
            GameEvent::Resumed {} => {
                let Some(p) = self.paused_at else {
                    return Err(state("not_now", "Игра не на паузе."));
                };
                let shift = (at - p).max(0);
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
                self.history.push(PublicNote {
                    at,
                    day: self.days.len() as u32,
                    text: "Ведущий снял игру с паузы.".into(),
                });
            }
            GameEvent::Posted { day, post } => {
                self.post(*day, post, at)?;
                if post.room == Room::Pack {
                    audience = Audience::Pack;
                }
            }
            GameEvent::Flagged { post } => self.flag(*post, false, at)?,
            GameEvent::Dismissed { post } => self.flag(*post, true, at)?,
        }
        Ok(audience)
    }

    /// The next standing Palms bloom flag of the open day to become the host penalty
    /// (at the deadline, or before the host resolves early): a `penalty` order against a
    /// living author whose vote is not blocked yet. `None` when there is none left.
    pub fn palms_due(&self, now: i64) -> Option<GameEvent> {
        let day = self.open_day()?;
        let m = self.m.as_ref()?;
        let today = m.today()?;
        let t = &self.days[day as usize - 1];
        for p in self.posts.iter().filter(|p| p.day == day && p.palms_standing()) {
            let Some(seat) = m.find(&p.post.name) else { continue };
            if today.sent.get(seat.index()).is_none_or(|s| s.penalty) || !m.state.alive(seat) {
                continue;
            }
            let words = p.post.banned.iter().map(|w| format!("«{w}»")).collect::<Vec<_>>().join(", ");
            let order = OrderEntry {
                by: "host".into(),
                act: "penalty".into(),
                target: Some(p.post.name.clone()),
                reason: Some(format!("Пальмы цветут, запрещённые слова: {words}")),
                at: Some(serde_json::json!(self.times.clock(now, t.deadline_at, t.midday_done).to_string())),
                ..OrderEntry::default()
            };
            if self.check_order(day, &order).is_ok() {
                return Some(GameEvent::Order { day, order });
            }
        }
        None
    }

    fn post(&mut self, day: u32, post: &Post, at: i64) -> Result<(), Refused> {
        if day as usize != self.days.len() {
            return Err(state("not_now", "Сообщение можно написать только в текущий день."));
        }
        let n = post.text.chars().count();
        if post.text.trim().is_empty() || n > MAX_POST {
            return Err(state("bad_post", format!("Сообщение должно быть от 1 до {MAX_POST} символов, а в нём {n}.")));
        }
        let today = self.posts.iter().filter(|p| p.day == day && p.post.user == post.user).count();
        if today >= MAX_POSTS_PER_DAY {
            return Err(state("too_many_posts", format!("Не больше {MAX_POSTS_PER_DAY} сообщений за день.")));
        }
        self.posts.push(Posted { at, day, post: post.clone(), flagged: false, dismissed: false });
        Ok(())
    }

    /// The number readers see of the post at `post` in the log (from 0): its place in its
    /// own room, from 1, so the thread's numbers never count the pack's posts (O-THREAD-5).
    pub fn shown_number(&self, post: usize) -> Option<usize> {
        let room = self.posts.get(post)?.post.room;
        Some(self.posts[..=post].iter().filter(|q| q.post.room == room).count())
    }

    fn flag(&mut self, post: usize, dismiss: bool, at: i64) -> Result<(), Refused> {
        let open = self.open_day();
        let Some(no) = self.shown_number(post) else {
            return Err(state("no_post", "Такого сообщения нет."));
        };
        let Some(p) = self.posts.get_mut(post) else {
            return Err(state("no_post", "Такого сообщения нет."));
        };
        let text = if dismiss {
            if p.post.banned.is_empty() || p.dismissed || open != Some(p.day) {
                return Err(state("not_now", "Снять можно только автоматическую отметку «Пальм» открытого дня."));
            }
            p.dismissed = true;
            format!("Ведущий снял отметку «Пальмы цветут» с сообщения №{no} ({}).", p.post.name)
        } else {
            if p.flagged {
                return Err(state("already_flagged", "Это сообщение уже отмечено как нарушение."));
            }
            p.flagged = true;
            format!("Ведущий отметил сообщение №{no} ({}) как нарушение.", p.post.name)
        };
        let day = p.day;
        self.history.push(PublicNote { at, day, text });
        Ok(())
    }

    /// A new seat's name as it will be shown ([`ostrov_engine::clean_name`]), checked
    /// against the seats already taken by its skeleton: look-alikes (case, ё/е, Latin and
    /// Cyrillic letters that look the same, full-width forms, invisible characters, NFD)
    /// are one name, and the host's names (`host`, `ведущий`, `автор`) are reserved.
    /// Checked when a player joins, not in the fold (an old log stays as it was).
    pub fn seat_name(&self, name: &str) -> Result<String, Refused> {
        if name.chars().any(crate::routes::invisible) {
            return Err(state("bad_name", "Имя игрока не должно содержать невидимых и управляющих символов."));
        }
        let name = ostrov_engine::clean_name(name).map_err(|e| {
            state("bad_name", format!("Неверное имя игрока: {e}. Нужно от 1 до 40 символов, с буквой или цифрой."))
        })?;
        let key = ostrov_engine::skeleton(&name);
        if ["host", "ведущий", "автор"].iter().any(|r| ostrov_engine::skeleton(r) == key) {
            return Err(state("bad_name", "Это имя зарезервировано за ведущим."));
        }
        if let Some(m) = self.members.iter().find(|m| ostrov_engine::skeleton(&m.name) == key) {
            return Err(state(
                "name_taken",
                format!("Имя «{name}» в этой игре уже занято: оно совпадает с «{}» или выглядит так же.", m.name),
            ));
        }
        Ok(name)
    }

    fn join(&mut self, user: i64, name: &str) -> Result<(), Refused> {
        if self.status != Status::Lobby {
            return Err(state("started", "Игра уже началась: присоединиться нельзя."));
        }
        if user == self.host {
            return Err(state("host_cannot_play", "Ведущий не может быть игроком своей игры."));
        }
        if self.seat_of(user).is_some() {
            return Err(state("already_joined", "Вы уже в этой игре."));
        }
        if self.members.len() >= self.config.slots {
            return Err(state("full", "Все места в игре заняты."));
        }
        let name = name.trim();
        if name.is_empty() || name.chars().count() > 40 || name.chars().any(char::is_control) {
            return Err(state("bad_name", "Имя игрока должно быть от 1 до 40 символов, без управляющих символов."));
        }
        let f = fold_name(name);
        if f == "host" || f == "ведущий" || f == "автор" {
            return Err(state("bad_name", "Это имя зарезервировано за ведущим."));
        }
        if self.members.iter().any(|m| fold_name(&m.name) == f) {
            return Err(state("name_taken", format!("Имя «{name}» в этой игре уже занято.")));
        }
        self.members.push(Member { user, name: name.to_string() });
        Ok(())
    }

    fn start(&mut self, roles: &[String], speech: &[SeatSpeech], at: i64) -> Result<(), Refused> {
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
        self.before_open = Some(before);
        self.file = file;
        self.seats = game.setup.seat_index();
        self.game = Some(game);
        self.m = Some(m);
        self.status = Status::Running;
        self.started_at = Some(at);
        self.days.push(DayTimes {
            opened_at: at,
            midday_at,
            deadline_at,
            midday_done: false,
            resolved_at: None,
            last_at: Clock(0),
        });
        Ok(())
    }

    /// A host's fix of day `day`'s draws, checked against the state it will meet: for the
    /// open day (Choose me! and Tsunami's deal only while it has no orders, the tie-breaks
    /// until it is resolved) the day is replayed from its opening; for the next day its
    /// opening is tried on a copy when nothing can change before it (no day open), and only
    /// its tie-breaks may be fixed while today is still open. A day already resolved is
    /// final (409 `day_resolved`), and so is an event the previous evening newspaper
    /// announced (409 `event_announced`: only day 1's event can be fixed, O-SERVER-5).
    fn fix(&mut self, day: u32, fix: &Fix) -> Result<(), Refused> {
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
            .setup()
            .plan(day, &entry)
            .map_err(|e| state("bad_fix", format!("Неверное исправление жребия: {e}.")))?;
        let m = self.m.as_ref().expect("a running game has a match");
        // A tie-break names a living player (the dead are in no tie).
        if let Some(p) = plan.tie_breaks.iter().find(|p| !m.state.alive(**p)) {
            return Err(state(
                "bad_fix",
                format!(
                    "Неверное исправление жребия: {} уже нет среди живых, а в ничьей бывают только живые.",
                    m.state.name(*p)
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
            let event = t.state.event;
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
        *self.day_entry(day) = entry;
        if open == Some(day) {
            self.m = trial;
        }
        Ok(())
    }

    /// The open day `day` played again from its opening with the day entry `entry`: its
    /// orders in the order they arrived (the file's order), its 13:00 stage if it has run.
    fn replayed(&self, day: u32, entry: &DayEntry) -> Result<Match, Refused> {
        let setup = self.setup();
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

    /// The game-day time of the latest order of day `day` (00:00 before any).
    fn last_at(&self, day: u32) -> Clock {
        self.days.get(day as usize - 1).map_or(Clock(0), |t| t.last_at)
    }

    /// The open day and the game-day time (`at`) of an order arriving at `now`: the
    /// schedule's wall-clock time in the day's phase ([`Times::clock`]), never earlier than
    /// the day's previous order, so the game file's order by `at` is the order of arrival
    /// whatever extensions and pauses moved the deadline (the engine takes equal times in
    /// file order). `late` when no day is open or its deadline (with its grace minute) has
    /// passed.
    pub fn order_time(&self, now: i64) -> Result<(u32, Clock), Refused> {
        let late = || Refused::Rule(if self.status == Status::Over { Refusal::GameOver } else { Refusal::Late });
        let day = self.open_day().ok_or_else(late)?;
        let t = &self.days[day as usize - 1];
        let deadline = self.deadline(now).unwrap_or(t.deadline_at);
        if now >= deadline + GRACE {
            return Err(late());
        }
        Ok((day, self.times.clock(now, deadline, t.midday_done).max(self.last_at(day))))
    }

    /// The game file that replays the game: the days that have opened (a fix of the next
    /// day, waiting for it to open, is not a day of the game yet).
    pub fn exported(&self) -> GameFile {
        let mut file = self.file.clone();
        file.days.truncate(self.days.len());
        file
    }

    /// The winner, once the game is over.
    pub fn winner(&self) -> Option<Winner> {
        self.m.as_ref().and_then(Match::winner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-12-01 22:00 Moscow.
    const START: i64 = 1_796_151_600;
    const H: i64 = 3600;

    fn game(n: usize) -> (Live, Vec<(i64, GameEvent)>) {
        let config = Config {
            title: "Тест".into(),
            slots: n,
            setup: Some("werewolf,seer".into()),
            deck: None,
            rules: None,
            seed: Some(7),
            shuffle: false,
            schedule: Schedule::default(),
        };
        let mut log = vec![(START - H, GameEvent::Created(config.clone()))];
        let mut live = Live::new(1, 100, config).unwrap();
        for i in 0..n {
            let ev = GameEvent::Joined { user: i as i64, name: format!("Игрок{i}") };
            live.apply(&ev, START - H).unwrap();
            log.push((START - H, ev));
        }
        let roles = live.config.deal(n).unwrap().iter().map(|r| r.id().to_string()).collect();
        let ev = GameEvent::Started { roles, speech: Vec::new() };
        live.apply(&ev, START).unwrap();
        log.push((START, ev));
        (live, log)
    }

    fn step(live: &mut Live, log: &mut Vec<(i64, GameEvent)>, now: i64) -> Option<GameEvent> {
        let ev = live.due(now)?;
        live.apply(&ev, now).unwrap();
        log.push((now, ev.clone()));
        Some(ev)
    }

    #[test]
    fn the_scheduler_runs_13_00_then_21_00_then_22_00_each_once() {
        let (mut live, mut log) = game(5);
        assert_eq!(live.due(START + 15 * H), None, "13:00 is not over yet");
        assert_eq!(step(&mut live, &mut log, START + 15 * H + 60), Some(GameEvent::Midday { day: 1 }));
        assert_eq!(live.due(START + 15 * H + 61), None, "the 13:00 stage ran once");
        assert_eq!(live.due(START + 23 * H + 59), None, "21:00 is still in time (O-TIME-1)");
        assert_eq!(step(&mut live, &mut log, START + 23 * H + 60), Some(GameEvent::Resolved { day: 1, early: false }));
        assert_eq!(live.due(START + 23 * H + 61), None, "resolved once");
        assert_eq!(live.next_open_at, Some(START + 24 * H));
        let opened = step(&mut live, &mut log, START + 24 * H);
        assert_eq!(opened, Some(GameEvent::Opened { day: 2, midday_at: START + 39 * H, deadline_at: START + 47 * H }));
        // The fold of the log is the same game.
        let again = Live::fold(1, 100, &log).unwrap();
        assert_eq!(again.days, live.days);
        assert_eq!(again.file, live.file);
    }

    #[test]
    fn a_server_down_at_21_00_resolves_on_start_and_opens_the_next_day_at_once() {
        let (mut live, mut log) = game(5);
        // Back up at 23:30 the next evening: the missed deadline, then the next day.
        let now = START + 25 * H + 30 * 60;
        assert_eq!(step(&mut live, &mut log, now), Some(GameEvent::Midday { day: 1 }));
        assert_eq!(step(&mut live, &mut log, now), Some(GameEvent::Resolved { day: 1, early: false }));
        let Some(GameEvent::Opened { day: 2, midday_at, deadline_at }) = step(&mut live, &mut log, now) else {
            panic!("day 2 opens")
        };
        assert_eq!((midday_at, deadline_at), (START + 39 * H, START + 47 * H), "day 2 keeps its whole schedule");
        assert_eq!(live.due(now), None);
    }

    #[test]
    fn a_pause_holds_the_deadline_and_resume_moves_it_by_the_pause() {
        let (mut live, _) = game(5);
        live.apply(&GameEvent::Paused {}, START + 10 * H).unwrap();
        assert_eq!(live.due(START + 30 * H), None, "nothing runs while paused");
        assert_eq!(live.deadline(START + 12 * H), Some(START + 25 * H));
        live.apply(&GameEvent::Resumed {}, START + 12 * H).unwrap();
        assert_eq!(live.days[0].deadline_at, START + 25 * H);
        assert_eq!(live.days[0].midday_at, START + 17 * H);
        assert!(live.apply(&GameEvent::Resumed {}, START + 13 * H).is_err(), "not paused");
    }

    #[test]
    fn the_host_fixes_draws_only_before_they_matter() {
        let (mut live, _) = game(5);
        let tie = Fix { tie_break: Some(vec!["Игрок1".into()]), ..Fix::default() };
        let event = Fix { event: Some("fog_night".into()), ..Fix::default() };
        live.apply(&GameEvent::Fixed { day: 1, fix: event.clone() }, START + H).unwrap();
        assert_eq!(live.m.as_ref().unwrap().state.event, Some(ostrov_engine::Event::FogNight));
        let vote = OrderEntry {
            by: "Игрок0".into(),
            act: "vote".into(),
            target: Some("Игрок1".into()),
            at: Some(serde_json::json!("10:00")),
            ..OrderEntry::default()
        };
        live.apply(&GameEvent::Order { day: 1, order: vote }, START + 2 * H).unwrap();
        assert!(matches!(live.apply(&GameEvent::Fixed { day: 1, fix: event }, START + 3 * H), Err(Refused::State(..))));
        live.apply(&GameEvent::Fixed { day: 1, fix: tie }, START + 3 * H).unwrap();
        assert_eq!(live.file.days[0].orders.len(), 1, "the replay kept the order");
        let nobody = Fix { chosen: Some("Никто".into()), ..Fix::default() };
        assert!(live.apply(&GameEvent::Fixed { day: 2, fix: nobody }, START + 3 * H).is_err());
    }

    #[test]
    fn events_round_trip_through_the_store_form() {
        for ev in [
            GameEvent::Paused {},
            GameEvent::Resolved { day: 3, early: true },
            GameEvent::Joined { user: 5, name: "Ёжик".into() },
            GameEvent::Started {
                roles: vec!["seer".into()],
                speech: vec![SeatSpeech { gender: Some("f".into()), forms: None }],
            },
        ] {
            let (kind, payload) = ev.split();
            assert_eq!(GameEvent::join(&kind, &payload).unwrap(), ev);
        }
        // A start logged before profiles reads with no speech.
        let old = GameEvent::join("started", &serde_json::json!({"roles": ["seer"]})).unwrap();
        assert_eq!(old, GameEvent::Started { roles: vec!["seer".into()], speech: Vec::new() });
        assert!(GameEvent::join("exploded", &serde_json::json!({})).is_err());
    }
}
