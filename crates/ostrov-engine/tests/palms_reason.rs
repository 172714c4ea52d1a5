//! O-PALMS-1 (issue 28, point 4): on a Palms bloom day a host penalty is printed as a
//! Palms violation only when it was given for one; a penalty for anything else keeps its
//! own reason.

use ostrov_engine::{play, Game};

fn public_lines(penalty: &str) -> Vec<String> {
    let file = format!(
        r#"seed = 5
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
name = "Зоя"
role = "passenger"
[[players]]
name = "Дима"
role = "passenger"

[[days]]
event = "palms_bloom"
orders = [
  {{ by = "host", act = "penalty", target = "Зоя"{penalty} }},
  {{ by = "Боря", act = "vote", target = "Аня" }},
]
"#
    );
    let m = play(&Game::parse(&file).unwrap(), true).unwrap();
    m.days[0].public.iter().map(|(_, p)| p.to_string()).collect()
}

const PALMS_LINE: &str = "Пальмы цветут: Зоя нарушает запрет";

#[test]
fn a_penalty_for_something_else_is_no_palms_violation_o_palms_1() {
    let lines = public_lines(r#", reason = "нарушение в обсуждении, сообщение №3""#);
    assert!(!lines.iter().any(|l| l.starts_with(PALMS_LINE)), "{lines:?}");
}

#[test]
fn a_penalty_for_the_palms_or_without_a_reason_is_one_o_palms_1() {
    for reason in ["", r#", reason = "Пальмы цветут, запрещённые слова: «я»""#] {
        let lines = public_lines(reason);
        assert!(lines.iter().any(|l| l.starts_with(PALMS_LINE)), "{reason}: {lines:?}");
    }
}
