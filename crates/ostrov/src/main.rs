//! `ostrov`: the command line of Ostrov, a thin layer over the library crates.

mod new;
mod resolve;
mod serve;
mod simulate;
mod suggest;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Ostrov — the host engine of «Остров страха» (Island of Fear).
#[derive(Parser)]
#[command(name = "ostrov", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    Resolve(resolve::Args),
    New(new::Args),
    Simulate(simulate::Args),
    Suggest(suggest::Args),
    Serve(serve::Args),
}

/// A failure the CLI reports in one line: exit code 2 for a bad file or bad arguments.
pub struct Failure(pub String);

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(e: E) -> Failure {
        Failure(e.to_string())
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Cmd::Resolve(a) => resolve::run(a),
        Cmd::New(a) => new::run(a),
        Cmd::Simulate(a) => simulate::run(a),
        Cmd::Suggest(a) => suggest::run(a),
        Cmd::Serve(a) => serve::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure(msg)) => {
            eprintln!("ostrov: {msg}");
            ExitCode::from(2)
        }
    }
}
