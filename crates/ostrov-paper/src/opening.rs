//! The opening post of a game (before day 1) and the 22:00 announcement of the next day.

use ostrov_engine::plural::form;
use ostrov_engine::ru::say;
use ostrov_engine::{Announcement, Match, TieRule};

use crate::doc::{b, t, Doc, Line};
use crate::paper::{event_line, sentence};
use crate::title;

/// The living players in the fixed order with their passive items (public); the other
/// items stay secret.
fn players(m: &Match, a: &Announcement, d: &mut Doc) {
    let rows = a
        .living
        .iter()
        .enumerate()
        .map(|(i, &(p, held))| {
            let item = held.filter(|h| h.item.is_passive()).map_or(String::new(), |h| h.item.ru().to_string());
            vec![vec![t((i + 1).to_string())], vec![b(m.state().name(p))], vec![t(item)]]
        })
        .collect();
    d.table(&["№", "Игрок", "Вещь"], rows);
}

/// The day's event, the chosen player and the Tsunami's re-deal, as the host says them.
fn day_news(m: &Match, a: &Announcement, d: &mut Doc) {
    d.p(event_line(a.event));
    if let Some(c) = a.chosen {
        d.p(sentence(say::chosen(m.state().who(c))));
    }
    if a.tsunami {
        d.text("Цунами собрало вещи живых игроков и раздало их заново: в списке игроков уже новые вещи.");
    }
}

/// The house rules in a few lines, for players who know the game.
fn rules_in_short(m: &Match) -> Vec<Line> {
    let rules = m.state().rules();
    let mut l: Vec<Line> = vec![
        vec![t("Роль и вещь каждый получает в личном сообщении. В списке — пассивные вещи, их видят все; \
             остальные вещи тайные.")],
        vec![t("Мирные побеждают, когда в игре не останется ни оборотней (включая Полукровку), ни Хомяка-Мутанта \
             (если он есть); оборотни — когда не останется ни мирных, ни Хомяка; Хомяк — если останется один.")],
    ];
    if rules.parity {
        l.push(vec![t("Правило стола: оборотни побеждают уже тогда, когда их не меньше, чем остальных живых вместе.")]);
    }
    l.push(vec![t(
        "День начинается в 22:00 накануне. Приказы по событию дня — до 13:00, в 13:00 выходит промежуточный \
         выпуск; голоса и ночные приказы — до 21:00, затем разбор и вечерняя газета.",
    )]);
    l.push(vec![t("Голос, который игрок не отдал, засчитывается ему самому.")]);
    l.push(vec![t(match rules.tie {
        TieRule::Random => "Ничью, которую не решили вещи, решает жребий.",
        TieRule::None => "Правило стола: при ничьей, которую не решили вещи, никого не линчуют.",
        TieRule::All => "Правило стола: при ничьей, которую не решили вещи, линчуют всех, у кого больше всех голосов.",
    })]);
    l.push(vec![t("Роли выбывших публикуются в вечерней газете того же дня, и роли погибших ночью тоже — если только следующий день не Солнечное затмение: тогда они откроются в конце игры.")]);
    let n = rules.max_days;
    l.push(vec![t(format!(
        "Если за {n} {} победителя нет, объявляется ничья.",
        form(n as u64, "день", "дня", "дней")
    ))]);
    l
}

/// The opening post: the players in their order with their passive items, the rules in
/// short, and day 1's event (`a` is [`Match::announce`] of a match not yet begun).
///
/// ```
/// use ostrov_engine::{Game, Match};
/// let game = Game::parse(include_str!("../../../games/sample.toml")).unwrap();
/// let m = Match::new(&game.setup, true);
/// let a = m.announce(&game.days[0]).unwrap();
/// let post = ostrov_paper::opening(&m, &a).render(ostrov_paper::Format::Markdown);
/// assert!(post.contains("начало игры") && post.contains("День 1"));
/// ```
pub fn opening(m: &Match, a: &Announcement) -> Doc {
    let mut d = Doc::default();
    d.h(1, title(m, "начало игры"));
    let n = a.living.len();
    d.text(format!(
        "На острове {n} {}. Список ниже — порядок игроков на всю игру.",
        form(n as u64, "игрок", "игрока", "игроков")
    ));
    d.h(2, "Игроки");
    players(m, a, &mut d);
    d.h(2, "Коротко о правилах");
    d.list(rules_in_short(m));
    d.h(2, format!("День {}", a.day));
    day_news(m, a, &mut d);
    d
}

/// The 22:00 announcement of the next day (`ostrov next`): its event, the chosen player,
/// and after a Tsunami the new list of passive items.
pub fn announcement(m: &Match, a: &Announcement) -> Doc {
    let mut d = Doc::default();
    d.h(1, title(m, &format!("день {}, 22:00", a.day)));
    day_news(m, a, &mut d);
    if a.tsunami {
        d.h(2, "Игроки");
        players(m, a, &mut d);
    }
    d
}
