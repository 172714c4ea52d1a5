//! Palms bloom (Пальмы цветут): the banned words of the day's discussion (R-PALMS-1).

use crate::name::fold_name;

/// The banned forms of R-PALMS-1 (folded: lower case, `ё` = `е`).
pub const BANNED: &[&str] = &[
    "я",
    "меня",
    "мне",
    "мной",
    "мною",
    "ты",
    "тебя",
    "тебе",
    "тобой",
    "тобою",
    "он",
    "его",
    "него",
    "ему",
    "нему",
    "им",
    "ним",
    "нем",
    "она",
    "ее",
    "нее",
    "ей",
    "ней",
    "ею",
    "нею",
    "оно",
    "они",
    "их",
    "них",
    "ими",
    "ними",
    "мы",
    "нас",
    "нам",
    "нами",
    "вы",
    "вас",
    "вам",
    "вами",
    "да",
    "не",
    "нет",
];

/// The banned words in a message, in order, as written: whole words only,
/// case-insensitive, `ё` = `е` (R-PALMS-1). A host may overrule the finding.
///
/// ```
/// use ostrov_engine::palms_violations;
/// assert_eq!(palms_violations("Это НЕ я, честно!"), ["НЕ", "я"]);
/// assert!(palms_violations("Данные неверны, нету алиби").is_empty());
/// ```
pub fn palms_violations(text: &str) -> Vec<&str> {
    text.split(|c: char| !c.is_alphanumeric() && c != '-')
        .flat_map(|w| w.split('-'))
        .filter(|w| !w.is_empty() && BANNED.contains(&fold_name(w).as_str()))
        .collect()
}

/// Whether a host penalty's reason says it was given for the Palms bloom ban (O-PALMS-1):
/// it names the palms («Пальмы цветут, запрещённые слова: «я»», «пальмы»).
pub fn names_the_palms(reason: &str) -> bool {
    fold_name(reason).contains("пальм")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r_palms_1_whole_words_case_and_yo() {
        assert_eq!(palms_violations("Её голос? Нет."), ["Её", "Нет"]);
        assert_eq!(palms_violations("кто-то из НИХ"), ["НИХ"]);
        assert!(palms_violations("Оно-то ладно").contains(&"Оно"));
        assert!(palms_violations("нежно, данный, мыло, вымысел, онлайн").is_empty());
        assert_eq!(palms_violations("мною, тобою, нею"), ["мною", "тобою", "нею"]);
    }
}
