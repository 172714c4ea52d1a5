//! The three newspapers: the 13:00 bulletin, the evening newspaper and the final one.

use ostrov_engine::plural::form;
use ostrov_engine::ru::{self, say, Case, Phrase, Piece};
use ostrov_engine::{
    Act, Actor, BallotKind, DayRecord, Death, Event, Item, ItemUse, Match, PlayerId, Snapshot, Stage, Viewer,
};

use crate::doc::{b, t, Doc, Line, Span};
use crate::title;

fn record(m: &Match, day: u32) -> Option<&DayRecord> {
    m.days.get((day as usize).checked_sub(1)?)
}

fn name(m: &Match, p: PlayerId) -> String {
    m.state().name(p).to_string()
}

/// A sentence of the Russian-text module as a newspaper line: names in bold.
pub(crate) fn line(ph: Phrase) -> Line {
    ph.0.into_iter()
        .map(|p| match p {
            Piece::Text(s) => t(s),
            Piece::Name(s) => b(s),
        })
        .collect()
}

/// [`line`] with a full stop.
pub(crate) fn sentence(ph: Phrase) -> Line {
    line(ph.t("."))
}

/// The event of the day after `day`: the one the next day actually had, else the one drawn.
fn next_event(m: &Match, day: u32) -> Option<Event> {
    match record(m, day + 1) {
        Some(r) => r.event,
        None => record(m, day).and_then(|r| r.next_event),
    }
}

fn game_over_on(m: &Match, day: u32) -> bool {
    record(m, day).is_some_and(|r| r.winner.is_some())
}

fn snapshot(m: &Match, day: u32, p: PlayerId) -> Option<&Snapshot> {
    record(m, day)?.snapshot.iter().find(|s| s.id == p)
}

/// Whether the role of `p` is public in the newspaper of the evening of `day`: revealed by
/// death (the night's dead in this very paper, unless the next day is a Solar eclipse), by
/// the authority, by a removal, or because the game is over.
pub fn revealed(m: &Match, day: u32, p: PlayerId) -> bool {
    if game_over_on(m, day) {
        return true;
    }
    if snapshot(m, day, p).is_some_and(|s| s.role_public) {
        return true;
    }
    record(m, day).is_some_and(|r| r.night_deaths.contains(&p)) && next_event(m, day) != Some(Event::SolarEclipse)
}

fn role_of(m: &Match, day: u32, p: PlayerId) -> String {
    if revealed(m, day, p) {
        let pl = m.state().player(p);
        let mut s = ru::role(pl.role, pl.speech.gender).to_string();
        if pl.turned && snapshot(m, day, p).is_some_and(|s| s.turned) {
            s.push_str(" — уже оборотень");
        }
        s
    } else {
        "роль скрыта".to_string()
    }
}

/// "Боря (Оборотень)" or "Боря (роль скрыта)".
fn dead_with_role(m: &Match, day: u32, p: PlayerId) -> Line {
    vec![b(name(m, p)), t(format!(" ({})", role_of(m, day, p)))]
}

fn use_line(m: &Match, u: &ItemUse) -> Line {
    let mut l = vec![b(name(m, u.by)), t(": "), t(u.item.ru())];
    match (u.stage, u.target) {
        (_, Some(target)) => l.extend([t(" → "), b(name(m, target))]),
        (Stage::Resolution, None) => l.push(t(" — сработала защита")),
        (_, None) => {}
    }
    if !u.effective {
        l.push(t(" (впустую)"));
    }
    l
}

pub(crate) fn event_line(event: Option<Event>) -> Line {
    match event {
        Some(e) => vec![t("Событие дня: "), b(e.ru()), t(format!(" — {}", e.meaning_ru()))],
        None => vec![t("Событие дня: нет.")],
    }
}

/// The 13:00 bulletin of `day`: the event's actions settled, item uses sent before 13:00.
///
/// Works for the open day too once its 13:00 stage has run ([`Match::record`]).
pub fn bulletin(m: &Match, day: u32) -> Doc {
    let mut d = Doc::default();
    let Some(r) = m.record(day) else { return d };
    d.h(1, title(m, &format!("День {day}, 13:00")));
    d.p(event_line(r.event));
    let mut news: Vec<Line> = Vec::new();
    if r.tsunami {
        news.push(vec![t("Цунами собрало вещи живых игроков и раздало их заново.")]);
    }
    if let Some(c) = r.chosen {
        let ph = Phrase::new().t("«Выбери меня!»: иммунитет на линч — у ").c(m.state().who(c), Case::Gen);
        news.push(sentence(match r.pair {
            Some(p) => ph.t(", пара — ").n(m.state().who(p)).t(" (тоже под иммунитетом)"),
            None => ph.t("; пары нет"),
        }));
    }
    if !r.bunker.is_empty() {
        news.push(vec![t("Сменили вещь в бункере: "), t(join(m, &r.bunker)), t(".")]);
    } else if r.event == Some(Event::Bunker) {
        news.push(vec![t("В бункер никто не пошёл.")]);
    }
    for (a, c) in &r.exchanges {
        news.push(vec![t("Обменялись вещами: "), b(name(m, *a)), t(" и "), b(name(m, *c)), t(".")]);
    }
    if r.event == Some(Event::Exchange) && r.exchanges.is_empty() {
        news.push(vec![t("Обменов не было.")]);
    }
    if !r.lights.is_empty() {
        news.push(vec![t("Мистический свет перезарядил вещи: "), t(join(m, &r.lights)), t(".")]);
    }
    if let Some((p, q)) = &r.question {
        news.push(line(Phrase::new().n(m.state().who(*p)).t(format!(" спрашивает Духа Острова: «{q}»"))));
    } else if r.event == Some(Event::SpiritCall) {
        news.push(vec![t("Духу Острова никто не задал вопроса.")]);
    }
    let uses: Vec<Line> = r.items_used.iter().filter(|u| u.stage == Stage::Midday).map(|u| use_line(m, u)).collect();
    if news.is_empty() && uses.is_empty() {
        d.text("До 13:00 ничего не произошло.");
    }
    d.list(news);
    if !uses.is_empty() {
        d.h(2, "Вещи, применённые до 13:00");
        d.list(uses);
    }
    d
}

fn join(m: &Match, v: &[PlayerId]) -> String {
    v.iter().map(|p| name(m, *p)).collect::<Vec<_>>().join(", ")
}

/// The note beside a ballot in the vote table. A vote order the rules refused when it was
/// sent (a vote for a player already out, a late one …) is shown as refused, with why.
fn ballot_note(r: &DayRecord, voter: PlayerId, k: BallotKind) -> String {
    let refused =
        || r.rejected.iter().rev().find(|x| x.by == Actor::Player(voter) && x.act == Act::Vote).map(|x| x.reason);
    match k {
        BallotKind::Cast => String::new(),
        BallotKind::Missing => match refused() {
            Some(why) => format!("не принят: {}", why.ru()),
            None => "не подан".to_string(),
        },
        BallotKind::Blocked => "нет права голоса".to_string(),
        BallotKind::Void => "недействителен".to_string(),
        BallotKind::Megaphone => "рупор".to_string(),
        BallotKind::Authority => "голос забран Авторитетом".to_string(),
    }
}

/// A vote that stays on its owner says so once, in the target's column, and never
/// repeats the name (issue 29, point 4): «на себе».
fn stays(k: BallotKind) -> bool {
    matches!(k, BallotKind::Missing | BallotKind::Blocked | BallotKind::Void)
}

/// The evening newspaper of `day`, after the 21:00 resolution.
pub fn evening(m: &Match, day: u32) -> Doc {
    evening_with(m, day, &[])
}

/// A substitute who took a seat (issue 30, point 4): the seat, and the account's name.
/// The engine does not know who plays a seat; the server that seats the substitute says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Substitute {
    pub seat: PlayerId,
    pub by: String,
}

/// [`evening`] with the day's substitutes among the host's decisions: «Аню заменяет
/// Новичок».
pub fn evening_with(m: &Match, day: u32, substitutes: &[Substitute]) -> Doc {
    let mut d = Doc::default();
    let Some(r) = record(m, day) else { return d };
    d.h(1, title(m, &format!("День {day}, вечерняя газета")));
    d.p(event_line(r.event));

    // The host's decisions.
    let mut host: Vec<Line> = Vec::new();
    for (p, why) in &r.penalties {
        let mut l = vec![t("Ведущий лишил голоса на сегодня: "), b(name(m, *p))];
        if let Some(w) = why {
            l.push(t(format!(" ({w})")));
        }
        host.push(l);
    }
    for (p, why) in &r.removed {
        let mut l = vec![t("Ведущий дисквалифицировал: ")];
        l.extend(dead_with_role(m, day, *p));
        if let Some(w) = why {
            l.push(t(format!(" — {w}")));
        }
        host.push(l);
    }
    for s in substitutes.iter().filter(|s| s.seat.index() < m.state().players().len()) {
        host.push(line(say::substitute(m.state().who(s.seat), &s.by)));
    }
    if !host.is_empty() {
        d.h(2, "Решения ведущего");
        d.list(host);
    }

    // Items.
    let uses: Vec<Line> = r.items_used.iter().filter(|u| u.stage != Stage::Midday).map(|u| use_line(m, u)).collect();
    if !uses.is_empty() {
        d.h(2, "Вещи");
        d.list(uses);
    }

    // The vote.
    let fear = r.event == Some(Event::Fear);
    d.h(2, if fear { "Выборы лидера" } else { "Голосование" });
    if !r.ballots.is_empty() {
        let mut rows: Vec<Vec<Line>> = r
            .ballots
            .iter()
            .map(|bl| {
                let target = if stays(bl.kind) && bl.target == bl.voter {
                    "на себе".to_string()
                } else {
                    name(m, bl.target)
                };
                let note = ballot_note(r, bl.voter, bl.kind);
                vec![
                    vec![t(name(m, bl.voter))],
                    vec![t(target)],
                    vec![t(if note.is_empty() { "—".into() } else { note })],
                ]
            })
            .collect();
        if fear {
            // R-VOTE-3: on Fear a blocked vote does not exist, but its owner stays in the
            // table, saying why (issue 29, point 4).
            for s in r.snapshot.iter().filter(|s| s.alive && !r.ballots.iter().any(|b| b.voter == s.id)) {
                let why = if r.penalties.iter().any(|(p, _)| *p == s.id) {
                    "штраф ведущего"
                } else {
                    "голоса нет"
                };
                rows.push(vec![vec![t(name(m, s.id))], vec![t("—")], vec![t(format!("не голосует: {why}"))]]);
            }
        }
        d.table(&["Кто", "Против кого", "Примечание"], rows);
    }
    let mut tally = r.tally.clone();
    tally.sort_by_key(|(p, v)| (std::cmp::Reverse(*v), m.state().list_position(*p)));
    let total: u32 = tally.iter().map(|(_, v)| v).sum();
    d.list(tally.iter().map(|(p, v)| line(say::tally_item(m.state().who(*p), *v))).collect());
    d.text(format!("Всего {} {}.", total, form(total as u64, "голос", "голоса", "голосов")));
    // Why the lynch went as it did: the tie, a bomb, a sheep skin, the authority … (steps 1–7).
    d.list(r.public.iter().filter(|(s, _)| s.is_day_vote()).map(|(_, ph)| sentence(ph.clone())).collect());

    if fear {
        match (r.leader, r.sentence) {
            (Some(l), Some(s)) => {
                d.p(vec![t("Лидер — "), b(name(m, l)), t(". Приговор лидера: "), b(name(m, s)), t(".")])
            }
            (Some(l), None) => d.p(vec![t("Лидер — "), b(name(m, l)), t(". Приговора нет.")]),
            (None, _) => d.text("Лидер не избран."),
        }
    }
    if r.lynched.is_empty() {
        d.p(vec![b("Сегодня никого не линчевали.")]);
    } else {
        d.p(deaths(m, day, &r.lynched, say::lynched, "Линчёваны: "));
    }

    // The night.
    if r.night {
        d.h(2, "Ночь");
        // Public explanations of the night (a moon fern, the maniac's visit …), steps 8–20.
        d.list(r.public.iter().filter(|(s, _)| s.is_night()).map(|(_, ph)| sentence(ph.clone())).collect());
        if r.night_deaths.is_empty() {
            d.text("Ночь прошла спокойно: никто не погиб.");
        } else {
            d.p(deaths(
                m,
                day,
                &r.night_deaths,
                say::died,
                &format!("Этой ночью погибли {}: ", people(r.night_deaths.len())),
            ));
            if next_event(m, day) == Some(Event::SolarEclipse) && !game_over_on(m, day) {
                d.text("Солнечное затмение: роли погибших этой ночью откроются только в конце игры.");
            }
        }
    }

    // The Spirit.
    if let Some((p, q)) = &r.question {
        d.h(2, "Дух Острова");
        let answer = match r.answer {
            Some(true) => "«Да».",
            Some(false) => "«Нет».",
            None => "Дух промолчал.",
        };
        d.p(line(
            Phrase::new().t("Вопрос ").c(m.state().who(*p), Case::Gen).t(format!(": «{q}» Ответ Духа: {answer}")),
        ));
    }

    players_table(m, day, &mut d);
    lynch_table(m, day, &mut d);
    statistics(m, day, &mut d);

    if let Some(w) = r.winner {
        d.h(2, "Игра окончена");
        d.p(vec![b(capitalise(w.ru())), t("!")]);
    } else if let Some(e) = next_event(m, day) {
        d.h(2, format!("Завтра, день {}", day + 1));
        d.p(vec![t("Событие: "), b(e.ru()), t(format!(" — {}", e.meaning_ru()))]);
    } else {
        d.h(2, format!("Завтра, день {}", day + 1));
        d.text("Завтра без события.");
    }
    d
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn death_note(m: &Match, p: PlayerId) -> String {
    let pl = m.state().player(p);
    let day = pl.died_on_day.unwrap_or(0);
    match pl.death {
        Some(Death::Lynch) => format!("линч, день {day}"),
        Some(Death::Night) => format!("ночь {day}"),
        Some(Death::Removed) => format!("дисквалификация, день {day}"),
        None => "в игре".to_string(),
    }
}

/// «двое», «трое» … for the night's dead.
fn people(n: usize) -> String {
    match n {
        2 => "двое".into(),
        3 => "трое".into(),
        4 => "четверо".into(),
        n => format!("{n} {}", form(n as u64, "игрок", "игрока", "игроков")),
    }
}

/// One lynched or dead player as a sentence (`one`, with the role in brackets), or several
/// after `many` («Линчеваны: A (Пассажир), B (роль скрыта).»).
fn deaths(
    m: &Match,
    day: u32,
    who: &[PlayerId],
    one: fn(ru::Who, Option<ostrov_engine::Role>) -> Phrase,
    many: &str,
) -> Line {
    let mut l = Vec::new();
    if let [p] = who {
        l.extend(line(one(m.state().who(*p), None)));
        l.push(t(format!(" ({})", role_of(m, day, *p))));
    } else {
        l.push(t(many));
        for (i, p) in who.iter().enumerate() {
            if i > 0 {
                l.push(t(", "));
            }
            l.extend(dead_with_role(m, day, *p));
        }
    }
    l.push(t("."));
    l
}

/// The fixed player list: living players with their passive items, the dead crossed out.
fn players_table(m: &Match, day: u32, d: &mut Doc) {
    let Some(r) = record(m, day) else { return };
    d.h(2, "Игроки");
    let mut rows = Vec::new();
    let mut alive = 0;
    for (i, s) in r.snapshot.iter().enumerate() {
        let n = name(m, s.id);
        // Every cell says something (issue 29, point 5): a hidden role is «роль скрыта», no
        // item shown is «—», so no column reads as another in Markdown or BBCode.
        let role = role_of(m, day, s.id);
        let row = if s.alive {
            alive += 1;
            let item = s.item.filter(|h| h.item.is_passive()).map_or("—".to_string(), |h| h.item.ru().to_string());
            vec![vec![t((i + 1).to_string())], vec![b(n)], vec![t(role)], vec![t(item)], vec![t("в игре")]]
        } else {
            vec![
                vec![t((i + 1).to_string())],
                vec![Span::Strike(n)],
                vec![t(role)],
                vec![t("—")],
                vec![t(death_note(m, s.id))],
            ]
        };
        rows.push(row);
    }
    d.table(&["№", "Игрок", "Роль", "Вещь", "Статус"], rows);
    d.text(format!("В живых: {alive} {}.", form(alive, "игрок", "игрока", "игроков")));
}

/// Every lynch so far.
fn lynch_table(m: &Match, day: u32, d: &mut Doc) {
    d.h(2, "Все линчи");
    let rows = m.days[..day as usize]
        .iter()
        .map(|r| {
            let who: Line = if r.lynched.is_empty() {
                vec![t("никого")]
            } else {
                let mut l = Vec::new();
                for (i, p) in r.lynched.iter().enumerate() {
                    if i > 0 {
                        l.push(t(", "));
                    }
                    l.extend(dead_with_role(m, day, *p));
                }
                l
            };
            vec![vec![t(r.day.to_string())], who]
        })
        .collect();
    d.table(&["День", "Линч"], rows);
}

/// Kills and item activations so far.
fn statistics(m: &Match, day: u32, d: &mut Doc) {
    let days = &m.days[..day as usize];
    let lynched: usize = days.iter().map(|r| r.lynched.len()).sum();
    let night: usize = days.iter().map(|r| r.night_deaths.len()).sum();
    let removed: usize = days.iter().map(|r| r.removed.len()).sum();
    let nights_quiet = days.iter().filter(|r| r.night && r.night_deaths.is_empty()).count();
    d.h(2, "Статистика");
    let mut l = vec![
        vec![t(format!("Линчёвано: {lynched}"))],
        vec![t(format!("Погибло ночью: {night}"))],
        vec![t(format!("Спокойных ночей: {nights_quiet}"))],
    ];
    if removed > 0 {
        l.push(vec![t(format!("Дисквалифицировано: {removed}"))]);
    }
    let mut counts: Vec<(Item, usize)> = Vec::new();
    for u in days.iter().flat_map(|r| &r.items_used) {
        match counts.iter_mut().find(|(i, _)| *i == u.item) {
            Some((_, c)) => *c += 1,
            None => counts.push((u.item, 1)),
        }
    }
    counts.sort_by_key(|(i, _)| *i);
    let total: usize = counts.iter().map(|(_, c)| c).sum();
    let mut s = format!("Применено вещей: {total}");
    if !counts.is_empty() {
        let parts: Vec<String> = counts.iter().map(|(i, c)| format!("{} — {c}", i.ru())).collect();
        s.push_str(&format!(" ({})", parts.join(", ")));
    }
    l.push(vec![t(s)]);
    d.list(l);
}

/// The final newspaper: the winner and every role revealed.
pub fn final_paper(m: &Match) -> Doc {
    let mut d = Doc::default();
    d.h(1, title(m, "итоги игры"));
    match m.state().winner() {
        Some(w) => d.p(vec![t("Игра окончена: "), b(w.ru()), t(format!(" (день {}).", m.state().last_day()))]),
        None => d.text("Игра ещё идёт."),
    }
    let over = m.state().winner().is_some();
    let rows = m
        .state()
        .list_order()
        .iter()
        .enumerate()
        .map(|(i, &p)| {
            let pl = m.state().player(p);
            let role = if m.sight(Viewer::Outsider).role(p) {
                ru::role(pl.role, pl.speech.gender).to_string()
            } else {
                "роль скрыта".to_string()
            };
            let item =
                if over { pl.item.map_or("—".to_string(), |h| h.item.ru().to_string()) } else { "—".to_string() };
            let status = if pl.alive { "в игре".to_string() } else { death_note(m, p) };
            let n = if pl.alive { b(pl.name.clone()) } else { Span::Strike(pl.name.clone()) };
            vec![vec![t((i + 1).to_string())], vec![n], vec![t(role)], vec![t(item)], vec![t(status)]]
        })
        .collect();
    d.table(&["№", "Игрок", "Роль", "Вещь", "Итог"], rows);
    d
}
