//! Withdrawing an order in force (issue 30, point 7; O-ORDER-4): through the API (`POST
//! /api/games/{id}/orders {"act": "withdraw", "what": "vote"}`) the vote stops counting on
//! the host's board and in the preview, may be sent again, is refused with a Russian
//! reason when nothing is in force or after the deadline, and the exported game file holds
//! the withdrawal and replays to the same report; on the game page, without JavaScript,
//! each order in force has its «Отозвать» button and the confirmation «Голос отозван.».

mod support;

support::both_stores!(a_vote_withdrawn_through_the_api_stops_counting,);

use ostrov_server::client::Client;
use serde_json::{json, Value};
use support::browser::{csrf_of, custom_game, invite_of, location, Browser};
use support::{error, no_events, ok, roles, Server, HOUR as H, START};

const NAMES: [&str; 5] = ["Аня", "Боря", "Вика", "Гоша", "Даша"];

/// The votes for `name` on the host's board.
fn votes_for(host: &mut Client, base: &str, name: &str) -> u64 {
    let b = ok(&host.get(&format!("{base}/board")).unwrap());
    b["tally"].as_array().unwrap().iter().find(|l| l["name"] == name).map_or(0, |l| l["votes"].as_u64().unwrap())
}

/// The preview's tally of `name` (votes not cast count on their owner, R-VOTE-1).
fn preview_for(host: &mut Client, base: &str, name: &str) -> u64 {
    let p = ok(&host.get(&format!("{base}/preview")).unwrap());
    let day = p["days"].as_array().unwrap().last().unwrap().clone();
    day["tally"][name].as_u64().unwrap_or(0)
}

fn a_vote_withdrawn_through_the_api_stops_counting() {
    let server = Server::start();
    let mut host = server.user("Хозяйка");
    let g = ok(&host
        .post(
            "/api/games",
            json!({"title": "Отзыв", "slots": 5, "setup": "werewolf,seer", "seed": 3, "rules": {"events": no_events()}}),
        )
        .unwrap());
    let (id, invite) = (g["id"].as_i64().unwrap(), g["invite"].as_str().unwrap().to_string());
    let mut p = server.join_all(&invite, &NAMES);
    server.clock.set(START);
    ok(&host.post(&format!("/api/games/{id}/start"), json!({})).unwrap());
    let base = format!("/api/games/{id}");
    let roles = roles(&ok(&host.get(&base).unwrap()));
    let passenger = NAMES.iter().position(|n| roles.iter().any(|(m, r)| m == n && r == "passenger")).unwrap();
    let (me, target) = (passenger, NAMES[(passenger + 1) % 5]);
    server.clock.set(START + 12 * H);
    let orders = format!("{base}/orders");
    let withdraw = json!({"act": "withdraw", "what": "vote"});

    // Nothing in force: a clear Russian refusal, and nothing stored.
    let r = p[me].post(&orders, withdraw.clone()).unwrap();
    assert_eq!(error(&r), (422, "nothing_to_withdraw".into()), "{}", r.body);
    assert_eq!(r.json()["message"], "Ход не принят: у вас нет такого приказа в силе, отзывать нечего.");
    let r = p[me].post(&orders, json!({"act": "withdraw"})).unwrap();
    assert_eq!(error(&r), (422, "bad_order".into()), "{}", r.body);
    assert_eq!(r.json()["message"], "Укажите, какой приказ отозвать.");
    let r = p[me].post(&orders, json!({"act": "withdraw", "what": "use"})).unwrap();
    assert_eq!(error(&r), (422, "not_withdrawable".into()), "{}", r.body);

    // A vote, counted; withdrawn, it no longer is (on the board and in the preview: the
    // vote not cast counts on its owner, R-VOTE-1); the seat's own view lists it no more.
    ok(&p[me].post(&orders, json!({"act": "vote", "target": target})).unwrap());
    assert_eq!(votes_for(&mut host, &base, target), 1);
    let before = preview_for(&mut host, &base, target);
    let r = ok(&p[me].post(&orders, withdraw.clone()).unwrap());
    assert_eq!(r["order"]["act"], "withdraw");
    assert_eq!(r["order"]["what"], "vote");
    assert_eq!(votes_for(&mut host, &base, target), 0, "the withdrawn vote does not count");
    assert_eq!(preview_for(&mut host, &base, target), before - 1);
    assert!(preview_for(&mut host, &base, NAMES[me]) >= 1, "on its owner");
    let mine = ok(&p[me].get(&orders).unwrap());
    assert_eq!(mine["orders"], json!([]), "neither the vote nor its withdrawal is in force");
    // Withdrawn twice: nothing in force any more.
    assert_eq!(error(&p[me].post(&orders, withdraw.clone()).unwrap()), (422, "nothing_to_withdraw".into()));
    // Another seat's withdrawal takes back only its own.
    let other = (me + 2) % 5;
    ok(&p[other].post(&orders, json!({"act": "vote", "target": target})).unwrap());
    // Sent again: it counts again.
    ok(&p[me].post(&orders, json!({"act": "vote", "target": target})).unwrap());
    assert_eq!(votes_for(&mut host, &base, target), 2);

    // After the deadline: refused.
    server.clock.set(START + 23 * H + 2 * 60);
    let r = p[me].post(&orders, withdraw).unwrap();
    assert_eq!(error(&r).1, "late", "{}", r.body);
    assert_eq!(r.status, 422);

    // The day resolves; the exported game file holds the withdrawal and replays to the
    // same report.
    server.clock.set(START + 23 * H + 5 * 60);
    let report = host.get(&format!("{base}/report")).unwrap();
    assert_eq!(report.status, 200, "{}", report.body);
    let file = host.get(&format!("{base}/gamefile")).unwrap();
    assert!(file.body.contains("act = \"withdraw\"") && file.body.contains("what = \"vote\""), "{}", file.body);
    let game = ostrov_engine::Game::parse(&file.body).expect("the exported game file is valid");
    let replayed = ostrov_engine::resolve(&game).expect("it resolves");
    assert_eq!(replayed.to_json(), report.body, "the exported file replays into the server's report");
    let day: Value = serde_json::from_str::<Value>(&report.body).unwrap()["days"][0].clone();
    let cast = json!({"kind": "cast", "target": target, "voter": NAMES[me]});
    assert!(day["ballots"].as_array().unwrap().contains(&cast), "the vote sent again counts: {day}");
}

/// The «что сделать сейчас» card of a page.
fn now_card(page: &str) -> &str {
    page.split("id=\"day-h\"").nth(1).expect("the day card").split("</section>").next().unwrap()
}

/// Issue 30, point 7: each order in force has its «Отозвать» button, a form that works
/// without JavaScript; the withdrawal is confirmed where the focus goes («Голос отозван.»
/// as a `role="status"`), the vote is no longer in force and is missing again.
#[test]
fn the_game_page_withdraws_a_vote_without_javascript() {
    let server = Server::start();
    let mut host = Browser::signed_up(server.addr, "Смотритель");
    let token = csrf_of(&host.get("/new").body);
    let r = host.post(
        "/new",
        &token,
        &custom_game("Отзыв", "5", &[("role_werewolf", "1"), ("role_seer", "1")], "none", "random"),
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let game = location(&r);
    let lobby = host.get(&game);
    let invite = invite_of(&lobby.body);
    let mut players = Vec::new();
    for n in NAMES {
        let mut b = Browser::signed_up(server.addr, n);
        let r = b.submit(&format!("/join/{invite}"), &format!("/join/{invite}"), &[("name", n)]);
        assert_eq!(r.status, 303, "{n} joins: {}", r.body);
        players.push(b);
    }
    server.clock.set(START);
    assert_eq!(host.submit(&game, &format!("{game}/start"), &[]).status, 303);
    assert_eq!(host.submit(&game, &format!("{game}/host"), &[("action", "fix"), ("event", "none")]).status, 303);
    server.clock.set(START + 12 * H);

    let b = &mut players[0];
    let r = b.submit(&game, &format!("{game}/order"), &[("act", "vote"), ("target", NAMES[1])]);
    assert_eq!(r.status, 303, "{}", r.body);
    let page = b.get(&game).body;
    let card = now_card(&page);
    assert!(card.contains("<input type=\"hidden\" name=\"what\" value=\"vote\">"), "{card}");
    assert!(card.contains("aria-label=\"Отозвать: Голос\">Отозвать</button>"), "{card}");

    let r = b.submit(&game, &format!("{game}/order"), &[("act", "withdraw"), ("what", "vote")]);
    assert_eq!((r.status, location(&r)), (303, format!("{game}?done=withdraw-vote#confirm")), "{}", r.body);
    let page = b.get(&format!("{game}?done=withdraw-vote")).body;
    let card = now_card(&page);
    assert!(card.contains("role=\"status\" id=\"confirm\" tabindex=\"-1\" data-focus=\"1\">Голос отозван."), "{card}");
    assert!(card.contains("Не отправлено: голос"), "{card}");
    assert!(!card.contains("Голос: "), "no longer in force: {card}");
    let form = page.split("id=\"order-vote\"").nth(1).unwrap().split("</form>").next().unwrap();
    assert!(!form.contains("Сейчас:") && form.contains(">Отправить</button>"), "{form}");

    // Again, with nothing in force: the refusal next to the vote's form.
    let r = b.submit(&game, &format!("{game}/order"), &[("act", "withdraw"), ("what", "vote")]);
    assert_eq!(r.status, 422, "{}", r.body);
    let form = r.body.split("id=\"order-vote\"").nth(1).unwrap().split("</form>").next().unwrap();
    assert!(form.contains("Ход не принят: у вас нет такого приказа в силе, отзывать нечего."), "{form}");
}
