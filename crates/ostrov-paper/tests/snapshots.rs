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
