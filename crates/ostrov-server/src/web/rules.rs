//! The rules of the game in Russian: roles, items and events, with the engine's names
//! (and the engine's explanation of each event).

use askama::Template;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use ostrov_engine::{Event, Item, Role};
use ostrov_store::Store;

use super::page::{page, Chrome, St, Visitor, WebError};

/// What each role does (RULES.md §1), in Russian.
pub(super) fn role_text(r: Role) -> &'static str {
    match r {
        Role::Passenger => "Мирный. Особых способностей нет, ночью спит.",
        Role::Seer => "Мирный. Каждую ночь проверяет одного игрока: оборотень он или нет.",
        Role::Nurse => "Мирная. Каждую ночь лечит одного игрока (себя — не больше одного раза за игру): лечение отменяет смерть этой ночью.",
        Role::Untouchable => "Мирный. Оборотни не могут его убить.",
        Role::Authority => "Мирный. Раз за игру днём забирает голос одного игрока и отдаёт его другому; его роль при этом раскрывается.",
        Role::Witch => "Мирная. Раз за игру убивает ночью одного игрока; раз за игру отменяет все остальные действия ночи; не то и другое в одну ночь.",
        Role::Sleepwalker => "Мирный. Каждую ночь меняет местами вещи двух игроков или перезаряжает использованную вещь игрока.",
        Role::Maniac => "Мирный. Каждую ночь навещает одного игрока: на следующий день тот без голоса и молчит, но против него можно голосовать.",
        Role::Werewolf => "Стая. Каждую ночь стая убивает одного игрока. Оборотни и полукровка знают друг друга с начала игры.",
        Role::Halfblood => "Стая. Не убивает; ясновидящий видит его «не оборотнем»; когда погибает последний оборотень, становится оборотнем.",
        Role::Hamster => "Одиночка. Каждую ночь убивает любого игрока; погибает, если его проверит ясновидящий. Побеждает, если останется один.",
    }
}

/// What each item does (RULES.md §2), in Russian.
pub(super) fn item_text(i: Item) -> &'static str {
    match i {
        Item::Trap => "Вредная, открытая. При ничьей на линчевании между владельцем и другими линчуют владельца.",
        Item::PoisonThorn => "Вредная, открытая. Владелец не может спорить, обвинять и давать алиби (говорит как мёртвый); голосует; нарушение, отмеченное ведущим, стоит голоса.",
        Item::Totem => "Вредная, открытая. Владелец может голосовать только так же, как один из двух ближайших живых соседей по списку.",
        Item::Handcuffs => "Вредная, открытая. Владелец не может голосовать против двух ближайших живых соседей.",
        Item::Bomb => "Вредная, открытая. Владелец, получивший не меньше двух голосов, линчуется вместо лидера.",
        Item::BlackGlasses => "Полезная, открытая. Ясновидящий не может проверить владельца.",
        Item::Fang => "Полезная, открытая. Спасает владельца от линчевания, решённого ничьей.",
        Item::Megaphone => "Полезная, открытая. Один дополнительный голос каждый день (отдельным приказом).",
        Item::SheepSkin => "Полезная, срабатывает сама. Спасает владельца от линчевания: вместо него линчуют следующего по голосам.",
        Item::MoonFern => "Полезная, срабатывает сама. Спасает владельца от нападения оборотней.",
        Item::CamoRobe => "Полезная, срабатывает сама. Спасает владельца от маньяка.",
        Item::Shocker => "Полезная, применяется. На этот день цель считается мёртвой: без голоса и молчит.",
        Item::LoveNote => "Полезная, применяется. В этот день цель и владелец не могут голосовать друг против друга.",
        Item::Voodoo => "Полезная, применяется. Следующей ночью способность цели не действует.",
    }
}

pub struct Entry {
    /// The entry's anchor on the page («role-seer», «item-shocker», «event-fog»): the game
    /// page links a player's role and item to it.
    pub id: String,
    pub name: &'static str,
    pub text: &'static str,
}

#[derive(Template)]
#[template(path = "rules.html")]
struct RulesPage<'a> {
    c: Chrome<'a>,
    roles: Vec<Entry>,
    items: Vec<Entry>,
    events: Vec<Entry>,
}

/// `GET /rules`.
pub async fn show<S: Store>(State(st): St<S>, h: HeaderMap) -> Result<Response, WebError> {
    let v = Visitor::of(&st, &h).await?;
    let p = RulesPage {
        c: Chrome::new(&v, "Правила"),
        roles: Role::ALL
            .iter()
            .map(|r| Entry { id: format!("role-{}", r.id()), name: r.ru(), text: role_text(*r) })
            .collect(),
        items: Item::ALL
            .iter()
            .map(|i| Entry { id: format!("item-{}", i.id()), name: i.ru(), text: item_text(*i) })
            .collect(),
        events: Event::ALL
            .iter()
            .map(|e| Entry { id: format!("event-{}", e.id()), name: e.ru(), text: e.meaning_ru() })
            .collect(),
    };
    Ok(page(&v, StatusCode::OK, &p))
}
