//! Profiles written before the one cost vector (`events::Costs`) by the
//! binary of commit 9744013 (`pathvm run` on `guest-programs/count.S`: full,
//! and `--no-paths --no-cct --no-cache-sim --no-branch-sim`) still read,
//! write back byte for byte (as the current format version: the same body
//! followed by an empty section of costs per instruction and an empty one
//! of inline frames), and name their columns as `events::Metric` does.

use events::{Costs, CycleModel, Metric};

const FULL: &[u8] = include_bytes!("fixtures/count-full.prof");
const INSNS: &[u8] = include_bytes!("fixtures/count-insns.prof");

/// The profile written back: version 5, the old body, the two bytes of
/// an empty [`reports::InsnProfile`] (no rows, no unknown costs) and the
/// two of an empty [`reports::InlineProfile`] (no frames, no instructions).
fn assert_written_back(p: &reports::Profile, old: &[u8]) {
    let new = reports::encode_profile(p);
    let body = |b: &[u8]| u64::from_le_bytes(b[12..20].try_into().unwrap()) as usize;
    assert_eq!(u32::from_le_bytes(old[8..12].try_into().unwrap()), 3);
    assert_eq!(u32::from_le_bytes(new[8..12].try_into().unwrap()), 5);
    assert_eq!(body(&new), body(old) + 4);
    assert_eq!(new[20..20 + body(old)], old[20..20 + body(old)]);
    assert_eq!(new[20 + body(old)..20 + body(&new)], [0, 0, 0, 0]);
    assert_eq!(&reports::decode_profile(&new).unwrap(), p);
}

fn names(metrics: &[Metric]) -> Vec<String> {
    metrics.iter().map(|m| m.name().to_string()).collect()
}

/// The counted columns of a profile's totals, as `Costs`.
fn costs(p: &reports::Profile) -> Costs {
    p.metrics
        .iter()
        .zip(&p.totals)
        .map(|(name, &v)| (name.parse::<Metric>().unwrap(), v))
        .filter(|(m, _)| m.is_counted())
        .collect()
}

#[test]
fn full_profile_of_the_old_binary() {
    let p = reports::decode_profile(FULL).unwrap();
    let old = "instructions,loads,stores,l1i-miss,l1d-read-miss,l1d-write-miss,l1d-miss,\
               ll-miss,branches,branch-misses,indirect,indirect-misses,cycles,alloc-bytes";
    assert_eq!(p.metrics.join(","), old);
    // Today's metrics keep those names, in that order.
    let today: Vec<String> = names(&Metric::ALL);
    let kept: Vec<&String> = today.iter().filter(|n| p.metrics.contains(n)).collect();
    assert_eq!(kept, p.metrics.iter().collect::<Vec<_>>());
    assert_written_back(&p, FULL);
    let c = costs(&p);
    assert_eq!(c[Metric::Instructions], 2004);
    assert_eq!(c[Metric::Branches], 1000);
    assert_eq!(c[Metric::BranchMisses], 16);
    assert_eq!((c[Metric::L1iMiss], c[Metric::LlMiss]), (1, 1));
    // Derived columns are what `Costs::get` computes from the counted ones.
    for (name, &v) in p.metrics.iter().zip(&p.totals) {
        let m: Metric = name.parse().unwrap();
        assert_eq!(c.get(m, &CycleModel::default()), v, "{m}");
    }
    assert_eq!(
        c.get(Metric::Cycles, &CycleModel::default()),
        2004 + 10 + 100 + 15 * 16
    );
}

#[test]
fn instructions_only_profile_of_the_old_binary() {
    let p = reports::decode_profile(INSNS).unwrap();
    assert_eq!(
        p.metrics,
        names(&[Metric::Instructions, Metric::AllocBytes])
    );
    assert_eq!(p.totals, [2004, 0]);
    assert_written_back(&p, INSNS);
}
