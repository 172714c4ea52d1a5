//! What a viewer may see of a game now: roles, items, orders, private messages, the
//! pack's chat (R-SIDE-2, R-NIGHT-1, O-PAPER-2, O-THREAD-4). Servers and newspapers ask
//! [`Match::sight`] instead of deciding it from the fields.

use crate::play::Match;
use crate::player::PlayerId;
use crate::side::Side;

/// Who is looking at a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Viewer {
    /// A player of the game, at their seat.
    Seat(PlayerId),
    /// The host ("ведущий"): sees everything.
    Host,
    /// A signed-in user without a seat in the game (O-THREAD-4).
    Spectator,
    /// Anyone else: the public.
    Outsider,
}

impl Match {
    /// The players whose roles `p` knows from the start (R-SIDE-2): for a werewolf or a
    /// halfblood, the whole pack — every werewolf and halfblood of the game, dead or
    /// alive, `p` included — in list order; for anyone else, nobody. It is what the
    /// `Pack` notice of the deal told `p`.
    pub fn pack(&self, p: PlayerId) -> Vec<PlayerId> {
        let mut pack = Vec::new();
        self.pack_into(p, &mut pack);
        pack
    }

    /// [`Match::pack`] into `out`, reusing its buffer (for bots, which learn it every game).
    pub fn pack_into(&self, p: PlayerId, out: &mut Vec<PlayerId>) {
        out.clear();
        if self.state.player(p).role.side() != Side::Werewolves {
            return;
        }
        // The deal's list, the one its Pack notices share (no role changes in a game).
        out.extend_from_slice(&self.pack);
    }

    /// What `viewer` may see of this game now.
    pub fn sight(&self, viewer: Viewer) -> Sight<'_> {
        let pack = match viewer {
            Viewer::Seat(p) => self.pack(p),
            _ => Vec::new(),
        };
        Sight { m: self, viewer, pack }
    }
}

/// What one viewer may see of a game now (see [`Match::sight`]). Each method answers for
/// one thing of one player.
#[derive(Clone, Debug)]
pub struct Sight<'a> {
    m: &'a Match,
    viewer: Viewer,
    pack: Vec<PlayerId>,
}

impl Sight<'_> {
    /// Who is looking.
    pub fn viewer(&self) -> Viewer {
        self.viewer
    }

    /// The players whose roles the viewer knows from the start (R-SIDE-2), the viewer
    /// included; empty for anyone but a pack member.
    pub fn pack(&self) -> &[PlayerId] {
        &self.pack
    }

    /// Whether the viewer sees everything: the host, or anyone once the game is over.
    pub fn sees_all(&self) -> bool {
        self.viewer == Viewer::Host || self.m.winner().is_some()
    }

    fn own(&self, q: PlayerId) -> bool {
        self.viewer == Viewer::Seat(q)
    }

    /// Whether the viewer may see the role of `q`: their own; the pack's to a pack member
    /// (R-SIDE-2); a public role — of the dead as the newspaper revealed it (R-NIGHT-1:
    /// not while a Solar eclipse hides it), revealed by the authority or by a removal —
    /// to everyone; every role to the host and, once the game is over, to everyone.
    pub fn role(&self, q: PlayerId) -> bool {
        self.sees_all() || self.own(q) || self.m.state.player(q).role_public || self.pack.contains(&q)
    }

    /// Whether the viewer may see the item `q` holds: their own (R-ITEM-2); a living
    /// holder's passive item, which the newspaper prints (O-PAPER-2); every item to the
    /// host and, once the game is over, to everyone. An activated item stays secret: its
    /// uses are public in the day's record, not the item in a player's hands now.
    pub fn item(&self, q: PlayerId) -> bool {
        let pl = self.m.state.player(q);
        self.sees_all() || self.own(q) || (pl.alive && pl.item.is_some_and(|h| h.item.is_passive()))
    }

    /// Whether the viewer may see the orders `q` sent: their own; everyone's to the host
    /// and, once the game is over, to everyone (O-PAPER-2: night orders are never public
    /// while the game goes on; O-THREAD-6: the game file with every order is public after).
    pub fn orders(&self, q: PlayerId) -> bool {
        self.sees_all() || self.own(q)
    }

    /// Whether the viewer may read the private messages to `q` (seer results, items
    /// received …): their own; the host's report lists everyone's, and once the game is
    /// over so does everyone's (O-THREAD-6).
    pub fn notices(&self, q: PlayerId) -> bool {
        self.sees_all() || self.own(q)
    }

    /// Whether the viewer may know that `q` is the maniac's victim: only the host and the
    /// victim while the game goes on (O-PAPER-2), everyone once it is over (O-THREAD-6).
    pub fn maniac_victim(&self, q: PlayerId) -> bool {
        self.sees_all() || self.own(q)
    }

    /// Whether the viewer may read and write the pack's chat: the werewolves and the
    /// halfblood (R-SIDE-2), also after they die, and the host (O-THREAD-4).
    pub fn pack_chat(&self) -> bool {
        self.viewer == Viewer::Host || !self.pack.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gamefile::{DayPlan, Game};
    use crate::order::{Command, Order, Targets};
    use crate::Event;

    const GAME: &str = r#"
[[players]]
name = "Аня"
role = "seer"
item = "megaphone"
[[players]]
name = "Боря"
role = "werewolf"
item = "shocker"
[[players]]
name = "Вика"
role = "halfblood"
item = "none"
[[players]]
name = "Гоша"
role = "maniac"
item = "trap"
[[players]]
name = "Дина"
role = "authority"
item = "none"
[[players]]
name = "Егор"
role = "passenger"
item = "none"
"#;

    fn setup() -> (Match, [PlayerId; 6]) {
        let g = Game::parse(GAME).unwrap();
        let m = Match::new(&g.setup, false);
        let ids = ["Аня", "Боря", "Вика", "Гоша", "Дина", "Егор"].map(|n| m.find(n).unwrap());
        (m, ids)
    }

    fn day(event: Option<Event>) -> DayPlan {
        DayPlan { event: Some(event), ..Default::default() }
    }

    #[test]
    fn the_pack_knows_each_other_from_the_start() {
        // R-SIDE-2
        let (m, [anya, borya, vika, ..]) = setup();
        assert_eq!(m.pack(borya), [borya, vika]);
        assert_eq!(m.pack(vika), [borya, vika]);
        assert!(m.pack(anya).is_empty());
        let s = m.sight(Viewer::Seat(vika));
        assert!(s.role(borya) && s.role(vika) && !s.role(anya));
        assert!(!m.sight(Viewer::Seat(anya)).role(borya));
        assert!(m.sight(Viewer::Seat(anya)).role(anya), "a seat sees its own role");
    }

    #[test]
    fn the_pack_is_what_the_deal_told() {
        // R-SIDE-2: the same list as the `Pack` notice.
        let (m, ids) = setup();
        for p in ids {
            let told: Vec<PlayerId> = m
                .state
                .notices
                .iter()
                .filter(|n| n.to == p)
                .filter_map(|n| match &n.kind {
                    crate::NoticeKind::Pack(v) => Some(v.to_vec()),
                    _ => None,
                })
                .flatten()
                .collect();
            assert_eq!(m.pack(p), told);
        }
    }

    #[test]
    fn the_host_sees_every_role_and_the_public_none() {
        let (m, ids) = setup();
        for q in ids {
            assert!(m.sight(Viewer::Host).role(q));
            assert!(!m.sight(Viewer::Outsider).role(q));
            assert!(!m.sight(Viewer::Spectator).role(q));
        }
    }

    #[test]
    fn the_dead_roles_are_public_unless_a_solar_eclipse_hides_them() {
        // R-NIGHT-1: the lynched's role is public at once; on a Solar eclipse it is hidden.
        let (mut m, [anya, borya, _, gosha, dina, egor]) = setup();
        m.open_day(&day(None)).unwrap();
        for p in [anya, borya, gosha, dina, egor] {
            m.submit(&Order::new(p, Command::Vote(Targets::one(egor)))).unwrap();
        }
        m.close_day().unwrap();
        assert!(!m.state.alive(egor));
        assert!(m.sight(Viewer::Outsider).role(egor));
        m.open_day(&day(Some(Event::SolarEclipse))).unwrap();
        for p in [anya, borya, gosha, dina] {
            m.submit(&Order::new(p, Command::Vote(Targets::one(gosha)))).unwrap();
        }
        m.close_day().unwrap();
        assert!(!m.state.alive(gosha));
        assert!(!m.sight(Viewer::Outsider).role(gosha), "hidden by the Solar eclipse");
        assert!(m.sight(Viewer::Seat(gosha)).role(gosha));
    }

    #[test]
    fn a_removal_and_the_authority_reveal_the_role() {
        // RULES.md §7 (a removal reveals the role), R-AUTH-1 (the authority's too).
        let (mut m, [anya, borya, vika, gosha, dina, egor]) = setup();
        m.open_day(&day(None)).unwrap();
        m.submit(&Order::host(Command::Remove { target: gosha, reason: None })).unwrap();
        assert!(m.sight(Viewer::Outsider).role(gosha));
        m.submit(&Order::new(anya, Command::Vote(Targets::one(borya)))).unwrap();
        m.submit(&Order::new(dina, Command::Authority { from: anya, target: borya })).unwrap();
        for p in [vika, egor] {
            m.submit(&Order::new(p, Command::Vote(Targets::one(egor)))).unwrap();
        }
        assert!(!m.sight(Viewer::Outsider).role(dina), "not before the resolution");
        m.close_day().unwrap();
        assert!(m.state.alive(dina) && m.sight(Viewer::Outsider).role(dina));
    }

    /// The game of [`setup`] played to its end on day 1: Вика removed, Боря (the werewolf)
    /// lynched.
    fn finished() -> (Match, [PlayerId; 6]) {
        let (mut m, [anya, borya, vika, gosha, dina, egor]) = setup();
        m.open_day(&day(None)).unwrap();
        m.submit(&Order::host(Command::Remove { target: vika, reason: None })).unwrap();
        for p in [anya, gosha, dina, egor] {
            m.submit(&Order::new(p, Command::Vote(Targets::one(borya)))).unwrap();
        }
        m.close_day().unwrap();
        assert!(m.winner().is_some());
        (m, [anya, borya, vika, gosha, dina, egor])
    }

    #[test]
    fn every_role_is_public_once_the_game_is_over() {
        let (m, [anya, _, _, gosha, dina, egor]) = finished();
        let s = m.sight(Viewer::Outsider);
        assert!(s.sees_all());
        assert!([anya, gosha, dina, egor].iter().all(|q| s.role(*q) && s.item(*q)));
    }

    #[test]
    fn passive_items_of_the_living_are_public_activated_ones_are_not() {
        // O-PAPER-2, R-ITEM-2
        let (mut m, [anya, borya, _, gosha, ..]) = setup();
        let s = m.sight(Viewer::Outsider);
        assert!(s.item(anya), "megaphone: passive");
        assert!(s.item(gosha), "trap: passive");
        assert!(!s.item(borya), "shocker: activated");
        assert!(m.sight(Viewer::Seat(borya)).item(borya));
        assert!(m.sight(Viewer::Host).item(borya));
        m.open_day(&day(None)).unwrap();
        m.submit(&Order::host(Command::Remove { target: gosha, reason: None })).unwrap();
        assert!(!m.sight(Viewer::Outsider).item(gosha), "items of the dead leave the game");
    }

    #[test]
    fn orders_notices_and_the_maniacs_victim_are_private() {
        // O-PAPER-2: night orders, seer results and the maniac's victim are never public.
        let (m, [anya, borya, ..]) = setup();
        for v in [Viewer::Outsider, Viewer::Spectator, Viewer::Seat(borya)] {
            let s = m.sight(v);
            assert!(!s.orders(anya) && !s.notices(anya) && !s.maniac_victim(anya), "{v:?}");
        }
        for v in [Viewer::Host, Viewer::Seat(anya)] {
            let s = m.sight(v);
            assert!(s.orders(anya) && s.notices(anya) && s.maniac_victim(anya), "{v:?}");
        }
    }

    #[test]
    fn orders_and_notices_are_public_once_the_game_is_over() {
        // O-THREAD-6: everything but the pack's chat is public after the end.
        let (m, [anya, borya, ..]) = finished();
        for v in [Viewer::Outsider, Viewer::Spectator, Viewer::Seat(borya)] {
            let s = m.sight(v);
            assert!(s.orders(anya) && s.notices(anya) && s.maniac_victim(anya), "{v:?}");
            assert_eq!(s.pack_chat(), v == Viewer::Seat(borya), "{v:?}: the pack's chat stays the pack's");
        }
    }

    #[test]
    fn the_pack_chat_is_the_packs_and_the_hosts_also_after_death() {
        // O-THREAD-4, R-SIDE-2
        let (mut m, [anya, borya, vika, ..]) = setup();
        assert!(m.sight(Viewer::Seat(borya)).pack_chat());
        assert!(m.sight(Viewer::Seat(vika)).pack_chat());
        assert!(m.sight(Viewer::Host).pack_chat());
        assert!(!m.sight(Viewer::Seat(anya)).pack_chat());
        assert!(!m.sight(Viewer::Spectator).pack_chat() && !m.sight(Viewer::Outsider).pack_chat());
        m.open_day(&day(None)).unwrap();
        m.submit(&Order::host(Command::Remove { target: borya, reason: None })).unwrap();
        assert!(m.sight(Viewer::Seat(borya)).pack_chat(), "a dead pack member still reads it");
    }
}
