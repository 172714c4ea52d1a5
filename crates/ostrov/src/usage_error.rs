//! A wrong command line said in Russian (issue 29, point 6): clap's error kinds with their
//! context — the argument, the value, the suggestion — as one Russian sentence that says
//! what to write, never clap's English («error: unexpected argument '--jsn' found»).

use clap::error::{ContextKind, ContextValue, ErrorKind};

/// The message of a command-line error in Russian, or `None` for what is not an error
/// (the help and the version, which clap prints itself).
pub fn russian(e: &clap::Error) -> Option<String> {
    let get = |k: ContextKind| e.get(k);
    let one = |k: ContextKind| match get(k) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        Some(ContextValue::StyledStr(s)) => Some(s.to_string()),
        // clap lists its suggestions from the least to the most likely.
        Some(ContextValue::Strings(v)) => v.last().cloned(),
        Some(ContextValue::StyledStrs(v)) => v.last().map(|s| s.to_string()),
        _ => None,
    };
    let many = |k: ContextKind| -> Vec<String> {
        match get(k) {
            Some(ContextValue::String(s)) => vec![s.clone()],
            Some(ContextValue::Strings(v)) => v.clone(),
            Some(ContextValue::StyledStr(s)) => vec![s.to_string()],
            Some(ContextValue::StyledStrs(v)) => v.iter().map(|s| s.to_string()).collect(),
            _ => vec![],
        }
    };
    // `--format <ФОРМАТ>` → `--format`: the argument as the user types it.
    let arg = one(ContextKind::InvalidArg).map(|a| flag_of(&a)).unwrap_or_default();
    let value = one(ContextKind::InvalidValue).unwrap_or_default();
    let help = help_of(one(ContextKind::Usage).as_deref());
    let text = match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            return None
        }
        ErrorKind::InvalidValue if value.is_empty() => with(format!("для {arg} нужно значение: {arg} ЗНАЧЕНИЕ"), &help),
        ErrorKind::InvalidValue => {
            let valid = many(ContextKind::ValidValue);
            let near = one(ContextKind::SuggestedValue).map(|v| format!(" — может быть, «{v}»?")).unwrap_or_default();
            if valid.is_empty() {
                with(format!("значение «{value}» не подходит для {arg}{near}"), &help)
            } else {
                format!("значение «{value}» не подходит для {arg}: можно {}{near}", valid.join(", "))
            }
        }
        ErrorKind::ValueValidation => {
            let why = e.source_reason();
            with(format!("значение «{value}» не подходит для {arg}: {why}"), &help)
        }
        ErrorKind::UnknownArgument => {
            let near = match one(ContextKind::SuggestedArg) {
                Some(s) => format!(" — может быть, {}?", flag_of(&s)),
                None => String::new(),
            };
            if arg.starts_with('-') {
                with(format!("неизвестный параметр {arg}{near}"), &help)
            } else {
                with(format!("лишний аргумент «{arg}»: эта команда его не ждёт{near}"), &help)
            }
        }
        ErrorKind::InvalidSubcommand => {
            let cmd = one(ContextKind::InvalidSubcommand).unwrap_or_default();
            let near = match one(ContextKind::SuggestedSubcommand) {
                Some(s) => format!(" — может быть, «{s}»?"),
                None => String::new(),
            };
            format!("неизвестная команда «{cmd}»{near} Команды: {COMMANDS}; справка: ostrov --help")
        }
        ErrorKind::MissingSubcommand => format!("укажите команду: {COMMANDS} (справка: ostrov --help)"),
        ErrorKind::NoEquals => format!("для {arg} значение пишется через знак =: {arg}=ЗНАЧЕНИЕ"),
        ErrorKind::TooManyValues => with(format!("для {arg} лишнее значение «{value}»: нужно одно"), &help),
        ErrorKind::TooFewValues | ErrorKind::WrongNumberOfValues => {
            with(format!("для {arg} не хватает значений"), &help)
        }
        ErrorKind::ArgumentConflict => {
            let prior = one(ContextKind::PriorArg).map(|p| flag_of(&p));
            match prior {
                Some(p) if p != arg => format!("{arg} и {p} вместе не работают: оставьте что-то одно"),
                _ => format!("{arg} задан дважды: оставьте одно значение"),
            }
        }
        ErrorKind::MissingRequiredArgument => {
            let missing: Vec<String> = many(ContextKind::InvalidArg).iter().map(|a| missing_ru(a)).collect();
            with(format!("не хватает {}", missing.join(", ")), &help)
        }
        ErrorKind::InvalidUtf8 => "аргумент не в кодировке UTF-8: проверьте кодировку терминала".to_string(),
        _ => with("неверная командная строка".to_string(), &help),
    };
    Some(text)
}

/// The commands, for «неизвестная команда».
const COMMANDS: &str = "resolve, new, next, simulate, suggest, serve, backup";

/// `--format <ФОРМАТ>` → `--format`; `<ФАЙЛ>` stays.
fn flag_of(a: &str) -> String {
    if a.starts_with('-') {
        a.split([' ', '=']).next().unwrap_or(a).to_string()
    } else {
        a.to_string()
    }
}

/// A missing argument in words: `<ФАЙЛ>` is «файл игры», an option keeps its name.
fn missing_ru(a: &str) -> String {
    match a {
        "<ФАЙЛ>" | "<FILE>" => "файла игры (ФАЙЛ)".to_string(),
        "<КОПИЯ>" | "<OUT>" => "файла для копии (КОПИЯ)".to_string(),
        a if a.starts_with('-') => flag_of(a),
        a => a.to_string(),
    }
}

/// The command whose help to read, from the usage line clap keeps with the error:
/// `ostrov resolve`.
fn help_of(usage: Option<&str>) -> String {
    let Some(u) = usage else { return String::new() };
    let u = u.trim();
    let u = u.strip_prefix("Usage:").or_else(|| u.strip_prefix("Использование:")).unwrap_or(u);
    let words: Vec<&str> = u
        .split_whitespace()
        .take_while(|w| !w.starts_with('[') && !w.starts_with('<') && !w.starts_with('-'))
        .collect();
    words.join(" ")
}

/// `text` and where to read more: «…? Справка: ostrov resolve --help», «…; справка: …».
fn with(text: String, command: &str) -> String {
    match (command.is_empty(), text.ends_with('?')) {
        (true, _) => text,
        (false, true) => format!("{text} Справка: {command} --help"),
        (false, false) => format!("{text}; справка: {command} --help"),
    }
}

trait SourceReason {
    /// Why a value did not parse, in Russian.
    fn source_reason(&self) -> String;
}

impl SourceReason for clap::Error {
    fn source_reason(&self) -> String {
        use std::error::Error;
        use std::num::IntErrorKind;
        match self.source() {
            Some(s) => match s.downcast_ref::<std::num::ParseIntError>().map(|p| p.kind()) {
                Some(IntErrorKind::PosOverflow) => "слишком большое число".to_string(),
                Some(IntErrorKind::Empty) => "нужно целое число, а значение пустое".to_string(),
                Some(_) => "нужно целое число от 0, цифрами".to_string(),
                None if s.downcast_ref::<std::num::ParseFloatError>().is_some() => "нужно число".to_string(),
                // clap's ranged parsers: «99999999999 is not in 0..=4294967295».
                None => match s.to_string().split_once(" is not in ").and_then(|(_, r)| r.split_once("..=")) {
                    Some((lo, hi)) => format!("нужно целое число от {lo} до {hi}"),
                    None => "значение другого вида".to_string(),
                },
            },
            None => "значение другого вида".to_string(),
        }
    }
}
