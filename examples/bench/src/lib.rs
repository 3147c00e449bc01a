//! A small text library to benchmark: word counts, a checksum, sorting.

/// The number of words (runs of non-space bytes) in `text`.
pub fn word_count(text: &[u8]) -> usize {
    let mut words = 0;
    let mut in_word = false;
    for &b in text {
        let space = b.is_ascii_whitespace();
        if !space && !in_word {
            words += 1;
        }
        in_word = !space;
    }
    words
}

/// FNV-1a over `data`.
pub fn checksum(data: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in data {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The words of `text`, sorted, without repeats.
pub fn vocabulary(text: &str) -> Vec<&str> {
    let mut words: Vec<&str> = text.split_ascii_whitespace().collect();
    words.sort_unstable();
    words.dedup();
    words
}

/// Deterministic text of `words` words drawn from a small vocabulary.
pub fn sample_text(words: usize) -> String {
    const VOCABULARY: [&str; 8] = [
        "path", "profile", "branch", "cache", "block", "phase", "count", "call",
    ];
    let mut state: u32 = 12345;
    let mut out = String::with_capacity(words * 7);
    for i in 0..words {
        state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        if i > 0 {
            out.push(' ');
        }
        out.push_str(VOCABULARY[(state >> 16) as usize % VOCABULARY.len()]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_vocabulary() {
        assert_eq!(word_count(b"  a bb\tccc\n"), 3);
        assert_eq!(vocabulary("b a b"), ["a", "b"]);
        assert_eq!(checksum(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(word_count(sample_text(100).as_bytes()), 100);
    }
}
