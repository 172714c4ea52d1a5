//! Names: a seat's name and its one notion of "the same name" ([`SeatName`], keyed by
//! the [`skeleton`]), and the looser folding of words (case, `ё` = `е`) that ids, aliases,
//! the Palms bloom words and "did you mean" use.

use crate::skeleton::{clean_name, skeleton, NameProblem};

/// A seat's name: as it is shown, and its one comparison key — the name's [`skeleton`].
/// Two names are the same seat iff their keys are equal: case, `ё`/`е`, a Latin letter for
/// the Cyrillic one it looks like, compatibility forms, NFD, invisible characters
/// (zero-width spaces, variation selectors) and separators do not make another name.
/// Equality and hashing are by the key; [`SeatName::as_str`] is what the newspaper prints.
///
/// ```
/// use ostrov_engine::SeatName;
/// let anya = SeatName::parse("  Аня ").unwrap();
/// assert_eq!(anya.as_str(), "Аня");
/// assert_eq!(anya, SeatName::parse("Aня\u{200B}").unwrap()); // a Latin A, a zero-width space
/// assert!(anya.is("АНЯ"));
/// assert_ne!(anya, SeatName::parse("Оля").unwrap());
/// assert!(SeatName::parse("\u{200B}").is_err());
/// ```
#[derive(Clone, Debug)]
pub struct SeatName {
    shown: String,
    key: String,
}

impl SeatName {
    /// A name someone chose for a seat, checked and cleaned ([`clean_name`]: one line, 1 to
    /// [`crate::MAX_NAME_CHARS`] characters, at least one letter or digit).
    pub fn parse(name: &str) -> Result<SeatName, NameProblem> {
        let shown = clean_name(name)?;
        let key = skeleton(&shown);
        Ok(SeatName { shown, key })
    }

    /// The key that text naming a seat is looked up by (an order's `by` or `target`, a
    /// post's author): the text's [`skeleton`], as typed — it is compared, never shown.
    /// For a name that [`SeatName::parse`]s, the parsed name's [`SeatName::key`].
    pub fn key_of(text: &str) -> String {
        skeleton(text)
    }

    /// The name as it is shown.
    pub fn as_str(&self) -> &str {
        &self.shown
    }

    /// The comparison key: the [`skeleton`] of the shown name.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// Whether `text`, however it is written, names this seat.
    pub fn is(&self, text: &str) -> bool {
        SeatName::key_of(text) == self.key
    }

    /// The name as it is shown.
    pub fn into_string(self) -> String {
        self.shown
    }
}

impl PartialEq for SeatName {
    fn eq(&self, other: &SeatName) -> bool {
        self.key == other.key
    }
}

impl Eq for SeatName {}

impl std::hash::Hash for SeatName {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.key.hash(h);
    }
}

impl std::fmt::Display for SeatName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.shown)
    }
}

impl AsRef<str> for SeatName {
    fn as_ref(&self) -> &str {
        &self.shown
    }
}

/// Folds a word for comparison: lower case, `ё` → `е`, surrounding white space trimmed.
/// Not the identity of a seat's name — that is [`SeatName`] (look-alikes included); this
/// is for words (ids, aliases, banned words) and for declining first names.
///
/// ```
/// use ostrov_engine::fold_name;
/// assert_eq!(fold_name(" Алёна "), fold_name("АЛЕНА"));
/// ```
pub fn fold_name(s: &str) -> String {
    folded(s).collect()
}

/// The characters of [`fold_name`]`(s)`, one by one: to compare a name with a folded one
/// without building its folded copy.
pub(crate) fn folded(s: &str) -> impl Iterator<Item = char> + '_ {
    s.trim().chars().flat_map(char::to_lowercase).map(|c| if c == 'ё' { 'е' } else { c })
}

/// Folds an identifier or alias: like [`fold_name`], and also drops spaces, hyphens,
/// underscores and `!`, so `black_glasses`, `Черные очки` and `Чёрные-очки` all match.
pub(crate) fn fold_id(s: &str) -> String {
    fold_name(s).chars().filter(|c| !matches!(c, ' ' | '-' | '_' | '!' | '\u{a0}')).collect()
}

/// The candidate nearest to `word` by edit distance (a swap of two neighbours is one edit) (case-insensitive, `ё` = `е`), if it
/// is close enough to be what was meant: at most two edits, and at most a third of the
/// word. Ties go to the first candidate.
///
/// ```
/// use ostrov_engine::nearest;
/// assert_eq!(nearest("tie_brake", ["tie", "tie_break", "deal"]), Some("tie_break".to_string()));
/// assert_eq!(nearest("Лёв", ["Лев", "Маша"]), Some("Лев".to_string()));
/// assert_eq!(nearest("дракон", ["seer", "nurse"]), None);
/// ```
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let w = fold_name(word);
    let len = w.chars().count();
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let d = strsim::osa_distance(&w, &fold_name(c));
        if d <= 2 && d * 3 <= len.max(1) && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c.to_string())
}

/// Declares a vocabulary enum with its canonical id, Russian name and extra aliases.
macro_rules! vocabulary {
    (
        $(#[$meta:meta])*
        $name:ident, $what:literal {
            $( $(#[$vmeta:meta])* $variant:ident = $id:literal, $ru:literal $(, $alias:literal)* ; )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )*
        }

        impl $name {
            /// Every value, in the order of RULES.md.
            pub const ALL: &'static [$name] = &[ $( $name::$variant, )* ];

            /// The canonical id used in game files, the JSON report and the API.
            pub const fn id(self) -> &'static str {
                match self { $( $name::$variant => $id, )* }
            }

            /// The Russian name, as the newspaper prints it.
            pub const fn ru(self) -> &'static str {
                match self { $( $name::$variant => $ru, )* }
            }

            /// Every name of this value: the id, the Russian name, the aliases.
            pub const fn names(self) -> &'static [&'static str] {
                match self { $( $name::$variant => &[$id, $ru $(, $alias)*], )* }
            }

            /// Parses a canonical id or a Russian alias (case-insensitive, `ё` = `е`).
            pub fn parse(s: &str) -> Option<$name> {
                let f = $crate::name::fold_id(s);
                $(
                    if f == $crate::name::fold_id($id) || f == $crate::name::fold_id($ru)
                        $( || f == $crate::name::fold_id($alias) )* {
                        return Some($name::$variant);
                    }
                )*
                None
            }

            /// What kind of word this is, for error messages.
            pub const WHAT: &'static str = $what;
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.id())
            }
        }

        impl std::str::FromStr for $name {
            type Err = $crate::error::UnknownWord;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                $name::parse(s).ok_or_else(|| $crate::error::UnknownWord {
                    what: $what,
                    word: s.to_string(),
                    known: $name::ALL.iter().map(|v| v.id()).collect::<Vec<_>>().join(", "),
                    nearest: $crate::name::nearest(s, $name::ALL.iter().flat_map(|v| v.names().iter().copied())),
                })
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.id())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(d)?;
                s.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}
pub(crate) use vocabulary;

#[cfg(test)]
mod tests {
    use super::*;

    /// One name, however it is written: every look-alike parses to a [`SeatName`] equal to
    /// the plain one (same key, same hash), keeps its own cleaned spelling for show, and
    /// text typed to name the seat finds it by the same key.
    #[test]
    fn look_alike_seat_names_are_one_name() {
        use std::collections::HashSet;
        let hash = |n: &SeatName| {
            use std::hash::{BuildHasher, RandomState};
            static STATE: std::sync::LazyLock<RandomState> = std::sync::LazyLock::new(RandomState::new);
            STATE.hash_one(n)
        };
        let cases: [(&str, &[&str]); 5] = [
            (
                "Аня",
                &["Aня", "АНЯ", "аня", "Ａня", "А\u{200B}ня", "Ан\u{200D}я", "Аня\u{FE0F}", "Аня\u{E0101}", " Аня\t"],
            ),
            ("Алёна", &["Алена", "АЛЁНА", "алена", "Але\u{0308}на"]),
            ("Йоко", &["И\u{0306}око", "йоко", "ЙОКО"]),
            ("Вика", &["Bика", "BИKA", "вика"]),
            ("Кот_Бегемот", &["Кот Бегемот", "кот-бегемот", "KOT_Бeгeмoт", "Кот\u{00AD}Бегемот"]),
        ];
        for (plain, twins) in cases {
            let one = SeatName::parse(plain).unwrap();
            assert_eq!(one.as_str(), plain);
            assert_eq!(one.key(), SeatName::key_of(plain));
            let mut set = HashSet::from([one.clone()]);
            for twin in twins {
                let other = SeatName::parse(twin).unwrap_or_else(|e| panic!("{twin:?}: {e}"));
                assert_eq!(other, one, "{twin:?}");
                assert_eq!(hash(&other), hash(&one), "{twin:?}");
                assert!(!set.insert(other.clone()), "{twin:?} is a second name");
                assert!(one.is(twin), "{twin:?}");
                assert_eq!(SeatName::key_of(twin), other.key(), "{twin:?}: typed and parsed keys agree");
            }
        }
        // The shown name is cleaned, not folded: NFC, one line, no invisible characters.
        assert_eq!(SeatName::parse("И\u{0306}око").unwrap().as_str(), "Йоко");
        assert_eq!(SeatName::parse(" Анна \n Ли\u{200B} ").unwrap().to_string(), "Анна Ли");
    }

    #[test]
    fn different_seat_names_stay_different() {
        let names = ["Аня", "Оля", "Лев", "Лёва", "Игорь", "Илья", "Йоко", "Иоко", "Kot2000", "Kot2001", "[Админ]"];
        let parsed: Vec<SeatName> = names.iter().map(|n| SeatName::parse(n).unwrap()).collect();
        for (i, a) in parsed.iter().enumerate() {
            for b in &parsed[i + 1..] {
                assert_ne!(a, b);
                assert!(!a.is(b.as_str()), "{a} / {b}");
            }
        }
    }

    #[test]
    fn a_seat_name_is_parsed_at_the_edge() {
        assert_eq!(SeatName::parse(""), Err(NameProblem::Empty));
        assert_eq!(SeatName::parse("\u{200B}\u{FE0F}"), Err(NameProblem::Empty));
        assert_eq!(SeatName::parse("!!!"), Err(NameProblem::NoLetters));
        assert_eq!(
            SeatName::parse(&"я".repeat(crate::MAX_NAME_CHARS + 1)),
            Err(NameProblem::TooLong { max: crate::MAX_NAME_CHARS, len: crate::MAX_NAME_CHARS + 1 })
        );
        assert!(SeatName::parse(&"я".repeat(crate::MAX_NAME_CHARS)).is_ok());
    }

    #[test]
    fn yo_is_ye_and_case_is_ignored() {
        assert_eq!(fold_name("Фёдор"), "федор");
        assert_eq!(fold_id("Хомяк-Мутант"), fold_id("хомяк мутант"));
        assert_eq!(fold_id("Выбери меня!"), "выберименя");
    }
}
