//! The player's day on the game page (issue 30, points 7–14), as a browser with
//! JavaScript off sees it: what to do now (the countdown, what is not sent, the orders in
//! force, the confirmation of an accepted order), a vote sent with nobody chosen, the
//! last resolution's summary, the role's and item's rule lines, the sign-in that comes
//! back to the invite (and never leaves the site), and the thread fragment opened
//! directly.

mod support;

use std::io::{BufRead, Read, Write};

use support::browser::{csrf_of, custom_game, invite_of, location, Browser};
use support::{Server, START};

const NAMES: [&str; 6] = ["Агата", "Богдан", "Варвара", "Гордей", "Дарина", "Ефим"];

struct Table {
    server: Server,
    host: Browser,
    players: Vec<Browser>,
    id: i64,
    game: String,
    invite: String,
}

/// A host and six players through the forms (a werewolf, a seer, a nurse, three
/// passengers; no items); day 1 without an event.
fn table() -> Table {
    let server = Server::start();
    let mut host = Browser::signed_up(server.addr, "Смотритель");
    let page = host.get("/new");
    let token = csrf_of(&page.body);
    let r = host.post(
        "/new",
        &token,
        &custom_game(
            "День игрока",
            "6",
            &[("role_werewolf", "1"), ("role_seer", "1"), ("role_nurse", "1")],
            "none",
            "random",
        ),
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let game = location(&r);
    let id: i64 = game.rsplit('/').next().unwrap().parse().unwrap();
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
    let r = host.submit(&game, &format!("{game}/start"), &[]);
    assert_eq!(r.status, 303, "{}", r.body);
    let r = host.submit(&game, &format!("{game}/host"), &[("action", "fix"), ("event", "none")]);
    assert_eq!(r.status, 303, "{}", r.body);
    Table { server, host, players, id, game, invite }
}

fn role_of(page: &str) -> String {
    page.split("Роль: <strong>").nth(1).unwrap().split('<').next().unwrap().to_string()
}

/// The «what to do now» card of a page.
fn now_card(page: &str) -> &str {
    page.split("id=\"day-h\"").nth(1).expect("the day card").split("</section>").next().unwrap()
}

/// Issue 30, point 7: the countdown is right without JavaScript («до 21:00 по московскому
/// времени осталось 11 ч»), the card lists what is not sent (from the engine's
/// `unsent`), an accepted order is confirmed («Голос принят: …») and listed in force with
/// a link to its form, and the list shrinks as orders arrive.
#[test]
fn what_to_do_now_without_javascript() {
    let mut t = table();
    let game = t.game.clone();
    // 10:00 in Moscow on day 1: eleven hours to the 21:00 deadline.
    t.server.clock.set(START + 12 * 3600);
    let pages: Vec<String> = (0..6).map(|i| t.players[i].get(&game).body).collect();
    let roles: Vec<String> = pages.iter().map(|p| role_of(p)).collect();
    let wolf = roles.iter().position(|r| r == "Оборотень").unwrap();
    let passenger = roles.iter().position(|r| r.starts_with("Пассажир")).unwrap();
    let card = now_card(&pages[wolf]);
    assert!(card.contains("что сделать сейчас"), "{card}");
    assert!(
        card.contains("до <time datetime=\"2026-12-02T21:00:00+03:00\" data-local=\"1\">21:00 по московскому времени</time> осталось <span class=\"left\" data-until=\"1796234400\" data-now=\"1796194800\">11 ч</span>"),
        "the countdown without JavaScript: {card}"
    );
    assert!(card.contains("Не отправлено: голос, ночной ход."), "{card}");
    assert!(now_card(&pages[passenger]).contains("Не отправлено: голос."), "a passenger owes no night order");
    // The role's line from the rule book, with its link.
    assert!(
        pages[wolf].contains("Каждую ночь стая убивает одного игрока") && pages[wolf].contains("/rules#role-werewolf")
    );
    let rules = t.players[0].get("/rules").body;
    assert!(rules.contains("id=\"role-werewolf\"") && rules.contains("id=\"item-shocker\""), "the rule book's anchors");

    // The wolf votes: confirmed, in force, one thing left.
    let target = NAMES[passenger];
    let r = t.players[wolf].submit(&game, &format!("{game}/order"), &[("act", "vote"), ("target", target)]);
    assert_eq!((r.status, location(&r)), (303, format!("{game}?done=order-vote#confirm")), "{}", r.body);
    let page = t.players[wolf].get(&format!("{game}?done=order-vote")).body;
    let card = now_card(&page);
    assert!(
        card.contains(&format!(
            "role=\"status\" id=\"confirm\" tabindex=\"-1\" data-focus=\"1\">Голос принят: {target} (в 10:00)."
        )),
        "{card}"
    );
    assert!(card.contains("Не отправлено: ночной ход."), "{card}");
    assert!(card.contains(&format!("Голос: {target} (в 10:00) — <a href=\"#order-vote\">изменить</a>")), "{card}");
    // Without `done`, no confirmation.
    assert!(!t.players[wolf].get(&game).body.contains("id=\"confirm\""));
    // The vote form: a fieldset with its legend, the explanation and the order in force
    // tied to its controls.
    let form = page.split("id=\"order-vote\"").nth(1).unwrap().split("</form>").next().unwrap();
    assert!(form.contains("<legend>Голос</legend>"), "{form}");
    assert!(form.contains("aria-describedby=\"vote-hint vote-current\""), "{form}");

    // The night order: nothing left; the card says so.
    let other = (0..6).find(|i| ![wolf, passenger].contains(i)).unwrap();
    let r = t.players[wolf].submit(&game, &format!("{game}/order"), &[("act", "kill"), ("target", NAMES[other])]);
    assert_eq!(r.status, 303, "{}", r.body);
    let card = now_card(&t.players[wolf].get(&game).body).to_string();
    assert!(!card.contains("Не отправлено"), "{card}");
    assert!(card.contains("Всё нужное на сегодня отправлено"), "{card}");
}

/// Issue 30, point 10: the create form says which roles «Рекомендуемый расклад» deals for
/// the number of seats.
#[test]
fn the_create_form_names_the_recommended_deal() {
    let server = Server::start();
    let mut host = Browser::signed_up(server.addr, "Смотритель");
    let page = host.get("/new").body;
    assert!(page.contains("Расклад на "), "{page}");
    let hint =
        host.get("/new/balance?slots=8&setup=recommended&tz=Europe/Moscow&open=22:00&midday=13:00&deadline=21:00");
    assert!(hint.body.contains("Расклад на 8 игроков: ") && hint.body.contains("Оборотень — "), "{}", hint.body);
    let custom = host.get(
        "/new/balance?slots=8&setup=custom&role_werewolf=1&tz=Europe/Moscow&open=22:00&midday=13:00&deadline=21:00",
    );
    assert!(!custom.body.contains("Расклад на"), "{}", custom.body);
}

/// Issue 30, point 10: a vote sent with nobody chosen gets a sentence saying what to
/// choose, next to its form, never «Неверный приказ: приказ (by = …)».
#[test]
fn an_empty_vote_gets_a_sentence() {
    let mut t = table();
    let game = t.game.clone();
    t.server.clock.set(START + 12 * 3600);
    let r = t.players[0].submit(&game, &format!("{game}/order"), &[("act", "vote"), ("target", "")]);
    assert_eq!(r.status, 422, "{}", r.body);
    let form = r.body.split("id=\"order-vote\"").nth(1).unwrap().split("</form>").next().unwrap();
    assert!(form.contains("Выберите, против кого вы голосуете."), "{form}");
    assert!(!r.body.contains("Неверный приказ"), "{}", r.body);
    assert!(form.contains("aria-describedby=\"vote-hint vote-error\""), "the refusal is tied to the field: {form}");
}

/// Issue 30, point 9: after the resolution every viewer finds at the top of the game page
/// who was lynched and who died in the night, each agreeing with their gender, and a link
/// to the newspaper; a spectator sees the same and nothing more.
#[test]
fn the_summary_after_the_resolution() {
    let mut t = table();
    let game = t.game.clone();
    t.server.clock.set(START + 12 * 3600);
    let roles: Vec<String> = (0..6).map(|i| role_of(&t.players[i].get(&game).body)).collect();
    let wolf = roles.iter().position(|r| r == "Оборотень").unwrap();
    let victim = roles.iter().position(|r| r.starts_with("Пассажир")).unwrap();
    for b in t.players.iter_mut() {
        let r = b.submit(&game, &format!("{game}/order"), &[("act", "vote"), ("target", NAMES[victim])]);
        assert_eq!(r.status, 303, "{}", r.body);
    }
    let r = t.host.submit(&game, &format!("{game}/host"), &[("action", "resolve"), ("confirm", "1")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let mut spectator = Browser::signed_up(t.server.addr, "Зевака");
    for (who, page) in [("a player", t.players[wolf].get(&game).body), ("a spectator", spectator.get(&game).body)] {
        let s = page.split("id=\"summary-h\"").nth(1).unwrap_or_else(|| panic!("{who}: {page}"));
        let s = s.split("</section>").next().unwrap();
        assert!(s.contains("Итоги дня 1"), "{who}: {s}");
        // As the victim's gender has it (a name whose gender is unknown: a noun).
        let speech = ostrov_engine::ru::Speech::resolve(NAMES[victim], None, None).unwrap();
        let lynched = match ostrov_engine::ru::Who::new(NAMES[victim], &speech).gender() {
            Some(ostrov_engine::ru::Gender::Male) => "линчёван",
            Some(ostrov_engine::ru::Gender::Female) => "линчёвана",
            None => "линчевание",
        };
        assert!(s.contains(&format!("{} — {lynched}", NAMES[victim])), "{who}: {s}");
        assert!(s.contains("Ночью никто не погиб.") || s.contains("погиб"), "{who}: {s}");
        assert!(s.contains(&format!("href=\"/games/{}/papers/1/evening\"", t.id)), "{who}: {s}");
        assert!(!s.contains("Оборотень"), "{who}: no role in the summary: {s}");
    }
}

/// Issue 30, point 10: an invite opened while signed out comes back to the invite after
/// sign-in or sign-up; `next` is only ever a path of this site (no open redirect).
#[test]
fn sign_in_comes_back_to_the_invite_and_never_leaves_the_site() {
    let t = table();
    let mut b = Browser::new(t.server.addr);
    let r = b.get(&format!("/join/{}", t.invite));
    let login = location(&r);
    assert_eq!((r.status, login.as_str()), (303, format!("/login?next=/join/{}", t.invite).as_str()));
    let page = b.get(&login);
    assert!(page.body.contains(&format!("name=\"next\" value=\"/join/{}\"", t.invite)), "{}", page.body);
    assert!(page.body.contains(&format!("href=\"/signup?next=/join/{}\"", t.invite)), "the sign-up link keeps it");
    // Sign up from there: back to the invite.
    let token = csrf_of(&b.get(&format!("/signup?next=/join/{}", t.invite)).body);
    let next = format!("/join/{}", t.invite);
    let r = b.post("/signup", &token, &[("name", "Новенькая"), ("password", "пароль-для-теста"), ("next", &next)]);
    assert_eq!((r.status, location(&r)), (303, next.clone()), "{}", r.body);
    // Sign in from there: back to the invite.
    let mut b = Browser::new(t.server.addr);
    let token = csrf_of(&b.get(&login).body);
    let r = b.post("/login", &token, &[("name", "Агата"), ("password", "пароль-для-теста"), ("next", &next)]);
    assert_eq!((r.status, location(&r)), (303, next.clone()));
    // Anything that is not a path of this site lands on the home page.
    for evil in [
        "//evil.example/x",
        "https://evil.example/",
        "/\\evil.example",
        "\\\\evil.example",
        "/%0d%0aSet-Cookie:x",
        "javascript:alert(1)",
        "/ok path",
        "evil.example",
    ] {
        let mut b = Browser::new(t.server.addr);
        let page = b.get("/login").body;
        let token = csrf_of(&page);
        let r = b.post("/login", &token, &[("name", "Агата"), ("password", "пароль-для-теста"), ("next", evil)]);
        let to = location(&r);
        assert!(to == "/" || (to.starts_with('/') && !to.starts_with("//") && !to.contains('\\')), "{evil} → {to}");
        if evil != "/%0d%0aSet-Cookie:x" {
            assert_eq!(to, "/", "{evil}");
        }
        // Already signed in: the login page passes `next` on only when it is safe.
        let r = b.get(&format!("/login?next={}", support::browser::enc(evil)));
        assert!(location(&r) == "/" || evil.starts_with("/%"), "{evil} → {}", location(&r));
    }
}

/// A GET of `path` as `b`, with extra request headers; the status and the location.
fn get_with(t: &Table, b: &Browser, path: &str, headers: &str) -> (u16, String) {
    let mut s = std::net::TcpStream::connect(t.server.addr).unwrap();
    let cookie = b.jar.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("; ");
    write!(s, "GET {path} HTTP/1.1\r\nHost: x\r\nCookie: {cookie}\r\n{headers}Connection: close\r\n\r\n").unwrap();
    let mut lines = std::io::BufReader::new(s);
    let mut status = String::new();
    lines.read_line(&mut status).unwrap();
    let mut rest = String::new();
    lines.read_to_string(&mut rest).unwrap();
    let loc = rest
        .lines()
        .find_map(|l| l.strip_prefix("location: ").or_else(|| l.strip_prefix("Location: ")))
        .unwrap_or_default()
        .trim()
        .to_string();
    (status.split(' ').nth(1).unwrap().parse().unwrap(), loc)
}

/// Issue 30, point 14: the thread's fragment address opened by a browser serves the
/// whole page (its `lang` and title) by a redirect; the page's own script still gets the
/// fragment; the host's «Нарушение» buttons name their post.
#[test]
fn the_thread_fragment_opened_directly_and_the_hosts_buttons() {
    let mut t = table();
    let game = t.game.clone();
    t.server.clock.set(START + 12 * 3600);
    let r = t.players[1].submit(&game, &format!("{game}/thread"), &[("room", "thread"), ("text", "Доброе утро")]);
    assert_eq!((r.status, location(&r)), (303, format!("{game}?done=post-thread#confirm")));
    let page = t.players[1].get(&format!("{game}?done=post-thread")).body;
    assert!(
        page.contains("role=\"status\" id=\"confirm\" tabindex=\"-1\" data-focus=\"1\">Сообщение отправлено."),
        "{page}"
    );
    let path = format!("/games/{}/thread?room=thread", t.id);
    let (status, to) = get_with(&t, &t.players[1], &path, "Sec-Fetch-Mode: navigate\r\nAccept: text/html\r\n");
    assert_eq!((status, to.as_str()), (303, format!("/games/{}?room=thread#thread", t.id).as_str()));
    let (status, _) = get_with(&t, &t.players[1], &path, "HX-Request: true\r\nAccept: */*\r\n");
    assert_eq!(status, 200);
    let host = t.host.get(&game).body;
    assert!(host.contains("aria-label=\"Нарушение: сообщение №1 (Богдан)\""), "{host}");
    // One live region per room (the host reads the thread and the pack's chat), told to
    // announce additions only.
    assert_eq!(host.matches("aria-live=").count(), 2, "{host}");
    assert_eq!(host.matches("aria-live=\"polite\" aria-relevant=\"additions\"").count(), 2);
    // The skip link.
    assert!(host.contains("<a class=\"skip\" href=\"#main\">"));
}
