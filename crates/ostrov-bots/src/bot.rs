//! The bots: a private view, the `Bot` trait, a random and a sensible bot.

use ostrov_engine::{
    CheckResult, Command, DayRecord, Event, Held, Item, ItemKind, LegalOrder, Match, NoticeKind, Order, PlayerId, Role,
    Side, Spent, Targets,
};
use rand::{Rng, RngCore};
use rand_chacha::ChaCha8Rng;

pub use crate::public::{voting_record, Public};

/// What one player may see: their own seat, role, item and notices; the public records.
pub struct View<'a> {
    m: &'a Match,
    /// The player this view belongs to.
    pub me: PlayerId,
    /// The living players in list order, when the driver has them at hand.
    living: Option<&'a [PlayerId]>,
    /// The day's public facts, when the driver gathered them for every bot.
    public: Option<&'a Public>,
}

impl<'a> View<'a> {
    pub fn new(m: &'a Match, me: PlayerId) -> View<'a> {
        View { m, me, living: None, public: None }
    }

    /// A view with the living players (in list order, as [`View::living`] gives them)
    /// already gathered by the driver, shared by every bot of the day.
    pub fn with_living(m: &'a Match, me: PlayerId, living: &'a [PlayerId]) -> View<'a> {
        debug_assert!(living.iter().copied().eq(m.state().living()));
        View { m, me, living: Some(living), public: None }
    }

    /// A view with the day's public facts gathered once by the driver for every bot
    /// ([`Public::gather`] since the day opened).
    pub fn with_public(m: &'a Match, me: PlayerId, public: &'a Public) -> View<'a> {
        debug_assert!(public.living().iter().copied().eq(m.state().living()));
        View { m, me, living: Some(public.living()), public: Some(public) }
    }

    /// The day's public facts, if the driver gathered them (see [`View::with_public`]).
    pub fn public(&self) -> Option<&'a Public> {
        self.public
    }

    /// The role this player was told (their `Role` notice), a turned halfblood counting
    /// as a werewolf (the `Turned` notice). Read from the player's own seat, which says the
    /// same as those notices without scanning them.
    pub fn role(&self) -> Role {
        let p = self.m.state().player(self.me);
        if p.turned {
            Role::Werewolf
        } else {
            p.role
        }
    }

    /// The player's own once-per-game abilities already used up (R-ONCE-1): the player
    /// knows them, and the engine refuses them again (`AbilityUsed`).
    pub fn spent(&self) -> Spent {
        self.m.state().player(self.me).spent
    }

    /// The private messages this player was told.
    pub fn notices(&self) -> impl Iterator<Item = &'a NoticeKind> + '_ {
        let me = self.me;
        self.m.state().notices_to(me).map(|n| &n.kind)
    }

    /// How many private messages have been sent so far, to anyone (a cursor for
    /// [`View::notices_since`]).
    pub fn notice_count(&self) -> usize {
        self.m.state().notices().len()
    }

    /// The private messages this player was told since the first `from` messages of the game.
    pub fn notices_since(&self, from: usize) -> impl Iterator<Item = &'a NoticeKind> + '_ {
        let me = self.me;
        self.m.state().notices().get(from..).unwrap_or_default().iter().filter(move |n| n.to == me).map(|n| &n.kind)
    }

    /// The living players in list order, if the driver gathered them (see [`View::with_living`]).
    pub fn living_slice(&self) -> Option<&'a [PlayerId]> {
        self.living
    }

    /// The player's own item, as they know it (R-ITEM-2).
    pub fn item(&self) -> Option<Held> {
        self.m.state().held(self.me)
    }

    /// Another player's passive item: passive items are public (the newspaper shows them
    /// next to the holder, RULES.md §2). Activated items stay secret (`None`).
    pub fn public_item(&self, p: PlayerId) -> Option<Item> {
        self.m.state().held(p).map(|h| h.item).filter(|i| i.is_passive())
    }

    /// The pack, if this player is told one (R-SIDE-2: [`Match::pack`]).
    pub fn pack(&self) -> Vec<PlayerId> {
        self.m.pack(self.me)
    }

    /// [`View::pack`] into `out`, reusing its buffer.
    pub fn pack_into(&self, out: &mut Vec<PlayerId>) {
        self.m.pack_into(self.me, out)
    }

    /// Living players, in list order (public).
    pub fn living(&self) -> impl Iterator<Item = PlayerId> + 'a {
        self.m.state().living()
    }

    /// Fills `out` with the living players.
    pub fn living_into(&self, out: &mut Vec<PlayerId>) {
        match self.living {
            Some(l) => {
                out.clear();
                out.extend_from_slice(l)
            }
            None => self.m.state().living_into(out),
        }
    }

    /// How many seats the game has.
    pub fn player_count(&self) -> usize {
        self.m.state().players().len()
    }

    /// Whether `p` is alive (public).
    pub fn alive(&self, p: PlayerId) -> bool {
        self.m.state().alive(p)
    }

    /// A player's name (public).
    pub fn name(&self, p: PlayerId) -> &'a str {
        self.m.state().name(p)
    }

    /// A role the newspaper revealed (dead players, a revealed authority).
    pub fn public_role(&self, p: PlayerId) -> Option<Role> {
        let pl = self.m.state().player(p);
        pl.role_public.then_some(pl.role)
    }

    /// Today's event (public).
    pub fn event(&self) -> Option<Event> {
        self.m.state().event()
    }

    /// The player chosen on a Choose me! day: drawn when the day opens and announced at
    /// once (R-CHOOSE-1). `None` on other days.
    pub fn chosen(&self) -> Option<PlayerId> {
        self.m.today().and_then(|t| t.chosen)
    }

    /// Whether the 13:00 stage has not run yet today (event acts are still taken, R-EVENT-1).
    pub fn morning(&self) -> bool {
        self.m.today().is_some_and(|t| t.phase == ostrov_engine::Phase::Morning)
    }

    /// The current day number.
    pub fn day(&self) -> u32 {
        self.m.state().day()
    }

    /// The public records of the past days.
    pub fn days(&self) -> &'a [DayRecord] {
        &self.m.days
    }

    /// Whether the engine would take this order now.
    pub fn legal(&self, cmd: &Command) -> bool {
        self.m.check(&Order::new(self.me, cmd.clone())).is_ok()
    }

    /// Every order this player may send now, with its valid targets (the engine's
    /// [`Match::legal_orders`]): what a bot that picks among the allowed orders asks,
    /// instead of trying acts and targets one by one. The bots here decide from what
    /// their player knows and do not need it (asking it would cost about one check per
    /// act and living player each round).
    pub fn legal_orders(&self) -> Vec<LegalOrder> {
        self.m.legal_orders(self.me)
    }
}

/// A scripted player: proposes the day's orders; the driver sends those the engine takes.
///
/// A day has two rounds: [`Bot::morning`] before the 13:00 stage (the event acts —
/// `bunker`, `exchange`, `light`, `pair`, `ask` — and morning item uses), then, once the
/// 13:00 news is out, [`Bot::orders`] (votes, megaphone, sentence, night acts, the
/// authority, afternoon item uses).
pub trait Bot: Send {
    /// The orders sent before 13:00. The driver asks only on days whose event takes
    /// orders then (Bunker, Exchange, Mystic light, Choose me!, Spirit call: see
    /// [`crate::has_morning`]); on other days nothing is settled at 13:00 that a morning
    /// order could change. None by default.
    fn morning(&mut self, _view: &View, _rng: &mut ChaCha8Rng, _out: &mut Vec<Command>) {}

    /// The orders sent after the 13:00 stage.
    fn orders(&mut self, view: &View, rng: &mut ChaCha8Rng, out: &mut Vec<Command>);

    /// Makes the bot exactly like a fresh one for a new game, keeping its buffers, and
    /// says so; `false` (the default) asks the driver for a new bot instead.
    fn reset(&mut self) -> bool {
        false
    }
}

/// Which bots play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BotKind {
    Random,
    Sensible,
}

impl BotKind {
    /// A fresh bot of this kind.
    pub fn make(self) -> Box<dyn Bot> {
        make(self)
    }
}

impl std::str::FromStr for BotKind {
    type Err = String;
    fn from_str(s: &str) -> Result<BotKind, String> {
        match s {
            "random" => Ok(BotKind::Random),
            "sensible" => Ok(BotKind::Sensible),
            _ => Err(format!("unknown bots \"{s}\" (random, sensible)")),
        }
    }
}

fn pick(rng: &mut ChaCha8Rng, v: &[PlayerId]) -> Option<PlayerId> {
    (!v.is_empty()).then(|| v[rng.gen_range(0..v.len())])
}

/// Several small uniform draws from one 64-bit random number (multiply-shift): each
/// [`Draws::below`] takes the integer part of `x · n / 2⁶⁴` and keeps the fraction for the
/// next draw, so a day's few picks cost one `next_u64`. Each draw uses about log₂ n bits;
/// the bias is below n / 2⁶⁴⁻ᵇ after b bits are used — far below anything measurable.
struct Draws(u64);

impl Draws {
    fn new(rng: &mut ChaCha8Rng) -> Draws {
        Draws(rng.next_u64())
    }

    /// A number in `0..n` (`n > 0`).
    #[inline]
    fn below(&mut self, n: usize) -> usize {
        let m = self.0 as u128 * n as u128;
        self.0 = m as u64;
        (m >> 64) as usize
    }

    /// One chance in `n`.
    #[inline]
    fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// A living player.
    #[inline]
    fn of(&mut self, l: &[PlayerId]) -> PlayerId {
        l[self.below(l.len())]
    }
}

/// The random bot's question to the Spirit.
const QUESTION: &str = "Есть ли среди живых оборотень?";

/// Uniformly random orders. Morning: on Bunker a `bunker` (½), on Exchange an `exchange`
/// with a random player (½), on Mystic light a holder of a spent item `light`s (½), on
/// Choose me! the chosen `pair`s with a random player, on Spirit call about one player
/// a day `ask`s; a charged used-kind item is used on a random player (¼). Afternoon: a
/// vote for any living player (two on Rage and Fog night), a still-charged used-kind
/// item (½, or ⅓ after a morning round: about half the holders use it each day), the megaphone, the Fear
/// sentence, a random night act of the role, the authority (¼). Orders the engine
/// refuses (a player naming themself, an ability used up) are dropped by the driver.
#[derive(Default)]
pub struct RandomBot {
    living: Vec<PlayerId>,
}

impl RandomBot {
    fn living<'v>(&'v mut self, v: &View<'v>) -> &'v [PlayerId] {
        match v.living_slice() {
            Some(l) => l,
            None => {
                v.living_into(&mut self.living);
                &self.living
            }
        }
    }
}

impl Bot for RandomBot {
    fn morning(&mut self, v: &View, rng: &mut ChaCha8Rng, out: &mut Vec<Command>) {
        let event = v.event();
        let held = v.item();
        let me = v.me;
        let l = self.living(v);
        if l.is_empty() {
            return;
        }
        let mut d = Draws::new(rng);
        match event {
            Some(Event::Bunker) if d.one_in(2) => out.push(Command::Bunker { item: None }),
            Some(Event::Exchange) if d.one_in(2) => {
                let t = d.of(l);
                if t != me {
                    out.push(Command::Exchange(t));
                }
            }
            Some(Event::MysticLight) if held.is_some_and(|h| h.item.is_activated() && !h.charged) && d.one_in(2) => {
                out.push(Command::Light)
            }
            Some(Event::ChooseMe) if v.chosen() == Some(me) => {
                let t = d.of(l);
                if t != me {
                    out.push(Command::Pair(t));
                }
            }
            Some(Event::SpiritCall) if d.one_in(l.len()) => out.push(Command::Ask(QUESTION.to_string())),
            _ => {}
        }
        if let Some(h) = held.filter(|h| h.charged && h.item.kind() == ItemKind::Used) {
            if d.one_in(4) {
                out.push(Command::Use { item: Some(h.item), target: d.of(l) });
            }
        }
    }

    fn orders(&mut self, v: &View, rng: &mut ChaCha8Rng, out: &mut Vec<Command>) {
        let role = v.role();
        let event = v.event();
        let held = v.item();
        let l = self.living(v);
        if l.is_empty() {
            return;
        }
        let mut d = Draws::new(rng);
        let t = d.of(l);
        let two = matches!(event, Some(Event::Rage | Event::FogNight));
        out.push(Command::Vote(if two { Targets::two(t, d.of(l)) } else { Targets::one(t) }));
        if let Some(h) = held {
            // About half the holders use the item on a given day: ½ here, or ¼ in the
            // morning and then ⅓ here on a day with a morning round.
            let chance = if crate::has_morning(event) { 3 } else { 2 };
            if h.charged && h.item.kind() == ItemKind::Used && d.one_in(chance) {
                out.push(Command::Use { item: Some(h.item), target: d.of(l) });
            }
            if h.item == Item::Megaphone {
                out.push(Command::Megaphone(d.of(l)));
            }
        }
        if event == Some(Event::Fear) {
            out.push(Command::Sentence(d.of(l)));
        }
        let night = match role {
            Role::Werewolf | Role::Halfblood => {
                let a = d.of(l);
                let b = d.of(l);
                Some(Command::Kill(if event == Some(Event::FullMoon) && a != b {
                    Targets::two(a, b)
                } else {
                    Targets::one(a)
                }))
            }
            Role::Hamster => Some(Command::Kill(Targets::one(d.of(l)))),
            Role::Seer => Some(Command::Check(d.of(l))),
            Role::Nurse => Some(Command::Heal(d.of(l))),
            Role::Maniac => Some(Command::Assault(d.of(l))),
            Role::Witch => match d.below(4) {
                0 => Some(Command::Kill(Targets::one(d.of(l)))),
                1 => Some(Command::Cancel),
                _ => None,
            },
            Role::Sleepwalker => {
                Some(if d.one_in(2) { Command::Swap(d.of(l), d.of(l)) } else { Command::Recharge(d.of(l)) })
            }
            Role::Authority if d.one_in(4) => Some(Command::Authority { from: d.of(l), target: d.of(l) }),
            _ => None,
        };
        if let Some(c) = night {
            out.push(c);
        }
    }

    fn reset(&mut self) -> bool {
        self.living.clear();
        true
    }
}

/// Sensible play per side (see the crate docs and issue 4).
#[derive(Default)]
pub struct SensibleBot {
    role: Option<Role>,
    pack: Vec<PlayerId>,
    /// `pack`, by player index (empty when I have no pack).
    packed: Vec<bool>,
    /// Checked players and the result (true: werewolf).
    checked: Vec<(PlayerId, bool)>,
    /// `checked` by player index: [`CLEAR`] if a check found the player not a werewolf,
    /// [`WOLF`] if one found a werewolf (both, if the player turned between two checks).
    marks: Vec<u8>,
    /// Notices read so far (the seer's: only the seer reads its notices each round).
    seen: usize,
    /// The living players, when the driver did not gather them (see [`View::living_slice`]).
    living: Vec<PlayerId>,
    buf: Vec<PlayerId>,
    /// The wolf side's prey of the last [`SensibleBot::vote`]: the living players outside
    /// the pack, in list order (the werewolf's night picks among them too).
    prey: Vec<PlayerId>,
    /// Every player's voting record, when the driver did not gather it.
    record: Vec<i32>,
    /// Positions in the day's ranking that this bot does not suspect.
    out: Vec<usize>,
}

/// A check found the player not a werewolf (see `SensibleBot::marks`).
const CLEAR: u8 = 1;
/// A check found the player a werewolf.
const WOLF: u8 = 2;

/// A civilian's trust: checked "not a werewolf" by me (`marks`, see `SensibleBot::marks`),
/// or a civilian role the newspaper revealed (a revealed authority).
#[inline]
fn cleared(marks: &[u8], v: &View, p: PlayerId) -> bool {
    marks[p.index()] & CLEAR != 0 || v.public_role(p).is_some_and(|r| r.side() == Side::Civilians)
}

impl SensibleBot {
    /// Reads what the player learnt since the last round. The living players are not
    /// copied: each round takes them from the view ([`SensibleBot::living`]).
    ///
    /// Always inlined: in most rounds of most players it learns nothing (a role already
    /// known that does not change, no check results), which is two comparisons; the
    /// first round of a game and the seer's rounds are calls.
    #[inline(always)]
    fn learn(&mut self, v: &View) {
        match self.role {
            None => self.learn_seat(v),
            // Only a halfblood's role changes: it turns into a werewolf (R-HALF-1).
            Some(Role::Halfblood) => self.role = Some(v.role()),
            // Only the seer is told check results (the engine's step 16): nobody else
            // reads every notice of the table again each round, nor keeps a cursor in them.
            Some(Role::Seer) => self.learn_checks(v),
            Some(_) => {}
        }
    }

    /// The first round of a game: the role and the pack.
    #[cold]
    fn learn_seat(&mut self, v: &View) {
        v.pack_into(&mut self.pack);
        // Only a pack's member has a bitmap: an empty one says "not in my pack" of anyone.
        self.packed.clear();
        if !self.pack.is_empty() {
            self.packed.resize(v.player_count(), false);
            for p in &self.pack {
                self.packed[p.index()] = true;
            }
        }
        self.marks.clear();
        self.marks.resize(v.player_count(), 0);
        let role = v.role();
        self.role = Some(role);
        if role == Role::Seer {
            self.learn_checks(v);
        }
    }

    /// The seer's check results told since the last round.
    fn learn_checks(&mut self, v: &View) {
        for k in v.notices_since(self.seen) {
            if let NoticeKind::Check { target, result } = k {
                let wolf = *result == CheckResult::Werewolf;
                self.checked.push((*target, wolf));
                self.marks[target.index()] |= if wolf { WOLF } else { CLEAR };
            }
        }
        self.seen = v.notice_count();
    }

    /// Learns what is new, then plays `round` over the living players in list order (the
    /// driver's, or gathered into the bot's own buffer, taken out of it for the round).
    fn round<R>(&mut self, v: &View, round: impl FnOnce(&mut Self, &[PlayerId]) -> R) -> R {
        self.learn(v);
        // The driver's list, shared by every bot of the day: nothing to take out.
        if let Some(living) = v.living_slice() {
            return round(self, living);
        }
        let mut own = std::mem::take(&mut self.living);
        v.living_into(&mut own);
        let r = round(self, &own);
        self.living = own;
        r
    }

    fn wolf_side(&self) -> bool {
        self.role.is_some_and(|r| r.side() == Side::Werewolves)
    }

    /// Whether `p` is in my pack (me included, if I have one).
    #[inline]
    fn packs(&self, p: PlayerId) -> bool {
        self.packed.get(p.index()).copied().unwrap_or(false)
    }

    /// A living packmate (not me).
    fn in_pack(&self, v: &View, p: PlayerId) -> bool {
        p != v.me && self.packs(p)
    }

    /// A civilian's trust: checked "not a werewolf" by me, or a civilian role the
    /// newspaper revealed (a revealed authority).
    fn cleared(&self, v: &View, p: PlayerId) -> bool {
        cleared(&self.marks, v, p)
    }

    /// Someone to trust, in list order: a packmate for the werewolf side, a cleared
    /// player for civilians.
    fn trusted(&self, v: &View, living: &[PlayerId]) -> Option<PlayerId> {
        let wolf = self.wolf_side();
        living.iter().copied().filter(|p| *p != v.me).find(
            |p| {
                if wolf {
                    self.in_pack(v, *p)
                } else {
                    self.cleared(v, *p)
                }
            },
        )
    }

    /// A suspicion score from the public record: voting for revealed civilians who were
    /// lynched is suspicious, voting for lynched werewolves is not. Returns the most
    /// suspected (ties at random) and the score.
    fn suspect(&mut self, v: &View, living: &[PlayerId], rng: &mut ChaCha8Rng) -> Option<(PlayerId, i32)> {
        if let Some(public) = v.public() {
            return self.suspect_ranked(v, public, rng);
        }
        self.buf.clear();
        voting_record(v.m, &mut self.record);
        let mut best_score = i32::MIN;
        for &p in living {
            if p == v.me || self.cleared(v, p) || self.in_pack(v, p) {
                continue;
            }
            if v.public_role(p).is_some_and(|r| r.side() != Side::Werewolves) {
                continue;
            }
            let s = self.record[p.index()];
            if s > best_score {
                best_score = s;
                self.buf.clear();
            }
            if s == best_score {
                self.buf.push(p);
            }
        }
        pick(rng, &self.buf).map(|p| (p, best_score))
    }

    /// [`SensibleBot::suspect`] from the day's ranking, gathered once for every bot: the
    /// same choice (the same candidates, the same random draw), without reading every
    /// living player. The candidates are the ranked players but me, those I checked and
    /// found clear, and my packmates; the most suspected are the first group of equal
    /// records that keeps a candidate, and the pick is the draw's candidate among them in
    /// list order.
    ///
    /// Inlined into [`SensibleBot::suspect`], its one caller.
    #[inline(always)]
    fn suspect_ranked(&mut self, v: &View, public: &Public, rng: &mut ChaCha8Rng) -> Option<(PlayerId, i32)> {
        // My exclusions, as positions in the ranking, in order.
        let out = &mut self.out;
        out.clear();
        out.extend(public.rank(v.me));
        out.extend(self.checked.iter().filter(|c| !c.1).filter_map(|c| public.rank(c.0)));
        out.extend(self.pack.iter().filter_map(|p| public.rank(*p)));
        if out.len() > 1 {
            out.sort_unstable();
            out.dedup();
        }
        let ranked = public.ranked();
        let (mut start, mut e) = (0, 0);
        while start < ranked.len() {
            let end = public.group_end(start);
            let e2 = e + out[e..].iter().take_while(|x| **x < end).count();
            let free = end - start - (e2 - e);
            if free > 0 {
                let mut k = start + rng.gen_range(0..free);
                for &x in &out[e..e2] {
                    if x <= k {
                        k += 1;
                    } else {
                        break;
                    }
                }
                return Some((ranked[k], public.record(ranked[k])));
            }
            (start, e) = (end, e2);
        }
        None
    }

    /// Exchange: the pack swaps among itself, in pairs by list order (1st with 2nd, 3rd
    /// with 4th …); a civilian with a spent item swaps with someone they trust.
    fn exchange(&mut self, v: &View, living: &[PlayerId], spent: bool, out: &mut Vec<Command>) {
        let me = v.me;
        if self.wolf_side() {
            self.buf.clear();
            let packed = &self.packed;
            self.buf.extend(living.iter().copied().filter(|p| packed.get(p.index()).copied().unwrap_or(false)));
            if let Some(i) = self.buf.iter().position(|p| *p == me) {
                if let Some(&mate) = self.buf.get(i ^ 1) {
                    out.push(Command::Exchange(mate));
                }
            }
        } else if spent {
            if let Some(t) = self.trusted(v, living) {
                out.push(Command::Exchange(t));
            }
        }
    }

    /// Choose me!: the chosen pairs with someone they trust, else with anyone but their
    /// vote target.
    fn pair(&mut self, v: &View, living: &[PlayerId], rng: &mut ChaCha8Rng, out: &mut Vec<Command>) {
        let me = v.me;
        let pair = self.trusted(v, living).or_else(|| {
            let vote = self.vote(v, living, rng);
            self.buf.clear();
            let others = living.iter().copied().filter(|p| *p != me && Some(*p) != vote);
            self.buf.extend(others);
            pick(rng, &self.buf)
        });
        out.extend(pair.map(Command::Pair));
    }

    /// Spirit call: the question whether my suspect (for the werewolf side, the pack's
    /// vote target) is a werewolf.
    fn ask(&mut self, v: &View, living: &[PlayerId], rng: &mut ChaCha8Rng, out: &mut Vec<Command>) {
        let about =
            if self.wolf_side() { self.vote(v, living, rng) } else { self.suspect(v, living, rng).map(|s| s.0) };
        if let Some(p) = about {
            out.push(Command::Ask(format!("{} — оборотень?", v.name(p))));
        }
    }

    /// The afternoon's orders: the vote, the day items, the night order.
    fn afternoon(&mut self, v: &View, living: &[PlayerId], rng: &mut ChaCha8Rng, out: &mut Vec<Command>) {
        let role = self.role.unwrap_or(Role::Passenger);
        let me = v.me;
        let event = v.event();
        let held = v.item();
        let items_work = event != Some(Event::MagneticStorm);
        // On Fear no item changes the vote (R-FEAR-1): the day items wait.
        let day_items = items_work && event != Some(Event::Fear);
        let vote = self.vote(v, living, rng);
        if let Some(t) = vote {
            let two = matches!(event, Some(Event::Rage | Event::FogNight));
            out.push(Command::Vote(if two { Targets::two(t, t) } else { Targets::one(t) }));
            if event == Some(Event::Fear) {
                out.push(Command::Sentence(t));
            }
            if let Some(h) = held {
                if h.item == Item::Megaphone && items_work {
                    out.push(Command::Megaphone(t));
                }
                let now = match h.item {
                    Item::Shocker => day_items,
                    Item::Voodoo => items_work,
                    _ => false,
                };
                if h.charged && now {
                    out.push(Command::Use { item: Some(h.item), target: t });
                }
            }
            // R-AUTH-1: from day 3 the authority takes the vote of its top suspect onto its own vote.
            if role == Role::Authority && !v.spent().authority && v.day() >= 3 {
                if let Some((from, _)) = self.suspect(v, living, rng) {
                    out.push(Command::Authority { from, target: t });
                }
            }
        }
        if let Some(h) = held.filter(|h| h.item == Item::LoveNote && h.charged && day_items) {
            if let Some(t) = self.love_target(v, living, vote) {
                out.push(Command::Use { item: Some(h.item), target: t });
            }
        }
        // The night.
        self.buf.clear();
        let others = living.iter().copied().filter(|p| *p != me);
        let night = match role {
            Role::Werewolf => self.wolf_kill(vote, event == Some(Event::FullMoon), rng),
            Role::Hamster => {
                self.buf.extend(others);
                pick(rng, &self.buf).map(|p| Command::Kill(Targets::one(p)))
            }
            Role::Seer => {
                let marks = &self.marks;
                self.buf.extend(others.filter(|p| marks[p.index()] == 0));
                pick(rng, &self.buf).map(Command::Check)
            }
            Role::Nurse => {
                // Revealed or checked allies first, else anyone but herself.
                let marks = &self.marks;
                self.buf.extend(others.clone().filter(|p| cleared(marks, v, *p)));
                if self.buf.is_empty() {
                    self.buf.extend(others);
                }
                pick(rng, &self.buf).map(Command::Heal)
            }
            Role::Maniac => vote
                .or_else(|| {
                    self.buf.extend(others);
                    pick(rng, &self.buf)
                })
                .map(Command::Assault),
            Role::Witch if !v.spent().witch_kill => {
                vote.filter(|_| rng.gen_range(0..3) == 0).map(|t| Command::Kill(Targets::one(t)))
            }
            _ => None,
        };
        if let Some(c) = night {
            out.push(c);
        }
    }

    /// The day's vote: the pack's common target for werewolves; a civilian's known
    /// (checked) werewolf, else the most suspected player.
    ///
    /// Inlined into its three callers (the afternoon, the pair, the question): every
    /// living bot votes every day, and the call's saving and restoring of registers cost
    /// about 1.5k instructions of a 15-player game's 112k (callgrind).
    #[inline(always)]
    fn vote(&mut self, v: &View, living: &[PlayerId], rng: &mut ChaCha8Rng) -> Option<PlayerId> {
        if self.wolf_side() {
            // The pack votes together: the day's common target, by a shared day-seeded choice:
            // the k-th living player outside the pack (I am in it).
            let me = v.me;
            let packed = &self.packed;
            let prey = |p: &PlayerId| !packed.get(p.index()).copied().unwrap_or(false) && *p != me;
            self.prey.clear();
            self.prey.extend_from_slice(living);
            self.prey.retain(prey);
            let n = self.prey.len();
            let first = self.pack.iter().find(|p| v.alive(**p)).map_or(0, |p| p.index());
            let day = v.day() as usize;
            if n == 0 {
                return None;
            }
            Some(self.prey[(day * 7919 + first) % n])
        } else {
            let known = self.checked.iter().find(|c| c.1 && v.alive(c.0)).map(|c| c.0);
            let revealed = match v.public() {
                Some(public) => public.revealed_wolf(),
                None => {
                    living.iter().copied().find(|p| v.public_role(*p).is_some_and(|r| r.side() == Side::Werewolves))
                }
            };
            known.or(revealed).or_else(|| self.suspect(v, living, rng).map(|s| s.0))
        }
    }

    /// Whom to send the love note to: someone who voted against me (or, for civilians,
    /// a cleared player first — their vote against me would be a mistake), never the
    /// player I vote for (the note forbids that vote) nor a packmate.
    fn love_target(&self, v: &View, living: &[PlayerId], vote: Option<PlayerId>) -> Option<PlayerId> {
        let ok = |p: PlayerId| p != v.me && Some(p) != vote && !self.in_pack(v, p) && v.alive(p);
        if !self.wolf_side() {
            if let Some(p) = living.iter().copied().find(|p| ok(*p) && self.cleared(v, *p)) {
                return Some(p);
            }
        }
        // The most recent day first: who voted against me.
        for d in v.days().iter().rev() {
            if let Some(b) = d.ballots.iter().find(|b| b.target == v.me && ok(b.voter)) {
                return Some(b.voter);
            }
        }
        None
    }

    /// The werewolf's night kill (one target, two on Full moon): anyone outside the pack
    /// but the day's vote target, else the vote target. Read from the prey that
    /// [`SensibleBot::vote`] gathered this round, without gathering the candidates again:
    /// the same draws from the same list.
    ///
    /// Inlined into the afternoon, its one caller.
    #[inline(always)]
    fn wolf_kill(&self, vote: Option<PlayerId>, full_moon: bool, rng: &mut ChaCha8Rng) -> Option<Command> {
        let prey = &self.prey;
        // The candidates are the prey without the vote target (which is one of them);
        // with no other, the vote target alone.
        let vote_at = vote.and_then(|t| prey.iter().position(|p| *p == t));
        let (len, skip) = match vote_at {
            Some(i) if prey.len() > 1 => (prey.len() - 1, i),
            Some(_) => (1, usize::MAX),
            None => return None,
        };
        let at = |k: usize| prey[if k >= skip { k + 1 } else { k }];
        let a = at(rng.gen_range(0..len));
        let b = Some(at(rng.gen_range(0..len))).filter(|b| *b != a && full_moon);
        Some(Command::Kill(b.map_or(Targets::one(a), |b| Targets::two(a, b))))
    }
}

impl Bot for SensibleBot {
    fn morning(&mut self, v: &View, rng: &mut ChaCha8Rng, out: &mut Vec<Command>) {
        let me = v.me;
        let held = v.item();
        let spent = held.is_some_and(|h| h.item.is_activated() && !h.charged);
        // Only a few players act before 13:00; the rest of the table reads nothing now
        // (the afternoon round learns what they were told).
        match v.event() {
            // Something to fix: no item, a harmful one, or a spent one.
            Some(Event::Bunker) if held.is_none_or(|h| h.item.is_harmful() || !h.charged) => {
                out.push(Command::Bunker { item: None })
            }
            Some(Event::Exchange) => self.round(v, |b, living| b.exchange(v, living, spent, out)),
            Some(Event::MysticLight) if spent => out.push(Command::Light),
            Some(Event::ChooseMe) if v.chosen() == Some(me) => self.round(v, |b, living| b.pair(v, living, rng, out)),
            // The first living player in list order asks whether their suspect is a werewolf.
            Some(Event::SpiritCall) if v.living().next() == Some(me) => {
                self.round(v, |b, living| b.ask(v, living, rng, out))
            }
            _ => {}
        }
    }

    fn orders(&mut self, v: &View, rng: &mut ChaCha8Rng, out: &mut Vec<Command>) {
        self.round(v, |b, living| b.afternoon(v, living, rng, out))
    }

    fn reset(&mut self) -> bool {
        let SensibleBot { role, pack, packed, checked, marks, seen, living, buf, prey, record, out } = self;
        *role = None;
        pack.clear();
        packed.clear();
        checked.clear();
        marks.clear();
        *seen = 0;
        living.clear();
        buf.clear();
        prey.clear();
        record.clear();
        out.clear();
        true
    }
}

/// A fresh bot of a kind.
pub fn make(kind: BotKind) -> Box<dyn Bot> {
    match kind {
        BotKind::Random => Box::<RandomBot>::default(),
        BotKind::Sensible => Box::<SensibleBot>::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn draws_from_one_number_are_uniform() {
        // Five picks of 0..15 from each u64, as a random bot's day takes: each pick is uniform.
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut counts = [[0u32; 15]; 5];
        let n = 150_000;
        for _ in 0..n {
            let mut d = Draws::new(&mut rng);
            for c in counts.iter_mut() {
                c[d.below(15)] += 1;
            }
        }
        for c in counts {
            for k in c {
                // Expected 10 000 each; 5 standard deviations is about ±480.
                assert!((9_500..=10_500).contains(&k), "{c:?}");
            }
        }
    }
}
