//! The text views fit the terminal: `pathvm report` on gzip, written to a
//! pipe (100 columns) or told a width, prints no line wider, names first,
//! the first 20 rows, and says how to see the rest.

use std::path::Path;
use std::process::Command;

use crate::common::*;

fn report(profile: &Path, extra: &[&str]) -> String {
    let out = Command::new(pathvm())
        .arg("report")
        .arg(profile)
        .args(extra)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "report {extra:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn widest(text: &str) -> usize {
    text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
}

#[test]
fn text_reports_fit_the_terminal() {
    let dir = scratch("report-width");
    let input = dir.join("in.txt");
    let text: String = (0..20_000)
        .map(|i| format!("{i} {}\n", i * 7919 % 10007))
        .collect();
    std::fs::write(&input, text).unwrap();
    let profile = dir.join("p.out");
    let run = run_with(
        &profile,
        &[],
        Path::new("/usr/bin/gzip"),
        &["-c", input.to_str().unwrap()],
    );
    assert_eq!(run.status.code(), Some(0));
    // Inlined functions are rows of the text view too.
    let json = pathvm_ok([
        "report".as_ref(),
        profile.as_os_str(),
        "--format".as_ref(),
        "json".as_ref(),
    ]);
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let functions = json["rows"].as_array().unwrap().len();
    assert!(functions > 20, "{functions} functions");

    // Not a terminal: 100 columns, 20 rows, the name first.
    let text = report(&profile, &[]);
    assert!(widest(&text) <= 100, "{text}");
    assert!(
        text.contains(&format!(
            "Functions: 20 of {functions}, by self instructions (--top 0 shows all)"
        )),
        "{text}"
    );
    let header = text
        .lines()
        .find(|l| l.starts_with("function "))
        .expect("a header line");
    assert!(
        header.contains("self") && header.contains("incl"),
        "{header}"
    );
    assert!(text.contains("--- instructions ---"), "{text}");
    // The default metrics: instructions and two simulated ones.
    assert_eq!(
        text.lines().next().unwrap().matches(", ").count(),
        2,
        "{text}"
    );
    for width in [80, 120] {
        let text = report(&profile, &["--width", &width.to_string()]);
        assert!(widest(&text) <= width, "{width}: {text}");
    }
    let text = report(&profile, &["--by", "context", "--top", "30"]);
    assert!(widest(&text) <= 100, "{text}");
    assert!(
        text.contains("Calling contexts: 30 rows, the first in tree order"),
        "{text}"
    );

    // Everything: every function, every column, wider than a terminal.
    let all = report(&profile, &["--width", "0", "--top", "0"]);
    assert!(!all.contains("Hidden to fit"), "{all}");
    assert!(!all.contains("--top 0 shows all"), "{all}");
    assert!(widest(&all) > 100, "{all}");
    let rows = all
        .lines()
        .skip_while(|l| !l.starts_with("function "))
        .skip(1);
    assert_eq!(rows.filter(|l| !l.is_empty()).count(), functions);
}
