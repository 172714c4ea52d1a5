//! Where things are in a game file's text: the line of every key and list entry
//! ([`Lines`]).

use std::collections::HashMap;

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
