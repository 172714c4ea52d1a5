//! The web pages over plain HTTP, as a browser with JavaScript off uses them: form posts
//! with the hidden CSRF token, answered by redirects or by the page with the message next
//! to the field. A whole day: sign-up, creation (with the balance hint), invite, joins,
//! start, votes and night orders from the forms, a refused order, the thread with the
//! Palms bloom rule and a dead player's post, the host resolving the day, the newspaper.

mod support;

use support::browser::{csrf_of, custom_game, invite_of, location, Browser};
use support::{Server, START};

const NAMES: [&str; 6] = ["Агата", "Богдан", "Варвара", "Гордей", "Дарина", "Ефим"];

struct Table {
    server: Server,
    host: Browser,
    players: Vec<Browser>,
    id: i64,
    game: String,
}

/// A host and six players through the forms; the game started with day 1 on Palms bloom.
fn table() -> Table {
    table_with_deck("none")
}

/// [`table`] with the item deck given (the create form's list of item ids).
fn table_with_deck(deck: &str) -> Table {
    table_with(deck, "random")
}

/// [`table`] with the item deck and the tie rule given.
fn table_with(deck: &str, tie: &str) -> Table {
    let server = Server::start();
    let mut host = Browser::signed_up(server.addr, "Смотритель");
    let page = host.get("/new");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("Мирные выигрывают"), "the balance hint on the create page: {}", page.body);
    let hint = host.get("/new/balance?slots=6&setup=custom&role_werewolf=1&role_seer=1&tz=Europe/Moscow&open=22:00&midday=13:00&deadline=21:00");
    assert!(hint.body.contains("Мирные выигрывают") && hint.body.contains('%'), "{}", hint.body);
    let token = csrf_of(&page.body);
    let r = host.post(
        "/new",
        &token,
        &custom_game(
            "Остров <b>страха</b>",
            "6",
            &[("role_werewolf", "1"), ("role_seer", "1"), ("role_nurse", "1")],
            deck,
            tie,
        ),
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let game = location(&r);
    let id: i64 = game.rsplit('/').next().unwrap().parse().unwrap();
    let lobby = host.get(&game);
    assert!(lobby.body.contains("Остров &#60;b&#62;страха"), "the title is escaped: {}", lobby.body);
    let invite = invite_of(&lobby.body);
    let mut players = Vec::new();
    for n in NAMES {
        let mut b = Browser::signed_up(server.addr, n);
        let r = b.submit(&format!("/join/{invite}"), &format!("/join/{invite}"), &[("name", n)]);
        assert_eq!((r.status, location(&r)), (303, game.clone()), "{n} joins: {}", r.body);
        players.push(b);
    }
    server.clock.set(START);
    let r = host.submit(&game, &format!("{game}/start"), &[]);
    assert_eq!(r.status, 303, "{}", r.body);
    let r = host.submit(&game, &format!("{game}/host"), &[("action", "fix"), ("event", "palms_bloom")]);
    assert_eq!(r.status, 303, "{}", r.body);
    Table { server, host, players, id, game }
}

fn role_of(t: &mut Table, i: usize) -> String {
    let page = t.players[i].get(&t.game).body;
    page.split("Роль: <strong>").nth(1).unwrap().split('<').next().unwrap().to_string()
}

#[test]
fn a_day_played_from_the_pages_with_javascript_off() {
    let mut t = table();
    let game = t.game.clone();
    t.server.clock.set(START + 12 * 3600);
    let roles: Vec<String> = (0..6).map(|i| role_of(&mut t, i)).collect();
    let wolf = roles.iter().position(|r| r == "Оборотень").unwrap();
    // The role agrees with the player's gender, which a first name like «Варвара» gives.
    let seer = roles.iter().position(|r| r == "Ясновидящий" || r == "Ясновидящая").unwrap();
    let nurse = roles.iter().position(|r| r == "Медсестра" || r == "Медбрат").unwrap();
    let victim = (0..6).find(|i| ![wolf, seer, nurse].contains(i)).unwrap();
    // Everyone votes against the first passenger (the same vote with JavaScript off:
    // a plain form post, answered by a redirect back to the form).
    for (b, name) in t.players.iter_mut().zip(NAMES) {
        let r = b.submit(&game, &format!("{game}/order"), &[("act", "vote"), ("target", NAMES[victim])]);
        assert_eq!((r.status, location(&r)), (303, format!("{game}?done=order-vote#confirm")), "{}", r.body);
        let page = b.get(&game).body;
        assert!(page.contains(&format!("Сейчас: {}", NAMES[victim])), "{name}'s current vote shown");
    }
    let other = (0..6).find(|i| ![wolf, victim].contains(i)).unwrap();
    let r = t.players[wolf].submit(&game, &format!("{game}/order"), &[("act", "kill"), ("target", NAMES[other])]);
    assert_eq!(r.status, 303, "{}", r.body);
    let r = t.players[seer].submit(&game, &format!("{game}/order"), &[("act", "check"), ("target", NAMES[wolf])]);
    assert_eq!(r.status, 303, "{}", r.body);
    // A refused order: the nurse heals someone not in the game; the reason is next to the form.
    let r = t.players[nurse].submit(&game, &format!("{game}/order"), &[("act", "heal"), ("target", "Никто")]);
    assert_eq!(r.status, 422);
    let form = r.body.split("id=\"order-heal\"").nth(1).unwrap().split("</form>").next().unwrap();
    assert!(form.contains("class=\"error\"") && form.contains("Неверный приказ"), "{form}");
    let r = t.players[nurse].submit(&game, &format!("{game}/order"), &[("act", "heal"), ("target", NAMES[seer])]);
    assert_eq!(r.status, 303, "{}", r.body);
    // A passenger has no night form at all (exactly the orders one can send).
    let page = t.players[victim].get(&game).body;
    assert!(
        page.contains("id=\"order-vote\"")
            && !page.contains("id=\"order-kill\"")
            && !page.contains("id=\"order-check\"")
    );

    // The thread on Palms bloom: a banned word is flagged automatically and highlighted.
    let r = t.players[other].submit(
        &game,
        &format!("{game}/thread"),
        &[("room", "thread"), ("text", "Это НЕ я, честно <script>x</script>")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let second = (0..6).find(|i| ![wolf, victim, other].contains(i)).unwrap();
    let r = t.players[second].submit(
        &game,
        &format!("{game}/thread"),
        &[("room", "thread"), ("text", "Подозреваю кого-то третьего")],
    );
    assert_eq!(r.status, 303);
    let page = t.host.get(&game).body;
    assert!(page.contains("<mark>НЕ</mark>") && page.contains("<mark>я</mark>"), "the banned words highlighted");
    assert!(page.contains("&#60;script&#62;") && !page.contains("<script>x"), "a post is escaped");
    // Two banned words: «запрещённые слова», in the plural (issue 29, point 2).
    assert_eq!(page.matches("«Пальмы цветут»: запрещённые слова").count(), 1, "only the first post breaks the rule");
    assert!(!page.contains("«Пальмы цветут»: запрещённое слово"), "two words are not one");

    // The host flags the second post in one click: the host penalty, public in the history.
    let r = t.host.submit(&game, &format!("{game}/flag"), &[("action", "flag"), ("post", "2"), ("confirm", "1")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let page = t.players[victim].get(&game).body;
    assert!(page.contains("Ведущий отметил сообщение №2"), "the flag is public");
    // The name in the instrumental where it declines («Богданом»), else «игроком Агата»
    // (issue 29, point 4).
    let speech = ostrov_engine::ru::Speech::resolve(NAMES[second], None, None).unwrap();
    let by = ostrov_engine::ru::Phrase::new()
        .c(ostrov_engine::ru::Who::new(NAMES[second], &speech), ostrov_engine::ru::Case::Ins)
        .to_string();
    assert!(page.contains(&format!("Ведущий отметил нарушение правил {by}")), "and is the penalty: {by}");
    let r = t.players[victim].submit(&game, &format!("{game}/flag"), &[("action", "flag"), ("post", "1")]);
    assert_eq!(r.status, 403, "only the host flags");

    // The host resolves the day: the Palms flag became the penalty, the lynch is in the paper.
    let r = t.host.submit(&game, &format!("{game}/host"), &[("action", "resolve"), ("confirm", "1")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let page = t.host.get(&game).body;
    assert!(
        page.contains("Пальмы цветут, запрещённые слова: «НЕ», «я»"),
        "the penalty in the history: {}",
        page.split("id=\"history-h\"").nth(1).unwrap_or(&page)
    );
    let paper = t.host.get(&format!("/games/{}/papers/1/evening", t.id));
    assert_eq!(paper.status, 200);
    assert!(paper.body.contains(NAMES[victim]) && paper.body.contains("<svg"), "{}", paper.body);
    assert!(paper.body.contains("— линч"), "the chart marks the lynch");
    // The newspaper is public by link.
    let anyone = Browser::new(t.server.addr).get(&format!("/games/{}/papers/1/evening", t.id));
    assert_eq!(anyone.status, 200);

    // A dead player's post is marked.
    let r = t.players[victim].submit(
        &game,
        &format!("{game}/thread"),
        &[("room", "thread"), ("text", "Передаю привет с того света")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let page = t.players[seer].get(&game).body;
    let post = page.split("Передаю привет").next().unwrap().rsplit("<li id=\"post-").next().unwrap();
    assert!(post.contains("speaker-dead") && post.contains(support::dead_mark(NAMES[victim])), "{post}");
}

#[test]
fn forms_refuse_bad_input_next_to_the_field_and_posts_without_the_token() {
    let mut t = table();
    let game = t.game.clone();
    // Sign-up: a short password, a taken name.
    let mut b = Browser::new(t.server.addr);
    let r = b.submit("/signup", "/signup", &[("name", "Новичок"), ("password", "123")]);
    assert_eq!(r.status, 422);
    assert!(r.body.contains("id=\"password-error\">Пароль должен быть не короче 8 символов."), "{}", r.body);
    let r = b.submit("/signup", "/signup", &[("name", "Агата"), ("password", "достаточно-длинный")]);
    assert!(r.body.contains("id=\"name-error\">Это имя (или неотличимое от него) уже занято."), "{}", r.body);
    let r = b.submit("/login", "/login", &[("name", "Агата"), ("password", "не-тот-пароль")]);
    assert_eq!(r.status, 422);
    assert!(r.body.contains("Неверное имя или пароль."));
    // Create: an empty title and a bad slot count.
    let r = t.host.submit(
        "/new",
        "/new",
        &[
            ("title", " "),
            ("slots", "два"),
            ("tz", "Europe/Moscow"),
            ("open", "22:00"),
            ("midday", "13:00"),
            ("deadline", "21:00"),
        ],
    );
    assert_eq!(r.status, 422);
    assert!(r.body.contains("id=\"title-error\">Название игры"), "{}", r.body);
    assert!(r.body.contains("id=\"slots-error\">Число игроков"), "{}", r.body);
    let r = t.host.submit(
        "/new",
        "/new",
        &[
            ("title", "Т"),
            ("slots", "5"),
            ("tz", "Mars/Olympus"),
            ("open", "22:00"),
            ("midday", "13:00"),
            ("deadline", "21:00"),
        ],
    );
    assert!(r.body.contains("id=\"schedule-error\">Неизвестный часовой пояс"), "{}", r.body);
    // An empty post; the host's extend with no number.
    let r = t.players[0].submit(&game, &format!("{game}/thread"), &[("room", "thread"), ("text", "  \u{200b} ")]);
    assert_eq!(r.status, 422);
    assert!(r.body.contains("id=\"text-thread-error\" role=\"alert\">Сообщение пустое"), "{}", r.body);
    let r = t.host.submit(&game, &format!("{game}/host"), &[("action", "extend"), ("minutes", "много")]);
    assert_eq!(r.status, 422);
    assert!(r.body.contains("на сколько минут продлить"), "{}", r.body);
    // A spectator may not post to the pack's chat, nor a passenger.
    // A cross-site post: no token, or another session's token, is refused before anything.
    for (token, who) in [("", "no token"), ("0123456789abcdef0123456789abcdef", "a made-up token")] {
        let r = t.players[0].post(&format!("{game}/order"), token, &[("act", "vote"), ("target", "Богдан")]);
        assert_eq!(r.status, 403, "{who}");
        assert!(r.body.contains("Запрос отклонён"), "{who}: {}", r.body);
    }
    let other = csrf_of(&t.players[1].get(&game).body);
    let r = t.players[0].post(&format!("{game}/order"), &other, &[("act", "vote"), ("target", "Богдан")]);
    assert_eq!(r.status, 403, "another session's token");
    let r = t.players[0].post("/logout", "", &[]);
    assert_eq!(r.status, 403);
    // The rules page: every role, item and event in Russian.
    let rules = Browser::new(t.server.addr).get("/rules");
    assert_eq!(rules.status, 200);
    for w in ["Оборотень", "Полукровка", "Ядовитый шип", "Кукла вуду", "Пальмы цветут", "Магнитная буря"]
    {
        assert!(rules.body.contains(w), "the rules name {w}");
    }
    // Logged out: the game page sends to the login page.
    let r = Browser::new(t.server.addr).get(&game);
    assert_eq!((r.status, location(&r)), (303, "/login".to_string()));
}

/// Issue 14: the players list shows the other players' passive items (public, as in the
/// newspaper) to players and spectators, and the host's page keeps the step-by-step log of
/// every resolved day, not only the last.
#[test]
fn passive_items_in_the_players_list_and_every_days_log_for_the_host() {
    let mut t = table_with_deck("fang, fang, fang, fang, fang, fang");
    let game = t.game.clone();
    t.server.clock.set(START + 12 * 3600);
    let page = t.players[0].get(&game).body;
    let list = page.split("id=\"players-h\"").nth(1).unwrap().split("</table>").next().unwrap();
    assert_eq!(list.matches("Клык оборотня").count(), 6, "every living player's fang is public: {list}");
    let mut spectator = Browser::signed_up(t.server.addr, "Зритель");
    let page = spectator.get(&game).body;
    let list = page.split("id=\"players-h\"").nth(1).unwrap().split("</table>").next().unwrap();
    assert_eq!(list.matches("Клык оборотня").count(), 6, "a spectator sees them too: {list}");

    for day in 1..=2 {
        let r = t.host.submit(&game, &format!("{game}/host"), &[("action", "resolve"), ("confirm", "1")]);
        assert_eq!(r.status, 303, "day {day}: {}", r.body);
        let page = t.host.get(&game).body;
        for d in 1..=day {
            assert!(page.contains(&format!("Пошаговый разбор итогов дня {d}")), "day {day}: the log of day {d}");
        }
        if page.contains("Игра окончена") {
            break;
        }
        // The next day opens at 22:00.
        t.server.clock.set(START + day as i64 * 24 * 3600 + 60);
        let page = t.host.get(&game).body;
        assert!(page.contains(&format!("День {}", day + 1)), "day {} opened", day + 1);
    }
    let page = t.players[1].get(&game).body;
    assert!(!page.contains("Пошаговый разбор"), "only the host reads the log");
}

/// Issue 14: the thread is paged: the game page shows the open day's latest page of
/// posts, with links to the day's other pages and to the other days (JavaScript off).
#[test]
fn the_thread_is_paged_by_day_and_page() {
    // Nobody votes, so every vote stays on its owner: a six-way tie, which the house rule
    // «none» leaves without a lynch. (With «random» a lot lynches someone, the werewolf one
    // time in six, and the game would end before day 2.)
    let mut t = table_with("none", "none");
    let game = t.game.clone();
    t.server.clock.set(START + 3600);
    for k in 1..=120 {
        // Ten seconds apart: each (new) account posts at most one post each 10 s after its
        // first five (issue 28, point 11).
        t.server.clock.advance(10);
        let b = &mut t.players[k % 6];
        let r = b.submit(&game, &format!("{game}/thread"), &[("room", "thread"), ("text", &format!("Реплика {k}."))]);
        assert_eq!(r.status, 303, "post {k}: {}", r.body);
    }
    let thread =
        |body: &str| body.split("id=\"thread-h\"").nth(1).unwrap().split("</section>").next().unwrap().to_string();
    let page = thread(&t.players[0].get(&game).body);
    assert!(
        page.contains("id=\"post-thread-120\"") && page.contains("id=\"post-thread-101\""),
        "the last page by default"
    );
    assert!(!page.contains("id=\"post-thread-100\""), "50 posts a page");
    assert!(page.contains(&format!("href=\"/games/{}?room=thread&#38;day=1&#38;page=1#thread\"", t.id)), "{page}");
    let body = t.players[0].get(&format!("{game}?room=thread&day=1&page=1")).body;
    let first = thread(&body);
    assert!(
        first.contains("id=\"post-thread-1\"")
            && first.contains("id=\"post-thread-50\"")
            && !first.contains("id=\"post-thread-51\"")
    );
    let live = format!("data-fragment=\"/games/{}/thread?room=thread&#38;day=1&#38;page=1\"", t.id);
    assert!(body.contains(&live), "live updates keep the page");
    let fragment = t.players[0].get(&format!("/games/{}/thread?room=thread&day=1&page=1", t.id));
    assert!(fragment.status == 200 && fragment.body.contains("id=\"post-thread-1\""), "the fragment of that page");
    let bad = t.players[0].get(&format!("{game}?day=abc"));
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert!(bad.body.contains("Неверные параметры адреса"), "{}", bad.body);

    // Day 2 opens: its (empty) thread is shown, with a link back to day 1.
    let r = t.host.submit(&game, &format!("{game}/host"), &[("action", "resolve"), ("confirm", "1")]);
    assert_eq!(r.status, 303, "{}", r.body);
    t.server.clock.set(START + 24 * 3600 + 60);
    let page = thread(&t.players[0].get(&game).body);
    assert!(page.contains("Сообщений пока нет") && !page.contains("id=\"post-thread-120\""), "{page}");
    assert!(page.contains(&format!("href=\"/games/{}?room=thread&#38;day=1#thread\"", t.id)), "{page}");
    assert!(page.contains("<strong aria-current=\"page\">день 2</strong>"), "{page}");
    let day1 = thread(&t.players[0].get(&format!("{game}?room=thread&day=1")).body);
    assert!(day1.contains("id=\"post-thread-120\""), "day 1's last page");
}

/// The part of a page from the element with `id` to the end of its paragraph.
fn field<'a>(page: &'a str, id: &str) -> &'a str {
    let from = page.find(&format!("id=\"{id}\"")).unwrap_or_else(|| panic!("no #{id} in {page}"));
    page[from..].split("</p>").next().unwrap()
}

#[test]
fn the_profile_form_saves_gender_and_forms_and_refuses_bad_input_next_to_the_field() {
    let server = Server::start();
    let mut b = Browser::signed_up(server.addr, "Варвара");
    assert!(b.get("/").body.contains("<a href=\"/profile\">Профиль</a>"), "the header links the profile");
    let page = b.get("/profile");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("<option value=\"\" selected>не указан</option>"), "{}", page.body);
    let forms = ["Варвара", "Варвары", "Варваре", "Варвару", "Варварой", "Варваре"];
    let post = |b: &mut Browser, gender: &str, f: [&str; 6]| {
        let names = ["form1", "form2", "form3", "form4", "form5", "form6"];
        let mut fields = vec![("gender", gender)];
        fields.extend(names.into_iter().zip(f));
        b.submit("/profile", "/profile", &fields)
    };

    // A forged gender and an empty third form: each message next to its own field, what
    // was typed kept.
    let mut blank = forms;
    blank[2] = " ";
    let r = post(&mut b, "x", blank);
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(
        field(&r.body, "gender").contains(
            "<span class=\"error\" id=\"gender-error\">Пол указывается как &#34;m&#34; (мужской) или &#34;f&#34; \
             (женский); чтобы не указывать его, оставьте пустым.</span>"
        ),
        "{}",
        field(&r.body, "gender")
    );
    assert!(
        field(&r.body, "form3").contains(
            "<span class=\"error\" id=\"form3-error\">Форма 3 (дательный падеж) пустая: нужно от 1 до 40 символов, \
             с буквой или цифрой.</span>"
        ),
        "{}",
        field(&r.body, "form3")
    );
    assert!(field(&r.body, "form2").contains("value=\"Варвары\"") && !field(&r.body, "form2").contains("error"));
    // A nominative that is not the account's name; a form too long.
    let mut other = forms;
    other[0] = "Варя";
    let long = "Я".repeat(41);
    other[5] = &long;
    let r = post(&mut b, "f", other);
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(
        field(&r.body, "form6").contains("Форма 6 (предложный падеж) длиннее 40 символов (41)"),
        "{}",
        field(&r.body, "form6")
    );
    other[5] = forms[5];
    let r = post(&mut b, "f", other);
    assert!(
        field(&r.body, "form1").contains(
            "<span class=\"error\" id=\"form1-error\">Первая форма (именительный падеж) «Варя» должна быть вашим \
             именем «Варвара».</span>"
        ),
        "{}",
        field(&r.body, "form1")
    );
    assert!(r.body.contains("<option value=\"f\" selected>женский</option>"), "the choice is kept");
    // Without the form's token: refused before anything is looked at.
    let r = b.post("/profile", "forged", &[("gender", "f")]);
    assert_eq!(r.status, 403);
    assert!(b.get("/profile").body.contains("<option value=\"\" selected>не указан</option>"), "nothing saved");

    // Right: saved, and shown again.
    let r = post(&mut b, "f", forms);
    assert_eq!((r.status, location(&r)), (303, "/profile?saved".to_string()), "{}", r.body);
    let page = b.get("/profile?saved").body;
    assert!(page.contains("Профиль сохранён.") && page.contains("<option value=\"f\" selected>женский</option>"));
    for (k, f) in forms.iter().enumerate() {
        assert!(field(&page, &format!("form{}", k + 1)).contains(&format!("value=\"{f}\"")), "{page}");
    }
    // Six empty fields and no gender: the profile cleared.
    let r = post(&mut b, "", [""; 6]);
    assert_eq!(r.status, 303, "{}", r.body);
    let page = b.get("/profile").body;
    assert!(
        page.contains("<option value=\"\" selected>не указан</option>") && field(&page, "form1").contains("value=\"\"")
    );
}
