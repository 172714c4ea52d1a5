//! `ostrov demo`: a practice server on this machine (issue 32, point 5): whoever opens its
//! page plays at once, as a guest, against six bots on a fast clock. The server is
//! `ostrov serve`'s ([`crate::serve::start`]) with the practice settings.

use std::path::PathBuf;

use clap::Args as ClapArgs;
use ostrov_engine::Lang;

use crate::Failure;

/// Serve practice games on this machine: whoever opens the page is signed in as a guest
/// and seated in a fresh game with six bots, the recommended setup, on a fast clock.
#[derive(ClapArgs)]
pub struct Args {
    /// The database: a SQLite file path (created on first start), or postgres://user@host/dbname.
    #[arg(long, default_value = "ostrov-demo.db")]
    db: String,
    /// The address to listen on (port 0: any free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    bind: String,
    /// How many minutes a game day lasts (3 to 720).
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u32).range(3..=720))]
    day_minutes: u32,
    /// For tests: read the current time (Unix seconds) from this file instead of the clock.
    #[arg(long, hide = true)]
    clock_file: Option<PathBuf>,
}

pub fn run(a: Args, lang: Lang) -> Result<(), Failure> {
    let serve = crate::serve::Args {
        db: a.db,
        bind: a.bind,
        public_url: None,
        trust_proxy: false,
        signups_per_hour: ostrov_server::ratelimit::SIGNUPS_PER_HOUR,
        telegram_api: ostrov_server::telegram::api::DEFAULT_API.to_string(),
        smtp: None,
        mail_from: None,
        smtp_user: None,
        lease_seconds: ostrov_server::forward::LEASE_SECONDS,
        advertise: None,
        clock_file: a.clock_file,
    };
    crate::serve::start(serve, lang, Some(a.day_minutes))
}
