//! The Telegram bot's conversation (issue 31): its poller and its commands: `/start <code>`, `/stop`, `/games`, `/status`,
//! `/vote [Имя]`, `/night [Имя]`, `/help`, and the buttons they show.

use std::sync::Arc;
use std::time::Duration;

use ostrov_engine::{Act, Aim, PlayerId};
use ostrov_store::Store;
use serde_json::{json, Value};

use crate::app::AppState;
use crate::game::{GameState, Status};
use crate::outbox::derive::missing;
use crate::service::{self, OrderRequest};
use crate::telegram::api::ApiFailure;
use crate::telegram::{keyboard, Bot, Pending, MAX_MESSAGE};

/// The offset of the next update, kept in the store so that a new lease holder goes on
/// where the last one stopped.
const OFFSET: &str = "telegram_offset";

const HELP: &str = "Команды:\n\
/games — мои игры и их дедлайны\n\
/status — что мне ещё отправить сегодня\n\
/vote Имя — голос против игрока (без имени — список живых)\n\
/night Имя — ночной приказ моей роли\n\
/stop — отключить этот чат от аккаунта";

/// Polls Telegram for updates while this node holds the scheduler's lease, forever.
pub async fn poll<S: Store>(st: Arc<AppState<S>>) {
    let Some(bot) = st.notify.telegram.clone() else { return };
    let secs = if st.notify.poll_secs == 0 { 25 } else { st.notify.poll_secs };
    let mut failures = 0u32;
    loop {
        if !matches!(st.store.lead().await, Ok(true)) {
            tokio::time::sleep(Duration::from_secs(1)).await;
            continue;
        }
        let offset = st.store.bot_value(OFFSET).await.ok().flatten().unwrap_or(0);
        let body = json!({"offset": offset, "timeout": secs, "allowed_updates": ["message", "callback_query"]});
        match bot.api.call("getUpdates", &body, Duration::from_secs(secs + 10)).await {
            Ok(Value::Array(updates)) => {
                failures = 0;
                for u in updates {
                    let Some(id) = u["update_id"].as_i64() else { continue };
                    if id < offset {
                        continue;
                    }
                    handle(&st, &bot, &u).await;
                    if let Err(e) = st.store.set_bot_value(OFFSET, id + 1).await {
                        eprintln!("ostrov-server: telegram: {e}");
                    }
                }
            }
            Ok(_) => {}
            Err(ApiFailure::RetryAfter(s)) => tokio::time::sleep(Duration::from_secs(s as u64)).await,
            Err(e) => {
                // An outage, or another poller (409) while a lease changes hands.
                failures += 1;
                if failures == 1 || failures.is_multiple_of(60) {
                    eprintln!("ostrov-server: telegram: getUpdates: {e}");
                }
                tokio::time::sleep(Duration::from_secs(u64::from(failures.min(30)))).await;
            }
        }
    }
}

/// What the bot answers: text and buttons.
struct Reply(String, Option<Value>);

impl Reply {
    fn text(s: impl Into<String>) -> Reply {
        Reply(s.into(), None)
    }
}

/// One update: a message in a private chat, or a button pressed.
async fn handle<S: Store>(st: &Arc<AppState<S>>, bot: &Bot, u: &Value) {
    let (chat, text, callback) = if let Some(m) = u.get("message") {
        // Only private chats: a group's chat would show one player's notices to others.
        if m["chat"]["type"].as_str() != Some("private") {
            return;
        }
        (m["chat"]["id"].as_i64(), m["text"].as_str().unwrap_or(""), None)
    } else if let Some(c) = u.get("callback_query") {
        if c["message"]["chat"]["type"].as_str() != Some("private") {
            return;
        }
        (c["message"]["chat"]["id"].as_i64(), c["data"].as_str().unwrap_or(""), c["id"].as_str())
    } else {
        return;
    };
    let Some(chat) = chat else { return };
    if let Some(id) = callback {
        let _ = bot.api.call("answerCallbackQuery", &json!({"callback_query_id": id}), Duration::from_secs(10)).await;
    }
    let now = st.clock.now();
    if bot.chats.take(chat, now).is_err() {
        // Told once a minute; the rest is dropped unread.
        let told = bot.warned.lock().map(|mut w| {
            if w.len() > 10_000 {
                w.clear();
            }
            let first = w.get(&chat).is_none_or(|t| now - t >= 60);
            if first {
                w.insert(chat, now);
            }
            first
        });
        if told.unwrap_or(false) {
            let _ = bot.send(chat, "Слишком много сообщений: подождите минуту.", None).await;
        }
        return;
    }
    let update = u["update_id"].as_i64().unwrap_or(0);
    let reply = if text.chars().count() > MAX_MESSAGE {
        Reply::text(format!("Слишком длинное сообщение: не больше {MAX_MESSAGE} символов."))
    } else if callback.is_some() {
        button(st, bot, chat, text, update).await
    } else {
        command(st, bot, chat, text, update).await
    };
    if let Err(e) = bot.send(chat, &reply.0, reply.1).await {
        eprintln!("ostrov-server: telegram: sendMessage: {e}");
    }
}

/// A typed command.
async fn command<S: Store>(st: &Arc<AppState<S>>, bot: &Bot, chat: i64, text: &str, update: i64) -> Reply {
    let text = text.trim();
    let (cmd, arg) = text.split_once(char::is_whitespace).map_or((text, ""), |(c, a)| (c, a.trim()));
    // `/vote@ostrov_bot` is `/vote`.
    let cmd = cmd.split('@').next().unwrap_or(cmd).to_lowercase();
    let arg = (!arg.is_empty()).then(|| arg.to_string());
    match cmd.as_str() {
        "/start" => match arg {
            Some(code) => match service::notify::telegram_link(st, chat, &code).await {
                Ok(name) => Reply::text(format!(
                    "Готово: этот чат подключён к аккаунту {name}. Сюда придут новости ваших игр и напоминания \
                     о дедлайне.\n\n{HELP}"
                )),
                Err(e) => Reply::text(e.message()),
            },
            None => Reply::text(
                "Это бот «Острова страха». Чтобы получать новости игр, откройте профиль на сайте и нажмите \
                 «Подключить Telegram».",
            ),
        },
        "/help" => Reply::text(HELP),
        _ => {
            let user =
                match st.store.telegram_user(chat).await {
                    Ok(Some(u)) => u,
                    Ok(None) => return Reply::text(
                        "Этот чат не подключён к аккаунту. Откройте профиль на сайте и нажмите «Подключить Telegram».",
                    ),
                    Err(e) => return Reply::text(crate::error::ApiError::from(e).message()),
                };
            match cmd.as_str() {
                "/stop" => {
                    let _ = st.store.telegram_unlink(None, Some(chat)).await;
                    Reply::text("Чат отключён от аккаунта: уведомлений больше не будет. Подключить снова — в профиле.")
                }
                "/games" => games(st, user).await,
                "/status" => status(st, user).await,
                "/vote" => order(st, bot, chat, user, Pending { what: "vote", target: arg }, None, update).await,
                "/night" => order(st, bot, chat, user, Pending { what: "night", target: arg }, None, update).await,
                _ => Reply::text(format!("Не знаю такой команды.\n\n{HELP}")),
            }
        }
    }
}

/// A button: `g:{game}` picks the game of the waiting command; `v:{game}:{seat}` and
/// `n:{game}:{seat}` name the target of a vote or a night order.
async fn button<S: Store>(st: &Arc<AppState<S>>, bot: &Bot, chat: i64, data: &str, update: i64) -> Reply {
    let Ok(Some(user)) = st.store.telegram_user(chat).await else {
        return Reply::text("Этот чат не подключён к аккаунту.");
    };
    let parts: Vec<&str> = data.split(':').collect();
    let num = |i: usize| parts.get(i).and_then(|s| s.parse::<i64>().ok());
    match (parts.first().copied(), num(1), num(2)) {
        (Some("g"), Some(game), None) => {
            let pending = bot.pending.lock().ok().and_then(|mut m| m.remove(&chat));
            match pending {
                Some(p) => order(st, bot, chat, user, p, Some(game), update).await,
                None => Reply::text("Этот выбор устарел: отправьте команду снова."),
            }
        }
        (Some(k @ ("v" | "n")), Some(game), Some(seat)) => {
            let name = match st.game(game).await {
                Ok(g) => {
                    let slot = g.lock().await;
                    slot.live.members.get(seat as usize).map(|m| m.name.clone())
                }
                Err(_) => None,
            };
            let Some(name) = name else {
                return Reply::text("Этот выбор устарел: отправьте команду снова.");
            };
            let what = if k == "v" { "vote" } else { "night" };
            order(st, bot, chat, user, Pending { what, target: Some(name) }, Some(game), update).await
        }
        _ => Reply::text("Этот выбор устарел: отправьте команду снова."),
    }
}

/// The running (or waiting) games `user` plays or hosts, with their state, in id order.
async fn my_games<S: Store>(st: &Arc<AppState<S>>, user: i64) -> Vec<(i64, GameState)> {
    let mut out = Vec::new();
    for (id, listing) in st.games.list() {
        if listing.finished.is_some() {
            continue;
        }
        let Ok(g) = st.game(id).await else { continue };
        let slot = g.lock().await;
        if slot.live.host == user || slot.live.seat_of(user).is_some() {
            out.push((id, slot.live.clone()));
        }
        if out.len() >= 20 {
            break;
        }
    }
    out
}

async fn games<S: Store>(st: &Arc<AppState<S>>, user: i64) -> Reply {
    let list = my_games(st, user).await;
    if list.is_empty() {
        return Reply::text("У вас нет идущих игр.");
    }
    let mut lines = Vec::new();
    for (_, g) in &list {
        let who = if g.host == user { " (вы ведущий)" } else { "" };
        let state = match (g.status, g.open_day()) {
            (Status::Lobby, _) => "набор игроков".to_string(),
            (_, Some(d)) => format!("день {d}, приказы до {}", g.times.say(g.days[d as usize - 1].deadline_at)),
            (_, None) => match g.next_open_at {
                Some(t) => format!("следующий день откроется {}", g.times.say(t)),
                None => "идёт".to_string(),
            },
        };
        lines.push(format!("«{}»{who}: {state}", g.config.title));
    }
    Reply::text(lines.join("\n"))
}

async fn status<S: Store>(st: &Arc<AppState<S>>, user: i64) -> Reply {
    let now = st.clock.now();
    let mut lines = Vec::new();
    for (_, g) in my_games(st, user).await {
        let Some(p) = g.seat_of(user) else { continue };
        let Some(day) = g.open_day() else { continue };
        let todo = missing(&g, p, now);
        let said = if todo.is_empty() {
            "всё отправлено".to_string()
        } else {
            format!("ещё не отправлено: {}", todo.join(", "))
        };
        lines.push(format!("«{}», день {day}: {said}", g.config.title));
    }
    if lines.is_empty() {
        return Reply::text("Сейчас ни в одной вашей игре не идёт день.");
    }
    Reply::text(lines.join("\n"))
}

/// The act of seat `p`'s night order now (`None`: none today).
fn night_act(g: &GameState, p: PlayerId, now: i64, target: Option<&str>) -> Option<Act> {
    let legal: Vec<_> =
        g.legal_orders(p, now).into_iter().filter(|o| o.act.is_night() && o.act != Act::Cancel).collect();
    let names = |aim: &Aim| -> Vec<PlayerId> {
        match aim {
            Aim::One(t) | Aim::OneOrTwo(t) => t.clone(),
            _ => Vec::new(),
        }
    };
    let fits = |o: &&ostrov_engine::LegalOrder| {
        target.is_none_or(|t| names(&o.aim).iter().any(|q| g.seated_as(t) == Some(g.members[q.index()].name.as_str())))
    };
    legal.iter().find(fits).or(legal.first()).map(|o| o.act)
}

/// A vote or a night order: in the one game it can go to, or after the player picks one.
async fn order<S: Store>(
    st: &Arc<AppState<S>>,
    bot: &Bot,
    chat: i64,
    user: i64,
    p: Pending,
    game: Option<i64>,
    update: i64,
) -> Reply {
    let now = st.clock.now();
    let word = if p.what == "vote" { "голосовать" } else { "отдать ночной приказ" };
    let candidates: Vec<(i64, GameState)> = my_games(st, user)
        .await
        .into_iter()
        .filter(|(id, g)| game.is_none_or(|x| x == *id) && g.open_day().is_some() && g.seat_of(user).is_some())
        .collect();
    let (id, g) = match candidates.len() {
        0 => return Reply::text(format!("Сейчас нет игры, где вы можете {word}.")),
        1 => candidates.into_iter().next().expect("one"),
        _ => {
            let buttons: Vec<(String, String)> =
                candidates.iter().map(|(id, g)| (g.config.title.clone(), format!("g:{id}"))).collect();
            bot.wait_for_game(chat, p);
            return Reply("В какой игре?".into(), Some(keyboard(&buttons)));
        }
    };
    let seat = g.seat_of(user).expect("a seat");
    let act = if p.what == "vote" {
        Some(Act::Vote)
    } else {
        match night_act(&g, seat, now, p.target.as_deref()) {
            Some(a) => Some(a),
            None => return Reply::text(format!("«{}»: сегодня у вас нет ночного приказа.", g.config.title)),
        }
    };
    let Some(target) = p.target else {
        // The living players to choose from (the seat itself too: the engine says whom).
        let Some(m) = &g.m else { return Reply::text("Игра ещё не началась.") };
        let key = if p.what == "vote" { "v" } else { "n" };
        let buttons: Vec<(String, String)> = m
            .state()
            .living()
            .map(|q| (g.members[q.index()].name.clone(), format!("{key}:{id}:{}", q.index())))
            .collect();
        return Reply(format!("«{}»: против кого?", g.config.title), Some(keyboard(&buttons)));
    };
    let act = act.expect("an act");
    let req = OrderRequest {
        act: act.id().to_string(),
        target: Some(target.clone()),
        // The update's id: an update Telegram sends again is the same order, stored once.
        request_id: Some(format!("telegram:{update}")),
        ..OrderRequest::default()
    };
    match service::send_order(st, id, user, req).await {
        Ok(a) => {
            let day = a.day.map(|d| format!(", день {d}")).unwrap_or_default();
            let named = a.order.and_then(|o| o.target).unwrap_or(target);
            Reply::text(format!("«{}»: принято — {}: {named}{day}.", g.config.title, act.ru()))
        }
        Err(e) => Reply::text(format!("«{}»: {}", g.config.title, e.message())),
    }
}
