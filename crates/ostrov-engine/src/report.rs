//! The JSON report of GAME_FILE.md: the host's view of a whole game, by name.
//!
//! Field names are a contract other tools depend on; fields beyond the required ones
//! are additions (`ballots`, `leader`, `next_event`, `notices`, …).

use serde::{Deserialize, Serialize};

use crate::error::ResolveError;
use crate::event::Event;
use crate::gamefile::Game;
use crate::item::Item;
use crate::notice::{Notice, NoticeKind};
use crate::play::{play, Match};
use crate::player::PlayerId;
use crate::role::Role;
use crate::side::Side;
use crate::state::State;

/// The whole report (`ostrov resolve FILE --json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub title: Option<String>,
    /// `civilians`, `werewolves`, `hamster`, `draw`, or `null` while the game goes on.
    pub winner: Option<String>,
    /// The day the game ended, if it did.
    #[serde(default)]
    pub ended_on: Option<u32>,
    /// Every player, in the fixed list order.
    pub players: Vec<PlayerReport>,
    pub days: Vec<DayReport>,
    /// Every private message, in the order they were sent.
    #[serde(default)]
    pub notices: Vec<NoticeReport>,
}

/// A player at the end of the report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerReport {
    pub name: String,
    pub role: Role,
    pub side: Side,
    /// A halfblood who became a werewolf.
    #[serde(default)]
    pub turned: bool,
    pub alive: bool,
    /// The item held (for the dead: the one they held when they died).
    pub item: Option<Item>,
    pub item_charged: Option<bool>,
    pub died_on_day: Option<u32>,
    /// `lynch`, `night` or `removed`.
    pub death: Option<String>,
}

/// One counted vote.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BallotReport {
    pub voter: String,
    pub target: String,
    /// `cast`, `missing`, `blocked`, `void`, `megaphone` or `authority`.
    pub kind: String,
}

/// One seer's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckReport {
    pub seer: String,
    pub target: String,
    /// `werewolf`, `not_werewolf` or `failed`.
    pub result: String,
}

/// One activation or automatic trigger of an item.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemUseReport {
    pub by: String,
    pub item: Item,
    pub target: Option<String>,
    /// `13:00`, `21:00` or `resolution`.
    pub stage: String,
    /// Whether it changed anything.
    #[serde(default = "yes")]
    pub effective: bool,
}

fn yes() -> bool {
    true
}

/// An order that did not count: exactly the three fields of GAME_FILE.md (tools compare
/// these entries whole); the time and the Russian reason are in [`RefusalReport`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RejectedReport {
    /// A player's name, or `host`.
    pub by: String,
    pub act: String,
    /// A code of [`crate::Refusal`], e.g. `late`, `target_dead`.
    pub reason: String,
}

/// The same refused order as in `rejected`, with when it was sent and why in Russian
/// (the report's `refusals`, in the same order as `rejected`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RefusalReport {
    pub by: String,
    pub act: String,
    pub reason: String,
    /// The reason in Russian.
    pub reason_ru: String,
    /// When it was sent, `HH:MM`.
    pub at: String,
}

/// One line of the resolution log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogReport {
    pub step: u8,
    pub text: String,
}

/// The authority's reveal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuthorityReport {
    pub by: String,
    pub from: String,
    pub target: String,
}

/// The host's action against a player (penalty or removal).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HostActionReport {
    pub target: String,
    pub reason: Option<String>,
}

/// The Spirit's question and its answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuestionReport {
    pub by: String,
    pub text: String,
    /// `yes`, `no`, or `null` when the host did not answer.
    pub answer: Option<String>,
}

/// One day of the report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DayReport {
    pub day: u32,
    pub event: Option<Event>,
    /// Counted votes, players with at least one vote, in list order.
    pub tally: Tally,
    pub lynched: Vec<String>,
    pub night_deaths: Vec<String>,
    pub checks: Vec<CheckReport>,
    pub assaulted: Vec<String>,
    pub items_used: Vec<ItemUseReport>,
    pub rejected: Vec<RejectedReport>,
    /// `rejected` with times and Russian reasons.
    #[serde(default)]
    pub refusals: Vec<RefusalReport>,
    pub log: Vec<LogReport>,
    #[serde(default)]
    pub ballots: Vec<BallotReport>,
    #[serde(default)]
    pub tsunami: bool,
    #[serde(default)]
    pub chosen: Option<String>,
    #[serde(default)]
    pub pair: Option<String>,
    #[serde(default)]
    pub bunker: Vec<String>,
    #[serde(default)]
    pub exchanges: Vec<[String; 2]>,
    #[serde(default)]
    pub lights: Vec<String>,
    #[serde(default)]
    pub question: Option<QuestionReport>,
    #[serde(default)]
    pub penalties: Vec<HostActionReport>,
    #[serde(default)]
    pub removed: Vec<HostActionReport>,
    #[serde(default)]
    pub authority: Option<AuthorityReport>,
    /// Fear: the elected leader and whom they lynched.
    #[serde(default)]
    pub leader: Option<String>,
    #[serde(default)]
    pub sentence: Option<String>,
    /// Whether a night followed the lynch.
    #[serde(default)]
    pub night: bool,
    /// The event drawn for the next day.
    #[serde(default)]
    pub next_event: Option<Event>,
    /// Set on the day the game ended.
    #[serde(default)]
    pub winner: Option<String>,
}

/// A tally: names and votes, kept in list order, written as a JSON object.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Tally(pub Vec<(String, u32)>);

impl Tally {
    /// The votes of `name`, 0 if none.
    pub fn get(&self, name: &str) -> u32 {
        self.0.iter().find(|(n, _)| n == name).map_or(0, |(_, v)| *v)
    }

    /// The sum of every vote.
    pub fn total(&self) -> u32 {
        self.0.iter().map(|(_, v)| v).sum()
    }
}

impl Serialize for Tally {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for Tally {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Tally;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map of names to votes")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<Tally, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = a.next_entry::<String, u32>()? {
                    out.push((k, v));
                }
                Ok(Tally(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// A private message, by name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoticeReport {
    pub day: u32,
    pub to: String,
    /// `role`, `pack`, `item`, `recharged`, `check`, `turned` or `answer`.
    pub kind: String,
    /// The message in Russian.
    pub text: String,
}

impl Report {
    /// The report of a match as it stands.
    pub fn of(m: &Match) -> Report {
        let st = &m.state;
        let name = |p: PlayerId| st.name(p).to_string();
        let names = |v: &[PlayerId]| v.iter().map(|p| name(*p)).collect::<Vec<_>>();
        let actor = |a: crate::order::Actor| match a {
            crate::order::Actor::Host => "host".to_string(),
            crate::order::Actor::Player(p) => name(p),
        };
        let players = st
            .list_order
            .iter()
            .map(|&id| {
                let p = st.player(id);
                PlayerReport {
                    name: p.name.clone(),
                    role: p.role,
                    side: p.role.side(),
                    turned: p.turned,
                    alive: p.alive,
                    item: p.item.map(|h| h.item),
                    item_charged: p.item.map(|h| h.charged),
                    died_on_day: p.died_on_day,
                    death: p.death.map(|d| d.id().to_string()),
                }
            })
            .collect();
        let days = m
            .days
            .iter()
            .map(|d| DayReport {
                day: d.day,
                event: d.event,
                tally: Tally(d.tally.iter().map(|(p, v)| (name(*p), *v)).collect()),
                lynched: names(&d.lynched),
                night_deaths: names(&d.night_deaths),
                checks: d
                    .checks
                    .iter()
                    .map(|c| CheckReport { seer: name(c.seer), target: name(c.target), result: c.result.id().into() })
                    .collect(),
                assaulted: names(&d.assaulted),
                items_used: d
                    .items_used
                    .iter()
                    .map(|u| ItemUseReport {
                        by: name(u.by),
                        item: u.item,
                        target: u.target.map(name),
                        stage: u.stage.id().into(),
                        effective: u.effective,
                    })
                    .collect(),
                rejected: d
                    .rejected
                    .iter()
                    .map(|r| RejectedReport { by: actor(r.by), act: r.act.id().into(), reason: r.reason.code().into() })
                    .collect(),
                refusals: d
                    .rejected
                    .iter()
                    .map(|r| RefusalReport {
                        by: actor(r.by),
                        act: r.act.id().into(),
                        reason: r.reason.code().into(),
                        reason_ru: r.reason.ru().into(),
                        at: r.at.to_string(),
                    })
                    .collect(),
                log: d.log.iter().map(|e| LogReport { step: e.step.number(), text: e.text.clone() }).collect(),
                ballots: d
                    .ballots
                    .iter()
                    .map(|b| BallotReport { voter: name(b.voter), target: name(b.target), kind: b.kind.id().into() })
                    .collect(),
                tsunami: d.tsunami,
                chosen: d.chosen.map(name),
                pair: d.pair.map(name),
                bunker: names(&d.bunker),
                exchanges: d.exchanges.iter().map(|(a, b)| [name(*a), name(*b)]).collect(),
                lights: names(&d.lights),
                question: d.question.as_ref().map(|(p, text)| QuestionReport {
                    by: name(*p),
                    text: text.clone(),
                    answer: d.answer.map(|a| if a { "yes" } else { "no" }.to_string()),
                }),
                penalties: d
                    .penalties
                    .iter()
                    .map(|(p, r)| HostActionReport { target: name(*p), reason: r.clone() })
                    .collect(),
                removed: d
                    .removed
                    .iter()
                    .map(|(p, r)| HostActionReport { target: name(*p), reason: r.clone() })
                    .collect(),
                authority: d.authority.map(|(a, f, t)| AuthorityReport { by: name(a), from: name(f), target: name(t) }),
                leader: d.leader.map(name),
                sentence: d.sentence.map(name),
                night: d.night,
                next_event: d.next_event,
                winner: d.winner.map(|w| w.id().to_string()),
            })
            .collect();
        let notices = st
            .notices
            .iter()
            .map(|n| NoticeReport {
                day: n.day,
                to: name(n.to),
                kind: notice_kind(&n.kind).into(),
                text: notice_text(st, n),
            })
            .collect();
        Report {
            title: m.title.clone(),
            winner: st.winner.map(|w| w.id().to_string()),
            ended_on: st.ended_on,
            players,
            days,
            notices,
        }
    }

    /// The report as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report always serialises")
    }
}

fn notice_kind(k: &NoticeKind) -> &'static str {
    match k {
        NoticeKind::Role(_) => "role",
        NoticeKind::Pack(_) => "pack",
        NoticeKind::Item { .. } => "item",
        NoticeKind::Recharged(_) => "recharged",
        NoticeKind::Check { .. } => "check",
        NoticeKind::Turned => "turned",
        NoticeKind::Answer(_) => "answer",
        NoticeKind::Assaulted => "assaulted",
    }
}

/// A private message in Russian, as its recipient reads it (a role agrees with their
/// gender).
pub fn notice_text(st: &State, n: &Notice) -> String {
    use crate::notice::ItemSource;
    use crate::role::CheckResult;
    let held = |h: &Option<crate::item::Held>| match h {
        Some(h) if h.charged => h.item.ru().to_string(),
        Some(h) => format!("{} (использована)", h.item.ru()),
        None => "ничего".to_string(),
    };
    match &n.kind {
        NoticeKind::Role(r) => crate::ru::say::your_role(st.who(n.to), *r),
        NoticeKind::Pack(v) => {
            let names: Vec<String> = v.iter().map(|p| st.name(*p).to_string()).collect();
            format!("Ваша стая: {}.", names.join(", "))
        }
        NoticeKind::Item { item, source } => {
            let how = match source {
                ItemSource::Dealt => "Вам выпала вещь",
                ItemSource::Tsunami => "После цунами у вас",
                ItemSource::Bunker => "Из бункера вы получили",
                ItemSource::Exchange => "По обмену вы получили",
                ItemSource::Swap => "Ночью Лунатик поменял вашу вещь, теперь у вас",
            };
            format!("{how}: {}.", held(item))
        }
        NoticeKind::Recharged(h) => format!("Ваша вещь снова заряжена: {}.", h.item.ru()),
        NoticeKind::Check { target, result } => {
            let what = match result {
                CheckResult::Werewolf => "оборотень",
                CheckResult::NotWerewolf => "не оборотень",
                CheckResult::Failed => "проверка не удалась",
            };
            format!("Проверка: {} — {what}.", st.name(*target))
        }
        NoticeKind::Turned => "Последний оборотень погиб: теперь вы оборотень и убиваете ночью.".to_string(),
        NoticeKind::Answer(a) => format!("Дух ответил на ваш вопрос: {}.", if *a { "да" } else { "нет" }),
        NoticeKind::Assaulted => {
            "Этой ночью вас навестил Сексманьяк: завтра у вас нет голоса и вы не можете говорить.".to_string()
        }
    }
}

/// Resolves a whole game file: every day, in order.
///
/// ```
/// let game = ostrov_engine::Game::parse(include_str!("../../../games/sample.toml")).unwrap();
/// let report = ostrov_engine::resolve(&game).unwrap();
/// assert!(!report.days.is_empty());
/// ```
pub fn resolve(game: &Game) -> Result<Report, ResolveError> {
    let m = play(game, true)?;
    Ok(Report::of(&m))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gamefile::Game;

    /// The role line of each player's inbox, for a game of `players` (TOML entries).
    fn role_lines(players: &str) -> Vec<String> {
        let g = Game::parse(players).unwrap();
        let m = Match::new(&g.setup, true);
        let st = &m.state;
        st.notices.iter().filter(|n| matches!(n.kind, NoticeKind::Role(_))).map(|n| notice_text(st, n)).collect()
    }

    #[test]
    fn the_inbox_role_line_agrees_with_the_gender_and_says_the_side_in_words() {
        let lines = role_lines(
            "[[players]]\nname = \"Тётя_Мотя\"\nrole = \"seer\"\ngender = \"f\"\n\
             [[players]]\nname = \"Кот\"\nrole = \"seer\"\ngender = \"m\"\n\
             [[players]]\nname = \"Kot2000\"\nrole = \"seer\"\n\
             [[players]]\nname = \"Маша\"\nrole = \"untouchable\"\n\
             [[players]]\nname = \"Женя\"\nrole = \"passenger\"\ngender = \"ж\"\n\
             [[players]]\nname = \"Лев\"\nrole = \"passenger\"\n\
             [[players]]\nname = \"Аня\"\nrole = \"nurse\"\n\
             [[players]]\nname = \"Боря\"\nrole = \"nurse\"\n\
             [[players]]\nname = \"Гоша\"\nrole = \"witch\"\n\
             [[players]]\nname = \"Дина\"\nrole = \"werewolf\"\n\
             [[players]]\nname = \"Зоя\"\nrole = \"hamster\"\n\
             [[players]]\nname = \"Zork\"\nrole = \"hamster\"\n",
        );
        assert_eq!(
            lines,
            [
                "Ваша роль: Ясновидящая, сторона — мирные жители.",
                "Ваша роль: Ясновидящий, сторона — мирные жители.",
                // No gender given, none known: the role's own name.
                "Ваша роль: Ясновидящий, сторона — мирные жители.",
                // The first-name table knows Маша is a woman.
                "Ваша роль: Неприкасаемая, сторона — мирные жители.",
                "Ваша роль: Пассажирка, сторона — мирные жители.",
                "Ваша роль: Пассажир, сторона — мирные жители.",
                // Issue 29, point 3: one table of both forms — a woman is «Медсестра», a
                // man «Медбрат», a man who is the witch «Колдун».
                "Ваша роль: Медсестра, сторона — мирные жители.",
                "Ваша роль: Медбрат, сторона — мирные жители.",
                "Ваша роль: Колдун, сторона — мирные жители.",
                "Ваша роль: Оборотень, сторона — оборотни.",
                "Ваша роль: Хомяк-Мутант, вы играете сама за себя.",
                "Ваша роль: Хомяк-Мутант, вы играете только за себя.",
            ]
        );
    }
}
