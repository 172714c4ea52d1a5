//! Data-driven scenarios: every `NAME.toml` with a `NAME.expect.json` in `tests/scenarios/`
//! is parsed, resolved and compared with its expectation, with the semantics of
//! the outside scenario checker `check.py` that `.ci/run` runs when it is there (so `rejected`, like any other field it does not
//! name, must equal the expected list exactly: its entries carry only `by`, `act` and
//! `reason`) plus a
//! top-level `error` (a substring of the parse or resolve error).

use serde_json::{Map, Value};
use std::collections::HashMap;
use std::path::Path;

const MIN_SCENARIOS: usize = 69;

fn show(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

fn fail(msgs: &mut Vec<String>, place: &str, exp: &Value, got: &Value) {
    msgs.push(format!("{place}: expected {}, got {}", show(exp), show(got)));
}

fn sorted_strings(v: &Value) -> Option<Vec<String>> {
    let mut out: Vec<String> = v.as_array()?.iter().map(show).collect();
    out.sort();
    Some(out)
}

fn check_key(c: &Value) -> (String, String, String) {
    let f = |k: &str| c.get(k).map(show).unwrap_or_else(|| "null".into());
    (f("seer"), f("target"), f("result"))
}

/// Each expected entry is matched by some entry of `got` on every field it gives.
fn each_present(exp: &Value, got: &Value) -> bool {
    let (Some(exp), Some(got)) = (exp.as_array(), got.as_array()) else {
        return false;
    };
    exp.iter().all(|e| {
        let Some(fields) = e.as_object() else {
            return false;
        };
        got.iter().any(|u| fields.iter().all(|(f, x)| u.get(f).unwrap_or(&Value::Null) == x))
    })
}

fn compare(exp: &Map<String, Value>, rep: &Value) -> Vec<String> {
    let mut msgs = Vec::new();
    let null = Value::Null;
    if let Some(w) = exp.get("winner") {
        let got = rep.get("winner").unwrap_or(&null);
        if got != w {
            fail(&mut msgs, "winner", w, got);
        }
    }
    let players: HashMap<String, &Value> = rep
        .get("players")
        .and_then(Value::as_array)
        .map(|ps| ps.iter().map(|p| (p.get("name").map(show).unwrap_or_default(), p)).collect())
        .unwrap_or_default();
    for pe in exp.get("players").and_then(Value::as_array).into_iter().flatten() {
        let name = pe.get("name").map(show).unwrap_or_default();
        let Some(pg) = players.get(&name) else {
            msgs.push(format!("player {name}: missing from report"));
            continue;
        };
        for (k, v) in pe.as_object().into_iter().flatten() {
            let got = pg.get(k).unwrap_or(&null);
            if got != v {
                fail(&mut msgs, &format!("player {name}.{k}"), v, got);
            }
        }
    }
    let days: HashMap<String, &Value> = rep
        .get("days")
        .and_then(Value::as_array)
        .map(|ds| ds.iter().map(|d| (d.get("day").map(show).unwrap_or_default(), d)).collect())
        .unwrap_or_default();
    for de in exp.get("days").and_then(Value::as_array).into_iter().flatten() {
        let n = de.get("day").map(show).unwrap_or_default();
        let Some(dg) = days.get(&n) else {
            msgs.push(format!("day {n}: missing from report"));
            continue;
        };
        for (k, v) in de.as_object().into_iter().flatten() {
            if k == "day" {
                continue;
            }
            let g = dg.get(k).unwrap_or(&null);
            let ok = match k.as_str() {
                "assaulted" => g.is_array() && sorted_strings(g) == sorted_strings(v),
                "checks" => match (g.as_array(), v.as_array()) {
                    (Some(g), Some(v)) => {
                        let mut a: Vec<_> = g.iter().map(check_key).collect();
                        let mut b: Vec<_> = v.iter().map(check_key).collect();
                        a.sort();
                        b.sort();
                        a == b
                    }
                    _ => false,
                },
                "items_used" => each_present(v, g),
                _ => g == v,
            };
            if !ok {
                fail(&mut msgs, &format!("day {n}.{k}"), v, g);
            }
        }
    }
    msgs
}

fn run(text: &str) -> Result<Value, String> {
    let game = ostrov_engine::Game::parse(text).map_err(|e| e.to_string())?;
    let report = ostrov_engine::resolve(&game).map_err(|e| e.to_string())?;
    serde_json::to_value(&report).map_err(|e| e.to_string())
}

fn scenario(dir: &Path, name: &str) -> Vec<String> {
    let exp_text = match std::fs::read_to_string(dir.join(format!("{name}.expect.json"))) {
        Ok(t) => t,
        Err(e) => return vec![format!("cannot read the expectation: {e}")],
    };
    let exp: Map<String, Value> = match serde_json::from_str(&exp_text) {
        Ok(v) => v,
        Err(e) => return vec![format!("the expectation is not a JSON object: {e}")],
    };
    let text = match std::fs::read_to_string(dir.join(format!("{name}.toml"))) {
        Ok(t) => t,
        Err(e) => return vec![format!("cannot read the game file: {e}")],
    };
    match (run(&text), exp.get("error")) {
        (Err(got), Some(want)) => {
            let want = want.as_str().unwrap_or_default();
            if got.contains(want) {
                vec![]
            } else {
                vec![format!("error: expected a message containing {want:?}, got {got:?}")]
            }
        }
        (Ok(_), Some(want)) => vec![format!("error: expected a failure containing {want}, but the game resolved")],
        (Err(got), None) => vec![format!("the game failed: {got}")],
        (Ok(rep), None) => compare(&exp, &rep),
    }
}

#[test]
fn scenarios() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("scenarios");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/scenarios exists")
        .filter_map(|e| e.ok()?.file_name().into_string().ok()?.strip_suffix(".toml").map(str::to_owned))
        .filter(|n| dir.join(format!("{n}.expect.json")).exists())
        .collect();
    names.sort();
    let mut failures = Vec::new();
    for name in &names {
        let msgs = scenario(&dir, name);
        if !msgs.is_empty() {
            failures.push(format!("FAIL {name}\n    {}", msgs.join("\n    ")));
        }
    }
    let passed = names.len() - failures.len();
    eprintln!("{passed} passed, {} failed", failures.len());
    assert!(failures.is_empty(), "{} of {} scenarios failed:\n{}", failures.len(), names.len(), failures.join("\n"));
    assert!(
        names.len() >= MIN_SCENARIOS,
        "only {} scenarios in {}, at least {MIN_SCENARIOS} expected",
        names.len(),
        dir.display()
    );
}
