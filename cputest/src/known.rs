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

const MMX_EXP: &str = "mmx: the SSSE3 MMX forms: a written MMX register's sign and exponent field is not set to 0xFFFF";
const X87_CROSS: &str = "x87: a memory operand crossing into an unmapped page faults at a later byte's address (fnsave/fnstenv/fldenv/frstor: not at all)";
const X87_FIP: &str =
    "fxsr: the last instruction's FIP, FCS, FOP, FDP are not those the host keeps";
const MMX_STATE: &str =
    "mmx: the instruction does not switch the x87 unit to MMX mode (TOP=0, all tags valid)";

pub const KNOWN: &[Known] = &[
    // Integer.
    k!("int", "Leave", "fault", "faults: a non-canonical stack address gives SIGBUS (#SS) on hardware, SIGSEGV in the VM"),
    k!("int", "Lfs", "*", "cpudiff: far-pointer loads (LFS/LGS/LSS) load any selector"),
    k!("int", "Lgs", "*", "cpudiff: far-pointer loads (LFS/LGS/LSS) load any selector"),
    k!("int", "Lss", "*", "cpudiff: far-pointer loads (LFS/LGS/LSS) load any selector"),
    // x87 (fpu).
    k!("x87", "*", "fault", X87_CROSS),
    k!("x87", "Fnsave", "mem", X87_FIP),
    k!("x87", "Fnstenv", "mem", X87_FIP),
    k!("sse3", "Fisttp", "fault", X87_CROSS),
    k!("fxsr", "*", "*", "fxsr: FXSAVE/FXRSTOR (FOP/FIP/FDP fields, reserved MXCSR bits, alignment)"),
    // MMX.
    // SSE.
    k!("sse", "*", "xmm", "fpu: RCPPS/RSQRTPS return the correctly rounded value (deliberate: within the architectural error bound, the same on every machine)"),
    k!("sse", "Cvtpi2ps", "*", MMX_STATE),
    k!("sse2", "Cvtpi2pd", "*", MMX_STATE),
    k!("ssse3", "*", "st.exp", MMX_EXP),
    k!("ssse3", "*", "st", MMX_STATE),
    k!("ssse3", "*", "fsw", MMX_STATE),
    k!("ssse3", "*", "ftw", MMX_STATE),
    k!("sse4.1", "*", "xmm", "fpu: DPPS/DPPD"),
];
