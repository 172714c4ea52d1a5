//! What each viewer may see of a game. A player sees their own role, item, orders and
//! private messages; the pack (werewolves and halfblood) sees each other's roles; the host
//! sees everything; everybody sees the public roles (of the dead, revealed by the
//! authority or a removal, and all of them once the game is over).

use ostrov_engine::ru::Gender;
use ostrov_engine::{Death, Match, OrderEntry, PlayerId, Speech};
use serde::Serialize;

use crate::game::{GameState, Status};

/// Who is looking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    Host,
    Player(PlayerId),
    /// A logged-in user who is not in the game.
    Outsider,
}

impl Viewer {
    pub fn of(live: &GameState, user: i64) -> Viewer {
        if user == live.host {
            Viewer::Host
        } else {
            live.seat_of(user).map_or(Viewer::Outsider, Viewer::Player)
        }
    }

    /// Whether the viewer may see everything: the host, or anyone once the game is over.
    pub fn sees_all(self, live: &GameState) -> bool {
        self == Viewer::Host || live.status == Status::Over
    }
}

/// What `viewer` may see changed in a game, as a stamp that changes when (and only when)
/// something that viewer may see changed: the live stream compares stamps (issue 28).
/// The host sees every event; a seat sees the public ones, its own and (in the pack) the
/// pack's; anyone else the public ones.
pub fn stamp(live: &GameState, user: i64) -> [u64; 3] {
    let c = &live.changes;
    match Viewer::of(live, user) {
        Viewer::Host => [live.seq.max(0) as u64, 0, 0],
        Viewer::Player(p) => {
            let pack = if live.in_pack(p) { c.pack } else { 0 };
            [c.everyone, pack, c.seats.get(p.index()).copied().unwrap_or(0)]
        }
        Viewer::Outsider => [c.everyone, 0, 0],
    }
}

/// A role as a viewer sees it: its id, its name agreeing with the player's gender
/// («Ясновидящая»), as the inbox says it, and whether a halfblood has turned.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RoleView {
    pub id: &'static str,
    pub name: String,
    pub turned: bool,
}

impl RoleView {
    pub(crate) fn of(m: &Match, q: PlayerId) -> RoleView {
        let pl = m.state().player(q);
        let name = ostrov_engine::ru::role(pl.role, m.state().who(q).gender()).to_string();
        RoleView { id: pl.role.id(), name, turned: pl.turned }
    }
}

/// An item as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ItemView {
    pub id: &'static str,
    pub name: &'static str,
    pub charged: bool,
}

impl ItemView {
    /// The item `q` holds (`None`: no item).
    pub(crate) fn of(m: &Match, q: PlayerId) -> Option<ItemView> {
        m.state().player(q).item.map(|h| ItemView { id: h.item.id(), name: h.item.ru(), charged: h.charged })
    }
}

/// How and when a player left the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct DeathView {
    /// `lynch`, `night` or `removed`.
    pub how: &'static str,
    pub day: u32,
}

/// A player in the list, as a viewer may see them ([`ostrov_engine::Sight`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerView {
    pub name: String,
    pub alive: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub death: Option<DeathView>,
    /// Absent when the viewer may not see it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<RoleView>,
    /// Absent when the viewer may not see it; `Some(None)`: seen to hold no item.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub item: Option<Option<ItemView>>,
    /// The player's grammatical gender (public, as the newspaper's sentences show it), for
    /// the pages' Russian; not in the API's JSON.
    #[serde(skip)]
    pub gender: Option<Gender>,
    /// A seat bot plays this seat (issue 32): public, as its name says.
    #[serde(skip_serializing_if = "is_false")]
    pub bot: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// An event as the game view names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EventView {
    pub id: &'static str,
    pub name: &'static str,
    pub meaning: &'static str,
}

/// The open day and its times.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OpenView {
    pub day: u32,
    pub event: Option<EventView>,
    /// `morning` before the 13:00 stage, `afternoon` after it.
    pub phase: &'static str,
    /// 13:00 until it has run.
    pub midday: Option<String>,
    pub deadline: String,
    /// The last moment an order is taken (the deadline's grace minute).
    pub orders_until: String,
}

/// A side that won, or a draw.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WinnerView {
    pub id: &'static str,
    pub name: &'static str,
}

/// What a seated player sees of themself.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct YouView {
    pub name: String,
    pub alive: bool,
    pub role: RoleView,
    pub item: Option<ItemView>,
    /// The pack's names (R-SIDE-2), the player included; empty outside the pack.
    pub pack: Vec<String>,
    /// The player's orders in force on the open day.
    pub orders: Vec<OrderEntry>,
    /// What the player is still expected to send today and has not (`vote`, `megaphone`,
    /// `night`: [`Match::unsent`] of what the player may send now); empty when no day is
    /// open.
    pub unsent: Vec<&'static str>,
    /// Why the player's vote will not count today (`assaulted`, `penalty`, `shocked`:
    /// [`Match::vote_blocked`]); absent when it will.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vote_blocked: Option<&'static str>,
    /// Why the forms of the player's profile were left out of this game (issue 28, point 6).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forms_dropped: Option<String>,
    /// The player's gender, for the pages' Russian; not in the API's JSON.
    #[serde(skip)]
    pub gender: Option<Gender>,
    /// How the player speaks in the discussion now ([`Match::speech`]); not in the API's
    /// JSON.
    #[serde(skip)]
    pub speech: Speech,
}

/// A published newspaper.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PaperRef {
    pub day: u32,
    /// `bulletin`, `evening` or `final`.
    pub kind: &'static str,
}

/// The game as one viewer may see it: the API's `GET /api/games/{id}` and what the pages
/// show.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameView {
    pub id: i64,
    pub title: String,
    pub status: Status,
    pub slots: usize,
    pub schedule: crate::schedule::Schedule,
    pub members: Vec<String>,
    /// The members that are seat bots (issue 32), in seat order: absent when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bots: Vec<String>,
    pub paused: bool,
    pub history: Vec<crate::game::PublicNote>,
    pub newspapers: Vec<PaperRef>,
    /// `host`, `player` or `outsider`.
    pub viewer: &'static str,
    /// `open` or `private` (O-PRIVATE-1).
    pub visibility: crate::game::Visibility,
    /// The host's: the game's settings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub setup: Option<crate::game::Config>,
    /// The host's: why the game cannot go on by itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub broken: Option<String>,
    /// The host's: the invite code, where the caller asks for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
    /// The host's, of a private game: the key of its newspaper links (`?key=…`), to give
    /// to whoever may read the newspapers without playing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paper_key: Option<String>,
    /// Once the game has started.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub players: Option<Vec<PlayerView>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub day: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub open: Option<OpenView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_day_opens: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<WinnerView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub you: Option<YouView>,
    /// The host's: every order in force on the open day.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub orders: Option<Vec<OrderEntry>>,
    /// The seats the host calls for a substitute for («Ищем замену», issue 30, point 4):
    /// public, empty when there is no call.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub wanted: Vec<String>,
    /// The host's: two seats that came from one address or one browser while the game
    /// ran (issue 30, point 5), never the address itself. Filled where the host's view is
    /// read ([`crate::service::sightings::shared`]: it reads the store).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shared_access: Option<Vec<crate::access::SharedAccess>>,
    /// A forum game's discussion (issue 30, point 12): public; absent for the thread.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forum: Option<ForumView>,
}

/// Where a forum game's talk is now (O-FORUM-1).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ForumView {
    /// The topic to link (the latest day's, else the game's); `None` until the host gives one.
    pub topic: Option<String>,
    /// The day the topic was given for; `None` for the game's own.
    pub day: Option<u32>,
}

/// What seat `p` is told of its profile forms left out at the start (issue 28, point 6).
pub fn forms_dropped(live: &GameState, p: PlayerId) -> Option<String> {
    let dropped = live.dropped_forms.get(p.index()).filter(|d| !d.is_empty())?;
    Some(crate::game::lobby::dropped_forms_ru(dropped))
}

impl GameView {
    /// Gives the host's view its invite code and, for a private game, the newspaper key.
    pub fn with_invite(mut self, invite: String) -> GameView {
        if !self.visibility.is_open() {
            self.paper_key = Some(crate::service::paper_key(&invite));
        }
        self.invite = Some(invite);
        self
    }
}

fn blocked_id(b: ostrov_engine::Blocked) -> &'static str {
    match b {
        ostrov_engine::Blocked::Assaulted => "assaulted",
        ostrov_engine::Blocked::Penalty => "penalty",
        ostrov_engine::Blocked::Shocked => "shocked",
    }
}

pub(crate) fn death_id(d: Death) -> &'static str {
    match d {
        Death::Lynch => "lynch",
        Death::Night => "night",
        Death::Removed => "removed",
    }
}

impl Viewer {
    /// The engine's viewer of the same person.
    pub fn sight(self) -> ostrov_engine::Viewer {
        match self {
            Viewer::Host => ostrov_engine::Viewer::Host,
            Viewer::Player(p) => ostrov_engine::Viewer::Seat(p),
            Viewer::Outsider => ostrov_engine::Viewer::Spectator,
        }
    }
}

/// The game as `viewer` may see it at `now`: who sees which role and item is the engine's
/// [`ostrov_engine::Match::sight`].
pub fn game(live: &GameState, viewer: Viewer, now: i64) -> GameView {
    let host = viewer == Viewer::Host;
    let mut v = GameView {
        id: live.id,
        title: live.config.title.clone(),
        status: live.status,
        slots: live.config.slots,
        schedule: live.config.schedule.clone(),
        members: live.members.iter().map(|m| m.name.clone()).collect(),
        bots: live.members.iter().filter(|m| m.is_bot()).map(|m| m.name.clone()).collect(),
        paused: live.paused_at.is_some(),
        history: live.history.clone(),
        newspapers: published(live).into_iter().map(|(day, kind)| PaperRef { day, kind }).collect(),
        viewer: match viewer {
            Viewer::Host => "host",
            Viewer::Player(_) => "player",
            Viewer::Outsider => "outsider",
        },
        setup: host.then(|| live.config.clone()),
        broken: if host { live.broken.clone() } else { None },
        invite: None,
        paper_key: None,
        visibility: live.config.visibility,
        forum: live.forum().then(|| {
            let t = live.forum_topic();
            ForumView { topic: t.map(|(_, u)| u.to_string()), day: t.and_then(|(d, _)| d) }
        }),
        players: None,
        day: None,
        open: None,
        next_day_opens: None,
        winner: None,
        you: None,
        orders: None,
        wanted: live.wanted_seats(),
        shared_access: None,
    };
    let Some(m) = &live.m else { return v };
    let sight = m.sight(viewer.sight());
    let players = m
        .state()
        .list_order()
        .iter()
        .map(|&q| {
            let pl = m.state().player(q);
            PlayerView {
                name: pl.name.clone(),
                alive: pl.alive,
                death: pl.death.zip(pl.died_on_day).map(|(d, day)| DeathView { how: death_id(d), day }),
                role: sight.role(q).then(|| RoleView::of(m, q)),
                item: sight.item(q).then(|| ItemView::of(m, q)),
                gender: m.state().who(q).gender(),
                bot: live.members.get(q.index()).is_some_and(|m| m.is_bot()),
            }
        })
        .collect();
    v.players = Some(players);
    v.day = Some(m.state().day());
    if let Some(d) = live.open_day() {
        let t = &live.days[d as usize - 1];
        let shift = live.paused_at.map_or(0, |p| (now - p).max(0));
        v.open = Some(OpenView {
            day: d,
            event: m.state().event().map(|e| EventView { id: e.id(), name: e.ru(), meaning: e.meaning_ru() }),
            phase: if t.midday_done { "afternoon" } else { "morning" },
            midday: (!t.midday_done).then(|| live.times.show(t.midday_at + shift)),
            deadline: live.times.show(t.deadline_at + shift),
            orders_until: live.times.show(t.deadline_at + shift + live.times.grace() - 1),
        });
    } else if let Some(o) = live.next_open_at {
        v.next_day_opens = Some(live.times.show(o));
    }
    v.winner = m.winner().map(|w| WinnerView { id: w.id(), name: w.ru() });
    if let Viewer::Player(p) = viewer {
        let pl = m.state().player(p);
        v.you = Some(YouView {
            name: pl.name.clone(),
            alive: pl.alive,
            role: RoleView::of(m, p),
            item: ItemView::of(m, p),
            pack: sight.pack().iter().map(|q| m.state().name(*q).to_string()).collect(),
            orders: orders_of(live, Some(&pl.name)),
            unsent: match live.open_day() {
                Some(_) if live.status == Status::Running => {
                    m.unsent(p, &live.legal_orders(p, now)).iter().map(|d| d.id()).collect()
                }
                _ => Vec::new(),
            },
            vote_blocked: m.vote_blocked(p).map(blocked_id),
            forms_dropped: forms_dropped(live, p),
            gender: m.state().who(p).gender(),
            speech: m.speech(p),
        });
    }
    if host {
        v.orders = Some(orders_of(live, None));
    }
    v
}

/// The open day's accepted orders, of one player (by name) or all.
pub fn orders_of(live: &GameState, by: Option<&str>) -> Vec<OrderEntry> {
    let Some(d) = live.open_day() else { return Vec::new() };
    let Some(entry) = live.file.days.get(d as usize - 1) else { return Vec::new() };
    let by = by.map(ostrov_engine::fold_name);
    standing(&entry.orders)
        .into_iter()
        .filter(|o| by.as_ref().is_none_or(|b| ostrov_engine::fold_name(&o.by) == *b))
        .cloned()
        .collect()
}

/// Of a day's orders, only the current one of each kind a later one replaces (R-ORDER-1:
/// the last vote, the last night order, the last megaphone …): the latest, in the order
/// sent. A withdrawal (O-ORDER-4) is not listed, nor is the order of its kind before it.
pub fn standing(orders: &[OrderEntry]) -> Vec<&OrderEntry> {
    let mut seen = std::collections::HashSet::new();
    let mut kept: Vec<&OrderEntry> = orders
        .iter()
        .rev()
        .filter(|o| match withdrawn_kind(o) {
            Some(k) => {
                seen.insert((ostrov_engine::fold_name(&o.by), k));
                false
            }
            None => replaced_kind(&o.act).is_none_or(|k| seen.insert((ostrov_engine::fold_name(&o.by), k))),
        })
        .collect();
    kept.reverse();
    kept
}

/// The kind of order a `withdraw` takes back; `None` for any other order.
fn withdrawn_kind(o: &OrderEntry) -> Option<&'static str> {
    let withdraw = o.act.parse::<ostrov_engine::Act>().ok()? == ostrov_engine::Act::Withdraw;
    withdraw.then(|| o.what.as_deref().and_then(replaced_kind)).flatten()
}

/// The kind of an order that a later order of the same kind replaces, if it is one.
fn replaced_kind(act: &str) -> Option<&'static str> {
    use ostrov_engine::Act;
    let act: Act = act.parse().ok()?;
    match act {
        a if a.is_night() => Some("night"),
        Act::Vote => Some("vote"),
        Act::Megaphone => Some("megaphone"),
        Act::Authority => Some("authority"),
        Act::Sentence => Some("sentence"),
        // One of each stands, as the engine keeps it (`Match::standing_orders`): the last
        // bunker request, exchange, light, pair and question.
        Act::Bunker => Some("bunker"),
        Act::Exchange => Some("exchange"),
        Act::Light => Some("light"),
        Act::Pair => Some("pair"),
        Act::Ask => Some("ask"),
        _ => None,
    }
}

/// The newspapers published so far: `(day, kind)` with kind `bulletin`, `evening`, `final`.
pub fn published(live: &GameState) -> Vec<(u32, &'static str)> {
    let mut out = Vec::new();
    for (i, t) in live.days.iter().enumerate() {
        let d = i as u32 + 1;
        if t.midday_done || t.resolved_at.is_some() {
            out.push((d, "bulletin"));
        }
        if t.resolved_at.is_some() {
            out.push((d, "evening"));
        }
    }
    if live.status == Status::Over {
        out.push((live.days.len() as u32, "final"));
    }
    out
}

/// A newspaper of the game (`kind`: `bulletin`, `evening`, `final`), published or not:
/// the evening newspaper also says who took a seat that day (issue 30, point 4), which
/// only the server knows. `None` before the start.
pub fn paper(live: &GameState, day: u32, kind: &str) -> Option<ostrov_paper::Doc> {
    let m = live.m.as_ref()?;
    Some(match kind {
        "bulletin" => ostrov_paper::bulletin(m, day),
        "evening" => {
            let subs: Vec<ostrov_paper::Substitute> = live
                .replaced
                .iter()
                .filter(|r| r.day == day)
                .map(|r| ostrov_paper::Substitute { seat: PlayerId(r.seat as u16), by: r.name.clone() })
                .collect();
            ostrov_paper::evening_with(m, day, &subs)
        }
        _ => ostrov_paper::final_paper(m),
    })
}

/// Where a game stands, for a status line: the typed answer the pages and the list word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Lobby,
    /// Day `day` is open.
    Day {
        day: u32,
    },
    /// The night after day `day` (resolved; the next day not open yet).
    Night {
        after: u32,
    },
    /// The host stopped the clock during day `day`.
    Paused {
        day: u32,
    },
    Over {
        winner: Option<ostrov_engine::Winner>,
    },
}

/// Where `live` stands.
pub fn phase(live: &GameState) -> Phase {
    let days = live.days.len() as u32;
    match live.status {
        Status::Lobby => Phase::Lobby,
        Status::Over => Phase::Over { winner: live.winner() },
        Status::Running if live.paused_at.is_some() => Phase::Paused { day: days },
        Status::Running => match live.open_day() {
            Some(day) => Phase::Day { day },
            None => Phase::Night { after: days },
        },
    }
}

/// Where the one who opened an invite stands with its game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// The game's host.
    Host,
    /// Holds a seat already.
    Joined,
    /// Past the lobby: may watch.
    Started,
    /// Every seat is taken.
    Full,
    /// May take a seat.
    Open,
}

/// An invite's page: the game as one who holds its invite sees it before joining.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InviteView {
    pub id: i64,
    pub title: String,
    pub phase: Phase,
    pub members: Vec<String>,
    pub slots: usize,
    pub standing: Standing,
}

/// The invite's page of `live` for `user`.
pub fn invite(live: &GameState, user: i64) -> InviteView {
    let standing = if live.host == user {
        Standing::Host
    } else if live.seat_of(user).is_some() {
        Standing::Joined
    } else if live.status != Status::Lobby {
        Standing::Started
    } else if live.members.len() >= live.config.slots {
        Standing::Full
    } else {
        Standing::Open
    };
    InviteView {
        id: live.id,
        title: live.config.title.clone(),
        phase: phase(live),
        members: live.members.iter().map(|m| m.name.clone()).collect(),
        slots: live.config.slots,
        standing,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::tests::{game_of, H, START};

    #[test]
    fn an_invite_says_where_its_opener_stands_and_the_phase_follows_the_day() {
        let (mut live, _) = game_of(5, "werewolf,seer");
        assert_eq!(phase(&live), Phase::Day { day: 1 });
        assert_eq!(invite(&live, 100).standing, Standing::Host);
        assert_eq!(invite(&live, 3).standing, Standing::Joined);
        let stranger = invite(&live, 999);
        assert_eq!((stranger.standing, stranger.members.len(), stranger.slots), (Standing::Started, 5, 5));
        while let Some(ev) = live.due(START + 23 * H + 60) {
            live.apply(&ev, START + 23 * H + 60).unwrap();
        }
        assert_eq!(phase(&live), Phase::Night { after: 1 });
    }
}
