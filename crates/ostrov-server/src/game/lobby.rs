//! The lobby: who takes which seat under which name, before the start.

use ostrov_engine::fold_name;

use super::event::SeatSpeech;
use super::state::{state, GameState, Member, Refused, Status};

pub use super::topic::invisible;

/// What a player whose profile forms were left out at the start is told (issue 28, point 6).
pub fn dropped_forms_ru(dropped: &[String]) -> String {
    let list = dropped.iter().map(|f| format!("«{f}»")).collect::<Vec<_>>().join(", ");
    format!(
        "Формы вашего имени из профиля не взяты в эту игру: {list} — имя или форма имени другого участника \
         (или выглядит так же) либо не форма вашего имени. Газеты склоняют ваше имя сами, если знают его, \
         или пишут его в именительном падеже."
    )
}

impl GameState {
    /// The seats' gender and forms as the game starts with them, from their accounts'
    /// profiles (issue 28, point 6): a seat's forms 2–6 that are no forms of its name
    /// ([`ostrov_engine::ru::is_form_of`]: a profile saved before the rule), or that are, or
    /// look like ([`ostrov_engine::skeleton`]), another seat's name or one of its forms
    /// (given, or the engine's own declension), or the host's name, are dropped, all six
    /// (the engine declines the name itself then, or keeps it in the nominative), and
    /// listed in `dropped` for the player to be told. The gender stays.
    pub fn speech_at_start(&self, host_name: Option<&str>, mut speech: Vec<SeatSpeech>) -> Vec<SeatSpeech> {
        use ostrov_engine::skeleton;
        // Every name and form a seat is printed as: its name, its given forms, the engine's.
        let printed: Vec<Vec<String>> = self
            .members
            .iter()
            .zip(&speech)
            .map(|(m, s)| {
                let mut keys = vec![skeleton(&m.name)];
                keys.extend(s.forms.iter().flatten().map(|f| skeleton(f)));
                if let Ok(auto) = ostrov_engine::ru::Speech::resolve(&m.name, None, None) {
                    keys.extend(auto.forms.iter().flat_map(|f| f.iter()).map(|f| skeleton(f)));
                }
                keys
            })
            .collect();
        let host = host_name.map(skeleton);
        for (i, s) in speech.iter_mut().enumerate() {
            let Some(forms) = &s.forms else { continue };
            let name = &self.members[i].name;
            let bad: Vec<String> = forms
                .iter()
                .skip(1)
                .filter(|f| {
                    let k = skeleton(f);
                    // A bot's forms are the server's own («Бота Глеба»), not a player's.
                    !(self.members[i].is_bot() || ostrov_engine::ru::is_form_of(name, f))
                        || host.as_ref() == Some(&k)
                        || printed.iter().enumerate().any(|(j, keys)| j != i && keys.contains(&k))
                })
                .cloned()
                .collect();
            if !bad.is_empty() {
                s.forms = None;
                s.dropped = bad;
            }
        }
        speech
    }

    /// A new seat's name as it will be shown ([`ostrov_engine::clean_name`]), checked
    /// against the seats already taken by its skeleton: look-alikes (case, ё/е, Latin and
    /// Cyrillic letters that look the same, full-width forms, invisible characters, NFD)
    /// are one name, and the host's names (`host`, `ведущий`, `автор`) are reserved.
    /// Checked when a player joins, not in the fold (an old log stays as it was).
    pub fn seat_name(&self, name: &str) -> Result<String, Refused> {
        if name.chars().any(invisible) {
            return Err(state("bad_name", "Имя игрока не должно содержать невидимых и управляющих символов."));
        }
        let name = ostrov_engine::clean_name(name).map_err(|e| {
            state("bad_name", format!("Неверное имя игрока: {e}. Нужно от 1 до 40 символов, с буквой или цифрой."))
        })?;
        let key = ostrov_engine::skeleton(&name);
        if ["host", "ведущий", "автор"].iter().any(|r| ostrov_engine::skeleton(r) == key) {
            return Err(state("bad_name", "Это имя зарезервировано за ведущим."));
        }
        if let Some(m) = self.members.iter().find(|m| ostrov_engine::skeleton(&m.name) == key) {
            return Err(state(
                "name_taken",
                format!("Имя «{name}» в этой игре уже занято: оно совпадает с «{}» или выглядит так же.", m.name),
            ));
        }
        Ok(name)
    }

    /// Whether `user` may take a seat under `name` now.
    pub(super) fn decide_join(&self, user: i64, name: &str) -> Result<Member, Refused> {
        if self.status != Status::Lobby {
            return Err(state("started", "Игра уже началась: присоединиться нельзя."));
        }
        if user == self.host {
            return Err(state("host_cannot_play", "Ведущий не может быть игроком своей игры."));
        }
        if self.seat_of(user).is_some() {
            return Err(state("already_joined", "Вы уже в этой игре."));
        }
        if self.members.len() >= self.config.slots {
            return Err(state("full", "Все места в игре заняты."));
        }
        let name = name.trim();
        if name.is_empty() || name.chars().count() > 40 || name.chars().any(char::is_control) {
            return Err(state("bad_name", "Имя игрока должно быть от 1 до 40 символов, без управляющих символов."));
        }
        let f = fold_name(name);
        if f == "host" || f == "ведущий" || f == "автор" {
            return Err(state("bad_name", "Это имя зарезервировано за ведущим."));
        }
        if self.members.iter().any(|m| fold_name(&m.name) == f) {
            return Err(state("name_taken", format!("Имя «{name}» в этой игре уже занято.")));
        }
        Ok(Member { user, name: name.to_string(), bot: None })
    }
}
