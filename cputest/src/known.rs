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

const SSE_APPROX: &str = "fpu: RCPPS/RSQRTPS return the correctly rounded value (deliberate: within the architectural error bound, the same on every machine)";

pub const KNOWN: &[Known] = &[
    // x87 (fpu).
    // SSE.
    k!("sse", "Rcpps", "xmm", SSE_APPROX),
    k!("sse", "Rcpss", "xmm", SSE_APPROX),
    k!("sse", "Rsqrtps", "xmm", SSE_APPROX),
    k!("sse", "Rsqrtss", "xmm", SSE_APPROX),
    // AVX: the same deliberate difference in the VEX forms.
    k!("avx", "Vrcpps", "xmm", SSE_APPROX),
    k!("avx", "Vrcpps", "ymm", SSE_APPROX),
    k!("avx", "Vrcpss", "xmm", SSE_APPROX),
    k!("avx", "Vrsqrtps", "xmm", SSE_APPROX),
    k!("avx", "Vrsqrtps", "ymm", SSE_APPROX),
    k!("avx", "Vrsqrtss", "xmm", SSE_APPROX),
];
