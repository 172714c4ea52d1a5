//! Automatic declension of common Russian first names: a curated table, not a guess.
//!
//! A forum nickname (Kot2000, Тётя_Мотя, [Админ]) must never be declined by a suffix
//! rule, so only the names listed here are declined, by the rules of their ending; every
//! other name stays in the nominative (the sentences then use a construction that needs
//! no case). The `petrovich` crate (0.2.0, last released in 2020) declines these names
//! correctly too, but it declines *any* string by its suffix, so it would still need this
//! list as a gate, and it pulls `serde_yaml` 0.8 with a second `indexmap`/`hashbrown`
//! into the build; the endings of a closed list are a few lines (docs/RUSSIAN.md).

use super::{Case, Gender};

/// Men's names (full and everyday forms) with a regular declension.
const MALE: &[&str] = &[
    "Александр",
    "Алексей",
    "Алёша",
    "Анатолий",
    "Андрей",
    "Андрюша",
    "Антон",
    "Антоша",
    "Аркадий",
    "Арсений",
    "Артём",
    "Артур",
    "Богдан",
    "Боря",
    "Борис",
    "Вадим",
    "Валентин",
    "Валерий",
    "Ваня",
    "Василий",
    "Вася",
    "Виктор",
    "Виталий",
    "Витя",
    "Владимир",
    "Владислав",
    "Влад",
    "Вова",
    "Володя",
    "Всеволод",
    "Вячеслав",
    "Гена",
    "Геннадий",
    "Георгий",
    "Глеб",
    "Гоша",
    "Григорий",
    "Гриша",
    "Даниил",
    "Денис",
    "Дима",
    "Дмитрий",
    "Евгений",
    "Егор",
    "Иван",
    "Игорь",
    "Илья",
    "Кирилл",
    "Коля",
    "Константин",
    "Костя",
    "Лёва",
    "Лёша",
    "Лев",
    "Леонид",
    "Максим",
    "Марк",
    "Матвей",
    "Миша",
    "Митя",
    "Михаил",
    "Никита",
    "Николай",
    "Олег",
    "Паша",
    "Павел",
    "Пётр",
    "Петя",
    "Роман",
    "Рома",
    "Руслан",
    "Семён",
    "Серёжа",
    "Сергей",
    "Станислав",
    "Стас",
    "Степан",
    "Стёпа",
    "Тимофей",
    "Тимур",
    "Толя",
    "Фёдор",
    "Федя",
    "Филипп",
    "Юра",
    "Юрий",
    "Ярослав",
];

/// Women's names.
const FEMALE: &[&str] = &[
    "Александра",
    "Алёна",
    "Алина",
    "Алиса",
    "Алла",
    "Анастасия",
    "Ангелина",
    "Анна",
    "Аня",
    "Антонина",
    "Валентина",
    "Валерия",
    "Варвара",
    "Варя",
    "Вера",
    "Вероника",
    "Вика",
    "Виктория",
    "Галина",
    "Галя",
    "Дарья",
    "Даша",
    "Диана",
    "Дина",
    "Ева",
    "Евгения",
    "Екатерина",
    "Елена",
    "Елизавета",
    "Жанна",
    "Зина",
    "Зоя",
    "Инна",
    "Ира",
    "Ирина",
    "Карина",
    "Катя",
    "Кира",
    "Кристина",
    "Ксения",
    "Ксюша",
    "Лариса",
    "Лена",
    "Лера",
    "Лида",
    "Лидия",
    "Лиза",
    "Лиля",
    "Люба",
    "Любовь",
    "Люда",
    "Людмила",
    "Маргарита",
    "Марина",
    "Мария",
    "Маша",
    "Милана",
    "Надежда",
    "Надя",
    "Настя",
    "Наталия",
    "Наталья",
    "Наташа",
    "Нина",
    "Оксана",
    "Ольга",
    "Оля",
    "Полина",
    "Поля",
    "Раиса",
    "Рита",
    "Света",
    "Светлана",
    "Соня",
    "София",
    "Софья",
    "Таисия",
    "Тамара",
    "Таня",
    "Татьяна",
    "Тоня",
    "Ульяна",
    "Юля",
    "Юлия",
    "Яна",
];

/// Names both men and women bear: declined, but the gender must be given.
const EITHER: &[&str] = &["Женя", "Саша", "Валя", "Шура", "Слава"];

/// Names whose stem changes (a fleeting vowel) or whose ending is stressed.
fn special(folded: &str) -> Option<[&'static str; 6]> {
    Some(match folded {
        "лев" => ["Лев", "Льва", "Льву", "Льва", "Львом", "Льве"],
        "павел" => ["Павел", "Павла", "Павлу", "Павла", "Павлом", "Павле"],
        "петр" => ["Пётр", "Петра", "Петру", "Петра", "Петром", "Петре"],
        "илья" => ["Илья", "Ильи", "Илье", "Илью", "Ильёй", "Илье"],
        "любовь" => ["Любовь", "Любови", "Любови", "Любовь", "Любовью", "Любови"],
        _ => return None,
    })
}

fn fold(s: &str) -> String {
    crate::name::fold_name(s)
}

/// The gender and the six forms (in [`Case`] order) of a first name from the table, or
/// `None` for any other name. The gender is `None` for a name both sexes bear.
pub(super) fn decline(name: &str) -> Option<(Option<Gender>, [String; 6])> {
    let f = fold(name);
    // `fold(n) == f` for each name of the tables, without building each folded name: a
    // seat's name is looked up in about 180 of them (it cost 200,000 instructions a seat).
    let listed = |list: &[&str]| list.iter().any(|n| crate::name::folded(n).eq(f.chars()));
    let gender = if listed(MALE) {
        Some(Gender::Male)
    } else if listed(FEMALE) {
        Some(Gender::Female)
    } else if listed(EITHER) {
        None
    } else {
        return None;
    };
    // A name in capitals or with other letters than Cyrillic is a nickname.
    let mut chars = name.chars();
    let first = chars.next()?;
    if !first.is_uppercase() || chars.any(|c| c.is_uppercase()) {
        return None;
    }
    if let Some(forms) = special(&f) {
        // Keep the player's own spelling of the nominative (Петр / Пётр).
        let mut out = forms.map(String::from);
        out[Case::Nom as usize] = name.to_string();
        return Some((gender, out));
    }
    let endings: [&str; 5];
    let stem: &str;
    let last = name.chars().last()?;
    let before = name.chars().rev().nth(1).unwrap_or(' ');
    let hushing = matches!(before, 'ж' | 'ш' | 'ч' | 'щ' | 'ц');
    match last {
        'а' => {
            stem = &name[..name.len() - 'а'.len_utf8()];
            let gen = if matches!(before, 'г' | 'к' | 'х' | 'ж' | 'ш' | 'ч' | 'щ') { "и" } else { "ы" };
            let ins = if hushing { "ей" } else { "ой" };
            endings = [gen, "е", "у", ins, "е"];
        }
        'я' => {
            stem = &name[..name.len() - 'я'.len_utf8()];
            endings = if before == 'и' { ["и", "и", "ю", "ей", "и"] } else { ["и", "е", "ю", "ей", "е"] };
        }
        'й' => {
            stem = &name[..name.len() - 'й'.len_utf8()];
            endings = if before == 'и' { ["я", "ю", "я", "ем", "и"] } else { ["я", "ю", "я", "ем", "е"] };
        }
        'ь' if gender == Some(Gender::Male) => {
            stem = &name[..name.len() - 'ь'.len_utf8()];
            endings = ["я", "ю", "я", "ем", "е"];
        }
        c if gender == Some(Gender::Male) && !"аеёиоуыэюяь".contains(c) => {
            stem = name;
            let ins = if hushing || matches!(c, 'ж' | 'ш' | 'ч' | 'щ' | 'ц') { "ем" } else { "ом" };
            endings = ["а", "у", "а", ins, "е"];
        }
        _ => return None,
    }
    let mut out: [String; 6] = Default::default();
    out[0] = name.to_string();
    for (k, e) in endings.iter().enumerate() {
        out[k + 1] = format!("{stem}{e}");
    }
    Some((gender, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forms(n: &str) -> String {
        decline(n).map(|(_, f)| f.join(" ")).unwrap_or_default()
    }

    #[test]
    fn the_table_declines_the_names_of_the_issue() {
        for (n, want) in [
            ("Маша", "Маша Маши Маше Машу Машей Маше"),
            ("Любовь", "Любовь Любови Любови Любовь Любовью Любови"),
            ("Лев", "Лев Льва Льву Льва Львом Льве"),
            ("Игорь", "Игорь Игоря Игорю Игоря Игорем Игоре"),
            ("Никита", "Никита Никиты Никите Никиту Никитой Никите"),
            ("Илья", "Илья Ильи Илье Илью Ильёй Илье"),
            ("Аня", "Аня Ани Ане Аню Аней Ане"),
            ("Катя", "Катя Кати Кате Катю Катей Кате"),
            ("Света", "Света Светы Свете Свету Светой Свете"),
            ("Боря", "Боря Бори Боре Борю Борей Боре"),
            ("Вика", "Вика Вики Вике Вику Викой Вике"),
            ("Гена", "Гена Гены Гене Гену Геной Гене"),
            ("Мария", "Мария Марии Марии Марию Марией Марии"),
            ("Наталья", "Наталья Натальи Наталье Наталью Натальей Наталье"),
            ("Дмитрий", "Дмитрий Дмитрия Дмитрию Дмитрия Дмитрием Дмитрии"),
            ("Андрей", "Андрей Андрея Андрею Андрея Андреем Андрее"),
            ("Артём", "Артём Артёма Артёму Артёма Артёмом Артёме"),
            ("Петр", "Петр Петра Петру Петра Петром Петре"),
            ("Зоя", "Зоя Зои Зое Зою Зоей Зое"),
            ("Ольга", "Ольга Ольги Ольге Ольгу Ольгой Ольге"),
            ("Саша", "Саша Саши Саше Сашу Сашей Саше"),
        ] {
            assert_eq!(forms(n), want, "{n}");
        }
        assert_eq!(decline("Никита").unwrap().0, Some(Gender::Male));
        assert_eq!(decline("Любовь").unwrap().0, Some(Gender::Female));
        assert_eq!(decline("Женя").unwrap().0, None);
    }

    #[test]
    fn nicknames_are_never_declined() {
        for n in ["Кот_Бегемот", "Kot2000", "[Админ]", "Тётя_Мотя", "Ёж|Ик", "МАША", "маша", "Маша Иванова", "Лёвушка"]
        {
            assert_eq!(decline(n), None, "{n}");
        }
    }
}
