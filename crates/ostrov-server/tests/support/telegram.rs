//! A stand-in for Telegram's Bot API on loopback: `getMe`, `getUpdates` (offsets, a long
//! poll bounded by its `timeout`), `sendMessage`, `answerCallbackQuery`, in Telegram's JSON,
//! with injected 429s (`retry_after`) and outages. Every request is recorded with the path
//! it came on, so a test can tell which node polled; nothing leaves the machine.

#![allow(dead_code)]

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// The stand-in's token: what the server is given.
pub const TOKEN: &str = "4242:test-token_SECRET";
/// The bot's user name.
pub const BOT: &str = "ostrov_test_bot";

/// A message the bot sent.
#[derive(Clone, Debug, PartialEq)]
pub struct Sent {
    pub chat: i64,
    pub text: String,
    pub markup: Option<Value>,
}

#[derive(Default)]
struct Inner {
    updates: VecDeque<Value>,
    next_update: i64,
    sent: Vec<Sent>,
    /// Every request: (the path before `/bot…`, the method).
    calls: Vec<(String, String)>,
    /// Paths whose `getUpdates` overlapped another's (Telegram answers 409).
    overlaps: usize,
    polling: usize,
}

/// The stand-in; dropping it stops it.
pub struct BotApi {
    pub addr: SocketAddr,
    inner: Arc<(Mutex<Inner>, Condvar)>,
    /// The next this many `sendMessage` get a 429 with `retry_after` = `retry_secs`.
    pub throttle: Arc<AtomicUsize>,
    pub retry_secs: Arc<AtomicI64>,
    /// While set, every request's connection is closed without an answer (an outage).
    pub down: Arc<AtomicBool>,
    /// While set, `sendMessage` is read but never answered (the connection is held open):
    /// a request lost in flight, not delivered.
    pub hang_sends: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
}

impl BotApi {
    pub fn start() -> BotApi {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap();
        let inner: Arc<(Mutex<Inner>, Condvar)> = Arc::default();
        inner.0.lock().unwrap().next_update = 1;
        let api = BotApi {
            addr,
            inner: inner.clone(),
            throttle: Arc::default(),
            retry_secs: Arc::new(AtomicI64::new(1)),
            down: Arc::default(),
            hang_sends: Arc::default(),
            stop: Arc::default(),
        };
        let (throttle, retry, down, hang, stop) =
            (api.throttle.clone(), api.retry_secs.clone(), api.down.clone(), api.hang_sends.clone(), api.stop.clone());
        std::thread::spawn(move || {
            for conn in l.incoming() {
                if stop.load(Ordering::SeqCst) {
                    return;
                }
                let Ok(conn) = conn else { continue };
                let inner = inner.clone();
                let (throttle, retry, down, hang) = (throttle.clone(), retry.clone(), down.clone(), hang.clone());
                std::thread::spawn(move || serve(conn, &inner, &throttle, &retry, &down, &hang));
            }
        });
        api
    }

    /// The base address a server is given (`--telegram-api`), with a path naming the node.
    pub fn url(&self, node: &str) -> String {
        format!("http://{}/{node}", self.addr)
    }

    /// A player writes `text` in their private chat with the bot.
    pub fn say(&self, chat: i64, text: &str) {
        self.push(|id| {
            json!({"update_id": id, "message": {"message_id": id, "date": 0, "text": text,
                "chat": {"id": chat, "type": "private"}, "from": {"id": chat, "is_bot": false, "first_name": "И"}}})
        });
    }

    /// A message in a group chat (the bot must ignore it).
    pub fn say_in_group(&self, chat: i64, text: &str) {
        self.push(|id| {
            json!({"update_id": id, "message": {"message_id": id, "date": 0, "text": text,
                "chat": {"id": chat, "type": "group"}, "from": {"id": 1, "is_bot": false, "first_name": "И"}}})
        });
    }

    /// A player presses a button with `data`.
    pub fn press(&self, chat: i64, data: &str) {
        self.push(|id| {
            json!({"update_id": id, "callback_query": {"id": format!("cb{id}"), "data": data,
                "from": {"id": chat, "is_bot": false, "first_name": "И"},
                "message": {"message_id": 1, "date": 0, "chat": {"id": chat, "type": "private"}}}})
        });
    }

    fn push(&self, make: impl FnOnce(i64) -> Value) {
        let (m, cv) = &*self.inner;
        let mut g = m.lock().unwrap();
        let id = g.next_update;
        g.next_update += 1;
        g.updates.push_back(make(id));
        cv.notify_all();
    }

    /// Everything sent so far.
    pub fn sent(&self) -> Vec<Sent> {
        self.inner.0.lock().unwrap().sent.clone()
    }

    /// What chat `chat` was sent.
    pub fn to(&self, chat: i64) -> Vec<String> {
        self.sent().into_iter().filter(|s| s.chat == chat).map(|s| s.text).collect()
    }

    /// Every request so far: (node path, method).
    pub fn calls(&self) -> Vec<(String, String)> {
        self.inner.0.lock().unwrap().calls.clone()
    }

    /// How many `getUpdates` ran while another was open.
    pub fn overlaps(&self) -> usize {
        self.inner.0.lock().unwrap().overlaps
    }

    /// Waits (up to `secs`) until `ok` holds of what was sent; panics with it otherwise.
    pub fn wait_until(&self, secs: u64, what: &str, ok: impl Fn(&[Sent]) -> bool) -> Vec<Sent> {
        let end = Instant::now() + Duration::from_secs(secs);
        loop {
            let sent = self.sent();
            if ok(&sent) {
                return sent;
            }
            assert!(Instant::now() < end, "waited {secs} s for {what}; sent: {sent:#?}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits until chat `chat` was sent a message containing `part`: that message.
    pub fn wait_for(&self, chat: i64, part: &str) -> String {
        let sent = self.wait_until(20, &format!("«{part}» in chat {chat}"), |s| {
            s.iter().any(|m| m.chat == chat && m.text.contains(part))
        });
        sent.into_iter().rev().find(|m| m.chat == chat && m.text.contains(part)).unwrap().text
    }

    /// The last message chat `chat` was sent once `n` were (waits for it).
    pub fn nth(&self, chat: i64, n: usize) -> Sent {
        let sent = self.wait_until(20, &format!("{n} messages to chat {chat}"), |s| {
            s.iter().filter(|m| m.chat == chat).count() >= n
        });
        sent.into_iter().filter(|m| m.chat == chat).nth(n - 1).unwrap()
    }
}

impl Drop for BotApi {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.addr);
    }
}

fn answer(conn: &mut TcpStream, status: u16, body: &Value) {
    let b = body.to_string();
    let _ = write!(
        conn,
        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{b}",
        b.len()
    );
}

fn serve(
    mut conn: TcpStream,
    inner: &(Mutex<Inner>, Condvar),
    throttle: &AtomicUsize,
    retry: &AtomicI64,
    down: &AtomicBool,
    hang: &AtomicBool,
) {
    let mut r = BufReader::new(conn.try_clone().unwrap());
    let mut line = String::new();
    if r.read_line(&mut line).is_err() {
        return;
    }
    let path = line.split(' ').nth(1).unwrap_or("").to_string();
    let mut len = 0;
    loop {
        let mut h = String::new();
        if r.read_line(&mut h).is_err() || h == "\r\n" || h.is_empty() {
            break;
        }
        if let Some(v) = h.to_ascii_lowercase().strip_prefix("content-length:") {
            len = v.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; len];
    if r.read_exact(&mut body).is_err() {
        return;
    }
    if down.load(Ordering::SeqCst) {
        return;
    }
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let Some((node, rest)) = path.split_once("/bot") else { return };
    let Some((token, method)) = rest.split_once('/') else { return };
    let (m, cv) = inner;
    m.lock().unwrap().calls.push((node.to_string(), method.to_string()));
    if token != TOKEN {
        answer(&mut conn, 401, &json!({"ok": false, "error_code": 401, "description": "Unauthorized"}));
        return;
    }
    match method {
        "getMe" => answer(
            &mut conn,
            200,
            &json!({"ok": true, "result": {"id": 4242, "is_bot": true, "first_name": "Остров", "username": BOT}}),
        ),
        "getUpdates" => {
            let offset = body["offset"].as_i64().unwrap_or(0);
            // A long poll, but never longer than a second here.
            let wait = Duration::from_secs(body["timeout"].as_u64().unwrap_or(0).min(1));
            let end = Instant::now() + wait;
            let mut g = m.lock().unwrap();
            if g.polling > 0 {
                g.overlaps += 1;
                drop(g);
                answer(
                    &mut conn,
                    409,
                    &json!({"ok": false, "error_code": 409, "description": "Conflict: terminated by other getUpdates request"}),
                );
                return;
            }
            g.polling += 1;
            // Telegram forgets the updates below the offset.
            while g.updates.front().is_some_and(|u| u["update_id"].as_i64().unwrap_or(0) < offset) {
                g.updates.pop_front();
            }
            while g.updates.is_empty() && Instant::now() < end {
                let left = end.saturating_duration_since(Instant::now());
                g = cv.wait_timeout(g, left).unwrap().0;
            }
            let out: Vec<Value> = g.updates.iter().cloned().collect();
            g.polling -= 1;
            drop(g);
            answer(&mut conn, 200, &json!({"ok": true, "result": out}));
        }
        "sendMessage" => {
            if throttle.load(Ordering::SeqCst) > 0 {
                throttle.fetch_sub(1, Ordering::SeqCst);
                let s = retry.load(Ordering::SeqCst);
                answer(
                    &mut conn,
                    429,
                    &json!({"ok": false, "error_code": 429,
                    "description": format!("Too Many Requests: retry after {s}"), "parameters": {"retry_after": s}}),
                );
                return;
            }
            if hang.load(Ordering::SeqCst) {
                // Never answered, never delivered: the sender's process dies meanwhile.
                std::thread::sleep(Duration::from_secs(60));
                return;
            }
            let chat = body["chat_id"].as_i64().unwrap_or(0);
            let text = body["text"].as_str().unwrap_or("").to_string();
            if text.is_empty() || text.chars().count() > 4096 {
                answer(
                    &mut conn,
                    400,
                    &json!({"ok": false, "error_code": 400, "description": "Bad Request: message text is empty or too long"}),
                );
                return;
            }
            let markup = body.get("reply_markup").cloned();
            m.lock().unwrap().sent.push(Sent { chat, text: text.clone(), markup });
            answer(
                &mut conn,
                200,
                &json!({"ok": true, "result": {"message_id": 1, "date": 0, "chat": {"id": chat, "type": "private"}, "text": text}}),
            );
        }
        "answerCallbackQuery" => answer(&mut conn, 200, &json!({"ok": true, "result": true})),
        _ => answer(&mut conn, 404, &json!({"ok": false, "error_code": 404, "description": "Not Found"})),
    }
}
