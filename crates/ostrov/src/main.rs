//! `ostrov`: the command line of Ostrov, a thin layer over the library crates.

mod backup;
mod demo;
mod help;
mod new;
mod next;
mod observed;
mod resolve;
mod serve;
mod simulate;
mod suggest;
mod usage_error;

use std::process::ExitCode;

use clap::{FromArgMatches, Parser, Subcommand};
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

/// The `--lang` of the raw arguments, read before clap parses them: the help and clap's
/// own errors are already in that language.
fn lang_flag(args: &[std::ffi::OsString]) -> Option<String> {
    let mut it = args.iter().skip(1).map(|a| a.to_string_lossy());
    while let Some(a) = it.next() {
        if a == "--" {
            break;
        }
        if let Some(v) = a.strip_prefix("--lang=") {
            return Some(v.to_string());
        }
        if a == "--lang" {
            return it.next().map(|v| v.to_string());
        }
    }
    None
}

/// The parsed command line in `lang`: clap's help and version printed as clap does, a
/// wrong command line said in Russian (or clap's English) with exit code 2.
fn parse(args: Vec<std::ffi::OsString>, lang: Lang) -> Result<Cli, ExitCode> {
    let failed = |e: clap::Error| match (lang, usage_error::russian(&e)) {
        (Lang::Ru, Some(msg)) => {
            eprintln!("ostrov: {msg}");
            ExitCode::from(2)
        }
        _ => {
            let _ = e.print();
            ExitCode::from(e.exit_code().clamp(0, 255) as u8)
        }
    };
    let matches = help::command(lang).try_get_matches_from(args).map_err(failed)?;
    Cli::from_arg_matches(&matches).map_err(failed)
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
    Demo(demo::Args),
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
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let flag = lang_flag(&args).filter(|l| l == "ru" || l == "en");
    let cli = match parse(args, language(flag.as_deref())) {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    if !matches!(cli.command, Cmd::Serve(_) | Cmd::Demo(_)) {
        quiet_on_closed_pipe();
    }
    let lang = language(cli.lang.as_deref());
    let result = match cli.command {
        Cmd::Resolve(a) => resolve::run(a, lang),
        Cmd::New(a) => new::run(a, lang),
        Cmd::Next(a) => next::run(a, lang),
        Cmd::Simulate(a) => simulate::run(a, lang),
        Cmd::Suggest(a) => suggest::run(a, lang),
        Cmd::Serve(a) => serve::run(a, lang),
        Cmd::Backup(a) => backup::run(a, lang),
        Cmd::Demo(a) => demo::run(a, lang),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure(msg)) => {
            eprintln!("ostrov: {msg}");
            ExitCode::from(2)
        }
    }
}
