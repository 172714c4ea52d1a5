//! The server's listening socket and its connections (issue 28, point 13): how long a
//! client may stay silent, and how many connections one address and the whole server
//! hold, so that no client can use up the process's file descriptors and lock everyone out.
//!
//! - **Header timeout** ([`Limits::header`]): a request's head must arrive within it, and a
//!   kept-alive connection waits that long for the next request; a silent or half-sent
//!   head is closed.
//! - **Idle timeout** ([`Limits::idle`]): a connection on which no byte moved either way for
//!   that long is closed (a body sent in dribbles, a client that stopped reading). The live
//!   stream's keep-alive comment every 20 s keeps a healthy stream moving.
//! - **Body time** ([`Limits::body`]): a request's whole body must arrive within it, however
//!   steadily it comes (a byte every few seconds never trips the idle timeout); past it the
//!   request is answered with a 408 in Russian and the connection closed
//!   ([`crate::harden::body_in_time`]).
//! - **Connections per address** ([`Limits::per_address`], an IPv6 address by its /64) and
//!   **in all** ([`Limits::total`], the descriptors the process may open less a reserve
//!   for the database and files): past either, the connection is answered at once with a
//!   429 in Russian and closed. Behind a trusted proxy every connection comes from the
//!   proxy, so only the total counts there.

use std::collections::HashMap;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::extract::ConnectInfo;
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpSocket, TcpStream};

/// How many connections may wait to be accepted. At a deadline a thousand players may
/// connect in the same second; the usual 1,024 would drop the rest's first SYN, and they
/// would wait a second (or three) for the retry. The kernel caps it at `net.core.somaxconn`.
pub const BACKLOG: u32 = 4096;

/// How long a request's head may take to arrive (and a kept-alive connection may wait).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a connection may go with no byte moving either way.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a request's whole body may take to arrive (64 KiB at most: a slow phone sends
/// that in a second or two).
pub const BODY_TIMEOUT: Duration = Duration::from_secs(20);
/// Connections one client address may hold at once.
pub const CONNECTIONS_PER_ADDRESS: usize = 256;
/// Descriptors kept for the server's own use (the database, its journal, the static files).
pub const RESERVED_DESCRIPTORS: u64 = 64;

/// The connection limits of a server (see the module's documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub header: Duration,
    pub idle: Duration,
    pub body: Duration,
    pub per_address: usize,
    pub total: usize,
}

impl Limits {
    /// The limits for a process that may open `descriptors` files.
    pub fn for_descriptors(descriptors: u64) -> Limits {
        let total = descriptors.saturating_sub(RESERVED_DESCRIPTORS).clamp(16, 1 << 20) as usize;
        Limits {
            header: HEADER_TIMEOUT,
            idle: IDLE_TIMEOUT,
            body: BODY_TIMEOUT,
            per_address: CONNECTIONS_PER_ADDRESS.min(total),
            total,
        }
    }

    /// The limits for this process's descriptor limit as it stands now.
    pub fn for_process() -> Limits {
        Limits::for_descriptors(crate::process::descriptor_limit().unwrap_or(1024))
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits::for_process()
    }
}

/// Listens on `addr` (`host:port`; the first address it resolves to) with [`BACKLOG`].
pub async fn listen(addr: &str) -> io::Result<TcpListener> {
    let mut last = None;
    for a in tokio::net::lookup_host(addr).await? {
        let socket = if a.is_ipv4() { TcpSocket::new_v4()? } else { TcpSocket::new_v6()? };
        socket.set_reuseaddr(true)?;
        match socket.bind(a).and_then(|()| socket.listen(BACKLOG)) {
            Ok(l) => return Ok(l),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::new(io::ErrorKind::NotFound, format!("{addr}: no address"))))
}

/// The key of a client address: an IPv4 address itself, an IPv6 address its /64 network.
pub fn bucket(a: IpAddr) -> IpAddr {
    match a {
        IpAddr::V4(_) => a,
        IpAddr::V6(v6) => {
            let s = v6.segments();
            IpAddr::V6(std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
        }
    }
}

/// The open connections, in all and by address.
#[derive(Default)]
struct Open {
    total: usize,
    by_address: HashMap<IpAddr, usize>,
}

/// A connection's place among the open ones; given back when it closes.
struct Held {
    open: Arc<Mutex<Open>>,
    address: Option<IpAddr>,
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut o = self.open.lock().unwrap_or_else(|p| p.into_inner());
        o.total -= 1;
        if let Some(a) = self.address {
            if let Some(n) = o.by_address.get_mut(&a) {
                *n -= 1;
                if *n == 0 {
                    o.by_address.remove(&a);
                }
            }
        }
    }
}

/// Takes a place for a connection from `peer`, or the Russian reason it is refused.
fn admit(open: &Arc<Mutex<Open>>, limits: &Limits, peer: Option<IpAddr>) -> Result<Held, &'static str> {
    let mut o = open.lock().unwrap_or_else(|p| p.into_inner());
    if o.total >= limits.total {
        return Err("Сервер сейчас держит слишком много соединений: повторите через несколько секунд.");
    }
    if let Some(a) = peer {
        let n = o.by_address.entry(a).or_default();
        if *n >= limits.per_address {
            return Err("С вашего адреса открыто слишком много соединений: закройте лишние вкладки и повторите.");
        }
        *n += 1;
    }
    o.total += 1;
    Ok(Held { open: open.clone(), address: peer })
}

/// Answers a refused connection with a 429 in Russian and closes it.
async fn refuse(mut tcp: TcpStream, why: &'static str) {
    let body = serde_json::json!({"error": "too_many_connections", "message": why}).to_string();
    let head = format!(
        "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nRetry-After: 10\r\n\
         Cache-Control: no-store\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    let send = async {
        tcp.write_all(head.as_bytes()).await?;
        tcp.write_all(body.as_bytes()).await?;
        tcp.shutdown().await
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), send).await;
}

/// A connection that notes when a byte last moved on it.
struct Watched {
    io: TcpStream,
    last: Arc<AtomicU64>,
    since: Instant,
}

impl Watched {
    fn touch(&self) {
        self.last.store(self.since.elapsed().as_millis() as u64, Ordering::Relaxed);
    }
}

impl AsyncRead for Watched {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.io).poll_read(cx, buf);
        if matches!(r, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.touch();
        }
        r
    }
}

impl AsyncWrite for Watched {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.io).poll_write(cx, buf);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.touch();
        }
        r
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.io).poll_write_vectored(cx, bufs);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.touch();
        }
        r
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

/// Serves `router` on `listener` with `limits` until the process stops. Each request knows
/// its peer's address (`ConnectInfo<SocketAddr>`); `trust_proxy`: every connection comes
/// from the proxy, so connections are not counted per address.
pub async fn serve(listener: TcpListener, router: Router, limits: Limits, trust_proxy: bool) -> io::Result<()> {
    let open = Arc::new(Mutex::new(Open::default()));
    loop {
        let (tcp, peer) = match listener.accept().await {
            Ok(c) => c,
            Err(e) => {
                // Out of descriptors or a connection reset before it was accepted: wait a
                // little and go on (the limits above keep the first rare).
                eprintln!("ostrov-server: accepting a connection: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let address = (!trust_proxy).then(|| bucket(peer.ip()));
        let held = match admit(&open, &limits, address) {
            Ok(h) => h,
            Err(why) => {
                tokio::spawn(refuse(tcp, why));
                continue;
            }
        };
        let _ = tcp.set_nodelay(true);
        let router = router.clone();
        tokio::spawn(async move {
            let _held = held;
            let last = Arc::new(AtomicU64::new(0));
            let since = Instant::now();
            let io = TokioIo::new(Watched { io: tcp, last: last.clone(), since });
            let service = tower::ServiceExt::map_request(router, move |mut r: axum::extract::Request<_>| {
                r.extensions_mut().insert(ConnectInfo(peer));
                r
            });
            let service = hyper_util::service::TowerToHyperService::new(service);
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder.timer(TokioTimer::new()).header_read_timeout(limits.header).keep_alive(true);
            let conn = builder.serve_connection(io, service);
            tokio::pin!(conn);
            let tick = (limits.idle / 4).max(Duration::from_millis(100));
            loop {
                tokio::select! {
                    _ = conn.as_mut() => break,
                    _ = tokio::time::sleep(tick) => {
                        let quiet = since.elapsed().saturating_sub(Duration::from_millis(last.load(Ordering::Relaxed)));
                        if quiet >= limits.idle {
                            break;
                        }
                    }
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn listens_on_a_free_port_and_names_a_bad_address() {
        let l = listen("127.0.0.1:0").await.expect("a free port");
        assert_ne!(l.local_addr().unwrap().port(), 0);
        let e = listen("no-such-host.invalid:80").await.expect_err("no such host");
        assert!(!e.to_string().is_empty());
    }

    /// Issue 28, point 13.
    #[test]
    fn connections_are_capped_per_address_and_in_all() {
        let limits = Limits { per_address: 2, total: 3, ..Limits::for_descriptors(1024) };
        let open = Arc::new(Mutex::new(Open::default()));
        let (a, b) = (Some("10.0.0.1".parse().unwrap()), Some("2001:db8::1".parse().unwrap()));
        let a1 = admit(&open, &limits, a).unwrap();
        let _a2 = admit(&open, &limits, a).unwrap();
        assert!(admit(&open, &limits, a).err().unwrap().contains("С вашего адреса"));
        let _b1 = admit(&open, &limits, b).unwrap();
        assert!(admit(&open, &limits, b).err().unwrap().contains("слишком много соединений"));
        drop(a1);
        assert!(admit(&open, &limits, a).is_ok(), "a closed connection gives its place back");
        assert_eq!(Limits::for_descriptors(1024).total, 1024 - RESERVED_DESCRIPTORS as usize);
    }
}
