//! The server's source files keep the shape issue 27 asks for, read from `src/` as text:
//!
//! 1. no import circle among the files: the graph of references from one file to another
//!    has no cycle;
//! 2. no file under `src/web/` refers to `crate::routes` (the pages call the layer below the
//!    handlers, never a handler);
//! 3. no file is over [`MAX_LINES`] lines;
//! 4. no file under `src/web/` builds untyped JSON (`serde_json::Value`, `json!`).
//!
//! The server does not hold all four today, so each check compares what it finds with an
//! allow-list of today's offenders, both ways: a new offender fails, and so does a listed
//! one that no longer offends ("remove it from the list"). The lists only shrink, and issue
//! 27 is done when all four are empty.
//!
//! A file is a module (`foo/mod.rs` is `foo`, `foo/bar.rs` is `foo::bar`, `lib.rs` the
//! crate root). A reference is a path of two segments or more that starts with `crate`,
//! `super`, `self`, or the name of a child module of the file (`event::Post` in
//! `game/mod.rs`); `use` groups (`use crate::{a, b::{c, d}}`) count every path they name.
//! It points to the file of the longest module its path names: `crate::game::talk::Posted`
//! to `game/talk.rs`, `crate::game::GameState` to `game/mod.rs`, `crate::AppState` to
//! `lib.rs`. Declaring a child (`mod talk;`) is not a reference. Comments, string and
//! character literals and test code (an item under `#[cfg(test)]`) are not counted.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The import circles among today's files: each strongly connected component of the
/// graph with more than one file, its files sorted. Issue 27: this list must shrink to
/// empty; a new circle, or a file joining a known one, fails.
const KNOWN_CYCLES: &[&[&str]] = &[];

/// Files under `src/web/` that refer to `crate::routes` today. Must shrink to empty.
const KNOWN_WEB_TO_ROUTES: &[&str] = &[];

/// The most lines a source file may have.
const MAX_LINES: usize = 800;

/// Files over [`MAX_LINES`] lines today. Must shrink to empty.
const KNOWN_LONG: &[&str] = &[];

/// Files under `src/web/` that use `serde_json::Value` or `json!` today. Must shrink to
/// empty.
const KNOWN_WEB_JSON: &[&str] = &[];

/// A token of Rust source, with comments and literals gone.
#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    /// `::`
    Path,
    Punct(char),
    /// A string, character or number literal.
    Lit,
}

/// The tokens of a source file: identifiers, `::` and punctuation. Comments (nested block
/// comments too), strings (raw, byte and C strings too), characters and numbers are read
/// over, so that nothing inside them looks like a path.
fn tokens(text: &str) -> Vec<Tok> {
    let c: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    while i < c.len() {
        let ch = c[i];
        let next = c.get(i + 1).copied();
        if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if ch == '"' {
            i = string_end(&c, i + 1);
            out.push(Tok::Lit);
        } else if ch == '\'' {
            // A character literal ('a', '\n', '\u{FE0F}') or a lifetime ('a, 'static).
            if next == Some('\\') {
                i += 3;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
                out.push(Tok::Lit);
            } else if c.get(i + 2) == Some(&'\'') {
                i += 3;
                out.push(Tok::Lit);
            } else {
                i += 1;
                while i < c.len() && ident(c[i]) {
                    i += 1;
                }
            }
        } else if ch.is_ascii_digit() {
            while i < c.len() && ident(c[i]) {
                i += 1;
            }
            out.push(Tok::Lit);
        } else if ident(ch) {
            let start = i;
            while i < c.len() && ident(c[i]) {
                i += 1;
            }
            let word: String = c[start..i].iter().collect();
            // A raw string (r"…", r#"…"#, br"…", cr"…"), or a byte or C string or byte.
            let hashes = c[i..].iter().take_while(|&&h| h == '#').count();
            if matches!(word.as_str(), "r" | "br" | "cr") && c.get(i + hashes) == Some(&'"') {
                let close = format!("\"{}", "#".repeat(hashes));
                let rest: String = c[i + hashes + 1..].iter().collect();
                let end = rest.find(&close).expect("a closed raw string");
                i += hashes + 1 + rest[..end].chars().count() + close.chars().count();
                out.push(Tok::Lit);
            } else if matches!(word.as_str(), "b" | "c") && c.get(i) == Some(&'"') {
                i = string_end(&c, i + 1);
                out.push(Tok::Lit);
            } else if word == "b" && c.get(i) == Some(&'\'') {
                i += 1;
                while i < c.len() && c[i] != '\'' {
                    i += if c[i] == '\\' { 2 } else { 1 };
                }
                i += 1;
                out.push(Tok::Lit);
            } else if word == "r" && hashes == 1 {
                // A raw identifier: r#type.
                i += 1;
            } else {
                out.push(Tok::Ident(word));
            }
        } else if ch == ':' && next == Some(':') {
            out.push(Tok::Path);
            i += 2;
        } else {
            out.push(Tok::Punct(ch));
            i += 1;
        }
    }
    out
}

/// The index just past the string that starts before `i` (after its opening quote).
fn string_end(c: &[char], mut i: usize) -> usize {
    while i < c.len() && c[i] != '"' {
        i += if c[i] == '\\' { 2 } else { 1 };
    }
    i + 1
}

/// The tokens without the items under `#[cfg(test)]` (a test module, a test-only `use` or
/// function): test code is not counted.
fn without_tests(toks: &[Tok]) -> Vec<Tok> {
    let cfg_test: Vec<Tok> = ["#", "[", "cfg", "(", "test", ")", "]"]
        .iter()
        .map(|s| match *s {
            "cfg" | "test" => Tok::Ident(s.to_string()),
            p => Tok::Punct(p.chars().next().unwrap()),
        })
        .collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if !toks[i..].starts_with(&cfg_test) {
            out.push(toks[i].clone());
            i += 1;
            continue;
        }
        i += cfg_test.len();
        // The item's other attributes, then the item: to its `;`, or to the end of its
        // first block.
        let mut depth = 0i32;
        while i < toks.len() {
            let t = &toks[i];
            i += 1;
            match t {
                Tok::Punct('(' | '[' | '{') => depth += 1,
                Tok::Punct(')' | ']') => depth -= 1,
                Tok::Punct('}') => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                Tok::Punct(';') if depth == 0 => break,
                _ => {}
            }
        }
    }
    out
}

/// Reads the path that starts at `toks[*i]` (an identifier) and moves `*i` past it: every
/// path it names, `use` groups expanded (`a::{b, c::{d, self}}` is `a::b`, `a::c::d`,
/// `a::c`; `a::*` is `a::*`).
fn path_at(toks: &[Tok], i: &mut usize) -> Vec<Vec<String>> {
    let Some(Tok::Ident(first)) = toks.get(*i) else { return Vec::new() };
    *i += 1;
    let mut prefix = vec![first.clone()];
    while toks.get(*i) == Some(&Tok::Path) {
        match toks.get(*i + 1) {
            Some(Tok::Ident(seg)) => {
                prefix.push(seg.clone());
                *i += 2;
            }
            Some(Tok::Punct('*')) => {
                prefix.push("*".into());
                *i += 2;
                break;
            }
            Some(Tok::Punct('{')) => {
                *i += 2;
                let mut out = Vec::new();
                loop {
                    match toks.get(*i) {
                        Some(Tok::Punct('}')) | None => {
                            *i += 1;
                            break;
                        }
                        Some(Tok::Punct(',')) => *i += 1,
                        Some(Tok::Punct('*')) => {
                            out.push([prefix.clone(), vec!["*".into()]].concat());
                            *i += 1;
                        }
                        Some(Tok::Ident(w)) if w == "as" => *i += 2,
                        Some(Tok::Ident(w)) if w == "self" => {
                            out.push(prefix.clone());
                            *i += 1;
                        }
                        Some(Tok::Ident(_)) => {
                            for p in path_at(toks, i) {
                                out.push([prefix.clone(), p].concat());
                            }
                        }
                        Some(_) => *i += 1,
                    }
                }
                return out;
            }
            // A turbofish (`parse::<T>`) or anything else ends the path.
            _ => break,
        }
    }
    vec![prefix]
}

/// What one file refers to, with `mod` declarations left out: every path of two segments
/// or more, with the module it is written in (the file's, or an inline `mod x { … }`
/// inside it).
fn paths(file_module: &[String], toks: &[Tok]) -> Vec<(Vec<String>, Vec<String>)> {
    let mut out = Vec::new();
    let mut inline: Vec<(String, i32)> = Vec::new();
    let mut depth = 0;
    let mut i = 0;
    while i < toks.len() {
        match &toks[i] {
            Tok::Ident(w) if w == "mod" => {
                if let (Some(Tok::Ident(name)), Some(Tok::Punct('{'))) = (toks.get(i + 1), toks.get(i + 2)) {
                    depth += 1;
                    inline.push((name.clone(), depth));
                    i += 3;
                } else {
                    i += 2;
                }
            }
            Tok::Ident(_) if i == 0 || toks[i - 1] != Tok::Path => {
                let module: Vec<String> =
                    file_module.iter().cloned().chain(inline.iter().map(|(n, _)| n.clone())).collect();
                for p in path_at(toks, &mut i) {
                    if p.len() >= 2 {
                        out.push((module.clone(), p));
                    }
                }
            }
            Tok::Punct('{') => {
                depth += 1;
                i += 1;
            }
            Tok::Punct('}') => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth -= 1;
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// The file a path written in `module` points to, if it names a module of the crate: the
/// file of the longest module it names.
fn resolve(modules: &BTreeMap<Vec<String>, String>, module: &[String], path: &[String]) -> Option<String> {
    let (mut abs, rest): (Vec<String>, &[String]) = match path[0].as_str() {
        "crate" => (Vec::new(), &path[1..]),
        "self" => (module.to_vec(), &path[1..]),
        "super" => {
            let ups = path.iter().take_while(|s| *s == "super").count();
            (module[..module.len().checked_sub(ups).expect("`super` above the crate")].to_vec(), &path[ups..])
        }
        child if modules.contains_key(&[module, &[child.to_string()]].concat()) => (module.to_vec(), path),
        _ => return None,
    };
    abs.extend(rest.iter().cloned());
    (0..=abs.len()).rev().find_map(|k| modules.get(&abs[..k]).cloned())
}

/// The strongly connected components of the graph (Tarjan's algorithm).
fn components(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in &self.graph[v] {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    self.low.insert(v, self.low[v].min(self.low[w]));
                } else if self.on_stack.contains(w) {
                    self.low.insert(v, self.low[v].min(self.index[w]));
                }
            }
            if self.low[v] == self.index[v] {
                let mut c = Vec::new();
                loop {
                    let w = self.stack.pop().unwrap();
                    self.on_stack.remove(w);
                    c.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                c.sort();
                self.out.push(c);
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !walk.index.contains_key(v.as_str()) {
            walk.visit(v);
        }
    }
    walk.out.sort();
    walk.out
}

/// Every `.rs` file under `dir`, by its path relative to `root` with `/`.
fn files(root: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
            out.insert(rel, std::fs::read_to_string(&path).unwrap());
        }
    }
}

/// The module of a file: `lib.rs` is the root, `a/mod.rs` is `a`, `a/b.rs` is `a::b`.
fn module_of(file: &str) -> Vec<String> {
    let mut segs: Vec<String> = file.trim_end_matches(".rs").split('/').map(str::to_string).collect();
    if segs.last().is_some_and(|s| s == "mod" || s == "lib") && (segs.len() > 1 || segs[0] == "lib") {
        segs.pop();
    }
    segs
}

/// Compares what a check found with its allow-list, both ways; the failures in words.
fn compare(what: &str, list: &str, found: &BTreeSet<String>, known: &[&str], failures: &mut Vec<String>) {
    let known: BTreeSet<String> = known.iter().map(|s| s.to_string()).collect();
    for f in found.difference(&known) {
        failures.push(format!("{f}: {what} (not in {list}: fix it, do not list it)"));
    }
    for f in known.difference(found) {
        failures.push(format!("{f}: listed in {list} but no longer {what}: remove it from the list"));
    }
}

struct Source {
    /// File → its text.
    text: BTreeMap<String, String>,
    /// File → the files it refers to.
    graph: BTreeMap<String, BTreeSet<String>>,
    /// File → its tokens without test code.
    code: BTreeMap<String, Vec<Tok>>,
}

fn source() -> Source {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut text = BTreeMap::new();
    files(&src, &src, &mut text);
    let modules: BTreeMap<Vec<String>, String> = text.keys().map(|f| (module_of(f), f.clone())).collect();
    assert_eq!(modules.len(), text.len(), "two files are one module");
    let mut graph = BTreeMap::new();
    let mut code = BTreeMap::new();
    for (file, t) in &text {
        let toks = without_tests(&tokens(t));
        let deps: &mut BTreeSet<String> = graph.entry(file.clone()).or_default();
        for (module, path) in paths(&module_of(file), &toks) {
            if let Some(target) = resolve(&modules, &module, &path) {
                if target != *file {
                    deps.insert(target);
                }
            }
        }
        code.insert(file.clone(), toks);
    }
    Source { text, graph, code }
}

#[test]
fn the_server_files_import_each_other_without_a_new_cycle() {
    let s = source();
    let cycles: Vec<Vec<String>> = components(&s.graph).into_iter().filter(|c| c.len() > 1).collect();
    let known: BTreeSet<Vec<String>> = KNOWN_CYCLES.iter().map(|c| c.iter().map(|s| s.to_string()).collect()).collect();
    let found: BTreeSet<Vec<String>> = cycles.iter().cloned().collect();
    if found == known {
        return;
    }
    let mut msg = String::from("the server's files import each other in circles (issue 27):\n");
    for c in &cycles {
        let tag = if known.contains(c) { "known" } else { "NEW or grown" };
        msg.push_str(&format!("\n[{tag}] {}\n", c.join(", ")));
        for f in c {
            let inside: Vec<&str> = s.graph[f].iter().filter(|d| c.contains(d)).map(String::as_str).collect();
            msg.push_str(&format!("    {f} → {}\n", inside.join(", ")));
        }
    }
    for k in known.difference(&found) {
        msg.push_str(&format!("\n[gone or shrunk: update KNOWN_CYCLES] {}\n", k.join(", ")));
    }
    msg.push_str("\nKNOWN_CYCLES today would be:\n");
    for c in &cycles {
        let files: Vec<String> = c.iter().map(|f| format!("{f:?}")).collect();
        msg.push_str(&format!("    &[{}],\n", files.join(", ")));
    }
    panic!("{msg}");
}

#[test]
fn web_pages_do_not_call_the_routes() {
    let s = source();
    let found: BTreeSet<String> = s
        .graph
        .iter()
        .filter(|(f, deps)| f.starts_with("web/") && deps.iter().any(|d| d.starts_with("routes/")))
        .map(|(f, _)| f.clone())
        .collect();
    let mut failures = Vec::new();
    compare("refers to crate::routes from src/web/", "KNOWN_WEB_TO_ROUTES", &found, KNOWN_WEB_TO_ROUTES, &mut failures);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn no_source_file_is_over_800_lines() {
    let s = source();
    let found: BTreeSet<String> =
        s.text.iter().filter(|(_, t)| t.lines().count() > MAX_LINES).map(|(f, _)| f.clone()).collect();
    let mut failures = Vec::new();
    compare(&format!("over {MAX_LINES} lines"), "KNOWN_LONG", &found, KNOWN_LONG, &mut failures);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn web_pages_build_no_untyped_json() {
    let s = source();
    let untyped = |toks: &[Tok]| {
        let mut i = 0;
        while i < toks.len() {
            if toks[i] == Tok::Ident("json".into()) && toks.get(i + 1) == Some(&Tok::Punct('!')) {
                return true;
            }
            if matches!(&toks[i], Tok::Ident(_)) && (i == 0 || toks[i - 1] != Tok::Path) {
                let paths = path_at(toks, &mut i);
                if paths.iter().any(|p| p[0] == "serde_json" && p[1..].iter().any(|s| s == "Value" || s == "json")) {
                    return true;
                }
            } else {
                i += 1;
            }
        }
        false
    };
    let found: BTreeSet<String> =
        s.code.iter().filter(|(f, t)| f.starts_with("web/") && untyped(t)).map(|(f, _)| f.clone()).collect();
    let mut failures = Vec::new();
    compare("uses serde_json::Value or json! in src/web/", "KNOWN_WEB_JSON", &found, KNOWN_WEB_JSON, &mut failures);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The reader itself, on a piece of code written to trip it.
#[test]
fn the_reader_sees_paths_and_nothing_else() {
    let code = r####"
        //! crate::doc
        use crate::{a, b::{c, self}, d::*};
        use super::*;
        /* crate::x /* nested crate::y */ still comment crate::z */
        fn f<'a>(s: &'a str) -> char { let _ = "crate::in_string \" crate::q"; let _ = r#"crate::raw"#; '"' }
        fn g() { let c = '\''; crate::e::F(); x.parse::<u8>(); event::Post::new(); }
        #[cfg(test)]
        mod tests { use crate::t; }
        mod inner { use super::h; }
    "####;
    let toks = without_tests(&tokens(code));
    let got: Vec<String> = paths(&["m".to_string()], &toks)
        .into_iter()
        .map(|(m, p)| format!("{}: {}", m.join("::"), p.join("::")))
        .collect();
    assert_eq!(
        got,
        [
            "m: crate::a",
            "m: crate::b::c",
            "m: crate::b",
            "m: crate::d::*",
            "m: super::*",
            "m: crate::e::F",
            "m: event::Post::new",
            "m::inner: super::h",
        ]
    );
}
