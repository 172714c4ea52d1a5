//! The game file as written (GAME_FILE.md): names and ids as text, nothing checked yet;
//! read from TOML or JSON, written back as TOML.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::GameFileError;

/// A game file as written: names and ids as text, nothing checked yet.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameFile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shuffle: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<RulesEntry>,
    #[serde(default)]
    pub players: Vec<PlayerEntry>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub days: Vec<DayEntry>,
}

/// The `[rules]` table.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesEntry {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tie: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parity: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_days: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_repeat: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub events: Option<BTreeMap<String, f64>>,
}

/// One `[[players]]` entry.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerEntry {
    pub name: String,
    pub role: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item: Option<String>,
    /// `m`/`f` (also `м`/`ж`, `male`/`female`): verbs and roles agree with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gender: Option<String>,
    /// The name's six forms by case: nominative, genitive, dative, accusative,
    /// instrumental, prepositional (`["Лев", "Льва", "Льву", "Льва", "Львом", "Льве"]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forms: Option<Vec<String>>,
}

/// `tie_break`: one name or a list of names.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    pub(super) fn names(&self) -> Vec<&str> {
        match self {
            OneOrMany::One(s) => vec![s.as_str()],
            OneOrMany::Many(v) => v.iter().map(String::as_str).collect(),
        }
    }
}

/// One `[[days]]` entry.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DayEntry {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chosen: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tie_break: Option<OneOrMany>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal: Option<BTreeMap<String, String>>,
    #[serde(default)]
    pub orders: Vec<OrderEntry>,
}

/// One order as written.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrderEntry {
    pub by: String,
    pub act: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub targets: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// `withdraw`: the act of the order taken back (O-ORDER-4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub what: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<Value>,
}

impl GameFile {
    /// Reads a TOML game file. An unknown key anywhere is an error that names its line
    /// and the nearest known key.
    pub fn from_toml(text: &str) -> Result<GameFile, GameFileError> {
        toml::from_str(text).map_err(|e| crate::reader::toml_error(text, &e))
    }

    /// Reads a JSON game file.
    pub fn from_json(text: &str) -> Result<GameFile, GameFileError> {
        serde_json::from_str(text).map_err(|e| crate::reader::json_error(text, &e))
    }

    /// Reads either form: JSON when the text starts with `{`, TOML otherwise.
    pub fn parse(text: &str) -> Result<GameFile, GameFileError> {
        if is_json(text) {
            Self::from_json(text)
        } else {
            Self::from_toml(text)
        }
    }

    /// Reads bytes (checking they are UTF-8) in either form.
    pub fn parse_bytes(bytes: &[u8]) -> Result<GameFile, GameFileError> {
        Self::parse(text_of(bytes)?)
    }

    /// Writes the file as TOML.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a game file always serialises to TOML")
    }
}

pub(super) fn is_json(text: &str) -> bool {
    text.trim_start().starts_with('{')
}

/// The text of a file's bytes: UTF-8, without a byte order mark.
pub(super) fn text_of(bytes: &[u8]) -> Result<&str, GameFileError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()].iter().filter(|&&b| b == b'\n').count() + 1;
        let (cp_ru, cp_en) = if looks_cp1251(bytes) {
            (", а, похоже, в Windows-1251 (cp1251)", ", it looks like Windows-1251 (cp1251)")
        } else {
            ("", "")
        };
        GameFileError::new(
            Some(line),
            format!(
                "строка {line}: файл не в кодировке UTF-8{cp_ru}: сохраните файл в UTF-8 (в Блокноте — «Сохранить \
                 как…», кодировка UTF-8) и запустите снова"
            ),
            format!("line {line}: the file is not UTF-8 text{cp_en}: save it as UTF-8 and run again"),
        )
    })?;
    Ok(text.strip_prefix('\u{feff}').unwrap_or(text))
}

/// Whether text that is not UTF-8 reads as Russian in Windows-1251: its bytes above ASCII
/// are mostly that code page's letters (А–я at 0xC0–0xFF, Ё and ё).
fn looks_cp1251(bytes: &[u8]) -> bool {
    let high = bytes.iter().filter(|&&b| b >= 0x80).count();
    let letters = bytes.iter().filter(|&&b| b >= 0xC0 || b == 0xA8 || b == 0xB8).count();
    high > 0 && letters * 10 >= high * 9
}
