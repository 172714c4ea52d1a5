//! The engine's modules import each other without a cycle: the graph of `crate::…`
//! references between the modules of `src/` is a DAG (a module may use its own
//! submodules; `ru/` counts as one module). Test code (`#[cfg(test)] mod tests`, inline
//! or a directory module's `tests.rs`) and comments are not counted.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The source of a module with its test module and comment lines left out.
fn code_of(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if line.trim() == "#[cfg(test)]" && lines.peek().is_some_and(|l| l.starts_with("mod tests")) {
            // Skip to the test module's closing brace at column 0.
            for l in lines.by_ref() {
                if l == "}" {
                    break;
                }
            }
            continue;
        }
        if line.trim_start().starts_with("//") {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The first path segment of every item a `crate::` reference names: `crate::a::B` → `a`,
/// `crate::{a::B, C}` → `a`, `C`.
fn crate_refs(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(k) = rest.find("crate::") {
        let before = rest[..k].chars().last();
        rest = &rest[k + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').expect("a closed use group");
            for part in group[..end].split(',') {
                let seg: String = part.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                if !seg.is_empty() {
                    out.push(seg);
                }
            }
        } else {
            let seg: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            out.push(seg);
        }
    }
    out
}

/// The crate root's re-exports: item name → the module it comes from.
fn reexports(lib: &str) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    for stmt in code_of(lib).split(';') {
        let Some(path) = stmt.trim().strip_prefix("pub use ") else { continue };
        let (module, items) = path.split_once("::").expect("pub use module::…");
        let items = items.trim().trim_start_matches('{').trim_end_matches('}');
        for item in items.split(',') {
            let item = item.trim();
            let name = item.rsplit(" as ").next().unwrap_or(item).trim();
            if !name.is_empty() {
                map.insert(name.to_string(), module.trim().to_string());
            }
        }
    }
    map
}

#[test]
fn module_imports_form_a_dag() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    // Module → its source (a directory module is all its files together).
    let mut modules: BTreeMap<String, String> = BTreeMap::new();
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if path.is_dir() {
            let mut all = String::new();
            for f in std::fs::read_dir(&path).unwrap() {
                let f = f.unwrap().path();
                // A directory module's `tests.rs` is its `#[cfg(test)] mod tests`: test code.
                if f.extension().is_some_and(|e| e == "rs") && !f.ends_with("tests.rs") {
                    all.push_str(&std::fs::read_to_string(f).unwrap());
                }
            }
            modules.insert(name, all);
        } else if path.extension().is_some_and(|e| e == "rs") && name != "lib" {
            modules.insert(name, std::fs::read_to_string(&path).unwrap());
        }
    }
    let root = reexports(&std::fs::read_to_string(src.join("lib.rs")).unwrap());
    let mut graph: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for (name, text) in &modules {
        let deps = graph.entry(name).or_default();
        for seg in crate_refs(&code_of(text)) {
            let target = if modules.contains_key(&seg) {
                seg.clone()
            } else {
                match root.get(&seg) {
                    Some(m) => m.clone(),
                    None => panic!("{name}: `crate::{seg}` is neither a module nor a re-export of lib.rs"),
                }
            };
            if target != *name {
                deps.insert(target);
            }
        }
    }
    // Depth-first search; a back edge is a cycle, reported as a path.
    fn visit<'a>(
        m: &'a str,
        graph: &'a BTreeMap<&'a str, BTreeSet<String>>,
        state: &mut BTreeMap<&'a str, u8>,
        stack: &mut Vec<&'a str>,
    ) -> Option<Vec<String>> {
        match state.get(m) {
            Some(2) => return None,
            Some(1) => {
                let at = stack.iter().position(|s| *s == m).unwrap();
                let mut cycle: Vec<String> = stack[at..].iter().map(|s| s.to_string()).collect();
                cycle.push(m.to_string());
                return Some(cycle);
            }
            _ => {}
        }
        state.insert(m, 1);
        stack.push(m);
        for d in &graph[m] {
            if let Some(c) = visit(d, graph, state, stack) {
                return Some(c);
            }
        }
        stack.pop();
        state.insert(m, 2);
        None
    }
    let mut state = BTreeMap::new();
    for m in graph.keys() {
        if let Some(c) = visit(m, &graph, &mut state, &mut Vec::new()) {
            panic!("the engine's modules import each other in a cycle: {}", c.join(" → "));
        }
    }
}

/// Issue 27: no engine source file is over 800 lines (a file that grows past it is split
/// into modules named after what they hold, as `gamefile/` was).
#[test]
fn no_source_file_is_over_800_lines() {
    fn walk(dir: &Path, out: &mut Vec<(String, usize)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push((path.display().to_string(), std::fs::read_to_string(&path).unwrap().lines().count()));
            }
        }
    }
    let mut files = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut files);
    let long: Vec<String> = files.iter().filter(|(_, n)| *n > 800).map(|(f, n)| format!("{f}: {n} lines")).collect();
    assert!(long.is_empty(), "over 800 lines: {long:?}");
}
