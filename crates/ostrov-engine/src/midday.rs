//! The 13:00 stage (R-EVENT-1): Bunker, Exchange, Mystic light, Choose me! (the pair),
//! Spirit call and Magnetic storm are settled; item uses so far are announced.

use crate::ru::say;
use rand_chacha::ChaCha8Rng;

use crate::act::Act;
use crate::day::Today;
use crate::draw;
use crate::event::Event;
use crate::item::Held;
use crate::notice::{ItemSource, NoticeKind};
use crate::order::{Actor, Clock};
use crate::player::PlayerId;
use crate::record::Rejected;
use crate::refusal::Refusal;
use crate::state::State;
use crate::step::Step;

pub(crate) fn run(st: &mut State, today: &mut Today, rng: &mut ChaCha8Rng) {
    match today.event {
        Some(Event::Bunker) => bunker(st, today, rng),
        Some(Event::Exchange) => exchange(st, today),
        Some(Event::MysticLight) => mystic_light(st, today),
        Some(Event::ChooseMe) => pair(st, today),
        Some(Event::SpiritCall) => spirit(st, today),
        Some(Event::MagneticStorm) => {
            today.log.add(Step::Midday, || "13:00. Магнитная буря: ни одна вещь не работает до следующего утра".into())
        }
        _ => {}
    }
    if today.log.on {
        let uses: Vec<_> = today.uses.iter().map(|u| (u.by, u.item, u.target)).collect();
        for (by, item, target) in uses {
            today.log.add(Step::Midday, || say::midday_use(st.who(by), item, st.who(target)).to_string());
        }
    }
}

/// R-BUNKER-1: the new item is drawn from the reserve (or fixed by the order); then the
/// old one goes back. With an empty reserve the request fails.
fn bunker(st: &mut State, today: &mut Today, rng: &mut ChaCha8Rng) {
    // The requests in the order sent, in the day's buffer (kept from day to day).
    let mut requests = std::mem::take(&mut today.bunker_buf);
    requests.clear();
    requests.extend(
        today.sent.iter().enumerate().filter_map(|(i, s)| s.bunker.map(|(item, seq)| (seq, PlayerId(i as u16), item))),
    );
    requests.sort_by_key(|r| r.0);
    for &(_, p, fixed) in &requests {
        if !st.alive(p) {
            continue;
        }
        let fail = |today: &mut Today, reason: Refusal| {
            today.record.rejected.push(Rejected {
                by: Actor::Player(p),
                act: Act::Bunker,
                at: Clock::MIDDAY,
                reason,
                command: None,
            });
        };
        if st.reserve.is_empty() {
            today.log.add(Step::Midday, || say::bunker_empty(st.who(p)).to_string());
            fail(today, Refusal::ReserveEmpty);
            continue;
        }
        let k = match fixed {
            Some(it) => match st.reserve.iter().position(|r| *r == it) {
                Some(k) => k,
                None => {
                    fail(today, Refusal::NotInReserve);
                    continue;
                }
            },
            None => draw::index(rng, st.reserve.len()),
        };
        let new = st.reserve.remove(k);
        let old = st.player_mut(p).item.replace(Held::new(new));
        if let Some(o) = old {
            st.reserve.push(o.item);
        }
        st.notify(p, NoticeKind::Item { item: Some(Held::new(new)), source: ItemSource::Bunker });
        today.record.bunker.push(p);
        today.log.add(Step::Midday, || say::bunker(st.who(p), old.map(|o| o.item), new).to_string());
    }
    today.bunker_buf = requests;
}

/// Exchange: two players who name each other swap items; spent items come back charged.
fn exchange(st: &mut State, today: &mut Today) {
    for k in 0..st.list_order.len() {
        let a = st.list_order[k];
        let Some(b) = today.sent[a.index()].exchange else { continue };
        if st.position[b.index()] <= st.position[a.index()] || today.sent[b.index()].exchange != Some(a) {
            continue;
        }
        if !st.alive(a) || !st.alive(b) {
            continue;
        }
        let charge = |h: Option<Held>| h.map(|h| Held { item: h.item, charged: true });
        let ia = charge(st.player(a).item);
        let ib = charge(st.player(b).item);
        st.player_mut(a).item = ib;
        st.player_mut(b).item = ia;
        st.notify(a, NoticeKind::Item { item: ib, source: ItemSource::Exchange });
        st.notify(b, NoticeKind::Item { item: ia, source: ItemSource::Exchange });
        today.record.exchanges.push((a, b));
        today.log.add(Step::Midday, || say::exchange(st.who(a), st.who(b)).to_string());
    }
}

/// Mystic light: a holder of a spent item recharges it.
fn mystic_light(st: &mut State, today: &mut Today) {
    for k in 0..st.list_order.len() {
        let p = st.list_order[k];
        if !today.sent[p.index()].light || !st.alive(p) {
            continue;
        }
        let Some(h) = st.player(p).item.filter(|h| h.item.is_activated() && !h.charged) else { continue };
        let h = Held { item: h.item, charged: true };
        st.player_mut(p).item = Some(h);
        st.notify(p, NoticeKind::Recharged(h));
        today.record.lights.push(p);
        today.log.add(Step::Midday, || say::light(st.who(p)).to_string());
    }
}

/// Choose me!: the chosen player's pair is immune too.
fn pair(st: &mut State, today: &mut Today) {
    let (Some(c), Some(p)) = (today.chosen, today.pair) else { return };
    if !st.alive(c) || !st.alive(p) {
        return;
    }
    today.sent[p.index()].immune = true;
    today.record.pair = Some(p);
    today.log.add(Step::Midday, || say::pair(st.who(c), st.who(p)).to_string());
}

/// Spirit call (R-SPIRIT-1): the first question sent is asked.
fn spirit(st: &mut State, today: &mut Today) {
    let Some((by, text)) = &today.question else {
        today.log.add(Step::Midday, || "13:00. Вызов духа: вопросов Духу не поступило".into());
        return;
    };
    let by = *by;
    if !st.alive(by) {
        today.question = None;
        return;
    }
    // The question stays the open day's too (the host's answer needs it): the record gets a copy.
    today.record.question = Some((by, text.clone()));
    today.log.add(Step::Midday, || say::question(st.who(by), text).to_string());
}
