//! The quick subset of the corpus of real programs (`scripts/corpus.py
//! --quick`, docs/corpus.md): each case run natively and under pathvm,
//! compared exactly. Every case must be identical, except the known
//! differences listed below with their causes; a listed case that becomes
//! identical fails the test, so the list only shrinks.

use crate::common::{pathvm, repo, scratch};
use std::process::{Command, Stdio};

/// Quick cases known to differ from native, and why (docs/corpus.md).
const KNOWN: &[(&str, &str)] = &[];

#[test]
fn quick_corpus_identical_to_native() {
    if Command::new("python3")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .map(|s| !s.success())
        .unwrap_or(true)
    {
        eprintln!("skipped: python3 (which runs scripts/corpus.py) is not installed");
        return;
    }
    let json = scratch("corpus").join("results.json");
    let out = Command::new("python3")
        .arg(repo().join("scripts/corpus.py"))
        .args([
            "--quick",
            "-j",
            "2",
            "--timeout",
            "300",
            "--pathvm",
            pathvm(),
            "--json",
        ])
        .arg(&json)
        .stdin(Stdio::null())
        .output()
        .expect("run scripts/corpus.py");
    let text = String::from_utf8_lossy(&out.stdout);
    println!("{text}");
    eprintln!("{}", String::from_utf8_lossy(&out.stderr));
    let results: Vec<serde_json::Value> = serde_json::from_slice(
        &std::fs::read(&json).unwrap_or_else(|e| panic!("corpus.py wrote no results ({e})")),
    )
    .expect("corpus.py's results are JSON");
    assert!(!results.is_empty(), "the quick corpus has no case");
    let mut failures = Vec::new();
    for r in &results {
        let name = r["name"].as_str().unwrap();
        let result = r["result"].as_str().unwrap();
        let known = KNOWN.iter().find(|(n, _)| *n == name);
        match (result, known) {
            ("skipped", _) => eprintln!("skipped {name}: {}", r["why"].as_str().unwrap_or("")),
            ("identical", None) => {}
            ("identical", Some((_, why))) => failures.push(format!(
                "{name} is now identical to native: remove it from KNOWN in tests/corpus.rs \
                 and from docs/corpus.md (was: {why})"
            )),
            (_, Some((_, why))) => println!("known difference {name}: {why}"),
            (_, None) => failures.push(format!(
                "{name} differs from native ({}): see the output above",
                r["kinds"]
            )),
        }
    }
    for (name, _) in KNOWN {
        assert!(
            results.iter().any(|r| r["name"] == *name),
            "KNOWN lists {name}, which is not a quick case"
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
