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

/// A file the command could not read or write, said in the user's language: what went
/// wrong with `path` and what to do, never the system's English («No such file or
/// directory (os error 2)»). `doing` is what the command tried: read, create or write.
pub fn io_failure(e: &std::io::Error, path: &std::path::Path, doing: Io, lang: Lang) -> Failure {
    use std::io::ErrorKind as K;
    let shown = path.display();
    Failure(match (lang, e.kind()) {
        (Lang::Ru, K::NotFound) => format!("файла {shown} нет: проверьте путь и имя файла"),
        (Lang::Ru, K::IsADirectory) => format!("{shown} — это папка, а не файл: укажите файл"),
        (Lang::Ru, K::PermissionDenied) => format!("нет прав {} {shown}", doing.ru()),
        (Lang::Ru, K::AlreadyExists) => {
            format!("файл {shown} уже есть: он не перезаписывается, укажите другое имя или удалите его")
        }
        (Lang::Ru, K::InvalidData) => format!("{shown}: текст не в UTF-8; сохраните файл в UTF-8"),
        (Lang::Ru, _) => match e.raw_os_error() {
            Some(code) => format!("не удалось {} {shown} (ошибка системы {code})", doing.ru_verb()),
            None => format!("не удалось {} {shown}", doing.ru_verb()),
        },
        (Lang::English, K::NotFound) => format!("{shown} does not exist: check the path and the file name"),
        (Lang::English, K::IsADirectory) => format!("{shown} is a folder, not a file: name a file"),
        (Lang::English, K::AlreadyExists) => {
            format!("{shown} already exists: it is not overwritten, name another file")
        }
        (Lang::English, _) => format!("cannot {} {shown}: {e}", doing.en()),
    })
}

/// What the command did with a file that failed.
#[derive(Clone, Copy)]
pub enum Io {
    Read,
    Create,
    Write,
}

impl Io {
    fn ru(self) -> &'static str {
        match self {
            Io::Read => "на чтение",
            Io::Create => "на создание",
            Io::Write => "на запись в",
        }
    }
    fn ru_verb(self) -> &'static str {
        match self {
            Io::Read => "прочитать",
            Io::Create => "создать",
            Io::Write => "записать",
        }
    }
    fn en(self) -> &'static str {
        match self {
            Io::Read => "read",
            Io::Create => "create",
            Io::Write => "write",
        }
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
