//! Seeded cases: an instruction of a class with random and edge operands,
//! and the whole machine state it starts from.

use iced_x86::{
    Code, CpuidFeature, Encoder, EncodingKind, FlowControl, Instruction, MemoryOperand, Mnemonic,
    OpCodeOperandKind as K, Register,
};

use crate::layout::{fx, CASE_RSP, INSN, MEM, MEM_SIZE, RSP};

/// splitmix64.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x6a09_e667_f3bc_c908)
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }
}

/// An instruction class: what CPUID says about it and which instructions
/// it holds (by iced-x86's CPUID features).
#[derive(Clone, Copy, Debug)]
pub struct Class {
    pub name: &'static str,
    pub features: &'static [CpuidFeature],
    /// The CPUID bit that advertises it: (leaf, subleaf, register 0..4 =
    /// eax ebx ecx edx, bit); `None` for the base set every x86-64 has.
    pub cpuid: Option<(u32, u32, usize, u32)>,
}

use CpuidFeature as F;

pub const CLASSES: &[Class] = &[
    Class {
        name: "int",
        features: &[
            F::INTEL8086,
            F::INTEL186,
            F::INTEL286,
            F::INTEL386,
            F::INTEL486,
            F::X64,
            F::CMOV,
            F::MULTIBYTENOP,
            F::PAUSE,
        ],
        cpuid: None,
    },
    Class {
        name: "x87",
        features: &[F::FPU, F::FPU287, F::FPU387],
        cpuid: Some((1, 0, 3, 0)),
    },
    Class {
        name: "mmx",
        features: &[F::MMX],
        cpuid: Some((1, 0, 3, 23)),
    },
    Class {
        name: "sse",
        features: &[F::SSE],
        cpuid: Some((1, 0, 3, 25)),
    },
    Class {
        name: "sse2",
        features: &[F::SSE2],
        cpuid: Some((1, 0, 3, 26)),
    },
    Class {
        name: "sse3",
        features: &[F::SSE3],
        cpuid: Some((1, 0, 2, 0)),
    },
    Class {
        name: "ssse3",
        features: &[F::SSSE3],
        cpuid: Some((1, 0, 2, 9)),
    },
    Class {
        name: "sse4.1",
        features: &[F::SSE4_1],
        cpuid: Some((1, 0, 2, 19)),
    },
    Class {
        name: "sse4.2",
        features: &[F::SSE4_2],
        cpuid: Some((1, 0, 2, 20)),
    },
    Class {
        name: "aes",
        features: &[F::AES],
        cpuid: Some((1, 0, 2, 25)),
    },
    Class {
        name: "pclmulqdq",
        features: &[F::PCLMULQDQ],
        cpuid: Some((1, 0, 2, 1)),
    },
    Class {
        name: "popcnt",
        features: &[F::POPCNT],
        cpuid: Some((1, 0, 2, 23)),
    },
    Class {
        name: "lzcnt",
        features: &[F::LZCNT],
        cpuid: Some((0x8000_0001, 0, 2, 5)),
    },
    Class {
        name: "bmi1",
        features: &[F::BMI1],
        cpuid: Some((7, 0, 1, 3)),
    },
    Class {
        name: "bmi2",
        features: &[F::BMI2],
        cpuid: Some((7, 0, 1, 8)),
    },
    Class {
        name: "adx",
        features: &[F::ADX],
        cpuid: Some((7, 0, 1, 19)),
    },
    Class {
        name: "movbe",
        features: &[F::MOVBE],
        cpuid: Some((1, 0, 2, 22)),
    },
    Class {
        name: "cx8",
        features: &[F::CX8],
        cpuid: Some((1, 0, 3, 8)),
    },
    Class {
        name: "cx16",
        features: &[F::CMPXCHG16B],
        cpuid: Some((1, 0, 2, 13)),
    },
    Class {
        name: "fxsr",
        features: &[F::FXSR],
        cpuid: Some((1, 0, 3, 24)),
    },
    Class {
        name: "sse4a",
        features: &[F::SSE4A],
        cpuid: Some((0x8000_0001, 0, 2, 6)),
    },
    Class {
        name: "f16c",
        features: &[F::F16C],
        cpuid: Some((1, 0, 2, 29)),
    },
    Class {
        name: "avx",
        features: &[F::AVX],
        cpuid: Some((1, 0, 2, 28)),
    },
    Class {
        name: "avx2",
        features: &[F::AVX2],
        cpuid: Some((7, 0, 1, 5)),
    },
    Class {
        name: "fma",
        features: &[F::FMA],
        cpuid: Some((1, 0, 2, 12)),
    },
    Class {
        name: "sha",
        features: &[F::SHA],
        cpuid: Some((7, 0, 1, 29)),
    },
    Class {
        name: "clflush",
        features: &[F::CLFSH],
        cpuid: Some((1, 0, 3, 19)),
    },
    Class {
        name: "prefetchw",
        features: &[F::PREFETCHW],
        cpuid: Some((0x8000_0001, 0, 2, 8)),
    },
];

/// Instructions never generated: their results depend on the machine
/// (identity, time, randomness, descriptor tables, FS/GS bases) rather than
/// on their operands, they transfer control or trap by design, or they need
/// privileges. CPUID, RDTSC and RDRAND/RDSEED are checked on their own
/// (`crate::special`).
const EXCLUDED: &[Mnemonic] = &[
    Mnemonic::Cpuid,
    Mnemonic::Rdtsc,
    Mnemonic::Rdtscp,
    Mnemonic::Rdrand,
    Mnemonic::Rdseed,
    Mnemonic::Rdpid,
    Mnemonic::Rdpmc,
    Mnemonic::Xgetbv,
    Mnemonic::Syscall,
    Mnemonic::Sysenter,
    Mnemonic::Int,
    Mnemonic::Int1,
    Mnemonic::Int3,
    Mnemonic::Into,
    Mnemonic::Ud0,
    Mnemonic::Ud1,
    Mnemonic::Ud2,
    Mnemonic::Hlt,
    Mnemonic::Lar,
    Mnemonic::Lsl,
    Mnemonic::Verr,
    Mnemonic::Verw,
    Mnemonic::Sldt,
    Mnemonic::Smsw,
    Mnemonic::Str,
    Mnemonic::Sgdt,
    Mnemonic::Sidt,
    Mnemonic::Popf,
    Mnemonic::Popfq,
    Mnemonic::Enter,
    Mnemonic::Cli,
    Mnemonic::Sti,
    Mnemonic::Lfence,
    Mnemonic::Mfence,
    Mnemonic::Sfence,
];

/// The codes of a class that the generator can build.
pub fn codes(class: &Class) -> Vec<Code> {
    Code::values()
        .filter(|c| {
            let op = c.op_code();
            if !op.is_instruction() || !op.mode64() || !op.cpl3() || op.is_privileged() {
                return false;
            }
            if !matches!(op.encoding(), EncodingKind::Legacy | EncodingKind::VEX) {
                return false;
            }
            let i = Instruction::with(*c);
            if i.flow_control() != FlowControl::Next || EXCLUDED.contains(&i.mnemonic()) {
                return false;
            }
            if op.is_input_output() {
                return false;
            }
            let feats = i.cpuid_features();
            if !feats.iter().any(|f| class.features.contains(f)) {
                return false;
            }
            // VEX forms belong to the AVX classes (those of AES and
            // PCLMULQDQ to `avx`), and BMI's to theirs.
            if op.encoding() == EncodingKind::VEX
                && (!feats.iter().all(|f| {
                    matches!(
                        f,
                        F::BMI1
                            | F::BMI2
                            | F::AVX
                            | F::AVX2
                            | F::FMA
                            | F::F16C
                            | F::AES
                            | F::PCLMULQDQ
                    )
                }) || (feats.contains(&F::AVX)
                    && !matches!(class.name, "avx" | "avx2" | "fma" | "f16c")))
            {
                return false;
            }
            if op.encoding() == EncodingKind::Legacy
                && matches!(class.name, "avx" | "avx2" | "fma" | "f16c")
            {
                return false;
            }
            // FCMOVcc and FCOMI are x87 instructions (their CMOV feature
            // notwithstanding).
            if class.name == "int"
                && feats.iter().any(|f| {
                    matches!(
                        f,
                        F::FPU | F::FPU287 | F::FPU387 | F::MMX | F::SSE | F::SSE2
                    )
                })
            {
                return false;
            }
            op.op_kinds().iter().all(|k| supported(*k))
        })
        .collect()
}

fn supported(k: K) -> bool {
    matches!(
        k,
        K::mem
            | K::mem_vsib32x
            | K::mem_vsib64x
            | K::mem_vsib32y
            | K::mem_vsib64y
            | K::r8_or_mem
            | K::r16_or_mem
            | K::r32_or_mem
            | K::r64_or_mem
            | K::mm_or_mem
            | K::xmm_or_mem
            | K::r8_reg
            | K::r8_opcode
            | K::r16_reg
            | K::r16_reg_mem
            | K::r16_rm
            | K::r16_opcode
            | K::r32_reg
            | K::r32_reg_mem
            | K::r32_rm
            | K::r32_opcode
            | K::r32_vvvv
            | K::r64_reg
            | K::r64_reg_mem
            | K::r64_rm
            | K::r64_opcode
            | K::r64_vvvv
            | K::mm_reg
            | K::mm_rm
            | K::xmm_reg
            | K::xmm_rm
            | K::xmm_vvvv
            | K::xmm_is4
            | K::ymm_reg
            | K::ymm_rm
            | K::ymm_vvvv
            | K::ymm_or_mem
            | K::ymm_is4
            | K::al
            | K::cl
            | K::ax
            | K::eax
            | K::rax
            | K::st0
            | K::sti_opcode
            | K::imm8
            | K::imm8_const_1
            | K::imm8sex16
            | K::imm8sex32
            | K::imm8sex64
            | K::imm16
            | K::imm32
            | K::imm32sex64
            | K::imm64
    )
}

/// One case: the instruction and the state it starts from.
#[derive(Clone, Debug)]
pub struct Case {
    pub class: &'static str,
    pub index: u64,
    pub insn: Instruction,
    pub bytes: Vec<u8>,
    pub input: State,
}

/// Machine state: what a case starts from and what it ends with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub gpr: [u64; 16],
    pub flags: u64,
    pub fx: Vec<u8>,
    /// The upper halves of YMM0-15 (16 bytes each).
    pub ymmh: Vec<u8>,
    pub mem: Vec<u8>,
}

const GPR_EDGES: &[u64] = &[
    0,
    1,
    2,
    u64::MAX,
    0x7f,
    0x80,
    0xff,
    0x100,
    0x7fff,
    0x8000,
    0xffff,
    0x1_0000,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffff,
    0x1_0000_0000,
    0x7fff_ffff_ffff_ffff,
    0x8000_0000_0000_0000,
    0xffff_ffff_ffff_fffe,
    0xffff_ffff_0000_0000,
    0x8000_0000_0000_0001,
];

pub fn gpr_value(r: &mut Rng) -> u64 {
    match r.below(10) {
        0..=3 => r.pick(GPR_EDGES),
        4 => r.below(70),
        5 => 1u64 << r.below(64),
        6 => (r.below(70)).wrapping_neg(),
        7 => r.next() & 0xffff_ffff,
        _ => r.next(),
    }
}

const F32_EDGES: &[u32] = &[
    0x0000_0000, // +0
    0x8000_0000, // -0
    0x3f80_0000, // 1
    0xbf80_0000, // -1
    0x7f80_0000, // inf
    0xff80_0000, // -inf
    0x7fc0_0000, // qNaN
    0xffc0_0001, // -qNaN with payload
    0x7f80_0001, // sNaN
    0xffa0_0000, // -sNaN
    0x0000_0001, // smallest denormal
    0x807f_ffff, // largest negative denormal
    0x0080_0000, // smallest normal
    0x7f7f_ffff, // max
    0x4f00_0000, // 2^31
    0xcf00_0000, // -2^31
    0x5f00_0000, // 2^63
    0x3f00_0000, // 0.5
    0x3fc0_0000, // 1.5
    0x4020_0000, // 2.5
];

const F64_EDGES: &[u64] = &[
    0,
    0x8000_0000_0000_0000,
    0x3ff0_0000_0000_0000,
    0xbff0_0000_0000_0000,
    0x7ff0_0000_0000_0000,
    0xfff0_0000_0000_0000,
    0x7ff8_0000_0000_0000,
    0xfff8_0000_0000_0001,
    0x7ff0_0000_0000_0001,
    0xfff4_0000_0000_0000,
    0x0000_0000_0000_0001,
    0x800f_ffff_ffff_ffff,
    0x0010_0000_0000_0000,
    0x7fef_ffff_ffff_ffff,
    0x41e0_0000_0000_0000, // 2^31
    0xc1e0_0000_0000_0000,
    0x43e0_0000_0000_0000, // 2^63
    0x3fe0_0000_0000_0000, // 0.5
    0x3ff8_0000_0000_0000, // 1.5
    0x4004_0000_0000_0000, // 2.5
    0x3ff0_0000_0000_0001,
];

fn f32_value(r: &mut Rng) -> u32 {
    match r.below(4) {
        0 | 1 => r.pick(F32_EDGES),
        2 => {
            // A "nice" number: small exponent range.
            let e = 120 + r.below(16) as u32;
            ((r.below(2) as u32) << 31) | (e << 23) | (r.next() as u32 & 0x7f_ffff)
        }
        _ => r.next() as u32,
    }
}

fn f64_value(r: &mut Rng) -> u64 {
    match r.below(4) {
        0 | 1 => r.pick(F64_EDGES),
        2 => {
            let e = 1016 + r.below(16);
            (r.below(2) << 63) | (e << 52) | (r.next() & 0xf_ffff_ffff_ffff)
        }
        _ => r.next(),
    }
}

/// An f64 as the x87's 80-bit format.
fn f64_to_f80(v: u64) -> [u8; 10] {
    let sign = (v >> 63) as u16;
    let exp = ((v >> 52) & 0x7ff) as i32;
    let frac = v & 0xf_ffff_ffff_ffff;
    let (e, m) = if exp == 0 && frac == 0 {
        (0u16, 0u64)
    } else if exp == 0x7ff {
        (0x7fff, (1 << 63) | (frac << 11))
    } else if exp == 0 {
        let lz = frac.leading_zeros() as i32 - 12; // shift to put the top bit at 52
        let m = frac << (lz + 11);
        ((1 - 1023 + 16383 - lz) as u16, m | (1 << 63))
    } else {
        ((exp - 1023 + 16383) as u16, (1 << 63) | (frac << 11))
    };
    let mut out = [0u8; 10];
    out[..8].copy_from_slice(&m.to_le_bytes());
    out[8..].copy_from_slice(&(e | (sign << 15)).to_le_bytes());
    out
}

fn f80_value(r: &mut Rng) -> [u8; 10] {
    match r.below(10) {
        0..=5 => f64_to_f80(f64_value(r)),
        6 => {
            // Random significand with the integer bit, moderate exponent.
            let m = r.next() | (1 << 63);
            let e = (16383 - 40 + r.below(80)) as u16 | ((r.below(2) as u16) << 15);
            let mut o = [0u8; 10];
            o[..8].copy_from_slice(&m.to_le_bytes());
            o[8..].copy_from_slice(&e.to_le_bytes());
            o
        }
        7 => {
            // Denormal or pseudo-denormal (exponent 0, integer bit either way).
            let m = r.next() >> r.below(64);
            let mut o = [0u8; 10];
            o[..8].copy_from_slice(&m.to_le_bytes());
            o[8..].copy_from_slice(&((r.below(2) as u16) << 15).to_le_bytes());
            o
        }
        _ => {
            let mut o = [0u8; 10];
            o[..8].copy_from_slice(&r.next().to_le_bytes());
            o[8..].copy_from_slice(&(r.next() as u16).to_le_bytes());
            o
        }
    }
}

fn vector_value(r: &mut Rng) -> [u8; 16] {
    let mut v = [0u8; 16];
    match r.below(4) {
        0 => {
            for i in 0..4 {
                v[4 * i..4 * i + 4].copy_from_slice(&f32_value(r).to_le_bytes());
            }
        }
        1 => {
            for i in 0..2 {
                v[8 * i..8 * i + 8].copy_from_slice(&f64_value(r).to_le_bytes());
            }
        }
        2 => {
            for i in 0..2 {
                v[8 * i..8 * i + 8].copy_from_slice(&gpr_value(r).to_le_bytes());
            }
        }
        _ => {
            for b in v.iter_mut() {
                *b = match r.below(4) {
                    0 => 0,
                    1 => 0xff,
                    2 => r.below(32) as u8,
                    _ => r.next() as u8,
                };
            }
        }
    }
    v
}

/// A random machine state (the operand memory random too).
pub fn random_state(r: &mut Rng) -> State {
    let mut gpr = [0u64; 16];
    for g in gpr.iter_mut() {
        *g = gpr_value(r);
    }
    gpr[RSP] = CASE_RSP;
    // The arithmetic flags at random; DF, TF, AC and the rest clear (IF set,
    // as user code always runs).
    let flags = 0x202 | (r.next() & 0x8d5);
    let mut fxs = vec![0u8; 512];
    // x87: every exception masked, any precision and rounding.
    let pc = r.pick(&[0u16, 2, 3, 3]);
    let rc = r.below(4) as u16;
    let fcw = 0x3f | 0x40 | (pc << 8) | (rc << 10);
    fxs[fx::FCW..fx::FCW + 2].copy_from_slice(&fcw.to_le_bytes());
    let top = if r.chance(50) { 0 } else { r.below(8) as u16 };
    let fsw = (top << 11) | (r.next() as u16 & 0x4700 * r.below(2) as u16);
    fxs[fx::FSW..fx::FSW + 2].copy_from_slice(&fsw.to_le_bytes());
    fxs[fx::FTW] = match r.below(4) {
        0 => 0,
        1 => r.next() as u8,
        _ => 0xff,
    };
    // The last instruction's opcode (any 16 bits: 11 are kept), instruction
    // pointer (a canonical address) and data pointer (any 64 bits).
    fxs[fx::FOP..fx::FOP + 2].copy_from_slice(&(r.next() as u16).to_le_bytes());
    let fip = (((gpr_value(r) << 16) as i64) >> 16) as u64;
    fxs[fx::FIP..fx::FIP + 8].copy_from_slice(&fip.to_le_bytes());
    fxs[fx::FDP..fx::FDP + 8].copy_from_slice(&gpr_value(r).to_le_bytes());
    let mut mxcsr: u32 = 0x1f80 | ((r.below(4) as u32) << 13);
    if r.chance(15) {
        mxcsr |= 0x8000; // FTZ
    }
    if r.chance(15) {
        mxcsr |= 0x40; // DAZ
    }
    if r.chance(20) {
        mxcsr |= r.next() as u32 & 0x3f; // sticky flags
    }
    if r.chance(5) {
        mxcsr &= !((r.next() as u32 & 0x3f) << 7); // some exceptions unmasked
    }
    fxs[fx::MXCSR..fx::MXCSR + 4].copy_from_slice(&mxcsr.to_le_bytes());
    for i in 0..8 {
        let v = f80_value(r);
        fxs[fx::ST + 16 * i..fx::ST + 16 * i + 10].copy_from_slice(&v);
    }
    for i in 0..16 {
        let v = vector_value(r);
        fxs[fx::XMM + 16 * i..fx::XMM + 16 * i + 16].copy_from_slice(&v);
    }
    let mut mem = vec![0u8; MEM_SIZE];
    for chunk in mem.chunks_mut(16) {
        chunk.copy_from_slice(&vector_value(r));
    }
    let mut ymmh = vec![0u8; 256];
    for chunk in ymmh.chunks_mut(16) {
        chunk.copy_from_slice(&vector_value(r));
    }
    State {
        gpr,
        flags,
        fx: fxs,
        ymmh,
        mem,
    }
}

fn gpr_number(reg: Register) -> usize {
    reg.full_register().number() - Register::RAX.number()
}

fn pick_reg(r: &mut Rng, first: Register, count: usize, avoid_rsp: bool) -> Register {
    loop {
        let n = r.below(count as u64) as usize;
        let reg = Register::try_from(first as usize + n).expect("register");
        if avoid_rsp && count == 16 && n == RSP {
            continue;
        }
        return reg;
    }
}

/// The seed of one case of a class.
pub fn case_seed(seed: u64, class: &str, index: u64) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for b in class.bytes() {
        h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
    }
    seed ^ h ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// Build case `index` of `class` from `codes` (the class's codes, possibly
/// narrowed to a mnemonic).
pub fn make_case(class: &'static str, codes: &[Code], seed: u64, index: u64) -> Case {
    let mut r = Rng::new(case_seed(seed, class, index));
    loop {
        let code = r.pick(codes);
        if let Some(case) = try_case(&mut r, class, code, index) {
            return case;
        }
    }
}

fn try_case(r: &mut Rng, class: &'static str, code: Code, index: u64) -> Option<Case> {
    let op = code.op_code();
    let mut input = random_state(r);
    if class == "x87" && r.chance(10) {
        // Some x87 exceptions unmasked: the case leaves #MF pending (the
        // epilogue's FXSAVE64 does not wait), with what the instruction
        // wrote before it (an overflow's or underflow's biased result).
        let fcw = u16::from_le_bytes([input.fx[fx::FCW], input.fx[fx::FCW + 1]]);
        let fcw = fcw & !(r.next() as u16 & 0x38);
        input.fx[fx::FCW..fx::FCW + 2].copy_from_slice(&fcw.to_le_bytes());
    }
    let mut insn = Instruction::with(code);
    let mut mem_off: Option<usize> = None;
    let size = insn.memory_size().size().max(1);
    let fx_image = matches!(
        insn.mnemonic(),
        Mnemonic::Fxsave | Mnemonic::Fxsave64 | Mnemonic::Fxrstor | Mnemonic::Fxrstor64
    );
    let mut imm_seen = 0;
    for (i, k) in op.op_kinds().iter().enumerate() {
        let i = i as u32;
        let reg_or_mem = matches!(
            k,
            K::r8_or_mem
                | K::r16_or_mem
                | K::r32_or_mem
                | K::r64_or_mem
                | K::mm_or_mem
                | K::xmm_or_mem
                | K::ymm_or_mem
        );
        if let Some((wide, qword_index)) = match k {
            K::mem_vsib32x => Some((false, false)),
            K::mem_vsib64x => Some((false, true)),
            K::mem_vsib32y => Some((true, false)),
            K::mem_vsib64y => Some((true, true)),
            _ => None,
        } {
            // A gather's VSIB operand: base + disp + (index j << scale),
            // each element's address mostly inside the operand memory,
            // sometimes across its end or past it (a fault), the indexes
            // negative and positive around a base in the middle.
            let scale = r.below(4) as u32;
            let data = insn.memory_size().element_size().max(1);
            let index = pick_reg(r, Register::XMM0, 16, false);
            let n_index = if wide { 32 } else { 16 } / if qword_index { 8 } else { 4 };
            let ea = MEM + 0x1000 + r.below(8);
            let x = (index.number() - Register::XMM0.number()) as usize;
            let fault = r.chance(10);
            for j in 0..n_index {
                let target = if fault && r.chance(40) {
                    (MEM_SIZE - data + 1 + r.below(data as u64 + 8) as usize) as u64
                } else {
                    (0x200 + r.below(0x1c00)) & !(data as u64 - 1)
                };
                let idx = ((MEM + target) as i64 - ea as i64) >> scale;
                let bytes = if qword_index {
                    idx.to_le_bytes().to_vec()
                } else {
                    (idx as i32).to_le_bytes().to_vec()
                };
                let at = j * bytes.len();
                for (b, v) in bytes.iter().enumerate() {
                    let o = at + b;
                    if o < 16 {
                        input.fx[fx::XMM + 16 * x + o] = *v;
                    } else {
                        input.ymmh[16 * x + o - 16] = *v;
                    }
                }
            }
            let base = pick_reg(r, Register::RAX, 16, false);
            let n = gpr_number(base);
            if n == RSP {
                return None;
            }
            let disp: i64 = match r.below(3) {
                0 => 0,
                1 => r.below(256) as i64 - 128,
                _ => r.below(0x10000) as i64 - 0x8000,
            };
            input.gpr[n] = (ea as i64 - disp) as u64;
            let index = if wide {
                Register::try_from(Register::YMM0 as usize + x).expect("register")
            } else {
                index
            };
            insn.set_op_kind(i, iced_x86::OpKind::Memory);
            insn.set_memory_base(base);
            insn.set_memory_index(index);
            insn.set_memory_index_scale(1 << scale);
            insn.set_memory_displacement64(disp as u64);
            insn.set_memory_displ_size(8);
            continue;
        }
        let use_mem = *k == K::mem || (reg_or_mem && r.chance(50));
        if use_mem {
            // Where the operand lies in the operand memory: aligned, anywhere,
            // or across the end (into the unmapped page).
            let align = size.clamp(1, 32);
            let off = match r.below(10) {
                0..=5 => (0x200 + r.below(0x1800) as usize) & !(align - 1),
                6..=8 => 0x200 + r.below(0x1800) as usize,
                // FXSAVE's image must be aligned: it crosses aligned.
                _ if fx_image => (MEM_SIZE - 1 - r.below(size as u64) as usize) & !15,
                _ => MEM_SIZE - 1 - r.below(size as u64) as usize,
            };
            let addr = MEM + off as u64;
            mem_off = Some(off);
            let m = if r.chance(15) {
                MemoryOperand::with_base_displ(Register::RIP, addr as i64)
            } else {
                let base = pick_reg(r, Register::RAX, 16, false);
                let disp: i64 = match r.below(3) {
                    0 => 0,
                    1 => r.below(256) as i64 - 128,
                    _ => r.below(0x10000) as i64 - 0x8000,
                };
                let n = gpr_number(base);
                if n == RSP {
                    // RSP stays the case's stack pointer.
                    MemoryOperand::with_base_displ(Register::RSP, addr as i64 - CASE_RSP as i64)
                } else {
                    input.gpr[n] = (addr as i64 - disp) as u64;
                    MemoryOperand::with_base_displ(base, disp)
                }
            };
            insn.set_op_kind(i, iced_x86::OpKind::Memory);
            insn.set_memory_base(m.base);
            insn.set_memory_index(Register::None);
            insn.set_memory_index_scale(1);
            insn.set_memory_displacement64(m.displacement as u64);
            insn.set_memory_displ_size(if m.base == Register::RIP { 8 } else { 4 });
            if op.can_use_lock_prefix() && r.chance(30) {
                insn.set_has_lock_prefix(true);
            }
            continue;
        }
        let reg = match k {
            K::r8_or_mem | K::r8_reg | K::r8_opcode => {
                // AL..R15L or the legacy high bytes.
                let n = r.below(20) as u8;
                Register::try_from(Register::AL as usize + n as usize).expect("register")
            }
            K::r16_or_mem | K::r16_reg | K::r16_reg_mem | K::r16_rm | K::r16_opcode => {
                pick_reg(r, Register::AX, 16, true)
            }
            K::r32_or_mem
            | K::r32_reg
            | K::r32_reg_mem
            | K::r32_rm
            | K::r32_opcode
            | K::r32_vvvv => pick_reg(r, Register::EAX, 16, true),
            K::r64_or_mem
            | K::r64_reg
            | K::r64_reg_mem
            | K::r64_rm
            | K::r64_opcode
            | K::r64_vvvv => pick_reg(r, Register::RAX, 16, true),
            K::mm_or_mem | K::mm_reg | K::mm_rm => pick_reg(r, Register::MM0, 8, false),
            K::xmm_or_mem | K::xmm_reg | K::xmm_rm | K::xmm_vvvv | K::xmm_is4 => {
                pick_reg(r, Register::XMM0, 16, false)
            }
            K::ymm_or_mem | K::ymm_reg | K::ymm_rm | K::ymm_vvvv | K::ymm_is4 => {
                pick_reg(r, Register::YMM0, 16, false)
            }
            K::al => Register::AL,
            K::cl => Register::CL,
            K::ax => Register::AX,
            K::eax => Register::EAX,
            K::rax => Register::RAX,
            K::st0 => Register::ST0,
            K::sti_opcode => pick_reg(r, Register::ST0, 8, false),
            _ => Register::None,
        };
        if reg != Register::None {
            insn.set_op_kind(i, iced_x86::OpKind::Register);
            insn.set_op_register(i, reg);
            continue;
        }
        let imm = match r.below(4) {
            0 => r.below(70),
            1 => r.pick(GPR_EDGES),
            _ => r.next(),
        };
        let kind = match k {
            K::imm8 if imm_seen == 0 => iced_x86::OpKind::Immediate8,
            K::imm8 => iced_x86::OpKind::Immediate8_2nd,
            K::imm8_const_1 => iced_x86::OpKind::Immediate8,
            K::imm8sex16 => iced_x86::OpKind::Immediate8to16,
            K::imm8sex32 => iced_x86::OpKind::Immediate8to32,
            K::imm8sex64 => iced_x86::OpKind::Immediate8to64,
            K::imm16 => iced_x86::OpKind::Immediate16,
            K::imm32 => iced_x86::OpKind::Immediate32,
            K::imm32sex64 => iced_x86::OpKind::Immediate32to64,
            K::imm64 => iced_x86::OpKind::Immediate64,
            _ => return None,
        };
        insn.set_op_kind(i, kind);
        match kind {
            iced_x86::OpKind::Immediate8 => {
                insn.set_immediate8(if *k == K::imm8_const_1 { 1 } else { imm as u8 })
            }
            iced_x86::OpKind::Immediate8_2nd => insn.set_immediate8_2nd(imm as u8),
            iced_x86::OpKind::Immediate8to16 => insn.set_immediate8to16(imm as i8 as i16),
            iced_x86::OpKind::Immediate8to32 => insn.set_immediate8to32(imm as i8 as i32),
            iced_x86::OpKind::Immediate8to64 => insn.set_immediate8to64(imm as i8 as i64),
            iced_x86::OpKind::Immediate16 => insn.set_immediate16(imm as u16),
            iced_x86::OpKind::Immediate32 => insn.set_immediate32(imm as u32),
            iced_x86::OpKind::Immediate32to64 => insn.set_immediate32to64(imm as i32 as i64),
            iced_x86::OpKind::Immediate64 => insn.set_immediate64(imm),
            _ => unreachable!(),
        }
        imm_seen += 1;
    }
    // Compare-and-exchange succeeds half the time: the accumulator (pair)
    // made equal to the destination.
    match insn.mnemonic() {
        Mnemonic::Cmpxchg | Mnemonic::Cmpxchg8b | Mnemonic::Cmpxchg16b if r.chance(50) => {
            let (lo, hi) = if let Some(off) = mem_off {
                let rd = |o: usize| {
                    let mut b = [0u8; 8];
                    for (j, x) in b.iter_mut().enumerate() {
                        *x = input.mem.get(o + j).copied().unwrap_or(0);
                    }
                    u64::from_le_bytes(b)
                };
                match insn.mnemonic() {
                    Mnemonic::Cmpxchg8b => {
                        let v = rd(off);
                        (v & 0xffff_ffff, v >> 32)
                    }
                    _ => (rd(off), rd(off + 8)),
                }
            } else {
                (input.gpr[gpr_number(insn.op0_register())], input.gpr[2])
            };
            // Keep the upper halves random: only the compared width matters.
            let w = match insn.memory_size().size() {
                1 => 0xff,
                2 => 0xffff,
                4 => 0xffff_ffff,
                8 | 16 => u64::MAX,
                _ => match insn.op0_register().size() {
                    1 => 0xff,
                    2 => 0xffff,
                    4 => 0xffff_ffff,
                    _ => u64::MAX,
                },
            };
            if insn.mnemonic() == Mnemonic::Cmpxchg8b {
                input.gpr[0] = (input.gpr[0] & !0xffff_ffff) | lo;
                input.gpr[2] = (input.gpr[2] & !0xffff_ffff) | hi;
            } else {
                input.gpr[0] = (input.gpr[0] & !w) | (lo & w);
                if insn.mnemonic() == Mnemonic::Cmpxchg16b {
                    input.gpr[2] = hi;
                }
            }
        }
        _ => {}
    }
    // FXRSTOR: most images with a valid MXCSR (random bytes have reserved
    // bits set: #GP) and any FOP, FIP, FDP, registers and tags.
    if matches!(insn.mnemonic(), Mnemonic::Fxrstor | Mnemonic::Fxrstor64) && r.chance(75) {
        if let Some(off) = mem_off {
            let m = fx::MXCSR;
            let v = (r.next() as u32 & 0xffff).to_le_bytes();
            for (j, b) in v.iter().enumerate() {
                if let Some(x) = input.mem.get_mut(off + m + j) {
                    *x = *b;
                }
            }
        }
    }
    // PCMPxSTRx: strings from a small alphabet (so that needles and sets
    // match, also across the block's end), and for the explicit-length forms
    // lengths near the element counts, negative ones and the extremes
    // (-2^31, -2^63), in registers that do not address the memory operand.
    if matches!(
        insn.mnemonic(),
        Mnemonic::Pcmpestri
            | Mnemonic::Pcmpestri64
            | Mnemonic::Pcmpestrm
            | Mnemonic::Pcmpestrm64
            | Mnemonic::Pcmpistri
            | Mnemonic::Pcmpistrm
    ) {
        if r.chance(60) {
            let alphabet: &[u8] = r.pick(&[&b"ab"[..], b"abc\0", b"a\0", b"\x80\x7f\x01\xff"]);
            for i in 0..16 {
                for b in 0..16 {
                    input.fx[fx::XMM + 16 * i + b] = r.pick(alphabet);
                }
            }
            if let Some(off) = mem_off {
                for b in off..(off + 16).min(MEM_SIZE) {
                    input.mem[b] = r.pick(alphabet);
                }
            }
        }
        let base = insn.memory_base();
        for (g, reg) in [(0, Register::RAX), (2, Register::RDX)] {
            if mem_off.is_some() && base == reg || !r.chance(70) {
                continue;
            }
            let v: i64 = match r.below(8) {
                0 => i32::MIN as i64,
                1 => i64::MIN,
                _ => r.below(41) as i64 - 20,
            };
            input.gpr[g] = if r.chance(50) {
                v as u64
            } else {
                // Only EAX/EDX count without REX.W: the upper half at random.
                (v as u64 & 0xffff_ffff) | (r.next() << 32)
            };
        }
    }
    // A gather whose destination, index and mask registers are not three
    // different registers is #UD: not worth a case.
    let vsib = insn.memory_index();
    if vsib.is_xmm() || vsib.is_ymm() {
        let num = |r: Register| r.full_register().number();
        let (d, m) = (insn.op0_register(), insn.op2_register());
        if num(d) == num(vsib) || num(m) == num(vsib) || num(d) == num(m) {
            return None;
        }
    }
    let mut enc = Encoder::new(64);
    enc.encode(&insn, INSN).ok()?;
    let bytes = enc.take_buffer();
    // Decode back, so that the case holds what the CPU will see.
    let mut dec = iced_x86::Decoder::with_ip(64, &bytes, INSN, iced_x86::DecoderOptions::NONE);
    let insn = dec.decode();
    if insn.is_invalid() || insn.len() != bytes.len() {
        return None;
    }
    Some(Case {
        class,
        index,
        insn,
        bytes,
        input,
    })
}
