//! The Russian-text table: twelve names (first names the table declines, nicknames that
//! stay in the nominative, two with the gender and forms given) through every sentence of
//! `ru::say`, compared with the exact expected Russian (the snapshot, reviewed as a host
//! reads it), and the sentences the issue quoted as wrong, now right.

use ostrov_engine::ru::{say, Speech, Who};
use ostrov_engine::{Blocked, CheckResult, Item, Role, Void};

fn cast() -> Vec<(String, Speech)> {
    let mut v: Vec<(String, Speech)> =
        ["Маша", "Любовь", "Лев", "Игорь", "Никита", "Илья", "Кот_Бегемот", "Kot2000", "[Админ]"]
            .iter()
            .map(|n| (n.to_string(), Speech::resolve(n, None, None).unwrap()))
            .collect();
    v.push(("Тётя_Мотя".into(), Speech::resolve("Тётя_Мотя", Some("ж"), None).unwrap()));
    let forms = |f: [&str; 6]| f.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    v.push((
        "Лёвушка".into(),
        Speech::resolve(
            "Лёвушка",
            Some("m"),
            Some(&forms(["Лёвушка", "Лёвушки", "Лёвушке", "Лёвушку", "Лёвушкой", "Лёвушке"])),
        )
        .unwrap(),
    ));
    v.push(("Женя".into(), Speech::resolve("Женя", Some("female"), None).unwrap()));
    v
}

#[test]
fn every_sentence_for_twelve_names() {
    let any = Speech::resolve("Аня", None, None).unwrap();
    let y = Who::new("Аня", &any);
    let mut out = String::new();
    for (name, speech) in cast() {
        out.push_str(&format!("## {name}\n"));
        for s in say::every_template(Who::new(&name, &speech), y) {
            assert!(!s.contains("(а)") && !s.contains("(ла)") && !s.contains("(ы)"), "{s}");
            out.push_str(&s);
            out.push('\n');
        }
    }
    insta::assert_snapshot!(out);
}

#[test]
fn the_sentences_the_issue_quoted_are_right() {
    let s = |n: &str| Speech::resolve(n, None, None).unwrap();
    let (lev, nikita, anya, masha, igor, lyubov, borya, sveta) =
        (s("Лев"), s("Никита"), s("Аня"), s("Маша"), s("Игорь"), s("Любовь"), s("Боря"), s("Света"));
    let kot = s("Кот_Бегемот");
    let dina = s("Дина");
    let dina = Who::new("Дина", &dina);
    let w = Who::new;
    let (lev, nikita, anya, masha, igor, lyubov, borya, sveta, kot) = (
        w("Лев", &lev),
        w("Никита", &nikita),
        w("Аня", &anya),
        w("Маша", &masha),
        w("Игорь", &igor),
        w("Любовь", &lyubov),
        w("Боря", &borya),
        w("Света", &sveta),
        w("Кот_Бегемот", &kot),
    );
    let cases = [
        (say::pack_attack(lev), "Оборотни нападают на Льва"),
        (say::nurse(nikita, anya, false), "Медбрат Никита лечит Аню"),
        (say::midday_use(masha, Item::Shocker, igor), "13:00. Маша применяет Шокер к Игорю"),
        (
            say::vote_void(kot, lev, Void::Handcuffs),
            "Голос игрока Кот_Бегемот против Льва недействителен (Наручники) и остаётся на владельце",
        ),
        (
            say::vote_void(igor, lev, Void::Totem),
            "Голос Игоря против Льва недействителен (Тотем безволия) и остаётся на владельце",
        ),
        (
            say::vote_blocked(masha, Blocked::Assaulted, false),
            "Голос Маши заблокирован (визит Сексманьяка) и остаётся на владельце",
        ),
        (say::vote_blocked(igor, Blocked::Penalty, true), "Игорь не голосует (штраф ведущего)"),
        (say::vote_blocked(lev, Blocked::Shocked, true), "Лев не голосует (Шокер)"),
        (say::tie_lot(&[kot, lev], lev), "Ничья (Кот_Бегемот и Лев): жребий выбирает Льва"),
        (
            say::authority(masha, borya, masha),
            "Маша раскрывается как Авторитет: забирает голос Бори и отдаёт его против себя",
        ),
        (say::swap(lev, sveta), "Лунатик меняет местами вещи Льва и Светы"),
        (say::penalty(igor, None), "Ведущий лишает голоса Игоря за нарушение"),
        (say::died(lyubov, None), "Этой ночью погибла Любовь"),
        (
            say::shocker(masha, kot),
            "Маша применяет Шокер к игроку Кот_Бегемот: на этот день у игрока Кот_Бегемот нет ни голоса, ни слова",
        ),
        (say::assault(masha), "Этой ночью Сексманьяк навестил Машу: завтра у Маши нет ни голоса, ни слова"),
        (say::nurse(borya, borya, false), "Медбрат Боря лечит себя"),
        (say::check(masha, borya, CheckResult::NotWerewolf), "Ясновидящая Маша проверяет Борю: не оборотень"),
        (say::lynched(kot, Some(Role::Seer)), "Линчевали игрока Кот_Бегемот (Ясновидящий)"),
        (say::died(kot, None), "Этой ночью не стало игрока Кот_Бегемот"),
        // Issue 29, point 4.
        (say::pair(masha, anya), "13:00. «Выбери меня!»: Маша выбирает в пару Аню — у обеих иммунитет на линч"),
        (say::pair(masha, lev), "13:00. «Выбери меня!»: Маша выбирает в пару Льва — у обоих иммунитет на линч"),
        (say::pair(kot, lev), "13:00. «Выбери меня!»: Кот_Бегемот выбирает в пару Льва — у пары иммунитет на линч"),
        (say::tie_fang(&[anya]), "Клык оборотня спасает Аню от линча при ничьей"),
        (say::tie_lot(&[lev, dina], dina), "Ничья (Лев и Дина): жребий выбирает Дину"),
        (say::lynched(masha, Some(Role::Seer)), "Линчёвана Маша (Ясновидящая)"),
        (
            say::check(anya, lev, CheckResult::Failed),
            "Ясновидящая Аня проверяет Льва: Чёрные очки — проверка не удалась",
        ),
        (say::moon_fern(masha), "Лунный папоротник Маши отразил нападение оборотней"),
        // Issue 29, point 3: a man who is the witch is «Колдун».
        (say::witch_kill(igor, anya), "Колдун Игорь убивает Аню"),
        (say::untouchable(masha), "Оборотни не могут убить Машу: Неприкасаемую их клыки не берут"),
    ];
    for (got, want) in cases {
        assert_eq!(got.to_string(), want);
    }
}
