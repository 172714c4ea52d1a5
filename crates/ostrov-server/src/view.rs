//! What each viewer may see of a game. A player sees their own role, item, orders and
//! private messages; the pack (werewolves and halfblood) sees each other's roles; the host
//! sees everything; everybody sees the public roles (of the dead, revealed by the
//! authority or a removal, and all of them once the game is over).

use ostrov_engine::{Death, Match, PlayerId};
use serde_json::{json, Value};

use crate::game::{GameState, Status};
use crate::schedule::GRACE;

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
pub fn stamp(live: &GameState, viewer: Viewer) -> [u64; 3] {
    let c = &live.changes;
    match viewer {
        Viewer::Host => [live.seq.max(0) as u64, 0, 0],
        Viewer::Player(p) => {
            let pack = live.m.as_ref().is_some_and(|m| !pack_of(m, p).is_empty());
            [c.everyone, if pack { c.pack } else { 0 }, c.seats.get(p.index()).copied().unwrap_or(0)]
        }
        Viewer::Outsider => [c.everyone, 0, 0],
    }
}

/// The players whose roles `p` knows from the start: the pack (R-SIDE-2).
pub fn pack_of(m: &Match, p: PlayerId) -> Vec<PlayerId> {
    m.pack(p)
}

fn role_json(m: &Match, q: PlayerId) -> Value {
    let pl = m.state.player(q);
    // The name agrees with the player's gender («Ясновидящая»), as the inbox says it.
    let name = ostrov_engine::ru::role(pl.role, m.state.who(q).gender());
    json!({"id": pl.role.id(), "name": name, "turned": pl.turned})
}

fn item_json(m: &Match, q: PlayerId) -> Value {
    match m.state.player(q).item {
        Some(h) => json!({"id": h.item.id(), "name": h.item.ru(), "charged": h.charged}),
        None => Value::Null,
    }
}

fn death_id(d: Death) -> &'static str {
    match d {
        Death::Lynch => "lynch",
        Death::Night => "night",
        Death::Removed => "removed",
    }
}

/// The game as `viewer` may see it at `now`.
pub fn game(live: &GameState, viewer: Viewer, now: i64) -> Value {
    let all = viewer.sees_all(live);
    let mut v = json!({
        "id": live.id,
        "title": live.config.title,
        "status": live.status,
        "slots": live.config.slots,
        "schedule": live.config.schedule,
        "members": live.members.iter().map(|m| m.name.clone()).collect::<Vec<_>>(),
        "paused": live.paused_at.is_some(),
        "history": live.history,
        "newspapers": newspapers(live),
        "viewer": match viewer { Viewer::Host => "host", Viewer::Player(_) => "player", Viewer::Outsider => "outsider" },
    });
    if viewer == Viewer::Host {
        v["setup"] = serde_json::to_value(&live.config).unwrap_or(Value::Null);
        if let Some(b) = &live.broken {
            v["broken"] = json!(b);
        }
    }
    let Some(m) = &live.m else { return v };
    let pack = match viewer {
        Viewer::Player(p) => pack_of(m, p),
        _ => Vec::new(),
    };
    let players: Vec<Value> = m
        .state
        .list_order
        .iter()
        .map(|&q| {
            let pl = m.state.player(q);
            let mut e = json!({"name": pl.name, "alive": pl.alive});
            if let (Some(d), Some(day)) = (pl.death, pl.died_on_day) {
                e["death"] = json!({"how": death_id(d), "day": day});
            }
            let own = viewer == Viewer::Player(q);
            if all || pl.role_public || own || pack.contains(&q) {
                e["role"] = role_json(m, q);
            }
            // A living player's passive item is public (RULES.md §3, as the newspaper
            // shows it); an activated one only its holder and the host see.
            let public = pl.alive && pl.item.is_some_and(|h| h.item.is_passive());
            if all || own || public {
                e["item"] = item_json(m, q);
            }
            e
        })
        .collect();
    v["players"] = json!(players);
    v["day"] = json!(m.state.day);
    if let Some(d) = live.open_day() {
        let t = &live.days[d as usize - 1];
        let shift = live.paused_at.map_or(0, |p| (now - p).max(0));
        v["open"] = json!({
            "day": d,
            "event": m.state.event.map(|e| json!({"id": e.id(), "name": e.ru(), "meaning": e.meaning_ru()})),
            "phase": if t.midday_done { "afternoon" } else { "morning" },
            "midday": if t.midday_done { Value::Null } else { json!(live.times.show(t.midday_at + shift)) },
            "deadline": live.times.show(t.deadline_at + shift),
            "orders_until": live.times.show(t.deadline_at + shift + GRACE - 1),
        });
    } else if let Some(o) = live.next_open_at {
        v["next_day_opens"] = json!(live.times.show(o));
    }
    if let Some(w) = m.winner() {
        v["winner"] = json!({"id": w.id(), "name": w.ru()});
    }
    if let Viewer::Player(p) = viewer {
        let pl = m.state.player(p);
        v["you"] = json!({
            "name": pl.name,
            "alive": pl.alive,
            "role": role_json(m, p),
            "item": item_json(m, p),
            "pack": pack.iter().map(|q| m.state.name(*q).to_string()).collect::<Vec<_>>(),
            "orders": orders_of(live, Some(&pl.name)),
        });
    }
    if viewer == Viewer::Host {
        v["orders"] = json!(orders_of(live, None));
    }
    v
}

/// The open day's accepted orders, of one player (by name) or all.
pub fn orders_of(live: &GameState, by: Option<&str>) -> Vec<Value> {
    let Some(d) = live.open_day() else { return Vec::new() };
    let Some(entry) = live.file.days.get(d as usize - 1) else { return Vec::new() };
    let by = by.map(ostrov_engine::fold_name);
    // Only the current order of each kind a later one replaces (R-ORDER-1: the last vote,
    // the last night order, the last megaphone …): the latest, in the order sent.
    let mut seen = std::collections::HashSet::new();
    let mut kept: Vec<&ostrov_engine::OrderEntry> = entry
        .orders
        .iter()
        .rev()
        .filter(|o| by.as_ref().is_none_or(|b| ostrov_engine::fold_name(&o.by) == *b))
        .filter(|o| replaced_kind(&o.act).is_none_or(|k| seen.insert((o.by.as_str(), k))))
        .collect();
    kept.reverse();
    kept.into_iter().map(|o| serde_json::to_value(o).unwrap_or(Value::Null)).collect()
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

fn newspapers(live: &GameState) -> Vec<Value> {
    published(live).into_iter().map(|(day, kind)| json!({"day": day, "kind": kind})).collect()
}
