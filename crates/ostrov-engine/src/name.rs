//! Name matching: case-insensitive, `ё` = `е`, as the rules require for every name a host types.

/// Folds a name for comparison: lower case, `ё` → `е`, surrounding white space trimmed.
///
/// ```
/// use ostrov_engine::fold_name;
/// assert_eq!(fold_name(" Алёна "), fold_name("АЛЕНА"));
/// ```
pub fn fold_name(s: &str) -> String {
    s.trim().chars().flat_map(char::to_lowercase).map(|c| if c == 'ё' { 'е' } else { c }).collect()
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

    #[test]
    fn yo_is_ye_and_case_is_ignored() {
        assert_eq!(fold_name("Фёдор"), "федор");
        assert_eq!(fold_id("Хомяк-Мутант"), fold_id("хомяк мутант"));
        assert_eq!(fold_id("Выбери меня!"), "выберименя");
    }
}
