//! `ostrov backup OUT`: a consistent copy of the server's database, made while `ostrov
//! serve` keeps running (docs/DEPLOY.md).
//!
//! SQLite: `VACUUM INTO` a new file (one read transaction: every entry committed before it
//! is in the copy, none half-written), then the copy is opened, checked and counted.
//! PostgreSQL: `pg_dump` (custom format) of a snapshot this command exports and counts,
//! when `pg_dump` is on PATH; without it, the exact command to run is printed and the
//! exit code is 2.

use std::fs::OpenOptions;
use std::path::{Path, PathBuf};

use ostrov_engine::{plural, Lang};
use ostrov_store::{is_postgres, Counts, PgSnapshot, SqliteStore};

use crate::Failure;

/// Back up the server's database while the server runs: a SQLite file is copied
/// consistently into the new file OUT (then opened and counted); a PostgreSQL database is
/// dumped with pg_dump (custom format, for pg_restore). OUT must not exist.
#[derive(clap::Args)]
pub struct Args {
    /// The new file to write the backup to (never an existing one).
    out: PathBuf,
    /// The database, as `ostrov serve --db` names it: a SQLite file, or
    /// postgres://user@host/dbname.
    #[arg(long, default_value = "ostrov.db")]
    db: String,
}

pub fn run(a: Args, lang: Lang) -> Result<(), Failure> {
    let out = a.out.display().to_string();
    if is_postgres(&a.db) {
        // Said before anything is written: without pg_dump there is nothing to do here.
        let Some(pg_dump) = on_path("pg_dump") else {
            return Err(Failure(no_pg_dump(&a.db, &out, lang)));
        };
        reserve(&a.out, lang)?;
        let done = postgres(&a.db, &pg_dump, &a.out, lang);
        if done.is_err() {
            let _ = std::fs::remove_file(&a.out);
        }
        return done;
    }
    if a.db == ":memory:" {
        return Err(Failure(match lang {
            Lang::Ru => "--db :memory:: база в памяти нигде не хранится, копировать нечего".into(),
            Lang::English => "--db :memory:: an in-memory database is stored nowhere, there is nothing to copy".into(),
        }));
    }
    if !Path::new(&a.db).is_file() {
        return Err(Failure(match lang {
            Lang::Ru => {
                format!("{}: нет такого файла базы данных; укажите базу сервера через --db, как для ostrov serve", a.db)
            }
            Lang::English => {
                format!("{}: no such database file; name the server's database with --db, as for ostrov serve", a.db)
            }
        }));
    }
    reserve(&a.out, lang)?;
    let done = sqlite(&a.db, &out, lang);
    if done.is_err() {
        let _ = std::fs::remove_file(&a.out);
    }
    done
}

/// Creates OUT empty, refusing an existing file (atomically: two backups cannot take the
/// same name). Both `VACUUM INTO` and `pg_dump --file` then write into the empty file.
fn reserve(out: &Path, lang: Lang) -> Result<(), Failure> {
    match OpenOptions::new().write(true).create_new(true).open(out) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(Failure(match lang {
            Lang::Ru => format!(
                "{}: такой файл уже есть; резервная копия не пишется поверх другого файла, укажите новое имя",
                out.display()
            ),
            Lang::English => format!(
                "{}: the file exists; a backup is never written over another file, name a new one",
                out.display()
            ),
        })),
        Err(e) => Err(Failure(format!("{}: {e}", out.display()))),
    }
}

fn runtime() -> Result<tokio::runtime::Runtime, Failure> {
    Ok(tokio::runtime::Builder::new_current_thread().enable_all().build()?)
}

fn sqlite(db: &str, out: &str, lang: Lang) -> Result<(), Failure> {
    runtime()?.block_on(async {
        let source = SqliteStore::open_read_only(db).await.map_err(|e| Failure(format!("{db}: {e}")))?;
        // A file that is not an Ostrov database has no such tables: said before copying.
        source.counts().await.map_err(|e| not_ostrov(db, &e, lang))?;
        let copied = source.backup(out).await;
        source.close().await;
        copied.map_err(|e| Failure(format!("{db} → {out}: {e}")))?;
        let copy = SqliteStore::open_read_only(out).await.map_err(|e| unreadable(out, &e, lang))?;
        let checked = copy.quick_check().await;
        let counts = copy.counts().await;
        copy.close().await;
        checked.map_err(|e| unreadable(out, &e, lang))?;
        let counts = counts.map_err(|e| unreadable(out, &e, lang))?;
        println!(
            "{}",
            match lang {
                Lang::Ru => format!(
                    "Резервная копия {db} записана в {out} и проверена (файл открывается, его структура цела): {}.\n\
                     Восстановление: остановите сервер и запустите его с --db {out} (или замените {db} этим файлом, \
                     удалив {db}-wal и {db}-shm, если они остались).",
                    holds(counts, lang)
                ),
                Lang::English => format!(
                    "The backup of {db} is written to {out} and checked (the file opens, its structure is sound): {}.\n\
                     To restore: stop the server and start it with --db {out} (or replace {db} with this file, \
                     deleting {db}-wal and {db}-shm if they are left).",
                    holds(counts, lang)
                ),
            }
        );
        Ok(())
    })
}

fn postgres(url: &str, pg_dump: &Path, out: &Path, lang: Lang) -> Result<(), Failure> {
    let shown = crate::serve::shown(url);
    runtime()?.block_on(async {
        // A database without Ostrov's tables answers `relation "users" does not exist`.
        let snap = PgSnapshot::take(url).await.map_err(|e| {
            if e.to_string().contains("relation \"") {
                not_ostrov(&shown, &e, lang)
            } else {
                Failure(match lang {
                    Lang::Ru => format!("{shown}: не удалось открыть базу данных: {e}"),
                    Lang::English => format!("{shown}: cannot open the database: {e}"),
                })
            }
        })?;
        let status = std::process::Command::new(pg_dump)
            .arg("--format=custom")
            .arg(format!("--snapshot={}", snap.id))
            .arg("--file")
            .arg(out)
            .arg("--dbname")
            .arg(url)
            .status();
        let counts = snap.counts;
        // The snapshot is needed only while pg_dump imports it; a failure to end the
        // transaction does not make the dump less whole.
        let _ = snap.release().await;
        match status {
            Ok(s) if s.success() => {}
            Ok(s) => {
                return Err(Failure(match lang {
                    Lang::Ru => format!("pg_dump завершился с ошибкой ({s}); резервная копия не записана"),
                    Lang::English => format!("pg_dump failed ({s}); no backup was written"),
                }))
            }
            Err(e) => return Err(Failure(format!("{}: {e}", pg_dump.display()))),
        }
        let out = out.display();
        println!(
            "{}",
            match lang {
                Lang::Ru => format!(
                    "Резервная копия {shown} записана в {out} программой pg_dump (формат custom): {}.\n\
                     Восстановление в новую пустую базу: pg_restore --no-owner --dbname=postgres://…/новая_база {out}",
                    holds(counts, lang)
                ),
                Lang::English => format!(
                    "The backup of {shown} is written to {out} by pg_dump (custom format): {}.\n\
                     To restore into a new empty database: pg_restore --no-owner --dbname=postgres://…/new_db {out}",
                    holds(counts, lang)
                ),
            }
        );
        Ok(())
    })
}

/// "3 игры, 120 событий, 5 пользователей".
fn holds(c: Counts, lang: Lang) -> String {
    let n = |v: i64| v.max(0) as u64;
    match lang {
        Lang::Ru => format!(
            "{} {}, {} {}, {} {}",
            c.games,
            plural::form(n(c.games), "игра", "игры", "игр"),
            c.events,
            plural::form(n(c.events), "событие", "события", "событий"),
            c.users,
            plural::form(n(c.users), "пользователь", "пользователя", "пользователей"),
        ),
        Lang::English => {
            let en = |v: i64, word: &str| format!("{v} {word}{}", if v == 1 { "" } else { "s" });
            format!("{}, {}, {}", en(c.games, "game"), en(c.events, "event"), en(c.users, "user"))
        }
    }
}

fn not_ostrov(db: &str, e: &ostrov_store::StoreError, lang: Lang) -> Failure {
    Failure(match lang {
        Lang::Ru => format!("{db}: это не база данных Ostrov ({e})"),
        Lang::English => format!("{db}: not an Ostrov database ({e})"),
    })
}

fn unreadable(out: &str, e: &ostrov_store::StoreError, lang: Lang) -> Failure {
    Failure(match lang {
        Lang::Ru => format!("{out}: резервная копия записана, но не читается: {e}"),
        Lang::English => format!("{out}: the backup was written but does not read back: {e}"),
    })
}

/// The message when pg_dump is missing: what to install and the command to run.
fn no_pg_dump(url: &str, out: &str, lang: Lang) -> String {
    let command =
        format!("pg_dump --format=custom --file {} --dbname {}", quoted(out), quoted(&crate::serve::shown(url)));
    let hidden = url != crate::serve::shown(url);
    match lang {
        Lang::Ru => format!(
            "PostgreSQL копируется программой pg_dump, а её нет в PATH. Установите клиент PostgreSQL \
             (например, пакет postgresql-client той же или более новой версии, чем сервер) и выполните\n  {command}\n\
             или снова ostrov backup.{}",
            if hidden { " Пароль в команде заменён на ***." } else { "" }
        ),
        Lang::English => format!(
            "PostgreSQL is backed up with pg_dump, which is not on PATH. Install the PostgreSQL client \
             (e.g. the postgresql-client package, the server's version or newer) and run\n  {command}\n\
             or ostrov backup again.{}",
            if hidden { " The password in the command is replaced by ***." } else { "" }
        ),
    }
}

/// A shell word: as it is when plain, else in single quotes.
fn quoted(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "/._-:@=+,%".contains(c)) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// The program `name` in a directory of PATH, if any.
fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_quoted_for_the_shell_only_when_needed() {
        assert_eq!(quoted("postgres://u@h:5432/db"), "postgres://u@h:5432/db");
        assert_eq!(quoted("копия.dump"), "'копия.dump'");
        assert_eq!(quoted("it's here"), r"'it'\''s here'");
        assert_eq!(quoted("postgres://u@h/db?sslmode=require&x=1"), "'postgres://u@h/db?sslmode=require&x=1'");
    }

    #[test]
    fn counts_in_russian_take_their_plural_forms() {
        let c = Counts { users: 1, games: 3, events: 25 };
        assert_eq!(holds(c, Lang::Ru), "3 игры, 25 событий, 1 пользователь");
        assert_eq!(holds(c, Lang::English), "3 games, 25 events, 1 user");
    }
}
