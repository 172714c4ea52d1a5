//! Client request ids: a request sent again under the id it was first sent with makes no
//! second log entry. Each id is stored in the game's log with the entry it made and the
//! digest of the request, so a resend is answered as the first send was, and the id
//! resent with another request is refused (`request_id_reused`).

use crate::hex::hex;

/// A client request id with the digest of what the request asked: resending the same id
/// with the same request is a no-op; with another request it is refused
/// (`request_id_reused`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestId {
    pub id: String,
    pub hash: String,
}

impl RequestId {
    /// The request whose JSON is `what` (the route and its body without the id, see
    /// [`crate::routes::client_request`]), under the id `id`: the digest is the first 16
    /// bytes of its SHA-256, in lowercase hexadecimal.
    pub fn of_bytes(id: String, what: &[u8]) -> RequestId {
        use sha2::Digest;
        RequestId { id, hash: hex(&sha2::Sha256::digest(what)[..16]) }
    }

    /// An id that names what it does (a scheduler step, a form's flag): nothing else to
    /// compare.
    pub fn named(id: String) -> RequestId {
        RequestId { id, hash: String::new() }
    }
}

/// A client request id already in a game's log, with the entry it made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredRequest {
    /// The log entry it made.
    pub seq: i64,
    /// How many days had opened when it was sent: an id sent again on a later day is reused.
    pub days: usize,
    /// The digest of the request ([`RequestId::hash`]); `None` for entries stored
    /// before digests were kept.
    pub hash: Option<String>,
}
