//! Russian text: names with their gender and cases, and the sentences built from them.
//!
//! A player's name is a forum nickname as often as a first name (Kot2000, Тётя_Мотя,
//! [Админ]), so no sentence declines a name by guesswork. A name's six forms are known
//! when the host (or the player's profile) gave them, or when it is a common first name
//! of the table in [`names`]; its gender is known when given or when the table knows it.
//! Every sentence is written twice where it must be: with the declined form when the
//! forms are known («Оборотни нападают на Льва»), and otherwise with a construction that
//! keeps the name in the nominative («…нападают на игрока Кот_Бегемот»). A past-tense
//! verb or a role agrees with a known gender («Ясновидящая Маша», «Маша применила
//! Шокер»); with an unknown one the sentence is built so it needs none. Never "(а)".

mod forms;
mod names;

pub use forms::is_form_of;

use std::sync::Arc;

/// A grammatical gender, as a player gives it (`m`/`f`, `м`/`ж`, `male`/`female`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Gender {
    Male,
    Female,
}

impl Gender {
    /// Parses `m`, `f`, `м`, `ж`, `male`, `female`, `муж`, `жен` (any case).
    ///
    /// ```
    /// use ostrov_engine::ru::Gender;
    /// assert_eq!(Gender::parse("Ж"), Some(Gender::Female));
    /// assert_eq!(Gender::parse("male"), Some(Gender::Male));
    /// assert_eq!(Gender::parse("x"), None);
    /// ```
    pub fn parse(s: &str) -> Option<Gender> {
        match s.trim().to_lowercase().as_str() {
            "m" | "м" | "male" | "муж" | "мужской" => Some(Gender::Male),
            "f" | "ж" | "female" | "жен" | "женский" => Some(Gender::Female),
            _ => None,
        }
    }

    /// The canonical id: `m` or `f`.
    pub const fn id(self) -> &'static str {
        match self {
            Gender::Male => "m",
            Gender::Female => "f",
        }
    }
}

/// The six cases, in the order a `forms` list gives them: именительный, родительный,
/// дательный, винительный, творительный, предложный.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Case {
    Nom = 0,
    Gen,
    Dat,
    Acc,
    Ins,
    Prep,
}

/// The longest form of a name accepted (characters).
pub const MAX_FORM: usize = 40;

/// What the text needs to know about a name besides its spelling: the gender and the six
/// forms, when known. Cheap to clone.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Speech {
    pub gender: Option<Gender>,
    pub forms: Option<Arc<[String; 6]>>,
}

/// Why a `gender` or `forms` value is refused (in Russian, for hosts and players).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpeechProblem(pub String);

impl std::fmt::Display for SpeechProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Speech {
    /// Checks what a host or a player gave for the name `name` and fills in what the
    /// first-name table knows: given forms and gender win; a common first name is
    /// declined automatically (its gender too, unless both sexes bear it).
    ///
    /// ```
    /// use ostrov_engine::ru::{Case, Gender, Speech};
    /// let s = Speech::resolve("Лев", None, None).unwrap();
    /// assert_eq!(s.form(Case::Acc), Some("Льва"));
    /// assert_eq!(s.gender, Some(Gender::Male));
    /// assert_eq!(Speech::resolve("Kot2000", None, None).unwrap(), Speech::default());
    /// let e = Speech::resolve("Лев", None, Some(&["Лев".into(), "Льва".into()])).unwrap_err();
    /// assert!(e.to_string().contains("шесть форм"), "{e}");
    /// ```
    pub fn resolve(name: &str, gender: Option<&str>, forms: Option<&[String]>) -> Result<Speech, SpeechProblem> {
        let gender = match gender {
            None => None,
            Some(g) => Some(Gender::parse(g).ok_or_else(|| {
                SpeechProblem(format!(
                    "`gender` = \"{g}\": нужно \"m\" или \"f\" (также \"м\"/\"ж\", \"male\"/\"female\")"
                ))
            })?),
        };
        let forms = match forms {
            None => None,
            Some(list) => Some(Arc::new(check_forms(name, list)?)),
        };
        let auto = if forms.is_none() { names::decline(name) } else { None };
        Ok(match auto {
            Some((g, f)) => Speech { gender: gender.or(g), forms: Some(Arc::new(f)) },
            None => Speech { gender, forms },
        })
    }

    /// The form of a case, when the forms are known.
    pub fn form(&self, c: Case) -> Option<&str> {
        self.forms.as_ref().map(|f| f[c as usize].as_str())
    }
}

fn check_forms(name: &str, list: &[String]) -> Result<[String; 6], SpeechProblem> {
    if list.len() != 6 {
        return Err(SpeechProblem(format!(
            "`forms` должен содержать шесть форм имени по падежам — именительный, родительный, дательный, \
             винительный, творительный, предложный (например, [\"Лев\", \"Льва\", \"Льву\", \"Льва\", \"Львом\", \
             \"Льве\"]), а не {}",
            list.len()
        )));
    }
    let mut out: [String; 6] = Default::default();
    for (k, f) in list.iter().enumerate() {
        let clean = crate::clean_line(f);
        let n = clean.chars().count();
        if n == 0 || n > MAX_FORM {
            return Err(SpeechProblem(format!("`forms`: форма {} пустая или длиннее {MAX_FORM} символов", k + 1)));
        }
        out[k] = clean;
    }
    if crate::name::SeatName::key_of(&out[0]) != crate::name::SeatName::key_of(name) {
        return Err(SpeechProblem(format!(
            "`forms`: первая форма (именительный падеж) \"{}\" должна совпадать с именем \"{name}\"",
            out[0]
        )));
    }
    // The nominative is the name itself, as written in the players list.
    out[0] = name.to_string();
    Ok(out)
}

/// A name as a sentence uses it: the spelling and what is known of its grammar.
#[derive(Clone, Copy, Debug)]
pub struct Who<'a> {
    pub name: &'a str,
    pub speech: &'a Speech,
}

impl<'a> Who<'a> {
    pub fn new(name: &'a str, speech: &'a Speech) -> Who<'a> {
        Who { name, speech }
    }

    pub fn gender(&self) -> Option<Gender> {
        self.speech.gender
    }

    /// Whether the name can be put in any case.
    pub fn declines(&self) -> bool {
        self.speech.forms.is_some()
    }

    /// `m` for a man, `f` for a woman, `none` when the gender is not known.
    pub fn pick<'s>(&self, m: &'s str, f: &'s str, none: &'s str) -> &'s str {
        match self.gender() {
            Some(Gender::Male) => m,
            Some(Gender::Female) => f,
            None => none,
        }
    }
}

/// A piece of a sentence: text, or a player's name (set in bold in the newspapers).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    Text(String),
    Name(String),
}

/// A sentence under construction: the one form every log entry, newspaper line and
/// private message takes before it is written out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Phrase(pub Vec<Piece>);

/// The word «игрок» in each case, for a name that cannot be declined: «у игрока Kot2000».
const PLAYER: [&str; 6] = ["игрок", "игрока", "игроку", "игрока", "игроком", "игроке"];

impl Phrase {
    pub fn new() -> Phrase {
        Phrase::default()
    }

    /// Appends text.
    pub fn t(mut self, s: impl AsRef<str>) -> Phrase {
        let s = s.as_ref();
        if s.is_empty() {
            return self;
        }
        match self.0.last_mut() {
            Some(Piece::Text(last)) => last.push_str(s),
            _ => self.0.push(Piece::Text(s.to_string())),
        }
        self
    }

    /// Appends a name in the nominative.
    pub fn n(mut self, who: Who) -> Phrase {
        self.0.push(Piece::Name(who.name.to_string()));
        self
    }

    /// Appends a name in case `c`: its form when known, else «игрока X» with the word
    /// «игрок» in that case and the name in the nominative.
    pub fn c(mut self, who: Who, c: Case) -> Phrase {
        match who.speech.form(c) {
            Some(f) => {
                self.0.push(Piece::Name(f.to_string()));
                self
            }
            None if c == Case::Nom => self.n(who),
            None => {
                self = self.t(format!("{} ", PLAYER[c as usize]));
                self.n(who)
            }
        }
    }

    /// Appends names in the nominative: «A», «A и B», «A, B и C».
    pub fn list(mut self, names: &[Who]) -> Phrase {
        for (i, w) in names.iter().enumerate() {
            if i > 0 {
                self = self.t(if i + 1 == names.len() { " и " } else { ", " });
            }
            self = self.n(*w);
        }
        self
    }

    /// Appends names in case `c`: «Аню», «Аню и игрока Kot2000».
    pub fn list_c(mut self, names: &[Who], c: Case) -> Phrase {
        for (i, w) in names.iter().enumerate() {
            if i > 0 {
                self = self.t(if i + 1 == names.len() { " и " } else { ", " });
            }
            self = self.c(*w, c);
        }
        self
    }

    /// Appends another phrase.
    pub fn and(mut self, other: Phrase) -> Phrase {
        for p in other.0 {
            self = match p {
                Piece::Text(s) => self.t(s),
                Piece::Name(n) => {
                    self.0.push(Piece::Name(n));
                    self
                }
            };
        }
        self
    }
}

impl std::fmt::Display for Phrase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for p in &self.0 {
            match p {
                Piece::Text(s) | Piece::Name(s) => f.write_str(s)?,
            }
        }
        Ok(())
    }
}

/// The role's name, agreed with a known gender, from the one table of both forms
/// ([`crate::Role::ru_genders`], docs/RUSSIAN.md): «Ясновидящая», «Колдун», «Медбрат».
/// An unknown gender gets the role's own name («Медсестра», «Колдунья»).
pub fn role(r: crate::Role, g: Option<Gender>) -> &'static str {
    match g {
        Some(Gender::Male) => r.ru_genders()[0],
        Some(Gender::Female) => r.ru_genders()[1],
        None => r.ru(),
    }
}

pub mod say;
