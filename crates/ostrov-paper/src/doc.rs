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
        // CommonMark joins two lists with the same bullet into one: alternate - and *.
        let mut bullet = false;
        if f == Html {
            let title = self.blocks.iter().find_map(|b| match b {
                Block::Heading(_, s) => Some(s.as_str()),
                _ => None,
            });
            out.push_str("<!DOCTYPE html>\n<html lang=\"ru\">\n<head>\n<meta charset=\"utf-8\">\n");
            out.push_str(&format!(
                "<title>{}</title>\n</head>\n<body>\n",
                html_escape(title.unwrap_or("Остров страха"))
            ));
        }
        if matches!(f, Html | HtmlFragment) {
            out.push_str("<article class=\"ostrov-paper\">\n");
        }
        for block in &self.blocks {
            match (f, block) {
                (Markdown | Gfm, Block::Heading(l, s)) => {
                    out.push_str(&format!("{} {}\n\n", "#".repeat(*l as usize), md_escape(s)))
                }
                (Bbcode | BbcodeTables, Block::Heading(1, s)) => {
                    out.push_str(&format!("[size=150][b]{}[/b][/size]\n\n", bb_escape(s)))
                }
                (Bbcode | BbcodeTables, Block::Heading(_, s)) => out.push_str(&format!("[b]{}[/b]\n\n", bb_escape(s))),
                (Html | HtmlFragment, Block::Heading(l, s)) => {
                    out.push_str(&format!("<h{l}>{}</h{l}>\n", html_escape(s)))
                }
                (Plain, Block::Heading(_, s)) => out.push_str(&format!("{s}\n\n")),
                (Html | HtmlFragment, Block::Para(l)) => out.push_str(&format!("<p>{}</p>\n", line(f, l))),
                (_, Block::Para(l)) => out.push_str(&format!("{}\n\n", line(f, l))),
                (Markdown | Gfm | Plain, Block::List(items)) => {
                    list_md(f, items.iter().map(|i| line(f, i)), &mut bullet, &mut out)
                }
                (Bbcode | BbcodeTables, Block::List(items)) => list_bb(items.iter().map(|i| line(f, i)), &mut out),
                (Html | HtmlFragment, Block::List(items)) => {
                    out.push_str("<ul>\n");
                    for i in items {
                        out.push_str(&format!("<li>{}</li>\n", line(f, i)));
                    }
                    out.push_str("</ul>\n");
                }
                (Gfm, Block::Table { head, rows }) => {
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
                // CommonMark and stock phpBB have no tables: the head in bold, then one list
                // item per row, every cell kept and joined by bars (issue 29, point 5).
                (Markdown, Block::Table { head, rows }) => {
                    out.push_str(&format!(
                        "**{}**\n\n",
                        head.iter().map(|h| md_escape(h)).collect::<Vec<_>>().join(" | ")
                    ));
                    list_md(f, rows.iter().map(|r| row(f, r)), &mut bullet, &mut out);
                }
                (Bbcode, Block::Table { head, rows }) => {
                    out.push_str(&format!("[b]{}[/b]\n", bb_escape(&head.join(" | "))));
                    list_bb(rows.iter().map(|r| row(f, r)), &mut out);
                }
                (BbcodeTables, Block::Table { head, rows }) => {
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
                (Html | HtmlFragment, Block::Table { head, rows }) => {
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
                (Markdown | Gfm, Block::Rule) => out.push_str("---\n\n"),
                // phpBB has no [hr]: a line of dashes.
                (Bbcode | BbcodeTables, Block::Rule) => out.push_str("————————————————————\n\n"),
                (Html | HtmlFragment, Block::Rule) => out.push_str("<hr>\n"),
                (Plain, Block::Rule) => out.push_str("----\n\n"),
            }
        }
        if matches!(f, Html | HtmlFragment) {
            out.push_str("</article>\n");
        }
        if f == Html {
            out.push_str("</body>\n</html>\n");
        }
        out
    }
}

fn list_md(f: crate::Format, items: impl Iterator<Item = String>, bullet: &mut bool, out: &mut String) {
    let mark = if *bullet && f != crate::Format::Plain { '*' } else { '-' };
    *bullet = !*bullet;
    let mut any = false;
    for i in items {
        out.push_str(&format!("{mark} {i}\n"));
        any = true;
    }
    if any {
        out.push('\n');
    }
}

fn list_bb(items: impl Iterator<Item = String>, out: &mut String) {
    out.push_str("[list]\n");
    for i in items {
        out.push_str(&format!("[*]{i}\n"));
    }
    out.push_str("[/list]\n\n");
}

/// A table row as one line: every cell, joined by bars, an empty one as «—», so that no
/// cell reads as the next column's (issue 29, point 5).
fn row(f: crate::Format, cells: &[Line]) -> String {
    cells
        .iter()
        .map(|c| line(f, c))
        .map(|c| if c.trim().is_empty() { "—".to_string() } else { c })
        .collect::<Vec<_>>()
        .join(" | ")
}

fn line(f: crate::Format, spans: &[Span]) -> String {
    use crate::Format::*;
    spans
        .iter()
        .map(|s| match (f, s) {
            (Plain, Span::Text(x) | Span::Bold(x) | Span::Italic(x) | Span::Strike(x)) => x.clone(),
            (Markdown | Gfm, Span::Text(x)) => md_escape(x),
            (Markdown | Gfm, Span::Bold(x)) => format!("**{}**", md_escape(x)),
            (Markdown | Gfm, Span::Italic(x)) => format!("*{}*", md_escape(x)),
            // CommonMark has no strike-through: a dead player's name is just not bold.
            (Markdown, Span::Strike(x)) => md_escape(x),
            (Gfm, Span::Strike(x)) => format!("~~{}~~", md_escape(x)),
            (Bbcode | BbcodeTables, Span::Text(x)) => bb_escape(x),
            (Bbcode | BbcodeTables, Span::Bold(x)) => format!("[b]{}[/b]", bb_escape(x)),
            (Bbcode | BbcodeTables, Span::Italic(x)) => format!("[i]{}[/i]", bb_escape(x)),
            (Bbcode, Span::Strike(x)) => format!("[color=#808080]{}[/color]", bb_escape(x)),
            (BbcodeTables, Span::Strike(x)) => format!("[s]{}[/s]", bb_escape(x)),
            (Html | HtmlFragment, Span::Text(x)) => html_escape(x),
            (Html | HtmlFragment, Span::Bold(x)) => format!("<b>{}</b>", html_escape(x)),
            (Html | HtmlFragment, Span::Italic(x)) => format!("<i>{}</i>", html_escape(x)),
            (Html | HtmlFragment, Span::Strike(x)) => format!("<s>{}</s>", html_escape(x)),
        })
        .collect()
}

/// Escapes the characters Markdown would read as markup (names are typed by players).
pub fn md_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '\\' | '*' | '_' | '~' | '`' | '[' | ']' | '<' | '>' | '#' | '|' | '&') {
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
        assert_eq!(d.render(Format::HtmlFragment).lines().nth(1).unwrap(), "<p><b>&lt;script&gt;*x*[b]</b></p>");
        assert!(d.render(Format::Markdown).starts_with("**\\<script\\>\\*x\\*\\[b\\]**"));
        assert!(d.render(Format::Bbcode).starts_with("[b]<script>*x*［b］[/b]"));
    }
}
