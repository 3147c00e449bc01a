//! The instruction-level differential tester: seeded cases of every
//! instruction class the virtual CPU advertises run on the host CPU (the
//! oracle) and in the VM's CPU from the same registers and memory, and every
//! architecturally defined result is compared (see `docs/cpu.md`).

pub mod emu;
pub mod gen;
pub mod host;
pub mod layout;

use std::fmt::Write as _;

use iced_x86::{Instruction, InstructionInfoFactory, Mnemonic, RflagsBits};

use gen::{Case, Class, State};
use layout::{fx, INSN};

/// A fault as the signal it raises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault {
    pub signo: i32,
    /// `si_code`; -1 when not compared.
    pub code: i32,
    pub addr: u64,
    pub rip: u64,
}

#[derive(Clone, Debug)]
pub struct Outcome {
    pub state: State,
    pub fault: Option<Fault>,
}

/// One differing field: name, host, VM.
pub type Diff = (String, String, String);

/// A known divergence: the instructions (class, mnemonic or `*`) and the
/// kind of field that differs (see [`field_kind`], or `*`), with whose it is
/// and why. The tests require each entry to still occur, so the list can
/// only shrink; everything else must match exactly.
pub struct Known {
    pub class: &'static str,
    pub mnemonic: &'static str,
    pub field: &'static str,
    pub why: &'static str,
}

mod known;
pub use known::KNOWN;

/// The kind of a compared field: `gpr`, `rflags`, `fcw`, `fsw`, `ftw`,
/// `fop`, `fip`, `fdp`, `mxcsr`, `st`, `st.exp`, `xmm`, `mem`, `fault`.
pub fn field_kind(field: &str) -> &'static str {
    const GPRS: [&str; 16] = GPR_NAMES;
    if GPRS.contains(&field) {
        return "gpr";
    }
    for k in [
        "rflags", "fcw", "fsw", "ftw", "fop", "fip", "fdp", "mxcsr", "xmm", "ymm", "mem", "fault",
    ] {
        if field.starts_with(k) {
            return k;
        }
    }
    if field.starts_with("st") {
        return if field.ends_with(".exp") {
            "st.exp"
        } else {
            "st"
        };
    }
    "other"
}

/// The known entry that covers a differing field of an instruction.
pub fn known_entry(class: &str, mnemonic: Mnemonic, field: &str) -> Option<usize> {
    let m = format!("{mnemonic:?}");
    let kind = field_kind(field);
    KNOWN.iter().position(|k| {
        k.class == class
            && (k.mnemonic == "*" || k.mnemonic == m)
            && (k.field == "*" || k.field == kind)
    })
}

/// The flags an instruction defines, as RFLAGS bits (iced-x86's tables).
fn defined_flags(insn: &Instruction) -> (u64, u16) {
    let undef = insn.rflags_undefined();
    let mut mask = 0x8d5u64 | 0x400; // OF DF SF ZF AF PF CF
    for (b, f) in [
        (RflagsBits::OF, 0x800u64),
        (RflagsBits::SF, 0x80),
        (RflagsBits::ZF, 0x40),
        (RflagsBits::AF, 0x10),
        (RflagsBits::CF, 0x1),
        (RflagsBits::PF, 0x4),
    ] {
        if undef & b != 0 {
            mask &= !f;
        }
    }
    let mut fsw_mask = 0xffffu16;
    for (b, f) in [
        (RflagsBits::C0, 0x100u16),
        (RflagsBits::C1, 0x200),
        (RflagsBits::C2, 0x400),
        (RflagsBits::C3, 0x4000),
    ] {
        if undef & b != 0 {
            fsw_mask &= !f;
        }
    }
    (mask, fsw_mask)
}

/// The x87 transcendental instructions, compared with a tolerance: the
/// hardware's results are within 1 ulp of the true value, not always the
/// correctly rounded one (docs/cpu.md).
pub fn is_transcendental(m: Mnemonic) -> bool {
    matches!(
        m,
        Mnemonic::Fsin
            | Mnemonic::Fcos
            | Mnemonic::Fsincos
            | Mnemonic::Fptan
            | Mnemonic::Fpatan
            | Mnemonic::F2xm1
            | Mnemonic::Fyl2x
            | Mnemonic::Fyl2xp1
    )
}

/// An 80-bit value (little-endian bytes) as its sign and the position of its
/// magnitude among the 80-bit values (denormals, then normals in order), so
/// that adjacent values differ by 1; None for NaNs, infinities, zeros and
/// the unsupported formats.
fn x87_ordinal(b: &[u8]) -> Option<(bool, u128)> {
    let sig = u64::from_le_bytes(b[0..8].try_into().unwrap());
    let se = u16_at(b, 8);
    let e = se & 0x7fff;
    let integer = sig >> 63 == 1;
    if e == 0x7fff || sig == 0 || (e != 0 && !integer) || (e == 0 && integer) {
        return None;
    }
    let low = sig & !(1u64 << 63);
    Some((se >> 15 == 1, ((e as u128) << 63) | low as u128))
}

/// Two 80-bit values within one unit in the last place of each other.
pub fn within_ulp(h: &[u8], v: &[u8]) -> bool {
    match (x87_ordinal(h), x87_ordinal(v)) {
        (Some((hs, hk)), Some((vs, vk))) => hs == vs && hk.abs_diff(vk) <= 1,
        _ => false,
    }
}

/// Whether the host keeps the x87 unit's last-instruction pointers as the
/// virtual CPU does (docs/cpu.md), so that they can be compared: an Intel
/// CPU that changes FDP (and FOP) only on unmasked x87 exceptions
/// (CPUID.7.0:EBX[6]) and stores FCS and FDS as 0 (EBX[13]). Elsewhere (AMD's
/// FXSAVE, for one, leaves them out unless an exception is pending) FOP, FIP
/// and FDP are not compared, and `cputest` says so.
pub fn host_keeps_x87_pointers() -> bool {
    static KEEPS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *KEEPS.get_or_init(|| {
        let v = host_cpuid(0, 0);
        let intel = (v[1], v[3], v[2]) == (0x756e_6547, 0x4965_6e69, 0x6c65_746e);
        intel && v[0] >= 7 && host_cpuid(7, 0)[1] & (1 << 6 | 1 << 13) == 1 << 6 | 1 << 13
    })
}

/// A linear address as the virtual CPU holds it: 48 bits, sign-extended
/// (a host with 57-bit addresses keeps a FIP that FXRSTOR64 loads to 57).
fn canonical48(a: u64) -> u64 {
    (((a << 16) as i64) >> 16) as u64
}

const GPR_NAMES: [&str; 16] = [
    "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13",
    "r14", "r15",
];

fn u16_at(b: &[u8], o: usize) -> u16 {
    u16::from_le_bytes([b[o], b[o + 1]])
}

fn hex(b: &[u8]) -> String {
    b.iter().rev().map(|x| format!("{x:02x}")).collect()
}

/// Compare the host's outcome with the VM's: every field the manuals define.
pub fn compare(insn: &Instruction, h: &Outcome, v: &Outcome) -> Vec<Diff> {
    let mut d = Vec::new();
    let fault = |f: &Option<Fault>| match f {
        None => "none".to_string(),
        Some(f) => format!("signal {} code {:#x} addr {:#x}", f.signo, f.code, f.addr),
    };
    match (&h.fault, &v.fault) {
        (None, None) => {}
        (Some(a), Some(b)) => {
            let same = a.signo == b.signo
                && (a.code == b.code || a.code == -1 || b.code == -1)
                && (a.addr == b.addr || b.code == -1 || a.code == -1);
            if !same || a.rip != INSN {
                d.push(("fault".into(), fault(&h.fault), fault(&v.fault)));
            } else {
                // What was written before the fault (nothing, or the part
                // before the page the host could not write).
                compare_mem(&mut d, &h.state.mem, &v.state.mem);
            }
            return d;
        }
        _ => {
            d.push(("fault".into(), fault(&h.fault), fault(&v.fault)));
            return d;
        }
    }
    let (hs, vs) = (&h.state, &v.state);
    for i in 0..16 {
        if hs.gpr[i] != vs.gpr[i] {
            d.push((
                GPR_NAMES[i].into(),
                format!("{:#x}", hs.gpr[i]),
                format!("{:#x}", vs.gpr[i]),
            ));
        }
    }
    let (fmask, fsw_mask) = defined_flags(insn);
    if hs.flags & fmask != vs.flags & fmask {
        d.push((
            format!("rflags&{fmask:#x}"),
            format!("{:#x}", hs.flags & fmask),
            format!("{:#x}", vs.flags & fmask),
        ));
    }
    let (hf, vf) = (&hs.fx, &vs.fx);
    // The transcendental instructions: a finite non-zero result may be
    // 1 ulp apart, and C1 (which way the hardware's own approximation was
    // rounded) is then not compared.
    let trans = is_transcendental(insn.mnemonic());
    let fsw_mask = if trans && x87_ordinal(&hf[fx::ST..fx::ST + 10]).is_some() {
        fsw_mask & !0x200
    } else {
        fsw_mask
    };
    if u16_at(hf, fx::FCW) != u16_at(vf, fx::FCW) {
        d.push((
            "fcw".into(),
            format!("{:#x}", u16_at(hf, fx::FCW)),
            format!("{:#x}", u16_at(vf, fx::FCW)),
        ));
    }
    let (hsw, vsw) = (
        u16_at(hf, fx::FSW) & fsw_mask,
        u16_at(vf, fx::FSW) & fsw_mask,
    );
    if hsw != vsw {
        d.push((
            format!("fsw&{fsw_mask:#x}"),
            format!("{hsw:#x}"),
            format!("{vsw:#x}"),
        ));
    }
    if host_keeps_x87_pointers() {
        let u64_at = |b: &[u8], o: usize| u64::from_le_bytes(b[o..o + 8].try_into().unwrap());
        let pointers = [
            (
                "fop",
                u16_at(hf, fx::FOP) as u64,
                u16_at(vf, fx::FOP) as u64,
            ),
            ("fip", canonical48(u64_at(hf, fx::FIP)), u64_at(vf, fx::FIP)),
            ("fdp", u64_at(hf, fx::FDP), u64_at(vf, fx::FDP)),
        ];
        for (name, h, v) in pointers {
            if h != v {
                d.push((name.into(), format!("{h:#x}"), format!("{v:#x}")));
            }
        }
    }
    if hf[fx::FTW] != vf[fx::FTW] {
        d.push((
            "ftw".into(),
            format!("{:#04x}", hf[fx::FTW]),
            format!("{:#04x}", vf[fx::FTW]),
        ));
    }
    let hm = u32::from_le_bytes(hf[fx::MXCSR..fx::MXCSR + 4].try_into().unwrap());
    let vm_ = u32::from_le_bytes(vf[fx::MXCSR..fx::MXCSR + 4].try_into().unwrap());
    if hm != vm_ {
        d.push(("mxcsr".into(), format!("{hm:#x}"), format!("{vm_:#x}")));
    }
    let top = (u16_at(hf, fx::FSW) >> 11) & 7;
    for i in 0..8 {
        let phys = (top as usize + i) & 7;
        if hf[fx::FTW] & (1 << phys) == 0 {
            continue; // empty: no value to compare
        }
        let o = fx::ST + 16 * i;
        if hf[o..o + 10] != vf[o..o + 10] && !(trans && within_ulp(&hf[o..o + 10], &vf[o..o + 10]))
        {
            // The sign and exponent alone (what an MMX write sets) or more.
            let name = if hf[o..o + 8] == vf[o..o + 8] {
                format!("st{i}.exp")
            } else {
                format!("st{i}")
            };
            d.push((name, hex(&hf[o..o + 10]), hex(&vf[o..o + 10])));
        }
    }
    for i in 0..16 {
        let o = fx::XMM + 16 * i;
        if hf[o..o + 16] != vf[o..o + 16] {
            d.push((format!("xmm{i}"), hex(&hf[o..o + 16]), hex(&vf[o..o + 16])));
        }
    }
    for i in 0..16 {
        let o = 16 * i;
        if hs.ymmh[o..o + 16] != vs.ymmh[o..o + 16] {
            d.push((
                format!("ymm{i}.hi"),
                hex(&hs.ymmh[o..o + 16]),
                hex(&vs.ymmh[o..o + 16]),
            ));
        }
    }
    compare_mem(&mut d, &hs.mem, &vs.mem);
    d
}

/// The operand memory, 16 bytes around each difference.
fn compare_mem(d: &mut Vec<Diff>, h: &[u8], v: &[u8]) {
    let mut i = 0;
    while i < h.len() {
        if h[i] != v[i] {
            let start = i & !15;
            let end = (start + 16).min(h.len());
            d.push((
                format!("mem[{:#x}]", layout::MEM + start as u64),
                hex(&h[start..end]),
                hex(&v[start..end]),
            ));
            i = end;
            if d.len() > 40 {
                break;
            }
        } else {
            i += 1;
        }
    }
}

pub fn disasm(insn: &Instruction) -> String {
    let mut f = iced_x86::FastFormatter::new();
    let mut s = String::new();
    f.format(insn, &mut s);
    s
}

/// The inputs an instruction reads, for a report.
pub fn describe_inputs(case: &Case) -> String {
    let mut s = String::new();
    let mut info = InstructionInfoFactory::new();
    let info = info.info(&case.insn);
    let st = &case.input;
    for r in info.used_registers() {
        let reg = r.register();
        if reg.is_gpr() {
            let n = reg.full_register().number() - iced_x86::Register::RAX.number();
            let _ = write!(s, " {}={:#x}", GPR_NAMES[n], st.gpr[n]);
        } else if reg.is_xmm() {
            let n = reg.number() - iced_x86::Register::XMM0.number();
            let o = fx::XMM + 16 * n;
            let _ = write!(s, " xmm{n}={}", hex(&st.fx[o..o + 16]));
        } else if reg.is_ymm() {
            let n = reg.number() - iced_x86::Register::YMM0.number();
            let o = fx::XMM + 16 * n;
            let _ = write!(
                s,
                " ymm{n}={}{}",
                hex(&st.ymmh[16 * n..16 * n + 16]),
                hex(&st.fx[o..o + 16])
            );
        } else if reg.is_mm() {
            let n = reg.number() - iced_x86::Register::MM0.number();
            let o = fx::ST + 16 * n;
            let _ = write!(s, " mm{n}={}", hex(&st.fx[o..o + 8]));
        }
    }
    for m in info.used_memory() {
        let addr = m.virtual_address(0, |r, _, _| {
            if r == iced_x86::Register::RIP {
                return Some(case.insn.next_ip());
            }
            if r.is_segment_register() {
                // The segment bases: 0 (the cases use no FS or GS).
                return Some(0);
            }
            let n = r
                .full_register()
                .number()
                .checked_sub(iced_x86::Register::RAX.number())?;
            let v = *st.gpr.get(n)?;
            Some(match r.size() {
                4 => v & 0xffff_ffff,
                2 => v & 0xffff,
                _ => v,
            })
        });
        if let Some(a) = addr {
            let size = m.memory_size().size().max(1);
            if a >= layout::MEM && a - layout::MEM < layout::MEM_SIZE as u64 {
                let o = (a - layout::MEM) as usize;
                let e = (o + size).min(layout::MEM_SIZE);
                let _ = write!(s, " [{a:#x}]={}", hex(&st.mem[o..e]));
            } else {
                let _ = write!(s, " [{a:#x}]=(unmapped)");
            }
        }
    }
    let _ = write!(
        s,
        " rflags={:#x} mxcsr={:#x} fcw={:#x} fsw={:#x} ftw={:#04x}",
        st.flags,
        u32::from_le_bytes(st.fx[fx::MXCSR..fx::MXCSR + 4].try_into().unwrap()),
        u16_at(&st.fx, fx::FCW),
        u16_at(&st.fx, fx::FSW),
        st.fx[fx::FTW]
    );
    if case.insn.cpuid_features().iter().any(|f| {
        matches!(
            f,
            iced_x86::CpuidFeature::FPU
                | iced_x86::CpuidFeature::FPU287
                | iced_x86::CpuidFeature::FPU387
        )
    }) {
        let _ = write!(
            s,
            " fop={:#x} fip={} fdp={}",
            u16_at(&st.fx, fx::FOP),
            hex(&st.fx[fx::FIP..fx::FIP + 8]),
            hex(&st.fx[fx::FDP..fx::FDP + 8])
        );
        for i in 0..8 {
            let o = fx::ST + 16 * i;
            let _ = write!(s, " st{i}={}", hex(&st.fx[o..o + 10]));
        }
    }
    s
}

/// A case whose outcomes differ.
pub struct Mismatch {
    pub case: Case,
    pub seed: u64,
    pub diffs: Vec<Diff>,
    pub known: bool,
}

impl Mismatch {
    pub fn report(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "MISMATCH{} class {} seed {} case {}: {}  ({})",
            if self.known { " (known)" } else { "" },
            self.case.class,
            self.seed,
            self.case.index,
            disasm(&self.case.insn),
            self.case
                .bytes
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect::<Vec<_>>()
                .join(" ")
        );
        let _ = writeln!(s, "  in:{}", describe_inputs(&self.case));
        for (f, h, v) in &self.diffs {
            let _ = writeln!(s, "  {f}: host {h}  vm {v}");
        }
        s
    }
}

/// What a class's run found.
#[derive(Default)]
pub struct ClassRun {
    pub cases: u64,
    /// Mismatching cases by mnemonic: (count, known, the kinds of field).
    pub by_mnemonic:
        std::collections::BTreeMap<String, (u64, bool, std::collections::BTreeSet<&'static str>)>,
    /// How many differing fields each known entry covered.
    pub known_hits: Vec<u64>,
    /// The first mismatches, in full.
    pub examples: Vec<Mismatch>,
    /// Cases neither side could run (the harness's own trouble).
    pub errors: Vec<String>,
}

/// Run cases `first..first+count` of `class` (narrowed to a mnemonic if
/// given) with `seed`.
pub fn run_class(
    emu: &mut emu::Emu,
    class: &Class,
    mnemonic: Option<&str>,
    seed: u64,
    first: u64,
    count: u64,
    keep: usize,
) -> Result<ClassRun, String> {
    let mut codes = gen::codes(class);
    if let Some(m) = mnemonic {
        codes.retain(|c| format!("{:?}", c.mnemonic()).eq_ignore_ascii_case(m));
    }
    if codes.is_empty() {
        return Err(format!(
            "class {} has no instruction {}",
            class.name,
            mnemonic.unwrap_or("")
        ));
    }
    let mut run = ClassRun {
        known_hits: vec![0; KNOWN.len()],
        ..Default::default()
    };
    let template = layout::code_page(emu.avx());
    let batch = 256u64;
    let mut i = first;
    while i < first + count {
        let n = batch.min(first + count - i);
        let cases: Vec<Case> = (i..i + n)
            .map(|k| gen::make_case(class.name, &codes, seed, k))
            .collect();
        let pages: Vec<Vec<u8>> = cases
            .iter()
            .map(|c| {
                let mut p = template.clone();
                layout::set_insn(&mut p, &c.bytes);
                p
            })
            .collect();
        let hc: Vec<host::HostCase<'_>> = cases
            .iter()
            .zip(&pages)
            .map(|(c, p)| host::HostCase {
                page: p,
                input: &c.input,
            })
            .collect();
        let host_out = host::run(&hc);
        for ((case, page), h) in cases.into_iter().zip(&pages).zip(host_out) {
            run.cases += 1;
            let h = match h {
                Ok(h) => h,
                Err(e) => {
                    run.errors.push(format!(
                        "case {}: {}: host: {e}",
                        case.index,
                        disasm(&case.insn)
                    ));
                    continue;
                }
            };
            let v = match emu.run(page, &case.input) {
                Ok(v) => v,
                Err(e) => {
                    run.errors.push(format!(
                        "case {}: {}: vm: {e}",
                        case.index,
                        disasm(&case.insn)
                    ));
                    continue;
                }
            };
            let mut diffs = compare(&case.insn, &h, &v);
            if !diffs.is_empty() {
                // The host's outcome is taken again before a mismatch counts:
                // this machine's CPU (a virtual one) now and then hands back
                // a case with registers it did not compute. Two runs of
                // three that agree are the host's answer.
                match host_again(page, &case, &h) {
                    Ok(Some(h)) => diffs = compare(&case.insn, &h, &v),
                    Ok(None) => {}
                    Err(e) => {
                        run.errors.push(format!(
                            "case {}: {}: host: {e}",
                            case.index,
                            disasm(&case.insn)
                        ));
                        continue;
                    }
                }
            }
            if diffs.is_empty() {
                continue;
            }
            let mut known = true;
            for (f, _, _) in &diffs {
                match known_entry(class.name, case.insn.mnemonic(), f) {
                    Some(k) => run.known_hits[k] += 1,
                    None => known = false,
                }
            }
            let e = run
                .by_mnemonic
                .entry(format!("{:?}", case.insn.mnemonic()))
                .or_insert((0, true, Default::default()));
            e.0 += 1;
            e.1 &= known;
            e.2.extend(diffs.iter().map(|d| field_kind(&d.0)));
            let shown = run
                .examples
                .iter()
                .filter(|m| m.case.insn.mnemonic() == case.insn.mnemonic())
                .count();
            if run.examples.len() < keep && (shown < 3 || mnemonic.is_some()) {
                run.examples.push(Mismatch {
                    case,
                    seed,
                    diffs,
                    known,
                });
            }
        }
        i += n;
    }
    Ok(run)
}

/// The host's outcome of `case` run again: `None` when the second run
/// agrees with `first`, else the outcome that two of three runs agree on.
fn host_again(page: &[u8], case: &Case, first: &Outcome) -> Result<Option<Outcome>, String> {
    let once = || -> Result<Outcome, String> {
        let hc = [host::HostCase {
            page,
            input: &case.input,
        }];
        host::run(&hc).pop().unwrap_or(Err("no host result".into()))
    };
    let second = once()?;
    if compare(&case.insn, first, &second).is_empty() {
        return Ok(None);
    }
    let third = once()?;
    if compare(&case.insn, &second, &third).is_empty() {
        Ok(Some(second))
    } else if compare(&case.insn, first, &third).is_empty() {
        Ok(None)
    } else {
        Err("three runs on the host gave three outcomes".into())
    }
}

/// CPUID as the VM presents it: (eax, ebx, ecx, edx).
pub fn vm_cpuid(emu: &mut emu::Emu, leaf: u32, sub: u32) -> Result<[u32; 4], String> {
    let mut page = layout::code_page(emu.avx());
    layout::set_insn(&mut page, &[0x0f, 0xa2]);
    let mut r = gen::Rng::new(1);
    let mut st = gen::random_state(&mut r);
    st.gpr[0] = leaf as u64;
    st.gpr[1] = sub as u64;
    st.fx = vec![0; 512];
    st.fx[fx::FCW..fx::FCW + 2].copy_from_slice(&0x37fu16.to_le_bytes());
    st.fx[fx::MXCSR..fx::MXCSR + 4].copy_from_slice(&0x1f80u32.to_le_bytes());
    let o = emu.run(&page, &st)?;
    if let Some(f) = o.fault {
        return Err(format!("cpuid faulted in the VM: signal {}", f.signo));
    }
    let g = o.state.gpr;
    Ok([g[0] as u32, g[3] as u32, g[1] as u32, g[2] as u32])
}

pub fn host_cpuid(leaf: u32, sub: u32) -> [u32; 4] {
    let r = std::arch::x86_64::__cpuid_count(leaf, sub);
    [r.eax, r.ebx, r.ecx, r.edx]
}

/// Whether a class runs: advertised by the VM and present on the host.
/// `Err` says why not.
pub fn class_status(emu: &mut emu::Emu, class: &Class) -> Result<(), String> {
    let Some((leaf, sub, reg, bit)) = class.cpuid else {
        return Ok(());
    };
    let max = if leaf >= 0x8000_0000 { 0x8000_0000 } else { 0 };
    let vm_max = vm_cpuid(emu, max, 0)?[0];
    let vm_has = leaf <= vm_max && vm_cpuid(emu, leaf, sub)?[reg] >> bit & 1 == 1;
    let host_has = leaf <= host_cpuid(max, 0)[0] && host_cpuid(leaf, sub)[reg] >> bit & 1 == 1;
    match (vm_has, host_has) {
        (true, true) => Ok(()),
        (false, _) => Err("not advertised by the VM's CPUID".into()),
        (true, false) => {
            Err("advertised by the VM but missing on the host CPU: cannot be checked here".into())
        }
    }
}

impl ClassRun {
    pub fn mismatched(&self) -> u64 {
        self.by_mnemonic.values().map(|v| v.0).sum()
    }
    /// Mismatches not in the known list.
    pub fn unknown(&self) -> u64 {
        self.by_mnemonic
            .values()
            .filter(|v| !v.1)
            .map(|v| v.0)
            .sum()
    }
}
