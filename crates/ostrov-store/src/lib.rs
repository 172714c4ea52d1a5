//! Durable storage for the Ostrov server, behind two narrow traits: [`Accounts`] (users,
//! their profiles, sessions) and [`EventLog`] (games and their append-only logs). The
//! server is generic over [`Store`], which is both.
//!
//! Game rows belong to the event log, not to the accounts: a game's row (title, host,
//! invite, setup, and the summary once it is over) is its log's header. Every event names
//! its game (the `events` table refers to `games`), a game is created just before its first
//! append, [`EventLog::finish_game`] stores a summary folded from the log, and a node that
//! missed announcements ([`Change::Missed`]) catches up by listing the game rows and
//! reading their logs. Accounts never refer to a game; a game refers to its host only by id.
//! The calls that let several nodes share the logs ([`EventLog::shared`],
//! [`EventLog::changes`], [`EventLog::lead`]) are the log's too.
//!
//! Games are event-sourced: the `events` table is append-only (never updated in place).
//! An append is durable before it is answered. [`SqliteStore`] (WAL, `synchronous=FULL`)
//! group-commits: one writer per database, on a connection of its own, takes every append
//! waiting (across all games), writes them in one transaction, syncs once and only then
//! answers each; a lone append under light load is written at once, by the task awaiting
//! it (see the `writer` module). Appends carry the sequence number the caller
//! expects to be last ([`EventLog::append`]), so a store shared by several writers (the
//! PostgreSQL one) refuses a stale append instead of interleaving it. [`PgStore`] keeps
//! the same guarantees in PostgreSQL, the shared store of several server nodes;
//! [`AnyStore`] is either, chosen by the `--db` value at start.
//!
//! Layout: this file holds the traits, the types they speak of and the error; `sqlite`
//! (with `writer`, its group commit) and `postgres` implement them; `any` is [`AnyStore`]
//! and the `store_trait!` macro the traits are declared with, which forwards every method
//! for `AnyStore`; `backup` reads a database for `ostrov backup`; `testdb` makes throw-away
//! PostgreSQL databases for tests.

#[macro_use]
mod any;
mod backup;
mod leases;
mod notify;
mod pgwriter;
mod postgres;
mod sessions;
mod sqlite;
pub mod testdb;
mod writer;

pub use any::{is_postgres, AnyStore};
pub use backup::{Counts, PgSnapshot};
pub use leases::{Lease, Owner};
pub use postgres::PgStore;
pub use sqlite::SqliteStore;

/// A storage error. `Conflict` means a uniqueness rule refused the write
/// (a taken user name).
#[derive(Debug, Clone, thiserror::Error)]
pub enum StoreError {
    #[error("conflict: {0}")]
    Conflict(String),
    #[error("not found")]
    NotFound,
    #[error("storage: {0}")]
    Db(String),
    /// The append carried epoch `.1` of game `.0`'s lease, which another node has taken
    /// over since: nothing written (see [`Owner`]).
    #[error("game {0}: fenced: this node's lease (epoch {1}) was taken over by another node")]
    Fenced(i64, i64),
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        if let sqlx::Error::Database(d) = &e {
            if d.is_unique_violation() {
                return StoreError::Conflict(d.message().to_string());
            }
        }
        if let sqlx::Error::RowNotFound = e {
            return StoreError::NotFound;
        }
        StoreError::Db(e.to_string())
    }
}

pub type Result<T> = std::result::Result<T, StoreError>;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    pub id: i64,
    pub name: String,
    pub password_hash: String,
    /// The profile's gender, `m` or `f` (`None`: not given).
    pub gender: Option<String>,
    /// The profile's six forms of the name by case, nominative first (`None`: not given).
    pub forms: Option<Vec<String>>,
    /// When the account was made (Unix seconds; `None` for one made before this was kept).
    pub created_at: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    pub id: i64,
    pub title: String,
    pub host_id: i64,
    pub invite: String,
    /// The game's setup as JSON (slots, roster, seed, schedule, house rules).
    pub setup: serde_json::Value,
    pub created_at: i64,
    /// Set once the game is over ([`EventLog::finish_game`]): the server's summary of it, so
    /// that a finished game need not be folded to be listed.
    pub finished: Option<serde_json::Value>,
}

/// The result of a finished game, stored when it ends (issue 33): what players' records
/// and the setups' counts are made of, so that neither folds a game. Derived
/// deterministically from the game's log, so writing it again changes nothing
/// ([`EventLog::record_result`] keeps the first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameResult {
    pub game_id: i64,
    /// The setup's canonical key: players, role counts, deck, house rules.
    pub setup_key: String,
    /// `civilians`, `werewolves`, `hamster` or `draw`.
    pub winner: String,
    /// When the game ended (Unix seconds).
    pub finished_at: i64,
    /// A private game (O-PRIVATE-1): counted only for its host and players.
    pub private: bool,
    /// The seats, in seat order.
    pub seats: Vec<SeatResult>,
}

/// One seat of a finished game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatResult {
    pub user_id: i64,
    /// The role's id (`seer`), as the game ended (a turned halfblood stays `halfblood`).
    pub role: String,
    /// The side the seat played for at the end (`civilians`, `werewolves`, `hamster`).
    pub side: String,
    pub won: bool,
    pub survived: bool,
}

/// A finished game in a player's record: the game's facts and the player's seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Played {
    pub game_id: i64,
    pub title: String,
    pub finished_at: i64,
    pub winner: String,
    pub role: String,
    pub side: String,
    pub won: bool,
    pub survived: bool,
}

/// How many finished games of one setup one side won (`winner`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupCount {
    pub setup_key: String,
    pub winner: String,
    pub games: i64,
}

/// One entry of a game's append-only log.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub game_id: i64,
    /// 1, 2, 3 … in order of append, per game.
    pub seq: i64,
    /// Unix seconds, from the server's (injectable) clock.
    pub at: i64,
    /// The user who caused it; `None` for the scheduler.
    pub author: Option<i64>,
    /// Unique per game: a retried request with the same id is not appended twice.
    pub client_request_id: Option<String>,
    /// A digest of the request that carried `client_request_id` (what the client sent,
    /// without the id): a resend with the same id must carry the same request.
    pub request_hash: Option<String>,
    pub kind: String,
    pub payload: serde_json::Value,
}

/// An event to append; `seq` is assigned by the store.
#[derive(Debug, Clone, PartialEq)]
pub struct NewEvent {
    pub at: i64,
    pub author: Option<i64>,
    pub client_request_id: Option<String>,
    pub request_hash: Option<String>,
    pub kind: String,
    pub payload: serde_json::Value,
}

/// What appending did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Appended {
    /// Stored as this sequence number (the expected one plus one), durably.
    New(i64),
    /// The client request id was already in the log at this sequence number: nothing added.
    Duplicate(i64),
    /// The log's last sequence number is `last`, not the expected one: nothing added.
    Conflict { last: i64 },
}

/// What another node appended, as a store that several nodes share announces it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// The game's log reached this sequence number.
    Appended { game_id: i64, seq: i64 },
    /// Announcements may have been lost (the listening connection was made again): every
    /// game should be caught up from the log.
    Missed,
}

store_trait! {
    /// Accounts: users, their profiles and their sessions. Nothing here refers to a game.
    pub trait Accounts {
        /// A new account. `key` is the name's look-alike-free form (the server's skeleton):
        /// one account per key ([`StoreError::Conflict`] otherwise), as per name; made at
        /// `created_at` (Unix seconds, the server's clock).
        async fn create_user(&self, name: &str, key: &str, password_hash: &str, created_at: i64) -> Result<i64>;
        /// The account with this exact name.
        async fn user_by_name(&self, name: &str) -> Result<Option<User>>;
        /// The account whose name has this key.
        async fn user_by_key(&self, key: &str) -> Result<Option<User>>;
        /// Accounts made before names had keys: (id, name).
        async fn users_without_key(&self) -> Result<Vec<(i64, String)>>;
        /// Gives an old account its key ([`StoreError::Conflict`] if another account has it).
        async fn set_user_key(&self, id: i64, key: &str) -> Result<()>;
        async fn user_by_id(&self, id: i64) -> Result<Option<User>>;
        /// Sets an account's gender and forms of its name (checked by the caller; `None`
        /// clears one).
        async fn set_profile(&self, id: i64, gender: Option<&str>, forms: Option<&[String]>) -> Result<()>;

        async fn create_session(&self, token: &str, user_id: i64, expires_at: i64) -> Result<()>;
        /// The user of a live session (expired sessions count as absent).
        async fn session_user(&self, token: &str, now: i64) -> Result<Option<i64>>;
        async fn delete_session(&self, token: &str) -> Result<()>;
        /// Sets an account's password hash (checked and hashed by the caller) and ends every
        /// session of the account but `keep` (the one that asked), in one transaction: a
        /// session opened with the old password does not outlive it. The number ended.
        async fn set_password(&self, id: i64, password_hash: &str, keep: &str) -> Result<u64>;
        /// Ends every session of the account but `keep`: the number ended.
        async fn end_other_sessions(&self, id: i64, keep: &str) -> Result<u64>;
    }
}

store_trait! {
    /// The games and their append-only logs, and what the nodes sharing a store need to
    /// share them. A game's row is its log's header, so it is here (see the crate's
    /// documentation).
    pub trait EventLog {
        async fn create_game(
            &self,
            title: &str,
            host_id: i64,
            invite: &str,
            setup: &serde_json::Value,
            now: i64,
        ) -> Result<i64>;
        async fn game(&self, id: i64) -> Result<Option<GameRow>>;
        async fn game_by_invite(&self, invite: &str) -> Result<Option<GameRow>>;
        async fn games(&self) -> Result<Vec<GameRow>>;
        /// Notes that the game is over, with the server's summary of it (see [`GameRow::finished`]).
        /// Not part of the log: a hint the server can always recompute by folding the log.
        async fn finish_game(&self, id: i64, summary: &serde_json::Value) -> Result<()>;

        /// Stores a finished game's result ([`GameResult`]) with its seats, in one
        /// transaction; a game whose result is stored already keeps it (nothing written).
        async fn record_result(&self, r: &GameResult) -> Result<()>;
        /// The finished games user `user_id` played, newest first, that `viewer` may see: the
        /// open ones, and a private one only if `viewer` is its host or one of its players
        /// (`None`: nobody signed in, open games only).
        async fn played(&self, user_id: i64, viewer: Option<i64>) -> Result<Vec<Played>>;
        /// The finished games by setup and winner that `viewer` may see (as [`EventLog::played`]),
        /// of one setup or (`None`) of all.
        async fn setup_counts(&self, viewer: Option<i64>, setup_key: Option<&str>) -> Result<Vec<SetupCount>>;
        /// Up to `limit` finished games (a summary in their row) whose result is not stored:
        /// games that ended before results were kept, for the server to fill once.
        async fn unrecorded(&self, limit: i64) -> Result<Vec<i64>>;

        /// Appends one event as sequence number `expected_seq + 1`, if the game's log ends at
        /// `expected_seq` (0: an empty log); otherwise nothing is added and the answer is
        /// [`Appended::Conflict`] with the log's last sequence number. A client request id
        /// already in the game's log is checked first: [`Appended::Duplicate`], nothing added.
        /// (So `expected_seq = -1` is a lookup of a request id, in order with the appends,
        /// that never writes.)
        ///
        /// The answer comes once the event is durable (committed and synced); an error means
        /// nothing of this append is in the log.
        ///
        /// The append is issued when `append` is called, not when the future is first polled:
        /// the server calls `append(g, n + 1, …)` while `append(g, n, …)` is still waiting for
        /// its sync (it pipelines the orders of one game), and the store must apply the appends
        /// of a game in the order of the calls. Dropping the future does not cancel the append.
        /// (SqliteStore queues each call to its one writer; a store may also batch.)
        fn append(
            &self,
            game_id: i64,
            expected_seq: i64,
            ev: NewEvent,
        ) -> impl Future<Output = Result<Appended>> + Send + 'static;
        /// The whole log of a game, in sequence order.
        async fn events(&self, game_id: i64) -> Result<Vec<Event>>;
        /// The log of a game after sequence number `after`, in order.
        async fn events_after(&self, game_id: i64, after: i64) -> Result<Vec<Event>> {
            let mut all = self.events(game_id).await?;
            all.retain(|e| e.seq > after);
            Ok(all)
        }
        /// One entry of a game's log by its sequence number (a primary-key lookup).
        async fn event(&self, game_id: i64, seq: i64) -> Result<Option<Event>>;

        /// Whether other nodes may append to the same logs (PostgreSQL): then the server
        /// waits for each append before the next of the game, and a conflict is folded in
        /// and checked again, instead of pipelining.
        fn shared(&self) -> bool {
            false
        }
        /// What other nodes append, for a shared store (`None`: only this node writes). Call
        /// inside the runtime: it spawns the listening task.
        fn changes(&self) -> Option<tokio::sync::mpsc::Receiver<Change>> {
            None
        }
        /// Whether this node holds the scheduler lease now (taking it if it is free): of the
        /// nodes sharing a store, only the holder's scheduler runs the deadlines. One node
        /// alone always holds it.
        async fn lead(&self) -> Result<bool> {
            Ok(true)
        }

        /// Names this node to the others sharing the store: `addr` (`host:port`) is where
        /// they forward the requests of the games it owns, `lease` how long it owns a game
        /// without renewing (see [`Owner`]). Until it is called, a node owns no game
        /// ([`Owner::Shared`]). Nothing for a store only this node writes.
        fn join_nodes(&self, addr: String, lease: std::time::Duration) -> Result<()> {
            let _ = (addr, lease);
            Ok(())
        }
        /// Who may append to game `game_id` now, taking its lease when it is free (a store
        /// only this node writes: always this node; a shared store without leases: every
        /// node, racing for each sequence number).
        async fn own(&self, game_id: i64) -> Result<Owner> {
            let _ = game_id;
            Ok(if self.shared() { Owner::Shared } else { Owner::Here { taken: false } })
        }
        /// Whether this node holds game `game_id`'s lease now, so no other node writes it
        /// (no query).
        fn owns(&self, game_id: i64) -> bool {
            let _ = game_id;
            !self.shared()
        }
        /// The address of the node lately found to hold game `game_id`'s lease, when it is
        /// another (no query; `None`: not known, ask [`EventLog::own`]).
        fn owner_hint(&self, game_id: i64) -> Option<String> {
            let _ = game_id;
            None
        }
        /// Forgets that game `game_id` was found held by the node at `addr` (a request
        /// forwarded to it got no answer, or it could not be reached): the next
        /// [`EventLog::own`] asks the store again, and takes the game if its lease ran out.
        /// Whether a hint was forgotten.
        fn forget_owner(&self, game_id: i64, addr: &str) -> bool {
            let _ = (game_id, addr);
            false
        }
        /// How long a node owns a game without renewing its lease, once it has joined the
        /// others ([`EventLog::join_nodes`]).
        fn lease_time(&self) -> Option<std::time::Duration> {
            None
        }
        /// Drains this node: what is queued is written, then every lease is given up and
        /// none taken any more.
        async fn release(&self) -> Result<()> {
            Ok(())
        }

        /// The server's secret (the key of the hashes of [`Sighting`]s): the one stored, or
        /// `fresh` stored now if there is none (every node then reads the same one).
        async fn server_secret(&self, fresh: &str) -> Result<String> {
            Ok(fresh.to_string())
        }
        /// Notes that account `user_id` of game `game_id` came at `at` with the keyed hash
        /// `key` of an address or a browser (`kind`): the sighting's `last_at` moves, or a new
        /// one is kept while the account has fewer than `cap` of that kind in the game.
        async fn note_sighting(&self, game_id: i64, user_id: i64, kind: &str, key: &str, at: i64, cap: i64)
            -> Result<()> {
            let _ = (game_id, user_id, kind, key, at, cap);
            Ok(())
        }
        /// Every sighting kept of a game.
        async fn sightings(&self, game_id: i64) -> Result<Vec<Sighting>> {
            let _ = game_id;
            Ok(Vec::new())
        }
        /// Forgets every sighting of a game (once it is over).
        async fn forget_sightings(&self, game_id: i64) -> Result<()> {
            let _ = game_id;
            Ok(())
        }
    }
}

/// One account seen in a game from one address prefix or one browser (issue 30, point 5):
/// only a keyed hash of it is kept, never the address or the browser's id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sighting {
    pub user_id: i64,
    /// `address` or `browser`.
    pub kind: String,
    /// The keyed hash (hex).
    pub key: String,
    pub first_at: i64,
    pub last_at: i64,
}

/// A notice to keep in the outbox: its key is `(game_id, seq, recipient, kind)`, so a
/// notice derived again from the same entry of the log is never added twice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewNotice {
    pub game_id: i64,
    /// The log entry the notice comes from (a reminder: the day's opening).
    pub seq: i64,
    /// The account told.
    pub recipient: i64,
    /// What it is (`day`, `paper`, `private`, `remind`, `host_ask`, `all_in` …).
    pub kind: String,
    /// The text, plain (no markup).
    pub text: String,
}

/// A notice in the outbox, as claimed or listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outgoing {
    pub id: i64,
    pub game_id: i64,
    pub seq: i64,
    pub recipient: i64,
    pub kind: String,
    pub text: String,
    /// `pending`, `sending`, `sent` or `dropped`.
    pub status: String,
    /// How many times it was claimed to be sent.
    pub attempts: i64,
    pub created_at: i64,
}

/// An account's e-mail address (issue 31, point 5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailAddress {
    pub address: String,
    /// When it was confirmed (`None`: it gets nothing but its confirmation mail).
    pub confirmed_at: Option<i64>,
    /// The confirmation's token while unconfirmed.
    pub token: Option<String>,
    /// The secret of its unsubscribe link.
    pub unsub: String,
}

/// A player's request to the host of a game (issue 31, point 3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostRequest {
    pub id: i64,
    pub game_id: i64,
    pub user_id: i64,
    pub text: String,
    pub created_at: i64,
}

/// What a store without notifications answers (a test's wrapper of a store).
const NO_OUTBOX: &str = "this store keeps no notifications";

store_trait! {
    /// Notifications (issue 31): the outbox of notices and what the Telegram bot keeps.
    /// Both stores implement every method; the defaults (an error) serve a test's wrapper.
    pub trait Notify {
        /// How far game `game_id`'s log has been read for notices (0: not yet).
        async fn outbox_cursor(&self, game_id: i64) -> Result<i64> {
            let _ = (game_id,);
            Err(StoreError::Db(NO_OUTBOX.into()))
        }
        /// Adds the notices not already there (by their key) and moves the game's cursor to
        /// `upto` (never back), in one transaction: the number added.
        async fn outbox_put(&self, game_id: i64, upto: i64, notices: &[NewNotice], now: i64) -> Result<u64> {
            let _ = (game_id, upto, notices, now);
            Err(StoreError::Db(NO_OUTBOX.into()))
        }
        /// Claims up to `limit` notices to send (due pending ones, and ones claimed before
        /// `stale_before` whose sender is gone), marking them `sending` under `claim`.
        async fn outbox_claim(&self, claim: &str, now: i64, stale_before: i64, limit: i64) -> Result<Vec<Outgoing>> {
            let _ = (claim, now, stale_before, limit);
            Err(StoreError::Db(NO_OUTBOX.into()))
        }
        /// Ends a claimed notice: `sent` or `dropped` (with why); false if the claim was lost.
        async fn outbox_done(&self, id: i64, claim: &str, status: &str, now: i64, note: Option<&str>) -> Result<bool> {
            let _ = (id, claim, status, now, note);
            Err(StoreError::Db(NO_OUTBOX.into()))
        }
        /// Gives a claimed notice back, to be tried again at `next_at`.
        async fn outbox_retry(&self, id: i64, claim: &str, next_at: i64, error: &str) -> Result<()> {
            let _ = (id, claim, next_at, error);
            Err(StoreError::Db(NO_OUTBOX.into()))
        }
        /// Gives back every notice marked `sending` (a store one process writes: its sender
        /// was this process, before a restart): the number given back.
        async fn outbox_release(&self) -> Result<u64> {
            let _ = ();
            Err(StoreError::Db(NO_OUTBOX.into()))
        }
        /// The outbox, of one game or all, in order.
        async fn outbox(&self, game_id: Option<i64>) -> Result<Vec<Outgoing>> {
            let _ = (game_id,);
            Err(StoreError::Db(NO_OUTBOX.into()))
        }

        /// A one-time Telegram link code of `user` (replacing the user's earlier ones).
        async fn telegram_code_put(&self, user: i64, code: &str, expires_at: i64) -> Result<()> {
            let _ = (user, code, expires_at);
            Err(StoreError::Db(NO_OUTBOX.into()))
        }
        /// Takes a link code (it works once): its account if it had not expired.
        async fn telegram_code_take(&self, code: &str, now: i64) -> Result<Option<i64>> {
            let _ = (code, now);
            Err(StoreError::Db(NO_OUTBOX.into()))
        }
        /// Links chat `chat` to `user` (a chat and an account have one link each).
        async fn telegram_link(&self, user: i64, chat: i64, now: i64) -> Result<()> {
            let _ = (user, chat, now);
            Err(StoreError::Db(NO_OUTBOX.into()))
        }
        /// Unlinks an account's chat or a chat: the account it was linked to.
        async fn telegram_unlink(&self, user: Option<i64>, chat: Option<i64>) -> Result<Option<i64>> {
            let _ = (user, chat);
            Err(StoreError::Db(NO_OUTBOX.into()))
        }
        /// The chat linked to an account.
        async fn telegram_chat(&self, user: i64) -> Result<Option<i64>> {
            let _ = (user,);
            Err(StoreError::Db(NO_OUTBOX.into()))
        }
        /// The account linked to a chat.
        async fn telegram_user(&self, chat: i64) -> Result<Option<i64>> {
            let _ = (chat,);
            Err(StoreError::Db(NO_OUTBOX.into()))
        }
        /// An account's reminder setting, hours before the deadline (0: off; `None`: not set).
        async fn remind_hours(&self, user: i64) -> Result<Option<i64>> {
            let _ = (user,);
            Err(StoreError::Db(NO_OUTBOX.into()))
        }
        async fn set_remind_hours(&self, user: i64, hours: i64) -> Result<()> {
            let _ = (user, hours);
            Err(StoreError::Db(NO_OUTBOX.into()))
        }
        /// A number the bot keeps (its `getUpdates` offset).
        async fn bot_value(&self, name: &str) -> Result<Option<i64>> {
            let _ = (name,);
            Err(StoreError::Db(NO_OUTBOX.into()))
        }
        async fn set_bot_value(&self, name: &str, value: i64) -> Result<()> {
            let _ = (name, value);
            Err(StoreError::Db(NO_OUTBOX.into()))
        }

        /// Sets an account's address (replacing its earlier one), unconfirmed, with its
        /// confirmation token and unsubscribe secret.
        async fn mail_set(&self, user: i64, address: &str, token: &str, expires_at: i64, unsub: &str, now: i64) -> Result<()> {
            let _ = (user, address, token, expires_at, unsub, now);
            Err(StoreError::Db(NO_OUTBOX.into()))
        }
        /// Confirms the address whose token this is (it works once, before it expires): its account.
        async fn mail_confirm(&self, token: &str, now: i64) -> Result<Option<i64>> {
            let _ = (token, now);
            Err(StoreError::Db(NO_OUTBOX.into()))
        }
        /// An account's address.
        async fn mail_of(&self, user: i64) -> Result<Option<MailAddress>> {
            let _ = (user,);
            Err(StoreError::Db(NO_OUTBOX.into()))
        }
        /// Removes an account's address, or the address whose unsubscribe secret this is:
        /// the account it was of.
        async fn mail_remove(&self, user: Option<i64>, unsub: Option<&str>) -> Result<Option<i64>> {
            let _ = (user, unsub);
            Err(StoreError::Db(NO_OUTBOX.into()))
        }
        /// Keeps a request to the host and, in the same transaction, its notices, each
        /// keyed by the request (`seq` = minus its id): the request's id.
        async fn request_add(&self, game_id: i64, user: i64, text: &str, now: i64, notices: &[NewNotice]) -> Result<i64> {
            let _ = (game_id, user, text, now, notices);
            Err(StoreError::Db(NO_OUTBOX.into()))
        }
        /// A game's requests to the host, of one sender or all, in order.
        async fn requests(&self, game_id: i64, user: Option<i64>) -> Result<Vec<HostRequest>> {
            let _ = (game_id, user);
            Err(StoreError::Db(NO_OUTBOX.into()))
        }
    }
}

/// The storage interface the server uses: [`Accounts`], [`EventLog`] and [`Notify`]
/// together. Game code sees only this. Every type with all three is a `Store`; implement
/// the three traits.
pub trait Store: Accounts + EventLog + Notify {}

impl<S: Accounts + EventLog + Notify> Store for S {}

/// The stored forms (a JSON list) read back.
pub(crate) fn forms_of(stored: Option<String>) -> Result<Option<Vec<String>>> {
    stored.map(|f| serde_json::from_str(&f)).transpose().map_err(|e| StoreError::Db(e.to_string()))
}

/// The forms as stored.
pub(crate) fn forms_text(forms: Option<&[String]>) -> Option<String> {
    forms.map(|f| serde_json::Value::from(f.to_vec()).to_string())
}
