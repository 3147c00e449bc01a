//! The documents: README.md stays short, and every relative link in
//! README.md and docs/*.md leads to a file that exists (and, with a
//! `#fragment` into a Markdown file, to one of its headings).

use std::path::{Path, PathBuf};

use crate::common::repo;

/// README.md is for users; the rest lives in docs/.
const README_MAX_LINES: usize = 250;

#[test]
fn readme_is_short() {
    let text = std::fs::read_to_string(repo().join("README.md")).expect("read README.md");
    let lines = text.lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines, more than {README_MAX_LINES}: move details to docs/"
    );
}

#[test]
fn relative_links_lead_to_files_and_headings() {
    let root = repo();
    let mut files = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("read docs/")
        .map(|e| e.expect("docs/ entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);

    let mut broken = Vec::new();
    let mut checked = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).expect("read a document");
        for (line, target) in links(&text) {
            if is_external(&target) {
                continue;
            }
            checked += 1;
            let (path, fragment) = match target.split_once('#') {
                Some((p, f)) => (p, Some(f)),
                None => (target.as_str(), None),
            };
            let dest = if path.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap().join(path)
            };
            let name = format!("{}:{line}: {target}", rel(&root, file));
            if !dest.exists() {
                broken.push(format!("{name}: no such file"));
                continue;
            }
            if let Some(fragment) = fragment {
                if dest.extension().is_some_and(|e| e == "md") {
                    let text = std::fs::read_to_string(&dest).expect("read a link's target");
                    if !headings(&text).iter().any(|h| h == fragment) {
                        broken.push(format!("{name}: no heading `#{fragment}`"));
                    }
                }
            }
        }
    }
    assert!(checked > 0, "no relative link found: is the parser broken?");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

fn rel(root: &Path, file: &Path) -> String {
    file.strip_prefix(root)
        .unwrap_or(file)
        .display()
        .to_string()
}

fn is_external(target: &str) -> bool {
    target.contains("://") || target.starts_with("mailto:")
}

/// The targets of `[text](target)` links outside fenced code blocks and
/// inline code, with their line numbers.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fenced = false;
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        // Fenced and indented code blocks hold no links.
        if fenced || line.starts_with("    ") {
            continue;
        }
        let mut in_code = false;
        let bytes = line.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'`' => in_code = !in_code,
                b']' if !in_code && bytes.get(i + 1) == Some(&b'(') => {
                    if let Some(end) = line[i + 2..].find(')') {
                        let target = line[i + 2..i + 2 + end].trim();
                        // `[a](b "title")`: the target is the first word.
                        let target = target.split_whitespace().next().unwrap_or("");
                        if !target.is_empty() {
                            out.push((n + 1, target.to_string()));
                        }
                        i += 2 + end;
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }
    out
}

/// The anchors GitHub makes of a Markdown file's headings: lower case,
/// punctuation other than `-` and `_` dropped, spaces made `-`, repeats
/// numbered `-1`, `-2`, ...
fn headings(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#').trim();
        let slug: String = title
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let repeats = seen.iter().filter(|s| **s == slug).count();
        seen.push(slug.clone());
        if repeats == 0 {
            out.push(slug);
        } else {
            out.push(format!("{slug}-{repeats}"));
        }
    }
    out
}

#[test]
fn the_link_parser_finds_links_and_anchors() {
    let text = "# Exit statuses\n\nSee [run](docs/run.md#the-flags) and `[not](a link)`.\n\
                ```\n[no](link)\n```\n## What is exact and what is estimated\n## A `--flag`, here\n";
    assert_eq!(links(text), vec![(3, "docs/run.md#the-flags".to_string())]);
    assert_eq!(
        headings(text),
        vec![
            "exit-statuses",
            "what-is-exact-and-what-is-estimated",
            "a---flag-here"
        ]
    );
}

/// Every option `pathvm COMMAND --help` lists is documented: `run`'s in
/// docs/ (docs/run.md, or docs/linux.md for what the guest sees), the
/// others' in their guide.
#[test]
fn every_option_is_documented() {
    let root = repo();
    let read = |name: &str| {
        std::fs::read_to_string(root.join("docs").join(name))
            .unwrap_or_else(|e| panic!("read docs/{name}: {e}"))
    };
    let mut all_docs = String::new();
    for entry in std::fs::read_dir(root.join("docs")).expect("read docs/") {
        let path = entry.expect("docs/ entry").path();
        if path.extension().is_some_and(|e| e == "md") {
            all_docs += &std::fs::read_to_string(&path).expect("read a document");
        }
    }
    let guides = [
        ("run", all_docs.clone(), "docs/"),
        ("report", read("report.md"), "docs/report.md"),
        ("export", read("report.md"), "docs/report.md"),
        ("diff", read("ci.md"), "docs/ci.md"),
        ("check", read("ci.md"), "docs/ci.md"),
        ("view", read("view.md"), "docs/view.md"),
    ];
    let mut missing = Vec::new();
    for (command, text, where_) in &guides {
        let out = std::process::Command::new(crate::common::pathvm())
            .args([command, "--help"])
            .output()
            .expect("run pathvm --help");
        assert!(out.status.success(), "pathvm {command} --help failed");
        let help = String::from_utf8(out.stdout).expect("help is UTF-8");
        let options = help_options(&help);
        assert!(
            options.len() >= 4,
            "pathvm {command} --help: too few options found: {options:?}"
        );
        for option in options {
            if !mentions(text, &option) {
                missing.push(format!("pathvm {command} {option}: not in {where_}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "options without documentation:\n{}",
        missing.join("\n")
    );
}

/// The long options a clap help text defines (`--help` and `--version`
/// left out).
fn help_options(help: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in help.lines() {
        let line = line.trim_start();
        let line = match line.strip_prefix('-') {
            Some(rest) if !rest.starts_with('-') => match rest.split_once(", ") {
                Some((_, long)) => long,
                None => continue,
            },
            Some(_) => line,
            None => continue,
        };
        let Some(rest) = line.strip_prefix("--") else {
            continue;
        };
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        if !name.is_empty() && name != "help" && name != "version" {
            out.push(format!("--{name}"));
        }
    }
    out
}

/// `text` names `option` as a whole word (`--path` is not `--paths`).
fn mentions(text: &str, option: &str) -> bool {
    text.match_indices(option).any(|(i, _)| {
        let after = text[i + option.len()..].chars().next();
        !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-')
    })
}

#[test]
fn help_options_are_read_from_clap_help() {
    let help = "Options:\n  -o, --output <OUTPUT>  Where\n      --no-cct  No tree; see `--focus`\n  -h, --help  Print help\n";
    assert_eq!(help_options(help), vec!["--output", "--no-cct"]);
    assert!(mentions("use `--path ID`", "--path"));
    assert!(!mentions("use `--paths`", "--path"));
}
