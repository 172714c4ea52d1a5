//! One player's private messages.

use ostrov_engine::{notice_text, Match, PlayerId};

use crate::doc::{t, Doc};
use crate::Format;

/// What player `p` has been told privately, day by day (0 = before day 1); only day
/// `day` when given.
pub fn inbox_doc(m: &Match, p: PlayerId, day: Option<u32>) -> Doc {
    let mut d = Doc::default();
    d.h(1, format!("Личные сообщения: {}", m.state().name(p)));
    let mut current = None;
    let mut items = Vec::new();
    let flush = |d: &mut Doc, items: &mut Vec<_>, current: Option<u32>| {
        if let Some(day) = current {
            d.h(2, if day == 0 { "Начало игры".to_string() } else { format!("День {day}") });
            d.list(std::mem::take(items));
        }
    };
    for n in m.state().notices_to(p).filter(|n| day.is_none_or(|d| n.day == d)) {
        if current != Some(n.day) {
            flush(&mut d, &mut items, current);
            current = Some(n.day);
        }
        items.push(vec![t(notice_text(m.state(), n))]);
    }
    let empty = current.is_none();
    flush(&mut d, &mut items, current);
    if empty {
        d.text("Личных сообщений нет.");
    }
    d
}

/// [`inbox_doc`], rendered.
pub fn inbox(m: &Match, p: PlayerId, day: Option<u32>, f: Format) -> String {
    inbox_doc(m, p, day).render(f)
}
