//! Plain-text and Markdown tables, and how numbers are written in them.

use std::fmt::Write;

/// Alignment of a column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Align {
    Left,
    Right,
}

/// How a column gives way when a text table is wider than the terminal
/// ([`Table::render_text_fit`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fit {
    /// Always shown in full.
    Keep,
    /// A name: shortened in the middle (`std::vec…::push`), never below
    /// [`MIN_NAME`] characters.
    Shrink,
    /// Hidden when the table does not fit; the highest rank goes first
    /// (the rightmost among equals).
    Drop(u8),
}

/// The width a name column keeps before any column is hidden.
const WIDE_NAME: usize = 40;
/// The narrowest a name column gets.
pub(crate) const MIN_NAME: usize = 16;

/// A table of strings rendered as aligned text or as a Markdown table.
/// The cells are kept in one string (a context view of a million rows has
/// fifteen million cells: one allocation each cost more memory than the run
/// that wrote the profile).
#[derive(Clone, Debug, Default)]
pub(crate) struct Table {
    headers: Vec<String>,
    align: Vec<Align>,
    fit: Vec<Fit>,
    /// The label over a run of columns (a metric over its `self`, `%`,
    /// `incl`), printed on a line above the headers.
    groups: Vec<Option<String>>,
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
        self.fit.push(Fit::Keep);
        self.groups.push(None);
        self
    }

    /// Puts the column added last under `label` (consecutive columns with
    /// the same label share it).
    pub(crate) fn group(&mut self, label: &str) -> &mut Table {
        if let Some(g) = self.groups.last_mut() {
            *g = Some(label.to_string());
        }
        self
    }

    /// Three columns per metric under the metric's name (`headers`, e.g.
    /// self, %, incl); those of every metric but the first may be hidden
    /// to fit a terminal, in the order `headers` gives, last first.
    pub(crate) fn metric_columns(&mut self, names: &[String], headers: [&str; 3]) -> &mut Table {
        for (k, name) in names.iter().enumerate() {
            for (rank, header) in (1..).zip(headers) {
                let fit = if k == 0 { Fit::Keep } else { Fit::Drop(rank) };
                self.column(header, Align::Right).group(name).fit(fit);
            }
        }
        self
    }

    /// A column's full name: its header, and its group's label if any.
    fn full_header(&self, i: usize) -> String {
        match &self.groups[i] {
            Some(g) => format!("{} {g}", self.headers[i]),
            None => self.headers[i].clone(),
        }
    }

    /// How the column added last gives way to a narrow terminal.
    pub(crate) fn fit(&mut self, fit: Fit) -> &mut Table {
        if let Some(f) = self.fit.last_mut() {
            *f = fit;
        }
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
        self.render_text_fit(out, None);
    }

    /// [`Table::render_text`] within `width` characters a line (`None`: no
    /// limit): name columns ([`Fit::Shrink`]) are first shortened to
    /// [`WIDE_NAME`] characters, then [`Fit::Drop`] columns hidden, highest
    /// rank first, then names shortened down to [`MIN_NAME`]. Returns the
    /// headers of the hidden columns, for the view to say so. A table whose
    /// kept columns alone are wider is printed that wide.
    pub(crate) fn render_text_fit(&self, out: &mut String, width: Option<usize>) -> Vec<String> {
        let mut natural: Vec<usize> = self.headers.iter().map(|h| h.chars().count()).collect();
        for row in self.rows() {
            for (w, cell) in natural.iter_mut().zip(row) {
                *w = (*w).max(cell.chars().count());
            }
        }
        self.widen_for_groups(&mut natural, &[true].repeat(self.headers.len()));
        let mut shown = vec![true; self.headers.len()];
        let mut cols = natural.clone();
        if let Some(limit) = width {
            self.fit_columns(limit, &natural, &mut cols, &mut shown);
            self.widen_for_groups(&mut cols, &shown);
        }
        let mut line = String::new();
        if self.groups.iter().any(Option::is_some) {
            // The group line: each label right-aligned over its run.
            let mut first = true;
            let mut i = 0;
            while i < cols.len() {
                if !shown[i] {
                    i += 1;
                    continue;
                }
                let mut j = i + 1;
                let mut span = cols[i];
                while j < cols.len() && self.groups[i].is_some() && self.groups[j] == self.groups[i]
                {
                    if shown[j] {
                        span += 2 + cols[j];
                    }
                    j += 1;
                }
                if !first {
                    line.push_str("  ");
                }
                first = false;
                match self.groups[i].as_deref() {
                    // `--- label ---` over the run, centred.
                    Some(label) => {
                        let n = label.chars().count();
                        if span >= n + 2 {
                            let left = (span - n - 2) / 2;
                            let right = span - n - 2 - left;
                            line.push_str(&"-".repeat(left));
                            line.push(' ');
                            line.push_str(label);
                            line.push(' ');
                            line.push_str(&"-".repeat(right));
                        } else {
                            line.push_str(&" ".repeat(span - n));
                            line.push_str(label);
                        }
                    }
                    None => line.push_str(&" ".repeat(span)),
                }
                i = j;
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        let headers = self.headers.iter().map(String::as_str).collect();
        for row in std::iter::once(headers).chain(self.rows()) {
            line.clear();
            let mut first = true;
            for (i, cell) in row.iter().enumerate() {
                if !shown[i] {
                    continue;
                }
                if !first {
                    line.push_str("  ");
                }
                first = false;
                let short;
                let cell = if cell.chars().count() > cols[i] {
                    short = shorten_middle(cell, cols[i]);
                    short.as_str()
                } else {
                    cell
                };
                let pad = cols[i] - cell.chars().count();
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
        (0..self.headers.len())
            .filter(|&i| !shown[i])
            .map(|i| self.full_header(i))
            .collect()
    }

    /// Widens the last shown column of each group run so that the run is
    /// as wide as its label.
    fn widen_for_groups(&self, cols: &mut [usize], shown: &[bool]) {
        let mut i = 0;
        while i < cols.len() {
            let Some(label) = &self.groups[i] else {
                i += 1;
                continue;
            };
            let mut j = i;
            let (mut span, mut last) = (0, None);
            while j < cols.len() && self.groups[j].as_ref() == Some(label) {
                if shown[j] {
                    span += cols[j] + if last.is_some() { 2 } else { 0 };
                    last = Some(j);
                }
                j += 1;
            }
            if let Some(l) = last {
                cols[l] += label.chars().count().saturating_sub(span);
            }
            i = j;
        }
    }

    /// The widths (`cols`) and shown columns that fit `limit`, by the rule
    /// of [`Table::render_text_fit`].
    fn fit_columns(&self, limit: usize, natural: &[usize], cols: &mut [usize], shown: &mut [bool]) {
        // The width of a line, the widening for group labels included.
        let total = |cols: &[usize], shown: &[bool]| {
            let mut cols = cols.to_vec();
            self.widen_for_groups(&mut cols, shown);
            let n = shown.iter().filter(|&&s| s).count();
            cols.iter()
                .zip(shown)
                .filter(|(_, &s)| s)
                .map(|(w, _)| w)
                .sum::<usize>()
                + 2 * n.saturating_sub(1)
        };
        let shrink = |cols: &mut [usize], shown: &[bool], floor: usize| {
            for i in 0..cols.len() {
                let over = total(cols, shown).saturating_sub(limit);
                if over == 0 {
                    break;
                }
                if self.fit[i] == Fit::Shrink && shown[i] {
                    let least = floor.min(natural[i]).max(self.headers[i].chars().count());
                    cols[i] = cols[i].saturating_sub(over).max(least);
                }
            }
        };
        shrink(cols, shown, WIDE_NAME);
        let mut droppable: Vec<(u8, usize)> = (0..cols.len())
            .filter_map(|i| match self.fit[i] {
                Fit::Drop(rank) => Some((rank, i)),
                _ => None,
            })
            .collect();
        droppable.sort_by(|a, b| b.cmp(a));
        for (_, i) in droppable {
            if total(cols, shown) <= limit {
                break;
            }
            shown[i] = false;
        }
        // Give hidden columns' room back to the names before shortening further.
        for i in 0..cols.len() {
            if self.fit[i] == Fit::Shrink {
                let room = limit.saturating_sub(total(cols, shown));
                cols[i] = (cols[i] + room).min(natural[i]);
            }
        }
        shrink(cols, shown, MIN_NAME);
    }

    /// A GitHub-flavoured Markdown table; cells are escaped.
    pub(crate) fn render_markdown(&self, out: &mut String) {
        let line = |cells: &[&str]| {
            let cells: Vec<String> = cells.iter().map(|c| markdown_escape(c)).collect();
            format!("| {} |\n", cells.join(" | "))
        };
        let full: Vec<String> = (0..self.headers.len())
            .map(|i| self.full_header(i))
            .collect();
        let headers: Vec<&str> = full.iter().map(String::as_str).collect();
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

/// What a text view's heading adds when `--top` cut rows: how to see them.
pub(crate) fn more_rows(shown: usize, all: usize) -> &'static str {
    if shown < all {
        " (--top 0 shows all)"
    } else {
        ""
    }
}

/// The line a text view ends with when columns were hidden to fit `width`
/// (empty when none was).
pub(crate) fn hidden_note(hidden: &[String], width: Option<usize>) -> String {
    match (hidden, width) {
        ([], _) | (_, None) => String::new(),
        (h, Some(w)) => {
            let note = format!(
                "Hidden to fit {w} columns: {} (--width 0 shows every column)",
                h.join(", ")
            );
            format!("\n{}", wrap(&note, w))
        }
    }
}

/// `text` broken into lines of at most `width` characters at spaces (a
/// longer word gets a line of its own), each ending in a newline.
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// `text` in `width` characters: its beginning and end around `…`, the
/// leading spaces (a tree's indentation) kept as they are when room allows.
pub(crate) fn shorten_middle(text: &str, width: usize) -> String {
    let n = text.chars().count();
    if n <= width {
        return text.to_string();
    }
    if width == 0 {
        return String::new();
    }
    let indent = text.chars().take_while(|&c| c == ' ').count();
    let indent = if width > indent + 3 { indent } else { 0 };
    let body: Vec<char> = text.chars().skip(indent).collect();
    let room = width - indent - 1;
    let head = room.div_ceil(2);
    let tail = room - head;
    let mut out = " ".repeat(indent);
    out.extend(&body[..head]);
    out.push('…');
    out.extend(&body[body.len() - tail..]);
    out
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

/// A percent of a whole (a share of a metric's total): 0 to 100.
pub(crate) fn is_share(p: f64) -> bool {
    is_percentage(p) && p <= 100.0
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
        let mut narrow = String::new();
        t.render_text_fit(&mut narrow, Some(10));
        assert_eq!(
            narrow, "    n  name\n1,000  a_b<int>\n    7  c\n",
            "names keep their header's width"
        );
        let mut md = String::new();
        t.render_markdown(&mut md);
        assert_eq!(
            md,
            "| n | name |\n| ---: | :--- |\n| 1,000 | a\\_b\\<int> |\n| 7 | c |\n"
        );
    }

    #[test]
    fn narrow_terminals() {
        let mut t = Table::new();
        t.column("function", Align::Left).fit(Fit::Shrink);
        t.column("n", Align::Right);
        t.column("file:line", Align::Left).fit(Fit::Drop(2));
        t.column("object", Align::Left).fit(Fit::Drop(3));
        t.row(vec![
            "std::vector<int, std::allocator<int> >::_M_realloc_insert".into(),
            "12,345".into(),
            "stl_vector.h:1287".into(),
            "prog".into(),
        ]);
        let mut all = String::new();
        assert!(t.render_text_fit(&mut all, None).is_empty());
        assert_eq!(
            all.lines().nth(1).unwrap().chars().count(),
            57 + 2 + 6 + 2 + 17 + 2 + 4
        );
        // The name gives way to 40 characters first, then the object goes.
        let mut out = String::new();
        let hidden = t.render_text_fit(&mut out, Some(70));
        assert_eq!(hidden, ["object"]);
        assert_eq!(
            out,
            "function                                          n  file:line\n\
             std::vector<int, std:… >::_M_realloc_insert  12,345  stl_vector.h:1287\n"
        );
        for line in out.lines() {
            assert!(line.chars().count() <= 70, "{line}");
        }
        let mut out = String::new();
        let hidden = t.render_text_fit(&mut out, Some(30));
        assert_eq!(hidden, ["file:line", "object"]);
        assert_eq!(
            out.lines().nth(1).unwrap(),
            "std::vector…loc_insert  12,345"
        );
        assert_eq!(shorten_middle("    abcdefghij", 10), "    abc…ij");
        assert_eq!(shorten_middle("abc", 2), "a…");
    }
}
