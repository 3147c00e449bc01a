//! The divergences the tester finds and that are not fixed yet. Owners:
//! `fpu` (x87, SSE floating point, PCMPxSTRx: fpu_helper.c, ops_sse.h,
//! softfloat) and `cpudiff` (integer, flags, BMI, SSE integer, CPUID,
//! system). Field kinds are those of `crate::field_kind`.

use crate::Known;

macro_rules! k {
    ($class:expr, $m:expr, $field:expr, $why:expr) => {
        Known {
            class: $class,
            mnemonic: $m,
            field: $field,
            why: $why,
        }
    };
}

const X87_CROSS: &str = "x87: a memory operand crossing into an unmapped page faults at a later byte's address (fnsave/fnstenv/fldenv/frstor: not at all)";
const X87_FIP: &str =
    "fxsr: the last instruction's FIP, FCS, FOP, FDP are not those the host keeps";
const SSE_APPROX: &str = "fpu: RCPPS/RSQRTPS return the correctly rounded value (deliberate: within the architectural error bound, the same on every machine)";

pub const KNOWN: &[Known] = &[
    // x87 (fpu).
    k!("x87", "*", "fault", X87_CROSS),
    k!("x87", "Fnsave", "mem", X87_FIP),
    k!("x87", "Fnstenv", "mem", X87_FIP),
    k!("sse3", "Fisttp", "fault", X87_CROSS),
    k!(
        "fxsr",
        "*",
        "*",
        "fxsr: FXSAVE/FXRSTOR (FOP/FIP/FDP fields, reserved MXCSR bits, alignment)"
    ),
    // SSE.
    k!("sse", "Rcpps", "xmm", SSE_APPROX),
    k!("sse", "Rcpss", "xmm", SSE_APPROX),
    k!("sse", "Rsqrtps", "xmm", SSE_APPROX),
    k!("sse", "Rsqrtss", "xmm", SSE_APPROX),
];
