//! `ostrov serve`: the game server over an embedded SQLite database, or as one of several
//! nodes over one PostgreSQL database (docs/DEPLOY.md).

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args as ClapArgs;
use ostrov_engine::Lang;
use ostrov_server::{spawn_scheduler, spawn_watcher, AppState, Clock, FileClock, SystemClock};
use ostrov_store::{AnyStore, EventLog};

use crate::Failure;

/// Serve games over HTTP: the JSON API under /api/ (crates/ostrov-server/API.md), over an
/// embedded SQLite database (created and migrated on first start) or a PostgreSQL database
/// shared by several nodes.
#[derive(ClapArgs)]
pub struct Args {
    /// The database: a SQLite file path, or postgres://user@host/dbname (then any number
    /// of nodes may serve the same database at once).
    #[arg(long, default_value = "ostrov.db")]
    pub(crate) db: String,
    /// The address to listen on (port 0: any free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub(crate) bind: String,
    /// The address players use, e.g. https://ostrov.example.org: with https the session
    /// cookie is marked Secure (sent over HTTPS only).
    #[arg(long, value_name = "URL")]
    pub(crate) public_url: Option<String>,
    /// Trust the reverse proxy in front (nginx, Caddy): the client's address is the last
    /// entry of X-Forwarded-For (for the login and sign-up limits), and
    /// X-Forwarded-Proto: https marks cookies Secure. Only behind a proxy that sets them.
    #[arg(long)]
    pub(crate) trust_proxy: bool,
    /// Sign-ups allowed from one client address per hour (0: no limit, e.g. for a test
    /// server that signs up many players from one machine).
    #[arg(long, value_name = "N", default_value_t = ostrov_server::ratelimit::SIGNUPS_PER_HOUR)]
    pub(crate) signups_per_hour: usize,
    /// The Telegram Bot API's address (the bot's token comes from the environment,
    /// OSTROV_TELEGRAM_TOKEN, never from the command line).
    #[arg(long, value_name = "URL", default_value = ostrov_server::telegram::api::DEFAULT_API)]
    pub(crate) telegram_api: String,
    /// The SMTP server for e-mail notices: smtp://[user@]host[:port] (STARTTLS when
    /// offered) or smtps://…; the password comes from OSTROV_SMTP_PASSWORD.
    #[arg(long, value_name = "URL", requires = "mail_from")]
    pub(crate) smtp: Option<String>,
    /// The sender's address of the mails (with --smtp).
    #[arg(long, value_name = "ADDR", requires = "smtp")]
    pub(crate) mail_from: Option<String>,
    /// The SMTP user, if not in the --smtp URL.
    #[arg(long, value_name = "USER", requires = "smtp")]
    pub(crate) smtp_user: Option<String>,
    /// With PostgreSQL: how many seconds a node owns a game without renewing its lease.
    /// Each game is written by one node; when that node is gone another takes the game
    /// over after this long.
    #[arg(long, value_name = "SECONDS", default_value_t = ostrov_server::forward::LEASE_SECONDS,
          value_parser = clap::value_parser!(u64).range(1..=600))]
    pub(crate) lease_seconds: u64,
    /// With PostgreSQL: the host:port the other nodes forward this node's games' requests
    /// to (default: the address of --bind).
    #[arg(long, value_name = "ADDRESS")]
    pub(crate) advertise: Option<String>,
    /// For tests: read the current time (Unix seconds) from this file instead of the clock.
    #[arg(long, hide = true)]
    pub(crate) clock_file: Option<PathBuf>,
}

pub fn run(a: Args, lang: Lang) -> Result<(), Failure> {
    start(a, lang, None)
}

/// Serves as `ostrov serve` does; with `practice` (the minutes of a practice day), as the
/// practice server of `ostrov demo`: guests, their practice games, no Telegram bot.
pub(crate) fn start(a: Args, lang: Lang, practice: Option<u32>) -> Result<(), Failure> {
    // Before the runtime's threads start allocating (see the function's documentation).
    if let Err(e) = ostrov_server::process::small_pages() {
        eprintln!(
            "{}",
            match lang {
                Lang::Ru => format!(
                    "ostrov: предупреждение: не удалось отключить огромные страницы памяти ({e}); под нагрузкой \
                     ответы могут задерживаться на несколько миллисекунд"
                ),
                Lang::English => format!(
                    "ostrov: warning: transparent huge pages could not be turned off ({e}); under load, answers \
                     may be delayed by a few milliseconds"
                ),
            }
        );
    }
    // Every connection is a descriptor: the soft limit (often 1,024) goes up to the hard
    // one, and the connection caps follow what it is (ostrov_server::net::Limits).
    match ostrov_server::process::raise_descriptor_limit() {
        Ok((_, now)) if now >= ostrov_server::process::WANTED_DESCRIPTORS => {}
        Ok((_, now)) => eprintln!(
            "{}",
            match lang {
                Lang::Ru => format!(
                    "ostrov: предупреждение: процесс может открыть только {now} файлов и соединений; поднимите \
                     предел (LimitNOFILE= в юните systemd, docs/DEPLOY.md), иначе сервер примет меньше игроков сразу"
                ),
                Lang::English => format!(
                    "ostrov: warning: the process may open only {now} files and connections; raise the limit \
                     (LimitNOFILE= in the systemd unit, docs/DEPLOY.md), or the server takes fewer players at once"
                ),
            }
        ),
        Err(e) => eprintln!(
            "{}",
            match lang {
                Lang::Ru => format!(
                    "ostrov: предупреждение: не удалось поднять предел открытых файлов ({e}); поднимите его \
                     (LimitNOFILE= в юните systemd, docs/DEPLOY.md), иначе сервер примет меньше игроков сразу"
                ),
                Lang::English => format!(
                    "ostrov: warning: the open files limit could not be raised ({e}); raise it (LimitNOFILE= in \
                     the systemd unit, docs/DEPLOY.md), or the server takes fewer players at once"
                ),
            }
        ),
    }
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    rt.block_on(async move {
        let db = shown(&a.db);
        let store = AnyStore::open(&a.db).await.map_err(|e| {
            Failure(match lang {
                Lang::Ru => format!("не удалось открыть базу данных {db}: {e}"),
                Lang::English => format!("cannot open the database {db}: {e}"),
            })
        })?;
        let kind = store.kind();
        let notify = match practice {
            None => notify_settings(&a, lang)?,
            Some(_) => ostrov_server::notify::Settings::default(),
        };
        let clock: Arc<dyn Clock> = match a.clock_file {
            Some(f) => Arc::new(FileClock(f)),
            None => Arc::new(SystemClock),
        };
        let https = match a.public_url.as_deref() {
            None => false,
            Some(u) if u.starts_with("https://") => true,
            Some(u) if u.starts_with("http://") => false,
            Some(u) => {
                return Err(Failure(match lang {
                    Lang::Ru => format!("--public-url {u}: нужен адрес вида https://… или http://…"),
                    Lang::English => format!("--public-url {u}: an address https://… or http://… is needed"),
                }));
            }
        };
        let mut state = AppState::load(store, clock).await.map_err(|e| {
            Failure(match lang {
                Lang::Ru => format!("не удалось прочитать игры из базы данных {db}: {e}"),
                Lang::English => format!("cannot read the games of the database {db}: {e}"),
            })
        })?;
        state.options = ostrov_server::harden::Options { https, trust_proxy: a.trust_proxy };
        state.signups = ostrov_server::ratelimit::Quota::new(a.signups_per_hour, 3600);
        state.notify = notify;
        if let Some(minutes) = practice {
            ostrov_server::service::demo::enable(&mut state, minutes).await.map_err(|e| {
                Failure(match lang {
                    Lang::Ru => {
                        format!("не удалось подготовить практический сервер в базе данных {db}: {}", e.message())
                    }
                    Lang::English => format!("cannot set up the practice server in the database {db}: {}", e.message()),
                })
            })?;
        }
        let telegram = state.notify.telegram.is_some();
        let mail = state.notify.mail.as_ref().map(|m| format!("{:?}", m.server));
        let state = Arc::new(state);
        spawn_scheduler(state.clone());
        spawn_watcher(state.clone());
        ostrov_server::spawn_notifier(state.clone());
        let listener = ostrov_server::net::listen(&a.bind).await.map_err(|e| cannot_listen(&a.bind, &e, lang))?;
        let addr = listener.local_addr()?;
        match (lang, practice) {
            (Lang::Ru, None) => println!("Ostrov работает: http://{addr}/ (база данных {db}, {kind})"),
            (Lang::English, None) => println!("Ostrov serves on http://{addr}/ (database {db}, {kind})"),
            (Lang::Ru, Some(m)) => println!(
                "Практический сервер «Острова страха» работает: откройте http://{addr}/ в браузере — вы сядете за \
                 стол с шестью ботами, день длится {m} мин (база данных {db}; остановить — Ctrl+C)"
            ),
            (Lang::English, Some(m)) => println!(
                "The practice server of Island of Fear serves on http://{addr}/: open it in a browser to sit at a \
                 table with six bots, a day lasting {m} min (database {db}; Ctrl+C stops it)"
            ),
        }
        if telegram {
            match lang {
                Lang::Ru => println!("Telegram-бот включён (API: {})", a.telegram_api),
                Lang::English => println!("The Telegram bot is on (API: {})", a.telegram_api),
            }
        }
        if let Some(server) = mail {
            match lang {
                Lang::Ru => println!("Почта включена (SMTP: {server})"),
                Lang::English => println!("E-mail is on (SMTP: {server})"),
            }
        }
        if !state.store.shared() {
            return ostrov_server::serve(listener, state).await.map_err(|e| stopped(e, lang));
        }
        // One of several nodes: it owns the games it writes (issue 34), and on SIGTERM it
        // is drained: what it queued is written and its games' leases are given up, so
        // the other nodes take them over at once.
        let advertise = a.advertise.clone().unwrap_or_else(|| addr.to_string());
        state.store.join_nodes(advertise, std::time::Duration::from_secs(a.lease_seconds))?;
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
        let store = state.store.clone();
        tokio::select! {
            r = ostrov_server::serve(listener, state) => r.map_err(|e| stopped(e, lang)),
            _ = term.recv() => {
                if let Err(e) = store.release().await {
                    eprintln!("ostrov: {e}");
                }
                match lang {
                    Lang::Ru => eprintln!("Ostrov остановлен: игры этого узла переданы другим узлам"),
                    Lang::English => eprintln!("Ostrov stopped: this node's games are handed to the other nodes"),
                }
                Ok(())
            }
        }
    })
}

fn stopped(e: std::io::Error, lang: Lang) -> Failure {
    Failure(match lang {
        Lang::Ru => format!("сервер остановился: {e}"),
        Lang::English => format!("the server stopped: {e}"),
    })
}

/// The environment variable of the Telegram bot's token.
pub const TELEGRAM_TOKEN_VAR: &str = "OSTROV_TELEGRAM_TOKEN";

/// The environment variable of the SMTP password.
pub const SMTP_PASSWORD_VAR: &str = "OSTROV_SMTP_PASSWORD";

/// Notifications: the site's address for links, the Telegram bot when its token is in
/// the environment, and e-mail with `--smtp`. The token and the password are never printed.
fn notify_settings(a: &Args, lang: Lang) -> Result<ostrov_server::notify::Settings, Failure> {
    use ostrov_server::telegram::{api, Bot};
    let mut s = ostrov_server::notify::Settings { site: a.public_url.clone(), ..Default::default() };
    if let (Some(smtp), Some(from)) = (&a.smtp, &a.mail_from) {
        let failed = |e: String| {
            Failure(match lang {
                Lang::Ru => e,
                Lang::English => format!("e-mail: {e}"),
            })
        };
        if a.public_url.is_none() {
            return Err(failed(
                "--smtp: нужен и --public-url — в письмах ссылки на сайт (подтверждение, отписка)".into(),
            ));
        }
        let password = std::env::var(SMTP_PASSWORD_VAR).ok().filter(|p| !p.is_empty());
        let mailer = ostrov_server::mail::Mailer::new(smtp, from, a.smtp_user.as_deref(), password).map_err(failed)?;
        s.mail = Some(Arc::new(mailer));
    }
    let token = std::env::var(TELEGRAM_TOKEN_VAR).unwrap_or_default();
    if token.trim().is_empty() {
        return Ok(s);
    }
    let failed = |e: String| {
        Failure(match lang {
            Lang::Ru => e,
            Lang::English => format!("Telegram: {e}"),
        })
    };
    let token = api::Token::parse(&token).map_err(failed)?;
    let client = api::Api::new(&a.telegram_api, token).map_err(failed)?;
    s.telegram = Some(Arc::new(Bot::new(client)));
    Ok(s)
}

/// Why the server cannot listen on `bind`, and what to do.
fn cannot_listen(bind: &str, e: &std::io::Error, lang: Lang) -> Failure {
    use std::io::ErrorKind as K;
    Failure(match (lang, e.kind()) {
        (Lang::Ru, K::AddrInUse) => format!(
            "адрес {bind} уже занят другой программой (может быть, другим ostrov serve): остановите её или \
             выберите другой порт, например --bind 127.0.0.1:8081"
        ),
        (Lang::Ru, K::PermissionDenied) => {
            format!("нет прав слушать {bind}: порты ниже 1024 требуют прав администратора — возьмите порт выше, например 8080")
        }
        (Lang::Ru, K::AddrNotAvailable) => {
            format!("адреса {bind} нет у этой машины: укажите её адрес или 127.0.0.1 (--bind 127.0.0.1:8080)")
        }
        (Lang::Ru, _) => format!("не удалось слушать {bind}: нужен адрес вида 127.0.0.1:8080 или [::1]:8080 ({e})"),
        (Lang::English, K::AddrInUse) => format!("{bind} is taken by another program: stop it or choose another port"),
        (Lang::English, _) => format!("cannot listen on {bind}: {e}"),
    })
}

/// The database as it may be printed: a URL without its password.
pub(crate) fn shown(db: &str) -> String {
    match (db.find("://"), db.rfind('@')) {
        (Some(i), Some(at)) if at > i => match db[i + 3..at].split_once(':') {
            Some((user, _)) => format!("{}{user}:***{}", &db[..i + 3], &db[at..]),
            None => db.to_string(),
        },
        _ => db.to_string(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_password_in_the_database_url_is_not_printed() {
        assert_eq!(super::shown("postgres://u:secret@h/db"), "postgres://u:***@h/db");
        assert_eq!(super::shown("postgres://u@h/db"), "postgres://u@h/db");
        assert_eq!(super::shown("/var/lib/ostrov/ostrov.db"), "/var/lib/ostrov/ostrov.db");
    }
}
