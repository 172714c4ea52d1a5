//! # ostrov-bots — scripted players and the balance simulator
//!
//! Bots send orders through the same [`Match`](ostrov_engine::Match) API a real game uses, and see only a
//! player's private [`View`]: their own role, item and private notices, plus the public
//! day records and the roles the newspaper has revealed.
//!
//! ## The driver
//!
//! [`simulate`] plays games in parallel (chunks of 32 games, each game seeded from the
//! base seed and its index, so results do not depend on the thread count). A game day:
//!
//! 1. [`Match::open_day`](ostrov_engine::Match::open_day): the event, Tsunami, the
//!    Choose me! draw;
//! 2. on a day whose event takes orders before 13:00 ([`has_morning`]: Bunker, Exchange,
//!    Mystic light, Choose me!, Spirit call), the *morning round*: every living player's
//!    [`Bot::morning`] orders, sent at 12:00;
//! 3. [`Match::midday_stage`](ostrov_engine::Match::midday_stage): the 13:00 stage
//!    (R-EVENT-1) — bunker draws, exchanges, lights, the pair, the question;
//! 4. the *afternoon round*: every living player's [`Bot::orders`], sent at 14:00, seeing
//!    the 13:00 news (a new item from the bunker or an exchange, a recharged one …);
//! 5. [`Match::close_day`](ostrov_engine::Match::close_day): the 21:00 resolution.
//!
//! Before the rounds the driver gathers the day's public facts once for all the bots
//! ([`Public`]: the living, each player's voting record, the sensible bots' suspicion
//! ranking), which each bot's [`View`] shares: work every bot would otherwise repeat on
//! the same public record, which grew with the cube of the player count (issue 32).
//!
//! Orders go through `Match::try_send` (`try_submit` without making an `Order`): what the
//! engine refuses is dropped. Nobody plays the host: the Spirit's questions go unanswered
//! (the host may decline, R-SPIRIT-1), nobody is penalised or removed. A worker keeps its match and its bots from game to
//! game ([`Bot::reset`]; a bot that cannot reset is made anew by the factory).
//!
//! ## `RandomBot`
//!
//! Uniformly random orders among the living, without looking at anything but its own
//! role, item and the event. Morning: on Bunker a `bunker` (½), on Exchange an
//! `exchange` with a random player (½), on Mystic light a holder of a spent item `light`s
//! (½), on Choose me! the chosen player `pair`s with a random player, on Spirit call
//! about one player a day `ask`s; a charged used-kind item (shocker, love note, voodoo) is
//! used on a random player (¼). Afternoon: a vote (two on Rage and Fog night), the
//! used-kind item (about half the holders use it on a given day), the megaphone, the Fear
//! sentence, a random night act of the role (a turned halfblood kills with the pack, two
//! targets on Full moon), the authority (¼ a day, random `from` and `target`). Its picks
//! come from one 64-bit random number per round (multiply-shift), and it sends orders the
//! engine then refuses (a used-up ability, naming itself) — they are simply dropped.
//!
//! ## `SensibleBot`
//!
//! Plays its side with what its player knows (its role, pack, item, seer results, the
//! public record), and sends only orders the engine takes.
//!
//! - *Votes.* The pack (werewolves, halfbloods) votes together for a day-seeded common
//!   target outside the pack. A civilian votes for a werewolf its own check found, else a
//!   revealed werewolf, else the most suspected player: votes cast for lynched players
//!   whose role came out civilian count against the voter, for werewolves in their favour.
//!   On Fear the vote is also the sentence; the megaphone adds its vote to the same target.
//! - *Night.* Werewolves never kill each other and avoid the day's target (two targets on
//!   Full moon); the hamster kills at random; the seer checks unchecked players; the nurse
//!   heals cleared allies (checked or revealed civilians), else anyone but herself; the
//!   maniac assaults the vote target; the witch kills the vote target now and then, until
//!   her kill is used up.
//! - *Items.* Shocker on the vote target (not on Fear, when it changes nothing); voodoo
//!   on the vote target; the love note, from day 2, on a cleared player (civilians), else
//!   on the last player who voted against the holder — never on the holder's own vote
//!   target nor a packmate. Nothing is used on Magnetic storm.
//! - *Authority* (R-AUTH-1): from day 3, once, the authority takes the vote of its most
//!   suspected player and moves it onto its own vote target.
//! - *Event acts.* Bunker: a holder of nothing, of a harmful item or of a spent one asks
//!   for a new item. Exchange: the pack swaps items pairwise (1st with 2nd, 3rd with 4th
//!   living packmate), so both sides name each other and spent items come back charged; a
//!   civilian with a spent item names a cleared player. Mystic light: every holder of a
//!   spent activated item `light`s. Choose me!: the chosen player pairs with a trusted one
//!   (a packmate; a cleared player), else with anyone but their own vote target. Spirit
//!   call: the first living player in list order asks whether their suspect is a werewolf.

mod bot;
mod public;
mod sim;

pub use bot::{voting_record, Bot, BotKind, Public, RandomBot, SensibleBot, View};
pub use sim::{
    game_seed, has_morning, play_match, play_one, play_with, simulate, simulate_bots, simulate_while, simulate_with,
    Config, Factory, GameResult, Rate, Summary, Survival,
};
