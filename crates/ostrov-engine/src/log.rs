//! The resolution log: one Russian sentence per thing that happened, with its step.

use crate::step::Step;

/// One entry of the log (the report's `log[]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogEntry {
    /// The step of RULES.md it belongs to (the report prints its [`Step::number`]).
    pub step: Step,
    pub text: String,
}

/// The log of one day. When detail is off (bulk simulation) nothing is formatted.
#[derive(Clone, Debug, Default)]
pub struct Log {
    pub(crate) on: bool,
    pub(crate) entries: Vec<LogEntry>,
}

impl Log {
    pub(crate) fn new(on: bool) -> Log {
        Log { on, entries: Vec::new() }
    }

    /// Adds an entry; the text is only built when the log is on.
    #[inline]
    pub(crate) fn add(&mut self, step: Step, text: impl FnOnce() -> String) {
        if self.on {
            self.entries.push(LogEntry { step, text: text() });
        }
    }
}
