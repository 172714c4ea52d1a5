//! Russian plural forms: 1 голос, 2 голоса, 5 голосов.

/// Picks the Russian plural form of a count: `one` (1, 21, 31 …), `few` (2–4, 22–24 …),
/// `many` (0, 5–20, 25–30 …).
///
/// ```
/// use ostrov_engine::plural::{form, votes};
/// assert_eq!(votes(1), "1 голос");
/// assert_eq!(votes(3), "3 голоса");
/// assert_eq!(votes(11), "11 голосов");
/// assert_eq!(form(22, "день", "дня", "дней"), "дня");
/// ```
pub fn form<'a>(n: u64, one: &'a str, few: &'a str, many: &'a str) -> &'a str {
    let (d, dd) = (n % 10, n % 100);
    if d == 1 && dd != 11 {
        one
    } else if (2..=4).contains(&d) && !(12..=14).contains(&dd) {
        few
    } else {
        many
    }
}

/// "N голос/голоса/голосов".
pub fn votes(n: u32) -> String {
    format!("{n} {}", form(n as u64, "голос", "голоса", "голосов"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn russian_plural_forms() {
        for (n, want) in [
            (0, "голосов"),
            (1, "голос"),
            (2, "голоса"),
            (4, "голоса"),
            (5, "голосов"),
            (11, "голосов"),
            (12, "голосов"),
            (21, "голос"),
            (22, "голоса"),
            (25, "голосов"),
            (101, "голос"),
            (111, "голосов"),
        ] {
            assert_eq!(form(n, "голос", "голоса", "голосов"), want, "{n}");
        }
    }
}
