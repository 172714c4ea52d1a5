//! A small blocking HTTP/1.1 client for the JSON API, for tests and load measurements
//! against a real server on a loopback port. It keeps the session cookie and sends the
//! CSRF header on every request, as the web pages do. By default each request opens its
//! own connection (`Connection: close`); [`Client::keep_alive`] keeps one open between
//! requests, as a browser does.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// One response: status, headers (lower-case names), body.
#[derive(Clone, Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    /// The body as JSON (`null` when it is not JSON).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or(serde_json::Value::Null)
    }
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

/// A client with its own session.
#[derive(Debug)]
pub struct Client {
    pub addr: SocketAddr,
    pub cookie: Option<String>,
    /// Send `X-Ostrov-Csrf: 1` (on by default; off to play a forged cross-site request).
    pub csrf: bool,
    /// Keep the connection open between requests (off by default).
    pub keep_alive: bool,
    /// The open connection when `keep_alive` is on, with the address it goes to.
    pub conn: Option<(SocketAddr, BufReader<TcpStream>)>,
}

/// A clone has the same session but no connection of its own yet.
impl Clone for Client {
    fn clone(&self) -> Client {
        Client {
            addr: self.addr,
            cookie: self.cookie.clone(),
            csrf: self.csrf,
            keep_alive: self.keep_alive,
            conn: None,
        }
    }
}

impl Client {
    pub fn new(addr: SocketAddr) -> Client {
        Client { addr, cookie: None, csrf: true, keep_alive: false, conn: None }
    }

    /// The same session, keeping its connection open between requests.
    pub fn keep_alive(self) -> Client {
        Client { keep_alive: true, ..self }
    }

    /// Sends a request with a raw body: on a new connection, or on the open one when
    /// `keep_alive` is on (a connection the server closed meanwhile is opened again once).
    pub fn raw(&mut self, method: &str, path: &str, content_type: &str, body: &[u8]) -> std::io::Result<Reply> {
        if !self.keep_alive {
            self.conn = None;
            return self.exchange(method, path, content_type, body);
        }
        let reused = matches!(&self.conn, Some((a, _)) if *a == self.addr);
        match self.exchange(method, path, content_type, body) {
            Err(_) if reused => {
                self.conn = None;
                self.exchange(method, path, content_type, body)
            }
            r => r,
        }
    }

    fn exchange(&mut self, method: &str, path: &str, content_type: &str, body: &[u8]) -> std::io::Result<Reply> {
        let conn = match self.conn.take() {
            Some((a, c)) if a == self.addr => c,
            _ => {
                let s = TcpStream::connect(self.addr)?;
                s.set_read_timeout(Some(Duration::from_secs(60)))?;
                s.set_nodelay(true)?;
                BufReader::new(s)
            }
        };
        let mut conn = conn;
        conn.get_mut().write_all(&self.request(method, path, content_type, body))?;
        let (head, rest) = if self.keep_alive { read_one(&mut conn)? } else { read_to_close(&mut conn)? };
        let mut lines = head.lines();
        let status = lines.next().and_then(|l| l.split_whitespace().nth(1)).and_then(|c| c.parse().ok()).unwrap_or(0);
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect();
        let chunked = headers.iter().any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"));
        let body = String::from_utf8_lossy(&if chunked { dechunk(&rest) } else { rest }).into_owned();
        let closes = headers.iter().any(|(k, v)| k == "connection" && v.eq_ignore_ascii_case("close"));
        if self.keep_alive && !closes {
            self.conn = Some((self.addr, conn));
        }
        let reply = Reply { status, headers, body };
        for (_, c) in reply.headers.iter().filter(|(k, _)| k == "set-cookie") {
            let kv = c.split(';').next().unwrap_or_default().trim().to_string();
            self.cookie = jar(self.cookie.as_deref(), &kv);
        }
        Ok(reply)
    }

    /// The bytes of a request as this client sends it: its session cookie, the CSRF header
    /// (when on), and `Connection` as `keep_alive` says. For a driver that sends them over
    /// a connection of its own (the load benchmark's asynchronous clients).
    pub fn request(&self, method: &str, path: &str, content_type: &str, body: &[u8]) -> Vec<u8> {
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: {}\r\nContent-Length: {}\r\n",
            self.addr,
            if self.keep_alive { "keep-alive" } else { "close" },
            body.len()
        );
        if !content_type.is_empty() {
            head.push_str(&format!("Content-Type: {content_type}\r\n"));
        }
        if self.csrf {
            head.push_str("X-Ostrov-Csrf: 1\r\n");
        }
        if let Some(c) = &self.cookie {
            head.push_str(&format!("Cookie: {c}\r\n"));
        }
        head.push_str("\r\n");
        let mut out = head.into_bytes();
        out.extend_from_slice(body);
        out
    }

    /// Sends JSON (or nothing for `None`).
    pub fn call(&mut self, method: &str, path: &str, body: Option<&serde_json::Value>) -> std::io::Result<Reply> {
        match body {
            Some(b) => self.raw(method, path, "application/json", b.to_string().as_bytes()),
            None => self.raw(method, path, "", b""),
        }
    }

    pub fn get(&mut self, path: &str) -> std::io::Result<Reply> {
        self.call("GET", path, None)
    }

    pub fn post(&mut self, path: &str, body: serde_json::Value) -> std::io::Result<Reply> {
        self.call("POST", path, Some(&body))
    }
}

/// Reads a response up to the end of the connection: its head and the rest.
fn read_to_close(conn: &mut BufReader<TcpStream>) -> std::io::Result<(String, Vec<u8>)> {
    let mut buf = Vec::new();
    conn.read_to_end(&mut buf)?;
    let split = buf.windows(4).position(|w| w == b"\r\n\r\n").unwrap_or(buf.len());
    let head = String::from_utf8_lossy(&buf[..split]).into_owned();
    let rest = buf.get(split + 4..).unwrap_or_default().to_vec();
    Ok((head, rest))
}

/// Reads exactly one response off a kept-alive connection: its head and its body (by
/// `Content-Length`, or chunk by chunk up to the last one, raw, for [`dechunk`]).
fn read_one(conn: &mut BufReader<TcpStream>) -> std::io::Result<(String, Vec<u8>)> {
    let eof = || std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "the server closed the connection");
    let mut head = String::new();
    loop {
        let mut line = String::new();
        if conn.read_line(&mut line)? == 0 {
            return Err(eof());
        }
        if line == "\r\n" || line == "\n" {
            break;
        }
        head.push_str(&line);
    }
    let value = |name: &str| header_in(&head, name).map(str::to_ascii_lowercase);
    let mut body = Vec::new();
    if value("transfer-encoding").is_some_and(|v| v.contains("chunked")) {
        loop {
            let mut size = String::new();
            if conn.read_line(&mut size)? == 0 {
                return Err(eof());
            }
            body.extend_from_slice(size.as_bytes());
            let n = usize::from_str_radix(size.trim(), 16)
                .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "a bad chunk size"))?;
            let mut chunk = vec![0; n + 2];
            conn.read_exact(&mut chunk)?;
            body.extend_from_slice(&chunk);
            if n == 0 {
                break;
            }
        }
    } else {
        let n = value("content-length").and_then(|v| v.parse().ok()).unwrap_or(0);
        body.resize(n, 0);
        conn.read_exact(&mut body)?;
    }
    Ok((head.trim_end().to_string(), body))
}

/// The value of the header `name` (any case) in a response head, trimmed.
pub fn header_in<'h>(head: &'h str, name: &str) -> Option<&'h str> {
    head.lines()
        .filter_map(|l| l.split_once(':'))
        .find(|(k, _)| k.trim().eq_ignore_ascii_case(name))
        .map(|(_, v)| v.trim())
}

fn dechunk(mut rest: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = rest.windows(2).position(|w| w == b"\r\n") {
        let size = String::from_utf8_lossy(&rest[..eol]).into_owned();
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else { break };
        let after = &rest[eol + 2..];
        if n == 0 || after.len() < n {
            break;
        }
        out.extend_from_slice(&after[..n]);
        rest = after[n..].strip_prefix(b"\r\n").unwrap_or(&after[n..]);
    }
    out
}

/// The `Cookie` header after a `Set-Cookie` of `kv` (`name=value`; an empty value removes
/// the cookie): every cookie the server set, the latest value of each.
fn jar(cookies: Option<&str>, kv: &str) -> Option<String> {
    let name = kv.split('=').next().unwrap_or_default();
    let mut all: Vec<&str> = cookies
        .unwrap_or_default()
        .split("; ")
        .filter(|c| !c.is_empty() && c.split('=').next() != Some(name))
        .collect();
    if !kv.ends_with('=') {
        all.push(kv);
    }
    (!all.is_empty()).then(|| all.join("; "))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::json;

    use crate::local::{LocalServer, ManualClock};

    /// A kept-alive client sends request after request on one connection (a chunked or
    /// sized body read exactly, never waiting for the close), and opens a new one when the
    /// old one is gone.
    #[test]
    fn keep_alive_reuses_one_connection() {
        let server = LocalServer::start(":memory:", Arc::new(ManualClock::new(1_796_108_400))).unwrap();
        let mut c = server.client().keep_alive();
        let r = c.post("/api/signup", json!({"name": "Аня", "password": "password-123"})).unwrap();
        assert_eq!(r.status, 200, "{}", r.body);
        let port = |c: &super::Client| c.conn.as_ref().map(|(_, s)| s.get_ref().local_addr().unwrap().port());
        let first = port(&c).expect("the connection is kept");
        for _ in 0..5 {
            let me = c.get("/api/me").unwrap();
            assert_eq!(me.status, 200, "{}", me.body);
            assert_eq!(me.json()["name"], json!("Аня"));
            assert_eq!(port(&c), Some(first), "the same connection");
        }
        let missing = c.get("/no-such-page").unwrap();
        assert_eq!(missing.status, 404);
        c.conn = None;
        assert_eq!(c.get("/api/me").unwrap().status, 200, "a new connection, the same session");
        assert_ne!(port(&c), Some(first));
        server.stop();
    }
}
