//! `POST /games/{id}/host`: one of the host's powers from the host's panel, as the API's
//! host action ([`crate::service::host`]). An irreversible one — 13:00 now, the
//! resolution now, the next day now, a penalty, a disqualification — first answers with
//! its confirmation page ([`super::desk::confirm_page`]) and acts on the second post, the
//! same fields with `confirm=1` (issue 30, point 3), so it works without JavaScript.

use axum::extract::rejection::PathRejection;
use axum::extract::{Form, Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use ostrov_store::Store;
use serde::Deserialize;

use super::desk::confirm_page;
use super::game::{render, Notes};
use super::page::{to, St, Visitor, WebError};
use crate::error::ApiError;
use crate::game::{Fix, GameState};
use crate::service::host::Deadline;
use crate::service::{self, HostAction};

/// A host action's form, as the host's panel and its confirmation page post it.
#[derive(Deserialize, Default, Clone)]
#[serde(default)]
pub struct HostForm {
    csrf: String,
    action: String,
    target: String,
    reason: String,
    answer: String,
    minutes: String,
    event: String,
    /// The substitute's account name (`replace`).
    user: String,
    /// The forum topic's link (`topic`, issue 30, point 12).
    url: String,
    /// `1` on the confirmation page's second post (issue 30, point 3).
    confirm: String,
}

/// What the confirmation page asks before `action` of the open day `day` (or the next
/// day, for `open`): `None` for an action that needs none.
fn confirmation(action: &HostAction, live: &GameState) -> Option<(String, &'static str, &'static str)> {
    let day = live.open_day().unwrap_or(live.days.len() as u32);
    Some(match action {
        HostAction::Midday => (
            format!("Провести промежуточный этап (13:00) дня {day} сейчас?"),
            "Сработают события и вещи 13:00, выйдет сводка; отменить это нельзя.",
            "Да, провести 13:00",
        ),
        HostAction::Resolve => (
            format!("Подвести итоги дня {day} сейчас?"),
            "Пройдут голосование, линчевание и ночь, выйдет вечерняя газета; приказы больше не принимаются. \
             Отменить это нельзя.",
            "Да, подвести итоги",
        ),
        HostAction::Open => (
            format!("Открыть день {} сейчас?", live.days.len() + 1),
            "День начнётся сразу, его 13:00 и дедлайн сдвинутся по расписанию от этого момента; отменить это нельзя.",
            "Да, открыть день",
        ),
        HostAction::Remove { target, .. } => (
            format!("Дисквалифицировать игрока {target}?"),
            "Игрок выбывает из игры, его роль станет известна всем; отменить это нельзя.",
            "Да, дисквалифицировать",
        ),
        HostAction::Penalty { target, .. } => (
            format!("Оштрафовать игрока {target}?"),
            "Голос игрока сегодня не учитывается, штраф будет в истории и в газете.",
            "Да, оштрафовать",
        ),
        HostAction::Replace { seat, user } => (
            format!("Место «{seat}» займёт {user}: заменить игрока?"),
            "Место сохранит имя, роль, вещь, приказы, личные сообщения и стаю; тот, кто играет за него сейчас, \
             станет зрителем и сразу потеряет всё личное этого места. Отменить это нельзя.",
            "Да, заменить",
        ),
        _ => return None,
    })
}

type Id = Result<Path<i64>, PathRejection>;

/// `POST /games/{id}/host`: one of the host's powers, as the API's host action; an
/// irreversible one first answers with its confirmation page, and acts on the second post
/// (`confirm=1`).
pub async fn host<S: Store>(
    State(st): St<S>,
    h: HeaderMap,
    p: Id,
    Form(f): Form<HostForm>,
) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    let user = v.id()?;
    v.check(&f.csrf)?;
    let Path(id) = p.map_err(ApiError::from)?;
    let key = format!("host_{}", f.action);
    let reason = Some(ostrov_engine::clean_line(&f.reason)).filter(|r| !r.is_empty());
    let target = f.target.trim().to_string();
    let action = match f.action.as_str() {
        "answer" => match f.answer.as_str() {
            "yes" => HostAction::Answer { yes: true },
            "no" => HostAction::Answer { yes: false },
            _ => return render(&st, &v, id, Notes::error(&key, "Выберите ответ: «да» или «нет».".into())).await,
        },
        "penalty" | "remove" if target.is_empty() => {
            return render(&st, &v, id, Notes::error(&key, "Выберите игрока.".into())).await;
        }
        "penalty" => HostAction::Penalty { target, reason },
        "remove" => HostAction::Remove { target, reason },
        "extend" => match f.minutes.trim().parse::<u32>() {
            Ok(n) if (1..=20160).contains(&n) => HostAction::Extend(Deadline::Later(n)),
            _ => {
                let m = "Укажите, на сколько минут продлить день: целое число от 1 до 20160.".to_string();
                return render(&st, &v, id, Notes::error(&key, m)).await;
            }
        },
        "fix" => {
            if f.event.trim().is_empty() {
                return render(&st, &v, id, Notes::error(&key, "Выберите событие дня.".into())).await;
            }
            HostAction::Fix { day: None, fix: Fix { event: Some(f.event.trim().to_string()), ..Fix::default() } }
        }
        "replace" | "wanted" | "unwanted" if target.is_empty() => {
            return render(&st, &v, id, Notes::error(&key, "Выберите место.".into())).await;
        }
        "replace" if f.user.trim().is_empty() => {
            let m = "Впишите имя учётной записи, которая займёт место.".to_string();
            return render(&st, &v, id, Notes::error(&key, m)).await;
        }
        "replace" => HostAction::Replace { seat: target, user: f.user.trim().to_string() },
        "wanted" => HostAction::Want { seat: target, wanted: true },
        "unwanted" => HostAction::Want { seat: target, wanted: false },
        "topic" => HostAction::Topic { url: f.url.clone() },
        "midday" => HostAction::Midday,
        "resolve" => HostAction::Resolve,
        "open" => HostAction::Open,
        "pause" => HostAction::Pause,
        "resume" => HostAction::Resume,
        _ => return render(&st, &v, id, Notes::error("host_", "Неизвестное действие ведущего.".into())).await,
    };
    if f.confirm != "1" {
        let asked = {
            let (slot, _) = service::reach(&st, id, Some(user)).await?;
            if slot.live.host != user {
                return Err(ApiError::Forbidden.into());
            }
            confirmation(&action, &slot.live)
        };
        if let Some((question, consequence, button)) = asked {
            let fields = vec![
                ("action", f.action.clone()),
                ("target", f.target.clone()),
                ("reason", f.reason.clone()),
                ("user", f.user.clone()),
            ];
            return Ok(confirm_page(&v, id, question, consequence, button, format!("/games/{id}/host"), fields));
        }
    }
    match service::host_action(&st, id, user, action, None, |_, _| ()).await {
        Ok(_) => Ok(to(&format!("/games/{id}#host"))),
        Err(e @ (ApiError::Internal(_) | ApiError::Forbidden | ApiError::NotFound)) => Err(e.into()),
        Err(e) => render(&st, &v, id, Notes::error(&key, e.message())).await,
    }
}
