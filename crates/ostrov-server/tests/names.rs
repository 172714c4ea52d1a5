//! Look-alike names (issue 16, point 11) against a real server: in one game, every seat
//! name that looks like one already taken is refused by its skeleton (case, ё/е, Latin and
//! Cyrillic look-alikes, full-width letters, variation selectors, thin spaces, NFD, runs of
//! spaces, line separators), and the host's names are reserved however they are dressed.

mod support;

use serde_json::json;
use support::{error, ok, Server};

#[test]
fn look_alike_seat_names_are_one_name() {
    let server = Server::start();
    let mut host = server.user("Хозяин");
    let g = ok(&host.post("/api/games", json!({"title": "Двойники", "slots": 20})).unwrap());
    let invite = g["invite"].as_str().unwrap().to_string();
    let n = std::cell::Cell::new(0);
    let join = |name: &str| {
        n.set(n.get() + 1);
        let mut c = server.user(&format!("Игрок {}", n.get()));
        c.post(&format!("/api/invites/{invite}/join"), json!({"name": name})).unwrap()
    };
    let first = ok(&join("Аня"));
    assert_eq!(first["game"]["members"], json!(["Аня"]));
    for twin in ["Aня", "Ａня", "Аня\u{FE0F}", "Ан\u{200A}я", "аня", "АНЯ"] {
        let r = join(twin);
        assert_eq!(error(&r), (409, "name_taken".into()), "{twin:?}: {}", r.body);
    }
    // A zero-width space or an RTL override is not cleaned away silently: refused.
    assert_eq!(error(&join("Ан\u{200B}я")), (409, "bad_name".into()));
    assert_eq!(error(&join("\u{202E}янА")), (409, "bad_name".into()));
    // NFD «Йоко» is «Йоко»; «Анна  Ли» is «Анна Ли»; U+2028 is a space.
    ok(&join("Йоко"));
    assert_eq!(error(&join("И\u{0306}око")), (409, "name_taken".into()), "NFD");
    let r = ok(&join("Анна  Ли"));
    assert!(r["game"]["members"].as_array().unwrap().contains(&json!("Анна Ли")), "{r}");
    assert_eq!(error(&join("Анна\u{2028}Ли")), (409, "name_taken".into()));
    ok(&join("Алёна"));
    assert_eq!(error(&join("АЛЕНА")), (409, "name_taken".into()), "ё is е");
    // The host's names, dressed up.
    for host_name in ["Ведущий\u{0301}", "ВЕДУЩИЙ", "Bедущий", "host", "НОSТ", "Автор"] {
        let r = join(host_name);
        assert_eq!(error(&r), (409, "bad_name".into()), "{host_name:?}: {}", r.body);
    }
    // Nothing visible, or too long: refused with the reason.
    for bad in ["\u{200B}\u{202E}", "!!!", &"Я".repeat(41)] {
        let r = join(bad);
        assert_eq!(error(&r), (409, "bad_name".into()), "{bad:?}: {}", r.body);
    }
    let members = ok(&host.get(&format!("/api/invites/{invite}")).unwrap())["members"].clone();
    assert_eq!(members, json!(["Аня", "Йоко", "Анна Ли", "Алёна"]));
}
