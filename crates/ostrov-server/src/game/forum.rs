//! A forum game (issue 30, point 12): the day's talk is on the community's own forum, in
//! a topic the host links (one for the whole game, or one a day); the thread here is off
//! (the pack's chat stays). What the fold keeps of it: the day's topics the host set.

use serde::{Deserialize, Serialize};

use super::change::Change;
use super::state::{state, GameState, PublicNote, Refused, Status};

/// The longest link to a forum topic, in characters (after normalising).
pub const MAX_TOPIC_URL: usize = 500;

/// Why a post to the thread of a forum game is refused.
pub const THREAD_OFF: &str = "В этой игре обсуждение идёт на форуме, по ссылке на тему на странице игры: \
                              тред здесь выключен.";

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
    if s.chars().any(|c| c.is_whitespace() || super::lobby::invisible(c)) {
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

impl GameState {
    /// Whether the game's talk is on a forum (the thread is off).
    pub fn forum(&self) -> bool {
        self.config.discussion.is_forum()
    }

    /// The forum topic to link now (O-FORUM-1): the one the host set for the latest day
    /// (the open day, or the next one between a resolution and the opening), else the
    /// game's; `None` in a game without a forum or before any link.
    pub fn forum_topic(&self) -> Option<(Option<u32>, &str)> {
        let game = match &self.config.discussion {
            Discussion::Thread => return None,
            Discussion::Forum(url) => url.as_deref(),
        };
        match self.topics.iter().max_by_key(|(d, _)| *d) {
            Some((d, url)) => Some((Some(*d), url.as_str())),
            None => game.map(|u| (None, u)),
        }
    }

    /// The day whose topic the host sets now: the open day, or the next one between a
    /// resolution and its opening.
    pub fn topic_day(&self) -> u32 {
        self.open_day().unwrap_or(self.days.len() as u32 + 1)
    }

    pub(super) fn decide_topic(&self, day: u32, url: &str) -> Result<Change, Refused> {
        if !self.forum() {
            return Err(state("not_forum", "Обсуждение этой игры идёт в треде на её странице, а не на форуме."));
        }
        match self.status {
            Status::Lobby => return Err(state("not_started", "Игра ещё не началась.")),
            Status::Over => return Err(state("game_over", "Игра окончена: новых дней не будет.")),
            Status::Running => {}
        }
        if day != self.topic_day() {
            return Err(state("not_now", format!("Тему можно дать только для дня {}.", self.topic_day())));
        }
        if topic_url(url, "url").map_err(|e| state("bad_url", e))? != url {
            return Err(state("bad_url", "Ссылка на тему форума (url) не нормализована."));
        }
        Ok(Change::Topic { day, url: url.to_string() })
    }

    pub(super) fn evolve_topic(&mut self, day: u32, url: String, at: i64) {
        match self.topics.iter_mut().find(|(d, _)| *d == day) {
            Some(t) => t.1 = url,
            None => self.topics.push((day, url)),
        }
        let text = format!("Ведущий дал ссылку на тему дня {day} на форуме.");
        self.history.push(PublicNote { at, day, text });
    }
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
            "https:///nohost",
        ] {
            let e = topic_url(bad, "url").unwrap_err();
            assert!(e.starts_with("Ссылка на тему форума (url): "), "{bad}: {e}");
        }
        let long = format!("https://forum.example.org/{}", "a".repeat(500));
        assert!(topic_url(&long, "url").unwrap_err().contains("длиннее 500"));
    }
}
