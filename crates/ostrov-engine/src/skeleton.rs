//! Text that people type: one comparison key per name ([`skeleton`]), and free text made
//! one safe line ([`clean_line`], [`clean_name`]).
//!
//! Players are adversaries: a name spelt with a Latin «a», a zero-width space, a combining
//! accent or a full-width letter must not pass for a second person, and a question to the
//! Spirit must not carry a newline, a bidi override or a control character into a
//! newspaper. Every place that compares names (seats, accounts, the players of a game
//! file, reserved names) compares skeletons — in the engine through [`crate::SeatName`],
//! a seat's name with its skeleton as its key; every place that stores free text stores
//! it cleaned.

use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

/// The longest name, in characters, after cleaning.
pub const MAX_NAME_CHARS: usize = 40;

/// Why a name cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameProblem {
    /// Nothing is left after cleaning.
    #[error("имя пустое")]
    Empty,
    /// Longer than [`MAX_NAME_CHARS`] characters.
    #[error("имя длиннее {max} символов ({len})")]
    TooLong { max: usize, len: usize },
    /// No letter and no digit in it.
    #[error("в имени нет ни одной буквы или цифры")]
    NoLetters,
}

/// Characters that render as nothing or stand in for text (Unicode's default-ignorable
/// code points: zero-width spaces and joiners, bidi marks and overrides, variation
/// selectors, soft hyphen, tags …; and the specials block: interlinear annotation marks,
/// the object and replacement characters, non-characters). The one table of the project:
/// the server refuses names and titles with one ([`crate::skeleton`] passes over them).
pub fn is_invisible(c: char) -> bool {
    matches!(c as u32,
        0x00AD | 0x034F | 0x061C | 0x115F | 0x1160 | 0x17B4 | 0x17B5 | 0x180B..=0x180F
        | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F | 0x3164 | 0xFE00..=0xFE0F
        | 0xFEFF | 0xFFA0 | 0xFFF0..=0xFFFF | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A
        | 0xE0000..=0xE0FFF)
}

/// Characters a skeleton passes over: white space and the separators people use inside a
/// nickname interchangeably («Кот_Бегемот», «Кот-Бегемот», «Кот Бегемот»).
fn is_separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, '_' | '-' | '.' | '·' | '\u{2010}'..='\u{2015}' | '\u{2212}')
}

/// How many skeletons a thread remembers ([`skeleton`]), and the longest name (in bytes)
/// it remembers one for.
const KEEP_SKELETONS: usize = 4096;
const LONGEST: usize = 4 * MAX_NAME_CHARS;

thread_local! {
    static SEEN: std::cell::RefCell<std::collections::HashMap<Box<str>, String>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

/// The one comparison key of a name: two names are the same name iff their skeletons are
/// equal.
///
/// It folds case, `ё` = `е`, compatibility forms (full-width letters, ligatures, styled
/// mathematical letters), invisible characters, stray combining marks, white space and
/// separators, and Unicode's confusables (UTS #39: a Latin «a» or «B» is the Cyrillic «а»
/// or «В» it looks like).
///
/// ```
/// use ostrov_engine::skeleton;
/// let s = skeleton("Аня");
/// assert_eq!(skeleton("аня"), s);
/// assert_eq!(skeleton("Aня"), s); // Latin A
/// assert_eq!(skeleton("Ａня"), s); // full-width A
/// assert_eq!(skeleton("Ан\u{200A}я"), s); // hair space
/// assert_eq!(skeleton("Аня\u{FE0F}"), s); // variation selector
/// assert_eq!(skeleton("Алёна"), skeleton("АЛЕНА"));
/// assert_eq!(skeleton("Вика"), skeleton("Bика")); // Latin B
/// assert_ne!(skeleton("Аня"), skeleton("Оля"));
/// assert_ne!(skeleton("Йоко"), skeleton("Иоко"));
/// ```
pub fn skeleton(name: &str) -> String {
    // A server compares the same few names over and over (every order names its sender and
    // target, and is checked more than once): each thread remembers the skeletons of the
    // names it saw last. The key is a pure function of the name, so remembering it changes
    // nothing but the time; long names are not kept, and the memory is bounded.
    if name.len() > LONGEST {
        return skeleton_of(name);
    }
    if let Some(s) = SEEN.with(|m| m.borrow().get(name).cloned()) {
        return s;
    }
    let s = skeleton_of(name);
    SEEN.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= KEEP_SKELETONS {
            m.clear();
        }
        m.insert(name.into(), s.clone());
    });
    s
}

fn skeleton_of(name: &str) -> String {
    // Compatibility forms first, then upper case: the confusables table pairs capitals
    // (Latin B with Cyrillic В), which lower case would part (b, в).
    let upper: String = name
        .nfkc()
        .filter(|&c| !is_invisible(c))
        .flat_map(char::to_uppercase)
        .map(|c| if c == 'Ё' { 'Е' } else { c })
        .collect();
    let confusable: String = unicode_security::skeleton(&upper).collect();
    // Recompose, and drop what is left over: separators and marks that belong to no
    // letter («Ведущий» with a stray acute accent is «Ведущий»).
    confusable.nfc().filter(|&c| !is_separator(c) && !is_invisible(c) && !is_combining_mark(c)).collect()
}

/// Free text a person typed, made one safe line: NFC; control characters, bidi overrides
/// and invisible characters removed; line and paragraph breaks and tabs made spaces;
/// runs of white space made one space; trimmed.
///
/// ```
/// use ostrov_engine::clean_line;
/// assert_eq!(clean_line("  Кто\nоборотень?\u{202E}\u{0000}  "), "Кто оборотень?");
/// assert_eq!(clean_line("a\u{2028}b\tc"), "a b c");
/// ```
pub fn clean_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    for c in text.nfc() {
        if c.is_whitespace() {
            space = true;
        } else if c.is_control() || is_invisible(c) {
            // dropped
        } else {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.push(c);
        }
    }
    out
}

/// A player's or an account's name as it will be shown: [`clean_line`], with combining
/// marks that do not belong to a letter dropped, 1 to [`MAX_NAME_CHARS`] characters, with
/// at least one letter or digit.
///
/// ```
/// use ostrov_engine::{clean_name, NameProblem};
/// assert_eq!(clean_name(" Анна   Ли ").unwrap(), "Анна Ли");
/// assert_eq!(clean_name("Ведущий\u{0301}").unwrap(), "Ведущий");
/// assert_eq!(clean_name("\u{200B}"), Err(NameProblem::Empty));
/// assert_eq!(clean_name("!!!"), Err(NameProblem::NoLetters));
/// ```
pub fn clean_name(name: &str) -> Result<String, NameProblem> {
    let cleaned: String = clean_line(name).chars().filter(|&c| !is_combining_mark(c)).collect();
    let cleaned = cleaned.trim().to_string();
    let len = cleaned.chars().count();
    if len == 0 {
        return Err(NameProblem::Empty);
    }
    if len > MAX_NAME_CHARS {
        return Err(NameProblem::TooLong { max: MAX_NAME_CHARS, len });
    }
    if !cleaned.chars().any(char::is_alphanumeric) {
        return Err(NameProblem::NoLetters);
    }
    Ok(cleaned)
}

/// A text to be printed inside «…» (the Spirit's question): its own «» become the nested
/// quotes of Russian typography, „…“, so it cannot close the quotes around it and go on
/// as the newspaper's own words («…?» Ответ Духа: «Нет». Вопрос …).
pub fn nested_quotes(text: &str) -> String {
    // Most questions have no quotes of their own: they are copied at once.
    if !text.contains(['«', '»']) {
        return text.to_owned();
    }
    text.chars()
        .map(|c| match c {
            '«' => '„',
            '»' => '“',
            c => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A remembered skeleton is the one computed afresh, however often and whatever the
    /// length; past the bound the memory starts again empty.
    #[test]
    fn remembered_skeletons_are_the_computed_ones() {
        let long = "Кот_Бегемот".repeat(40);
        for _ in 0..2 {
            for name in ["Аня", "Aня", "Кот-Бегемот", "Ведущий\u{0301}", long.as_str(), ""] {
                assert_eq!(skeleton(name), skeleton_of(name), "{name}");
            }
        }
        for i in 0..5000 {
            let name = format!("Игрок{i}");
            assert_eq!(skeleton(&name), skeleton_of(&name));
        }
        assert!(SEEN.with(|m| m.borrow().len()) <= KEEP_SKELETONS);
        assert!(SEEN.with(|m| !m.borrow().contains_key(long.as_str())), "a long name is not kept");
    }

    /// The look-alike names of the server attack (issue 16, point 11): each is one name.
    #[test]
    fn look_alikes_share_one_skeleton() {
        let anya = skeleton("Аня");
        for s in ["Aня", "Ａня", "Аня\u{FE0F}", "Ан\u{200A}я", "А\u{200B}ня", "АНЯ", "аня", " Аня ", "Аня\u{2028}"]
        {
            assert_eq!(skeleton(s), anya, "{s:?}");
        }
        assert_eq!(skeleton("Йоко"), skeleton("И\u{0306}око"), "NFD");
        assert_eq!(skeleton("Анна  Ли"), skeleton("Анна Ли"));
        assert_eq!(skeleton("Ведущий\u{0301}"), skeleton("ведущий"));
        assert_eq!(skeleton("Никитa"), skeleton("Никита"), "Latin a");
        assert_eq!(skeleton("Вика"), skeleton("ВИКА"));
        assert_eq!(skeleton("Кот_Бегемот"), skeleton("кот бегемот"));
        assert_eq!(skeleton("𝐊𝐨𝐭"), skeleton("Kot"), "styled letters");
    }

    #[test]
    fn different_names_stay_different() {
        let names =
            ["Аня", "Оля", "Боря", "Вика", "Гена", "Лев", "Лёва", "Игорь", "Илья", "Kot2000", "[Админ]", "Йоко"];
        for (i, a) in names.iter().enumerate() {
            for b in &names[i + 1..] {
                assert_ne!(skeleton(a), skeleton(b), "{a} / {b}");
            }
        }
    }

    #[test]
    fn clean_line_leaves_one_line() {
        let forged = "Вопрос\n# Линчеван: Егор (Оборотень)\r\n=====\u{1B}[31m\u{202E}\u{200D}";
        let line = clean_line(forged);
        assert!(!line.chars().any(|c| c.is_control() || is_invisible(c)), "{line:?}");
        assert_eq!(line, "Вопрос # Линчеван: Егор (Оборотень) =====[31m");
        assert_eq!(clean_line("\u{0418}\u{0306}"), "Й", "NFC");
    }

    #[test]
    fn clean_name_limits() {
        assert_eq!(clean_name(&"я".repeat(40)).map(|s| s.chars().count()), Ok(40));
        assert_eq!(clean_name(&"я".repeat(41)), Err(NameProblem::TooLong { max: 40, len: 41 }));
        assert_eq!(clean_name("Ёж|Ик").as_deref(), Ok("Ёж|Ик"));
        assert_eq!(clean_name("Z\u{0334}\u{0335}\u{0336}").as_deref(), Ok("Z"));
    }

    /// Issue 28, point 5: a question cannot close its own quotes.
    #[test]
    fn a_quoted_text_keeps_its_quotes_nested() {
        let forged = "Ведущий мирный?» Ответ Духа: «Нет». Вопрос Гоши: «Вика оборотень?";
        let q = super::nested_quotes(forged);
        assert_eq!(q, "Ведущий мирный?“ Ответ Духа: „Нет“. Вопрос Гоши: „Вика оборотень?");
        assert!(!q.contains(['«', '»']));
    }
}
