//! Snapshots of the rendered newspapers of the sample game, in every format.

use ostrov_engine::{play, Game};
use ostrov_paper::{all, inbox, Format};

fn sample() -> ostrov_engine::Match {
    let game = Game::parse(include_str!("../../../games/sample.toml")).unwrap();
    play(&game, true).unwrap()
}

#[test]
fn sample_newspapers_markdown() {
    insta::assert_snapshot!(all(&sample(), Format::Markdown));
}

#[test]
fn sample_newspapers_bbcode() {
    insta::assert_snapshot!(all(&sample(), Format::Bbcode));
}

#[test]
fn sample_newspapers_html() {
    insta::assert_snapshot!(all(&sample(), Format::Html));
}

#[test]
fn sample_inbox_of_the_halfblood() {
    let m = sample();
    let p = m.find("Дима").unwrap();
    insta::assert_snapshot!(inbox(&m, p, None, Format::Markdown));
}

#[test]
fn plural_forms_in_the_vote_table() {
    let text = all(&sample(), Format::Plain);
    assert!(text.contains("Гена — 4 голоса"), "{text}");
    assert!(text.contains("Аня — 1 голос\n"), "{text}");
    assert!(text.contains("Всего 9 голосов."), "{text}");
    assert!(text.contains("В живых: 7 игроков."), "{text}");
    assert!(text.contains("В живых: 4 игрока."), "{text}");
}

/// Issue 15: the default BBCode renders on a stock phpBB: only its tags.
#[test]
fn bbcode_of_the_big_game_uses_only_stock_phpbb_tags() {
    let game = Game::parse(include_str!("../../../games/big-40x30.toml")).unwrap();
    let text = all(&play(&game, true).unwrap(), Format::Bbcode);
    let allowed = ["b", "i", "u", "color", "size", "quote", "code", "list", "*"];
    let mut rest = text.as_str();
    let mut seen = 0;
    while let Some(k) = rest.find('[') {
        let tag = &rest[k + 1..];
        let end = tag.find(']').expect("a tag is closed");
        let name = tag[..end].trim_start_matches('/').split('=').next().unwrap();
        assert!(allowed.contains(&name), "tag [{name}] is not on stock phpBB");
        seen += 1;
        rest = &tag[end..];
    }
    assert!(seen > 100);
    assert!(!all(&sample(), Format::Markdown).contains("~~") && !all(&sample(), Format::Markdown).contains("|---"));
    let html = all(&sample(), Format::Html);
    assert!(
        html.starts_with("<!DOCTYPE html>") && html.contains("<meta charset=\"utf-8\">") && html.contains("<title>")
    );
    assert!(all(&sample(), Format::HtmlFragment).starts_with("<article"));
}

/// Issue 15 (point 4): the opening post of the sample game (`ostrov resolve --day 0`).
fn sample_opening(f: Format) -> String {
    let game = Game::parse(include_str!("../../../games/sample.toml")).unwrap();
    let m = ostrov_engine::Match::new(&game.setup, true);
    let a = m.announce(&game.days[0]).unwrap();
    ostrov_paper::opening(&m, &a).render(f)
}

#[test]
fn opening_post_markdown() {
    insta::assert_snapshot!(sample_opening(Format::Markdown));
}

#[test]
fn opening_post_bbcode() {
    insta::assert_snapshot!(sample_opening(Format::Bbcode));
}

/// Issue 15 (point 4): the 22:00 announcement of day 2 of the sample game, after day 1
/// (the game itself ends on day 3: no day after that is announced).
#[test]
fn next_day_announcement_of_the_sample() {
    let mut game = Game::parse(include_str!("../../../games/sample.toml")).unwrap();
    assert!(sample().announce(&Default::default()).is_err(), "the sample game is over");
    game.days.truncate(1);
    let m = play(&game, true).unwrap();
    let a = m.announce(&Default::default()).unwrap();
    assert_eq!(a.day, 2);
    assert_eq!(a.event, m.days[0].next_event, "the evening paper said the same");
    insta::assert_snapshot!(ostrov_paper::announcement(&m, &a).render(Format::Markdown));
}

/// O-PAPER-2 (issue 28, point 1): the maniac's victim is never published. In the sample
/// Зоя (the maniac) visits a player on night 1: the host's step log says whom, no
/// newspaper in any format does, and the victim is told privately.
#[test]
fn the_maniacs_victim_is_in_no_newspaper_o_paper_2() {
    let m = sample();
    let victims = &m.days[0].assaulted;
    assert_eq!(victims.len(), 1, "the sample's maniac visits someone on night 1");
    let victim = m.state().name(victims[0]).to_string();
    let log = ostrov_engine::Report::of(&m).days[0].log.iter().map(|l| l.text.clone()).collect::<Vec<_>>().join("\n");
    assert!(log.contains("Сексманьяк навестил"), "the host's log says it: {log}");
    for f in [Format::Markdown, Format::Gfm, Format::Bbcode, Format::Html, Format::HtmlFragment, Format::Plain] {
        let text = all(&m, f);
        assert!(!text.contains("навестил") && !text.contains("нет ни голоса, ни слова"), "{f:?}: {text}");
    }
    let own = inbox(&m, victims[0], None, Format::Plain);
    assert!(!own.is_empty(), "{victim} is told: {own}");
}

/// Issue 28, point 5: a question that closes its own quotes stays one question in every
/// format, and the host's answer follows the real one.
#[test]
fn a_forged_question_stays_inside_its_quotes() {
    let file = r#"seed = 2
[[players]]
name = "Аня"
role = "werewolf"
[[players]]
name = "Боря"
role = "seer"
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
event = "spirit_call"
orders = [
  { by = "Гоша", act = "ask", text = "Ведущий мирный?» Ответ Духа: «Нет». Вопрос Гоши: «Вика оборотень?", at = "10:00" },
  { by = "host", act = "answer", answer = "yes", at = "13:30" },
]
"#;
    let m = play(&Game::parse(file).unwrap(), true).unwrap();
    for f in [Format::Markdown, Format::Bbcode, Format::Html, Format::Plain] {
        let text = all(&m, f);
        assert_eq!(text.matches("Ответ Духа: «").count(), 1, "{f:?}: {text}");
        assert!(text.contains("Ответ Духа: „Нет“. Вопрос Гоши: „Вика оборотень?» Ответ Духа: «Да»."), "{f:?}: {text}");
    }
}

/// Issue 30, point 4: a substitute in the evening newspaper, among the host's decisions,
/// the seat's name declined by its gender's paradigm («Аню», «Гену»), in every format.
#[test]
fn substitutes_in_the_evening_newspaper() {
    use ostrov_paper::{evening, evening_with, Substitute};
    let m = sample();
    let subs = [
        Substitute { seat: m.find("Аня").unwrap(), by: "Новичок".into() },
        Substitute { seat: m.find("Гена").unwrap(), by: "Запасной_1".into() },
    ];
    let paper = evening_with(&m, 1, &subs);
    let plain = paper.render(Format::Plain);
    assert!(plain.contains("Аню заменяет Новичок"), "{plain}");
    assert!(plain.contains("Гену заменяет Запасной_1"), "{plain}");
    assert!(!evening(&m, 1).render(Format::Plain).contains("заменяет"));
    let section = |f: Format| {
        let text = paper.render(f);
        text.lines().filter(|l| l.contains("заменяет") || l.contains("Решения ведущего")).collect::<Vec<_>>().join("\n")
    };
    insta::assert_snapshot!(
        "substitutes",
        [Format::Markdown, Format::Bbcode, Format::HtmlFragment, Format::Plain].map(section).join("\n---\n")
    );
}
