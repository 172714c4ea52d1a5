//! The game file's reading and checking: lines, nearest words, look-alike names.

use std::collections::HashMap;

use crate::act::Act;
use crate::error::GameFileError;
use crate::event::Event;
use crate::item::Item;
use crate::lang::Lang;
use crate::order::{Actor, Clock};
use crate::player::PlayerId;
use crate::role::Role;

use super::{Game, Seat};

fn two_players(extra: &str) -> String {
    format!("[[players]]\nname = \"Аня\"\nrole = \"seer\"\n[[players]]\nname = \"Боря\"\nrole = \"werewolf\"\n{extra}")
}

#[test]
fn unknown_role_names_the_player() {
    let e = Game::parse("[[players]]\nname = \"Аня\"\nrole = \"дракон\"\n").unwrap_err().to_string();
    assert!(e.contains("строка 3, игрок 1") && e.contains("неизвестная роль «дракон»"), "{e}");
}

#[test]
fn duplicate_names_fold_yo() {
    let e =
        Game::parse("[[players]]\nname = \"Алёна\"\nrole = \"seer\"\n[[players]]\nname = \"алена\"\nrole = \"seer\"\n")
            .unwrap_err()
            .to_string();
    assert!(e.contains("не отличить от имени игрока 1"), "{e}");
}

#[test]
fn an_order_naming_nobody_is_an_error() {
    let e = Game::parse(&two_players("[[days]]\norders = [{ by = \"Аня\", act = \"check\", target = \"Жора\" }]\n"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("строка 8, день 1, приказ 1") && e.contains("«Жора», а такого игрока в игре нет"), "{e}");
}

#[test]
fn bare_toml_time_is_accepted() {
    let g = Game::parse(&two_players(
        "[[days]]\norders = [{ by = \"Аня\", act = \"check\", target = \"боря\", at = 13:05:00 }]\n",
    ))
    .unwrap();
    assert_eq!(g.days[0].orders[0].at, Clock::hm(13, 5));
}

#[test]
fn truncated_toml_is_a_syntax_error() {
    let e = Game::parse("[[players]]\nname = \"Аня").unwrap_err();
    assert_eq!(e.line, Some(2), "{e}");
    assert!(e.to_string().starts_with("строка 2: не закрыта кавычка"), "{e}");
}

#[test]
fn json_and_toml_read_the_same() {
    let t = Game::parse(&two_players("")).unwrap();
    let j = Game::parse(r#"{"players":[{"name":"Аня","role":"seer"},{"name":"Боря","role":"Оборотень"}]}"#).unwrap();
    assert_eq!(t, j);
}
/// R-DECK-1: `none` is a valid item, so a `none` card in a host's deck is dealt like
/// any other: over many seeds each of the two unfixed players sometimes draws the
/// trap and sometimes nothing, and the reserve keeps only real items.
#[test]
fn r_deck_1_none_cards_are_dealt_at_random() {
    let mut drew = [[0u32; 2]; 2];
    for seed in 0..64 {
        let g = Game::parse(&format!(
            "seed = {seed}\ndeck = [\"none\", \"trap\", \"fang\"]\n[[players]]\nname = \"Аня\"\nrole = \"seer\"\n\
             [[players]]\nname = \"Боря\"\nrole = \"werewolf\"\n[[players]]\nname = \"Вика\"\nrole = \"passenger\"\nitem = \"fang\"\n"
        ))
        .unwrap();
        assert_eq!(g.setup.blanks, 1);
        let m = crate::Match::new(&g.setup, false);
        for (k, p) in m.state.players.iter().take(2).enumerate() {
            assert!(matches!(p.item.map(|h| h.item), None | Some(Item::Trap)));
            drew[k][p.item.is_some() as usize] += 1;
        }
        // Whatever of none/trap was not dealt: the trap goes to the reserve, a none card does not.
        let dealt_trap = m.state.players.iter().any(|p| p.item.map(|h| h.item) == Some(Item::Trap));
        assert_eq!(m.state.reserve, if dealt_trap { vec![] } else { vec![Item::Trap] });
    }
    assert!(drew.iter().flatten().all(|&c| c > 0), "{drew:?}");
}

#[test]
fn gender_and_forms_are_read_and_checked() {
    use crate::ru::{Case, Gender};
    let g = Game::parse(
        "[[players]]\nname = \"Тётя_Мотя\"\nrole = \"seer\"\ngender = \"ж\"\n\
         [[players]]\nname = \"Кот\"\nrole = \"werewolf\"\ngender = \"male\"\n\
         forms = [\"Кот\", \"Кота\", \"Коту\", \"Кота\", \"Котом\", \"Коте\"]\n\
         [[players]]\nname = \"Никита\"\nrole = \"passenger\"\n",
    )
    .unwrap();
    let s = &g.setup.seats;
    assert_eq!((s[0].speech.gender, s[0].speech.form(Case::Acc)), (Some(Gender::Female), None));
    assert_eq!((s[1].speech.gender, s[1].speech.form(Case::Ins)), (Some(Gender::Male), Some("Котом")));
    // A common first name is declined by the table, its gender known.
    assert_eq!((s[2].speech.gender, s[2].speech.form(Case::Acc)), (Some(Gender::Male), Some("Никиту")));
    for (extra, want) in [
        ("gender = \"x\"", "`gender`"),
        ("forms = [\"Аня\", \"Ани\"]", "шесть форм"),
        ("forms = [\"Оля\", \"Оли\", \"Оле\", \"Олю\", \"Олей\", \"Оле\"]", "первая форма"),
    ] {
        let e =
            Game::parse(&format!("[[players]]\nname = \"Аня\"\nrole = \"seer\"\n{extra}\n")).unwrap_err().to_string();
        assert!(e.contains("строка 4, игрок 1") && e.contains(want), "{extra}: {e}");
    }
}

#[test]
fn the_host_names_are_reserved() {
    for name in ["host", "Ведущий", "АВТОР"] {
        let e = Game::parse(&format!("[[players]]\nname = \"{name}\"\nrole = \"seer\"\n")).unwrap_err().to_string();
        assert!(e.contains("занято приказами ведущего"), "{e}");
    }
}

#[test]
fn event_weights_that_overflow_together_are_an_error() {
    let e = Game::parse(&two_players("[rules]\nevents = { fear = 1e308, rage = 1e308 }\n")).unwrap_err().to_string();
    assert!(e.contains("веса слишком велики"), "{e}");
}

fn err(text: &str) -> GameFileError {
    Game::parse(text).unwrap_err()
}

/// Unknown keys in every table are refused with their line and the nearest key.
#[test]
fn unknown_keys_are_refused_with_the_line_and_the_nearest_key() {
    let e = err(&two_players("[[days]]\ntie_brake = \"Аня\"\n"));
    assert_eq!(e.to_string(), "неизвестный ключ `tie_brake` (строка 8) — может быть, `tie_break`?");
    assert_eq!(e.text(Lang::English), "unknown key `tie_brake` (line 8) — did you mean `tie_break`?");
    let e = err(&two_players("[[days]]\nevnt = \"fear\"\n"));
    assert_eq!(e.to_string(), "неизвестный ключ `evnt` (строка 8) — может быть, `event`?");
    let e = err(&format!("titel = \"x\"\n{}", two_players("")));
    assert!(e.to_string().starts_with("неизвестный ключ `titel` (строка 1) — может быть, `title`?"), "{e}");
    let e = err(&two_players("[rules]\nparty = true\n"));
    assert!(e.to_string().contains("`party` (строка 8) — может быть, `parity`?"), "{e}");
    let e = err("[[players]]\nname = \"Аня\"\nrole = \"seer\"\nitme = \"trap\"\n");
    assert!(e.to_string().contains("`itme` (строка 4) — может быть, `item`?"), "{e}");
    let e = err(&two_players("[[days]]\norders = [\n  { by = \"Аня\", act = \"check\", taget = \"Боря\" },\n]\n"));
    assert!(e.to_string().contains("`taget` (строка 9) — может быть, `target`?"), "{e}");
    // A day's key at the top level says where it belongs.
    let e = err(&format!("tie_brake = \"Аня\"\n{}", two_players("")));
    assert!(e.to_string().contains("может быть, `tie_break`? Это ключ таблицы [[days]]"), "{e}");
    // JSON too, with its line.
    let e = err("{\n\"players\": [{\"name\": \"Аня\", \"role\": \"seer\",\n \"itme\": \"trap\"}]}");
    assert_eq!(e.line, Some(3), "{e}");
    assert!(e.to_string().contains("`itme` (строка 3) — может быть, `item`?"), "{e}");
}

/// A lost `[[days]]` header: the day's keys land in the last player's entry (or at the
/// top level) — an error naming the line, never a shifted game.
#[test]
fn a_lost_days_header_is_an_error_naming_the_line() {
    let e = err(&two_players("event = \"fear\"\norders = [{ by = \"Аня\", act = \"vote\", target = \"Боря\" }]\n"));
    assert_eq!(e.line, Some(7), "{e}");
    assert!(e.to_string().starts_with("ключ дня `event` (строка 7) стоит в записи игрока [[players]]"), "{e}");
    assert!(e.to_string().contains("пропущен заголовок [[days]]"), "{e}");
    let e = err(&two_players("orders = [{ by = \"Аня\", act = \"vote\", target = \"Боря\" }]\n"));
    assert!(e.to_string().starts_with("ключ дня `orders` (строка 7)"), "{e}");
    // Between two days: the second day's keys repeat the first day's.
    let e = err(&two_players(
        "[[days]]\norders = [{ by = \"Аня\", act = \"vote\", target = \"Боря\" }]\norders = [{ by = \"Боря\", act = \"vote\", target = \"Аня\" }]\n",
    ));
    assert!(
        e.to_string().contains("ключ `orders` повторяется — похоже, между двумя днями пропущен заголовок [[days]]"),
        "{e}"
    );
    assert_eq!(e.line, Some(9), "{e}");
}

/// Look-alike names are one name: two seats whose skeletons agree are refused, naming
/// both lines and what differs.
#[test]
fn look_alike_player_names_are_refused_naming_both_lines() {
    for (twin, what) in [
        ("Никитa", "латинская буква «a»"),
        ("Ники\u{200B}та", "U+200B"),
        ("Никита\u{0301}", "U+0301"),
        ("НИКИТА", "буква «И»"),
    ] {
        let text = format!(
            "[[players]]\nname = \"Никита\"\nrole = \"seer\"\n[[players]]\nname = \"{twin}\"\nrole = \"werewolf\"\n"
        );
        let e = err(&text).to_string();
        assert!(e.starts_with("строка 5, игрок 2"), "{twin}: {e}");
        assert!(e.contains("не отличить от имени игрока 1 («Никита», строка 2)") && e.contains(what), "{twin}: {e}");
    }
    let e = err("[[players]]\nname = \"Анна Мария\"\nrole = \"seer\"\n[[players]]\nname = \"Анна  Мария\"\nrole = \"werewolf\"\n");
    assert!(e.to_string().contains("лишний пробел"), "{e}");
    // NFD (е + combining breve) is the same name as NFC «й».
    let e = err(
        "[[players]]\nname = \"Йоко\"\nrole = \"seer\"\n[[players]]\nname = \"И\u{0306}око\"\nrole = \"werewolf\"\n",
    );
    assert!(e.to_string().contains("не отличить"), "{e}");
}

/// One notion of "the same name" for every lookup: the setup, its index and a match
/// find the same seat for every look-alike — and, of two look-alike seats made in code
/// (a game file refuses them), the first.
#[test]
fn every_lookup_finds_the_same_seat() {
    let mut setup = Game::parse(&two_players("")).unwrap().setup;
    setup.seats.push(Seat::new("Aня", Role::Passenger, None)); // a Latin A: seat 0's twin
    let index = setup.seat_index();
    let m = crate::Match::new(&setup, false);
    for (text, seat) in [("Аня", 0), ("aня", 0), ("Ан\u{200B}я\u{FE0F}", 0), ("БОРЯ", 1), ("Бoря", 1)] {
        let seat = Some(PlayerId(seat));
        assert_eq!((setup.find(text), index.find(text), m.find(text)), (seat, seat, seat), "{text:?}");
    }
    assert_eq!((setup.find("Вика"), index.find("Вика"), m.find("Вика")), (None, None, None));
}

/// An order naming a look-alike of a player is that player; an unknown name suggests
/// the nearest one.
#[test]
fn orders_find_look_alikes_and_suggest_the_nearest_player() {
    let g = Game::parse(&two_players("[[days]]\norders = [{ by = \"Aня\", act = \"check\", target = \"боря\" }]\n"))
        .unwrap();
    assert_eq!(g.days[0].orders[0].by, Actor::Player(PlayerId(0)));
    let e = err(&two_players("[[days]]\norders = [{ by = \"Аня\", act = \"check\", target = \"Борян\" }]\n"));
    assert!(
        e.to_string().ends_with("`target` называет «Борян», а такого игрока в игре нет — может быть, «Боря»?"),
        "{e}"
    );
    assert!(e.text(Lang::English).ends_with("did you mean \"Боря\"?"), "{e:?}");
}

/// The feminine and inflected forms hosts write are the roles; an unknown one
/// suggests the nearest word.
#[test]
fn feminine_and_inflected_role_names() {
    for (word, role) in [
        ("Ясновидящая", Role::Seer),
        ("оборотня", Role::Werewolf),
        ("Оборотней", Role::Werewolf),
        ("Неприкасаемая", Role::Untouchable),
        ("колдун", Role::Witch),
        ("медбрат", Role::Nurse),
        ("лунатичка", Role::Sleepwalker),
    ] {
        assert_eq!(word.parse::<Role>(), Ok(role), "{word}");
    }
    let e = err("[[players]]\nname = \"Аня\"\nrole = \"Ясновидяшая\"\n").to_string();
    assert!(e.contains("может быть, «Ясновидящая»?"), "{e}");
}

/// Every alias of every vocabulary means one thing: no word is two roles (or two
/// items, events, acts).
#[test]
fn no_alias_is_ambiguous() {
    fn check<T: Copy + std::fmt::Debug>(all: &[T], names: impl Fn(T) -> &'static [&'static str]) {
        let mut seen = HashMap::new();
        for v in all {
            for n in names(*v) {
                if let Some(other) = seen.insert(crate::name::fold_id(n), format!("{v:?}")) {
                    assert_eq!(other, format!("{v:?}"), "{n} is both");
                }
            }
        }
    }
    check(Role::ALL, Role::names);
    check(Item::ALL, Item::names);
    check(Event::ALL, Event::names);
    check(Act::ALL, Act::names);
}

/// O-TIME-4: an order from 22:00 to 23:59 was sent the evening before the day opens
/// its morning; it comes before the morning's orders and is not late.
#[test]
fn o_time_4_evening_orders_come_first_and_count() {
    let g = Game::parse(&format!(
        "{}[[days]]\nevent = \"none\"\norders = [\n  {{ by = \"Аня\", act = \"vote\", target = \"Вика\", at = \"09:00\" }},\n  {{ by = \"Аня\", act = \"vote\", target = \"Боря\", at = \"23:30\" }},\n  {{ by = \"Вика\", act = \"vote\", target = \"Боря\", at = \"22:05\" }},\n]\n",
        "[[players]]\nname = \"Аня\"\nrole = \"seer\"\nitem = \"none\"\n[[players]]\nname = \"Боря\"\nrole = \"werewolf\"\nitem = \"none\"\n[[players]]\nname = \"Вика\"\nrole = \"passenger\"\nitem = \"none\"\n"
    ))
    .unwrap();
    let r = crate::resolve(&g).unwrap();
    // Аня's 09:00 vote is later than her 23:30 one, so it is the one that counts.
    assert_eq!(r.days[0].tally.get("Вика"), 1);
    assert_eq!(r.days[0].tally.get("Боря"), 2);
    assert!(r.days[0].rejected.is_empty(), "{:?}", r.days[0].rejected);
}

/// Issue 29, point 9: a key an act does not read (`text` or `from` on a vote, `targets` on
/// a check) changes nothing — the order checks exactly as without it — and is listed by
/// `unused_keys`, so that the command line warns about it; a key the act reads is not.
#[test]
fn issue_29_point_9_keys_an_act_does_not_read_change_nothing_and_are_listed() {
    let g = Game::parse(&two_players("")).unwrap();
    let entry = |by: &str, act: &str| crate::OrderEntry { by: by.into(), act: act.into(), ..Default::default() };
    let name = || Some("Боря".to_string());
    for act in Act::ALL {
        let by = if matches!(act, Act::Answer | Act::Penalty | Act::Remove) { "host" } else { "Аня" };
        let mut base = entry(by, act.id());
        match act {
            Act::Swap => base.targets = Some(vec!["Аня".into(), "Боря".into()]),
            Act::Authority => (base.from, base.target) = (Some("Аня".into()), name()),
            Act::Ask => base.text = Some("Боря — оборотень?".into()),
            Act::Answer => base.answer = Some(serde_json::json!("да")),
            Act::Cancel | Act::Light | Act::Bunker => {}
            Act::Withdraw => base.what = Some("vote".into()),
            _ => base.target = name(),
        }
        let checked = g.setup.order(&base).unwrap_or_else(|e| panic!("{act:?}: {e}"));
        assert!(base.unused_keys().is_empty(), "{act:?}: {:?}", base.unused_keys());
        type Set = fn(&mut crate::OrderEntry);
        let extra: [(&str, Set); 8] = [
            ("target", |o| o.target = Some("Аня".into())),
            ("targets", |o| o.targets = Some(vec!["Аня".into(), "Боря".into()])),
            ("from", |o| o.from = Some("Боря".into())),
            ("item", |o| o.item = Some("trap".into())),
            ("text", |o| o.text = Some("за Борю".into())),
            ("answer", |o| o.answer = Some(serde_json::json!("нет"))),
            ("reason", |o| o.reason = Some("флуд".into())),
            ("what", |o| o.what = Some("kill".into())),
        ];
        for (key, set) in extra {
            if super::order::keys_of(*act).contains(&key) {
                continue;
            }
            let mut with = base.clone();
            set(&mut with);
            assert_eq!(with.unused_keys(), [key], "{act:?} {key}");
            assert_eq!(g.setup.order(&with).as_ref(), Ok(&checked), "{act:?}: `{key}` changed the order");
        }
    }
}

/// Issue 29, point 9: reading a file lists its orders' unused keys with their lines, and
/// says each in full.
#[test]
fn issue_29_point_9_unused_keys_are_listed_with_their_lines() {
    let text = two_players(
        "[[days]]\norders = [\n  { by = \"Аня\", act = \"vote\", target = \"Боря\", text = \"он волк\" },\n  \
         { by = \"Боря\", act = \"vote\", target = \"Аня\", from = \"Аня\" },\n]\n",
    );
    let parsed = Game::parse_bytes(text.as_bytes()).unwrap();
    let said: Vec<(Option<usize>, String)> = parsed.unused.iter().map(|u| (u.line, u.text(Lang::Ru))).collect();
    assert_eq!(
        said,
        [
            (
                Some(9),
                "день 1, приказ 1 (by = \"Аня\", act = \"vote\", target = \"Боря\"): ключ `text` у `vote` ни на что не \
                 влияет и пропущен: он бывает только у ask (вопрос Духу); у `vote` бывают target, targets"
                    .to_string()
            ),
            (
                Some(10),
                "день 1, приказ 2 (by = \"Боря\", act = \"vote\", target = \"Аня\", from = \"Аня\"): ключ `from` у \
                 `vote` ни на что не влияет и пропущен: он бывает только у authority (у кого Авторитет забирает \
                 голос); у `vote` бывают target, targets"
                    .to_string()
            ),
        ]
    );
}

/// The tables of docs/GAME_FILE.md that list every role, item, event and act: its id, its
/// Russian name and every other spelling the file accepts, as the `vocabulary!` enums say.
fn vocabulary_tables() -> String {
    fn table<T: Copy>(all: &[T], id: fn(T) -> &'static str, names: fn(T) -> &'static [&'static str]) -> String {
        let mut out = String::from("| id | по-русски | другие написания |\n|---|---|---|\n");
        for v in all {
            let n = names(*v);
            let others: Vec<&str> = n.iter().skip(2).copied().collect();
            let others = if others.is_empty() { "—".to_string() } else { others.join(", ") };
            out.push_str(&format!("| `{}` | {} | {others} |\n", id(*v), n[1]));
        }
        out
    }
    [
        ("Роли", table(Role::ALL, Role::id, Role::names)),
        ("Вещи", table(Item::ALL, Item::id, Item::names)),
        ("События", table(Event::ALL, Event::id, Event::names)),
        ("Действия (`act`)", table(Act::ALL, Act::id, Act::names)),
    ]
    .iter()
    .map(|(title, t)| format!("### {title}\n\n{t}"))
    .collect::<Vec<_>>()
    .join("\n")
}

/// Issue 29, point 13: GAME_FILE.md's tables of ids («таблицы ниже») are the engine's
/// vocabulary; `OSTROV_UPDATE_DOCS=1` writes them anew between their markers.
#[test]
fn issue_29_point_13_the_vocabulary_tables_of_game_file_md_are_true() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/GAME_FILE.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let (begin, end) = ("<!-- vocabulary: generated by the engine's tests -->\n", "<!-- /vocabulary -->");
    let start = doc.find(begin).expect("GAME_FILE.md has the vocabulary's markers") + begin.len();
    let stop = start + doc[start..].find(end).expect("the closing marker");
    let want = vocabulary_tables();
    if std::env::var("OSTROV_UPDATE_DOCS").is_ok() {
        std::fs::write(&path, format!("{}{want}{}", &doc[..start], &doc[stop..])).unwrap();
    } else {
        assert_eq!(doc[start..stop], want, "run with OSTROV_UPDATE_DOCS=1 to write the tables");
    }
}

/// O-ORDER-4: a `withdraw` is taken in R-ORDER-1's time order: the vote in force before it
/// stops counting (a vote not cast, R-VOTE-1); one written earlier in the file but later in time is refused
/// (`nothing_to_withdraw`, listed in `rejected`), and a vote sent after it counts.
#[test]
fn o_order_4_a_withdrawal_takes_back_the_vote_in_force_in_time_order() {
    let g = Game::parse(&format!(
        "{}[[days]]\nevent = \"none\"\norders = [\n  {{ by = \"Вика\", act = \"withdraw\", what = \"vote\", at = \"08:00\" }},\n  {{ by = \"Аня\", act = \"vote\", target = \"Вика\", at = \"09:00\" }},\n  {{ by = \"Аня\", act = \"withdraw\", what = \"vote\", at = \"10:00\" }},\n  {{ by = \"Вика\", act = \"vote\", target = \"Боря\", at = \"09:30\" }},\n  {{ by = \"Боря\", act = \"vote\", target = \"Вика\", at = \"11:00\" }},\n  {{ by = \"Боря\", act = \"withdraw\", what = \"vote\", at = \"12:00\" }},\n  {{ by = \"Боря\", act = \"vote\", target = \"Аня\", at = \"12:30\" }},\n]\n",
        "[[players]]\nname = \"Аня\"\nrole = \"seer\"\nitem = \"none\"\n[[players]]\nname = \"Боря\"\nrole = \"werewolf\"\nitem = \"none\"\n[[players]]\nname = \"Вика\"\nrole = \"passenger\"\nitem = \"none\"\n"
    ))
    .unwrap();
    let r = crate::resolve(&g).unwrap();
    let day = &r.days[0];
    assert_eq!(day.tally.get("Вика"), 0, "Аня's vote was withdrawn, Боря's replaced");
    assert_eq!(day.tally.get("Боря"), 1, "Вика's withdrawal at 08:00 came before her vote at 09:30");
    assert_eq!(day.tally.get("Аня"), 2, "Боря's vote, and her own not cast: it counts on her (R-VOTE-1)");
    let refused: Vec<(&str, &str, &str)> =
        day.rejected.iter().map(|x| (x.by.as_str(), x.act.as_str(), x.reason.as_str())).collect();
    assert_eq!(refused, [("Вика", "withdraw", "nothing_to_withdraw")]);
    let missing = "[[players]]\nname = \"Аня\"\nrole = \"seer\"\n[[players]]\nname = \"Боря\"\nrole = \"werewolf\"\n[[days]]\norders = [{ by = \"Аня\", act = \"withdraw\" }]\n";
    let e = Game::parse(missing).unwrap_err().to_string();
    assert!(e.contains("для `withdraw` нужен ключ `what`"), "{e}");
}
