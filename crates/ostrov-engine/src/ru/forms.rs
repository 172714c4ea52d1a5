//! Whether a word a player typed can be a case form of their own name: the profile's six
//! forms are printed where the newspaper declines the name («Вопрос Бори: …»), so a form
//! that is not the name's would let a player speak as another (issue 28, point 6).
//!
//! The rule, for forms 2–6 against the nominative (form 1): the *frame* of a word is its
//! characters without the vowels and the signs `ь`, `ъ`, `й`, each read through the
//! look-alike key ([`crate::skeleton`]: case, `ё`/`е`, a Latin letter for the Cyrillic one
//! it looks like). A form keeps the frame of the nominative, in order, and adds at most an
//! `м` (the instrumental's «-ом», «-ем»); it is at most two characters shorter and three
//! longer than the nominative. That is every singular case of a Russian name, fleeting
//! vowels and soft signs included — Лёва/Льва, Лев/Львом, Павел/Павла, Любовь/Любовью,
//! Илья/Ильёй, Пётр/Петра, Мария/Марией — and of an indeclinable one (Kot2000), while
//! «Бори» is not a form of «Вика».

use crate::skeleton;

/// Vowels and signs: what a name's declension changes or drops.
const SOFT: &str = "аеёиоуыэюяьъйaeiouy";

/// The frame of `word`: the look-alike key of each of its characters, vowels and signs left
/// out (and whatever the key drops: marks, invisible characters, separators).
fn frame(word: &str) -> Vec<String> {
    word.chars()
        .map(|c| skeleton(c.encode_utf8(&mut [0; 4])))
        .filter(|k| !k.is_empty() && !SOFT.chars().any(|s| skeleton(s.encode_utf8(&mut [0; 4])) == *k))
        .collect()
}

/// Whether `form` can be a case form of the name whose nominative is `nominative` (the
/// rule of this module).
///
/// ```
/// use ostrov_engine::ru::is_form_of;
/// for (name, form) in [("Лёва", "Льва"), ("Лев", "Львом"), ("Павел", "Павла"), ("Любовь", "Любовью"),
///                      ("Илья", "Ильи"), ("Пётр", "Петра"), ("Вика", "Викой"), ("Kot2000", "Kot2000")] {
///     assert!(is_form_of(name, form), "{form} of {name}");
/// }
/// assert!(!is_form_of("Вика", "Бори"));
/// assert!(!is_form_of("Вика", "Вики»: «Да"));
/// assert!(!is_form_of("Вика", "Викторией"));
/// ```
pub fn is_form_of(nominative: &str, form: &str) -> bool {
    let (n, f) = (frame(nominative), frame(form));
    let (nl, fl) = (nominative.chars().count(), form.chars().count());
    let m = skeleton("м");
    f.len() >= n.len()
        && f[..n.len()] == n[..]
        && f[n.len()..].iter().all(|k| *k == m)
        && f.len() - n.len() <= 1
        && fl + 2 >= nl
        && fl <= nl + 3
}

#[cfg(test)]
mod tests {
    use super::is_form_of;

    /// Issue 28, point 6: every case of real Russian names, fleeting vowels, soft signs and
    /// look-alike letters included, is a form; another name never is.
    #[test]
    fn the_forms_of_a_name_keep_its_frame() {
        let names: [[&str; 6]; 8] = [
            ["Лёва", "Льва", "Льву", "Льва", "Львом", "Льве"],
            ["Лев", "Льва", "Льву", "Льва", "Львом", "Льве"],
            ["Павел", "Павла", "Павлу", "Павла", "Павлом", "Павле"],
            ["Любовь", "Любови", "Любови", "Любовь", "Любовью", "Любови"],
            ["Илья", "Ильи", "Илье", "Илью", "Ильёй", "Илье"],
            ["Мария", "Марии", "Марии", "Марию", "Марией", "Марии"],
            ["KИСУЛЯ", "Кисули", "Кисуле", "Кисулю", "Кисулей", "Кисуле"],
            ["Кот2000", "Кот2000", "Кот2000", "Кот2000", "Кот2000", "Кот2000"],
        ];
        for forms in names {
            for f in &forms[1..] {
                assert!(is_form_of(forms[0], f), "{f} of {}", forms[0]);
            }
        }
        for (name, not) in [
            ("Вика", "Бори"),
            ("Вика", "Боре"),
            ("Вика", "Ведущего"),
            ("Вика", "Вика: «Да»"),
            ("Лев", "Льва и Бори"),
            ("Аня", "Анатолия"),
            ("Илья", "Ильюшенька"),
        ] {
            assert!(!is_form_of(name, not), "{not} is not a form of {name}");
        }
    }
}
