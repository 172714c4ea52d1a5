//! The host's desk (issue 30, points 1–3): the board of the seats and its filter «кто ещё
//! не сходил», the tally, the preview of the open day resolved now (the host's alone, and
//! the same as the resolution that follows), the 13:00 stage and the resolution as two
//! actions, opening the next day early (and the scheduler not opening it again), the
//! confirmation every irreversible action asks without JavaScript, and a flag withdrawn
//! with its penalty.

mod support;

support::both_stores!(
    the_preview_is_the_hosts_and_the_resolution_that_follows,
    the_host_opens_the_next_day_early_and_the_schedule_goes_on,
    a_flag_withdrawn_gives_the_vote_back,
    irreversible_actions_ask_first_without_javascript,
    the_board_shows_each_seat_and_who_has_not_moved,
);

use ostrov_server::client::Client;
use serde_json::{json, Value};
use support::browser::{location, Browser};
use support::{error, no_events, ok, Table, HOUR as H, START};

const NAMES: [&str; 6] = ["Аня", "Боря", "Вика", "Гоша", "Даша", "Егор"];

impl Table {
    /// The seats of the passengers.
    fn passengers(&self) -> Vec<usize> {
        NAMES.iter().enumerate().filter(|(_, n)| self.role(n) == "passenger").map(|(i, _)| i).collect()
    }
    fn role(&self, name: &str) -> &str {
        &self.roles.iter().find(|(n, _)| n == name).unwrap().1
    }
    fn order(&mut self, seat: usize, body: Value) {
        let base = self.base();
        ok(&self.players[seat].post(&format!("{base}/orders"), body).unwrap());
    }
    fn board(&mut self, query: &str) -> Value {
        let base = self.base();
        ok(&self.host.get(&format!("{base}/board{query}")).unwrap())
    }
    fn card(&mut self, name: &str) -> Value {
        self.board("")["seats"].as_array().unwrap().iter().find(|s| s["name"] == name).unwrap().clone()
    }
    fn view(&mut self) -> Value {
        let base = self.base();
        ok(&self.host.get(&base).unwrap())
    }
    fn events(&mut self) -> Vec<Value> {
        let base = self.base();
        ok(&self.host.get(&format!("{base}/events")).unwrap()).as_array().unwrap().clone()
    }
}

/// A host («Хозяйка») and six players, one werewolf and one seer, days without events; the
/// game started at [`START`] (day 1 open until 2 December, 21:00 Moscow time).
fn table(seed: u64) -> Table {
    let body =
        json!({"title": "Стол", "slots": 6, "setup": "werewolf,seer", "seed": seed, "rules": {"events": no_events()}});
    Table::start("Хозяйка", body, &NAMES)
}

fn history(v: &Value) -> Vec<String> {
    v["history"].as_array().unwrap().iter().map(|h| h["text"].as_str().unwrap().to_string()).collect()
}

fn the_preview_is_the_hosts_and_the_resolution_that_follows() {
    let mut t = table(11);
    let base = t.base();
    let mut outsider = t.server.user("Зевака");
    // The host's alone: 403 for a player and a spectator, 404 for a game that is not there.
    assert_eq!(t.players[0].get(&format!("{base}/preview")).unwrap().status, 403);
    assert_eq!(outsider.get(&format!("{base}/preview")).unwrap().status, 403);
    assert_eq!(t.host.get(&format!("/api/games/{}/preview", t.id + 100)).unwrap().status, 404);
    assert_eq!(t.server.client().get(&format!("{base}/preview")).unwrap().status, 401);

    // Day 1: everyone votes for the seer but the seer; the werewolf kills a passenger.
    let (wolf, seer) = (t.seat("werewolf"), t.seat("seer"));
    let pass = t.passengers();
    for i in 0..6 {
        let target = if i == seer { NAMES[wolf] } else { NAMES[seer] };
        t.order(i, json!({"act": "vote", "target": target}));
    }
    t.order(wolf, json!({"act": "kill", "target": NAMES[pass[0]]}));
    t.order(seer, json!({"act": "check", "target": NAMES[pass[1]]}));
    let events = t.events().len();
    let preview = ok(&t.host.get(&format!("{base}/preview")).unwrap());
    let day = preview["days"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(day["day"], 1);
    assert_eq!(day["lynched"], json!([NAMES[seer]]), "{day}");
    assert_eq!(day["night_deaths"], json!([NAMES[pass[0]]]), "{day}");
    assert!(day["log"].as_array().unwrap().iter().any(|l| l["step"] == 7), "the step log: {day}");
    // Nothing stored: the log is as it was, the day still open, the preview the same again.
    assert_eq!(t.events().len(), events);
    assert_eq!(t.view()["open"]["day"], 1);
    assert_eq!(ok(&t.host.get(&format!("{base}/preview")).unwrap()), preview);

    // The host resolves now: the report is the preview.
    ok(&t.host.post(&format!("{base}/host/resolve"), json!({})).unwrap());
    let report = ok(&t.host.get(&format!("{base}/report")).unwrap());
    assert_eq!(report, preview, "the resolution that follows gives the preview");
    assert_eq!(error(&t.host.get(&format!("{base}/preview")).unwrap()), (409, "not_open".into()));

    // Day 2 (opened by the scheduler at 22:00): the preview in the morning, before the
    // 13:00 stage; the scheduler runs 13:00 and 21:00, and the report is the preview.
    t.server.clock.set(START + 24 * H);
    assert_eq!(t.view()["open"]["day"], 2);
    let alive: Vec<usize> = (0..6).filter(|&i| i != seer && i != pass[0]).collect();
    for &i in &alive {
        let target = if i == wolf { NAMES[pass[1]] } else { NAMES[wolf] };
        t.order(i, json!({"act": "vote", "target": target}));
    }
    t.order(wolf, json!({"act": "kill", "target": NAMES[pass[2]]}));
    t.server.clock.set(START + 30 * H);
    let preview = ok(&t.host.get(&format!("{base}/preview")).unwrap());
    assert_eq!(preview["days"].as_array().unwrap().len(), 2);
    t.server.clock.set(START + 48 * H + 120);
    let v = t.view();
    assert!(v["open"]["day"] == 3 || v["status"] == "over", "{v}");
    let report = ok(&t.host.get(&format!("{base}/report")).unwrap());
    assert_eq!(report["days"][1], preview["days"][1], "day 2 as previewed");
    assert_eq!(report["players"], preview["players"]);
}

fn the_host_opens_the_next_day_early_and_the_schedule_goes_on() {
    let mut t = table(12);
    let base = t.base();
    // Not while a day is open, and never a player's.
    assert_eq!(error(&t.host.post(&format!("{base}/host/open"), json!({})).unwrap()), (409, "day_open".into()));
    assert_eq!(t.players[0].post(&format!("{base}/host/open"), json!({})).unwrap().status, 403);
    // Day 1 resolved early on 2 December at 19:00; day 2 would open at 22:00.
    t.server.clock.set(START + 21 * H);
    ok(&t.host.post(&format!("{base}/host/resolve"), json!({})).unwrap());
    let v = t.view();
    assert_eq!(v["next_day_opens"], "2026-12-02T22:00:00+03:00", "{v}");
    // The host opens it at 20:00: at once, its 13:00 and deadline by the schedule from now.
    t.server.clock.set(START + 22 * H);
    let g = ok(&t.host.post(&format!("{base}/host/open"), json!({})).unwrap());
    let open = &g["game"]["open"];
    assert_eq!(open["day"], 2, "{g}");
    assert_eq!(open["midday"], "2026-12-03T13:00:00+03:00");
    assert_eq!(open["deadline"], "2026-12-03T21:00:00+03:00");
    assert!(history(&g["game"]).iter().any(|h| h == "Ведущий открыл день 2 досрочно."), "{g}");
    assert_eq!(error(&t.host.post(&format!("{base}/host/open"), json!({})).unwrap()), (409, "day_open".into()));
    let opened = |t: &mut Table| t.events().iter().filter(|e| e["kind"] == "opened").count();
    assert_eq!(opened(&mut t), 1);
    // 22:00 passes: the scheduler does not open day 2 a second time (nor a day 3).
    t.server.clock.set(START + 24 * H + 120);
    let v = t.view();
    assert_eq!((v["open"]["day"].as_u64(), v["day"].as_u64()), (Some(2), Some(2)), "{v}");
    assert_eq!(opened(&mut t), 1, "one opening of day 2");
    // The schedule goes on from the early opening: 13:00 and 21:00 of 3 December, then day
    // 3 at 22:00.
    t.server.clock.set(START + 39 * H + 120);
    assert_eq!(t.view()["open"]["phase"], "afternoon");
    t.server.clock.set(START + 47 * H + 120);
    let v = t.view();
    if v["status"] == "running" {
        assert_eq!(v["next_day_opens"], "2026-12-03T22:00:00+03:00", "{v}");
        t.server.clock.set(START + 48 * H);
        assert_eq!(t.view()["open"]["day"], 3);
        assert_eq!(opened(&mut t), 2);
    }
    // After the next day's opening time has come, it is the scheduler's: nothing to open.
    let events = t.events();
    let author_of_open: Vec<&Value> = events.iter().filter(|e| e["kind"] == "opened").map(|e| &e["author"]).collect();
    assert!(author_of_open[0].is_i64(), "the early opening is the host's: {events:?}");
}

fn a_flag_withdrawn_gives_the_vote_back() {
    let mut t = table(13);
    let base = t.base();
    let (voter, target) = (0, 1);
    t.order(voter, json!({"act": "vote", "target": NAMES[target]}));
    let votes_for = |t: &mut Table, name: &str| {
        t.board("")["tally"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["name"] == name)
            .map_or(0, |l| l["votes"].as_u64().unwrap())
    };
    assert_eq!(votes_for(&mut t, NAMES[target]), 1);
    let mut author = Browser::logged_in(t.server.addr, NAMES[voter]);
    let r = author.submit(&format!("/games/{}", t.id), &format!("/games/{}/thread", t.id), &[("text", "Я за Борю!")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let mut host = Browser::logged_in(t.server.addr, "Хозяйка");
    let game = format!("/games/{}", t.id);
    let flag = format!("{game}/flag");
    let r = host.submit(&game, &flag, &[("action", "flag"), ("post", "1"), ("confirm", "1")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let card = t.card(NAMES[voter]);
    assert_eq!(card["penalised"], true, "{card}");
    assert_eq!(card["flags"], json!([{"day": 1, "no": 1, "open": true}]));
    assert_eq!(votes_for(&mut t, NAMES[target]), 0, "a penalised vote does not count");
    let p = ok(&t.host.get(&format!("{base}/preview")).unwrap());
    let ballot = |p: &Value| {
        p["days"][0]["ballots"].as_array().unwrap().iter().find(|b| b["voter"] == NAMES[voter]).unwrap().clone()
    };
    assert_eq!(ballot(&p)["kind"], "blocked", "{}", p["days"][0]);

    // The host's page offers to withdraw it; withdrawn, the vote counts again.
    let page = host.get(&game).body;
    assert!(page.contains("Снять отметку с сообщения №1"), "{page}");
    let r = host.submit(&game, &flag, &[("action", "unflag"), ("post", "1")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let card = t.card(NAMES[voter]);
    assert_eq!((card["penalised"].clone(), card["flags"].clone()), (json!(false), json!([])), "{card}");
    assert_eq!(votes_for(&mut t, NAMES[target]), 1, "the vote is back");
    let p = ok(&t.host.get(&format!("{base}/preview")).unwrap());
    assert_ne!(ballot(&p)["kind"], "blocked", "{}", p["days"][0]);
    assert_eq!(p["days"][0]["penalties"], json!([]), "{}", p["days"][0]);
    let v = t.view();
    let h = history(&v);
    assert!(
        h.iter().any(|l| l.contains("снял отметку о нарушении с сообщения №1") && l.contains("отменил штраф")),
        "{h:?}"
    );
    assert!(h.iter().any(|l| l.contains("отметил сообщение №1")), "the flag stays in the history: {h:?}");
    let file = ok(&t.host.get(&format!("{base}/gamefile?format=json")).unwrap());
    assert!(!file.to_string().contains("\"penalty\""), "the penalty is withdrawn from the game: {file}");
    // Withdrawn once; a new flag is a new request, not the first one again.
    let r = host.submit(&game, &flag, &[("action", "unflag"), ("post", "1")]);
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body.contains("не отмечено"), "{}", r.body);
    let r = host.submit(&game, &flag, &[("action", "flag"), ("post", "1"), ("confirm", "1")]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(votes_for(&mut t, NAMES[target]), 0, "flagged again");
    // After the day's resolution the flag is final.
    ok(&t.host.post(&format!("{base}/host/resolve"), json!({})).unwrap());
    let r = host.submit(&game, &flag, &[("action", "unflag"), ("post", "1")]);
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body.contains("до подведения итогов"), "{}", r.body);
    let kinds: Vec<String> = t.events().iter().map(|e| e["kind"].as_str().unwrap().to_string()).collect();
    assert_eq!(kinds.iter().filter(|k| *k == "unflagged").count(), 1, "{kinds:?}");
    // The log replays: a restarted server folds the same game.
    let before = t.view();
    t.server.restart();
    let mut host = Client::new(t.server.addr);
    ok(&host.post("/api/login", json!({"name": "Хозяйка", "password": "пароль-для-теста"})).unwrap());
    assert_eq!(ok(&host.get(&base).unwrap())["players"], before["players"]);
}

fn irreversible_actions_ask_first_without_javascript() {
    let mut t = table(14);
    let game = format!("/games/{}", t.id);
    let action = format!("{game}/host");
    let mut host = Browser::logged_in(t.server.addr, "Хозяйка");
    let events = t.events().len();
    for (act, question) in
        [("midday", "Провести промежуточный этап (13:00) дня 1 сейчас?"), ("resolve", "Подвести итоги дня 1 сейчас?")]
    {
        let r = host.submit(&game, &action, &[("action", act)]);
        assert_eq!(r.status, 200, "{act}: a confirmation page, not a change: {}", r.body);
        assert!(r.body.contains(question), "{}", r.body);
        assert!(r.body.contains("name=\"confirm\" value=\"1\""), "{}", r.body);
        assert!(r.body.contains(&format!("value=\"{act}\"")), "the same action posted again: {}", r.body);
    }
    let r = host.submit(&game, &action, &[("action", "remove"), ("target", NAMES[2]), ("reason", "мультиаккаунт")]);
    assert_eq!(r.status, 200);
    assert!(r.body.contains(&format!("Дисквалифицировать игрока {}?", NAMES[2])), "{}", r.body);
    assert!(r.body.contains("value=\"мультиаккаунт\""), "the reason is kept: {}", r.body);
    let r = host.submit(&game, &format!("{game}/thread"), &[("text", "Слово ведущего")]);
    assert_eq!(r.status, 303);
    let before = t.events().len();
    let r = host.submit(&game, &format!("{game}/flag"), &[("action", "flag"), ("post", "1")]);
    assert_eq!(r.status, 200);
    assert!(r.body.contains("Отметить сообщение №1 (Хозяйка) как нарушение?"), "{}", r.body);
    assert_eq!(t.events().len(), before, "nothing changed without the confirmation");
    assert_eq!(before, events + 1, "only the post");
    let v = t.view();
    assert_eq!((v["open"]["day"].as_u64(), v["open"]["phase"].as_str()), (Some(1), Some("morning")));
    assert!(v["players"].as_array().unwrap().iter().all(|p| p["alive"] == true));

    // Confirmed: 13:00 now, then the resolution now, as two actions.
    t.server.clock.set(START + 2 * H);
    let r = host.submit(&game, &action, &[("action", "midday"), ("confirm", "1")]);
    assert_eq!((r.status, location(&r)), (303, format!("{game}#host")), "{}", r.body);
    let v = t.view();
    assert_eq!((v["open"]["day"].as_u64(), v["open"]["phase"].as_str()), (Some(1), Some("afternoon")), "{v}");
    assert!(v["newspapers"].as_array().unwrap().iter().any(|p| p["kind"] == "bulletin"));
    assert!(history(&v).iter().any(|h| h.contains("провёл промежуточный этап (13:00) дня 1 досрочно")), "{v}");
    // An order sent now is an afternoon order.
    let seer = t.seat("seer");
    let orders = format!("{}/orders", t.base());
    let r = ok(&t.players[seer].post(&orders, json!({"act": "vote", "target": NAMES[(seer + 1) % 6]})).unwrap());
    assert_eq!(r["at"], "13:01", "{r}");
    let page = host.get(&game).body;
    assert!(!page.contains("value=\"midday\""), "13:00 has run: no button for it");
    let r = host.submit(&game, &action, &[("action", "midday"), ("confirm", "1")]);
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body.contains("Промежуточный этап этого дня уже прошёл"), "{}", r.body);
    let r = host.submit(&game, &action, &[("action", "resolve"), ("confirm", "1")]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert!(t.view()["next_day_opens"].is_string());

    // Open the next day: asked, then done; the button was there.
    let page = host.get(&game).body;
    assert!(page.contains("Открыть день 2 сейчас"), "{page}");
    let r = host.submit(&game, &action, &[("action", "open")]);
    assert_eq!(r.status, 200);
    assert!(r.body.contains("Открыть день 2 сейчас?"), "{}", r.body);
    assert!(t.view()["open"].is_null());
    let r = host.submit(&game, &action, &[("action", "open"), ("confirm", "1")]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(t.view()["open"]["day"], 2);
    // A pause asks nothing.
    let r = host.submit(&game, &action, &[("action", "pause")]);
    assert_eq!(r.status, 303);
    assert_eq!(t.view()["paused"], true);
    // A player's confirmation page is no way in.
    let mut player = Browser::logged_in(t.server.addr, NAMES[0]);
    let r = player.submit(&game, &action, &[("action", "resolve")]);
    assert_eq!(r.status, 403, "{}", r.body);
}

fn the_board_shows_each_seat_and_who_has_not_moved() {
    let mut t = table(15);
    let base = t.base();
    let (wolf, seer) = (t.seat("werewolf"), t.seat("seer"));
    let pass = t.passengers();
    let mut outsider = t.server.user("Зевака");
    assert_eq!(t.players[0].get(&format!("{base}/board")).unwrap().status, 403);
    assert_eq!(outsider.get(&format!("{base}/board")).unwrap().status, 403);
    assert_eq!(t.host.get(&format!("/api/games/{}/board", t.id + 100)).unwrap().status, 404);
    assert_eq!(t.host.get(&format!("{base}/board?pending=может")).unwrap().status, 400);

    // Before any order: everyone is to vote, the werewolf and the seer also to act at night.
    let b = t.board("");
    assert_eq!((b["day"].as_u64(), b["waiting"].as_u64()), (Some(1), Some(6)), "{b}");
    let seats = b["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 6);
    for s in seats {
        let name = s["name"].as_str().unwrap();
        assert_eq!(s["role"]["id"], t.role(name), "{s}");
        assert_eq!(s["alive"], true);
        let missing = match t.role(name) {
            "werewolf" | "seer" => json!(["vote", "night"]),
            _ => json!(["vote"]),
        };
        assert_eq!(s["missing"], missing, "{s}");
        assert_eq!(s["orders"], json!([]));
    }

    // The werewolf votes and kills, the seer checks, a passenger votes.
    t.order(wolf, json!({"act": "vote", "target": NAMES[seer]}));
    t.order(wolf, json!({"act": "kill", "target": NAMES[pass[0]]}));
    t.order(seer, json!({"act": "check", "target": NAMES[wolf]}));
    t.order(pass[0], json!({"act": "vote", "target": NAMES[seer]}));
    let w = t.card(NAMES[wolf]);
    assert_eq!(w["missing"], json!([]));
    assert_eq!(
        w["orders"],
        json!([{"act": "vote", "targets": [NAMES[seer]]}, {"act": "kill", "targets": [NAMES[pass[0]]]}]),
        "{w}"
    );
    assert_eq!(t.card(NAMES[seer])["missing"], json!(["vote"]));
    assert_eq!(t.card(NAMES[pass[0]])["missing"], json!([]));
    let b = t.board("");
    let mut voters = vec![NAMES[wolf], NAMES[pass[0]]];
    voters.sort_by_key(|n| NAMES.iter().position(|m| m == n));
    assert_eq!(b["tally"], json!([{"name": NAMES[seer], "votes": 2, "voters": voters}]), "in the list order");
    // «Кто ещё не сходил»: the seer and the three passengers who have not voted.
    let pending = t.board("?pending=1");
    let waiting: Vec<&str> = pending["seats"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    let mut expected: Vec<&str> = std::iter::once(seer).chain(pass[1..].iter().copied()).map(|i| NAMES[i]).collect();
    expected.sort_by_key(|n| waiting.iter().position(|w| w == n));
    assert_eq!(waiting, expected);
    assert_eq!(pending["waiting"], 4);

    // The host's page: the same board, filtered without JavaScript by the query.
    let mut host = Browser::logged_in(t.server.addr, "Хозяйка");
    let game = format!("/games/{}", t.id);
    let board_of =
        |page: &str| page.split("id=\"board\"").nth(1).unwrap().split("</section>").next().unwrap().to_string();
    let all = board_of(&host.get(&game).body);
    for n in NAMES {
        assert!(all.contains(&format!("<h4>{n}</h4>")), "{n} on the board: {all}");
    }
    for line in [
        format!("<li>голос: {}</li><li>убить: {}</li>", NAMES[seer], NAMES[pass[0]]),
        format!("<li>проверить: {}</li>", NAMES[wolf]),
        "<p class=\"missing\">голос не отправлен</p>".to_string(),
        format!("<strong>{}</strong> — 2 голоса", NAMES[seer]),
    ] {
        assert!(all.contains(&line), "{line} in {all}");
    }
    assert!(!all.contains("ночной ход не отправлен"), "the werewolf and the seer have acted: {all}");
    assert!(all.contains("Кто ещё не сходил: 4"), "{all}");
    let some = board_of(&host.get(&format!("{game}?pending=1")).body);
    for (i, n) in NAMES.iter().enumerate() {
        assert_eq!(some.contains(&format!("<h4>{n}</h4>")), expected.contains(n), "seat {i} ({n}): {some}");
    }
    // Only the host has a board; the event fix is offered only while it can apply (day 1,
    // before any order: none here).
    assert!(!t.players[0].get(&game).unwrap().body.contains("id=\"board\""));
    assert!(!host.get(&game).body.contains("id=\"h-event\""), "orders were sent: the event is final");
}
