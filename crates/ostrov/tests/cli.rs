//! The `ostrov` binary end to end: resolve, formats, inbox, new, and bad files (exit
//! code 2, one clear message, never a panic).

use std::path::PathBuf;
use std::process::{Command, Output};

/// The binary in Russian (the default), whatever the locale of the machine running the tests.
fn ostrov(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ostrov"))
        .args(args)
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env("LANG", "ru_RU.UTF-8")
        .output()
        .expect("the binary runs")
}

fn sample() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/../../games/sample.toml").to_string()
}

fn temp(name: &str, content: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ostrov-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, content).unwrap();
    p
}

/// Exit code 2, one line on stderr that contains `needle`, nothing on stdout, no panic.
fn assert_bad(o: &Output, needle: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "stderr: {err}");
    assert!(o.stdout.is_empty());
    assert!(err.contains(needle), "expected {needle:?} in: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.len() < 4000, "the message is too long: {} bytes", err.len());
}

#[test]
fn resolve_prints_the_newspapers_in_russian() {
    let o = ostrov(&["resolve", &sample()]);
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("День 1, 13:00") && text.contains("вечерняя газета") && text.contains("итоги игры"));
    assert!(text.contains("Победили мирные жители"));
}

#[test]
fn resolve_json_is_the_report_and_nothing_else() {
    let o = ostrov(&["resolve", &sample(), "--json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["winner"], "civilians");
    assert_eq!(v["days"][0]["lynched"][0], "Гена");
    assert_eq!(v["players"][0]["name"], "Аня");
}

#[test]
fn formats_day_and_inbox() {
    let bb = String::from_utf8(ostrov(&["resolve", &sample(), "--format", "bbcode"]).stdout).unwrap();
    assert!(!bb.contains("[table]") && bb.contains("[b]") && bb.contains("[list]"));
    let xf =
        String::from_utf8(ostrov(&["resolve", &sample(), "--format", "bbcode", "--forum", "xenforo"]).stdout).unwrap();
    assert!(xf.contains("[table]") && xf.contains("[s]"));
    let html = String::from_utf8(ostrov(&["resolve", &sample(), "--format", "html"]).stdout).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.contains("<table>") && html.contains("<article"));
    let frag = String::from_utf8(ostrov(&["resolve", &sample(), "--format", "html-fragment"]).stdout).unwrap();
    assert!(frag.starts_with("<article"));
    let day2 = String::from_utf8(ostrov(&["resolve", &sample(), "--day", "2"]).stdout).unwrap();
    assert!(day2.contains("День 2") && !day2.contains("День 1, 13:00"));
    let inbox = String::from_utf8(ostrov(&["resolve", &sample(), "--inbox", "аня"]).stdout).unwrap();
    assert!(inbox.contains("Ваша роль: Ясновидящая") && inbox.contains("Проверка: Боря — оборотень"));
    assert_bad(&ostrov(&["resolve", &sample(), "--inbox", "Никто"]), "нет игрока «Никто»");
    assert_bad(&ostrov(&["resolve", &sample(), "--day", "9"]), "--day 9");
}

#[test]
fn truncated_toml_names_the_line() {
    let p = temp("truncated.toml", "[[players]]\nname = \"Аня\"\nrole = \"seer\n".as_bytes());
    assert_bad(&ostrov(&["resolve", p.to_str().unwrap()]), "строка 3");
}

#[test]
fn duplicate_player_name() {
    let p = temp(
        "dup.toml",
        "[[players]]\nname = \"Аня\"\nrole = \"seer\"\n[[players]]\nname = \"АНЯ\"\nrole = \"werewolf\"\n".as_bytes(),
    );
    assert_bad(
        &ostrov(&["resolve", p.to_str().unwrap()]),
        "строка 5, игрок 2 («АНЯ»): имя «АНЯ» не отличить от имени игрока 1 («Аня», строка 2)",
    );
}

#[test]
fn unknown_role() {
    let p = temp("role.toml", "[[players]]\nname = \"Аня\"\nrole = \"dragon\"\n".as_bytes());
    assert_bad(&ostrov(&["resolve", p.to_str().unwrap()]), "строка 3, игрок 1 («Аня»): неизвестная роль «dragon»");
}

#[test]
fn an_order_naming_nobody() {
    let p = temp(
        "nobody.toml",
        "[[players]]\nname = \"Аня\"\nrole = \"seer\"\n[[players]]\nname = \"Боря\"\nrole = \"werewolf\"\n\
         [[days]]\norders = [{ by = \"Аня\", act = \"vote\", target = \"Жора\" }]\n"
            .as_bytes(),
    );
    assert_bad(&ostrov(&["resolve", p.to_str().unwrap()]), "строка 8, день 1, приказ 1");
}

#[test]
fn a_tie_break_not_among_the_tied() {
    let p = temp(
        "tie.toml",
        "[[players]]\nname = \"Аня\"\nrole = \"seer\"\nitem = \"none\"\n[[players]]\nname = \"Боря\"\nrole = \"werewolf\"\nitem = \"none\"\n\
         [[players]]\nname = \"Вика\"\nrole = \"passenger\"\nitem = \"none\"\n\
         [[players]]\nname = \"Гена\"\nrole = \"passenger\"\nitem = \"none\"\n\
         [[days]]\nevent = \"none\"\ntie_break = \"Вика\"\norders = [{ by = \"Аня\", act = \"vote\", target = \"Боря\" }, { by = \"Боря\", act = \"vote\", target = \"Аня\" }, { by = \"Вика\", act = \"vote\", target = \"Аня\" }, { by = \"Гена\", act = \"vote\", target = \"Боря\" }]\n"
            .as_bytes(),
    );
    assert_bad(&ostrov(&["resolve", p.to_str().unwrap()]), "строка 19, день 1: `tie_break` называет «Вика»");
}

#[test]
fn ten_megabytes_of_garbage() {
    let mut junk = Vec::with_capacity(10 << 20);
    let mut x: u32 = 12345;
    while junk.len() < 10 << 20 {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        junk.push((x >> 16) as u8);
    }
    let p = temp("garbage.toml", &junk);
    assert_bad(&ostrov(&["resolve", p.to_str().unwrap()]), "garbage.toml");
    // Valid UTF-8 garbage too.
    let text: String = (0..(10 << 20) / 3).map(|i| if i % 97 == 0 { '\n' } else { 'ж' }).collect();
    let p = temp("garbage-utf8.toml", text.as_bytes());
    assert_bad(&ostrov(&["resolve", p.to_str().unwrap()]), "строка 2: неверный ключ: ключ пишется латиницей");
}

/// The whole stderr line, after the program's name.
fn message(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).trim().trim_start_matches("ostrov: ").to_string()
}

/// Issue 29, point 6: the system's errors are said in Russian, in full, with what to do.
#[test]
fn a_missing_file_a_folder_and_a_taken_output_are_said_in_russian() {
    let o = ostrov(&["resolve", "/nonexistent/game.toml"]);
    assert_bad(&o, "файла");
    assert_eq!(message(&o), "файла /nonexistent/game.toml нет: проверьте путь и имя файла");
    let dir = std::env::temp_dir();
    let o = ostrov(&["resolve", dir.to_str().unwrap()]);
    assert_bad(&o, "папка");
    assert_eq!(message(&o), format!("{} — это папка, а не файл: укажите файл", dir.display()));
    let taken = temp("taken.toml", b"# taken");
    let o = ostrov(&["new", "--players", "Аня,Боря,Вика,Гоша,Дима", "-o", taken.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        message(&o),
        format!("файл {} уже есть: он не перезаписывается, укажите другое имя или удалите его", taken.display())
    );
    for o in [ostrov(&["resolve", "/nonexistent/game.toml"]), ostrov(&["resolve", dir.to_str().unwrap()])] {
        assert!(!message(&o).contains("os error") && !message(&o).is_ascii(), "{}", message(&o));
    }
}

/// Issue 29, point 10: a file over 10 MB is refused before it is read, with its size.
#[test]
fn a_file_over_ten_megabytes_is_refused_unread() {
    let dir = std::env::temp_dir().join(format!("ostrov-cli-big-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("huge.toml");
    // A sparse file of 50 MB: nothing is written, and nothing may be read.
    std::fs::File::create(&p).unwrap().set_len(50_000_000).unwrap();
    let o = ostrov(&["resolve", p.to_str().unwrap()]);
    assert_bad(&o, "50 МБ");
    assert_eq!(
        message(&o),
        format!(
            "{}: файл весит 50 МБ, а файл игры может быть не больше 10 МБ: проверьте, тот ли это файл",
            p.display()
        )
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn new_deals_a_game_file_that_resolves() {
    let dir = std::env::temp_dir().join(format!("ostrov-new-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("game.toml");
    let _ = std::fs::remove_file(&out);
    let o = ostrov(&[
        "new",
        "--players",
        "Аня,Боря,Вика,Гена,Дима,Женя,Зоя,Илья",
        "--seed",
        "42",
        "--shuffle",
        "--title",
        "Тест",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(text.matches("[[players]]").count(), 8);
    let game = ostrov_engine::Game::parse(&text).unwrap();
    assert_eq!(game.setup.seats.iter().filter(|s| s.role == ostrov_engine::Role::Werewolf).count(), 2);
    // The same seed deals the same game.
    let again = ostrov(&[
        "new",
        "--players",
        "Аня,Боря,Вика,Гена,Дима,Женя,Зоя,Илья",
        "--seed",
        "42",
        "--shuffle",
        "--title",
        "Тест",
    ]);
    assert_eq!(String::from_utf8(again.stdout).unwrap(), text);
    // The file is not overwritten.
    assert_bad(
        &ostrov(&["new", "--players", "А,Б,В", "-o", out.to_str().unwrap()]),
        "уже есть: он не перезаписывается",
    );
    assert_bad(
        &ostrov(&["new", "--players", "А,Б", "--seed", "1"]),
        "2 игрока: в игре должно быть не меньше 3 игроков",
    );
    assert_bad(&ostrov(&["new", "--players", "А,Б,В", "--setup", "werewolf=5"]), "больше, чем игроков (3)");
    let help = String::from_utf8(ostrov(&["new", "--help"]).stdout).unwrap();
    assert!(help.contains("--setup") && help.contains("рекомендуемый расклад"), "{help}");
}

#[test]
fn simulate_writes_an_svg_chart() {
    let dir = std::env::temp_dir().join(format!("ostrov-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("wins.svg");
    let o = ostrov(&["simulate", "--players", "9", "--games", "200", "--seed", "3", "--svg", svg.to_str().unwrap()]);
    assert!(o.status.success(), "stderr: {}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&svg).expect("the chart is written");
    assert!(text.starts_with("<svg"), "{text}");
    assert!(text.contains("xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(text.trim_end().ends_with("</svg>"));
    assert!(text.contains("<rect"), "bars are drawn");
    for side in ["civilians", "werewolves", "draw"] {
        assert!(text.contains(side), "the legend names {side}");
    }
    // Every element that is opened is closed: <svg> once, the rest self-closing or paired.
    assert_eq!(text.matches("<svg").count(), 1);
    assert_eq!(text.matches("<text").count(), text.matches("</text>").count());
}

/// The setups `suggest` prints, read back from its output: each `--setup "…"` (a long one
/// broken over lines inside its quotes), its `--deck` if any, and the two lines after it.
fn suggested(out: &str) -> Vec<(ostrov_engine::Roster, Option<String>, String, String)> {
    let lines: Vec<&str> = out.lines().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some(at) = lines[i].find("--setup \"") else {
            i += 1;
            continue;
        };
        let mut text = lines[i][at + 9..].to_string();
        while !text.contains('"') {
            i += 1;
            text.push('\n');
            text.push_str(lines[i]);
        }
        let (setup, rest) = text.split_once('"').unwrap();
        let roster = ostrov_engine::Roster::parse(setup).unwrap_or_else(|e| panic!("{setup}: {e}"));
        let deck = rest.trim().strip_prefix("--deck ").map(String::from);
        found.push((roster, deck, lines[i + 1].to_string(), lines[i + 2].to_string()));
        i += 3;
    }
    found
}

#[test]
fn suggest_ranks_setups_with_a_final_round_and_both_decks() {
    let o = ostrov(&["suggest", "--players", "7", "--games", "60", "--finalists", "3", "--top", "3", "--deck", "both"]);
    assert!(o.status.success(), "stderr: {}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "7 игроков, разумные боты (sensible), зерно 1.", "{text}");
    assert!(lines[1].starts_with("Отбор: 60 партий на расклад;") && lines[1].ends_with("по 300 партий."), "{text}");
    for l in &lines {
        assert!(l.chars().count() <= 80, "wider than 80 columns: {l:?}");
    }
    let setups = suggested(&text);
    assert_eq!(setups.len(), 3, "three setups: {text}");
    for (roster, deck, rates, verdict) in setups {
        assert!(roster.roles(7).is_ok(), "{text}");
        assert!(matches!(deck.as_deref(), None | Some("none")), "{text}");
        let cols: Vec<&str> = rates.split_whitespace().collect();
        assert_eq!(cols[0], "мирные", "{rates}");
        let sum: f64 = cols.iter().filter_map(|c| c.strip_suffix('%')).map(|c| c.parse::<f64>().unwrap()).sum();
        assert!((sum - 100.0).abs() < 0.3, "the rates add up to 100%: {rates}");
        let v = verdict.trim();
        assert!(
            [
                "почти равные шансы",
                "мирные немного сильнее",
                "оборотни немного сильнее",
                "мирные сильнее",
                "оборотни сильнее",
                "чаще всех побеждает хомяк"
            ]
            .contains(&v),
            "{v}"
        );
    }
    // The setup printed is one `ostrov new --setup` takes.
    let first = &suggested(&text)[0];
    if first.1.is_none() {
        let o = ostrov(&["new", "--players", "А,Б,В,Г,Д,Е,Ж", "--seed", "1", "--setup", &first.0.to_string()]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
}

/// The labels speak English with `--lang en`, and a long setup is broken inside its quotes
/// so that every line fits 80 columns; the help shows no Rust syntax.
#[test]
fn suggest_in_english_fits_80_columns_and_its_help_is_plain() {
    let o = ostrov(&["--lang", "en", "suggest", "--players", "10", "--games", "20", "--top", "8", "--bots", "random"]);
    assert!(o.status.success(), "stderr: {}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.starts_with("10 players, random bots, seed 1.\nScreening: 20 games per setup;"), "{text}");
    for l in text.lines() {
        assert!(l.chars().count() <= 80, "wider than 80 columns: {l:?}");
    }
    assert_eq!(suggested(&text).len(), 8, "{text}");
    assert!(text.contains("civilians ") && text.contains("werewolves "), "{text}");
    for args in [["suggest", "--help"], ["simulate", "--help"]] {
        let help = String::from_utf8(ostrov(&args).stdout).unwrap();
        for rust in ["..=", "Option<", "Vec<", "::", "×"] {
            assert!(!help.contains(rust), "{args:?} help shows {rust:?}: {help}");
        }
    }
}

/// `simulate` says which setup, deck and bots it played; by default the recommended setup
/// and the sensible bots the table was searched with.
#[test]
fn simulate_names_the_setup_and_the_bots() {
    let o = ostrov(&["simulate", "--players", "12", "--games", "100"]);
    assert!(o.status.success(), "stderr: {}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("100 партий, 12 игроков, разумные боты (sensible), зерно 1:"), "{text}");
    let recommended = ostrov_engine::Roster::recommended(12).unwrap();
    assert_eq!(
        lines[1],
        format!("расклад: {recommended} (рекомендуемый расклад для 12 игроков); колода: 14 вещей"),
        "{text}"
    );
    assert!(text.contains("мирные") && text.contains("доля выживших по ролям"), "{text}");
    let o = ostrov(&[
        "--lang",
        "en",
        "simulate",
        "--players",
        "9",
        "--games",
        "50",
        "--setup",
        "werewolf=2,seer",
        "--no-items",
    ]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.lines().nth(1) == Some("setup: werewolf=2,seer (the setup of --setup); no items"), "{text}");
}

#[test]
fn suggest_table_writes_the_recommended_file_format() {
    let o =
        ostrov(&["suggest", "--table", "--games", "4", "--finalists", "1", "--final-games", "4", "--bots", "random"]);
    assert!(o.status.success(), "stderr: {}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains(
        "# Written by: ostrov suggest --table --games 4 --finalists 1 --final-games 4 --bots random --seed 1"
    ));
    let rows: Vec<(usize, String)> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert_eq!(cols.len(), 3, "{l}");
            assert!(cols[2].starts_with("civilians "), "{l}");
            (cols[0].parse().unwrap(), cols[1].to_string())
        })
        .collect();
    assert_eq!(rows.iter().map(|r| r.0).collect::<Vec<_>>(), (3..=40).collect::<Vec<_>>());
    for (n, r) in rows {
        assert!(ostrov_engine::Roster::parse(&r).unwrap().roles(n).is_ok(), "{n}: {r}");
    }
}

/// The committed table is what its own "# Written by:" command writes: the rows for a few
/// player counts, re-run one at a time (the whole table takes about an hour on 2 cores).
#[test]
fn the_recommended_table_is_reproduced_by_its_command() {
    let table = include_str!("../../ostrov-engine/src/recommended.txt");
    let command = table.lines().find_map(|l| l.strip_prefix("# Written by: ostrov ")).expect("a Written by line");
    let args: Vec<&str> = command.split(" > ").next().unwrap().split_whitespace().collect();
    assert_eq!(args[..2], ["suggest", "--table"]);
    assert!(args.windows(2).any(|w| w == ["--final-games", "10000"]), "±1 point on the final round: {command}");
    for n in ["4", "9", "12"] {
        let mut run = vec!["suggest", "--players", n, "--top", "1"];
        run.extend(&args[2..]);
        let o = ostrov(&run);
        assert!(o.status.success(), "stderr: {}", String::from_utf8_lossy(&o.stderr));
        let out = String::from_utf8(o.stdout).unwrap();
        let best = suggested(&out).remove(0).0;
        let row = table.lines().find(|l| l.split('\t').next() == Some(n)).expect("a row");
        let want = ostrov_engine::Roster::parse(row.split('\t').nth(1).unwrap()).unwrap();
        assert_eq!(best, want, "{n} players:\n{out}");
    }
}

#[test]
fn suggest_refuses_bad_arguments() {
    assert_bad(&ostrov(&["suggest", "--players", "8", "--deck", "dragon"]), "неизвестная вещь «dragon»");
    assert_bad(&ostrov(&["suggest", "--players", "2"]), "не меньше 3 игроков");
    assert_bad(&ostrov(&["suggest", "--players", "8", "--games", "0"]), "хотя бы одна партия");
}

/// A reader that goes away early (`ostrov … | head -1`) stops the output quietly: no panic
/// message, no "Broken pipe" on stderr.
#[test]
fn a_closed_pipe_stops_the_output_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    for args in [
        vec!["resolve".to_string(), sample()],
        vec!["simulate".into(), "--players".into(), "9".into(), "--games".into(), "200".into()],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ostrov"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        // Read nothing and close the pipe at once: every write the binary makes fails.
        drop(child.stdout.take());
        let mut err = String::new();
        child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
        let status = child.wait().unwrap();
        assert!(!err.contains("panicked") && !err.contains("Broken pipe"), "{args:?}: {err}");
        assert_ne!(status.code(), Some(101), "{args:?}: a panic's exit code");
    }
}

/// Three players and day 1, for the tests of the silent mistakes below.
const THREE: &str = "[[players]]\nname = \"Лев\"\nrole = \"seer\"\nitem = \"none\"\n\
[[players]]\nname = \"Маша\"\nrole = \"werewolf\"\nitem = \"none\"\n\
[[players]]\nname = \"Никита\"\nrole = \"passenger\"\nitem = \"none\"\n\
[[players]]\nname = \"Игорь\"\nrole = \"passenger\"\nitem = \"none\"\n";

fn resolve_text(name: &str, text: &str, extra: &[&str]) -> Output {
    let p = temp(name, text.as_bytes());
    let mut args = vec!["resolve", p.to_str().unwrap()];
    args.extend(extra);
    ostrov(&args)
}

/// Silent mistake 1: an unknown key, in any table, stops with its line and the nearest key.
#[test]
fn an_unknown_key_names_its_line_and_the_nearest_key() {
    let o = resolve_text("tie-brake.toml", &format!("{THREE}[[days]]\ntie_brake = \"Лев\"\n"), &[]);
    assert_bad(&o, "неизвестный ключ `tie_brake` (строка 18) — может быть, `tie_break`?");
    let o = resolve_text("evnt.toml", &format!("{THREE}[[days]]\nevnt = \"fear\"\n"), &[]);
    assert_bad(&o, "неизвестный ключ `evnt` (строка 18) — может быть, `event`?");
    let o = resolve_text(
        "order-key.toml",
        &format!("{THREE}[[days]]\norders = [\n  {{ by = \"Лев\", act = \"check\", traget = \"Маша\" }},\n]\n"),
        &[],
    );
    assert_bad(&o, "неизвестный ключ `traget` (строка 19) — может быть, `target`?");
    let o = resolve_text("rules-key.toml", &format!("[rules]\nmax_day = 3\n{THREE}"), &[]);
    assert_bad(&o, "неизвестный ключ `max_day` (строка 2) — может быть, `max_days`?");
}

/// Silent mistake 2: a lost `[[days]]` header (day 1's orders in the last player's entry).
#[test]
fn a_lost_days_header_names_its_line() {
    let o = resolve_text(
        "lost-days.toml",
        &format!("{THREE}event = \"none\"\norders = [{{ by = \"Лев\", act = \"vote\", target = \"Маша\" }}]\n"),
        &[],
    );
    assert_bad(
        &o,
        "ключ дня `event` (строка 17) стоит в записи игрока [[players]]: похоже, перед ним пропущен заголовок [[days]]",
    );
}

/// Silent mistake 3: refused orders (a vote for a dead player, a late order, an ability
/// the role does not have) are warnings on stderr, one line each, with the line, the day,
/// the order and the reason; the game still resolves (exit 0).
#[test]
fn refused_orders_are_warned_one_line_each() {
    let text = format!(
        "{THREE}[[days]]\nevent = \"none\"\norders = [\n\
  {{ by = \"Лев\", act = \"vote\", target = \"Никита\" }},\n\
  {{ by = \"Маша\", act = \"vote\", target = \"Никита\" }},\n\
  {{ by = \"Игорь\", act = \"vote\", target = \"Лев\", at = \"21:30\" }},\n\
  {{ by = \"Никита\", act = \"check\", target = \"Лев\" }},\n\
]\n[[days]]\nevent = \"none\"\norders = [\n  {{ by = \"Лев\", act = \"vote\", target = \"Никита\" }},\n]\n"
    );
    let o = resolve_text("refused.toml", &text, &["--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let err = String::from_utf8(o.stderr).unwrap();
    let warnings: Vec<&str> = err.lines().collect();
    let refused: usize =
        report["days"].as_array().unwrap().iter().map(|d| d["rejected"].as_array().unwrap().len()).sum();
    assert_eq!(warnings.len(), refused, "{err}");
    assert_eq!(refused, 3, "{err}");
    assert!(warnings.iter().all(|w| w.starts_with("ostrov: предупреждение: ")), "{err}");
    assert!(
        err.contains("refused.toml, строка 22: день 1, 21:30, Игорь: vote → Лев — не принят: ход прислан после 21:00"),
        "{err}"
    );
    assert!(
        err.contains("строка 23: день 1, 12:00, Никита: check → Лев — не принят: у вашей роли нет такой способности"),
        "{err}"
    );
    assert!(
        err.contains("строка 28: день 2, 12:00, Лев: vote → Никита — не принят: выбранный игрок уже выбыл из игры"),
        "{err}"
    );
    // The newspaper shows the refused vote as refused, not as a vote not sent.
    let o = resolve_text("refused-paper.toml", &text, &["--day", "2", "--format", "plain"]);
    let paper = String::from_utf8(o.stdout).unwrap();
    assert!(paper.contains("Лев | на себе | не принят: выбранный игрок уже выбыл из игры"), "{paper}");
    assert!(!paper.contains("(а)") || !paper.contains("не проголосовал"), "{paper}");
    // English on request.
    let p = temp("refused-en.toml", text.as_bytes());
    let o = Command::new(env!("CARGO_BIN_EXE_ostrov"))
        .args(["resolve", p.to_str().unwrap(), "--json"])
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env("LANG", "en_GB.UTF-8")
        .output()
        .unwrap();
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(
        err.contains("ostrov: warning: ") && err.contains("day 1, 21:30, Игорь: vote → Лев — refused: sent after"),
        "{err}"
    );
}

/// Silent mistake 4: look-alike names in the players list are refused naming both lines;
/// an unknown name in an order suggests the nearest player.
#[test]
fn look_alike_names_and_unknown_names() {
    let twin = format!("{THREE}[[players]]\nname = \"Никитa\"\nrole = \"passenger\"\n");
    let o = resolve_text("twin.toml", &twin, &[]);
    assert_bad(&o, "строка 18, игрок 5 («Никитa»): имя «Никитa» не отличить от имени игрока 3 («Никита», строка 10): во втором имени латинская буква «a»");
    let o = resolve_text("zw.toml", &format!("{THREE}[[players]]\nname = \"Ли\u{200D}в\"\nrole = \"passenger\"\n[[players]]\nname = \"Лив\"\nrole = \"passenger\"\n"), &[]);
    assert_bad(&o, "строка 21, игрок 6 («Лив»): имя «Лив» не отличить от имени игрока 5 («Лив», строка 18): в первом имени невидимый или составной символ U+200D");
    let o = resolve_text(
        "nearest.toml",
        &format!("{THREE}[[days]]\norders = [{{ by = \"Маша\", act = \"kill\", target = \"Лёва\" }}]\n"),
        &[],
    );
    assert_bad(&o, "`target` называет «Лёва», а такого игрока в игре нет — может быть, «Лев»?");
    let o = ostrov(&[
        "--lang",
        "en",
        "resolve",
        temp(
            "nearest-en.toml",
            format!("{THREE}[[days]]\norders = [{{ by = \"Маша\", act = \"kill\", target = \"Лёва\" }}]\n").as_bytes(),
        )
        .to_str()
        .unwrap(),
    ]);
    assert_bad(&o, "line 18, day 1, order 1 (by = \"Маша\", act = \"kill\", target = \"Лёва\"): `target` names \"Лёва\", who is not a player of this game — did you mean \"Лев\"?");
}

/// Silent mistake 5: the feminine and inflected role names hosts write are understood.
#[test]
fn feminine_and_inflected_roles_are_understood() {
    let text = THREE
        .replace("role = \"seer\"", "role = \"Ясновидящая\"")
        .replace("role = \"werewolf\"", "role = \"оборотня\"");
    let o = resolve_text("feminine.toml", &text, &["--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["players"][0]["role"], "seer");
    assert_eq!(report["players"][1]["role"], "werewolf");
    let o = ostrov(&["new", "--players", "А,Б,В,Г,Д", "--seed", "1", "--setup", "2 оборотня, Ясновидящая"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// Silent mistake 6 (O-TIME-4): an order at 22:00–23:59 is the evening before the day: it
/// counts, comes before the morning's orders, and nothing is refused or warned.
#[test]
fn an_evening_order_counts_before_the_morning() {
    let text = format!(
        "{THREE}[[days]]\nevent = \"none\"\norders = [\n\
  {{ by = \"Лев\", act = \"vote\", target = \"Никита\", at = \"08:00\" }},\n\
  {{ by = \"Лев\", act = \"vote\", target = \"Маша\", at = \"23:30\" }},\n\
  {{ by = \"Никита\", act = \"vote\", target = \"Маша\", at = \"22:00\" }},\n\
  {{ by = \"Игорь\", act = \"vote\", target = \"Маша\", at = \"23:59\" }},\n\
]\n"
    );
    let o = resolve_text("evening.toml", &text, &["--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(o.stderr.is_empty(), "{}", String::from_utf8_lossy(&o.stderr));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    // Лев's 08:00 vote is his last one: the 23:30 one came the evening before.
    assert_eq!(report["days"][0]["tally"]["Никита"], 1);
    assert_eq!(report["days"][0]["tally"]["Маша"], 3);
    assert_eq!(report["days"][0]["rejected"], serde_json::json!([]));
}

/// Issue 15 (point 4): the opening post (`resolve --day 0`, and `new -o` prints the same
/// for the file it wrote) and `next` for the day after the file's last.
#[test]
fn the_opening_post_and_the_next_day() {
    let o = ostrov(&["resolve", &sample(), "--day", "0"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let post = String::from_utf8(o.stdout).unwrap();
    assert!(
        post.contains("начало игры") && post.contains("Коротко о правилах") && post.contains("## День 1"),
        "{post}"
    );
    assert!(post.contains("Вызов духа"), "day 1 of the sample is a Spirit call: {post}");
    assert!(!post.contains("Шокер") && !post.contains("Ясновидящ"), "{post}");

    let dir = std::env::temp_dir().join(format!("ostrov-cli-new-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.toml");
    let f = file.to_str().unwrap();
    let o = ostrov(&["new", "--players", "Аня,Боря,Вика,Гена,Дима,Женя,Зоя,Илья,Кира", "--seed", "5", "-o", f]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("первый пост игры"));
    let printed = String::from_utf8(o.stdout).unwrap();
    let o = ostrov(&["resolve", f, "--day", "0"]);
    assert_eq!(printed, String::from_utf8(o.stdout).unwrap());
    assert!(printed.contains("На острове 9 игроков."), "{printed}");
    // `next` of a file with no days is the opening too; after a day it is day 2's announcement.
    assert_eq!(String::from_utf8(ostrov(&["next", f]).stdout).unwrap(), printed);
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.push_str("\n[[days]]\nevent = \"full_moon\"\n");
    std::fs::write(&file, &text).unwrap();
    let o = ostrov(&["next", f, "--format", "bbcode"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let next = String::from_utf8(o.stdout).unwrap();
    assert!(next.contains("день 2, 22:00") && next.contains("Событие дня"), "{next}");
    // The evening newspaper of day 1 announces the same event `next` does.
    let evening = String::from_utf8(ostrov(&["resolve", f, "--day", "1", "--format", "bbcode"]).stdout).unwrap();
    let event = next.split("Событие дня: [b]").nth(1).and_then(|s| s.split("[/b]").next()).unwrap();
    assert!(evening.contains(&format!("Событие: [b]{event}[/b]")), "{event} / {evening}");
    // A finished game has no next day.
    let o = ostrov(&["next", concat!(env!("CARGO_MANIFEST_DIR"), "/../../games/big-40x30.toml")]);
    let err = String::from_utf8_lossy(&o.stderr);
    if !o.status.success() {
        assert_bad(&o, "игра окончена");
    } else {
        assert!(err.is_empty(), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 29, point 11: orders after the game's end stop with exit 2, but the newspapers up
/// to the end come first, so the host sees why the game ended; the error names the winner
/// in Russian.
#[test]
fn orders_after_the_end_print_the_papers_up_to_the_end_then_the_error() {
    let file = r#"seed = 3
[[players]]
name = "Аня"
role = "werewolf"
[[players]]
name = "Боря"
role = "passenger"
[[players]]
name = "Вика"
role = "passenger"
[[players]]
name = "Гоша"
role = "passenger"
[[players]]
name = "Дима"
role = "passenger"

[[days]]
event = "none"
orders = [
  { by = "Боря", act = "vote", target = "Аня" },
  { by = "Вика", act = "vote", target = "Аня" },
  { by = "Гоша", act = "vote", target = "Аня" },
  { by = "Дима", act = "vote", target = "Аня" },
]

[[days]]
orders = [
  { by = "Боря", act = "vote", target = "Вика" },
]
"#;
    let p = temp("after-the-end.toml", file.as_bytes());
    let o = ostrov(&["resolve", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let papers = String::from_utf8(o.stdout.clone()).unwrap();
    assert!(papers.contains("Победили мирные жители") && papers.contains("итоги игры"), "{papers}");
    assert_eq!(
        message(&o),
        format!(
            "{}: строка 28, день 2: игра уже закончилась в день 1 (победили мирные жители); после конца игры дней \
             с приказами быть не может: уберите приказы дней после 1-го",
            p.display()
        )
    );
    // The JSON report stays all or nothing: no half a report before the error.
    let o = ostrov(&["resolve", p.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
}

/// Issue 29, point 9: `--day` with `--json` is an error that says why, not ignored.
#[test]
fn day_with_json_is_an_error_not_ignored() {
    let o = ostrov(&["resolve", &sample(), "--json", "--day", "2"]);
    assert_bad(&o, "--day 2");
    assert_eq!(
        message(&o),
        "--day 2 и --json вместе не работают: JSON-отчёт всегда за всю игру (дни в нём — в поле days); уберите --day или --json"
    );
}

/// Issue 29, point 9: a `tie_break` on a day without a tie and a `chosen` on a day that is
/// not «Выбери меня!» are warned about on stderr, with their line; the game goes on.
#[test]
fn fixes_a_day_does_not_use_are_warned_about() {
    let file = r#"seed = 3
[[players]]
name = "Аня"
role = "werewolf"
[[players]]
name = "Боря"
role = "passenger"
[[players]]
name = "Вика"
role = "passenger"
[[players]]
name = "Гоша"
role = "passenger"
[[players]]
name = "Дима"
role = "passenger"

[[days]]
event = "none"
chosen = "Боря"
tie_break = "Вика"
orders = [
  { by = "Боря", act = "vote", target = "Гоша" },
]
"#;
    let p = temp("unused-fixes.toml", file.as_bytes());
    let o = ostrov(&["resolve", p.to_str().unwrap()]);
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    let shown = p.display();
    assert!(
        err.contains(&format!(
            "ostrov: предупреждение: {shown}, строка 20: день 1: событие дня — без события, а не «Выбери меня!»: \
             `chosen` ни на что не влияет (задайте event = \"choose_me\" или уберите chosen)"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "ostrov: предупреждение: {shown}, строка 21: день 1: в этот день не осталось ничьей, которую решает \
             жребий: `tie_break` не использован"
        )),
        "{err}"
    );
}

/// Issue 29, point 6: a value of the wrong kind is one Russian sentence with the line and
/// what to write, not the reader's English.
#[test]
fn issue_29_point_6_a_value_of_the_wrong_kind_is_said_in_russian() {
    let p = temp("seed-text.toml", "seed = \"2024\"\n[[players]]\nname = \"Аня\"\nrole = \"seer\"\n".as_bytes());
    let o = ostrov(&["resolve", p.to_str().unwrap()]);
    assert_bad(&o, "строка 1");
    assert_eq!(
        message(&o),
        format!(
            "{}: строка 1: `seed` — текст в кавычках \"2024\", а нужно целое число без кавычек: уберите кавычки \
             (seed = 2024)",
            p.display()
        )
    );
}

/// Issue 29, point 6: the argument parser's errors are Russian sentences (clap's English
/// with `--lang en`), exit code 2, nothing on stdout.
#[test]
fn issue_29_point_6_argument_errors_are_russian_sentences() {
    for (args, want) in [
        (
            &["resolve", "--jsn", "x"][..],
            "неизвестный параметр --jsn — может быть, --json? Справка: ostrov resolve --help",
        ),
        (
            &["resolv"],
            "неизвестная команда «resolv» — может быть, «resolve»? Команды: resolve, new, next, simulate, suggest, \
             serve, backup; справка: ostrov --help",
        ),
        (&["resolve"], "не хватает файла игры (ФАЙЛ); справка: ostrov resolve --help"),
        (
            &["resolve", "x", "--format", "pdf"],
            "значение «pdf» не подходит для --format: можно markdown, gfm, bbcode, html, html-fragment, plain",
        ),
        (&["resolve", "x", "--format"], "для --format нужно значение: --format ЗНАЧЕНИЕ"),
        (
            &["new", "--players", "Аня", "--seed", "abc"],
            "значение «abc» не подходит для --seed: нужно целое число от 0, цифрами",
        ),
        (
            &["resolve", "x", "--day", "99999999999"],
            "значение «99999999999» не подходит для --day: нужно целое число от 0 до 4294967295",
        ),
        (&["resolve", "x", "--json", "--inbox", "Аня"], "--json и --inbox вместе не работают: оставьте что-то одно"),
        (&["resolve", "a", "b"], "лишний аргумент «b»: эта команда его не ждёт; справка: ostrov resolve --help"),
        (&["simulate", "--bots", "smart"], "значение «smart» не подходит для --bots: можно sensible, random"),
        (&["backup"], "не хватает файла для копии (КОПИЯ); справка: ostrov backup --help"),
    ] {
        let o = ostrov(args);
        assert_bad(&o, "");
        assert_eq!(message(&o), want, "{args:?}");
    }
    let o = ostrov(&["--lang", "en", "resolve", "--jsn", "x"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).starts_with("error: unexpected argument '--jsn' found"));
}

/// The text after an option's name in a help page: on its line, or on the next one.
fn option_helps(help: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = help.lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let t = l.trim_start();
        if !(t.starts_with('-') || t.starts_with('<')) || l.len() == t.len() {
            continue;
        }
        let (name, rest) = t.split_once("  ").unwrap_or((t, ""));
        let text = if rest.trim().is_empty() { lines.get(i + 1).copied().unwrap_or("") } else { rest };
        out.push((name.trim().to_string(), text.trim().to_string()));
    }
    out
}

/// Issue 29, point 7: every command's `--help` is Russian by default — clap's headings, the
/// usage line, every option's text, the possible and default values — and English with
/// `--lang en` or an English locale.
#[test]
fn issue_29_point_7_every_help_is_russian_by_default_and_english_on_request() {
    let cyrillic = |s: &str| s.chars().any(|c| ('а'..='я').contains(&c.to_lowercase().next().unwrap()));
    let root = String::from_utf8(ostrov(&["--help"]).stdout).unwrap();
    let commands: Vec<String> = root
        .split("Команды:\n")
        .nth(1)
        .expect("a list of commands")
        .lines()
        .take_while(|l| !l.is_empty())
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect();
    assert_eq!(commands, ["resolve", "new", "next", "simulate", "suggest", "serve", "backup", "demo", "help"]);
    let mut pages = vec![(vec!["--help".to_string()], root)];
    for c in &commands {
        let by_flag = if c == "help" { vec![] } else { vec![c.clone(), "--help".to_string()] };
        for args in [by_flag, vec!["help".to_string(), c.clone()]].into_iter().filter(|a| !a.is_empty()) {
            let o = ostrov(&args.iter().map(String::as_str).collect::<Vec<_>>());
            assert!(o.status.success(), "{args:?}");
            pages.push((args, String::from_utf8(o.stdout).unwrap()));
        }
    }
    for (args, page) in &pages {
        assert!(page.contains("Использование: ostrov"), "{args:?}: {page}");
        for english in ["Usage", "Options:", "Arguments:", "Commands:", "Print help", "possible values", "[default"] {
            assert!(!page.contains(english), "{args:?} shows {english:?}: {page}");
        }
        assert!(cyrillic(page.lines().next().unwrap()), "{args:?}: the description is not Russian: {page}");
        for (name, text) in option_helps(page) {
            assert!(cyrillic(&text), "{args:?}: {name} has no Russian help: {text:?}");
        }
    }
    let resolve = &pages.iter().find(|(a, _)| a[0] == "resolve").unwrap().1;
    assert!(resolve.contains("--format <ФОРМАТ>") && resolve.contains("[варианты: markdown, gfm"), "{resolve}");
    let serve = &pages.iter().find(|(a, _)| a[0] == "serve").unwrap().1;
    assert!(serve.contains("[по умолчанию: 127.0.0.1:8080]"), "{serve}");
    // English on request: `--lang en`, or a locale that starts with "en".
    let en = String::from_utf8(ostrov(&["--lang", "en", "resolve", "--help"]).stdout).unwrap();
    assert!(en.contains("Usage: ostrov resolve [OPTIONS] <FILE>") && en.contains("Print help"), "{en}");
    let o = Command::new(env!("CARGO_BIN_EXE_ostrov"))
        .args(["new", "--help"])
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env("LANG", "en_US.UTF-8")
        .output()
        .unwrap();
    let en = String::from_utf8(o.stdout).unwrap();
    assert!(en.starts_with("Start a new game") && en.contains("Options:"), "{en}");
}

/// Issue 29, point 8: `ostrov serve` speaks the language of `--lang`: its start-up line,
/// and a port another program holds.
#[test]
fn issue_29_point_8_serve_speaks_the_language_of_lang() {
    use std::io::{BufRead, BufReader};
    let dir = std::env::temp_dir().join(format!("ostrov-cli-serve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let db = dir.join("serve.db");
    let db = db.to_str().unwrap();
    let o = ostrov(&["serve", "--db", db, "--bind", &addr]);
    assert_bad(&o, "занят");
    assert_eq!(
        message(&o),
        format!(
            "адрес {addr} уже занят другой программой (может быть, другим ostrov serve): остановите её или выберите \
             другой порт, например --bind 127.0.0.1:8081"
        )
    );
    let o = ostrov(&["--lang", "en", "serve", "--db", db, "--bind", &addr]);
    assert_eq!(message(&o), format!("{addr} is taken by another program: stop it or choose another port"));
    for (lang, want) in [("ru", "Ostrov работает: http://127.0.0.1:"), ("en", "Ostrov serves on http://127.0.0.1:")]
    {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ostrov"))
            .args(["--lang", lang, "serve", "--db", db, "--bind", "127.0.0.1:0"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(line.starts_with(want), "{lang}: {line}");
        let tail = match lang {
            "ru" => format!("/ (база данных {db}, SQLite)\n"),
            _ => format!("/ (database {db}, SQLite)\n"),
        };
        assert!(line.ends_with(&tail), "{lang}: {line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 29, point 9: a key an order's act does not read (`text`, `from` on a vote) is a
/// warning on stderr with its line, what it is for and what the act reads; the game is
/// resolved as without it.
#[test]
fn issue_29_point_9_keys_an_order_does_not_read_are_warned_about() {
    let file = "[[players]]\nname = \"Аня\"\nrole = \"seer\"\n[[players]]\nname = \"Боря\"\nrole = \"werewolf\"\n\
                [[days]]\nevent = \"none\"\norders = [\n  { by = \"Аня\", act = \"vote\", target = \"Боря\", text = \"он волк\" },\n  \
                { by = \"Боря\", act = \"vote\", target = \"Аня\", from = \"Аня\" },\n]\n";
    let p = temp("unused-keys.toml", file.as_bytes());
    let o = ostrov(&["resolve", p.to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let shown = p.display();
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "ostrov: предупреждение: {shown}, строка 10: день 1, приказ 1 (by = \"Аня\", act = \"vote\", target = \
             \"Боря\"): ключ `text` у `vote` ни на что не влияет и пропущен: он бывает только у ask (вопрос Духу); у \
             `vote` бывают target, targets\n\
             ostrov: предупреждение: {shown}, строка 11: день 1, приказ 2 (by = \"Боря\", act = \"vote\", target = \
             \"Аня\", from = \"Аня\"): ключ `from` у `vote` ни на что не влияет и пропущен: он бывает только у \
             authority (у кого Авторитет забирает голос); у `vote` бывают target, targets\n"
        )
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["days"][0]["tally"], serde_json::json!({ "Аня": 1, "Боря": 1 }));
}

/// Issue 29, point 12: `--stage midday` prints the 13:00 bulletin of the last day and
/// nothing else, `--stage evening` its evening newspaper (with the final one on the last
/// day), `--inbox all` every player's messages, one block each headed by the name.
#[test]
fn issue_29_point_12_one_stage_of_the_last_day_and_every_inbox() {
    use ostrov_paper::Format;
    let game = ostrov_engine::Game::parse(&std::fs::read_to_string(sample()).unwrap()).unwrap();
    let m = ostrov_engine::play(&game, true).unwrap();
    let last = m.days.last().unwrap().day;
    let out = |args: &[&str]| {
        let o = ostrov(args);
        assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    let midday = out(&["resolve", &sample(), "--stage", "midday"]);
    assert_eq!(midday, ostrov_paper::bulletin(&m, last).render(Format::Markdown));
    assert!(midday.starts_with(&format!("# Остров страха — пример — День {last}, 13:00\n")), "{midday}");
    assert!(!midday.contains("вечерняя газета"), "{midday}");
    let day1 = out(&["resolve", &sample(), "--stage", "midday", "--day", "1", "--format", "bbcode"]);
    assert_eq!(day1, ostrov_paper::bulletin(&m, 1).render(Format::Bbcode));
    let evening = out(&["resolve", &sample(), "--stage", "evening"]);
    assert!(evening.contains(&format!("День {last}, вечерняя газета")) && evening.contains("итоги игры"), "{evening}");
    assert!(!evening.contains("13:00\n"), "{evening}");
    let all = out(&["resolve", &sample(), "--inbox", "all"]);
    let blocks: Vec<&str> = all.split("\n---\n").collect();
    assert_eq!(blocks.len(), m.state().players().len(), "{all}");
    for (block, p) in blocks.iter().zip(m.state().players()) {
        assert!(block.trim_start().starts_with(&format!("# Личные сообщения: {}\n", p.name)), "{block}");
    }
    // One player's block is that player's inbox (Markdown alternates its list markers).
    let one = out(&["resolve", &sample(), "--inbox", &m.state().players()[1].name]);
    assert_eq!(blocks[1].trim().replace("\n* ", "\n- "), one.trim().replace("\n* ", "\n- "));
    let o = ostrov(&["resolve", &sample(), "--stage", "midday", "--day", "0"]);
    assert_eq!(
        message(&o),
        "--stage midday и --day 0 вместе не работают: у первого поста нет 13:00 и вечера; уберите --stage"
    );
}

/// Issue 29, point 9: the warnings cover a `chosen` on any day that is not «Выбери меня!»
/// (here Rage) and a `tie_break` on a day whose tie no lot settles (`tie = "none"`).
#[test]
fn issue_29_point_9_chosen_on_another_event_and_tie_break_without_a_lot_are_warned() {
    let file = "seed = 3\n[rules]\ntie = \"none\"\n[[players]]\nname = \"Аня\"\nrole = \"werewolf\"\n\
                [[players]]\nname = \"Боря\"\nrole = \"passenger\"\n[[players]]\nname = \"Вика\"\nrole = \"passenger\"\n\
                [[players]]\nname = \"Гоша\"\nrole = \"passenger\"\n\
                [[days]]\nevent = \"rage\"\nchosen = \"Боря\"\ntie_break = \"Вика\"\norders = [\n  \
                { by = \"Аня\", act = \"vote\", targets = [\"Боря\", \"Вика\"] },\n  \
                { by = \"Боря\", act = \"vote\", targets = [\"Вика\", \"Гоша\"] },\n]\n";
    let p = temp("unused-fixes-rage.toml", file.as_bytes());
    let o = ostrov(&["resolve", p.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let shown = p.display();
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "ostrov: предупреждение: {shown}, строка 18: день 1: событие дня — Ярость, а не «Выбери меня!»: `chosen` ни \
             на что не влияет (задайте event = \"choose_me\" или уберите chosen)\n\
             ostrov: предупреждение: {shown}, строка 19: день 1: в этот день не осталось ничьей, которую решает \
             жребий: `tie_break` не использован\n"
        )
    );
}
