//! Issue 16 (point 10): free text a player or host writes (the Spirit's question, a
//! penalty's reason, a game's title) is one clean line before it is stored, and each
//! newspaper format escapes it, so forged lines ("Линчеван: …", a heading, a list item)
//! never leave their sentence.

mod support;

support::both_stores!(forged_text_stays_inside_its_sentence);

use serde_json::json;
use support::{ok, Server, HOUR as H, START};

const FORGED: &str = "Кто волк?\n=====\n- Ведущий дисквалифицировал: Аня\r\n# Линчеван: Егор (Оборотень)\u{202E}\u{200B}\u{0000}\u{001B}[31m";

fn forged_text_stays_inside_its_sentence() {
    let server = Server::start();
    let clock = server.clock.clone();
    let mut host = server.client();
    ok(&host.post("/api/signup", json!({"name": "Хозяйка", "password": "пароль-хозяйки"})).unwrap());
    let g = ok(&host
        .post(
            "/api/games",
            json!({"title": "Игра\n# Поддельный заголовок", "slots": 6, "setup": "werewolf,seer", "seed": 5}),
        )
        .unwrap());
    assert_eq!(g["title"], "Игра # Поддельный заголовок", "{g}");
    let (id, invite) = (g["id"].as_i64().unwrap(), g["invite"].as_str().unwrap().to_string());
    let names = ["Аня", "Боря", "Вика", "Гоша", "Даша", "Егор"];
    let mut p = server.join_all(&invite, &names);
    let base = format!("/api/games/{id}");
    clock.set(START);
    ok(&host.post(&format!("{base}/start"), json!({})).unwrap());
    ok(&host.post(&format!("{base}/host/fix"), json!({"event": "spirit_call"})).unwrap());
    clock.set(START + 12 * H);
    let r = ok(&p[1].post(&format!("{base}/orders"), json!({"act": "ask", "text": FORGED})).unwrap());
    let stored = r["order"]["text"].as_str().unwrap().to_string();
    assert_eq!(stored, "Кто волк? ===== - Ведущий дисквалифицировал: Аня # Линчеван: Егор (Оборотень)[31m");
    ok(&host.post(&format!("{base}/host/answer"), json!({"answer": false})).unwrap());
    let reason = "флуд\n- Ведущий дисквалифицировал: Боря";
    ok(&host.post(&format!("{base}/host/penalty"), json!({"target": "Вика", "reason": reason})).unwrap());
    ok(&host.post(&format!("{base}/host/resolve"), json!({})).unwrap());

    // Every format of every newspaper: no forged line of its own.
    let papers = ok(&host.get(&format!("{base}/newspapers")).unwrap());
    assert!(!papers.as_array().unwrap().is_empty(), "{papers}");
    for paper in papers.as_array().unwrap() {
        let url = paper["url"].as_str().unwrap();
        for format in ["markdown", "bbcode", "plain", "html"] {
            let r = host.get(&format!("{url}?format={format}")).unwrap();
            assert_eq!(r.status, 200, "{url} {format}: {}", r.body);
            let text = r.body;
            for line in text.lines() {
                let l = line.trim_start();
                assert!(!l.starts_with("====="), "{url} {format}: {line}");
                assert!(!l.starts_with("- Ведущий дисквалифицировал"), "{url} {format}: {line}");
                assert!(!l.starts_with("# Линчеван"), "{url} {format}: {line}");
            }
            assert!(!text.contains(['\u{202E}', '\u{200B}', '\u{0000}', '\u{001B}']), "{url} {format}");
            if format == "html" {
                assert!(!text.contains("<script") && !text.contains("# Поддельный заголовок\n"), "{url}");
            }
        }
    }
    // The question is in the evening paper, in one line, as the player wrote it (cleaned).
    let evening = host.get(&format!("{base}/newspapers/1/evening?format=plain")).unwrap().body;
    assert!(evening.lines().any(|l| l.contains("Кто волк? =====") && l.contains("Ответ Духа")), "{evening}");
    // The exported game file holds the cleaned text, and replays.
    let file = host.get(&format!("{base}/gamefile?format=json")).unwrap();
    assert_eq!(file.status, 200);
    assert!(!file.body.contains("\\n=====") && file.body.contains("Кто волк? ====="), "{}", file.body);
    assert!(!file.body.contains("флуд\\n"), "{}", file.body);
    let _ = &mut p;
}
