//! After the game (issue 33): the review, the players' records and the setups played on
//! the server, on both stores.

mod support;

use ostrov_server::client::Client;
use serde_json::{json, Value};
use support::{error, no_events, ok, Server};

support::both_stores!(
    the_review_is_the_hosts_until_the_end_then_everyones_who_may_see_the_game,
    a_record_counts_won_and_lost_games_and_hides_private_ones_from_outsiders
);

const NAMES: [&str; 4] = ["Аня", "Боря", "Вика", "Гоша"];

/// A started game of four (one werewolf, three passengers, no events): its id and each
/// seat's role id by name.
fn started(
    server: &Server,
    host: &mut Client,
    players: &mut [Client],
    title: &str,
    private: bool,
) -> (i64, Vec<(String, String)>) {
    let mut body = json!({"title": title, "slots": 4, "setup": "werewolf", "seed": 5u64,
                          "deck": ["none", "none", "none", "none"], "rules": {"events": no_events()}});
    if private {
        body["visibility"] = json!("private");
    }
    let g = ok(&host.post("/api/games", body).unwrap());
    let id = g["id"].as_i64().unwrap();
    let invite = g["invite"].as_str().unwrap().to_string();
    for p in players.iter_mut() {
        ok(&p.post(&format!("/api/invites/{invite}/join"), json!({})).unwrap());
    }
    ok(&host.post(&format!("/api/games/{id}/start"), json!({})).unwrap());
    let _ = server;
    (id, support::roles(&ok(&host.get(&format!("/api/games/{id}")).unwrap())))
}

fn wolf(roles: &[(String, String)]) -> String {
    roles.iter().find(|(_, r)| r == "werewolf").unwrap().0.clone()
}

fn seat(name: &str) -> usize {
    NAMES.iter().position(|n| *n == name).unwrap()
}

fn vote(players: &mut [Client], id: i64, by: &str, target: &str) {
    ok(&players[seat(by)].post(&format!("/api/games/{id}/orders"), json!({"act": "vote", "target": target})).unwrap());
}

/// Everyone votes the werewolf (it votes someone else) and the host resolves: the
/// civilians win.
fn civilians_win(host: &mut Client, players: &mut [Client], id: i64, roles: &[(String, String)]) {
    let w = wolf(roles);
    let other = NAMES.iter().find(|n| **n != w).unwrap().to_string();
    for n in NAMES {
        vote(players, id, n, if n == w { &other } else { &w });
    }
    ok(&host.post(&format!("/api/games/{id}/host/resolve"), json!({})).unwrap());
    assert_eq!(ok(&host.get(&format!("/api/games/{id}")).unwrap())["winner"]["id"], "civilians");
}

/// The host removes two passengers, the werewolf votes the third (whose missing vote
/// counts on itself) and the host resolves: the werewolves win.
fn werewolves_win(host: &mut Client, players: &mut [Client], id: i64, roles: &[(String, String)]) {
    let w = wolf(roles);
    let passengers: Vec<String> = roles.iter().filter(|(n, _)| *n != w).map(|(n, _)| n.clone()).collect();
    for p in &passengers[..2] {
        ok(&host.post(&format!("/api/games/{id}/host/remove"), json!({"target": p, "reason": "тест"})).unwrap());
    }
    vote(players, id, &w, &passengers[2]);
    ok(&host.post(&format!("/api/games/{id}/host/resolve"), json!({})).unwrap());
    let report = ok(&host.get(&format!("/api/games/{id}/report")).unwrap());
    assert_eq!(report["winner"], "werewolves", "{report}");
}

fn status(c: &mut Client, path: &str) -> u16 {
    c.get(path).unwrap().status
}

fn the_review_is_the_hosts_until_the_end_then_everyones_who_may_see_the_game() {
    let server = Server::start();
    server.clock.set(support::START + 12 * support::HOUR);
    let mut host = server.user("Ведущий");
    let mut players: Vec<Client> = NAMES.iter().map(|n| server.user(n)).collect();
    let mut outsider = server.user("Чужой");
    let mut anonymous = server.client();

    let (id, roles) = started(&server, &mut host, &mut players, "Открытый остров", false);
    let page = format!("/games/{id}/review");
    let api = format!("/api/games/{id}/review");
    // Before the end: the host's alone; 404 to a player, an outsider and the public.
    assert_eq!(status(&mut players[0], &page), 404);
    assert_eq!(error(&players[0].get(&api).unwrap()), (404, "not_found".into()));
    assert_eq!(status(&mut outsider, &page), 404);
    assert_eq!(status(&mut anonymous, &page), 404);
    assert_eq!(status(&mut players[0], &format!("{page}/game.toml")), 404);
    let early = ok(&host.get(&api).unwrap());
    assert_eq!(early["over"], false);
    assert_eq!(status(&mut host, &page), 200);

    civilians_win(&mut host, &mut players, id, &roles);
    let report = ok(&host.get(&format!("/api/games/{id}/report")).unwrap());
    let ballots = report["days"][0]["ballots"].as_array().unwrap().clone();
    assert_eq!(ballots.len(), 4, "{report}");
    let member = ok(&players[1].get(&api).unwrap());
    assert_eq!(member["over"], true);
    assert_eq!(member["winner"]["id"], "civilians");
    // Every role, to a member, and every vote as the report counted it.
    let shown: Vec<(String, String)> = member["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["name"].as_str().unwrap().to_string(), p["role"]["id"].as_str().unwrap().to_string()))
        .collect();
    assert_eq!(shown, roles);
    let votes: Vec<(String, String)> = member["days"][0]["votes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v["voter"]["name"].as_str().unwrap().to_string(), v["target"]["name"].as_str().unwrap().to_string()))
        .collect();
    let counted: Vec<(String, String)> = ballots
        .iter()
        .map(|b| (b["voter"].as_str().unwrap().to_string(), b["target"].as_str().unwrap().to_string()))
        .collect();
    assert_eq!(votes, counted);
    assert_eq!(member["days"][0]["lynched"][0]["name"], wolf(&roles).as_str());
    assert_eq!(member["days"][0]["orders"].as_array().unwrap().len(), 4, "every vote sent: {member}");
    // The page shows the same, to a player, an outsider and the public of an open game.
    for c in [&mut players[1], &mut outsider, &mut anonymous] {
        let r = c.get(&page).unwrap();
        assert_eq!(r.status, 200, "{}", r.body);
        for (name, role) in &roles {
            let ru = member["players"].as_array().unwrap().iter().find(|p| p["name"] == name.as_str()).unwrap()["role"]
                ["name"]
                .as_str()
                .unwrap()
                .to_string();
            assert!(r.body.contains(&format!("<strong>{name}</strong> — {ru}")), "{name} ({role}): {}", r.body);
        }
        for (voter, target) in &counted {
            assert!(r.body.contains(&format!("{voter} <span class=\"muted\">")), "{voter}");
            assert!(r.body.contains(&format!("→ {target} <span")), "{target}");
        }
        assert!(r.body.contains("<details><summary>Ход развязки"), "the step log, folded");
        assert!(r.body.contains(&format!("/games/{id}/papers/1/evening")), "the day's papers");
    }
    // The downloads: the game file and the thread, without the pack's chat for a civilian.
    let civilian = NAMES.iter().position(|n| *n != wolf(&roles)).unwrap();
    let file = players[civilian].get(&format!("{page}/game.toml")).unwrap();
    assert_eq!(file.status, 200);
    assert!(file.body.contains("[[players]]"), "{}", file.body);
    let w = seat(&wolf(&roles));
    support::web_post(&mut players[w], id, "pack", "Тайный план стаи");
    let thread = players[civilian].get(&format!("/games/{id}/thread.md")).unwrap();
    assert_eq!(thread.status, 200, "{}", thread.body);
    assert!(!thread.body.contains("Логово стаи") && !thread.body.contains("Тайный план"), "{}", thread.body);

    // A private game: 404 to an outsider for good, the review to its members once over.
    let (pid, proles) = started(&server, &mut host, &mut players, "Закрытый остров", true);
    civilians_win(&mut host, &mut players, pid, &proles);
    assert_eq!(status(&mut outsider, &format!("/games/{pid}/review")), 404);
    assert_eq!(status(&mut anonymous, &format!("/games/{pid}/review")), 404);
    assert_eq!(error(&outsider.get(&format!("/api/games/{pid}/review")).unwrap()).0, 404);
    assert_eq!(status(&mut players[2], &format!("/games/{pid}/review")), 200);
}

fn role_of(roles: &[(String, String)], name: &str) -> String {
    roles.iter().find(|(n, _)| n == name).unwrap().1.clone()
}

fn a_record_counts_won_and_lost_games_and_hides_private_ones_from_outsiders() {
    let server = Server::start();
    server.clock.set(support::START + 12 * support::HOUR);
    let mut host = server.user("Ведущий");
    let mut players: Vec<Client> = NAMES.iter().map(|n| server.user(n)).collect();
    let mut outsider = server.user("Чужой");

    let (open, open_roles) = started(&server, &mut host, &mut players, "Открытый остров", false);
    civilians_win(&mut host, &mut players, open, &open_roles);
    let (private, private_roles) = started(&server, &mut host, &mut players, "Тайный остров", true);
    werewolves_win(&mut host, &mut players, private, &private_roles);
    // Someone who was a passenger both times: won the first game, lost the second.
    let name = NAMES
        .iter()
        .find(|n| role_of(&open_roles, n) == "passenger" && role_of(&private_roles, n) == "passenger")
        .expect("a passenger in both games")
        .to_string();
    let me = &mut players[seat(&name)];
    let r = ok(&me.get(&format!("/api/users/{name}/stats")).unwrap());
    assert_eq!((r["games"].as_u64(), r["wins"].as_u64()), (Some(2), Some(1)), "{r}");
    assert_eq!(r["by_side"]["civilians"], json!({"games": 2, "wins": 1}), "{r}");
    assert_eq!(r["by_role"]["passenger"], json!({"games": 2, "wins": 1}), "{r}");
    let ids: Vec<i64> = r["recent"].as_array().unwrap().iter().map(|g| g["id"].as_i64().unwrap()).collect();
    assert_eq!(ids, [private, open], "newest first");
    assert_eq!(r["recent"][1]["review"], format!("/games/{open}/review"));
    // The werewolf of the private game: its win (and the open game's loss, if it was the
    // werewolf there too) by side and by role.
    let w = wolf(&private_roles);
    let wr = ok(&players[seat(&w)].get(&format!("/api/users/{w}/stats")).unwrap());
    let wolf_games = 1 + u64::from(wolf(&open_roles) == w);
    assert_eq!(wr["by_side"]["werewolves"], json!({"games": wolf_games, "wins": 1}), "{wr}");
    assert_eq!(wr["by_role"]["werewolf"], json!({"games": wolf_games, "wins": 1}), "{wr}");

    // An outsider sees the open game only, on the API and on the page.
    let o = ok(&outsider.get(&format!("/api/users/{name}/stats")).unwrap());
    assert_eq!((o["games"].as_u64(), o["wins"].as_u64()), (Some(1), Some(1)), "{o}");
    assert!(!o.to_string().contains("Тайный"), "{o}");
    let page = outsider.get(&format!("/users/{name}")).unwrap();
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("Открытый остров") && !page.body.contains("Тайный остров"), "{}", page.body);
    assert!(!page.body.contains(&format!("/games/{private}/")), "{}", page.body);
    let public = server.client().get(&format!("/users/{name}")).unwrap();
    assert!(public.status == 200 && !public.body.contains("Тайный остров"), "{}", public.body);
    // A name nobody has: 404 in Russian.
    let (code, _) = error(&outsider.get("/api/users/Никто/stats").unwrap());
    assert_eq!(code, 404);
    assert!(outsider.get("/api/users/Никто/stats").unwrap().body.contains("Игрока «Никто» на сервере нет"));

    // The setups: both games played the same setup; the outsider counts the open one only.
    let all = ok(&host.get("/api/stats").unwrap());
    assert_eq!(all.as_array().unwrap().len(), 1, "{all}");
    assert_eq!(all[0]["games"], 2);
    assert_eq!((all[0]["civilians"]["wins"].as_u64(), all[0]["werewolves"]["wins"].as_u64()), (Some(1), Some(1)));
    assert_eq!(all[0]["players"], 4);
    assert_eq!(all[0]["roles"], json!({"passenger": 3, "werewolf": 1}));
    let seen = ok(&outsider.get("/api/stats").unwrap());
    assert_eq!((seen[0]["games"].as_u64(), seen[0]["civilians"]["wins"].as_u64()), (Some(1), Some(1)), "{seen}");
    let stats = outsider.get("/stats").unwrap();
    assert_eq!(stats.status, 200);
    assert!(stats.body.contains("4 игрока") && stats.body.contains("1 игра"), "{}", stats.body);

    // After a restart the results are read, not folded again: the same record.
    let before: Value = r;
    let mut server = server;
    server.restart();
    let mut me = Client { addr: server.addr, ..players.swap_remove(seat(&name)) };
    assert_eq!(ok(&me.get(&format!("/api/users/{name}/stats")).unwrap()), before);
}
