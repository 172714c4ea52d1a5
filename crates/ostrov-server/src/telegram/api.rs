//! A thin client of Telegram's Bot API (<https://core.telegram.org/bots/api>): `getMe`,
//! `getUpdates` (long polling) and `sendMessage`, each a `POST {base}/bot{token}/{method}`
//! with a JSON body, over HTTP/1.1 (TLS for `https://`, with the web's root certificates).
//!
//! The token is kept in [`Token`], whose `Debug` hides it, and every error this module
//! returns is written without the request's address: a log line never holds the token.

use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;

/// The Bot API's own address.
pub const DEFAULT_API: &str = "https://api.telegram.org";

/// The largest answer read (a `getUpdates` of 100 updates is well under it).
const MAX_ANSWER: usize = 4 * 1024 * 1024;

/// The bot's token; never printed.
#[derive(Clone)]
pub struct Token(String);

impl Token {
    /// A token as `@BotFather` gives it (`123456:ABC…`): digits, a colon, then letters,
    /// digits, `-` and `_`.
    pub fn parse(s: &str) -> Result<Token, String> {
        let s = s.trim();
        let ok = s.split_once(':').is_some_and(|(id, key)| {
            !id.is_empty()
                && id.bytes().all(|b| b.is_ascii_digit())
                && !key.is_empty()
                && key.len() <= 200
                && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        });
        if ok {
            Ok(Token(s.to_string()))
        } else {
            Err("OSTROV_TELEGRAM_TOKEN: это не токен бота (нужен вид 123456:ABC…, его даёт @BotFather)".into())
        }
    }
}

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Token(…)")
    }
}

/// Why a call failed.
#[derive(Debug, Clone, PartialEq)]
pub enum ApiFailure {
    /// Telegram said to wait this many seconds (429, `parameters.retry_after`).
    RetryAfter(i64),
    /// Telegram refused the call for good (400, 403: the user blocked the bot …).
    Refused(u16, String),
    /// No answer, or not one of Telegram's (a network failure, a 5xx): try again later.
    Unreachable(String),
}

impl std::fmt::Display for ApiFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ApiFailure::RetryAfter(s) => write!(f, "Telegram asks to wait {s} s (429)"),
            ApiFailure::Refused(code, d) => write!(f, "Telegram refused ({code}): {d}"),
            ApiFailure::Unreachable(d) => write!(f, "Telegram unreachable: {d}"),
        }
    }
}

/// Where the API is and how the bot signs in.
#[derive(Clone)]
pub struct Api {
    scheme_tls: bool,
    host: String,
    port: u16,
    /// The base's path (without a trailing `/`), usually empty.
    path: String,
    token: Token,
    tls: Option<Arc<tokio_rustls::TlsConnector>>,
}

impl std::fmt::Debug for Api {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Api({}://{}:{}{})", if self.scheme_tls { "https" } else { "http" }, self.host, self.port, self.path)
    }
}

#[derive(Deserialize)]
struct Answer {
    ok: bool,
    #[serde(default)]
    result: Value,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    error_code: Option<u16>,
    #[serde(default)]
    parameters: Option<Parameters>,
}

#[derive(Deserialize)]
struct Parameters {
    #[serde(default)]
    retry_after: Option<i64>,
}

impl Api {
    /// The API at `base` (`https://api.telegram.org`, or a stand-in's `http://127.0.0.1:port`).
    pub fn new(base: &str, token: Token) -> Result<Api, String> {
        let (tls, rest) = if let Some(r) = base.strip_prefix("https://") {
            (true, r)
        } else if let Some(r) = base.strip_prefix("http://") {
            (false, r)
        } else {
            return Err(format!("--telegram-api {base}: нужен адрес вида https://… или http://…"));
        };
        let (authority, path) = rest.split_once('/').map_or((rest, ""), |(a, p)| (a, p));
        let (host, port) = match authority.rsplit_once(':') {
            Some((h, p)) if !h.ends_with(']') || p.is_empty() => {
                (h.to_string(), p.parse::<u16>().map_err(|_| format!("--telegram-api {base}: неверный порт"))?)
            }
            _ => (authority.to_string(), if tls { 443 } else { 80 }),
        };
        if host.is_empty() {
            return Err(format!("--telegram-api {base}: нет имени сервера"));
        }
        let path = path.trim_end_matches('/');
        let path = if path.is_empty() { String::new() } else { format!("/{path}") };
        let connector = tls.then(|| {
            // ring's key exchanges (X25519, P-256, P-384), which Telegram speaks; the
            // post-quantum hybrid would need aws-lc-rs (cmake, a long build).
            #[allow(deprecated)]
            let provider = rustls::crypto::ring::default_provider();
            let roots = rustls::RootCertStore { roots: webpki_roots::TLS_SERVER_ROOTS.to_vec() };
            let config = rustls::ClientConfig::builder_with_provider(Arc::new(provider))
                .with_safe_default_protocol_versions()
                .expect("ring supports TLS 1.2 and 1.3")
                .with_root_certificates(roots)
                .with_no_client_auth();
            Arc::new(tokio_rustls::TlsConnector::from(Arc::new(config)))
        });
        Ok(Api { scheme_tls: tls, host, port, path, token, tls: connector })
    }

    /// Calls `method` with `body`; `wait` bounds the whole call (a long poll's timeout
    /// plus a margin). The `result` on success.
    pub async fn call(&self, method: &str, body: &Value, wait: Duration) -> Result<Value, ApiFailure> {
        match tokio::time::timeout(wait, self.exchange(method, body)).await {
            Ok(r) => r,
            Err(_) => Err(ApiFailure::Unreachable(format!("{method}: no answer in {} s", wait.as_secs()))),
        }
    }

    async fn exchange(&self, method: &str, body: &Value) -> Result<Value, ApiFailure> {
        let down = |e: std::io::Error| ApiFailure::Unreachable(format!("{method}: {}", e.kind()));
        let tcp = TcpStream::connect((self.host.as_str(), self.port)).await.map_err(down)?;
        let _ = tcp.set_nodelay(true);
        let payload = body.to_string();
        let head = format!(
            "POST {}/bot{}/{method} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n",
            self.path,
            self.token.0,
            self.host,
            payload.len()
        );
        let raw = match &self.tls {
            Some(tls) => {
                let name = rustls::pki_types::ServerName::try_from(self.host.clone())
                    .map_err(|_| ApiFailure::Unreachable(format!("{method}: bad server name")))?;
                let stream = tls.connect(name, tcp).await.map_err(down)?;
                roundtrip(stream, &head, &payload).await.map_err(down)?
            }
            None => roundtrip(tcp, &head, &payload).await.map_err(down)?,
        };
        let (status, body) =
            parse_response(&raw).ok_or_else(|| ApiFailure::Unreachable(format!("{method}: not HTTP")))?;
        let answer: Answer = match serde_json::from_slice(&body) {
            Ok(a) => a,
            Err(_) => return Err(ApiFailure::Unreachable(format!("{method}: HTTP {status} without Telegram's JSON"))),
        };
        if answer.ok {
            return Ok(answer.result);
        }
        let code = answer.error_code.unwrap_or(status);
        if let Some(wait) = answer.parameters.and_then(|p| p.retry_after) {
            return Err(ApiFailure::RetryAfter(wait.clamp(1, 3600)));
        }
        let what = answer.description.unwrap_or_default().chars().take(200).collect::<String>();
        if code >= 500 || code == 429 {
            Err(ApiFailure::Unreachable(format!("{method}: {code} {what}")))
        } else {
            Err(ApiFailure::Refused(code, what))
        }
    }
}

async fn roundtrip<T: AsyncRead + AsyncWrite + Unpin>(mut s: T, head: &str, body: &str) -> std::io::Result<Vec<u8>> {
    s.write_all(head.as_bytes()).await?;
    s.write_all(body.as_bytes()).await?;
    s.flush().await?;
    let mut out = Vec::new();
    let mut buf = [0u8; 16 * 1024];
    loop {
        let n = match s.read(&mut buf).await {
            Ok(n) => n,
            // A TLS peer that closes without close_notify: what was read is the answer.
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof && !out.is_empty() => 0,
            Err(e) => return Err(e),
        };
        if n == 0 {
            return Ok(out);
        }
        out.extend_from_slice(&buf[..n]);
        if out.len() > MAX_ANSWER {
            return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, "answer too large"));
        }
    }
}

/// The status and the body of a whole HTTP/1.1 response (`Content-Length`, chunked, or to
/// the end).
fn parse_response(raw: &[u8]) -> Option<(u16, Vec<u8>)> {
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = std::str::from_utf8(&raw[..end]).ok()?;
    let mut lines = head.split("\r\n");
    let status: u16 = lines.next()?.split(' ').nth(1)?.parse().ok()?;
    let mut chunked = false;
    let mut length = None;
    for l in lines {
        let (k, v) = l.split_once(':')?;
        let (k, v) = (k.trim().to_ascii_lowercase(), v.trim());
        if k == "transfer-encoding" && v.eq_ignore_ascii_case("chunked") {
            chunked = true;
        } else if k == "content-length" {
            length = v.parse::<usize>().ok();
        }
    }
    let rest = &raw[end + 4..];
    let body = if chunked {
        let mut out = Vec::new();
        let mut at = rest;
        loop {
            let eol = at.windows(2).position(|w| w == b"\r\n")?;
            let size =
                usize::from_str_radix(std::str::from_utf8(&at[..eol]).ok()?.split(';').next()?.trim(), 16).ok()?;
            at = &at[eol + 2..];
            if size == 0 {
                break out;
            }
            out.extend_from_slice(at.get(..size)?);
            at = at.get(size + 2..)?;
        }
    } else if let Some(n) = length {
        rest.get(..n)?.to_vec()
    } else {
        rest.to_vec()
    };
    Some((status, body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_never_shown() {
        let t = Token::parse("123:secret-KEY_x").unwrap();
        let api = Api::new("http://127.0.0.1:9/base/", t.clone()).unwrap();
        assert!(!format!("{t:?} {api:?}").contains("secret"));
        assert_eq!(api.path, "/base");
        assert!(Token::parse("no token").is_err());
        assert!(Token::parse("12:ab cd").is_err());
    }

    #[test]
    fn responses_are_read_whole() {
        let raw = b"HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n{}xx";
        assert_eq!(parse_response(raw), Some((200, b"{}xx".to_vec())));
        let raw = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n";
        assert_eq!(parse_response(raw), Some((200, b"{}".to_vec())));
    }
}
