//! Output formats.

/// How a newspaper is written out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Markdown (the default).
    Markdown,
    /// BBCode, as phpBB, vBulletin and most forums take it.
    Bbcode,
    /// An HTML fragment (`<article>`), for the web pages.
    Html,
    /// Text without markup.
    Plain,
}

impl Format {
    pub const ALL: [Format; 4] = [Format::Markdown, Format::Bbcode, Format::Html, Format::Plain];

    pub const fn id(self) -> &'static str {
        match self {
            Format::Markdown => "markdown",
            Format::Bbcode => "bbcode",
            Format::Html => "html",
            Format::Plain => "plain",
        }
    }
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Format, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "markdown" | "md" => Ok(Format::Markdown),
            "bbcode" | "bb" => Ok(Format::Bbcode),
            "html" => Ok(Format::Html),
            "plain" | "text" | "txt" => Ok(Format::Plain),
            _ => Err(format!("unknown format \"{s}\" (known: markdown, bbcode, html, plain)")),
        }
    }
}
