//! Plain-text and Markdown tables, and how numbers are written in them.

use std::fmt::Write;

/// Alignment of a column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Align {
    Left,
    Right,
}

/// A table of strings rendered as aligned text or as a Markdown table.
/// The cells are kept in one string (a context view of a million rows has
/// fifteen million cells: one allocation each cost more memory than the run
/// that wrote the profile).
#[derive(Clone, Debug, Default)]
pub(crate) struct Table {
    headers: Vec<String>,
    align: Vec<Align>,
    /// Every cell of every row, in order, one after the other.
    cells: String,
    /// Where each cell ends in `cells`.
    ends: Vec<usize>,
}

impl Table {
    pub(crate) fn new() -> Table {
        Table::default()
    }

    pub(crate) fn column(&mut self, header: impl Into<String>, align: Align) -> &mut Table {
        self.headers.push(header.into());
        self.align.push(align);
        self
    }

    pub(crate) fn row(&mut self, cells: Vec<String>) {
        debug_assert_eq!(cells.len(), self.headers.len());
        for c in cells {
            self.cells.push_str(&c);
            self.ends.push(self.cells.len());
        }
    }

    /// The rows, each a list of its cells.
    fn rows(&self) -> impl Iterator<Item = Vec<&str>> + '_ {
        let n = self.headers.len().max(1);
        self.ends.chunks(n).enumerate().map(move |(r, ends)| {
            let mut start = if r == 0 { 0 } else { self.ends[r * n - 1] };
            ends.iter()
                .map(|&end| {
                    let cell = &self.cells[start..end];
                    start = end;
                    cell
                })
                .collect()
        })
    }

    /// Columns separated by two spaces, a header line, no trailing spaces.
    /// Widths count characters, not bytes.
    pub(crate) fn render_text(&self, out: &mut String) {
        let mut width: Vec<usize> = self.headers.iter().map(|h| h.chars().count()).collect();
        for row in self.rows() {
            for (w, cell) in width.iter_mut().zip(row) {
                *w = (*w).max(cell.chars().count());
            }
        }
        let headers = self.headers.iter().map(String::as_str).collect();
        let mut line = String::new();
        for row in std::iter::once(headers).chain(self.rows()) {
            line.clear();
            for (i, cell) in row.iter().enumerate() {
                if i > 0 {
                    line.push_str("  ");
                }
                let pad = width[i] - cell.chars().count();
                match self.align[i] {
                    Align::Right => {
                        line.push_str(&" ".repeat(pad));
                        line.push_str(cell);
                    }
                    Align::Left => {
                        line.push_str(cell);
                        line.push_str(&" ".repeat(pad));
                    }
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }

    /// A GitHub-flavoured Markdown table; cells are escaped.
    pub(crate) fn render_markdown(&self, out: &mut String) {
        let line = |cells: &[&str]| {
            let cells: Vec<String> = cells.iter().map(|c| markdown_escape(c)).collect();
            format!("| {} |\n", cells.join(" | "))
        };
        let headers: Vec<&str> = self.headers.iter().map(String::as_str).collect();
        out.push_str(&line(&headers));
        let rule: Vec<&str> = self
            .align
            .iter()
            .map(|a| match a {
                Align::Left => ":---",
                Align::Right => "---:",
            })
            .collect();
        out.push_str(&format!("| {} |\n", rule.join(" | ")));
        for row in self.rows() {
            out.push_str(&line(&row));
        }
    }
}

/// Escapes the characters that Markdown would take as markup (C++ names
/// carry `<`, `*`, `_` and `[]`; a `<` could open an HTML tag).
pub(crate) fn markdown_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '<' | '|' | '[' | ']' | '~' | '#'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `1234567` → `1,234,567`.
pub(crate) fn count(n: u64) -> String {
    group(&n.to_string())
}

/// A change with its sign: `+1,234`, `-5`, `0`.
pub(crate) fn signed(n: i128) -> String {
    let digits = group(&n.unsigned_abs().to_string());
    match n.signum() {
        1 => format!("+{digits}"),
        -1 => format!("-{digits}"),
        _ => digits,
    }
}

fn group(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `part` as a percentage of `whole`, `0.0` when `whole` is 0.
pub(crate) fn percent_of(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 * 100.0 / whole as f64
    }
}

/// A percentage an option may hold: finite and not negative.
pub(crate) fn is_percentage(p: f64) -> bool {
    p.is_finite() && p >= 0.0
}

/// `12.34%`.
pub(crate) fn pct(p: f64) -> String {
    format!("{p:.2}%")
}

/// A relative change: `+1.23%`, `-0.50%`, `0.00%`; `new` when the old
/// value was 0 (no percentage exists).
pub(crate) fn signed_pct(p: Option<f64>) -> String {
    match p {
        None => "new".into(),
        Some(p) if p > 0.0 => format!("+{p:.2}%"),
        Some(p) => format!("{p:.2}%"),
    }
}

/// Cost per call with one decimal, `-` without calls.
pub(crate) fn per_call(cost: u64, calls: u64) -> String {
    if calls == 0 {
        "-".into()
    } else {
        let mut s = String::new();
        let _ = write!(s, "{:.1}", cost as f64 / calls as f64);
        let (int, frac) = s.split_once('.').unwrap_or((&s, "0"));
        format!("{}.{frac}", group(int))
    }
}

/// Rounds a percentage for JSON output to 4 decimals, so that outputs do
/// not carry floating-point noise (`33.3333`, not `33.333333333333336`).
pub(crate) fn round_pct(p: f64) -> f64 {
    (p * 10_000.0).round() / 10_000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(1000), "1,000");
        assert_eq!(count(1234567), "1,234,567");
        assert_eq!(signed(-1234), "-1,234");
        assert_eq!(signed(12), "+12");
        assert_eq!(signed(0), "0");
        assert_eq!(signed_pct(Some(1.0 / 3.0)), "+0.33%");
        assert_eq!(signed_pct(Some(-2.0)), "-2.00%");
        assert_eq!(signed_pct(None), "new");
        assert_eq!(per_call(1234567, 2), "617,283.5");
        assert_eq!(per_call(5, 0), "-");
        assert_eq!(round_pct(100.0 / 3.0), 33.3333);
    }

    #[test]
    fn tables() {
        let mut t = Table::new();
        t.column("n", Align::Right).column("name", Align::Left);
        t.row(vec!["1,000".into(), "a_b<int>".into()]);
        t.row(vec!["7".into(), "c".into()]);
        let mut text = String::new();
        t.render_text(&mut text);
        assert_eq!(text, "    n  name\n1,000  a_b<int>\n    7  c\n");
        let mut md = String::new();
        t.render_markdown(&mut md);
        assert_eq!(
            md,
            "| n | name |\n| ---: | :--- |\n| 1,000 | a\\_b\\<int> |\n| 7 | c |\n"
        );
    }
}
