//! The `ostrov` binary end to end: resolve, formats, inbox, new, and bad files (exit
//! code 2, one clear message, never a panic).

use std::path::PathBuf;
use std::process::{Command, Output};

fn ostrov(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ostrov")).args(args).output().expect("the binary runs")
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
    assert!(inbox.contains("Ваша роль: Ясновидящий") && inbox.contains("Проверка: Боря — оборотень"));
    assert_bad(&ostrov(&["resolve", &sample(), "--inbox", "Никто"]), "no player named");
    assert_bad(&ostrov(&["resolve", &sample(), "--day", "9"]), "--day 9");
}

#[test]
fn truncated_toml_names_the_line() {
    let p = temp("truncated.toml", "[[players]]\nname = \"Аня\"\nrole = \"seer\n".as_bytes());
    assert_bad(&ostrov(&["resolve", p.to_str().unwrap()]), "line 3");
}

#[test]
fn duplicate_player_name() {
    let p = temp(
        "dup.toml",
        "[[players]]\nname = \"Аня\"\nrole = \"seer\"\n[[players]]\nname = \"АНЯ\"\nrole = \"werewolf\"\n".as_bytes(),
    );
    assert_bad(&ostrov(&["resolve", p.to_str().unwrap()]), "duplicate player name");
}

#[test]
fn unknown_role() {
    let p = temp("role.toml", "[[players]]\nname = \"Аня\"\nrole = \"dragon\"\n".as_bytes());
    assert_bad(&ostrov(&["resolve", p.to_str().unwrap()]), "unknown role \"dragon\"");
}

#[test]
fn an_order_naming_nobody() {
    let p = temp(
        "nobody.toml",
        "[[players]]\nname = \"Аня\"\nrole = \"seer\"\n[[players]]\nname = \"Боря\"\nrole = \"werewolf\"\n\
         [[days]]\norders = [{ by = \"Аня\", act = \"vote\", target = \"Жора\" }]\n"
            .as_bytes(),
    );
    assert_bad(&ostrov(&["resolve", p.to_str().unwrap()]), "day 1, order 1");
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
    assert_bad(&ostrov(&["resolve", p.to_str().unwrap()]), "tie_break");
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
    assert_bad(&ostrov(&["resolve", p.to_str().unwrap()]), "not a valid TOML");
}

#[test]
fn a_missing_file() {
    assert_bad(&ostrov(&["resolve", "/nonexistent/game.toml"]), "cannot read");
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
    assert_bad(&ostrov(&["new", "--players", "А,Б,В", "-o", out.to_str().unwrap()]), "cannot create");
    assert_bad(&ostrov(&["new", "--players", "А,Б", "--seed", "1"]), "at least 3");
    assert_bad(&ostrov(&["new", "--players", "А,Б,В", "--setup", "werewolf=5"]), "more than the 3 players");
    let help = String::from_utf8(ostrov(&["new", "--help"]).stdout).unwrap();
    assert!(help.contains("--setup") && help.contains("recommended"));
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

#[test]
fn suggest_ranks_setups_with_a_final_round_and_both_decks() {
    let o = ostrov(&["suggest", "--players", "7", "--games", "60", "--finalists", "3", "--top", "3", "--deck", "both"]);
    assert!(o.status.success(), "stderr: {}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("7 players, sensible bots, 60 games per setup, the best 3 again with 300 games"),
        "{text}"
    );
    assert!(lines[1].contains("deck") && lines[1].contains("civilians"), "{text}");
    assert_eq!(lines.len(), 2 + 3, "three setups: {text}");
    for row in &lines[2..] {
        let cols: Vec<&str> = row.split_whitespace().collect();
        let roster = ostrov_engine::Roster::parse(cols[0]).unwrap_or_else(|e| panic!("{row}: {e}"));
        assert!(roster.roles(7).is_ok(), "{row}");
        assert!(matches!(cols[1], "default" | "none"), "{row}");
        let rates: f64 = cols[2..].iter().map(|c| c.trim_end_matches('%').parse::<f64>().unwrap()).sum();
        assert!((rates - 100.0).abs() < 0.3, "the four rates add up to 100%: {row}");
    }
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
/// player counts, re-run one at a time (the whole table takes about 16 minutes).
#[test]
fn the_recommended_table_is_reproduced_by_its_command() {
    let table = include_str!("../../ostrov-engine/src/recommended.txt");
    let command = table.lines().find_map(|l| l.strip_prefix("# Written by: ostrov ")).expect("a Written by line");
    let args: Vec<&str> = command.split(" > ").next().unwrap().split_whitespace().collect();
    assert_eq!(args[..2], ["suggest", "--table"]);
    for n in ["4", "9", "12"] {
        let mut run = vec!["suggest", "--players", n, "--top", "1"];
        run.extend(&args[2..]);
        let o = ostrov(&run);
        assert!(o.status.success(), "stderr: {}", String::from_utf8_lossy(&o.stderr));
        let out = String::from_utf8(o.stdout).unwrap();
        let best = out.lines().nth(2).expect("a ranked setup").split_whitespace().next().unwrap().to_string();
        let row = table.lines().find(|l| l.split('\t').next() == Some(n)).expect("a row");
        assert_eq!(row.split('\t').nth(1), Some(best.as_str()), "{n} players:\n{out}");
    }
}

#[test]
fn suggest_refuses_bad_arguments() {
    assert_bad(&ostrov(&["suggest", "--players", "8", "--deck", "dragon"]), "unknown item \"dragon\"");
    assert_bad(&ostrov(&["suggest", "--players", "2"]), "at least 3 players");
    assert_bad(&ostrov(&["suggest", "--players", "8", "--games", "0"]), "at least 1");
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
