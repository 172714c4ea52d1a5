//! What a seat bot says in the day's thread (issue 32, point 3): a little, in Russian, in
//! character — a greeting on day 1, then a suspicion, a defence or a claim that fits what
//! its seat knows — its verbs agreeing with its gender, and within the day's speech rules
//! as the engine states them: silent unless it speaks freely ([`Match::speech`]: not dead,
//! not under a thorn, a shocker or the maniac's visit), and nothing with a banned word on
//! Palms bloom ([`Match::banned_words`]).

use ostrov_bots::View;
use ostrov_engine::{CheckResult, Match, NoticeKind, PlayerId, Side, Speech};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// A phrase in both genders: the bot's own verbs and adjectives agree with it.
type Said = (String, String);

fn both(m: &str, f: &str) -> Said {
    (m.to_string(), f.to_string())
}

/// Day 1: a greeting (ordinary, then without the words Palms bloom bans).
fn greetings() -> Vec<Said> {
    vec![
        both(
            "Всем привет! Играю честно, давайте искать оборотней вместе.",
            "Всем привет! Играю честно, давайте искать оборотней вместе.",
        ),
        both(
            "Добрый день, остров. Я рад, что мы собрались. Кто первый скажет, кого подозревает?",
            "Добрый день, остров. Я рада, что мы собрались. Кто первый скажет, кого подозревает?",
        ),
        both(
            "Здравствуйте все! Пока ничего не знаю, буду смотреть, кто как голосует.",
            "Здравствуйте все! Пока ничего не знаю, буду смотреть, кто как голосует.",
        ),
        both(
            "Привет, остров! Надеюсь дожить до конца. Удачи мирным.",
            "Привет, остров! Надеюсь дожить до конца. Удачи мирным.",
        ),
    ]
}

/// A suspicion of `who` (a name in the nominative).
fn suspicions(who: &str) -> Vec<Said> {
    vec![
        both(
            &format!("Мне не нравится, как голосует {who}. Я бы начал с этого игрока."),
            &format!("Мне не нравится, как голосует {who}. Я бы начала с этого игрока."),
        ),
        both(
            &format!("Посмотрите на голоса вчера: {who} выглядит подозрительно. Я уверен, что это след."),
            &format!("Посмотрите на голоса вчера: {who} выглядит подозрительно. Я уверена, что это след."),
        ),
        both(
            &format!("Игрок {who} слишком тихо себя ведёт. Голосую туда."),
            &format!("Игрок {who} слишком тихо себя ведёт. Голосую туда."),
        ),
    ]
}

/// A defence, after votes against the bot.
fn defences() -> Vec<Said> {
    vec![
        both(
            "Зря за меня голосовали: я мирный, ищите в другом месте.",
            "Зря за меня голосовали: я мирная, ищите в другом месте.",
        ),
        both(
            "Я ни в чём не виноват. Голосовать за меня — подарок оборотням.",
            "Я ни в чём не виновата. Голосовать за меня — подарок оборотням.",
        ),
    ]
}

/// Without a word Palms bloom bans (no pronouns, no «да», «не», «нет»).
fn palms(who: Option<&str>) -> Vec<Said> {
    let mut v = vec![
        both("Всем доброго дня. Пальмы цветут — пишу коротко.", "Всем доброго дня. Пальмы цветут — пишу коротко."),
        both("Молчу до вечера, слежу за голосами.", "Молчу до вечера, слежу за голосами."),
    ];
    if let Some(w) = who {
        v.push(both(&format!("Подозрение сегодня одно: {w}."), &format!("Подозрение сегодня одно: {w}.")));
    }
    v
}

/// A claim that fits the bot's seat: a seer's found werewolf (the seer's own check).
fn claim(v: &View, m: &Match) -> Option<Said> {
    let found = v.notices().find_map(|n| match n {
        NoticeKind::Check { target, result: CheckResult::Werewolf } if v.alive(*target) => Some(*target),
        _ => None,
    })?;
    Some(seer_claim(m.state().name(found)))
}

/// A seer's claim that `who` is a werewolf.
fn seer_claim(who: &str) -> Said {
    both(
        &format!("Открываюсь: я ясновидящий. {who} — оборотень, проверено. Голосуем туда."),
        &format!("Открываюсь: я ясновидящая. {who} — оборотень, проверено. Голосуем туда."),
    )
}

/// Whom the bot suspects: the most suspected living player by the public record (not
/// itself, not its own pack).
fn suspect(v: &View) -> Option<PlayerId> {
    let public = v.public()?;
    let pack = v.pack();
    public.ranked().iter().copied().find(|p| *p != v.me && !pack.contains(p))
}

/// Whether anyone voted against the bot on the last day.
fn accused(v: &View) -> bool {
    v.days().last().is_some_and(|d| d.ballots.iter().any(|b| b.target == v.me))
}

/// What the bot of `v` says today, if anything: one post in its gender, or silence when the
/// engine says it may not speak freely, or when every phrase it would pick breaks the
/// day's banned words.
pub fn say(m: &Match, v: &View, rng: &mut ChaCha8Rng) -> Option<String> {
    if m.speech(v.me) != Speech::Free {
        return None;
    }
    let female = m.state().who(v.me).gender() == Some(ostrov_engine::ru::Gender::Female);
    let who = suspect(v).map(|p| m.state().name(p).to_string());
    let wolf = v.role().side() == Side::Werewolves;
    let options: Vec<Said> = if v.event() == Some(ostrov_engine::Event::PalmsBloom) {
        palms(who.as_deref())
    } else if v.day() == 1 {
        greetings()
    } else if let Some(c) = claim(v, m).filter(|_| !wolf) {
        vec![c]
    } else if accused(v) {
        defences()
    } else if let Some(w) = &who {
        suspicions(w)
    } else {
        greetings()
    };
    let start = rng.gen_range(0..options.len());
    (0..options.len())
        .map(|k| &options[(start + k) % options.len()])
        .map(|(he, she)| if female { she.clone() } else { he.clone() })
        .find(|text| m.banned_words(text).is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write;

    /// Every phrase a bot may say, in both genders: the verbs and adjectives of its own agree
    /// with it («я рад» / «я рада», «уверен» / «уверена»), other players are named in the
    /// nominative; the Palms bloom ones hold no banned word (R-PALMS-1).
    #[test]
    fn the_bots_phrases_in_both_genders() {
        let mut out = String::new();
        let lists = [
            ("приветствие", greetings()),
            ("подозрение", suspicions("Аня")),
            ("защита", defences()),
            ("заявление", vec![seer_claim("Аня")]),
            ("пальмы", palms(Some("Аня"))),
        ];
        for (what, list) in lists {
            for (he, she) in list {
                writeln!(out, "{what}, он: {he}\n{what}, она: {she}").unwrap();
            }
        }
        insta::assert_snapshot!(out);
        for (he, she) in palms(Some("Аня")) {
            assert!(
                ostrov_engine::palms_violations(&he).is_empty() && ostrov_engine::palms_violations(&she).is_empty()
            );
        }
    }
}
