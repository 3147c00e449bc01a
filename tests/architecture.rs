//! ARCHITECTURE.md's dependency block (```` ```deps ````) says what
//! `cargo metadata` says: each workspace crate and the workspace crates it
//! depends on (normal dependencies; `?` marks an optional one).

use std::collections::BTreeMap;
use std::collections::BTreeSet;
use std::process::Command;

use crate::common::repo;

type Deps = BTreeMap<String, BTreeSet<String>>;

fn documented() -> Deps {
    let text = std::fs::read_to_string(repo().join("ARCHITECTURE.md")).unwrap();
    let start = text
        .find("```deps\n")
        .expect("ARCHITECTURE.md has a ```deps block")
        + 8;
    let block = &text[start..start + text[start..].find("```").unwrap()];
    block
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let (name, deps) = l.split_once(':').expect("`crate: deps`");
            let deps = deps.split_whitespace().map(String::from).collect();
            (name.trim().to_string(), deps)
        })
        .collect()
}

fn from_cargo() -> Deps {
    let out = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(repo())
        .output()
        .expect("run cargo metadata");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let m: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let packages = m["packages"].as_array().unwrap();
    let names: BTreeSet<&str> = packages
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    packages
        .iter()
        .map(|p| {
            let deps = p["dependencies"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| d["kind"].is_null() && names.contains(d["name"].as_str().unwrap()))
                .map(|d| {
                    let opt = if d["optional"].as_bool() == Some(true) {
                        "?"
                    } else {
                        ""
                    };
                    format!("{}{opt}", d["name"].as_str().unwrap())
                })
                .collect();
            (p["name"].as_str().unwrap().to_string(), deps)
        })
        .collect()
}

#[test]
fn the_dependency_block_is_cargos() {
    assert_eq!(documented(), from_cargo());
}
