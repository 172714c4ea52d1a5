//! Forwarding to the node that owns a game (issue 34). On a store several nodes share,
//! each game is written by the node holding its lease; a request that would write a game
//! another node holds (found when its commit asks the store who owns the game, before
//! anything is done) is sent on to that node as it came, and that node's answer is the
//! answer. Reads are served by any node from the log.
//!
//! The middleware keeps the body of every request that may write (not `GET` or `HEAD`)
//! while it is handled here; the commit notes the owner's address ([`note`]) in a
//! task-local of the request. The forwarded request carries the client's address and a
//! token only the nodes know (a keyed hash with the server's secret, which every node
//! shares through the store): the owner takes the client's address from it (rate limits,
//! sightings) and never forwards it again.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use ostrov_store::Store;

use crate::app::AppState;
use crate::error::ApiError;
use crate::harden::ClientAddr;

tokio::task_local! {
    /// The owner of the game the request found held elsewhere.
    static OWNER: RefCell<Option<String>>;
}

/// The node's token on a forwarded request.
const TOKEN: &str = "x-ostrov-node";
/// The client's address on a forwarded request.
const CLIENT: &str = "x-ostrov-client";

/// How long a node owns a game without renewing its lease, by default (`ostrov serve
/// --lease-seconds`): a game whose node is gone is taken over after this long.
pub const LEASE_SECONDS: u64 = 3;

/// How long a request waits for the owner of its game to answer (or to be replaced).
const PATIENCE: Duration = Duration::from_secs(10);

/// How long one forwarded request waits for the owner's answer: the lease time (an owner
/// that answers nothing for that long may be paused or gone, and its lease over), at most
/// [`PATIENCE`].
fn owner_patience<S: Store>(st: &AppState<S>) -> Duration {
    st.store.lease_time().map_or(PATIENCE, |l| l.min(PATIENCE))
}

/// The owner at `addr` did not answer (or could not be reached): this node no longer
/// forwards game `game`'s requests to it without asking the store who holds the game
/// (which takes the game over once that owner's lease has run out).
fn silent<S: Store>(st: &AppState<S>, game: Option<i64>, addr: &str, why: &dyn std::fmt::Display) {
    eprintln!("ostrov-server: forwarding to {addr}: {why}");
    if let Some(g) = game {
        st.store.forget_owner(g, addr);
    }
}

/// How long after an owner did not answer the request is tried again.
const RETRY: Duration = Duration::from_millis(250);

/// Notes that the request being handled found its game held by the node at `addr`.
pub fn note(addr: &str) {
    let _ = OWNER.try_with(|o| *o.borrow_mut() = Some(addr.to_string()));
}

/// The headers a hop does not pass on.
fn hop(name: &HeaderName) -> bool {
    matches!(
        name.as_str(),
        "connection" | "keep-alive" | "transfer-encoding" | "te" | "upgrade" | "proxy-connection" | "content-length"
    )
}

/// The middleware (see the module's documentation).
pub async fn layer<S: Store>(State(st): State<Arc<AppState<S>>>, mut req: Request, next: Next) -> Response {
    if !st.store.shared() {
        return next.run(req).await;
    }
    let token = st.sightings.node_token();
    let from_node = req.headers().get(TOKEN).is_some_and(|t| t.as_bytes() == token.as_bytes());
    if from_node {
        let client = req.headers().get(CLIENT).and_then(|v| v.to_str().ok()).and_then(|v| v.parse().ok());
        req.extensions_mut().insert(ClientAddr(client));
        return next.run(req).await;
    }
    if req.method() == Method::GET || req.method() == Method::HEAD {
        return next.run(req).await;
    }
    let (parts, body) = req.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, crate::harden::MAX_BODY).await else {
        return ApiError::BadRequest("Тело запроса слишком велико или не читается.".into()).into_response();
    };
    let mut headers = parts.headers.clone();
    headers.retain_hop();
    headers.insert(HeaderName::from_static(TOKEN), HeaderValue::from_str(&token).expect("hex"));
    let client = parts.extensions.get::<ClientAddr>().and_then(|c| c.0);
    if let Some(c) = client.and_then(|c| HeaderValue::from_str(&c.to_string()).ok()) {
        headers.insert(HeaderName::from_static(CLIENT), c);
    }
    // A game this node lately found another node holding: straight to that node, nothing
    // done here first (the game's lock, the catch-up read). An owner that does not answer
    // within its lease time is forgotten: the store is asked again (the next time, or now
    // if it could not be reached).
    let game = game_of(parts.uri.path());
    let patience = owner_patience(&st);
    if let Some(owner) = game.and_then(|g| st.store.owner_hint(g)) {
        let sent = send(&owner, parts.method.clone(), parts.uri.clone(), headers.clone(), bytes.clone());
        match tokio::time::timeout(patience, sent).await {
            Ok(Ok(r)) => return r,
            Ok(Err(Failed::Unreached(e))) => silent(&st, game, &owner, &e),
            Ok(Err(Failed::Lost(e))) => {
                silent(&st, game, &owner, &e);
                return ApiError::Elsewhere(owner).into_response();
            }
            Err(_) => {
                silent(&st, game, &owner, &format_args!("no answer in {} ms", patience.as_millis()));
                return ApiError::Elsewhere(owner).into_response();
            }
        }
    }
    // Handled here, or forwarded to the game's owner; an owner that cannot be reached may
    // be gone: once its lease expires this node (or another) takes the game over, so the
    // request is handled again (nothing of it was done) until the owner answers or the
    // patience is spent. One sent and not answered may have been done by the owner: it is
    // answered 503 (the client sends it again, to this node or another).
    let until = tokio::time::Instant::now() + PATIENCE;
    loop {
        let req = Request::from_parts(parts.clone(), Body::from(bytes.clone()));
        let next = next.clone();
        let (here, owner) = OWNER
            .scope(RefCell::new(None), async move {
                let r = next.run(req).await;
                (r, OWNER.with(|o| o.borrow_mut().take()))
            })
            .await;
        let Some(owner) = owner else { return here };
        let sent = send(&owner, parts.method.clone(), parts.uri.clone(), headers.clone(), bytes.clone());
        let wait = patience.min(until.saturating_duration_since(tokio::time::Instant::now()));
        match tokio::time::timeout(wait, sent).await {
            Ok(Ok(r)) => return r,
            // Not reached (nothing sent): tried again.
            Ok(Err(Failed::Unreached(e))) => silent(&st, game, &owner, &e),
            // Sent, and no answer: the owner may have done it, so it is not done here.
            Ok(Err(Failed::Lost(e))) => {
                silent(&st, game, &owner, &e);
                return here;
            }
            Err(_) => {
                silent(&st, game, &owner, &format_args!("no answer in {} ms", wait.as_millis()));
                return here;
            }
        }
        let again = tokio::time::Instant::now() + RETRY;
        if again >= until {
            return here;
        }
        tokio::time::sleep_until(again).await;
    }
}

/// The game a path is about: `/api/games/{id}/…` or `/games/{id}/…`.
fn game_of(path: &str) -> Option<i64> {
    let rest = path.strip_prefix("/api/games/").or_else(|| path.strip_prefix("/games/"))?;
    rest.split('/').next()?.parse().ok()
}

trait RetainHop {
    fn retain_hop(&mut self);
}

impl RetainHop for HeaderMap {
    fn retain_hop(&mut self) {
        let names: Vec<HeaderName> = self.keys().filter(|n| hop(n)).cloned().collect();
        for n in names {
            self.remove(n);
        }
    }
}

type Sender = hyper::client::conn::http1::SendRequest<Body>;

/// Kept-alive connections to the other nodes, by address.
static IDLE: Mutex<Option<HashMap<String, Vec<Sender>>>> = Mutex::new(None);

/// The most idle connections kept to one node.
const KEEP: usize = 64;

fn idle() -> std::sync::MutexGuard<'static, Option<HashMap<String, Vec<Sender>>>> {
    IDLE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Why a forwarded request got no answer.
enum Failed {
    /// The owner could not be reached: nothing was sent.
    Unreached(String),
    /// Sent, and the answer was lost.
    Lost(String),
}

async fn connect(addr: &str) -> Result<Sender, Failed> {
    let unreached = |e: &dyn std::fmt::Display| Failed::Unreached(e.to_string());
    let stream = tokio::net::TcpStream::connect(addr).await.map_err(|e| unreached(&e))?;
    let _ = stream.set_nodelay(true);
    let (sender, conn) =
        hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream)).await.map_err(|e| unreached(&e))?;
    tokio::spawn(async move {
        let _ = conn.await;
    });
    Ok(sender)
}

/// Sends the request to the node at `addr` and reads its whole answer.
async fn send(addr: &str, method: Method, uri: Uri, headers: HeaderMap, body: Bytes) -> Result<Response, Failed> {
    let kept = idle().get_or_insert_with(HashMap::new).get_mut(addr).and_then(Vec::pop);
    let mut sender = match kept {
        Some(s) => s,
        None => connect(addr).await?,
    };
    if sender.ready().await.is_err() {
        // A kept connection the owner closed meanwhile.
        sender = connect(addr).await?;
        sender.ready().await.map_err(|e| Failed::Unreached(e.to_string()))?;
    }
    let path = uri.path_and_query().map_or("/", |p| p.as_str());
    let mut out = hyper::Request::builder().method(method).uri(path);
    if let Some(h) = out.headers_mut() {
        *h = headers;
        h.insert(axum::http::header::CONTENT_LENGTH, HeaderValue::from(body.len()));
    }
    let out = out.body(Body::from(body)).map_err(|e| Failed::Unreached(e.to_string()))?;
    // A kept connection the owner closed (it was killed) gives the request back unsent.
    let answer = sender.try_send_request(out).await.map_err(|mut e| match e.take_message() {
        Some(_) => Failed::Unreached(e.into_error().to_string()),
        None => Failed::Lost(e.into_error().to_string()),
    })?;
    let (mut parts, incoming) = answer.into_parts();
    let bytes =
        axum::body::to_bytes(Body::new(incoming), 4 * 1024 * 1024).await.map_err(|e| Failed::Lost(e.to_string()))?;
    parts.headers.retain_hop();
    if !sender.is_closed() {
        let mut pool = idle();
        let list = pool.get_or_insert_with(HashMap::new).entry(addr.to_string()).or_default();
        if list.len() < KEEP {
            list.push(sender);
        }
    }
    Ok(Response::from_parts(parts, Body::from(bytes)))
}
