//! The corpus of every sentence the product prints, in both genders (issue 29, "Done
//! when"): every template of the step log (`ru::say`), the newspapers, the private
//! messages and the opening post (every scenario of the suite played by four casts), the
//! page texts and the order forms, rendered with men, women, women with nicknames and
//! players of unknown gender (declined first names and nicknames). The corpus is a
//! snapshot, read by a host once; [`lint`] fails on a masculine past tense or adjective
//! next to a woman, «(а)», Latin letters outside names, a plural that disagrees with its
//! number, and `!:`. `lint_catches_planted_errors` shows each rule catching its error.

use std::collections::BTreeSet;

use ostrov_engine::plural::form;
use ostrov_engine::ru::{say, Gender, Speech, Who};
use ostrov_engine::{play, Game, Item, Role, Speech as Talk};
use ostrov_paper::Format;

/// A cast: twelve players of one kind.
struct Cast {
    title: &'static str,
    names: [&'static str; 12],
    /// The gender written into the game file (none: the first-name table's, or unknown).
    gender: Option<&'static str>,
    /// Whether every player is a woman (what the lint checks the masculine against).
    women: bool,
}

const CASTS: [Cast; 4] = [
    Cast {
        title: "мужчины (имена склоняются)",
        names: ["Лев", "Игорь", "Никита", "Боря", "Гоша", "Егор", "Дима", "Илья", "Гена", "Миша", "Петя", "Костя"],
        gender: None,
        women: false,
    },
    Cast {
        title: "женщины (имена склоняются)",
        names: ["Маша", "Аня", "Дина", "Зоя", "Любовь", "Вика", "Даша", "Катя", "Света", "Лиза", "Нина", "Оля"],
        gender: None,
        women: true,
    },
    Cast {
        title: "женщины с никами (пол указан, ник не склоняется)",
        names: [
            "Тётя_Мотя",
            "Kisa",
            "Ведьмочка",
            "Ромашка88",
            "Ёлка",
            "Lady_M",
            "Мурка",
            "Снежинка",
            "Пчёлка",
            "Zaya",
            "Лиса_Алиса",
            "Ягодка",
        ],
        gender: Some("f"),
        women: true,
    },
    Cast {
        title: "пол неизвестен (ники)",
        names: [
            "Kot2000",
            "Кот_Бегемот",
            "[Админ]",
            "Тень",
            "Гость_42",
            "Zork",
            "Сова",
            "Шторм",
            "Ветер",
            "Эхо",
            "Нео",
            "Бобр",
        ],
        gender: None,
        women: false,
    },
];

fn speeches(c: &Cast) -> Vec<Speech> {
    c.names.iter().map(|n| Speech::resolve(n, c.gender, None).unwrap()).collect()
}

/// A scenario's game file with its players renamed to the cast (and the cast's gender
/// written in); `None` when the file does not take the cast (more players, a gender of
/// its own, an order naming a player another way).
fn recast(text: &str, c: &Cast) -> Option<Game> {
    let g = Game::parse(text).ok()?;
    let seats: Vec<String> = g.setup.seats.iter().map(|s| s.name.clone()).collect();
    if seats.len() > c.names.len() {
        return None;
    }
    // The title is the scenario's id: one Russian title for all; a host's reason written
    // as an id is the host's text, said in Russian here.
    let text = text.replace("reason = \"palms\"", "reason = \"запрещённое слово\"");
    let mut t: String = text.lines().filter(|l| !l.starts_with("title")).map(|l| format!("{l}\n")).collect::<String>();
    t.insert_str(0, "title = \"Остров\"\n");
    // Through placeholders, so that a cast name equal to another seat's is not renamed twice.
    for (i, n) in seats.iter().enumerate() {
        t = t.replace(&format!("\"{n}\""), &format!("\"\u{1}{i}\u{1}\""));
    }
    for (i, n) in c.names.iter().enumerate().take(seats.len()) {
        let with = match c.gender {
            Some(g) => format!("\"{n}\"\ngender = \"{g}\""),
            None => format!("\"{n}\""),
        };
        t = t.replace(&format!("name = \"\u{1}{i}\u{1}\""), &format!("name = {with}"));
        t = t.replace(&format!("\"\u{1}{i}\u{1}\""), &format!("\"{n}\""));
    }
    Game::parse(&t).ok()
}

/// Every line a played game prints: the step log, every newspaper (Markdown and BBCode,
/// for the player list's columns), each player's private messages, the opening post.
fn game_lines(g: &Game, out: &mut BTreeSet<String>) {
    let Ok(m) = play(g, true) else { return };
    let mut push = |s: &str| {
        for l in s.lines().map(str::trim).filter(|l| !l.is_empty()) {
            out.insert(l.to_string());
        }
    };
    for d in 1..=m.days.len() as u32 {
        if let Some(r) = m.record(d) {
            for e in &r.log {
                push(&e.text);
            }
        }
    }
    push(&ostrov_paper::all(&m, Format::Plain));
    let fresh = ostrov_engine::Match::new(&g.setup, true);
    if let Some(a) = g.days.first().and_then(|d| fresh.announce(d).ok()) {
        push(&ostrov_paper::opening(&fresh, &a).render(Format::Markdown));
        push(&ostrov_paper::announcement(&fresh, &a).render(Format::Plain));
    }
    for &p in m.state().list_order() {
        push(&ostrov_paper::inbox(&m, p, None, Format::Plain));
    }
}

/// The page texts and the order forms for players of the cast.
fn page_lines(c: &Cast, sp: &[Speech], out: &mut BTreeSet<String>) {
    use super::text::{death_ru, left_ru, seats_ru};
    for (k, name) in c.names.iter().enumerate().take(3) {
        let g = sp[k].gender;
        for how in ["lynch", "night", "removed"] {
            out.insert(format!("{name} — {}", death_ru(how, g)));
        }
        for id in ["dead", "thorn", "shocked", "assaulted"] {
            out.insert(format!("{name}: {}", Talk::parse(id).unwrap().ru(g)));
            // The note by the post box of a player who speaks like the dead (issue 30).
            if id != "dead" {
                out.insert(format!(
                    "{name}, у формы сообщения: В обсуждении сегодня: {}.",
                    Talk::parse(id).unwrap().ru(g)
                ));
            }
        }
        let who = Who::new(name, &sp[k]);
        out.insert(format!(
            "Ваша роль: {} ({})",
            ostrov_engine::ru::role(Role::Halfblood, g),
            who.pick("обратился в оборотня", "обратилась в оборотня", "теперь оборотень")
        ));
    }
    for (k, r) in Role::ALL.iter().enumerate() {
        for (act, title, hint) in super::forms::acts() {
            let (t, h) = super::forms::form_words(act, title, hint, *r, Item::ALL.get(k).copied());
            out.insert(format!("Форма «{t}»: {h}"));
        }
    }
    for words in 1..=3 {
        out.insert(super::thread::palms_label(words));
    }
    // «What to do now» and the confirmations of the game page (issue 30, points 7–13).
    for (act, title, _) in super::forms::acts() {
        out.insert(format!("{}: Вика (в 14:21).", super::forms::accepted_ru(act, title)));
    }
    out.insert(format!("{}: Вика (в 14:21).", super::forms::accepted_ru("use", "Применить вещь: Шокер")));
    out.insert(format!("{}: Вика (в 14:21).", super::forms::accepted_ru("kill", "Убийство")));
    let withdrawable = |act: &str| ostrov_engine::Act::parse(act).is_some_and(ostrov_engine::Act::is_withdrawable);
    for (act, title, _) in super::forms::acts().filter(|(act, ..)| withdrawable(act)) {
        out.insert(format!("{}.", super::forms::withdrawn_ru(act, title)));
    }
    out.insert(format!("{}.", super::forms::withdrawn_ru("kill", "Убийство")));
    for id in ["assaulted", "shocked", "penalty"] {
        out.insert(super::now::no_vote_ru(id).to_string());
    }
    out.insert(super::now::summary_lines(&[], &[], &[]).join(" "));
    for slots in [3, 7, 12, 21, 22, 25] {
        for joined in [0, 1, 2, 3, 5, 11, 21, 22] {
            out.insert(format!("Набор: {}", seats_ru(joined, slots)));
        }
    }
    for secs in [60, 120, 300, 3600, 7200, 5 * 3600 + 60, 86400 + 3600, 2 * 86400, 21 * 86400] {
        out.insert(format!("до 21:00 по московскому времени осталось {}", left_ru(secs).unwrap_or_default()));
    }
    let game = recast(include_str!("../../../../games/sample.toml"), c).expect("the sample takes every cast");
    let m = play(&game, true).unwrap();
    for name in c.names.iter().take(2) {
        out.insert(crate::game::table::host_note(Some(&m), true, name, Some("ругань")));
        out.insert(crate::game::table::host_note(Some(&m), false, name, None));
    }
}

/// The whole corpus: by cast, the lines in sorted order.
fn corpus() -> Vec<(&'static Cast, BTreeSet<String>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../ostrov-engine/tests/scenarios");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "toml"));
    files.sort();
    let texts: Vec<String> = files.iter().map(|p| std::fs::read_to_string(p).unwrap()).collect();
    let mut out = Vec::new();
    for c in &CASTS {
        let sp = speeches(c);
        let mut lines = BTreeSet::new();
        for k in 0..c.names.len() {
            let (x, y) = (Who::new(c.names[k], &sp[k]), Who::new(c.names[(k + 1) % 12], &sp[(k + 1) % 12]));
            lines.extend(say::every_template(x, y));
        }
        for t in texts.iter().map(String::as_str).chain([include_str!("../../../../games/sample.toml")]) {
            if let Some(g) = recast(t, c) {
                game_lines(&g, &mut lines);
            }
        }
        // The list layouts of Markdown and BBCode, every column kept (issue 29, point 5).
        let sample = recast(include_str!("../../../../games/sample.toml"), c).unwrap();
        let m = play(&sample, true).unwrap();
        for f in [Format::Markdown, Format::Bbcode] {
            lines.extend(ostrov_paper::all(&m, f).lines().filter(|l| l.contains(" | ")).map(str::to_string));
        }
        page_lines(c, &sp, &mut lines);
        out.push((c, lines));
    }
    out
}

// ---- The lint ---------------------------------------------------------------------------

/// Words that are masculine past tense or masculine adjectives/roles no woman is called.
fn masculine(w: &str) -> bool {
    const WORDS: [&str; 20] = [
        "погиб",
        "линчёван",
        "линчеван",
        "исключён",
        "исключен",
        "мёртвый",
        "убит",
        "спасён",
        "сам",
        "должен",
        "готов",
        "жив",
        "мёртв",
        "ясновидящий",
        "неприкасаемый",
        "пассажир",
        "медбрат",
        "колдун",
        "лунатик",
        "выбывший",
    ];
    let w = w.to_lowercase();
    let chars: Vec<char> = w.chars().collect();
    let past = chars.len() >= 4
        && (w.ends_with('л') || w.ends_with("лся"))
        && !["сигнал", "пол", "стол", "ритуал", "финал", "итал"].iter().any(|e| w.ends_with(e));
    past || WORDS.contains(&w.as_str())
}

/// Masculine words no line about women only may hold («у обоих», «говорит как мёртвый»,
/// a man's role).
const WRONG_FOR_WOMEN: [&str; 11] = [
    "обоих",
    "оба",
    "мёртвый",
    "медбрат",
    "колдун",
    "ясновидящий",
    "неприкасаемый",
    "линчёван",
    "исключён",
    "обратился",
    "сам",
];

/// The noun forms whose plural the lint checks after a number: (one, few, many).
const COUNTED: [[&str; 3]; 9] = [
    ["голос", "голоса", "голосов"],
    ["игрок", "игрока", "игроков"],
    ["день", "дня", "дней"],
    ["час", "часа", "часов"],
    ["минуту", "минуты", "минут"],
    ["ночь", "ночи", "ночей"],
    ["вещь", "вещи", "вещей"],
    ["место", "места", "мест"],
    ["раз", "раза", "раз"],
];

/// The words of a line with their byte spans.
fn words(l: &str) -> Vec<(usize, usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in l.char_indices().chain([(l.len(), ' ')]) {
        let inside = c.is_alphanumeric() || c == '_' || c == '-';
        match (inside, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, i, &l[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// The line without BBCode tags ([b], [/color], [*] …): markup, not text.
fn markup_out(l: &str) -> String {
    let mut out = String::new();
    let mut rest = l;
    while let Some(k) = rest.find('[') {
        out.push_str(&rest[..k]);
        let tag = &rest[k + 1..];
        let end = tag.find(']').unwrap_or(tag.len());
        let name = tag[..end].trim_start_matches('/').split('=').next().unwrap_or("");
        if !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '*') {
            rest = tag.get(end + 1..).unwrap_or("");
        } else {
            out.push('[');
            rest = tag;
        }
    }
    out.push_str(rest);
    out
}

/// A woman's name in the nominative, and whether it is also her accusative («Любовь»),
/// so that a verb before it may have another subject.
pub type Woman = (String, bool);

/// What is wrong with one line; `women`: the women's names when every player of the line
/// is a woman, `names`: every form of the players' names (taken out before the Latin
/// check). A neighbour counts only when nothing but spaces stands between.
pub fn lint_line(l: &str, women: &[Woman], names: &[String]) -> Vec<String> {
    let mut bad = Vec::new();
    for hedge in ["(а)", "(ла)", "(ы)", "(ая)"] {
        if l.contains(hedge) {
            bad.push(format!("«{hedge}»"));
        }
    }
    if l.contains("!:") {
        bad.push("«!:»".into());
    }
    let mut rest = markup_out(l);
    let mut sorted: Vec<&String> = names.iter().collect();
    sorted.sort_by_key(|n| std::cmp::Reverse(n.len()));
    for n in sorted {
        rest = rest.replace(n.as_str(), " ");
    }
    if rest.chars().any(|c| c.is_ascii_alphabetic()) {
        bad.push("латиница вне имени".into());
    }
    // Words that, when every player is a woman, can only be about one of them wrongly.
    if !women.is_empty() {
        for w in words(l).iter().map(|w| w.2.to_lowercase()) {
            if WRONG_FOR_WOMEN.contains(&w.as_str()) {
                bad.push(format!("мужской род в строке о женщинах: «{w}»"));
            }
        }
    }
    let ws = words(l);
    let joined = |a: usize, b: usize| l[ws[a].1..ws[b].0].trim().is_empty();
    for (i, &(_, _, w)) in ws.iter().enumerate() {
        // «игрока Kisa»: the name is not the subject.
        let of_player = i > 0 && ws[i - 1].2.starts_with("игрок") && joined(i - 1, i);
        if let Some((_, object_too)) = women.iter().find(|(n, _)| n == w).filter(|_| !of_player) {
            let before = i.checked_sub(1).filter(|&j| !object_too && joined(j, i));
            let after = Some(i + 1).filter(|&j| j < ws.len() && joined(i, j));
            for j in [before, after].into_iter().flatten() {
                if masculine(ws[j].2) {
                    bad.push(format!("мужской род рядом с «{w}»: «{}»", ws[j].2));
                }
            }
        }
        if let (Ok(n), Some(&(_, _, next))) = (w.parse::<u64>(), ws.get(i + 1)) {
            let next = next.to_lowercase();
            if let Some(f) = COUNTED.iter().find(|f| f.contains(&next.as_str())) {
                let want = form(n, f[0], f[1], f[2]);
                // «из 7 игроков»: after «из» a count takes the genitive.
                let after_iz = i > 0 && ws[i - 1].2 == "из";
                if want != next && !after_iz {
                    bad.push(format!("«{n} {next}» — нужно «{n} {want}»"));
                }
            }
        }
    }
    bad
}

/// Every name form of a cast: the names, their six cases when known.
fn name_forms(c: &Cast) -> Vec<String> {
    let mut v = Vec::new();
    for (n, s) in c.names.iter().zip(speeches(c)) {
        v.push(n.to_string());
        if let Some(f) = &s.forms {
            v.extend(f.iter().cloned());
        }
    }
    // As Markdown writes them («Lady\_M»).
    let escaped: Vec<String> = v.iter().map(|n| ostrov_paper::md_escape(n)).collect();
    v.extend(escaped);
    v
}

/// The problems of a corpus, one line each.
fn lint(corpus: &[(&Cast, BTreeSet<String>)]) -> Vec<String> {
    let mut out = Vec::new();
    for (c, lines) in corpus {
        let names = name_forms(c);
        let women: Vec<Woman> = if c.women {
            c.names
                .iter()
                .zip(speeches(c))
                .map(|(n, s)| (n.to_string(), s.form(ostrov_engine::ru::Case::Acc) == Some(n)))
                .collect()
        } else {
            Vec::new()
        };
        for l in lines {
            for p in lint_line(l, &women, &names) {
                out.push(format!("[{}] {l}\n    {p}", c.title));
            }
        }
    }
    out
}

#[test]
fn every_sentence_in_both_genders_is_clean() {
    let corpus = corpus();
    let mut text = String::new();
    for (c, lines) in &corpus {
        assert!(lines.len() > 300, "{}: {} lines", c.title, lines.len());
        text.push_str(&format!("## {}\n", c.title));
        for l in lines {
            text.push_str(l);
            text.push('\n');
        }
    }
    let problems = lint(&corpus);
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
    insta::assert_snapshot!(text);
}

/// The lint catches each planted error (issue 29, "Done when").
#[test]
fn lint_catches_planted_errors() {
    let women = vec![("Маша".to_string(), false), ("Аня".to_string(), false)];
    let names = vec!["Маша".to_string(), "Машу".into(), "Аня".into(), "Ане".into(), "Аню".into(), "Kot2000".into()];
    let caught = |l: &str| !lint_line(l, &women, &names).is_empty();
    assert!(caught("Этой ночью погиб Маша"), "a masculine past tense before a woman");
    assert!(caught("Маша применил Шокер к Ане"), "a masculine past tense after a woman");
    assert!(caught("Ясновидящий Маша проверяет Аню"), "a masculine role beside a woman");
    assert!(caught("Линчёван Маша (Пассажирка)"), "a masculine short participle");
    assert!(caught("Маша погиб(ла) ночью"), "«(а)»-style hedge");
    assert!(caught("Игра окончена: winner civilians"), "Latin letters");
    assert!(caught("Маша — 3 голосов"), "a plural that disagrees");
    assert!(caught("В живых: 21 игроков."), "a plural that disagrees");
    assert!(caught("13:00. Выбери меня!: Маша выбирает в пару Аню"), "«!:»");
    assert!(caught("13:00. «Выбери меня!»: Маша выбирает в пару Аню — у обоих иммунитет на линч"), "«у обоих»");
    assert!(caught("Маша: жертва маньяка: говорит как мёртвый"), "«мёртвый» about a woman");
    assert!(caught("Колдун Маша убивает Аню"), "a man's role for a woman");
    // And the right sentences pass.
    for ok in [
        "Этой ночью погибла Маша",
        "Маша применила Шокер к Ане",
        "Голос игрока Kot2000 недействителен",
        "Маша — 3 голоса",
        "Набор: 0 игроков из 7",
        "13:00. «Выбери меня!»: Маша выбирает в пару Аню — у обеих иммунитет на линч",
        "Этой ночью Сексманьяк навестил Машу",
    ] {
        assert!(!caught(ok), "{ok}: {:?}", lint_line(ok, &women, &names));
    }
}

/// A role's name agrees with the player in every gender (issue 29, point 3).
#[test]
fn roles_agree_with_the_player() {
    let (m, f) = (Some(Gender::Male), Some(Gender::Female));
    assert_eq!(ostrov_engine::ru::role(Role::Witch, m), "Колдун");
    assert_eq!(ostrov_engine::ru::role(Role::Witch, f), "Колдунья");
    assert_eq!(ostrov_engine::ru::role(Role::Nurse, m), "Медбрат");
    assert_eq!(ostrov_engine::ru::role(Role::Nurse, None), "Медсестра");
    assert_eq!(ostrov_engine::ru::role(Role::Passenger, f), "Пассажирка");
}
