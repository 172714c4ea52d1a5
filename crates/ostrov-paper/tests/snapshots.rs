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
