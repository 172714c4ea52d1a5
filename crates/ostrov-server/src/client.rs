//! A small blocking HTTP/1.1 client for the JSON API, for tests and load measurements
//! against a real server on a loopback port. It keeps the session cookie and sends the
//! CSRF header on every request, as the web pages do.

use std::io::{Read, Write};
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
#[derive(Clone, Debug)]
pub struct Client {
    pub addr: SocketAddr,
    pub cookie: Option<String>,
    /// Send `X-Ostrov-Csrf: 1` (on by default; off to play a forged cross-site request).
    pub csrf: bool,
}

impl Client {
    pub fn new(addr: SocketAddr) -> Client {
        Client { addr, cookie: None, csrf: true }
    }

    /// Sends a request with a raw body; one connection per request.
    pub fn raw(&mut self, method: &str, path: &str, content_type: &str, body: &[u8]) -> std::io::Result<Reply> {
        let mut s = TcpStream::connect(self.addr)?;
        s.set_read_timeout(Some(Duration::from_secs(60)))?;
        s.set_nodelay(true)?;
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Length: {}\r\n",
            self.addr,
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
        s.write_all(head.as_bytes())?;
        s.write_all(body)?;
        let mut buf = Vec::new();
        s.read_to_end(&mut buf)?;
        let split = buf.windows(4).position(|w| w == b"\r\n\r\n").unwrap_or(buf.len());
        let head = String::from_utf8_lossy(&buf[..split]).into_owned();
        let rest = buf.get(split + 4..).unwrap_or_default();
        let mut lines = head.lines();
        let status = lines.next().and_then(|l| l.split_whitespace().nth(1)).and_then(|c| c.parse().ok()).unwrap_or(0);
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect();
        let chunked = headers.iter().any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"));
        let body = String::from_utf8_lossy(&if chunked { dechunk(rest) } else { rest.to_vec() }).into_owned();
        let reply = Reply { status, headers, body };
        if let Some(c) = reply.header("set-cookie") {
            let kv = c.split(';').next().unwrap_or_default().to_string();
            self.cookie = if kv.ends_with('=') { None } else { Some(kv) };
        }
        Ok(reply)
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
