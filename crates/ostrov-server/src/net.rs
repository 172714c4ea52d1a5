//! The server's listening socket.

use tokio::net::{TcpListener, TcpSocket};

/// How many connections may wait to be accepted. At a deadline a thousand players may
/// connect in the same second; the usual 1,024 would drop the rest's first SYN, and they
/// would wait a second (or three) for the retry. The kernel caps it at `net.core.somaxconn`.
pub const BACKLOG: u32 = 4096;

/// Listens on `addr` (`host:port`; the first address it resolves to) with [`BACKLOG`].
pub async fn listen(addr: &str) -> std::io::Result<TcpListener> {
    let mut last = None;
    for a in tokio::net::lookup_host(addr).await? {
        let socket = if a.is_ipv4() { TcpSocket::new_v4()? } else { TcpSocket::new_v6()? };
        socket.set_reuseaddr(true)?;
        match socket.bind(a).and_then(|()| socket.listen(BACKLOG)) {
            Ok(l) => return Ok(l),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, format!("{addr}: no address"))))
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
}
