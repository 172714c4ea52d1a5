//! The three newspapers: the 13:00 bulletin, the evening newspaper and the final one.

use ostrov_engine::plural::{form, votes};
use ostrov_engine::{BallotKind, DayRecord, Death, Event, Item, ItemUse, Match, PlayerId, Snapshot, Stage};

use crate::doc::{b, t, Doc, Line, Span};
use crate::title;

fn record(m: &Match, day: u32) -> Option<&DayRecord> {
    m.days.get((day as usize).checked_sub(1)?)
}

fn name(m: &Match, p: PlayerId) -> String {
    m.state.name(p).to_string()
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
        let pl = m.state.player(p);
        let mut s = pl.role.ru().to_string();
        if pl.turned && snapshot(m, day, p).is_some_and(|s| s.turned) {
            s.push_str(", ставший оборотнем");
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

fn event_line(event: Option<Event>) -> Line {
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
    if r.event == Some(Event::MagneticStorm) {
        news.push(vec![t("Магнитная буря: до завтрашнего утра не работает ни одна вещь.")]);
    }
    if let Some(c) = r.chosen {
        let mut l = vec![t("«Выбери меня!»: иммунитет на линч у игрока "), b(name(m, c))];
        match r.pair {
            Some(p) => l.extend([t(", пара — "), b(name(m, p)), t(" (тоже под иммунитетом).")]),
            None => l.push(t(", пару не выбрал(а).")),
        }
        news.push(l);
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
        news.push(vec![t("Вопрос Духу Острова от "), b(name(m, *p)), t(format!(": «{q}»"))]);
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

fn ballot_note(k: BallotKind) -> &'static str {
    match k {
        BallotKind::Cast => "",
        BallotKind::Missing => "не проголосовал(а) — голос на себе",
        BallotKind::Blocked => "без права голоса — голос на себе",
        BallotKind::Void => "голос недействителен — на себе",
        BallotKind::Megaphone => "рупор",
        BallotKind::Authority => "голос забран Авторитетом",
    }
}

/// The evening newspaper of `day`, after the 21:00 resolution.
pub fn evening(m: &Match, day: u32) -> Doc {
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
    if let Some((a, from, to)) = r.authority {
        d.p(vec![
            b(name(m, a)),
            t(" открывается: Авторитет! Забирает голос у игрока "),
            b(name(m, from)),
            t(" и отдаёт его за "),
            b(name(m, to)),
            t("."),
        ]);
    }

    // The vote.
    let fear = r.event == Some(Event::Fear);
    d.h(2, if fear { "Выборы лидера" } else { "Голосование" });
    if !r.ballots.is_empty() {
        let rows = r
            .ballots
            .iter()
            .map(|bl| vec![vec![t(name(m, bl.voter))], vec![t(name(m, bl.target))], vec![t(ballot_note(bl.kind))]])
            .collect();
        d.table(&["Кто", "За кого", "Примечание"], rows);
    }
    let mut tally = r.tally.clone();
    tally.sort_by_key(|(p, v)| (std::cmp::Reverse(*v), m.state.position[p.index()]));
    let total: u32 = tally.iter().map(|(_, v)| v).sum();
    d.list(tally.iter().map(|(p, v)| vec![b(name(m, *p)), t(format!(" — {}", votes(*v)))]).collect());
    d.text(format!("Всего {} {}.", total, form(total as u64, "голос", "голоса", "голосов")));

    if fear {
        match (r.leader, r.sentence) {
            (Some(l), Some(s)) => d.p(vec![t("Лидер — "), b(name(m, l)), t(". Его приговор: "), b(name(m, s)), t(".")]),
            (Some(l), None) => d.p(vec![t("Лидер — "), b(name(m, l)), t(". Приговора нет.")]),
            (None, _) => d.text("Лидер не избран."),
        }
    }
    if r.lynched.is_empty() {
        d.p(vec![b("Сегодня никого не линчевали.")]);
    } else {
        let mut l = vec![t(if r.lynched.len() == 1 { "Линчеван(а): " } else { "Линчеваны: " })];
        for (i, p) in r.lynched.iter().enumerate() {
            if i > 0 {
                l.push(t(", "));
            }
            l.extend(dead_with_role(m, day, *p));
        }
        l.push(t("."));
        d.p(l);
    }

    // The night.
    if r.night {
        d.h(2, "Ночь");
        if r.night_deaths.is_empty() {
            d.text("Ночь прошла спокойно: никто не погиб.");
        } else {
            let mut l = vec![t("Этой ночью погибли: ")];
            for (i, p) in r.night_deaths.iter().enumerate() {
                if i > 0 {
                    l.push(t(", "));
                }
                l.extend(dead_with_role(m, day, *p));
            }
            l.push(t("."));
            d.p(l);
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
        d.p(vec![b(name(m, *p)), t(format!(" спросил(а): «{q}» Ответ Духа: {answer}"))]);
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
    let pl = m.state.player(p);
    let day = pl.died_on_day.unwrap_or(0);
    match pl.death {
        Some(Death::Lynch) => format!("линч, день {day}"),
        Some(Death::Night) => format!("ночь {day}"),
        Some(Death::Removed) => format!("дисквалификация, день {day}"),
        None => "жив(а)".to_string(),
    }
}

/// The fixed player list: living players with their passive items, the dead crossed out.
fn players_table(m: &Match, day: u32, d: &mut Doc) {
    let Some(r) = record(m, day) else { return };
    d.h(2, "Игроки");
    let mut rows = Vec::new();
    let mut alive = 0;
    for (i, s) in r.snapshot.iter().enumerate() {
        let n = name(m, s.id);
        let role = if revealed(m, day, s.id) { role_of(m, day, s.id) } else { String::new() };
        let row = if s.alive {
            alive += 1;
            let item = s.item.filter(|h| h.item.is_passive()).map_or(String::new(), |h| h.item.ru().to_string());
            vec![vec![t((i + 1).to_string())], vec![b(n)], vec![t(role)], vec![t(item)], vec![t("жив(а)")]]
        } else {
            let role = if role.is_empty() { "роль скрыта".to_string() } else { role };
            vec![
                vec![t((i + 1).to_string())],
                vec![Span::Strike(n)],
                vec![t(role)],
                vec![],
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
    d.table(&["День", "Линчеван(ы)"], rows);
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
        vec![t(format!("Линчевано: {lynched}"))],
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
    match m.state.winner {
        Some(w) => d.p(vec![
            t("Игра окончена: "),
            b(w.ru()),
            t(format!(" (день {}).", m.state.ended_on.unwrap_or(m.state.day))),
        ]),
        None => d.text("Игра ещё идёт."),
    }
    let over = m.state.winner.is_some();
    let rows = m
        .state
        .list_order
        .iter()
        .enumerate()
        .map(|(i, &p)| {
            let pl = m.state.player(p);
            let role =
                if over || pl.role_public { pl.role.ru().to_string() } else { "роль скрыта".to_string() };
            let item =
                if over { pl.item.map_or("—".to_string(), |h| h.item.ru().to_string()) } else { String::new() };
            let status = if pl.alive { "жив(а)".to_string() } else { death_note(m, p) };
            let n = if pl.alive { b(pl.name.clone()) } else { Span::Strike(pl.name.clone()) };
            vec![vec![t((i + 1).to_string())], vec![n], vec![t(role)], vec![t(item)], vec![t(status)]]
        })
        .collect();
    d.table(&["№", "Игрок", "Роль", "Вещь", "Итог"], rows);
    d
}
