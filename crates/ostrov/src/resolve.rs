//! `ostrov resolve FILE`: the newspapers, the JSON report, or one player's inbox.

use std::path::PathBuf;

use ostrov_engine::{nearest, plural, Actor, Game, Lang, Lines, Match, Rejected, Report};
use ostrov_paper::{Doc, Format};

use crate::Failure;

/// The biggest game file read (a guard against reading a huge file by mistake).
/// The largest game file read (GAME_FILE.md): a real game of 40 players and 30 days is
/// about 40 KB; anything near this is not a game file, and is refused before it is read.
const MAX_FILE: u64 = 10_000_000;

/// Resolve a game file: print the newspapers of every day (public view), the JSON
/// report (host's view, `--json`), or what one player was told (`--inbox`).
#[derive(clap::Args)]
pub struct Args {
    /// The game file (TOML or JSON, see GAME_FILE.md).
    file: PathBuf,
    /// Print the JSON report of GAME_FILE.md and nothing else.
    #[arg(long, conflicts_with_all = ["inbox", "format"])]
    json: bool,
    /// The newspaper format: markdown (CommonMark, the default), gfm (with tables), bbcode
    /// (for forums), html (a whole page), html-fragment (to embed) or plain.
    #[arg(long, value_parser = ["markdown", "gfm", "bbcode", "html", "html-fragment", "plain"])]
    format: Option<String>,
    /// The forum the BBCode is for: phpbb (default: no tables, no [s]), xenforo or ipb
    /// (with [table] and [s]).
    #[arg(long, value_parser = ["phpbb", "xenforo", "ipb"])]
    forum: Option<String>,
    /// Print only the newspapers of day N; 0 prints the opening post (the players in
    /// their order with their passive items, the rules in short, day 1's event).
    #[arg(long, value_name = "N")]
    day: Option<u32>,
    /// Print the private messages of one player (role, item, seer results, items
    /// received); `all`: every player's, one block each headed by the name, for a host who
    /// mails them.
    #[arg(long, value_name = "NAME")]
    inbox: Option<String>,
    /// Print one newspaper of the last day (or of day --day): `midday`, the 13:00 bulletin
    /// (made of the orders sent by 13:00), or `evening`, the evening newspaper after the
    /// 21:00 resolution.
    #[arg(long, value_parser = ["midday", "evening"], conflicts_with_all = ["json", "inbox"])]
    stage: Option<String>,
}

/// Reads and checks a game file; the lines of its text serve later messages. A key of an
/// order that its act does not read (`text` on a vote) is warned about on stderr, with its
/// line (issue 29, point 9).
pub fn load(path: &std::path::Path, lang: Lang) -> Result<(Game, Lines), Failure> {
    let shown = path.display();
    let cannot = |e: std::io::Error| crate::io_failure(&e, path, crate::Io::Read, lang);
    let meta = std::fs::metadata(path).map_err(cannot)?;
    if meta.is_dir() {
        return Err(cannot(std::io::Error::from(std::io::ErrorKind::IsADirectory)));
    }
    if meta.len() > MAX_FILE {
        let mb = meta.len().div_ceil(1_000_000);
        return Err(Failure(match lang {
            Lang::Ru => format!(
                "{shown}: файл весит {mb} МБ, а файл игры может быть не больше {} МБ: проверьте, тот ли это файл",
                MAX_FILE / 1_000_000
            ),
            Lang::English => format!(
                "{shown}: the file is {mb} MB, and a game file may be {} MB at most: check that it is the right file",
                MAX_FILE / 1_000_000
            ),
        }));
    }
    let bytes = std::fs::read(path).map_err(cannot)?;
    let parsed = Game::parse_bytes(&bytes).map_err(|e| Failure(format!("{shown}: {}", e.text(lang))))?;
    for u in &parsed.unused {
        let at = match (u.line, lang) {
            (Some(l), Lang::Ru) => format!(", строка {l}"),
            (Some(l), Lang::English) => format!(", line {l}"),
            (None, _) => String::new(),
        };
        eprintln!("ostrov: {}: {shown}{at}: {}", lang.pick("предупреждение", "warning"), u.text(lang));
    }
    Ok((parsed.game, parsed.lines))
}

/// The order a refusal is about, as the host wrote it: `vote → Боря`, `swap → Аня, Боря`,
/// `withdraw vote`.
fn order_text(m: &Match, r: &Rejected) -> String {
    if let Some(ostrov_engine::Command::Withdraw(what)) = &r.command {
        return format!("{} {}", r.act.id(), what.id());
    }
    let names: Vec<&str> =
        r.command.as_ref().map(|c| c.named()).unwrap_or_default().iter().map(|p| m.state().name(*p)).collect();
    if names.is_empty() {
        r.act.id().to_string()
    } else {
        format!("{} → {}", r.act.id(), names.join(", "))
    }
}

/// One line on stderr for every refused order: the line of the file, the day, the time,
/// who, the order, and why (the game goes on; the newspaper shows the refused vote).
fn warn_refusals(m: &Match, game: &Game, lines: &Lines, shown: &str, lang: Lang) {
    for rec in &m.days {
        let day = rec.day;
        let plan = game.days.get(day as usize - 1);
        for r in &rec.rejected {
            // The order's line: the first order of the day written exactly so.
            let line = plan
                .and_then(|p| {
                    p.orders.iter().position(|o| o.by == r.by && o.at == r.at && Some(&o.command) == r.command.as_ref())
                })
                .and_then(|i| lines.order(day, i));
            let by = match r.by {
                Actor::Host => lang.pick("ведущий", "host").to_string(),
                Actor::Player(p) => m.state().name(p).to_string(),
            };
            let at = match (line, lang) {
                (Some(l), Lang::Ru) => format!(", строка {l}"),
                (Some(l), Lang::English) => format!(", line {l}"),
                (None, _) => String::new(),
            };
            let order = order_text(m, r);
            let why = r.reason.text(lang);
            match lang {
                Lang::Ru => eprintln!(
                    "ostrov: предупреждение: {shown}{at}: день {day}, {}, {by}: {order} — не принят: {why}",
                    r.at
                ),
                Lang::English => {
                    eprintln!("ostrov: warning: {shown}{at}: day {day}, {}, {by}: {order} — refused: {why}", r.at)
                }
            }
        }
    }
}

/// One line on stderr for every fixed draw the day gave nothing to decide (issue 29,
/// point 9): a `tie_break` with no random tie left, a `chosen` on a day that is not
/// «Выбери меня!», a `deal` on a day without Tsunami. The game goes on as drawn.
fn warn_unused_fixes(m: &Match, lines: &Lines, shown: &str, lang: Lang) {
    for rec in &m.days {
        let day = rec.day;
        for key in &rec.unused_fixes {
            let at = match (lines.day_key(day, key), lang) {
                (Some(l), Lang::Ru) => format!(", строка {l}"),
                (Some(l), Lang::English) => format!(", line {l}"),
                (None, _) => String::new(),
            };
            let why = match (*key, lang) {
                ("tie_break", Lang::Ru) => {
                    "в этот день не осталось ничьей, которую решает жребий: `tie_break` не использован".to_string()
                }
                ("chosen", Lang::Ru) => format!(
                    "событие дня — {}, а не «Выбери меня!»: `chosen` ни на что не влияет (задайте event = \"choose_me\" \
                     или уберите chosen)",
                    rec.event.map_or("без события", |e| e.ru())
                ),
                (_, Lang::Ru) => format!(
                    "событие дня — {}, а не Цунами: `deal` ни на что не влияет",
                    rec.event.map_or("без события", |e| e.ru())
                ),
                ("tie_break", Lang::English) => {
                    "no random tie was left to settle this day: `tie_break` was not used".to_string()
                }
                (k, Lang::English) => format!("the day's event does not use `{k}`: it changed nothing"),
            };
            match lang {
                Lang::Ru => eprintln!("ostrov: предупреждение: {shown}{at}: день {day}: {why}"),
                Lang::English => eprintln!("ostrov: warning: {shown}{at}: day {day}: {why}"),
            }
        }
    }
}

/// The newspaper format of `--format` and `--forum`.
pub fn format_of(format: Option<&str>, forum: Option<&str>) -> Result<Format, Failure> {
    let mut f: Format = format.unwrap_or("markdown").parse()?;
    if let Some(forum) = forum {
        f = f.for_forum(forum)?;
    }
    Ok(f)
}

/// A play error of the file, with the line of the day key it is about.
pub fn play_failure(e: &ostrov_engine::ResolveError, lines: &Lines, shown: &str, lang: Lang) -> Failure {
    let at = e.key().and_then(|k| lines.day_key(e.day(), k));
    let line = match (at, lang) {
        (Some(l), Lang::Ru) => format!("строка {l}, "),
        (Some(l), Lang::English) => format!("line {l}, "),
        (None, _) => String::new(),
    };
    Failure(format!("{shown}: {line}{}", e.text(lang)))
}

/// The opening post of a game file: what day 1 will open with, before any order.
pub fn opening_post(game: &Game, lines: &Lines, shown: &str, lang: Lang, format: Format) -> Result<String, Failure> {
    let m = Match::new(&game.setup, true);
    let plan = game.days.first().cloned().unwrap_or_default();
    let a = m.announce(&plan).map_err(|e| play_failure(&e, lines, shown, lang))?;
    Ok(ostrov_paper::opening(&m, &a).render(format))
}

pub fn run(a: Args, lang: Lang) -> Result<(), Failure> {
    if let (true, Some(d)) = (a.json, a.day) {
        // Issue 29, point 9: nothing the host asks for is ignored in silence.
        return Err(Failure(match lang {
            Lang::Ru => format!(
                "--day {d} и --json вместе не работают: JSON-отчёт всегда за всю игру (дни в нём — в поле days); \
                 уберите --day или --json"
            ),
            Lang::English => format!(
                "--day {d} does not go with --json: the JSON report is always the whole game (its days are in \
                 `days`); drop --day or --json"
            ),
        }));
    }
    if let (Some(stage), Some(0)) = (&a.stage, a.day) {
        return Err(Failure(match lang {
            Lang::Ru => format!(
                "--stage {stage} и --day 0 вместе не работают: у первого поста нет 13:00 и вечера; уберите --stage"
            ),
            Lang::English => {
                format!("--stage {stage} does not go with --day 0: the opening post has no stages; drop --stage")
            }
        }));
    }
    let (game, lines) = load(&a.file, lang)?;
    let shown = a.file.display().to_string();
    if a.day == Some(0) && !a.json && a.inbox.is_none() {
        let format = format_of(a.format.as_deref(), a.forum.as_deref())?;
        print!("{}", opening_post(&game, &lines, &shown, lang, format)?);
        return Ok(());
    }
    let m = match ostrov_engine::play(&game, true) {
        Ok(m) => m,
        Err(e @ ostrov_engine::ResolveError::AfterEnd { ended, .. }) => {
            // Orders after the end: the newspapers up to the end first, so that the host
            // sees why the game ended, then the error (issue 29, point 11).
            let mut played = game.clone();
            played.days.truncate(ended as usize);
            if let (Ok(m), false, None) = (ostrov_engine::play(&played, true), a.json, &a.inbox) {
                let format = format_of(a.format.as_deref(), a.forum.as_deref())?;
                print!("{}", ostrov_paper::all(&m, format));
            }
            return Err(play_failure(&e, &lines, &shown, lang));
        }
        Err(e) => return Err(play_failure(&e, &lines, &shown, lang)),
    };
    if let Some(d) = a.day {
        if d == 0 || d as usize > m.days.len() {
            let n = m.days.len();
            return Err(Failure(match lang {
                Lang::Ru => format!("--day {d}: в файле игры {n} {}", plural::form(n as u64, "день", "дня", "дней")),
                Lang::English => format!("--day {d}: the game file has {n} day(s)"),
            }));
        }
    }
    warn_refusals(&m, &game, &lines, &shown, lang);
    warn_unused_fixes(&m, &lines, &shown, lang);
    if a.json {
        println!("{}", Report::of(&m).to_json());
        return Ok(());
    }
    let format = format_of(a.format.as_deref(), a.forum.as_deref())?;
    if let Some(stage) = a.stage.as_deref() {
        print!("{}", stage_paper(&m, stage, a.day, &shown, lang)?.render(format));
        return Ok(());
    }
    if let Some(name) = &a.inbox {
        if m.find(name).is_none() && matches!(ostrov_engine::fold_name(name).as_str(), "all" | "все") {
            // Issue 29, point 12: every player's messages, a block each, for the host's mail.
            let mut doc = ostrov_paper::Doc::default();
            for (i, _) in m.state().players().iter().enumerate() {
                if i > 0 {
                    doc.rule();
                }
                doc.append(ostrov_paper::inbox_doc(&m, ostrov_engine::PlayerId(i as u16), a.day));
            }
            print!("{}", doc.render(format));
            return Ok(());
        }
        let p = m.find(name).ok_or_else(|| {
            let near = nearest(name, m.state().players().iter().map(|p| p.name.as_str()));
            Failure(match (lang, near) {
                (Lang::Ru, Some(n)) => format!("--inbox: в {shown} нет игрока «{name}» — может быть, «{n}»?"),
                (Lang::Ru, None) => {
                    format!("--inbox: в {shown} нет игрока «{name}»; --inbox all печатает сообщения всех игроков")
                }
                (Lang::English, Some(n)) => {
                    format!("--inbox: no player named \"{name}\" in {shown} — did you mean \"{n}\"?")
                }
                (Lang::English, None) => {
                    format!("--inbox: no player named \"{name}\" in {shown}; --inbox all prints every player's")
                }
            })
        })?;
        print!("{}", ostrov_paper::inbox(&m, p, a.day, format));
        return Ok(());
    }
    let text = match a.day {
        Some(d) => ostrov_paper::day(&m, d, format),
        None => ostrov_paper::all(&m, format),
    };
    print!("{text}");
    Ok(())
}

/// `--stage`: one newspaper of day `day` (the last day by default) — the 13:00 bulletin
/// (`midday`) or the evening newspaper with the final one if the game ended that day
/// (`evening`), for the host who posts each as its hour comes (issue 29, point 12).
fn stage_paper(m: &Match, stage: &str, day: Option<u32>, shown: &str, lang: Lang) -> Result<Doc, Failure> {
    let Some(day) = day.or(m.days.last().map(|r| r.day)) else {
        return Err(Failure(match lang {
            Lang::Ru => format!(
                "--stage {stage}: в {shown} ещё нет ни одного дня [[days]]: допишите день с приказами, присланными \
                 до 13:00 (первый пост игры печатает --day 0)"
            ),
            Lang::English => format!(
                "--stage {stage}: {shown} has no [[days]] yet: add the day with the orders sent by 13:00 (--day 0 \
                 prints the opening post)"
            ),
        }));
    };
    Ok(match stage {
        "midday" => ostrov_paper::bulletin(m, day),
        _ => {
            let mut doc = ostrov_paper::evening(m, day);
            if m.days.last().is_some_and(|r| r.day == day && r.winner.is_some()) {
                doc.rule();
                doc.append(ostrov_paper::final_paper(m));
            }
            doc
        }
    })
}
