//! What finished games leave behind (issue 33): each game's result, stored when it ends
//! ([`result_of`], [`ostrov_store::GameResult`]), and the views made of those rows alone —
//! a player's record ([`RecordView`]) and the setups against reality ([`SetupView`]) —
//! so that neither folds a game.
//!
//! Seat bots (issue 32): a seat played by a bot has no record (no seat result), and a game
//! with bots in it is counted apart from the setups people played: its setup key says how
//! many bots sat at the table (docs/RULINGS.md O-RECORD-2).

use std::collections::BTreeMap;

use ostrov_engine::Role;
use ostrov_store::{GameResult, Played, SeatResult, SetupCount};
use serde::Serialize;

use crate::game::{Config, GameState, Status};

/// The canonical key of a setup: the number of players, the role counts (by role id, in
/// id order), the item deck and the house rules, as JSON. Two games with the same key
/// played the same setup, whatever their titles, seeds, schedules or role-list spelling.
pub fn setup_key(config: &Config, roles: &[Role]) -> String {
    let mut counts: BTreeMap<&'static str, usize> = BTreeMap::new();
    for r in roles {
        *counts.entry(r.id()).or_default() += 1;
    }
    serde_json::json!({
        "players": roles.len(),
        "roles": counts,
        "deck": config.deck,
        "rules": config.rules,
    })
    .to_string()
}

/// The result of a finished game, from its fold (`None` while it goes on). Derived from
/// the log alone, so it is the same however often it is made.
pub fn result_of(live: &GameState) -> Option<GameResult> {
    let m = live.m.as_ref()?;
    let winner = m.winner()?;
    if live.status != Status::Over {
        return None;
    }
    let st = m.state();
    let roles: Vec<Role> = (0..live.members.len()).map(|i| st.player(ostrov_engine::PlayerId(i as u16)).role).collect();
    let seats = live
        .members
        .iter()
        .enumerate()
        .filter(|(_, member)| !member.is_bot())
        .map(|(i, member)| {
            let pl = st.player(ostrov_engine::PlayerId(i as u16));
            let side = pl.role.side();
            SeatResult {
                user_id: member.user,
                role: pl.role.id().to_string(),
                side: side.id().to_string(),
                won: side.id() == winner.id(),
                survived: pl.alive,
            }
        })
        .collect();
    Some(GameResult {
        game_id: live.id,
        setup_key: match live.members.iter().filter(|m| m.is_bot()).count() {
            0 => setup_key(&live.config, &roles),
            bots => {
                let mut key: serde_json::Value = serde_json::from_str(&setup_key(&live.config, &roles)).ok()?;
                key["bots"] = bots.into();
                key.to_string()
            }
        },
        winner: winner.id().to_string(),
        finished_at: live.days.last().and_then(|t| t.resolved_at).unwrap_or(0),
        private: !live.config.visibility.is_open(),
        seats,
    })
}

/// Games and wins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub games: u32,
    pub wins: u32,
}

/// A game in a player's record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RecentGame {
    pub id: i64,
    pub title: String,
    /// When it ended (Unix seconds).
    pub finished_at: i64,
    /// `civilians`, `werewolves`, `hamster` or `draw`.
    pub winner: String,
    pub role: String,
    /// The role's name, agreeing with the player's gender.
    pub role_ru: String,
    pub side: String,
    pub won: bool,
    pub survived: bool,
    /// The game's review page.
    pub review: String,
}

/// How many recent games a record lists.
pub const RECENT: usize = 20;

/// A player's record as one viewer may see it: the API's `GET /api/users/{name}/stats`
/// and the `/users/{name}` page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RecordView {
    pub name: String,
    pub games: u32,
    pub wins: u32,
    pub survived: u32,
    /// By side id.
    pub by_side: BTreeMap<String, Tally>,
    /// By role id.
    pub by_role: BTreeMap<String, Tally>,
    /// The latest [`RECENT`] games, newest first.
    pub recent: Vec<RecentGame>,
    /// The player's gender, for the page's Russian; not in the API's JSON.
    #[serde(skip)]
    pub gender: Option<ostrov_engine::ru::Gender>,
}

impl RecordView {
    /// The record of `name` (of gender `gender`) from the games the viewer may see.
    pub fn of(name: &str, gender: Option<ostrov_engine::ru::Gender>, played: &[Played]) -> RecordView {
        let mut v = RecordView {
            name: name.to_string(),
            games: 0,
            wins: 0,
            survived: 0,
            by_side: BTreeMap::new(),
            by_role: BTreeMap::new(),
            recent: Vec::new(),
            gender,
        };
        for p in played {
            v.games += 1;
            v.wins += p.won as u32;
            v.survived += p.survived as u32;
            for t in [v.by_side.entry(p.side.clone()).or_default(), v.by_role.entry(p.role.clone()).or_default()] {
                t.games += 1;
                t.wins += p.won as u32;
            }
        }
        v.recent = played
            .iter()
            .take(RECENT)
            .map(|p| RecentGame {
                id: p.game_id,
                title: p.title.clone(),
                finished_at: p.finished_at,
                winner: p.winner.clone(),
                role: p.role.clone(),
                role_ru: p
                    .role
                    .parse::<Role>()
                    .map_or_else(|_| p.role.clone(), |r| ostrov_engine::ru::role(r, gender).to_string()),
                side: p.side.clone(),
                won: p.won,
                survived: p.survived,
                review: format!("/games/{}/review", p.game_id),
            })
            .collect();
        v
    }
}

/// A share of games with its 95% Wilson interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Share {
    pub wins: u64,
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

impl Share {
    pub fn of(wins: u64, games: u64) -> Share {
        let r = ostrov_bots::Rate::new(wins, games);
        Share { wins, rate: r.rate, low: r.low, high: r.high }
    }
}

/// The town's fair range (EpicMafia's rule, issue 33): a setup whose observed town win
/// rate is outside it once it has [`FLAG_AFTER`] games is flagged.
pub const FAIR: (f64, f64) = (0.42, 0.55);
/// How many games a setup needs before it is flagged.
pub const FLAG_AFTER: u64 = 30;

/// One setup played on the server, against the simulator.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SetupView {
    pub key: String,
    pub players: u64,
    /// The role counts, by role id.
    pub roles: BTreeMap<String, u64>,
    /// The roles in Russian: «оборотень ×2, ясновидящая, …».
    pub roles_ru: String,
    pub games: u64,
    pub civilians: Share,
    pub werewolves: Share,
    pub hamster: Share,
    pub draw: Share,
    /// Whether the town's observed rate is outside [`FAIR`] with at least [`FLAG_AFTER`] games.
    pub flagged: bool,
    /// The simulator's town win rate for the same setup, once estimated (cached).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub predicted: Option<Share>,
}

impl SetupView {
    /// The setups of `counts` (rows by setup and winner), most played first.
    pub fn all(counts: &[SetupCount]) -> Vec<SetupView> {
        let mut by_key: BTreeMap<&str, [u64; 4]> = BTreeMap::new();
        for c in counts {
            let slot = match c.winner.as_str() {
                "civilians" => 0,
                "werewolves" => 1,
                "hamster" => 2,
                _ => 3,
            };
            by_key.entry(c.setup_key.as_str()).or_default()[slot] += c.games.max(0) as u64;
        }
        let mut out: Vec<SetupView> = by_key.into_iter().map(|(k, w)| SetupView::of(k, w)).collect();
        out.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.key.cmp(&b.key)));
        out
    }

    fn of(key: &str, wins: [u64; 4]) -> SetupView {
        let parsed: serde_json::Value = serde_json::from_str(key).unwrap_or_default();
        let roles: BTreeMap<String, u64> = parsed["roles"]
            .as_object()
            .map(|o| o.iter().map(|(k, v)| (k.clone(), v.as_u64().unwrap_or(0))).collect())
            .unwrap_or_default();
        let roles_ru = roles
            .iter()
            .map(|(id, n)| {
                let name = id.parse::<Role>().map_or(id.as_str(), |r| r.ru()).to_lowercase();
                if *n > 1 {
                    format!("{name} ×{n}")
                } else {
                    name
                }
            })
            .collect::<Vec<_>>()
            .join(", ");
        let games: u64 = wins.iter().sum();
        let civilians = Share::of(wins[0], games);
        SetupView {
            key: key.to_string(),
            players: parsed["players"].as_u64().unwrap_or(0),
            roles,
            roles_ru,
            games,
            civilians,
            werewolves: Share::of(wins[1], games),
            hamster: Share::of(wins[2], games),
            draw: Share::of(wins[3], games),
            flagged: games >= FLAG_AFTER && !(FAIR.0..=FAIR.1).contains(&civilians.rate),
            predicted: None,
        }
    }

    /// «на этом сервере: 12 игр, мирные выиграли 7 (58%)».
    pub fn line_ru(&self) -> String {
        format!(
            "на этом сервере: {} {}, мирные выиграли {} ({:.0}%)",
            self.games,
            ostrov_engine::plural::form(self.games, "игра", "игры", "игр"),
            self.civilians.wins,
            self.civilians.rate * 100.0
        )
    }
}
