//! Every sentence about players that the step log, the newspapers and the private messages
//! say, one function each. A name goes in through [`Phrase::c`] (declined, or «игрока X»)
//! or in the nominative where the sentence needs no case; a verb or a role agrees with the
//! gender through [`Who::pick`] and [`role`], and a sentence that would need a gender
//! nobody gave is written another way.

use super::{role, Case, Gender, Phrase, Who};
use crate::item::Item;
use crate::reason::{Blocked, Void};
use crate::role::{CheckResult, Role};

use Case::*;

fn p() -> Phrase {
    Phrase::new()
}

/// «себя» when the target is the actor, else the target in case `c`.
fn or_self(ph: Phrase, actor: Who, target: Who, c: Case) -> Phrase {
    if actor.name == target.name {
        ph.t(match c {
            Dat | Prep => "себе",
            Ins => "собой",
            _ => "себя",
        })
    } else {
        ph.c(target, c)
    }
}

// ---- The host (day) -------------------------------------------------------------------

/// The host's penalty: no vote today.
pub fn penalty(t: Who, reason: Option<&str>) -> Phrase {
    let ph = p().t("Ведущий лишает голоса ").c(t, Gen);
    match reason {
        Some(r) => ph.t(format!(" за нарушение: {r}")),
        None => ph.t(" за нарушение"),
    }
}

/// The host removes a player.
pub fn removed(t: Who, r: Role, reason: Option<&str>) -> Phrase {
    let ph = p().t("Ведущий удаляет из игры ").c(t, Acc).t(format!(" ({})", role(r, t.gender())));
    match reason {
        Some(w) => ph.t(format!(": {w}")),
        None => ph,
    }
}

/// Issue 30, point 4: another account takes the seat `seat` («Аню заменяет Новичок»).
/// `by` is the substitute's account name, in the nominative (an account has no forms);
/// a seat whose name does not decline is «Игрока Kot2000 заменяет Новичок».
pub fn substitute(seat: Who, by: &str) -> Phrase {
    let ph = match seat.speech.form(Acc) {
        Some(_) => p().c(seat, Acc),
        None => p().t("Игрока ").n(seat),
    };
    ph.t(format!(" заменяет {by}"))
}

// ---- Ties and the lynch ---------------------------------------------------------------

/// R-TIE-1: the immune leave a tie.
pub fn tie_immune(gone: &[Who]) -> Phrase {
    let ph = p().t("Ничья: ").list(gone);
    if gone.len() == 1 {
        ph.t(" под иммунитетом «Выбери меня!» и выходит из ничьей")
    } else {
        ph.t(" под иммунитетом «Выбери меня!» и выходят из ничьей")
    }
}

/// R-TIE-1: a trap holder is lynched before the others of a tie.
pub fn tie_trap(holders: &[Who]) -> Phrase {
    if holders.len() == 1 {
        p().t("Капкан: в ничьей линчуется владелец капкана — ").n(holders[0])
    } else {
        p().t("Капкан: в ничьей линчуются только владельцы капкана — ").list(holders)
    }
}

/// R-TIE-1: a fang saves its holder from a tie: «Клык оборотня спасает Аню от линча при
/// ничьей» (issue 29, point 4).
pub fn tie_fang(holders: &[Who]) -> Phrase {
    p().t("Клык оборотня спасает ").list_c(holders, Acc).t(" от линча при ничьей")
}

pub fn tie_fang_empty() -> Phrase {
    p().t("После Клыка оборотня в ничьей никого не осталось: линча нет")
}

/// A tie settled by lot.
pub fn tie_lot(tied: &[Who], drawn: Who) -> Phrase {
    p().t("Ничья (").list(tied).t("): жребий выбирает ").c(drawn, Acc)
}

/// A tie the house rule leaves without a lynch.
pub fn tie_none(tied: &[Who]) -> Phrase {
    p().t("Ничья (").list(tied).t("): по правилам игры при ничьей никто не линчуется")
}

/// A tie the house rule lynches whole.
pub fn tie_all(tied: &[Who]) -> Phrase {
    p().t("Ничья (").list(tied).t("): по правилам игры линчуются все")
}

/// The most votes, but immune (Choose me!).
pub fn lynch_immune(t: Who) -> Phrase {
    p().n(t).t(" набирает больше всех голосов, но под иммунитетом «Выбери меня!»: место линча остаётся пустым")
}

/// A sheep skin saves its holder from the lynch.
pub fn sheep_skin(t: Who) -> Phrase {
    p().t("Овечья шкура спасает ").c(t, Acc).t(" от линча: линчуется следующий по числу голосов")
}

pub fn sheep_skin_nobody_next() -> Phrase {
    p().t("Следующего по числу голосов нет: линча нет")
}

/// R-BOMB-1: the bomb holders are tied and the tie rule lynches none of them.
pub fn bomb_none() -> Phrase {
    p().t("Бомба: у владельцев бомбы поровну голосов, а при ничьей по правилам игры никто не линчуется — линча нет")
}

/// A bomb takes the lynch (one place, or Rage's two).
pub fn bomb(fired: &[Who], rage: bool) -> Phrase {
    let ph = p().t("Бомба: у ");
    let mut ph = ph;
    for (i, w) in fired.iter().enumerate() {
        if i > 0 {
            ph = ph.t(" и у ");
        }
        ph = ph.c(*w, Gen);
    }
    match (fired.len(), rage) {
        (1, false) => ph.t(" не меньше двух голосов — линчуется владелец бомбы, а не лидер голосования"),
        (1, true) => ph.t(" не меньше двух голосов — владелец бомбы линчуется вместо одного из лидеров"),
        _ => ph.t(" не меньше двух голосов — владельцы бомбы линчуются вместо лидеров голосования"),
    }
}

pub fn nobody_lynched() -> Phrase {
    p().t("Сегодня никого не линчевали")
}

/// A lynch, with the role when it is revealed.
pub fn lynched(t: Who, r: Option<Role>) -> Phrase {
    let ph = match t.gender() {
        Some(_) => p().t(t.pick("Линчёван ", "Линчёвана ", "")).n(t),
        None => p().t("Линчевали ").c(t, Acc),
    };
    match r {
        Some(r) => ph.t(format!(" ({})", role(r, t.gender()))),
        None => ph,
    }
}

pub fn fear_nobody() -> Phrase {
    p().t("Страх: никто не проголосовал — лидера нет, линча нет")
}

pub fn fear_tie(tied: &[Who]) -> Phrase {
    p().t("Страх: ничья (").list(tied).t(") — лидера нет, линча нет")
}

pub fn fear_no_sentence(leader: Who) -> Phrase {
    p().t("Страх: лидер — ").n(leader).t(", приговора нет — линча нет")
}

pub fn fear_sentence(leader: Who, s: Who) -> Phrase {
    or_self(p().t("Страх: лидер ").n(leader).t(" приговаривает "), leader, s, Acc)
}

pub fn fear_sheep_skin(leader: Who, s: Who) -> Phrase {
    fear_sentence(leader, s).t(", но Овечья шкура спасает ").c(s, Acc).t(" — никто не гибнет")
}

// ---- The vote -------------------------------------------------------------------------

/// An item of the day whose user or target is gone.
pub fn item_void(item: Item, by: Who, t: Who) -> Phrase {
    p().t(format!("{} не действует: кто-то из участников (", item.ru())).list(&[by, t]).t(") выбыл из игры")
}

pub fn shocker(by: Who, t: Who) -> Phrase {
    p().n(by).t(" применяет Шокер к ").c(t, Dat).t(": на этот день у ").c(t, Gen).t(" нет ни голоса, ни слова")
}

pub fn shocker_fear(by: Who, t: Who) -> Phrase {
    p().n(by)
        .t(" применяет Шокер к ")
        .c(t, Dat)
        .t(": сегодня ")
        .n(t)
        .t(" молчит, но на Страхе вещи не меняют голосов, и голос остаётся")
}

pub fn love_note(by: Who, t: Who) -> Phrase {
    p().n(by).t(" отправляет Любовную записку ").c(t, Dat).t(": они не могут голосовать друг против друга")
}

pub fn love_note_fear(by: Who, t: Who) -> Phrase {
    p().n(by).t(" отправляет Любовную записку ").c(t, Dat).t(", но на Страхе вещи не меняют голосов")
}

pub fn storm_votes() -> Phrase {
    p().t("Магнитная буря: ни одна вещь не меняет голосов")
}

pub fn fear_votes() -> Phrase {
    p().t("Страх: голосованием выбирается лидер; вещи не меняют голосов, неотданные голоса не остаются на владельцах")
}

pub fn palms(t: Who) -> Phrase {
    p().t("Пальмы цветут: ").n(t).t(" нарушает запрет — голос ").c(t, Gen).t(" остаётся на владельце")
}

pub fn vote_target_gone(v: Who) -> Phrase {
    p().t("Голос ").c(v, Gen).t(" не учитывается: выбранный игрок выбыл")
}

/// Why a vote is blocked, in the parentheses of [`vote_blocked`].
fn blocked(why: Blocked) -> &'static str {
    match why {
        Blocked::Assaulted => "визит Сексманьяка",
        Blocked::Penalty => "штраф ведущего",
        Blocked::Shocked => Item::Shocker.ru(),
    }
}

/// A blocked vote (R-VOTE-2): it stays on its owner, or on Fear does not exist.
pub fn vote_blocked(v: Who, why: Blocked, fear: bool) -> Phrase {
    let why = blocked(why);
    if fear {
        p().n(v).t(format!(" не голосует ({why})"))
    } else {
        p().t("Голос ").c(v, Gen).t(format!(" заблокирован ({why}) и остаётся на владельце"))
    }
}

/// A void vote (R-VOTE-2): the item whose rule it breaks is named.
pub fn vote_void(v: Who, t: Who, why: Void) -> Phrase {
    let why = why.item().ru();
    p().t("Голос ").c(v, Gen).t(" против ").c(t, Gen).t(format!(" недействителен ({why}) и остаётся на владельце"))
}

pub fn megaphone(v: Who, t: Who) -> Phrase {
    p().t("Рупор: ").n(v).t(" отдаёт дополнительный голос против ").c(t, Gen)
}

pub fn megaphone_silent(v: Who, fear: bool) -> Phrase {
    let ph = p().t("Рупор ").c(v, Gen).t(" молчит: ");
    ph.t(if fear {
        "на Страхе вещи не меняют голосов"
    } else {
        "в Магнитную бурю вещи не работают"
    })
}

pub fn authority_gone(a: Who) -> Phrase {
    p().t("Ход Авторитета (").n(a).t(") не учитывается: выбранный игрок выбыл")
}

pub fn authority_no_vote(a: Who, from: Who) -> Phrase {
    p().t("Авторитет ").n(a).t(" пытается забрать голос ").c(from, Gen).t(", но этого голоса нет")
}

/// R-AUTH-1: the authority reveals itself and moves a vote.
pub fn authority(a: Who, from: Who, to: Who) -> Phrase {
    let ph = p().n(a).t(" раскрывается как Авторитет: забирает голос ").c(from, Gen).t(" и отдаёт его против ");
    or_self(ph, a, to, Gen)
}

/// One line of the tally: «Лев — 3 голоса».
pub fn tally_item(t: Who, votes: u32) -> Phrase {
    p().n(t).t(format!(" — {}", crate::plural::votes(votes)))
}

// ---- 13:00 ---------------------------------------------------------------------------

pub fn midday_use(by: Who, item: Item, t: Who) -> Phrase {
    or_self(p().t("13:00. ").n(by).t(format!(" применяет {} к ", item.ru_acc())), by, t, Dat)
}

pub fn bunker_empty(who: Who) -> Phrase {
    p().t("13:00. Бункер: ").n(who).t(" не получает новую вещь — резерв пуст")
}

pub fn bunker(who: Who, old: Option<Item>, new: Item) -> Phrase {
    let ph = p().t("13:00. Бункер: ").n(who);
    match old {
        Some(o) => ph.t(format!(" сдаёт {} и получает {}", o.ru_acc(), new.ru_acc())),
        None => ph.t(format!(" получает {}", new.ru_acc())),
    }
}

pub fn exchange(a: Who, b: Who) -> Phrase {
    p().t("13:00. Обмен: ").list(&[a, b]).t(" меняются вещами")
}

pub fn light(who: Who) -> Phrase {
    p().t("13:00. Мистический свет: ").n(who).t(" перезаряжает свою вещь")
}

/// «у обоих» for two men or a man and a woman, «у обеих» for two women, «у пары» when a
/// gender is unknown (issue 29, point 4).
fn both(a: Who, b: Who) -> &'static str {
    match (a.gender(), b.gender()) {
        (Some(Gender::Female), Some(Gender::Female)) => "у обеих",
        (Some(_), Some(_)) => "у обоих",
        _ => "у пары",
    }
}

pub fn pair(chosen: Who, pair: Who) -> Phrase {
    p().t("13:00. «Выбери меня!»: ")
        .n(chosen)
        .t(" выбирает в пару ")
        .c(pair, Acc)
        .t(format!(" — {} иммунитет на линч", both(chosen, pair)))
}

pub fn chosen(who: Who) -> Phrase {
    p().t("«Выбери меня!»: иммунитет на линч получает ").n(who)
}

pub fn question(who: Who, text: &str) -> Phrase {
    p().t("13:00. Вызов духа: ").n(who).t(format!(" спрашивает: «{text}»"))
}

pub fn turned(who: Who) -> Phrase {
    p().t("Последний оборотень погиб: полукровка ").n(who).t(" становится оборотнем")
}

// ---- The night -----------------------------------------------------------------------

pub fn night_sender_gone(a: Who) -> Phrase {
    p().t("Ночной ход ").c(a, Gen).t(" не учитывается: игрок выбыл")
}

pub fn night_target_gone(a: Who) -> Phrase {
    p().t("Ночной ход ").c(a, Gen).t(" не учитывается: выбранный игрок выбыл")
}

pub fn voodoo_void(by: Who) -> Phrase {
    p().t("Кукла вуду ").c(by, Gen).t(" ничего не делает: кто-то из участников выбыл")
}

pub fn fog_void(a: Who) -> Phrase {
    p().t("Туманная ночь: ход ").c(a, Gen).t(" не состоялся — днём не было голоса против цели")
}

pub fn voodoo(v: Who) -> Phrase {
    p().t("Кукла вуду: этой ночью ").n(v).t(" не может применить свою способность")
}

pub fn witch_cancel(w: Who) -> Phrase {
    p().t(role(Role::Witch, w.gender())).t(" ").n(w).t(" отменяет все действия этой ночи")
}

pub fn witch_kill(w: Who, t: Who) -> Phrase {
    or_self(p().t(role(Role::Witch, w.gender())).t(" ").n(w).t(" убивает "), w, t, Acc)
}

pub fn swap(x: Who, y: Who) -> Phrase {
    p().t("Лунатик меняет местами вещи ").c(x, Gen).t(" и ").c(y, Gen)
}

pub fn recharge(t: Who) -> Phrase {
    p().t("Лунатик перезаряжает вещь ").c(t, Gen)
}

pub fn recharge_nothing(t: Who) -> Phrase {
    p().t("Лунатик хочет перезарядить вещь ").c(t, Gen).t(", но перезаряжать нечего")
}

pub fn pack_attack(t: Who) -> Phrase {
    p().t("Оборотни нападают на ").c(t, Acc)
}

pub fn untouchable(t: Who) -> Phrase {
    let whom = t.pick("Неприкасаемого", "Неприкасаемую", "Неприкасаемых");
    p().t("Оборотни не могут убить ").c(t, Acc).t(format!(": {whom} их клыки не берут"))
}

pub fn moon_fern(t: Who) -> Phrase {
    p().t("Лунный папоротник ").c(t, Gen).t(" отразил нападение оборотней")
}

/// The seer's check, as the log says it.
pub fn check(s: Who, t: Who, result: CheckResult) -> Phrase {
    let ph = p().t(role(Role::Seer, s.gender())).t(" ").n(s).t(" проверяет ").c(t, Acc);
    ph.t(match result {
        CheckResult::Failed => ": Чёрные очки — проверка не удалась",
        CheckResult::Werewolf => ": оборотень",
        CheckResult::NotWerewolf => ": не оборотень",
    })
}

pub fn hamster_checked(t: Who) -> Phrase {
    p().t(role(Role::Hamster, t.gender())).t(" ").n(t).t(" не выдерживает проверки")
}

pub fn camouflage(t: Who) -> Phrase {
    p().t("Маскхалат спас ").c(t, Acc).t(" от Сексманьяка: тот ушёл ни с чем")
}

/// The maniac's visit: no vote and no word tomorrow (public in the newspaper).
pub fn assault(t: Who) -> Phrase {
    p().t("Этой ночью Сексманьяк навестил ").c(t, Acc).t(": завтра у ").c(t, Gen).t(" нет ни голоса, ни слова")
}

pub fn hamster_kill(h: Who, t: Who) -> Phrase {
    or_self(p().t(role(Role::Hamster, h.gender())).t(" ").n(h).t(" нападает на "), h, t, Acc)
}

pub fn nurse(n: Who, t: Who, saves: bool) -> Phrase {
    let ph = or_self(
        p().t(role(Role::Nurse, n.gender())).t(" ").n(n).t(if saves { " спасает " } else { " лечит " }),
        n,
        t,
        Acc,
    );
    if saves {
        ph.t(" от смерти")
    } else {
        ph
    }
}

/// One of the night's dead, with the role when it is revealed.
pub fn died(t: Who, r: Option<Role>) -> Phrase {
    let ph = match t.gender() {
        Some(_) => p().t("Этой ночью ").t(t.pick("погиб ", "погибла ", "")).n(t),
        None => p().t("Этой ночью не стало ").c(t, Gen),
    };
    match r {
        Some(r) => ph.t(format!(" ({})", role(r, t.gender()))),
        None => ph,
    }
}

pub fn nobody_died() -> Phrase {
    p().t("Этой ночью никто не погиб")
}

// ---- Private messages -------------------------------------------------------------------

/// The first private message: the player's own role, agreed with their gender, and the
/// side in words (issue 29, point 3): «Ваша роль: Колдун, сторона — мирные жители.»
pub fn your_role(me: Who, r: Role) -> String {
    let side = match r.side() {
        crate::Side::Civilians => "сторона — мирные жители".to_string(),
        crate::Side::Werewolves => "сторона — оборотни".to_string(),
        crate::Side::Hamster => format!("вы играете {} за себя", me.pick("сам", "сама", "только")),
    };
    format!("Ваша роль: {}, {side}.", role(r, me.gender()))
}

/// Every template of this module with `x` as the subject or object and `y` the other, and
/// `x`'s role message for every role: what the Russian tests (`tests/russian.rs`) and the
/// server's corpus of every printed sentence read, in every gender.
pub fn every_template(x: Who, y: Who) -> Vec<String> {
    let v = vec![
        penalty(x, Some("ядовитый шип")),
        removed(x, Role::Seer, Some("мультиаккаунт")),
        removed(x, Role::Witch, None),
        tie_immune(&[x]),
        tie_immune(&[x, y]),
        tie_trap(&[x]),
        tie_trap(&[x, y]),
        tie_fang(&[x]),
        tie_fang(&[x, y]),
        tie_fang_empty(),
        tie_lot(&[x, y], x),
        tie_none(&[x, y]),
        tie_all(&[y, x]),
        lynch_immune(x),
        sheep_skin(x),
        sheep_skin_nobody_next(),
        bomb_none(),
        bomb(&[x], false),
        bomb(&[x], true),
        bomb(&[x, y], true),
        nobody_lynched(),
        lynched(x, Some(Role::Seer)),
        lynched(x, Some(Role::Nurse)),
        lynched(x, None),
        fear_nobody(),
        fear_tie(&[x, y]),
        fear_no_sentence(x),
        fear_sentence(x, y),
        fear_sentence(x, x),
        fear_sheep_skin(y, x),
        item_void(Item::Shocker, x, y),
        shocker(y, x),
        shocker_fear(y, x),
        love_note(y, x),
        love_note_fear(x, y),
        storm_votes(),
        fear_votes(),
        palms(x),
        vote_target_gone(x),
        vote_blocked(x, Blocked::Shocked, false),
        vote_blocked(x, Blocked::Assaulted, false),
        vote_blocked(x, Blocked::Penalty, true),
        vote_void(x, y, Void::Handcuffs),
        vote_void(y, x, Void::LoveNote),
        megaphone(x, y),
        megaphone_silent(x, true),
        megaphone_silent(x, false),
        authority_gone(x),
        authority_no_vote(x, y),
        authority(x, y, y),
        authority(y, x, y),
        authority(x, y, x),
        tally_item(x, 1),
        tally_item(x, 3),
        tally_item(x, 11),
        tally_item(x, 22),
        midday_use(x, Item::Shocker, y),
        midday_use(x, Item::Voodoo, x),
        bunker_empty(x),
        bunker(x, Some(Item::SheepSkin), Item::Bomb),
        bunker(x, None, Item::Trap),
        exchange(x, y),
        light(x),
        pair(x, y),
        chosen(x),
        question(x, "Я мирный?"),
        turned(x),
        night_sender_gone(x),
        night_target_gone(x),
        voodoo_void(x),
        fog_void(x),
        voodoo(x),
        witch_cancel(x),
        witch_kill(x, y),
        witch_kill(x, x),
        swap(x, y),
        recharge(x),
        recharge_nothing(x),
        pack_attack(x),
        untouchable(x),
        moon_fern(x),
        check(x, y, CheckResult::Werewolf),
        check(x, y, CheckResult::NotWerewolf),
        check(x, y, CheckResult::Failed),
        hamster_checked(x),
        camouflage(x),
        assault(x),
        hamster_kill(x, y),
        nurse(x, x, false),
        nurse(x, y, true),
        nurse(x, y, false),
        died(x, Some(Role::Passenger)),
        died(x, Some(Role::Untouchable)),
        died(x, None),
        nobody_died(),
        fear_sentence(y, x),
        vote_blocked(x, Blocked::Shocked, true),
        megaphone(y, x),
        authority(y, x, x),
        midday_use(y, Item::LoveNote, x),
        pair(y, x),
        witch_kill(y, x),
        check(y, x, CheckResult::NotWerewolf),
        check(y, x, CheckResult::Failed),
        hamster_kill(y, x),
        nurse(y, x, false),
    ];
    let mut out: Vec<String> = v.into_iter().map(|p| p.to_string()).collect();
    for r in Role::ALL {
        out.push(your_role(x, *r));
    }
    out
}
