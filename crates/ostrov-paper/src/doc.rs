//! A tiny document model — headings, paragraphs, lists, tables — and its three renderings:
//! Markdown, BBCode (what forums take) and HTML.

/// A piece of inline text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Span {
    Text(String),
    Bold(String),
    Italic(String),
    /// Crossed out: a dead player's name in the list.
    Strike(String),
}

/// A line of inline text.
pub type Line = Vec<Span>;

/// A block of the document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Block {
    Heading(u8, String),
    Para(Line),
    List(Vec<Line>),
    Table { head: Vec<String>, rows: Vec<Vec<Line>> },
    Rule,
}

/// A document: a newspaper or an inbox.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Doc {
    pub blocks: Vec<Block>,
}

/// Shorthand for plain text.
pub fn t(s: impl Into<String>) -> Span {
    Span::Text(s.into())
}

/// Shorthand for bold text.
pub fn b(s: impl Into<String>) -> Span {
    Span::Bold(s.into())
}

impl Doc {
    pub fn h(&mut self, level: u8, s: impl Into<String>) {
        self.blocks.push(Block::Heading(level, s.into()));
    }

    pub fn p(&mut self, line: Line) {
        self.blocks.push(Block::Para(line));
    }

    pub fn text(&mut self, s: impl Into<String>) {
        self.p(vec![t(s)]);
    }

    pub fn list(&mut self, items: Vec<Line>) {
        if !items.is_empty() {
            self.blocks.push(Block::List(items));
        }
    }

    pub fn table(&mut self, head: &[&str], rows: Vec<Vec<Line>>) {
        self.blocks.push(Block::Table { head: head.iter().map(|s| s.to_string()).collect(), rows });
    }

    pub fn rule(&mut self) {
        self.blocks.push(Block::Rule);
    }

    pub fn append(&mut self, other: Doc) {
        self.blocks.extend(other.blocks);
    }

    /// The text without any markup (for tests and plain output).
    pub fn plain(&self) -> String {
        self.render(crate::Format::Plain)
    }

    /// Renders the document.
    pub fn render(&self, f: crate::Format) -> String {
        use crate::Format::*;
        let mut out = String::new();
        if f == Html {
            out.push_str("<article class=\"ostrov-paper\">\n");
        }
        for block in &self.blocks {
            match (f, block) {
                (Markdown, Block::Heading(l, s)) => {
                    out.push_str(&format!("{} {}\n\n", "#".repeat(*l as usize), md_escape(s)))
                }
                (Bbcode, Block::Heading(1, s)) => {
                    out.push_str(&format!("[size=150][b]{}[/b][/size]\n\n", bb_escape(s)))
                }
                (Bbcode, Block::Heading(_, s)) => out.push_str(&format!("[b]{}[/b]\n\n", bb_escape(s))),
                (Html, Block::Heading(l, s)) => out.push_str(&format!("<h{l}>{}</h{l}>\n", html_escape(s))),
                (Plain, Block::Heading(_, s)) => out.push_str(&format!("{s}\n\n")),
                (Html, Block::Para(l)) => out.push_str(&format!("<p>{}</p>\n", line(f, l))),
                (_, Block::Para(l)) => out.push_str(&format!("{}\n\n", line(f, l))),
                (Markdown | Plain, Block::List(items)) => {
                    for i in items {
                        out.push_str(&format!("- {}\n", line(f, i)));
                    }
                    out.push('\n');
                }
                (Bbcode, Block::List(items)) => {
                    out.push_str("[list]\n");
                    for i in items {
                        out.push_str(&format!("[*]{}\n", line(f, i)));
                    }
                    out.push_str("[/list]\n\n");
                }
                (Html, Block::List(items)) => {
                    out.push_str("<ul>\n");
                    for i in items {
                        out.push_str(&format!("<li>{}</li>\n", line(f, i)));
                    }
                    out.push_str("</ul>\n");
                }
                (Markdown, Block::Table { head, rows }) => {
                    out.push_str(&format!(
                        "| {} |\n",
                        head.iter().map(|h| md_escape(h)).collect::<Vec<_>>().join(" | ")
                    ));
                    out.push_str(&format!("|{}\n", "---|".repeat(head.len())));
                    for r in rows {
                        out.push_str(&format!(
                            "| {} |\n",
                            r.iter().map(|c| line(f, c).replace('|', "\\|")).collect::<Vec<_>>().join(" | ")
                        ));
                    }
                    out.push('\n');
                }
                (Plain, Block::Table { head, rows }) => {
                    out.push_str(&format!("{}\n", head.join(" | ")));
                    for r in rows {
                        out.push_str(&format!("{}\n", r.iter().map(|c| line(f, c)).collect::<Vec<_>>().join(" | ")));
                    }
                    out.push('\n');
                }
                (Bbcode, Block::Table { head, rows }) => {
                    out.push_str("[table]\n[tr]");
                    for h in head {
                        out.push_str(&format!("[td][b]{}[/b][/td]", bb_escape(h)));
                    }
                    out.push_str("[/tr]\n");
                    for r in rows {
                        out.push_str("[tr]");
                        for c in r {
                            out.push_str(&format!("[td]{}[/td]", line(f, c)));
                        }
                        out.push_str("[/tr]\n");
                    }
                    out.push_str("[/table]\n\n");
                }
                (Html, Block::Table { head, rows }) => {
                    out.push_str("<table>\n<thead><tr>");
                    for h in head {
                        out.push_str(&format!("<th>{}</th>", html_escape(h)));
                    }
                    out.push_str("</tr></thead>\n<tbody>\n");
                    for r in rows {
                        out.push_str("<tr>");
                        for c in r {
                            out.push_str(&format!("<td>{}</td>", line(f, c)));
                        }
                        out.push_str("</tr>\n");
                    }
                    out.push_str("</tbody>\n</table>\n");
                }
                (Markdown, Block::Rule) => out.push_str("---\n\n"),
                (Bbcode, Block::Rule) => out.push_str("[hr]\n\n"),
                (Html, Block::Rule) => out.push_str("<hr>\n"),
                (Plain, Block::Rule) => out.push_str("----\n\n"),
            }
        }
        if f == Html {
            out.push_str("</article>\n");
        }
        out
    }
}

fn line(f: crate::Format, spans: &[Span]) -> String {
    use crate::Format::*;
    spans
        .iter()
        .map(|s| match (f, s) {
            (Plain, Span::Text(x) | Span::Bold(x) | Span::Italic(x) | Span::Strike(x)) => x.clone(),
            (Markdown, Span::Text(x)) => md_escape(x),
            (Markdown, Span::Bold(x)) => format!("**{}**", md_escape(x)),
            (Markdown, Span::Italic(x)) => format!("*{}*", md_escape(x)),
            (Markdown, Span::Strike(x)) => format!("~~{}~~", md_escape(x)),
            (Bbcode, Span::Text(x)) => bb_escape(x),
            (Bbcode, Span::Bold(x)) => format!("[b]{}[/b]", bb_escape(x)),
            (Bbcode, Span::Italic(x)) => format!("[i]{}[/i]", bb_escape(x)),
            (Bbcode, Span::Strike(x)) => format!("[s]{}[/s]", bb_escape(x)),
            (Html, Span::Text(x)) => html_escape(x),
            (Html, Span::Bold(x)) => format!("<b>{}</b>", html_escape(x)),
            (Html, Span::Italic(x)) => format!("<i>{}</i>", html_escape(x)),
            (Html, Span::Strike(x)) => format!("<s>{}</s>", html_escape(x)),
        })
        .collect()
}

/// Escapes the characters Markdown would read as markup (names are typed by players).
pub fn md_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '\\' | '*' | '_' | '~' | '`' | '[' | ']' | '<' | '>' | '#' | '|') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// BBCode has no escape: square brackets in names become look-alike brackets.
pub fn bb_escape(s: &str) -> String {
    s.replace('[', "［").replace(']', "］")
}

pub fn html_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Format;

    #[test]
    fn names_cannot_inject_markup() {
        let mut d = Doc::default();
        d.p(vec![b("<script>*x*[b]")]);
        assert_eq!(d.render(Format::Html).lines().nth(1).unwrap(), "<p><b>&lt;script&gt;*x*[b]</b></p>");
        assert!(d.render(Format::Markdown).starts_with("**\\<script\\>\\*x\\*\\[b\\]**"));
        assert!(d.render(Format::Bbcode).starts_with("[b]<script>*x*［b］[/b]"));
    }
}
