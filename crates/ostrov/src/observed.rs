//! `ostrov simulate --db`: the setups played on a server against the simulator (issue 33,
//! point 3), read from the results the server stores when games end
//! (`service::records::against_simulator`); this module only opens the store and prints.

use ostrov_engine::{plural, Lang};
use ostrov_server::results::{SetupView, Share, FAIR};
use ostrov_store::AnyStore;

use crate::Failure;

/// Prints each setup of the database `db` with its observed games and wins beside the
/// simulator's estimate of `games` games.
pub fn run(db: &str, games: u64, json: bool, lang: Lang) -> Result<(), Failure> {
    if !ostrov_store::is_postgres(db) && !std::path::Path::new(db).is_file() {
        return Err(Failure(match lang {
            Lang::Ru => format!("--db: файла базы «{db}» нет (нужен файл SQLite сервера или адрес postgres://)"),
            Lang::English => {
                format!("--db: there is no database file \"{db}\" (a server's SQLite file or a postgres:// URL)")
            }
        }));
    }
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let setups = rt.block_on(async {
        let store = AnyStore::open(db).await.map_err(|e| Failure(format!("{db}: {e}")))?;
        ostrov_server::service::records::against_simulator(&store, games).await.map_err(|e| Failure(e.message()))
    })?;
    if json {
        println!("{}", serde_json::to_string_pretty(&setups)?);
        return Ok(());
    }
    if setups.is_empty() {
        println!(
            "{}",
            lang.pick("На сервере ещё нет законченных открытых игр.", "No finished open games on the server yet.")
        );
        return Ok(());
    }
    for s in &setups {
        print!("{}", setup_ru(s, games, lang));
    }
    Ok(())
}

/// «47% [32–61]»: a share with its 95% interval.
fn pct(s: &Share) -> String {
    format!("{:.0}% [{:.0}–{:.0}]", 100.0 * s.rate, 100.0 * s.low, 100.0 * s.high)
}

/// One setup's lines.
fn setup_ru(s: &SetupView, games: u64, lang: Lang) -> String {
    let n = s.players;
    let (title, server, games_word, [town, pack, hamster, draw]) = match lang {
        Lang::Ru => (
            format!("{n} {}: {}", plural::form(n, "игрок", "игрока", "игроков"), s.roles_ru),
            "на сервере",
            plural::form(s.games, "игра", "игры", "игр"),
            ["мирные", "оборотни", "хомяк", "ничья"],
        ),
        Lang::English => (
            format!("{n} players: {}", s.key),
            "on the server",
            "games",
            ["civilians", "werewolves", "hamster", "draw"],
        ),
    };
    let mut out = format!(
        "{title}\n  {server}: {} {games_word}; {town} {} ({}), {pack} {} ({}), {hamster} {}, {draw} {}\n",
        s.games,
        s.civilians.wins,
        pct(&s.civilians),
        s.werewolves.wins,
        pct(&s.werewolves),
        s.hamster.wins,
        s.draw.wins,
    );
    if let Some(p) = &s.predicted {
        out += &match lang {
            Lang::Ru => format!(
                "  симулятор ({games} {}): мирные {}\n",
                plural::form(games, "партия", "партии", "партий"),
                pct(p)
            ),
            Lang::English => format!("  simulator ({games} games): civilians {}\n", pct(p)),
        };
    }
    if s.flagged {
        out += &match lang {
            Lang::Ru => format!("  ! доля побед мирных вне {:.0}–{:.0}%\n", 100.0 * FAIR.0, 100.0 * FAIR.1),
            Lang::English => {
                format!("  ! the town's win rate is outside {:.0}–{:.0}%\n", 100.0 * FAIR.0, 100.0 * FAIR.1)
            }
        };
    }
    out
}
