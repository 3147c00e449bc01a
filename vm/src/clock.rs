//! The virtual clock: guest time is a function of retired instructions only,
//! so a guest that measures itself sees the same durations on every run and
//! never sees the profiler's own overhead.
//!
//! One retired instruction is one nanosecond and one tick of the time-stamp
//! counter (a 1 GHz virtual CPU with one instruction per cycle). Sleeping
//! advances the clock by the requested time without waiting.
//!
//! `rdtsc` inside unicorn calls `cpu_get_ticks`, which reads the host's
//! counter; `.cargo/config.toml` links with `--wrap=cpu_get_ticks_x86_64`, so
//! the call lands in [`__wrap_cpu_get_ticks_x86_64`] below instead.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// Wall-clock time of the guest's instruction zero by default:
/// 2024-01-01T00:00:00Z (`run --clock-start` chooses another).
pub const EPOCH_SECS: u64 = 1_704_067_200;
/// Monotonic time (and uptime) at instruction zero.
pub const BOOT_SECS: u64 = 1_000;

thread_local! {
    /// The clock `rdtsc` reads on this host thread (the running guest's).
    static CURRENT: RefCell<Option<Rc<VirtualClock>>> = const { RefCell::new(None) };
}

/// Called by unicorn's `rdtsc` helper through the linker's `--wrap`.
#[no_mangle]
pub extern "C" fn __wrap_cpu_get_ticks_x86_64() -> i64 {
    CURRENT.with(|c| c.borrow().as_ref().map_or(0, |c| c.now_ns())) as i64
}

thread_local! {
    /// The generator `rdrand` reads on this host thread (the running guest's).
    static HW_RANDOM: RefCell<Option<Rng>> = const { RefCell::new(None) };
}

/// Called by unicorn's `rdrand` helper (through `qemu_guest_getrandom`, whose
/// weak default this definition replaces): the guest's hardware random
/// numbers come from the run's seed, like `getrandom`, so a run is
/// reproducible and `--seed` changes them. Outside a run (no generator
/// installed) it answers zeros.
///
/// # Safety
///
/// `buf` is null or points to `len` writable bytes (unicorn's helper passes
/// its own buffer).
#[no_mangle]
pub unsafe extern "C" fn pathvm_guest_random(buf: *mut u8, len: usize) -> i32 {
    if buf.is_null() {
        return -1;
    }
    // SAFETY: the caller passes a buffer of `len` writable bytes.
    let out = unsafe { std::slice::from_raw_parts_mut(buf, len) };
    HW_RANDOM.with(|r| match r.borrow_mut().as_mut() {
        Some(rng) => rng.fill(out),
        None => out.fill(0),
    });
    0
}

/// The seeded generator behind `rdrand` on this host thread.
pub struct HwRandom;

impl HwRandom {
    /// Draw `rdrand`'s numbers from `seed` on the current host thread (a
    /// stream of its own, apart from `getrandom`'s).
    pub fn install(seed: u64) {
        HW_RANDOM.with(|r| *r.borrow_mut() = Some(Rng::new(seed ^ 0x5244_5241_4e44_0001)));
    }

    pub fn uninstall() {
        HW_RANDOM.with(|r| *r.borrow_mut() = None);
    }
}

/// The clock of one guest process: retired instructions plus time slept.
#[derive(Debug, Default)]
pub struct VirtualClock {
    /// Instructions retired (a `rep` string instruction counts once).
    pub instret: Cell<u64>,
    /// Nanoseconds added by sleeps and blocking waits.
    pub slept_ns: Cell<u64>,
    /// Wall-clock seconds at instruction zero, when not [`EPOCH_SECS`].
    pub start_secs: Cell<Option<u64>>,
}

impl VirtualClock {
    /// Make this the clock `rdtsc` reads on the current host thread.
    pub fn install(self: &Rc<Self>) {
        CURRENT.with(|c| *c.borrow_mut() = Some(self.clone()));
    }

    /// Stop `rdtsc` from reading this clock.
    pub fn uninstall() {
        CURRENT.with(|c| *c.borrow_mut() = None);
    }

    /// Count `n` more retired instructions.
    #[inline]
    pub fn retire(&self, n: u64) {
        self.instret.set(self.instret.get() + n);
    }

    /// Virtual nanoseconds since instruction zero.
    #[inline]
    pub fn now_ns(&self) -> u64 {
        self.instret.get() + self.slept_ns.get()
    }

    /// Let `ns` nanoseconds pass without running.
    pub fn sleep(&self, ns: u64) {
        self.slept_ns.set(self.slept_ns.get().saturating_add(ns));
    }

    /// Wall-clock seconds at instruction zero.
    pub fn epoch_secs(&self) -> u64 {
        self.start_secs.get().unwrap_or(EPOCH_SECS)
    }

    /// `CLOCK_REALTIME` as (seconds, nanoseconds).
    pub fn realtime(&self) -> (u64, u64) {
        let ns = self.now_ns();
        (self.epoch_secs() + ns / 1_000_000_000, ns % 1_000_000_000)
    }

    /// `CLOCK_MONOTONIC` as (seconds, nanoseconds).
    pub fn monotonic(&self) -> (u64, u64) {
        let ns = self.now_ns();
        (BOOT_SECS + ns / 1_000_000_000, ns % 1_000_000_000)
    }

    /// CPU time of the process: retired instructions only.
    pub fn cputime(&self) -> (u64, u64) {
        let i = self.instret.get();
        (i / 1_000_000_000, i % 1_000_000_000)
    }
}

/// Seconds since 1970 of a `--clock-start` value: `now` (the host's
/// clock), `@SECONDS`, `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SS` (UTC; a
/// trailing `Z` is accepted).
pub fn parse_start(s: &str) -> Result<u64, String> {
    let bad =
        || format!("--clock-start: {s:?} is not now, @SECONDS, YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS");
    if s == "now" {
        return std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .map_err(|_| bad());
    }
    if let Some(n) = s.strip_prefix('@') {
        return n.parse().map_err(|_| bad());
    }
    let s2 = s.strip_suffix('Z').unwrap_or(s);
    let (date, time) = match s2.split_once(['T', ' ']) {
        Some((d, t)) => (d, Some(t)),
        None => (s2, None),
    };
    let num = |v: &str, lo: u64, hi: u64| -> Result<u64, String> {
        let n: u64 = v.parse().map_err(|_| bad())?;
        if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) || n < lo || n > hi {
            return Err(bad());
        }
        Ok(n)
    };
    let d: Vec<&str> = date.split('-').collect();
    if d.len() != 3 || d[0].len() != 4 {
        return Err(bad());
    }
    let (y, m, day) = (num(d[0], 1970, 9999)?, num(d[1], 1, 12)?, num(d[2], 1, 31)?);
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let month_days = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if day > month_days[m as usize - 1] {
        return Err(bad());
    }
    let mut days = (1970..y)
        .map(|yy| {
            if yy % 4 == 0 && (yy % 100 != 0 || yy % 400 == 0) {
                366
            } else {
                365
            }
        })
        .sum::<u64>();
    days += month_days[..m as usize - 1].iter().sum::<u64>() + day - 1;
    let secs = match time {
        None => 0,
        Some(t) => {
            let p: Vec<&str> = t.split(':').collect();
            if p.len() != 3 {
                return Err(bad());
            }
            num(p[0], 0, 23)? * 3600 + num(p[1], 0, 59)? * 60 + num(p[2], 0, 60)?
        }
    };
    Ok(days * 86_400 + secs)
}

/// Deterministic random bytes for `getrandom`, `AT_RANDOM` and `/dev/urandom`
/// (splitmix64 from the run's seed).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn fill(&mut self, out: &mut [u8]) {
        for chunk in out.chunks_mut(8) {
            let v = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_start_values() {
        assert_eq!(parse_start("2024-01-01"), Ok(EPOCH_SECS));
        assert_eq!(parse_start("2024-01-01T00:00:00Z"), Ok(EPOCH_SECS));
        assert_eq!(parse_start("1970-01-01"), Ok(0));
        assert_eq!(parse_start("2000-03-01T12:34:56"), Ok(951_914_096));
        assert_eq!(parse_start("@42"), Ok(42));
        assert!(parse_start("now").unwrap() > EPOCH_SECS);
        for bad in [
            "2023-02-29",
            "2024-13-01",
            "yesterday",
            "2024-01",
            "2024-01-01T25:00:00",
        ] {
            assert!(parse_start(bad).is_err(), "{bad}");
        }
        let c = VirtualClock::default();
        assert_eq!(c.realtime().0, EPOCH_SECS);
        c.start_secs.set(Some(7));
        assert_eq!(c.realtime().0, 7);
    }
}
