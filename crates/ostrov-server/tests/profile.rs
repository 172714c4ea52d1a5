//! The profile (issue 15): a player's gender and the six forms of her name, set through
//! `PATCH /api/me`, go into the game file of a game she plays when it starts, so that her
//! inbox and the newspapers agree with her gender and decline her name; a change after
//! the start leaves the started game as it was; bad input is refused with a Russian 400
//! and changes nothing.

mod support;

use ostrov_server::client::{Client, Reply};
use serde_json::{json, Value};
use support::{error, no_events, ok, Server, HOUR, START};

support::both_stores!(a_woman_with_forms_is_declined_and_agreed_in_her_game, bad_profiles_are_refused_in_russian);

const FORMS: [&str; 6] = ["Кисуля", "Кисули", "Кисуле", "Кисулю", "Кисулей", "Кисуле"];

fn patch(c: &mut Client, body: Value) -> Reply {
    c.call("PATCH", "/api/me", Some(&body)).unwrap()
}

/// The `message` of a 400 reply.
fn refused(r: &Reply) -> String {
    assert_eq!(error(r), (400, "bad_request".into()), "{}", r.body);
    r.json()["message"].as_str().unwrap().to_string()
}

fn a_woman_with_forms_is_declined_and_agreed_in_her_game() {
    let mut server = Server::start();
    let mut host = server.user("Хозяйка");
    let g = ok(&host
        .post(
            "/api/games",
            json!({"title": "Профиль", "slots": 4, "setup": "werewolf,seer", "seed": 5,
                   "deck": vec!["none"; 4], "rules": {"tie": "random", "events": no_events()}}),
        )
        .unwrap());
    let (id, invite) = (g["id"].as_i64().unwrap(), g["invite"].as_str().unwrap().to_string());
    let others = server.join_all(&invite, &["Боря", "Гоша", "Kot2000"]);
    let mut kis = server.user("Кисуля");
    assert_eq!(ok(&kis.get("/api/me").unwrap())["gender"], Value::Null, "no profile at first");
    ok(&kis.post(&format!("/api/invites/{invite}/join"), json!({})).unwrap());
    // Set in the lobby, after joining: it counts, since the game has not started.
    let me = ok(&patch(&mut kis, json!({"gender": "ж", "forms": FORMS})));
    assert_eq!(me["gender"], "f");
    assert_eq!(me["forms"], json!(FORMS));
    assert_eq!(ok(&kis.get("/api/me").unwrap()), me);
    server.clock.set(START);
    ok(&host.post(&format!("/api/games/{id}/start"), json!({})).unwrap());

    // Her seat in the game file carries her profile.
    let file = host.get(&format!("/api/games/{id}/gamefile")).unwrap();
    assert_eq!(file.status, 200, "{}", file.body);
    assert!(file.body.contains("name = \"Кисуля\"\nrole = \"seer\"\ngender = \"f\"\n"), "{}", file.body);
    assert!(
        file.body.contains("forms = [\"Кисуля\", \"Кисули\", \"Кисуле\", \"Кисулю\", \"Кисулей\", \"Кисуле\"]"),
        "{}",
        file.body
    );
    // Her inbox says her role in the feminine.
    let inbox = ok(&kis.get(&format!("/api/games/{id}/inbox")).unwrap());
    assert_eq!(inbox[0], json!({"day": 0, "text": "Ваша роль: Ясновидящая, сторона — мирные жители."}));
    let plain = kis.get(&format!("/api/games/{id}/inbox?format=plain")).unwrap();
    assert!(plain.body.contains("Ваша роль: Ясновидящая, сторона — мирные жители."), "{}", plain.body);
    // A change of profile now does not touch the started game.
    ok(&patch(&mut kis, json!({"gender": "m"})));

    // Day 1: two votes each for Кисуля and Боря; the host draws Кисуля.
    let mut players = others;
    players.push(kis);
    let votes = [(3, "Боря"), (0, "Кисуля"), (1, "Кисуля"), (2, "Боря")];
    server.clock.set(START + 12 * HOUR);
    for (k, target) in votes {
        ok(&players[k].post(&format!("/api/games/{id}/orders"), json!({"act": "vote", "target": target})).unwrap());
    }
    ok(&host.post(&format!("/api/games/{id}/host/fix"), json!({"tie_break": ["Кисуля"]})).unwrap());
    server.clock.set(START + 24 * HOUR + 2 * 60);
    ok(&host.get(&format!("/api/games/{id}")).unwrap());
    let paper = players[0].get(&format!("/api/games/{id}/newspapers/1/evening?format=plain")).unwrap();
    assert_eq!(paper.status, 200, "{}", paper.body);
    // The accusative of her forms; the participle and the role in the feminine.
    for want in ["- Ничья (Боря и Кисуля): жребий выбирает Кисулю.", "Линчёвана Кисуля (Ясновидящая)."]
    {
        assert!(paper.body.lines().any(|l| l == want), "«{want}» is not a line of:\n{}", paper.body);
    }
    // The game folded again from its log (a restart) still has her profile of the start.
    server.restart();
    players[3].addr = server.addr;
    let inbox = ok(&players[3].get(&format!("/api/games/{id}/inbox")).unwrap());
    assert_eq!(
        inbox[0]["text"], "Ваша роль: Ясновидящая, сторона — мирные жители.",
        "the started game keeps her profile"
    );
    // The API view of her role agrees too.
    let v = ok(&players[3].get(&format!("/api/games/{id}")).unwrap());
    assert_eq!(v["you"]["role"]["name"], "Ясновидящая", "{}", v["you"]);
    // And so does her game page.
    let page = players[3].get(&format!("/games/{id}")).unwrap();
    assert!(page.body.contains("Роль: <strong>Ясновидящая</strong>"), "{}", page.body);
}

fn bad_profiles_are_refused_in_russian() {
    let server = Server::start();
    let mut c = server.user("Кисуля");
    // FORMS with form `k` (0-based) replaced.
    let with = |k: usize, f: &str| {
        let mut v: Vec<String> = FORMS.iter().map(|s| s.to_string()).collect();
        v[k] = f.to_string();
        json!({"forms": v})
    };
    let cases = [
        (
            json!({"forms": FORMS[..5]}),
            "Нужно шесть форм имени по падежам (именительный, родительный, дательный, винительный, творительный, \
             предложный) или ни одной, а не 5.",
        ),
        (
            json!({"forms": ["Мурка", "Мурки", "Мурке", "Мурку", "Муркой", "Мурке"]}),
            "Первая форма (именительный падеж) «Мурка» должна быть вашим именем «Кисуля».",
        ),
        (with(1, "   "), "Форма 2 (родительный падеж) пустая: нужно от 1 до 40 символов, с буквой или цифрой."),
        (
            with(4, &"Я".repeat(41)),
            "Форма 5 (творительный падеж) длиннее 40 символов (41): нужно от 1 до 40 символов, с буквой или цифрой.",
        ),
        (with(3, "Кис\u{7}улю"), "Форма 4 (винительный падеж) не должна содержать невидимых и управляющих символов."),
        (with(5, "Кису\u{202E}ле"), "Форма 6 (предложный падеж) не должна содержать невидимых и управляющих символов."),
        (
            json!({"gender": "x"}),
            "Пол указывается как \"m\" (мужской) или \"f\" (женский); чтобы не указывать его, оставьте пустым.",
        ),
    ];
    for (body, want) in cases {
        assert_eq!(refused(&patch(&mut c, body.clone())), want, "{body}");
    }
    let r = patch(&mut c, json!({"forms": "Кисуля"}));
    assert!(refused(&r).starts_with("Неверные данные"), "{}", r.body);
    assert_eq!(error(&patch(&mut c, json!({"nick": "Кися"}))).0, 400, "an unknown key");
    // Nothing was stored.
    assert_eq!(ok(&c.get("/api/me").unwrap()), json!({"id": 1, "name": "Кисуля", "gender": null, "forms": null}));
    // Without the CSRF header, or signed out: refused.
    c.csrf = false;
    assert_eq!(error(&patch(&mut c, json!({"gender": "f"}))), (403, "csrf".into()));
    c.csrf = true;
    assert_eq!(error(&patch(&mut server.client(), json!({"gender": "f"}))), (401, "unauthorized".into()));
    assert_eq!(ok(&c.get("/api/me").unwrap())["gender"], Value::Null);

    // A look-alike nominative (a Latin «K», upper case) is the name; the forms are cleaned.
    let mut f: Vec<String> = FORMS.iter().map(|s| s.to_string()).collect();
    f[0] = "KИСУЛЯ".into();
    f[2] = "  Кисуле ".into();
    let me = ok(&patch(&mut c, json!({"gender": "female", "forms": f})));
    let mut want = FORMS.to_vec();
    want[0] = "KИСУЛЯ";
    assert_eq!((me["gender"].clone(), me["forms"].clone()), (json!("f"), json!(want)));
    // A key left out is kept; `null` (or an empty list) clears.
    assert_eq!(ok(&patch(&mut c, json!({"gender": null})))["forms"], json!(want));
    let me = ok(&patch(&mut c, json!({"forms": []})));
    assert_eq!((me["gender"].clone(), me["forms"].clone()), (Value::Null, Value::Null));
}
