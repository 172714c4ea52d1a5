//! [`Notify`] for both stores: the notices' outbox (issue 31), the Telegram links and
//! codes, each account's reminder setting and the bot's `getUpdates` offset.
//!
//! The SQL is written once, with PostgreSQL's `$n` placeholders; SQLite reads the same
//! statement with `?n` (its numbered parameters). Only claiming differs: PostgreSQL skips
//! rows another node holds locked (`FOR UPDATE SKIP LOCKED`); SQLite has one writer.

use sqlx::Row;

use crate::{HostRequest, MailAddress, NewNotice, Notify, Outgoing, PgStore, Result, SqliteStore};

/// The statement for SQLite: `$1` → `?1`.
fn lite(sql: &str) -> String {
    sql.replace('$', "?")
}

const OUT_COLUMNS: &str = "id, game_id, seq, recipient, kind, text, status, attempts, created_at";

/// One notice into the outbox, once: `$1` game, `$2` its seq (a log entry's, or minus a
/// request's id), `$3` recipient, `$4` kind, `$5` text, `$6` now.
const OUTBOX_INSERT: &str = "INSERT INTO outbox (game_id, seq, recipient, kind, text, created_at, next_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT (game_id, seq, recipient, kind) DO NOTHING";

const CLAIM_PG: &str = "UPDATE outbox SET status = 'sending', claim = $1, claimed_at = $2, attempts = attempts + 1
     WHERE id IN (SELECT id FROM outbox
                  WHERE (status = 'pending' AND next_at <= $2) OR (status = 'sending' AND claimed_at <= $3)
                  ORDER BY id LIMIT $4 FOR UPDATE SKIP LOCKED)
     RETURNING id, game_id, seq, recipient, kind, text, status, attempts, created_at";

const CLAIM_LITE: &str = "UPDATE outbox SET status = 'sending', claim = ?1, claimed_at = ?2, attempts = attempts + 1
     WHERE id IN (SELECT id FROM outbox
                  WHERE (status = 'pending' AND next_at <= ?2) OR (status = 'sending' AND claimed_at <= ?3)
                  ORDER BY id LIMIT ?4)
     RETURNING id, game_id, seq, recipient, kind, text, status, attempts, created_at";

macro_rules! notify_impl {
    ($store:ty, $q:expr, $claim:expr) => {
        impl Notify for $store {
            async fn outbox_cursor(&self, game_id: i64) -> Result<i64> {
                let v: Option<i64> = sqlx::query_scalar(&$q("SELECT seq FROM outbox_cursor WHERE game_id = $1"))
                    .bind(game_id)
                    .fetch_optional(&self.pool)
                    .await?;
                Ok(v.unwrap_or(0))
            }

            async fn outbox_put(&self, game_id: i64, upto: i64, notices: &[NewNotice], now: i64) -> Result<u64> {
                let mut tx = self.pool.begin().await?;
                let mut added = 0;
                for n in notices {
                    let r = sqlx::query(&$q(OUTBOX_INSERT))
                        .bind(n.game_id)
                        .bind(n.seq)
                        .bind(n.recipient)
                        .bind(&n.kind)
                        .bind(&n.text)
                        .bind(now)
                        .execute(&mut *tx)
                        .await?;
                    added += r.rows_affected();
                }
                sqlx::query(&$q("INSERT INTO outbox_cursor (game_id, seq) VALUES ($1, $2)
                     ON CONFLICT (game_id) DO UPDATE SET seq = CASE WHEN excluded.seq > outbox_cursor.seq
                     THEN excluded.seq ELSE outbox_cursor.seq END"))
                .bind(game_id)
                .bind(upto)
                .execute(&mut *tx)
                .await?;
                tx.commit().await?;
                Ok(added)
            }

            async fn outbox_claim(
                &self,
                claim: &str,
                now: i64,
                stale_before: i64,
                limit: i64,
            ) -> Result<Vec<Outgoing>> {
                let rows = sqlx::query($claim)
                    .bind(claim)
                    .bind(now)
                    .bind(stale_before)
                    .bind(limit)
                    .fetch_all(&self.pool)
                    .await?;
                let mut out: Vec<Outgoing> = rows.iter().map(outgoing).collect::<Result<_>>()?;
                out.sort_by_key(|o| o.id);
                Ok(out)
            }

            async fn outbox_done(
                &self,
                id: i64,
                claim: &str,
                status: &str,
                now: i64,
                note: Option<&str>,
            ) -> Result<bool> {
                let r = sqlx::query(&$q(
                    "UPDATE outbox SET status = $1, sent_at = $2, last_error = $3 WHERE id = $4 AND claim = $5",
                ))
                .bind(status)
                .bind(now)
                .bind(note)
                .bind(id)
                .bind(claim)
                .execute(&self.pool)
                .await?;
                Ok(r.rows_affected() == 1)
            }

            async fn outbox_retry(&self, id: i64, claim: &str, next_at: i64, error: &str) -> Result<()> {
                sqlx::query(&$q("UPDATE outbox SET status = 'pending', claim = NULL, next_at = $1, last_error = $2
                     WHERE id = $3 AND claim = $4"))
                .bind(next_at)
                .bind(error)
                .bind(id)
                .bind(claim)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn outbox_release(&self) -> Result<u64> {
                let r = sqlx::query("UPDATE outbox SET status = 'pending', claim = NULL WHERE status = 'sending'")
                    .execute(&self.pool)
                    .await?;
                Ok(r.rows_affected())
            }

            async fn outbox(&self, game_id: Option<i64>) -> Result<Vec<Outgoing>> {
                let sql = format!("SELECT {OUT_COLUMNS} FROM outbox WHERE $1 IS NULL OR game_id = $1 ORDER BY id");
                let rows = sqlx::query(&$q(&sql)).bind(game_id).fetch_all(&self.pool).await?;
                rows.iter().map(outgoing).collect()
            }

            async fn telegram_code_put(&self, user: i64, code: &str, expires_at: i64) -> Result<()> {
                let mut tx = self.pool.begin().await?;
                sqlx::query(&$q("DELETE FROM telegram_codes WHERE user_id = $1")).bind(user).execute(&mut *tx).await?;
                sqlx::query(&$q("INSERT INTO telegram_codes (code, user_id, expires_at) VALUES ($1, $2, $3)"))
                    .bind(code)
                    .bind(user)
                    .bind(expires_at)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                Ok(())
            }

            async fn telegram_code_take(&self, code: &str, now: i64) -> Result<Option<i64>> {
                let row = sqlx::query(&$q("DELETE FROM telegram_codes WHERE code = $1 RETURNING user_id, expires_at"))
                    .bind(code)
                    .fetch_optional(&self.pool)
                    .await?;
                Ok(row.and_then(|r| {
                    let (user, exp): (i64, i64) = (r.get(0), r.get(1));
                    (exp > now).then_some(user)
                }))
            }

            async fn telegram_link(&self, user: i64, chat: i64, now: i64) -> Result<()> {
                let mut tx = self.pool.begin().await?;
                // A chat belongs to one account: linking it to another moves it.
                sqlx::query(&$q("DELETE FROM telegram_chats WHERE chat_id = $1 OR user_id = $2"))
                    .bind(chat)
                    .bind(user)
                    .execute(&mut *tx)
                    .await?;
                sqlx::query(&$q("INSERT INTO telegram_chats (user_id, chat_id, linked_at) VALUES ($1, $2, $3)"))
                    .bind(user)
                    .bind(chat)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                Ok(())
            }

            async fn telegram_unlink(&self, user: Option<i64>, chat: Option<i64>) -> Result<Option<i64>> {
                let row =
                    sqlx::query(&$q("DELETE FROM telegram_chats WHERE user_id = $1 OR chat_id = $2 RETURNING user_id"))
                        .bind(user)
                        .bind(chat)
                        .fetch_optional(&self.pool)
                        .await?;
                Ok(row.map(|r| r.get(0)))
            }

            async fn telegram_chat(&self, user: i64) -> Result<Option<i64>> {
                Ok(sqlx::query_scalar(&$q("SELECT chat_id FROM telegram_chats WHERE user_id = $1"))
                    .bind(user)
                    .fetch_optional(&self.pool)
                    .await?)
            }

            async fn telegram_user(&self, chat: i64) -> Result<Option<i64>> {
                Ok(sqlx::query_scalar(&$q("SELECT user_id FROM telegram_chats WHERE chat_id = $1"))
                    .bind(chat)
                    .fetch_optional(&self.pool)
                    .await?)
            }

            async fn remind_hours(&self, user: i64) -> Result<Option<i64>> {
                Ok(sqlx::query_scalar(&$q("SELECT remind_hours FROM notify_prefs WHERE user_id = $1"))
                    .bind(user)
                    .fetch_optional(&self.pool)
                    .await?)
            }

            async fn set_remind_hours(&self, user: i64, hours: i64) -> Result<()> {
                sqlx::query(&$q("INSERT INTO notify_prefs (user_id, remind_hours) VALUES ($1, $2)
                     ON CONFLICT (user_id) DO UPDATE SET remind_hours = excluded.remind_hours"))
                .bind(user)
                .bind(hours)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn bot_value(&self, name: &str) -> Result<Option<i64>> {
                Ok(sqlx::query_scalar(&$q("SELECT value FROM bot_state WHERE name = $1"))
                    .bind(name)
                    .fetch_optional(&self.pool)
                    .await?)
            }

            async fn set_bot_value(&self, name: &str, value: i64) -> Result<()> {
                sqlx::query(&$q("INSERT INTO bot_state (name, value) VALUES ($1, $2)
                     ON CONFLICT (name) DO UPDATE SET value = excluded.value"))
                .bind(name)
                .bind(value)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn mail_set(
                &self,
                user: i64,
                address: &str,
                token: &str,
                expires_at: i64,
                unsub: &str,
                now: i64,
            ) -> Result<()> {
                sqlx::query(&$q(
                    "INSERT INTO mail_addresses (user_id, address, confirmed_at, token, token_expires, unsub, set_at)
                     VALUES ($1, $2, NULL, $3, $4, $5, $6)
                     ON CONFLICT (user_id) DO UPDATE SET address = excluded.address, confirmed_at = NULL,
                     token = excluded.token, token_expires = excluded.token_expires, unsub = excluded.unsub,
                     set_at = excluded.set_at",
                ))
                .bind(user)
                .bind(address)
                .bind(token)
                .bind(expires_at)
                .bind(unsub)
                .bind(now)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn mail_confirm(&self, token: &str, now: i64) -> Result<Option<i64>> {
                Ok(sqlx::query_scalar(&$q(
                    "UPDATE mail_addresses SET confirmed_at = $2, token = NULL, token_expires = NULL
                     WHERE token = $1 AND token_expires > $2 RETURNING user_id",
                ))
                .bind(token)
                .bind(now)
                .fetch_optional(&self.pool)
                .await?)
            }

            async fn mail_of(&self, user: i64) -> Result<Option<MailAddress>> {
                let row = sqlx::query(&$q(
                    "SELECT address, confirmed_at, token, unsub FROM mail_addresses WHERE user_id = $1",
                ))
                .bind(user)
                .fetch_optional(&self.pool)
                .await?;
                Ok(row.map(|r| MailAddress {
                    address: r.get(0),
                    confirmed_at: r.get(1),
                    token: r.get(2),
                    unsub: r.get(3),
                }))
            }

            async fn mail_remove(&self, user: Option<i64>, unsub: Option<&str>) -> Result<Option<i64>> {
                Ok(sqlx::query_scalar(&$q(
                    "DELETE FROM mail_addresses WHERE user_id = $1 OR unsub = $2 RETURNING user_id",
                ))
                .bind(user)
                .bind(unsub)
                .fetch_optional(&self.pool)
                .await?)
            }

            async fn request_add(
                &self,
                game_id: i64,
                user: i64,
                text: &str,
                now: i64,
                notices: &[NewNotice],
            ) -> Result<i64> {
                let mut tx = self.pool.begin().await?;
                let id: i64 = sqlx::query_scalar(&$q("INSERT INTO host_requests (game_id, user_id, text, created_at)
                     VALUES ($1, $2, $3, $4) RETURNING id"))
                .bind(game_id)
                .bind(user)
                .bind(text)
                .bind(now)
                .fetch_one(&mut *tx)
                .await?;
                for n in notices {
                    sqlx::query(&$q(OUTBOX_INSERT))
                        .bind(n.game_id)
                        .bind(-id)
                        .bind(n.recipient)
                        .bind(&n.kind)
                        .bind(&n.text)
                        .bind(now)
                        .execute(&mut *tx)
                        .await?;
                }
                tx.commit().await?;
                Ok(id)
            }

            async fn requests(&self, game_id: i64, user: Option<i64>) -> Result<Vec<HostRequest>> {
                let rows = sqlx::query(&$q("SELECT id, game_id, user_id, text, created_at FROM host_requests
                     WHERE game_id = $1 AND ($2 IS NULL OR user_id = $2) ORDER BY id"))
                .bind(game_id)
                .bind(user)
                .fetch_all(&self.pool)
                .await?;
                Ok(rows
                    .iter()
                    .map(|r| HostRequest {
                        id: r.get(0),
                        game_id: r.get(1),
                        user_id: r.get(2),
                        text: r.get(3),
                        created_at: r.get(4),
                    })
                    .collect())
            }
        }
    };
}

fn outgoing<R: Row>(r: &R) -> Result<Outgoing>
where
    for<'a> i64: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    for<'a> String: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    usize: sqlx::ColumnIndex<R>,
{
    Ok(Outgoing {
        id: r.try_get(0usize)?,
        game_id: r.try_get(1usize)?,
        seq: r.try_get(2usize)?,
        recipient: r.try_get(3usize)?,
        kind: r.try_get(4usize)?,
        text: r.try_get(5usize)?,
        status: r.try_get(6usize)?,
        attempts: r.try_get(7usize)?,
        created_at: r.try_get(8usize)?,
    })
}

fn same(sql: &str) -> String {
    sql.to_string()
}

notify_impl!(SqliteStore, lite, CLAIM_LITE);
notify_impl!(PgStore, same, CLAIM_PG);
