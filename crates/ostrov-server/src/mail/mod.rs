//! E-mail (issue 31, point 5): the server's SMTP settings ([`Mailer`]), an address as an
//! account gives it ([`normalise`]), and a notice as a short plain-text mail ([`compose`]).
//! The SMTP conversation is [`smtp`]; the mails themselves go through the outbox like the
//! Telegram messages ([`crate::outbox`]), a notice's mail row keyed `mail:<kind>`.
//!
//! The password comes from the environment (`OSTROV_SMTP_PASSWORD`) and is kept in
//! [`Secret`], whose `Debug` hides it; no error of this module holds it.

pub mod smtp;

use rand_core::RngCore;

/// The kind of a confirmation mail in the outbox.
pub const CONFIRM: &str = "mail:confirm";

/// The prefix of a mail row's kind in the outbox.
pub const PREFIX: &str = "mail:";

/// How long a confirmation link works (seconds).
pub const CONFIRM_SECS: i64 = 24 * 3600;

/// Confirmation mails one account may ask for in an hour.
pub const CONFIRMS_PER_ACCOUNT: usize = 3;

/// Confirmation mails one address may be sent in a day (whoever asks).
pub const CONFIRMS_PER_ADDRESS: usize = 3;

/// Confirmation mails the whole server sends in an hour.
pub const CONFIRMS_PER_HOUR: usize = 200;

/// The longest address (RFC 5321).
pub const MAX_ADDRESS: usize = 254;

/// A password; never printed.
#[derive(Clone, Default)]
pub struct Secret(pub String);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(…)")
    }
}

/// How this server sends mail (`--smtp`, `--mail-from`, `--smtp-user`, `OSTROV_SMTP_PASSWORD`).
#[derive(Clone)]
pub struct Mailer {
    pub server: smtp::Server,
    /// The sender's address (`--mail-from`).
    pub from: String,
    /// The user and password to sign in with, if any.
    pub login: Option<(String, Secret)>,
    /// The confirmation mails asked for: per account, per address (hashed), in all.
    pub per_account: std::sync::Arc<crate::ratelimit::Quota<i64>>,
    pub per_address: std::sync::Arc<crate::ratelimit::Quota<u64>>,
    pub in_all: std::sync::Arc<crate::ratelimit::Quota<u8>>,
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Mailer({:?}, from {})", self.server, self.from)
    }
}

impl Mailer {
    /// The mailer of `--smtp URL` (`smtp://[user@]host[:port]`, STARTTLS when offered;
    /// `smtps://` for TLS from the start), `--mail-from`, the user (from the URL or
    /// `--smtp-user`) and the password.
    pub fn new(url: &str, from: &str, user: Option<&str>, password: Option<String>) -> Result<Mailer, String> {
        let (server, url_user) = smtp::Server::parse(url)?;
        let from = normalise(from).map_err(|e| format!("--mail-from {from}: {e}"))?;
        let user = user.map(str::to_string).or(url_user);
        let login = match (user, password) {
            (Some(u), Some(p)) => Some((u, Secret(p))),
            (Some(_), None) => return Err("--smtp: задан пользователь, но нет пароля в OSTROV_SMTP_PASSWORD".into()),
            (None, Some(p)) if !p.is_empty() => {
                return Err("OSTROV_SMTP_PASSWORD задан, но нет пользователя (в --smtp или --smtp-user)".into())
            }
            (None, _) => None,
        };
        Ok(Mailer {
            server,
            from,
            login,
            per_account: std::sync::Arc::new(crate::ratelimit::Quota::new(CONFIRMS_PER_ACCOUNT, 3600)),
            per_address: std::sync::Arc::new(crate::ratelimit::Quota::new(CONFIRMS_PER_ADDRESS, 24 * 3600)),
            in_all: std::sync::Arc::new(crate::ratelimit::Quota::new(CONFIRMS_PER_HOUR, 3600)),
        })
    }
}

/// An address as typed, checked and normalised (spaces trimmed, the domain in lower case):
/// or why it is not one, in Russian. Only ASCII addresses (no SMTPUTF8): a Cyrillic domain
/// is given in its `xn--` form.
pub fn normalise(raw: &str) -> Result<String, String> {
    let s = raw.trim();
    if s.is_empty() {
        return Err("адрес пустой".into());
    }
    if s.chars().count() > MAX_ADDRESS {
        return Err(format!("адрес длиннее {MAX_ADDRESS} символов"));
    }
    let Some((local, domain)) = s.rsplit_once('@') else {
        return Err("в адресе нет «@»".into());
    };
    if !s.is_ascii() {
        return Err(
            "в адресе есть не латинские буквы: такие адреса не поддерживаются (домен .рф пишите как xn--p1ai)".into()
        );
    }
    let atext = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~.".contains(&b);
    if local.is_empty()
        || local.len() > 64
        || !local.bytes().all(atext)
        || local.starts_with('.')
        || local.ends_with('.')
        || local.contains("..")
    {
        return Err("часть адреса до «@» неверна (латинские буквы, цифры, точки, «-», «_», «+»)".into());
    }
    let domain = domain.to_ascii_lowercase();
    let labels: Vec<&str> = domain.split('.').collect();
    let label_ok = |l: &&str| {
        !l.is_empty()
            && l.len() <= 63
            && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            && !l.starts_with('-')
            && !l.ends_with('-')
    };
    if labels.len() < 2
        || !labels.iter().all(label_ok)
        || labels.last().is_some_and(|t| t.bytes().all(|b| b.is_ascii_digit()))
    {
        return Err("домен адреса (после «@») неверен: нужен вид example.ru".into());
    }
    Ok(format!("{local}@{domain}"))
}

/// A key of an address for the per-address limit (its lower case, hashed).
pub fn address_key(address: &str) -> u64 {
    use sha2::Digest;
    let d = sha2::Sha256::digest(address.to_ascii_lowercase().as_bytes());
    u64::from_le_bytes(d[..8].try_into().unwrap_or([0; 8]))
}

/// A new secret for a link (hex, 128 bits).
pub fn token() -> String {
    let mut b = [0u8; 16];
    rand_core::OsRng.fill_bytes(&mut b);
    crate::hex::hex(&b)
}

/// One mail: who it is to, its subject and its plain text, and the unsubscribe link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mail {
    pub to: String,
    pub subject: String,
    pub text: String,
    /// The one-click unsubscribe link (`List-Unsubscribe`), if any.
    pub unsubscribe: Option<String>,
}

/// A notice's text as a mail to `to`: the subject is its first line, the body the text and
/// the unsubscribe link.
pub fn compose(to: &str, text: &str, unsubscribe: &str) -> Mail {
    let first = text.lines().next().unwrap_or("Остров страха");
    let subject = crate::telegram::cut(first, 90);
    let text = format!(
        "{}\n\n-- \nОстров страха. Письма об играх приходят, пока вы не отпишетесь.\nОтписаться одним щелчком: {unsubscribe}\n",
        text.trim_end()
    );
    Mail { to: to.to_string(), subject, text, unsubscribe: Some(unsubscribe.to_string()) }
}

/// The confirmation mail's text: the link that confirms `address`.
pub fn confirmation(address: &str, link: &str) -> String {
    format!(
        "Подтвердите адрес для писем «Острова страха»\n\n\
         Кто-то (вероятно, вы) указал адрес {address} в профиле на сайте «Острова страха».\n\
         Чтобы получать письма об играх (открытие дня, газеты, личные сообщения, напоминания), \
         откройте ссылку (она действует сутки и один раз):\n{link}\n\n\
         Если это были не вы, ничего не делайте: без подтверждения писем больше не будет."
    )
}

/// A header's text as RFC 2047 encoded words (UTF-8, base64), folded.
fn encoded(text: &str) -> String {
    if text.bytes().all(|b| (b' '..=b'~').contains(&b)) {
        return text.to_string();
    }
    let mut words = Vec::new();
    let mut chunk = String::new();
    for ch in text.chars() {
        if chunk.len() + ch.len_utf8() > 42 {
            words.push(format!("=?UTF-8?B?{}?=", smtp::base64(chunk.as_bytes())));
            chunk.clear();
        }
        chunk.push(ch);
    }
    if !chunk.is_empty() {
        words.push(format!("=?UTF-8?B?{}?=", smtp::base64(chunk.as_bytes())));
    }
    words.join("\r\n ")
}

/// The whole message (headers and body, CRLF lines), from `from` at `date` (Unix seconds).
pub fn message(from: &str, m: &Mail, date: i64) -> String {
    let when =
        jiff::Timestamp::from_second(date).unwrap_or(jiff::Timestamp::UNIX_EPOCH).to_zoned(jiff::tz::TimeZone::UTC);
    let date = jiff::fmt::rfc2822::to_string(&when).unwrap_or_default();
    let domain = from.rsplit_once('@').map_or("ostrov", |(_, d)| d);
    let mut h = format!(
        "From: {} <{from}>\r\nTo: <{}>\r\nSubject: {}\r\nDate: {date}\r\nMessage-ID: <{}@{domain}>\r\n\
         MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\
         Auto-Submitted: auto-generated\r\n",
        encoded("Остров страха"),
        m.to,
        encoded(&m.subject),
        token()
    );
    if let Some(u) = &m.unsubscribe {
        h.push_str(&format!("List-Unsubscribe: <{u}>\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n"));
    }
    h.push_str("\r\n");
    let body = smtp::base64(m.text.replace('\n', "\r\n").as_bytes());
    for line in body.as_bytes().chunks(76) {
        h.push_str(std::str::from_utf8(line).unwrap_or_default());
        h.push_str("\r\n");
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_checked_and_normalised() {
        assert_eq!(normalise("  Anya.K+ostrov@Example.RU ").unwrap(), "Anya.K+ostrov@example.ru");
        for bad in [
            "",
            "anya",
            "a@b",
            "a@@b.ru",
            ".a@b.ru",
            "a..b@c.ru",
            "a@-b.ru",
            "a@b.123",
            "аня@почта.рф",
            "a b@c.ru",
            "a@c.ru\r\nBcc: x@y.ru",
        ] {
            assert!(normalise(bad).is_err(), "{bad:?}");
        }
        assert!(normalise(&format!("{}@b.ru", "a".repeat(65))).is_err());
    }

    #[test]
    fn base64_and_headers() {
        assert_eq!(smtp::base64(b""), "");
        assert_eq!(smtp::base64(b"f"), "Zg==");
        assert_eq!(smtp::base64(b"fo"), "Zm8=");
        assert_eq!(smtp::base64(b"foobar"), "Zm9vYmFy");
        let m = message("bot@ostrov.test", &compose("a@b.ru", "«Маяк»: открылся день 1", "https://x/u/1"), 0);
        assert!(
            m.contains("List-Unsubscribe: <https://x/u/1>\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n")
        );
        assert!(m.contains("Subject: =?UTF-8?B?"));
        assert!(m.lines().all(|l| l.len() <= 998));
        assert!(!format!("{:?}", Secret("pw".into())).contains("pw"));
    }
}
