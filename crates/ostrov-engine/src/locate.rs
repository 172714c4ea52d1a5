//! Where things are in a game file's text: the line of every key and list entry
//! ([`Lines`]), and the reader's errors turned into messages that name the line and say
//! what was probably meant (an unknown key, a lost `[[days]]` header).

use std::collections::HashMap;

use crate::error::GameFileError;
use crate::name::nearest;

/// The line (from 1) of every key and list entry of a game file, by its path:
/// `players.2.role`, `days.0.orders.3`, `rules.tie`, `deck.1` (list indices from 0).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lines(HashMap<String, usize>);

impl Lines {
    /// The line of `path`, or of the nearest enclosing entry that has one.
    pub fn get(&self, path: &str) -> Option<usize> {
        let mut p = path;
        loop {
            if let Some(l) = self.0.get(p) {
                return Some(*l);
            }
            p = &p[..p.rfind('.')?];
        }
    }

    /// The line of day `n`'s key (`tie_break`, `chosen`, `deal`, `orders`), or of the day.
    pub fn day_key(&self, n: u32, key: &str) -> Option<usize> {
        self.get(&format!("days.{}.{key}", n.checked_sub(1)?))
    }

    /// The line of day `n`'s order `index` (from 0).
    pub fn order(&self, n: u32, index: usize) -> Option<usize> {
        self.get(&format!("days.{}.orders.{index}", n.checked_sub(1)?))
    }

    /// The lines of a TOML text (empty if it does not parse: the reader reports that).
    pub fn of_toml(text: &str) -> Lines {
        let mut out = Lines::default();
        if let Ok(doc) = toml_edit::ImDocument::parse(text) {
            let starts = line_starts(text);
            toml_table(&mut out, &starts, "", doc.as_table());
        }
        out
    }

    /// The lines of a JSON text (as far as it is well formed).
    pub fn of_json(text: &str) -> Lines {
        let mut out = Lines::default();
        let mut j = Json { b: text.as_bytes(), i: 0, line: 1, out: &mut out };
        j.value("");
        out
    }

    fn put(&mut self, path: String, line: usize) {
        self.0.entry(path).or_insert(line);
    }
}

pub(crate) fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect()
}

/// The line (from 1) of byte `offset`.
pub(crate) fn line_of(starts: &[usize], offset: usize) -> usize {
    starts.partition_point(|&s| s <= offset)
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn toml_table(out: &mut Lines, starts: &[usize], path: &str, t: &toml_edit::Table) {
    let mut first: Option<usize> = None;
    for (k, item) in t.iter() {
        let p = join(path, k);
        let line = t.key(k).and_then(|k| k.span()).or_else(|| item.span()).map(|s| line_of(starts, s.start));
        if let Some(l) = line {
            out.put(p.clone(), l);
            first = Some(first.map_or(l, |f: usize| f.min(l)));
        }
        toml_item(out, starts, &p, item);
    }
    // A table's own line: its header, else its first key.
    if let Some(l) = t.span().map(|s| line_of(starts, s.start)).or(first) {
        if !path.is_empty() {
            out.put(path.to_string(), l);
        }
    }
}

fn toml_item(out: &mut Lines, starts: &[usize], path: &str, item: &toml_edit::Item) {
    match item {
        toml_edit::Item::Table(t) => toml_table(out, starts, path, t),
        toml_edit::Item::ArrayOfTables(a) => {
            for (i, t) in a.iter().enumerate() {
                toml_table(out, starts, &join(path, &i.to_string()), t);
            }
        }
        toml_edit::Item::Value(v) => toml_value(out, starts, path, v),
        toml_edit::Item::None => {}
    }
}

fn toml_value(out: &mut Lines, starts: &[usize], path: &str, v: &toml_edit::Value) {
    match v {
        toml_edit::Value::Array(a) => {
            for (i, e) in a.iter().enumerate() {
                let p = join(path, &i.to_string());
                if let Some(s) = e.span() {
                    out.put(p.clone(), line_of(starts, s.start));
                }
                toml_value(out, starts, &p, e);
            }
        }
        toml_edit::Value::InlineTable(t) => {
            for (k, e) in t.iter() {
                let p = join(path, k);
                if let Some(s) = t.key(k).and_then(|k| k.span()).or_else(|| e.span()) {
                    out.put(p.clone(), line_of(starts, s.start));
                }
                toml_value(out, starts, &p, e);
            }
        }
        _ => {}
    }
}

/// A small JSON walker that records the line of every key and array element; it gives
/// up quietly on malformed text (serde_json reports that, with its line).
struct Json<'a> {
    b: &'a [u8],
    i: usize,
    line: usize,
    out: &'a mut Lines,
}

impl Json<'_> {
    fn ws(&mut self) {
        while let Some(&c) = self.b.get(self.i) {
            match c {
                b'\n' => self.line += 1,
                b' ' | b'\t' | b'\r' => {}
                _ => return,
            }
            self.i += 1;
        }
    }

    fn string(&mut self) -> Option<String> {
        let start = self.i + 1;
        self.i += 1;
        while let Some(&c) = self.b.get(self.i) {
            match c {
                b'\\' => self.i += 1,
                b'"' => {
                    let raw = std::str::from_utf8(&self.b[start..self.i]).ok()?;
                    self.i += 1;
                    return Some(serde_json::from_str::<String>(&format!("\"{raw}\"")).unwrap_or_else(|_| raw.into()));
                }
                b'\n' => self.line += 1,
                _ => {}
            }
            self.i += 1;
        }
        None
    }

    fn value(&mut self, path: &str) -> Option<()> {
        self.ws();
        match *self.b.get(self.i)? {
            b'{' => {
                self.i += 1;
                loop {
                    self.ws();
                    match *self.b.get(self.i)? {
                        b'}' => {
                            self.i += 1;
                            return Some(());
                        }
                        b',' => self.i += 1,
                        b'"' => {
                            let line = self.line;
                            let key = self.string()?;
                            let p = join(path, &key);
                            self.out.put(p.clone(), line);
                            self.ws();
                            if self.b.get(self.i) != Some(&b':') {
                                return None;
                            }
                            self.i += 1;
                            self.value(&p)?;
                        }
                        _ => return None,
                    }
                }
            }
            b'[' => {
                self.i += 1;
                let mut k = 0;
                loop {
                    self.ws();
                    match *self.b.get(self.i)? {
                        b']' => {
                            self.i += 1;
                            return Some(());
                        }
                        b',' => self.i += 1,
                        _ => {
                            let p = join(path, &k.to_string());
                            self.out.put(p.clone(), self.line);
                            self.value(&p)?;
                            k += 1;
                        }
                    }
                }
            }
            b'"' => self.string().map(|_| ()),
            _ => {
                while let Some(&c) = self.b.get(self.i) {
                    if matches!(c, b',' | b'}' | b']' | b' ' | b'\n' | b'\t' | b'\r') {
                        break;
                    }
                    self.i += 1;
                }
                Some(())
            }
        }
    }
}

/// The keys of a `[[days]]` entry and of an order: where one of them stands in a
/// `[[players]]` entry or at the top level, a `[[days]]` header was lost.
const DAY_KEYS: &[&str] = &["event", "chosen", "tie_break", "deal", "orders"];
const RULES_KEYS: &[&str] = &["tie", "parity", "max_days", "no_repeat", "events"];
const PLAYER_KEYS: &[&str] = &["name", "role", "item"];
const ORDER_KEYS: &[&str] = &["by", "act", "target", "targets", "from", "text", "answer", "at"];

/// The reader's message (serde's English) turned into ours, at `line`.
pub(crate) fn reader_error(message: &str, line: Option<usize>, format: &str) -> GameFileError {
    let at_ru = line.map(|l| format!("строка {l}: ")).unwrap_or_default();
    let at_en = line.map(|l| format!("line {l}: ")).unwrap_or_default();
    let message = message.trim();
    if let Some(rest) = message.strip_prefix("unknown field `") {
        let (key, rest) = rest.split_once('`').unwrap_or((rest, ""));
        let expected: Vec<&str> = rest.split('`').skip(1).step_by(2).collect();
        let (ru, en) = unknown_key(key, &expected, line);
        return GameFileError::new(line, ru, en);
    }
    if let Some(rest) = message.strip_prefix("duplicate key `") {
        let key = rest.split('`').next().unwrap_or(rest);
        let (hint_ru, hint_en) = if DAY_KEYS.contains(&key) {
            (
                " — похоже, между двумя днями пропущен заголовок [[days]]",
                " — a [[days]] header between two days seems to be missing",
            )
        } else {
            ("", "")
        };
        return GameFileError::new(
            line,
            format!("{at_ru}ключ `{key}` повторяется{hint_ru}"),
            format!("{at_en}the key `{key}` is repeated{hint_en}"),
        );
    }
    if let Some(rest) = message.strip_prefix("missing field `") {
        let key = rest.split('`').next().unwrap_or(rest);
        return GameFileError::new(
            line,
            format!("{at_ru}не хватает ключа `{key}`"),
            format!("{at_en}the key `{key}` is missing"),
        );
    }
    if message.starts_with("invalid type") || message.starts_with("invalid value") {
        return GameFileError::new(
            line,
            format!("{at_ru}значение не того вида ({message})"),
            format!("{at_en}a value of the wrong kind ({message})"),
        );
    }
    GameFileError::new(
        line,
        format!("{at_ru}это не файл игры в формате {format}: {message}"),
        format!("{at_en}not a valid {format} game file: {message}"),
    )
}

/// «неизвестный ключ `tie_brake` (строка 14) — может быть, `tie_break`?», or, for a day's
/// key in a player's entry or at the top level, the lost `[[days]]` header.
fn unknown_key(key: &str, expected: &[&str], line: Option<usize>) -> (String, String) {
    let (l_ru, l_en) = match line {
        Some(l) => (format!(" (строка {l})"), format!(" (line {l})")),
        None => (String::new(), String::new()),
    };
    let in_player = expected.contains(&"role");
    let at_top = expected.contains(&"players");
    if (in_player || at_top) && (DAY_KEYS.contains(&key) || (in_player && ORDER_KEYS.contains(&key))) {
        let (w_ru, w_en) = if in_player {
            ("в записи игрока [[players]]", "inside a [[players]] entry")
        } else {
            ("до первого [[players]]", "before the first [[players]]")
        };
        return (
            format!(
                "ключ дня `{key}`{l_ru} стоит {w_ru}: похоже, перед ним пропущен заголовок [[days]] \
                 (без него приказы достались бы игроку, а все дни сдвинулись бы)"
            ),
            format!(
                "the day's key `{key}`{l_en} stands {w_en}: a [[days]] header before it seems to be missing \
                 (without it the orders would go to a player and every day would shift)"
            ),
        );
    }
    if let Some(n) = nearest(key, expected.iter().copied()) {
        return (
            format!("неизвестный ключ `{key}`{l_ru} — может быть, `{n}`?"),
            format!("unknown key `{key}`{l_en} — did you mean `{n}`?"),
        );
    }
    // A key of another table, in the wrong place or misspelt: say where it belongs.
    let elsewhere = [("[[days]]", DAY_KEYS), ("[rules]", RULES_KEYS), ("[[players]]", PLAYER_KEYS)];
    let other = elsewhere.iter().find_map(|(table, keys)| nearest(key, keys.iter().copied()).map(|n| (table, n)));
    match other {
        Some((table, n)) => (
            format!("неизвестный ключ `{key}`{l_ru} — может быть, `{n}`? Это ключ таблицы {table}"),
            format!("unknown key `{key}`{l_en} — did you mean `{n}`? That is a key of {table}"),
        ),
        None => {
            let known = expected.join(", ");
            (
                format!("неизвестный ключ `{key}`{l_ru}; здесь бывают: {known}"),
                format!("unknown key `{key}`{l_en}; the keys here are: {known}"),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_lines_of_tables_keys_and_inline_orders() {
        let text = "title = \"x\"\n[rules]\ntie = \"none\"\n\n[[players]]\nname = \"Аня\"\nrole = \"seer\"\n\
                    [[days]]\nevent = \"none\"\norders = [\n  { by = \"Аня\", act = \"vote\", target = \"Аня\" },\n  { by = \"Аня\", act = \"check\", target = \"Аня\" },\n]\n";
        let l = Lines::of_toml(text);
        assert_eq!(l.get("title"), Some(1));
        assert_eq!(l.get("rules.tie"), Some(3));
        assert_eq!(l.get("players.0"), Some(5));
        assert_eq!(l.get("players.0.role"), Some(7));
        assert_eq!(l.get("players.0.item"), Some(5), "a missing key falls back on its entry");
        assert_eq!(l.day_key(1, "event"), Some(9));
        assert_eq!(l.order(1, 0), Some(11));
        assert_eq!(l.order(1, 1), Some(12));
        assert_eq!(l.day_key(2, "event"), Some(8), "no day 2: the line of the days");
    }

    #[test]
    fn json_lines_of_keys_and_elements() {
        let text = "{\n \"players\": [\n  {\"name\": \"А\\\"ня\", \"role\": \"seer\"},\n  {\"name\": \"Боря\",\n   \"role\": \"werewolf\"}\n ],\n \"days\": [{\"orders\": [\n   {\"by\": \"Боря\"}]}]\n}\n";
        let l = Lines::of_json(text);
        assert_eq!(l.get("players.0.role"), Some(3));
        assert_eq!(l.get("players.1"), Some(4));
        assert_eq!(l.get("players.1.role"), Some(5));
        assert_eq!(l.order(1, 0), Some(8));
    }
}
