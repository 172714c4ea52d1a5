//! A stand-in SMTP server on loopback (a sink): it speaks enough of RFC 5321 for the
//! server's client (`EHLO`, `AUTH PLAIN`, `MAIL`, `RCPT`, `DATA`, `QUIT`), records every
//! message with its headers and its decoded body, and can refuse a recipient (550) or be
//! down (421 and close). Nothing leaves the machine.

#![allow(dead_code)]

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One message the sink took.
#[derive(Clone, Debug)]
pub struct Mail {
    pub from: String,
    pub to: String,
    /// The `AUTH PLAIN` credentials it came with (user, password), if any.
    pub login: Option<(String, String)>,
    /// Headers, names in lower case, encoded words decoded.
    pub headers: Vec<(String, String)>,
    /// The body, base64 decoded.
    pub body: String,
    pub raw: String,
}

impl Mail {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// The first link in the body that starts with `prefix`.
    pub fn link(&self, prefix: &str) -> Option<String> {
        let at = self.body.find(prefix)?;
        Some(self.body[at..].split(|c: char| c.is_whitespace()).next()?.to_string())
    }
}

/// The sink; dropping it stops it.
pub struct Sink {
    pub addr: SocketAddr,
    mails: Arc<Mutex<Vec<Mail>>>,
    /// Recipients answered 550.
    pub refuse: Arc<Mutex<HashSet<String>>>,
    /// While set, every connection is answered 421 and closed.
    pub down: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
}

impl Sink {
    pub fn start() -> Sink {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap();
        let sink =
            Sink { addr, mails: Arc::default(), refuse: Arc::default(), down: Arc::default(), stop: Arc::default() };
        let (mails, refuse, down, stop) =
            (sink.mails.clone(), sink.refuse.clone(), sink.down.clone(), sink.stop.clone());
        std::thread::spawn(move || {
            for conn in l.incoming() {
                if stop.load(Ordering::SeqCst) {
                    return;
                }
                let Ok(conn) = conn else { continue };
                let (mails, refuse, down) = (mails.clone(), refuse.clone(), down.clone());
                std::thread::spawn(move || {
                    let _ = serve(conn, &mails, &refuse, &down);
                });
            }
        });
        sink
    }

    /// `smtp://host:port` of the sink.
    pub fn url(&self) -> String {
        format!("smtp://{}", self.addr)
    }

    pub fn mails(&self) -> Vec<Mail> {
        self.mails.lock().unwrap().clone()
    }

    /// The mails to `to`.
    pub fn to(&self, to: &str) -> Vec<Mail> {
        self.mails().into_iter().filter(|m| m.to == to).collect()
    }

    /// Waits (up to 20 s) for a mail to `to` whose subject or body holds `needle`.
    pub fn wait_for(&self, to: &str, needle: &str) -> Mail {
        let until = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(m) = self
                .to(to)
                .into_iter()
                .find(|m| m.body.contains(needle) || m.header("subject").is_some_and(|s| s.contains(needle)))
            {
                return m;
            }
            assert!(Instant::now() < until, "no mail to {to} with {needle:?}: {:#?}", self.to(to));
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.addr);
    }
}

fn serve(
    conn: TcpStream,
    mails: &Mutex<Vec<Mail>>,
    refuse: &Mutex<HashSet<String>>,
    down: &AtomicBool,
) -> std::io::Result<()> {
    conn.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut w = conn.try_clone()?;
    let mut r = BufReader::new(conn);
    if down.load(Ordering::SeqCst) {
        w.write_all(b"421 sink: service not available\r\n")?;
        return Ok(());
    }
    w.write_all(b"220 sink ESMTP\r\n")?;
    let (mut from, mut to, mut login) = (String::new(), String::new(), None);
    loop {
        let mut line = String::new();
        if r.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let line = line.trim_end_matches(['\r', '\n']).to_string();
        let upper = line.to_ascii_uppercase();
        if upper.starts_with("EHLO") {
            w.write_all(b"250-sink\r\n250-AUTH PLAIN\r\n250 8BITMIME\r\n")?;
        } else if let Some(p) = line.strip_prefix("AUTH PLAIN ") {
            let raw = String::from_utf8(decode64(p)).unwrap_or_default();
            let parts: Vec<&str> = raw.split('\0').collect();
            login = parts.get(1..3).map(|p| (p[0].to_string(), p[1].to_string()));
            w.write_all(b"235 ok\r\n")?;
        } else if upper.starts_with("MAIL FROM:") {
            from = line[10..].trim_matches(['<', '>', ' ']).to_string();
            w.write_all(b"250 ok\r\n")?;
        } else if upper.starts_with("RCPT TO:") {
            to = line[8..].trim_matches(['<', '>', ' ']).to_string();
            if refuse.lock().unwrap().contains(&to) {
                w.write_all(b"550 no such user\r\n")?;
            } else {
                w.write_all(b"250 ok\r\n")?;
            }
        } else if upper == "DATA" {
            w.write_all(b"354 go on\r\n")?;
            let mut raw = String::new();
            loop {
                let mut l = String::new();
                if r.read_line(&mut l)? == 0 {
                    return Ok(());
                }
                if l == ".\r\n" {
                    break;
                }
                raw.push_str(l.strip_prefix('.').unwrap_or(&l));
            }
            mails.lock().unwrap().push(parse(&from, &to, login.clone(), raw));
            w.write_all(b"250 queued\r\n")?;
        } else if upper == "QUIT" {
            w.write_all(b"221 bye\r\n")?;
            return Ok(());
        } else {
            w.write_all(b"502 what?\r\n")?;
        }
    }
}

fn parse(from: &str, to: &str, login: Option<(String, String)>, raw: String) -> Mail {
    let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((&raw, ""));
    let mut headers: Vec<(String, String)> = Vec::new();
    for line in head.split("\r\n") {
        if line.starts_with(' ') || line.starts_with('\t') {
            if let Some(last) = headers.last_mut() {
                last.1.push_str(&words(line.trim()));
            }
            continue;
        }
        if let Some((k, v)) = line.split_once(':') {
            headers.push((k.trim().to_ascii_lowercase(), words(v.trim())));
        }
    }
    let body = String::from_utf8(decode64(&body.replace("\r\n", ""))).unwrap_or_default().replace("\r\n", "\n");
    Mail { from: from.into(), to: to.into(), login, headers, body, raw }
}

/// RFC 2047 encoded words (UTF-8, base64) decoded.
fn words(v: &str) -> String {
    v.split_whitespace()
        .map(|w| match w.strip_prefix("=?UTF-8?B?").and_then(|w| w.strip_suffix("?=")) {
            Some(b) => String::from_utf8(decode64(b)).unwrap_or_default(),
            None => format!("{w} "),
        })
        .collect::<String>()
        .trim_end()
        .to_string()
}

pub fn decode64(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for c in s.bytes().filter_map(val) {
        acc = acc << 6 | c as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}
