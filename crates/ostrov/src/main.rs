//! `ostrov`: the command line of Ostrov, a thin layer over the library crates.

mod backup;
mod new;
mod next;
mod resolve;
mod serve;
mod simulate;
mod suggest;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use ostrov_engine::Lang;

/// mimalloc instead of the C library's allocator. The server allocates and frees small
/// pieces on every request from several threads; glibc's per-thread arenas fragmented
/// under that and slowed even SQLite's commits, which share the C heap. Measured with
/// `cargo run --release -p ostrov-server --example load` (README, "Server performance").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Ostrov — the host engine of «Остров страха» (Island of Fear).
#[derive(Parser)]
#[command(name = "ostrov", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
    /// The language of messages and labels: ru (default) or en. Without it, a locale
    /// (LC_ALL, LC_MESSAGES or LANG) that starts with "en" chooses English.
    #[arg(long, global = true, value_parser = ["ru", "en"])]
    lang: Option<String>,
}

/// The language the command line speaks: `--lang`, else the locale (`LANG=en_US.UTF-8`).
fn language(flag: Option<&str>) -> Lang {
    let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].iter().find_map(|v| std::env::var(v).ok().filter(|s| !s.is_empty()));
    Lang::choose(flag, locale.as_deref())
}

#[derive(Subcommand)]
enum Cmd {
    Resolve(resolve::Args),
    New(new::Args),
    Next(next::Args),
    Simulate(simulate::Args),
    Suggest(suggest::Args),
    Serve(serve::Args),
    Backup(backup::Args),
}

/// A failure the CLI reports in one line: exit code 2 for a bad file or bad arguments.
pub struct Failure(pub String);

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(e: E) -> Failure {
        Failure(e.to_string())
    }
}

/// Output commands stop quietly when their reader goes away (`ostrov resolve … | head`),
/// as Unix tools do, instead of panicking on a closed pipe: the default action of SIGPIPE,
/// which the Rust runtime turns off, is restored for them. The server keeps it off (a
/// client hanging up must never stop it).
fn quiet_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: called once at start, before any thread exists; SIG_DFL is a valid action.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if !matches!(cli.command, Cmd::Serve(_)) {
        quiet_on_closed_pipe();
    }
    let lang = language(cli.lang.as_deref());
    let result = match cli.command {
        Cmd::Resolve(a) => resolve::run(a, lang),
        Cmd::New(a) => new::run(a, lang),
        Cmd::Next(a) => next::run(a, lang),
        Cmd::Simulate(a) => simulate::run(a, lang),
        Cmd::Suggest(a) => suggest::run(a, lang),
        Cmd::Serve(a) => serve::run(a),
        Cmd::Backup(a) => backup::run(a, lang),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure(msg)) => {
            eprintln!("ostrov: {msg}");
            ExitCode::from(2)
        }
    }
}
