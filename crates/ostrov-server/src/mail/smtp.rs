//! A small SMTP client (RFC 5321) over tokio: `EHLO`, `STARTTLS` when the server offers it
//! (TLS by rustls, already in the tree for Telegram), `AUTH PLAIN`, one message, `QUIT`.
//! The password is never sent without TLS, but to a server on loopback.
//!
//! Why not `lettre`: it would add some twenty crates to the build (its address parser,
//! MIME and transport layers) for the one conversation this server needs.

use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;

/// How long one whole conversation may take.
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// The longest reply read.
const MAX_REPLY: usize = 64 * 1024;

/// The base64 of `bytes` (RFC 4648, with padding).
pub fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for c in bytes.chunks(3) {
        let n = (c[0] as u32) << 16 | (*c.get(1).unwrap_or(&0) as u32) << 8 | *c.get(2).unwrap_or(&0) as u32;
        for i in 0..4 {
            if i <= c.len() {
                out.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Why a mail was not sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The server refused it for good (a 5xx to the sender, the recipient or the message).
    Refused(String),
    /// Not now (no answer, a 4xx, TLS or the sign-in failed): try again later.
    Later(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Refused(d) => write!(f, "SMTP refused: {d}"),
            Failure::Later(d) => write!(f, "SMTP failed: {d}"),
        }
    }
}

/// Where the SMTP server is.
#[derive(Clone)]
pub struct Server {
    pub host: String,
    pub port: u16,
    /// TLS from the start (`smtps://`), not by `STARTTLS`.
    pub implicit_tls: bool,
    tls: Arc<tokio_rustls::TlsConnector>,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}://{}:{}", if self.implicit_tls { "smtps" } else { "smtp" }, self.host, self.port)
    }
}

/// `%xx` decoded (a user such as `me%40example.ru`).
fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let Ok(v) = u8::from_str_radix(s.get(i + 1..i + 3).unwrap_or("x"), 16) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

impl Server {
    /// `smtp://[user@]host[:port]` (port 25 by default, STARTTLS when offered) or
    /// `smtps://[user@]host[:port]` (465): the server and the user, if given. A password in
    /// the URL is refused: it goes in `OSTROV_SMTP_PASSWORD`.
    pub fn parse(url: &str) -> Result<(Server, Option<String>), String> {
        let bad = |why: &str| format!("--smtp: {why} (нужен вид smtp://пользователь@почта.example.ru:587)");
        let (implicit_tls, rest) = if let Some(r) = url.strip_prefix("smtp://") {
            (false, r)
        } else if let Some(r) = url.strip_prefix("smtps://") {
            (true, r)
        } else {
            return Err(bad("адрес должен начинаться с smtp:// или smtps://"));
        };
        let rest = rest.trim_end_matches('/');
        let (user, authority) = match rest.rsplit_once('@') {
            Some((u, a)) => (Some(u), a),
            None => (None, rest),
        };
        if user.is_some_and(|u| u.contains(':')) {
            return Err(bad("пароль не пишется в адресе: задайте его в OSTROV_SMTP_PASSWORD"));
        }
        let default = if implicit_tls { 465 } else { 25 };
        let port_of = |p: &str| p.parse::<u16>().map_err(|_| bad("неверный порт"));
        let (host, port) = if let Some(rest) = authority.strip_prefix('[') {
            let (h, after) = rest.split_once(']').ok_or_else(|| bad("нет «]» в адресе IPv6"))?;
            match after.strip_prefix(':') {
                Some(p) => (h, port_of(p)?),
                None if after.is_empty() => (h, default),
                None => return Err(bad("неверный адрес сервера")),
            }
        } else {
            match authority.rsplit_once(':') {
                Some((h, p)) => (h, port_of(p)?),
                None => (authority, default),
            }
        };
        if host.is_empty() || host.contains('/') {
            return Err(bad("нет имени сервера"));
        }
        #[allow(deprecated)]
        let provider = rustls::crypto::ring::default_provider();
        let roots = rustls::RootCertStore { roots: webpki_roots::TLS_SERVER_ROOTS.to_vec() };
        let config = rustls::ClientConfig::builder_with_provider(Arc::new(provider))
            .with_safe_default_protocol_versions()
            .map_err(|e| e.to_string())?
            .with_root_certificates(roots)
            .with_no_client_auth();
        let tls = Arc::new(tokio_rustls::TlsConnector::from(Arc::new(config)));
        let user = user.map(unescape).filter(|u| !u.is_empty());
        Ok((Server { host: host.to_string(), port, implicit_tls, tls }, user))
    }

    fn loopback(&self) -> bool {
        self.host == "localhost" || self.host.parse::<std::net::IpAddr>().is_ok_and(|a| a.is_loopback())
    }
}

struct Conn<T> {
    io: T,
    buf: Vec<u8>,
}

impl<T: AsyncRead + AsyncWrite + Unpin> Conn<T> {
    fn new(io: T) -> Conn<T> {
        Conn { io, buf: Vec::new() }
    }

    /// One reply: its code and its lines' texts.
    async fn reply(&mut self) -> std::io::Result<(u16, String)> {
        let mut text = String::new();
        loop {
            let line = loop {
                if let Some(at) = self.buf.windows(2).position(|w| w == b"\r\n") {
                    let line: Vec<u8> = self.buf.drain(..at + 2).collect();
                    break String::from_utf8_lossy(&line[..at]).into_owned();
                }
                if self.buf.len() > MAX_REPLY {
                    return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, "reply too long"));
                }
                let mut b = [0u8; 4096];
                let n = self.io.read(&mut b).await?;
                if n == 0 {
                    return Err(std::io::ErrorKind::UnexpectedEof.into());
                }
                self.buf.extend_from_slice(&b[..n]);
            };
            let code = line.get(..3).and_then(|c| c.parse::<u16>().ok());
            let Some(code) = code else {
                return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, "not an SMTP reply"));
            };
            text.push_str(line.get(4..).unwrap_or(""));
            text.push('\n');
            if line.as_bytes().get(3) != Some(&b'-') {
                return Ok((code, text));
            }
        }
    }

    async fn say(&mut self, line: &str) -> std::io::Result<(u16, String)> {
        self.io.write_all(line.as_bytes()).await?;
        self.io.write_all(b"\r\n").await?;
        self.io.flush().await?;
        self.reply().await
    }
}

/// The reply `want` or a failure: a 5xx is `Refused` where `refused` says so.
fn expect(step: &str, got: (u16, String), want: &[u16], refused: bool) -> Result<String, Failure> {
    if want.contains(&got.0) {
        return Ok(got.1);
    }
    let why = format!("{step}: {} {}", got.0, got.1.lines().next().unwrap_or("").chars().take(200).collect::<String>());
    if refused && got.0 >= 500 {
        Err(Failure::Refused(why))
    } else {
        Err(Failure::Later(why))
    }
}

/// Sends `message` (headers and body, CRLF lines) from `from` to `to`.
pub async fn send(
    server: &Server,
    login: Option<(&str, &str)>,
    from: &str,
    to: &str,
    message: &str,
) -> Result<(), Failure> {
    match tokio::time::timeout(TIMEOUT, conversation(server, login, from, to, message)).await {
        Ok(r) => r,
        Err(_) => Err(Failure::Later(format!("no answer in {} s", TIMEOUT.as_secs()))),
    }
}

async fn conversation(
    server: &Server,
    login: Option<(&str, &str)>,
    from: &str,
    to: &str,
    message: &str,
) -> Result<(), Failure> {
    let tcp = TcpStream::connect((server.host.as_str(), server.port)).await.map_err(io)?;
    let _ = tcp.set_nodelay(true);
    let name = rustls::pki_types::ServerName::try_from(server.host.clone())
        .map_err(|_| Failure::Later("bad server name".into()))?;
    let helo = format!("EHLO {}", from.rsplit_once('@').map_or("ostrov", |(_, d)| d));
    let m = Message { login, from, to, message, loopback: server.loopback() };
    if server.implicit_tls {
        let mut c = Conn::new(server.tls.connect(name, tcp).await.map_err(io)?);
        expect("greeting", c.reply().await.map_err(io)?, &[220], false)?;
        let ext = expect("EHLO", c.say(&helo).await.map_err(io)?, &[250], false)?;
        return finish(c, &ext, true, &m).await;
    }
    let mut c = Conn::new(tcp);
    expect("greeting", c.reply().await.map_err(io)?, &[220], false)?;
    let ext = expect("EHLO", c.say(&helo).await.map_err(io)?, &[250], false)?;
    if !offers(&ext, "STARTTLS") {
        return finish(c, &ext, false, &m).await;
    }
    expect("STARTTLS", c.say("STARTTLS").await.map_err(io)?, &[220], false)?;
    let mut c = Conn::new(server.tls.connect(name, c.io).await.map_err(io)?);
    let ext = expect("EHLO", c.say(&helo).await.map_err(io)?, &[250], false)?;
    finish(c, &ext, true, &m).await
}

fn io(e: std::io::Error) -> Failure {
    Failure::Later(format!("{}", e.kind()))
}

/// Whether the `EHLO` reply `ext` offers the extension `what`.
fn offers(ext: &str, what: &str) -> bool {
    ext.lines().any(|l| l.to_ascii_uppercase().starts_with(what))
}

struct Message<'a> {
    login: Option<(&'a str, &'a str)>,
    from: &'a str,
    to: &'a str,
    message: &'a str,
    loopback: bool,
}

/// After `EHLO` (and `STARTTLS`): signs in, sends the message, quits.
async fn finish<T: AsyncRead + AsyncWrite + Unpin>(
    mut c: Conn<T>,
    ext: &str,
    tls: bool,
    m: &Message<'_>,
) -> Result<(), Failure> {
    if let Some((user, password)) = m.login {
        if !tls && !m.loopback {
            return Err(Failure::Later("the server offers no STARTTLS: the password is not sent in the clear".into()));
        }
        if !offers(ext, "AUTH") {
            return Err(Failure::Later("the server offers no AUTH".into()));
        }
        let plain = base64(format!("\0{user}\0{password}").as_bytes());
        expect("AUTH", c.say(&format!("AUTH PLAIN {plain}")).await.map_err(io)?, &[235], false)?;
    }
    expect("MAIL FROM", c.say(&format!("MAIL FROM:<{}>", m.from)).await.map_err(io)?, &[250], true)?;
    expect("RCPT TO", c.say(&format!("RCPT TO:<{}>", m.to)).await.map_err(io)?, &[250, 251], true)?;
    expect("DATA", c.say("DATA").await.map_err(io)?, &[354], true)?;
    let mut data = String::with_capacity(m.message.len() + 64);
    for line in m.message.trim_end_matches("\r\n").split("\r\n") {
        if line.starts_with('.') {
            data.push('.');
        }
        data.push_str(line);
        data.push_str("\r\n");
    }
    data.push_str(".\r\n");
    c.io.write_all(data.as_bytes()).await.map_err(io)?;
    c.io.flush().await.map_err(io)?;
    expect("message", c.reply().await.map_err(io)?, &[250], true)?;
    let _ = c.say("QUIT").await;
    Ok(())
}
