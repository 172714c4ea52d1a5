//! The host's powers over HTTP (RULES.md §7): fix a draw, answer the Spirit, pause and
//! resume, disqualify, resolve now, extend — each in the log, the public ones in the
//! history, and none of them open to a player.

mod support;

support::both_stores!(the_host_fixes_answers_pauses_removes_resolves_and_extends);

use serde_json::json;
use support::{error, ok, Server, HOUR as H, START};

fn the_host_fixes_answers_pauses_removes_resolves_and_extends() {
    let server = Server::start();
    let clock = server.clock.clone();
    let mut host = server.client();
    ok(&host.post("/api/signup", json!({"name": "Хозяйка", "password": "пароль-хозяйки"})).unwrap());
    let g = ok(&host
        .post("/api/games", json!({"title": "Власть", "slots": 6, "setup": "werewolf,seer", "seed": 5}))
        .unwrap());
    let (id, invite) = (g["id"].as_i64().unwrap(), g["invite"].as_str().unwrap().to_string());
    let names = ["Аня", "Боря", "Вика", "Гоша", "Даша", "Егор"];
    let mut p = server.join_all(&invite, &names);
    let mut outsider = server.client();
    ok(&outsider.post("/api/signup", json!({"name": "Зевака", "password": "пароль-зеваки"})).unwrap());
    let base = format!("/api/games/{id}");

    // Nothing of the host's before the start.
    assert_eq!(error(&host.post(&format!("{base}/host/resolve"), json!({})).unwrap()), (409, "not_started".into()));
    clock.set(START);
    ok(&host.post(&format!("{base}/start"), json!({})).unwrap());

    // Fix day 1's event before any order: Spirit call.
    assert_eq!(p[0].post(&format!("{base}/host/fix"), json!({"event": "spirit_call"})).unwrap().status, 403);
    let g = ok(&host.post(&format!("{base}/host/fix"), json!({"event": "spirit_call"})).unwrap());
    assert_eq!(g["game"]["open"]["event"]["id"], "spirit_call");
    let bad = host.post(&format!("{base}/host/fix"), json!({"event": "конец света"})).unwrap();
    assert_eq!(bad.status, 422, "{}", bad.body);

    // A question, the second refused, the host's answer.
    clock.set(START + 12 * H);
    ok(&p[1].post(&format!("{base}/orders"), json!({"act": "ask", "text": "Оборотень среди первых трёх?"})).unwrap());
    let r = p[2].post(&format!("{base}/orders"), json!({"act": "ask", "text": "А я?"})).unwrap();
    assert_eq!(error(&r), (422, "already_asked".into()));
    assert_eq!(error(&p[0].post(&format!("{base}/host/answer"), json!({"answer": true})).unwrap()).0, 403);
    assert_eq!(host.post(&format!("{base}/host/answer"), json!({"answer": "да"})).unwrap().status, 400);
    ok(&host.post(&format!("{base}/host/answer"), json!({"answer": true})).unwrap());
    // Now an event fix is too late for the open day: orders were checked against it.
    let r = host.post(&format!("{base}/host/fix"), json!({"event": "fog_night"})).unwrap();
    assert_eq!(error(&r), (409, "not_now".into()));

    // Pause: the deadline passes and nothing resolves; orders are still taken.
    ok(&host.post(&format!("{base}/host/pause"), json!({})).unwrap());
    clock.set(START + 30 * H);
    let v = ok(&outsider.get(&base).unwrap());
    assert_eq!((v["paused"].as_bool(), v["open"]["day"].as_u64()), (Some(true), Some(1)));
    ok(&p[3].post(&format!("{base}/orders"), json!({"act": "vote", "target": "Аня"})).unwrap());
    // Resume 18 hours later: the deadline (2 Dec 21:00) moves by 18 hours.
    let g = ok(&host.post(&format!("{base}/host/resume"), json!({})).unwrap());
    assert_eq!(g["game"]["open"]["deadline"], "2026-12-03T15:00:00+03:00");
    assert_eq!(error(&host.post(&format!("{base}/host/resume"), json!({})).unwrap()), (409, "not_now".into()));

    // Extend: later only, well-formed only.
    assert_eq!(host.post(&format!("{base}/host/extend"), json!({"minutes": "много"})).unwrap().status, 400);
    assert_eq!(host.post(&format!("{base}/host/extend"), json!({})).unwrap().status, 400);
    let r = host.post(&format!("{base}/host/extend"), json!({"deadline": "2026-12-02T10:00:00+03:00"})).unwrap();
    assert_eq!(error(&r), (409, "bad_deadline".into()));
    let g = ok(&host.post(&format!("{base}/host/extend"), json!({"deadline": "2026-12-03T16:00:00+03:00"})).unwrap());
    assert_eq!(g["game"]["open"]["deadline"], "2026-12-03T16:00:00+03:00");

    // Disqualify: dead, role public to everyone, in the history.
    let g =
        ok(&host.post(&format!("{base}/host/remove"), json!({"target": "Егор", "reason": "два аккаунта"})).unwrap());
    let _ = g;
    let v = ok(&outsider.get(&base).unwrap());
    let egor = v["players"].as_array().unwrap().iter().find(|x| x["name"] == "Егор").unwrap().clone();
    assert_eq!(egor["alive"], false);
    assert_eq!(egor["death"]["how"], "removed");
    assert!(egor["role"]["id"].is_string(), "a removed player's role is public: {egor}");
    let history: Vec<String> =
        v["history"].as_array().unwrap().iter().map(|h| h["text"].as_str().unwrap().into()).collect();
    assert!(history.iter().any(|h| h.contains("исключил") && h.contains("два аккаунта")), "{history:?}");
    assert!(history.iter().any(|h| h.contains("паузу")), "{history:?}");
    assert!(history.iter().any(|h| h.contains("продлил")), "{history:?}");
    let r = p[5].post(&format!("{base}/orders"), json!({"act": "vote", "target": "Аня"})).unwrap();
    assert_eq!(error(&r), (422, "sender_dead".into()));

    // Resolve now; the next day's event, announced in tonight's newspaper, is final.
    let g = ok(&host.post(&format!("{base}/host/resolve"), json!({})).unwrap());
    assert_eq!(g["game"]["next_day_opens"], "2026-12-03T22:00:00+03:00", "{g}");
    assert!(g["game"]["history"].as_array().unwrap().iter().any(|h| h["text"].as_str().unwrap().contains("досрочно")));
    assert_eq!(error(&host.post(&format!("{base}/host/resolve"), json!({})).unwrap()), (409, "not_open".into()));
    let r = host.post(&format!("{base}/host/fix"), json!({"event": "none"})).unwrap();
    assert_eq!(error(&r), (409, "event_announced".into()), "{}", r.body);
    // The asker is told the answer privately; the newspapers print the question.
    let inbox = ok(&p[1].get(&format!("{base}/inbox")).unwrap());
    assert!(inbox.as_array().unwrap().iter().any(|n| n["text"].as_str().unwrap().contains("Дух ответил")), "{inbox}");
    let other = ok(&p[2].get(&format!("{base}/inbox")).unwrap());
    assert!(!other.to_string().contains("Дух ответил"));
    let paper = p[2].get(&format!("{base}/newspapers/1/bulletin?format=plain")).unwrap();
    assert!(paper.body.contains("Оборотень среди первых трёх?"), "{}", paper.body);

    clock.set(START + 48 * H);
    let v = ok(&p[0].get(&base).unwrap());
    if v["status"] == "running" {
        assert_eq!(v["open"]["day"], 2);
    }
    // Every host action is in the log with its author.
    let log = ok(&host.get(&format!("{base}/events")).unwrap());
    let kinds: Vec<&str> = log.as_array().unwrap().iter().map(|e| e["kind"].as_str().unwrap()).collect();
    for k in ["created", "joined", "started", "fixed", "order", "paused", "resumed", "extended", "resolved"] {
        assert!(kinds.contains(&k), "{k} in {kinds:?}");
    }
    assert!(log.as_array().unwrap().iter().filter(|e| e["kind"] == "fixed").all(|e| e["author"].is_i64()));
    assert_eq!(p[0].get(&format!("{base}/events")).unwrap().status, 403);
}
