//! The host's desk (issue 30, points 1–2): the board — a card per seat with what it is,
//! holds, has sent today and has still to send — and the day's vote tally as it stands;
//! the open day resolved now on a copy is [`crate::preview`]. Typed views made from the engine's
//! questions (`sight(Host)`, `standing_orders`, `legal_orders`, `pack`), rendered alike by
//! the API (`GET /api/games/{id}/board`, `/preview`) and the host's page; only the host
//! sees them (votes are secret until the newspaper).

use ostrov_engine::ru::Gender;
use ostrov_engine::{Act, Command, Match, PlayerId, Standing};
use serde::Serialize;

use crate::game::{GameState, Room};
use crate::view::{death_id, DeathView, ItemView, RoleView};

/// What a seat has still to send today.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Missing {
    /// The seat may vote and has not.
    Vote,
    /// The seat's role has a night order, and neither it nor (for the pack's kill) a
    /// packmate has sent one.
    Night,
}

/// An order in force, as the board lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OrderLine {
    /// The act's id (`vote`, `kill`, `use` …).
    pub act: &'static str,
    /// The item a `use` uses.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub item: Option<&'static str>,
    /// The players it names, in order (an `authority`: whose vote, then for whom).
    pub targets: Vec<String>,
    /// The Spirit question's text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// A flagged post of the seat's player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct FlagRef {
    pub day: u32,
    /// The post's number in the thread.
    pub no: usize,
    /// The flag may still be withdrawn (its day is open).
    pub open: bool,
    /// Its number in the game's whole discussion, from 1 (the form's `post`).
    #[serde(skip)]
    pub post: usize,
}

/// One seat on the board.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatCard {
    pub name: String,
    pub alive: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub death: Option<DeathView>,
    pub role: RoleView,
    /// `None`: holds no item.
    pub item: Option<ItemView>,
    /// The orders in force today, kind by kind (R-ORDER-1).
    pub orders: Vec<OrderLine>,
    /// What the seat has still to send today.
    pub missing: Vec<Missing>,
    /// The seat asked the Spirit today and the host has not answered yet.
    pub awaits_answer: bool,
    /// The host's penalty blocks the seat's vote today.
    pub penalised: bool,
    /// The days of earlier penalties.
    pub penalties: Vec<u32>,
    /// The seat's posts the host flagged.
    pub flags: Vec<FlagRef>,
    /// The player's gender, for the page's Russian; not in the API's JSON.
    #[serde(skip)]
    pub gender: Option<Gender>,
}

impl SeatCard {
    /// Whether the seat has something still to send today.
    pub fn waiting(&self) -> bool {
        !self.missing.is_empty()
    }
}

/// Votes for one player as they stand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TallyLine {
    pub name: String,
    pub votes: u32,
    pub voters: Vec<String>,
}

/// The Spirit's question of the day.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct QuestionView {
    pub by: String,
    pub text: String,
    /// `None` until the host answers.
    pub answer: Option<bool>,
}

/// The host's board of the open day (or of the last state, between days).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoardView {
    /// The open day, if one is open.
    pub day: Option<u32>,
    /// The seats in list order (with `?pending=1` only those with something to send).
    pub seats: Vec<SeatCard>,
    /// How many seats have something still to send today.
    pub waiting: usize,
    /// The day's votes as sent, by target, most first: living senders whose vote is not
    /// blocked by the host's penalty (the resolution's corrections are the preview's).
    pub tally: Vec<TallyLine>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub question: Option<QuestionView>,
}

/// The board of game `live` at `now`: every seat, or (`pending`) only those with
/// something still to send. `None` before the start.
pub fn board(live: &GameState, now: i64, pending: bool) -> Option<BoardView> {
    let m = live.m.as_ref()?;
    let open = live.open_day();
    // The legal orders of every seat from one match: a copy with the 13:00 stage run only
    // once (past 13:00 before the scheduler ran it).
    let asked = open.and_then(|_| live.order_match(now));
    let today = m.today().filter(|_| open.is_some());
    let st = m.state();
    let name = |p: PlayerId| st.name(p).to_string();
    let standing: Vec<Standing> = (0..st.players().len()).map(|i| m.standing_orders(PlayerId(i as u16))).collect();
    let mut tally: Vec<TallyLine> = Vec::new();
    let mut seats = Vec::new();
    for &p in st.list_order() {
        let pl = st.player(p);
        let s = &standing[p.index()];
        let penalised = today.and_then(|t| t.sent.get(p.index())).is_some_and(|x| x.penalty);
        let legal = asked.as_ref().map(|a| a.legal_orders(p)).unwrap_or_default();
        let may = |act: Act| legal.iter().any(|l| l.act == act);
        let mut missing = Vec::new();
        if may(Act::Vote) && s.vote.is_none() && !penalised {
            missing.push(Missing::Vote);
        }
        let night = legal.iter().any(|l| l.act.is_night());
        // The pack kills once: a packmate's kill covers every werewolf's night.
        let pack_killed =
            m.pack(p).iter().any(|q| standing[q.index()].night.is_some_and(|n| n.act() == Act::Kill) && st.alive(*q));
        if night && s.night.is_none() && !(may(Act::Kill) && pack_killed) {
            missing.push(Missing::Night);
        }
        if pl.alive && !penalised {
            for t in s.vote.iter().flat_map(|t| t.iter()) {
                match tally.iter_mut().find(|l| l.name == st.name(t)) {
                    Some(l) => {
                        l.votes += 1;
                        l.voters.push(name(p));
                    }
                    None => tally.push(TallyLine { name: name(t), votes: 1, voters: vec![name(p)] }),
                }
            }
        }
        let flags = live
            .posts
            .iter()
            .enumerate()
            .filter(|(_, x)| x.flagged && x.post.room == Room::Thread && m.find(&x.post.name) == Some(p))
            .filter(|(_, x)| x.post.user != live.host)
            .map(|(i, x)| FlagRef { day: x.day, no: x.shown, open: open == Some(x.day), post: i + 1 })
            .collect();
        let done = open.map_or(st.day(), |d| d - 1);
        let penalties =
            (1..=done).filter(|d| m.record(*d).is_some_and(|r| r.penalties.iter().any(|(q, _)| *q == p))).collect();
        seats.push(SeatCard {
            name: name(p),
            alive: pl.alive,
            death: pl.death.zip(pl.died_on_day).map(|(d, day)| DeathView { how: death_id(d), day }),
            role: RoleView::of(m, p),
            item: ItemView::of(m, p),
            orders: s.commands().iter().map(|c| order_line(m, c)).collect(),
            missing,
            awaits_answer: today
                .is_some_and(|t| t.answer.is_none() && t.question.as_ref().is_some_and(|(q, _)| *q == p)),
            penalised,
            penalties,
            flags,
            gender: st.who(p).gender(),
        });
    }
    tally.sort_by_key(|l| std::cmp::Reverse(l.votes));
    let waiting = seats.iter().filter(|s| s.waiting()).count();
    if pending {
        seats.retain(SeatCard::waiting);
    }
    let question = today.and_then(|t| {
        let (by, text) = t.question.as_ref()?;
        Some(QuestionView { by: name(*by), text: text.clone(), answer: t.answer })
    });
    Some(BoardView { day: open, seats, waiting, tally, question })
}

/// An order as the board lists it.
fn order_line(m: &Match, c: &Command) -> OrderLine {
    let (item, text) = match c {
        Command::Use { item, .. } => (item.map(|i| i.id()), None),
        Command::Ask(q) => (None, Some(q.clone())),
        Command::Bunker { item } => (item.map(|i| i.id()), None),
        _ => (None, None),
    };
    let targets = match c {
        Command::Authority { from, target } => vec![*from, *target],
        _ => c.named(),
    };
    OrderLine {
        act: c.act().id(),
        item,
        targets: targets.into_iter().map(|p| m.state().name(p).to_string()).collect(),
        text,
    }
}
