//! A forum topic's link (issue 30, point 12): where a game's day-talk happens
//! ([`Discussion`]) and how a link to a forum topic is checked and stored ([`topic_url`]).
//! A leaf of the fold: the game's settings ([`super::event::Config`]) hold it.

use serde::{Deserialize, Serialize};

/// Characters that render as nothing or move the text around: the engine's table of
/// invisible characters ([`ostrov_engine::is_invisible`]: zero-width ones, bidirectional
/// controls, the word joiner family, the byte-order mark …) and the control characters.
/// A name with one is refused, never cleaned in silence. Variation selectors are the
/// exception: they choose how an emoji looks («Кот🐈\u{FE0F}»), and the skeleton passes
/// over them, so a name with one is the name without it.
pub fn invisible(c: char) -> bool {
    (ostrov_engine::is_invisible(c) && !matches!(c, '\u{FE00}'..='\u{FE0F}')) || c.is_control()
}

/// The longest link to a forum topic, in characters (after normalising).
pub const MAX_TOPIC_URL: usize = 500;

/// Where a game's day-talk happens.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Discussion {
    /// The day's thread on the game's page (the default: what every game was before).
    #[default]
    Thread,
    /// A topic on an external forum: the link for the whole game (`null`: the host gives
    /// one a day as the game goes). The thread is off; the pack's chat stays.
    Forum(Option<String>),
}

impl Discussion {
    pub fn is_thread(&self) -> bool {
        *self == Discussion::Thread
    }

    pub fn is_forum(&self) -> bool {
        !self.is_thread()
    }

    /// The same discussion with its link checked and normalised ([`topic_url`]), the
    /// field named `field` in the message.
    pub fn normalised(&self, field: &str) -> Result<Discussion, String> {
        Ok(match self {
            Discussion::Forum(Some(url)) => Discussion::Forum(Some(topic_url(url, field)?)),
            other => other.clone(),
        })
    }

    /// Whether the link (if any) is one [`topic_url`] would store as it is.
    pub(super) fn check(&self) -> Result<(), String> {
        match self {
            Discussion::Forum(Some(url)) if topic_url(url, "discussion.forum")? != *url => {
                Err("Ссылка на тему форума (discussion.forum) не нормализована.".into())
            }
            _ => Ok(()),
        }
    }
}

/// A link to a forum topic as it is stored: `http` or `https` with a host, no login or
/// password in it, no spaces, control or invisible characters, at most
/// [`MAX_TOPIC_URL`] characters, normalised (the scheme and host in lower case, an
/// international domain in punycode, the rest percent-encoded). `field` names the field
/// in the Russian message.
pub fn topic_url(raw: &str, field: &str) -> Result<String, String> {
    let bad = |why: &str| Err(format!("Ссылка на тему форума ({field}): {why}."));
    let s = raw.trim();
    if s.is_empty() {
        return bad("пустая — вставьте адрес темы, например https://forum.example.org/viewtopic.php?t=12");
    }
    if s.chars().count() > MAX_TOPIC_URL {
        return bad(&format!("длиннее {MAX_TOPIC_URL} символов"));
    }
    if s.chars().any(|c| c.is_whitespace() || invisible(c)) {
        return bad("в адресе не должно быть пробелов, невидимых и управляющих символов");
    }
    let Ok(url) = url::Url::parse(s) else {
        return bad("это не адрес страницы; нужен адрес вида https://forum.example.org/…");
    };
    if !matches!(url.scheme(), "http" | "https") {
        return bad("адрес должен начинаться с https:// или http://");
    }
    if url.host_str().is_none_or(str::is_empty) {
        return bad("в адресе нет имени сайта");
    }
    if !url.username().is_empty() || url.password().is_some() {
        return bad("в адресе не должно быть логина и пароля");
    }
    let out = url.to_string();
    if out.chars().count() > MAX_TOPIC_URL {
        return bad(&format!("длиннее {MAX_TOPIC_URL} символов"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::topic_url;

    #[test]
    fn a_topic_link_is_http_or_https_and_normalised() {
        assert_eq!(
            topic_url("  HTTPS://Forum.Example.ORG/viewtopic.php?t=12#p3 ", "url").unwrap(),
            "https://forum.example.org/viewtopic.php?t=12#p3"
        );
        let idn = topic_url("https://форум.рф/тема", "url").unwrap();
        assert!(idn.starts_with("https://xn--") && idn.is_ascii(), "{idn}");
        for bad in [
            "",
            "javascript:alert(1)",
            "JavaScript:alert(1)",
            "data:text/html,<b>",
            "ftp://forum.example.org/",
            "https://user:pw@forum.example.org/",
            "https://forum.example.org/a b",
            "https://forum.example.org/\u{202e}x",
            "forum.example.org/t=1",
        ] {
            let e = topic_url(bad, "url").unwrap_err();
            assert!(e.starts_with("Ссылка на тему форума (url): "), "{bad}: {e}");
        }
        let long = format!("https://forum.example.org/{}", "a".repeat(500));
        assert!(topic_url(&long, "url").unwrap_err().contains("длиннее 500"));
    }
}
