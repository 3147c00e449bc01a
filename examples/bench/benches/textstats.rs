//! The benchmarks: each runs as its own phase under `pathvm run`, its
//! input made by its setup outside the measured region.

use pathvm_bench::{black_box, Harness};
use textstats::{checksum, sample_text, vocabulary, word_count};

/// Words of input per benchmark.
const WORDS: usize = 20_000;
/// Bytes the checksum reads.
const CHECKSUM_BYTES: usize = 100_000;

fn main() {
    Harness::new()
        .bench_with_setup(
            "word_count",
            || sample_text(WORDS),
            |text| word_count(black_box(text.as_bytes())),
        )
        .bench_with_setup(
            "checksum",
            || vec![0x5au8; CHECKSUM_BYTES],
            |data| checksum(black_box(&data)),
        )
        .bench_with_teardown(
            "vocabulary",
            || sample_text(WORDS),
            |text| vocabulary(black_box(&text)).len(),
            |_text, n| assert_eq!(n, 8),
        )
        .run();
}
