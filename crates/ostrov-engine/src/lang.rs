//! The language of what Ostrov says to hosts: Russian first, English on request.

/// A language for messages, errors and labels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    /// Russian, the default.
    #[default]
    Ru,
    English,
}

impl Lang {
    /// The language a `--lang` value asks for or, without one, the locale's (the value of
    /// `LC_ALL`, `LC_MESSAGES` or `LANG`, the first one set): English for `en…`, Russian
    /// otherwise. The engine reads no environment: the caller passes what it found.
    ///
    /// ```
    /// use ostrov_engine::Lang;
    /// assert_eq!(Lang::choose(None, Some("en_US.UTF-8")), Lang::English);
    /// assert_eq!(Lang::choose(Some("ru"), Some("en_US.UTF-8")), Lang::Ru);
    /// assert_eq!(Lang::choose(None, Some("C.UTF-8")), Lang::Ru);
    /// assert_eq!(Lang::choose(None, None), Lang::Ru);
    /// ```
    pub fn choose(flag: Option<&str>, locale: Option<&str>) -> Lang {
        match flag.or(locale).map(|s| s.trim().to_ascii_lowercase()) {
            Some(s) if s.starts_with("en") => Lang::English,
            _ => Lang::Ru,
        }
    }

    /// One of two texts: the Russian or the English one.
    pub fn pick<'a>(self, ru: &'a str, en: &'a str) -> &'a str {
        match self {
            Lang::Ru => ru,
            Lang::English => en,
        }
    }
}
