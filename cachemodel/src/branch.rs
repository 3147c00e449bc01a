//! Branch prediction: gshare for conditional branches, a branch target buffer
//! for indirect jumps and calls, a return-address stack for returns.

use events::Addr;

use crate::ConfigError;

/// Sizes of the branch predictor. The defaults match the table sizes of
/// cachegrind's `--branch-sim=yes` (16 Ki counters, 512 targets) and add a
/// 16-entry return stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BranchConfig {
    /// The conditional predictor has `2^table_bits` two-bit counters (default 14).
    pub table_bits: u32,
    /// Outcomes of the last `history_bits` conditional branches are XORed into
    /// the counter index (default 14; 0 makes a plain per-address bimodal predictor).
    pub history_bits: u32,
    /// The branch target buffer has `2^btb_bits` entries (default 9).
    pub btb_bits: u32,
    /// Entries of the return-address stack (default 16; 0 predicts no return).
    pub ras_depth: u32,
}

/// Largest `table_bits` and `btb_bits` accepted.
pub const MAX_TABLE_BITS: u32 = 24;
/// Largest `ras_depth` accepted.
pub const MAX_RAS_DEPTH: u32 = 1 << 16;

impl Default for BranchConfig {
    fn default() -> Self {
        BranchConfig {
            table_bits: 14,
            history_bits: 14,
            btb_bits: 9,
            ras_depth: 16,
        }
    }
}

impl BranchConfig {
    /// Checks the sizes (see [`ConfigError`]).
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.table_bits > MAX_TABLE_BITS
            || self.btb_bits > MAX_TABLE_BITS
            || self.ras_depth > MAX_RAS_DEPTH
        {
            return Err(ConfigError::TooLarge);
        }
        if self.history_bits > self.table_bits {
            return Err(ConfigError::HistoryTooLong);
        }
        Ok(())
    }
}

/// A return-address stack of fixed depth; pushing onto a full stack drops
/// the oldest entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReturnStack {
    /// Ring buffer; `buf[top]` is the newest of `len` entries.
    buf: Box<[Addr]>,
    top: usize,
    len: usize,
}

impl ReturnStack {
    pub fn new(depth: u32) -> ReturnStack {
        ReturnStack {
            buf: vec![0; depth as usize].into_boxed_slice(),
            top: 0,
            len: 0,
        }
    }

    /// Pushes a return address.
    #[inline]
    pub fn push(&mut self, addr: Addr) {
        let depth = self.buf.len();
        if depth == 0 {
            return;
        }
        self.top = if self.top + 1 == depth {
            0
        } else {
            self.top + 1
        };
        self.buf[self.top] = addr;
        self.len = (self.len + 1).min(depth);
    }

    /// Pops the newest return address, `None` when empty.
    #[inline]
    pub fn pop(&mut self) -> Option<Addr> {
        if self.len == 0 {
            return None;
        }
        let addr = self.buf[self.top];
        self.top = if self.top == 0 {
            self.buf.len() - 1
        } else {
            self.top - 1
        };
        self.len -= 1;
        Some(addr)
    }

    /// Entries held.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Initial value of every two-bit counter: weakly not taken.
const WEAKLY_NOT_TAKEN: u8 = 1;

/// The branch predictor. Every method takes the actual outcome, updates the
/// state, and returns true when the prediction was right.
#[derive(Clone, Debug)]
pub struct BranchPredictor {
    /// Two-bit saturating counters: 0, 1 predict not taken, 2, 3 taken.
    counters: Box<[u8]>,
    table_mask: u64,
    /// Global history, newest outcome in bit 0 (1 = taken).
    history: u64,
    history_mask: u64,
    /// Last target of each indirect branch site (0 = none yet); direct-mapped, untagged.
    btb: Box<[Addr]>,
    btb_mask: u64,
    ras: ReturnStack,
}

impl BranchPredictor {
    pub fn new(config: BranchConfig) -> Result<BranchPredictor, ConfigError> {
        config.validate()?;
        Ok(BranchPredictor {
            counters: vec![WEAKLY_NOT_TAKEN; 1 << config.table_bits].into_boxed_slice(),
            table_mask: (1 << config.table_bits) - 1,
            history: 0,
            history_mask: (1 << config.history_bits) - 1,
            btb: vec![0; 1 << config.btb_bits].into_boxed_slice(),
            btb_mask: (1 << config.btb_bits) - 1,
            ras: ReturnStack::new(config.ras_depth),
        })
    }

    /// A conditional branch at `site` (gshare: counter at
    /// `(site ^ history) mod table size`), then the outcome shifts into the history.
    #[inline]
    pub fn conditional(&mut self, site: Addr, taken: bool) -> bool {
        let index = ((site ^ (self.history & self.history_mask)) & self.table_mask) as usize;
        // Branch-free: the outcome is data the host cannot predict.
        const NEXT: [[u8; 4]; 2] = [[0, 0, 1, 2], [1, 2, 3, 3]];
        let counter = &mut self.counters[index];
        let c = *counter & 3;
        let correct = (c >> 1) == taken as u8;
        *counter = NEXT[taken as usize][c as usize];
        self.history = (self.history << 1) | taken as u64;
        correct
    }

    /// An indirect jump or call at `site` that went to `target`: predicted
    /// right if the site's buffer entry holds `target`, which it then does.
    #[inline]
    pub fn indirect(&mut self, site: Addr, target: Addr) -> bool {
        let entry = &mut self.btb[(site & self.btb_mask) as usize];
        let correct = *entry == target;
        *entry = target;
        correct
    }

    /// A call (direct or indirect) that returns to `return_to`.
    #[inline]
    pub fn call(&mut self, return_to: Addr) {
        self.ras.push(return_to);
    }

    /// A return that went to `target`: predicted right if the top of the
    /// return stack is `target` (the entry is popped either way).
    #[inline]
    pub fn ret(&mut self, target: Addr) -> bool {
        self.ras.pop() == Some(target)
    }

    /// Exchanges the return stack with `other` (a thread switch: each guest
    /// thread keeps its own stack, the tables are shared like hardware's).
    pub fn swap_return_stack(&mut self, other: &mut ReturnStack) {
        std::mem::swap(&mut self.ras, other);
    }

    /// A fresh return stack of this predictor's depth.
    pub fn empty_return_stack(&self) -> ReturnStack {
        ReturnStack::new(self.ras.buf.len() as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn predictor(history_bits: u32) -> BranchPredictor {
        BranchPredictor::new(BranchConfig {
            history_bits,
            ..BranchConfig::default()
        })
        .unwrap()
    }

    /// Mispredictions of `iterations` runs of a loop whose back edge is
    /// taken three times, then falls through (pattern T T T N).
    fn loop_misses(p: &mut BranchPredictor, iterations: usize) -> usize {
        let mut misses = 0;
        for _ in 0..iterations {
            for taken in [true, true, true, false] {
                misses += !p.conditional(0x401234, taken) as usize;
            }
        }
        misses
    }

    #[test]
    fn validate() {
        assert_eq!(BranchConfig::default().validate(), Ok(()));
        let long = BranchConfig {
            history_bits: 15,
            ..BranchConfig::default()
        };
        assert_eq!(long.validate(), Err(ConfigError::HistoryTooLong));
        let big = BranchConfig {
            btb_bits: 25,
            ..BranchConfig::default()
        };
        assert_eq!(big.validate(), Err(ConfigError::TooLarge));
    }

    #[test]
    fn bimodal_always_taken() {
        let mut p = predictor(0);
        // Weakly not taken: the first is mispredicted, the rest are right.
        assert!(!p.conditional(0x1000, true));
        assert!((0..10).all(|_| p.conditional(0x1000, true)));
    }

    #[test]
    fn gshare_learns_a_loop_branch() {
        // Without history the exit of every iteration is mispredicted, plus
        // the first taken branch: 1 + 10.
        assert_eq!(loop_misses(&mut predictor(0), 10), 11);
        // With 4 bits of history each of the 4 positions gets its own counter
        // (histories 0b1110, 0b1101, 0b1011, 0b0111 once warm). Warm-up: the
        // three taken branches of iteration 1 (histories 0, 1, 0b11) and of
        // iteration 2 (histories 0b1110, 0b1101, 0b1011) miss once each; the
        // exit (history 0b0111) starts right at weakly-not-taken. Then none.
        let mut p = predictor(4);
        assert_eq!(loop_misses(&mut p, 10), 6);
        assert_eq!(loop_misses(&mut p, 100), 0);
        // With 14 bits the history takes 14 branches to fill, and a taken
        // branch misses once per new history: the 11 taken branches of the
        // fill, then the first steady histories of positions 2 and 0 (the
        // steady history of position 1 already occurred at branch 13): 13.
        let mut p = predictor(14);
        assert_eq!(loop_misses(&mut p, 10), 13);
        assert_eq!(loop_misses(&mut p, 100), 0);
    }

    #[test]
    fn return_stack_predicts_nested_returns() {
        let mut p = predictor(14);
        p.call(0x1005); // main calls f
        p.call(0x2010); // f calls g
        p.call(0x3020); // g calls h
        assert!(p.ret(0x3020));
        assert!(p.ret(0x2010));
        p.call(0x2040); // f calls g again
        assert!(p.ret(0x2040));
        assert!(p.ret(0x1005));
        // Empty stack: no prediction.
        assert!(!p.ret(0x1005));
        // A longjmp-like mismatch pops anyway.
        p.call(0x10);
        p.call(0x20);
        assert!(!p.ret(0x10));
        assert!(p.ret(0x10));
    }

    #[test]
    fn return_stack_overflow_drops_the_oldest() {
        let mut ras = ReturnStack::new(2);
        ras.push(1);
        ras.push(2);
        ras.push(3);
        assert_eq!(ras.len(), 2);
        assert_eq!(ras.pop(), Some(3));
        assert_eq!(ras.pop(), Some(2));
        assert_eq!(ras.pop(), None);
        let mut none = ReturnStack::new(0);
        none.push(1);
        assert_eq!(none.pop(), None);
    }

    #[test]
    fn btb_follows_the_last_target() {
        let mut p = predictor(14);
        let site = 0x4000;
        let outcomes: Vec<bool> = [0x5000, 0x5000, 0x6000, 0x6000, 0x5000]
            .iter()
            .map(|&t| p.indirect(site, t))
            .collect();
        assert_eq!(outcomes, [false, true, false, true, false]);
        // 0x4200 is 512 entries away: it aliases the same untagged entry.
        assert!(p.indirect(0x4200, 0x5000));
        assert!(!p.indirect(0x4001, 0x5000));
    }

    #[test]
    fn thread_return_stacks_are_separate() {
        let mut p = predictor(14);
        let mut other = p.empty_return_stack();
        p.call(0x100);
        p.swap_return_stack(&mut other);
        assert!(!p.ret(0x100));
        p.swap_return_stack(&mut other);
        assert!(p.ret(0x100));
    }
}
