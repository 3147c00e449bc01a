//! The quick seeded subset: every class the VM advertises, against the host
//! CPU. Mismatches outside the known list fail; so does a known divergence
//! that no longer occurs (the list can only shrink).

use cputest::{class_status, emu::Emu, gen::CLASSES, run_class, KNOWN};

const SEED: u64 = 24;
const CASES: u64 = 300;

#[test]
fn every_class_matches_the_host_cpu_but_for_the_known_list() {
    // The model with every class (x86-64-v2's are a subset).
    let mut emu = Emu::new(vm::cpu::CpuModel::X86_64V3).expect("the VM's CPU");
    let mut hits = vec![0u64; KNOWN.len()];
    let mut failures = Vec::new();
    let mut ran = Vec::new();
    for class in CLASSES {
        if let Err(why) = class_status(&mut emu, class) {
            println!("{:<10} skipped: {why}", class.name);
            continue;
        }
        ran.push(class.name);
        let run = run_class(&mut emu, class, None, SEED, 0, CASES, 5).expect("class runs");
        for (h, n) in hits.iter_mut().zip(&run.known_hits) {
            *h += n;
        }
        for m in run.examples.iter().filter(|m| !m.known) {
            failures.push(m.report());
        }
        for e in &run.errors {
            failures.push(format!("ERROR {}: {e}\n", class.name));
        }
        if run.unknown() > 0 && run.examples.iter().all(|m| m.known) {
            failures.push(format!(
                "{}: {} unknown mismatches\n",
                class.name,
                run.unknown()
            ));
        }
        println!(
            "{:<10} {} cases, {} mismatches ({} known)",
            class.name,
            run.cases,
            run.mismatched(),
            run.mismatched() - run.unknown()
        );
    }
    // Known entries the sweep did not meet: look for them by mnemonic.
    for (i, k) in KNOWN.iter().enumerate() {
        if hits[i] > 0 || !ran.contains(&k.class) {
            continue;
        }
        if k.mnemonic != "*" {
            let class = CLASSES.iter().find(|c| c.name == k.class).unwrap();
            let run =
                run_class(&mut emu, class, Some(k.mnemonic), SEED, 0, 1000, 0).expect("class runs");
            hits[i] += run.known_hits[i];
        }
        if hits[i] == 0 {
            failures.push(format!(
                "known divergence no longer occurs (remove it from cputest/src/known.rs): {} {} {}: {}\n",
                k.class, k.mnemonic, k.field, k.why
            ));
        }
    }
    println!("known divergences ({}):", KNOWN.len());
    for (k, h) in KNOWN.iter().zip(&hits) {
        println!(
            "  {} {} {} ({} fields): {}",
            k.class, k.mnemonic, k.field, h, k.why
        );
    }
    assert!(failures.is_empty(), "{}", failures.concat());
}
