//! CPU state at process start and the mapping of CPU exceptions to signals.

use unicorn_engine::{uc_error, Arch, Mode, RegisterX86, Unicorn, X86CpuModel};

use crate::machine::StopReason;
use crate::signals::{SigInfo, FPE_INTDIV, ILL_ILLOPN, SEGV_MAPERR, SI_KERNEL, ST, YMM};

/// `AT_HWCAP` on x86-64 is CPUID.1:EDX of the CPU. Haswell as the emulator
/// filters it (fpu, vme, de, pse, tsc, msr, pae, mce, cx8, apic, sep, mtrr,
/// pge, mca, cmov, pat, pse36, clflush, mmx, fxsr, sse, sse2).
pub const HWCAP: u64 = 0x078b_fbff;

/// CR4.OSFXSR: FXSAVE/FXRSTOR include the SSE state.
const CR4_OSFXSR: u64 = 1 << 9;
/// CR4.OSXMMEXCPT: the OS handles SIMD floating-point exceptions (#XM).
const CR4_OSXMMEXCPT: u64 = 1 << 10;
/// CR4.FSGSBASE: RDFSBASE/WRFSBASE and the GS pair run in user mode.
const CR4_FSGSBASE: u64 = 1 << 16;
/// Linux's x86-64 user code and stack segment selectors (`__USER_CS`,
/// `__USER_DS`).
const USER_CS: u64 = 0x33;
const USER_SS: u64 = 0x2b;

/// CR4.OSXSAVE: XGETBV, XSAVE and the AVX state are enabled (x86-64-v3).
const CR4_OSXSAVE: u64 = 1 << 18;

/// The CPU model a guest runs on (`pathvm run --cpu`), recorded in every
/// profile by [`CpuModel::name`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CpuModel {
    /// x86-64-v2: SSE through SSE4.2, POPCNT, CX16, and MOVBE, BMI1, BMI2,
    /// LZCNT, AES, PCLMULQDQ besides (Haswell without AVX); XSAVE present
    /// but not enabled (OSXSAVE clear), so no AVX state.
    #[default]
    X86_64V2,
    /// x86-64-v3: x86-64-v2 with AVX, AVX2, FMA, F16C, XSAVEC, and XSAVE
    /// enabled with the x87, SSE and AVX state (XCR0 = 7).
    X86_64V3,
}

impl CpuModel {
    /// Every model, in order.
    pub const ALL: [CpuModel; 2] = [CpuModel::X86_64V2, CpuModel::X86_64V3];

    /// The name `--cpu` takes and profiles record.
    pub fn name(self) -> &'static str {
        match self {
            CpuModel::X86_64V2 => "x86-64-v2",
            CpuModel::X86_64V3 => "x86-64-v3",
        }
    }

    /// The model a profile's recorded name stands for: its name, or the
    /// description profiles recorded before models could be chosen (the
    /// x86-64-v2 model).
    pub fn from_recorded(s: &str) -> Option<CpuModel> {
        if s.starts_with("Haswell (as emulated") {
            return Some(CpuModel::X86_64V2);
        }
        s.parse().ok()
    }

    /// Whether the model runs VEX-encoded vector instructions (AVX).
    pub fn has_avx(self) -> bool {
        self == CpuModel::X86_64V3
    }
}

impl std::fmt::Display for CpuModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for CpuModel {
    type Err = String;

    fn from_str(s: &str) -> Result<CpuModel, String> {
        CpuModel::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| format!("unknown CPU model `{s}` (x86-64-v2 or x86-64-v3)"))
    }
}

/// The virtual CPU every guest runs on: a 64-bit unicorn engine with the CPU
/// model chosen (before anything else touches the CPU). The machine and the
/// differential tester (`cputest`) both build theirs here, so the tester
/// tests what guests get; [`init_registers`] then sets the state at entry.
pub fn new_cpu<'a, D>(data: D, model: CpuModel) -> Result<Unicorn<'a, D>, uc_error> {
    let uc = Unicorn::new_with_data(Arch::X86, Mode::MODE_64, data)?;
    uc.ctl_set_cpu_model(X86CpuModel::UC_CPU_X86_HASWELL as i32)?;
    // The first register access makes the CPU; the model's features are
    // set on it.
    uc.reg_read(RegisterX86::RAX)?;
    let level = match model {
        CpuModel::X86_64V2 => 2,
        CpuModel::X86_64V3 => 3,
    };
    // SAFETY: a live engine whose CPU exists; the call only sets CPU state.
    let err = unsafe { uc_pathvm_cpu_level(uc.get_handle(), level) };
    if err != 0 {
        return Err(uc_error::ARG);
    }
    Ok(uc)
}

/// Registers at the first instruction, as Linux leaves them after `execve`.
pub fn init_registers<D>(uc: &mut Unicorn<'_, D>, entry: u64, sp: u64) -> Result<(), uc_error> {
    for r in [
        RegisterX86::RAX,
        RegisterX86::RBX,
        RegisterX86::RCX,
        RegisterX86::RDX,
        RegisterX86::RSI,
        RegisterX86::RDI,
        RegisterX86::RBP,
        RegisterX86::R8,
        RegisterX86::R9,
        RegisterX86::R10,
        RegisterX86::R11,
        RegisterX86::R12,
        RegisterX86::R13,
        RegisterX86::R14,
        RegisterX86::R15,
    ] {
        uc.reg_write(r, 0)?;
    }
    uc.reg_write(RegisterX86::RSP, sp)?;
    uc.reg_write(RegisterX86::RIP, entry)?;
    uc.reg_write(RegisterX86::EFLAGS, 0x202)?;
    uc.reg_write(RegisterX86::FS_BASE, 0)?;
    uc.reg_write(RegisterX86::GS_BASE, 0)?;
    // CR4 as Linux runs user code: OSFXSR (bit 9), so that FXSAVE and
    // FXRSTOR carry the XMM registers and MXCSR (glibc's lazy-binding
    // trampoline `_dl_runtime_resolve_fxsave` saves the argument registers
    // with them), and OSXMMEXCPT (bit 10), so that unmasked SSE exceptions
    // raise #XM. Unicorn's reset sets the translator's OSFXSR flag but
    // leaves CR4 at 0, and the FXSAVE helper reads CR4.
    // And FSGSBASE (bit 16), which Linux sets since 5.9 where the CPU has
    // it: CPUID advertises the instructions, so they must run.
    // OSXSAVE (bit 18) as the model set it (x86-64-v3).
    let osxsave = uc.reg_read(RegisterX86::CR4)? & CR4_OSXSAVE;
    uc.reg_write(
        RegisterX86::CR4,
        CR4_OSFXSR | CR4_OSXMMEXCPT | CR4_FSGSBASE | osxsave,
    )?;
    // The code and stack selectors of a 64-bit Linux process (in 64-bit
    // mode unicorn sets only the selector; DS, ES, FS and GS stay 0).
    uc.reg_write(RegisterX86::CS, USER_CS)?;
    uc.reg_write(RegisterX86::SS, USER_SS)?;
    // The x87 unit as `execve` leaves it (FNINIT's state): control word
    // 0x037F (every exception masked, 64-bit precision, round to nearest),
    // status 0, every register empty. Unicorn's reset leaves the control
    // word at 0 (24-bit precision) and the tags at "valid".
    uc.reg_write(RegisterX86::FPCW, 0x037f)?;
    uc.reg_write(RegisterX86::FPSW, 0)?;
    uc.reg_write(RegisterX86::FPTAG, 0xffff)?;
    // Default MXCSR: all exceptions masked, round to nearest.
    uc.reg_write(RegisterX86::MXCSR, 0x1f80)?;
    Ok(())
}

/// The FPU and SSE state a signal handler starts with: Linux saves the
/// interrupted state in the frame and gives the handler the initial one
/// (FNINIT's x87 state, MXCSR 0x1F80, every register zero).
pub(crate) fn handler_fpu_state<D>(uc: &mut Unicorn<'_, D>) {
    let _ = uc.reg_write(RegisterX86::FPCW, 0x037f);
    let _ = uc.reg_write(RegisterX86::FPSW, 0);
    let _ = uc.reg_write(RegisterX86::FPTAG, 0xffff);
    for r in [RegisterX86::FOP, RegisterX86::FIP, RegisterX86::FDP] {
        let _ = uc.reg_write(r, 0);
    }
    let _ = uc.reg_write(RegisterX86::MXCSR, 0x1f80);
    for r in ST {
        let _ = uc.reg_write_long(r, &[0u8; 10]);
    }
    for r in YMM {
        let _ = uc.reg_write_long(r, &[0u8; 32]);
    }
}

/// The `si_code` of a floating-point exception (#MF, 16, or #XM, 19), from
/// the first of its unmasked pending exceptions as Linux orders them:
/// invalid, zero divide, overflow, underflow or denormal, precision.
pub(crate) fn fpe_code(intno: u32, fcw: u64, fsw: u64, mxcsr: u64) -> i32 {
    let err = if intno == 16 {
        fsw & !fcw
    } else {
        !(mxcsr >> 7) & mxcsr
    };
    if err & 0x01 != 0 {
        7 // FPE_FLTINV
    } else if err & 0x04 != 0 {
        3 // FPE_FLTDIV
    } else if err & 0x08 != 0 {
        4 // FPE_FLTOVF
    } else if err & 0x12 != 0 {
        5 // FPE_FLTUND
    } else if err & 0x20 != 0 {
        6 // FPE_FLTRES
    } else {
        0
    }
}

extern "C" {
    /// pathvm's unicorn patch: the CPU model's features, XCR0 and
    /// CR4.OSXSAVE (level 2: x86-64-v2, 3: x86-64-v3).
    fn uc_pathvm_cpu_level(uc: unicorn_engine::ffi::uc_handle, level: libc::c_int) -> libc::c_int;
    /// pathvm's unicorn patch: CPL 3 with Linux's user segments, CR0.NE,
    /// EFER.SCE (see the patch file).
    fn uc_pathvm_user_mode(uc: unicorn_engine::ffi::uc_handle) -> libc::c_int;
    /// pathvm's unicorn patch: the error code of the exception the interrupt
    /// hook reports, whether an `int n` raised it, and CR2; ends its
    /// delivery (the next exception is not a double fault).
    fn uc_pathvm_take_exception(
        uc: unicorn_engine::ffi::uc_handle,
        error_code: *mut u32,
        is_int: *mut u32,
        cr2: *mut u64,
    ) -> libc::c_int;
    /// Enforces guest page permissions at each TLB fill: `prot(data, page)`
    /// gives bit 0 read, 1 write, 2 execute, or -1 for unmapped.
    fn uc_pathvm_set_page_prot(
        uc: unicorn_engine::ffi::uc_handle,
        prot: extern "C" fn(*mut libc::c_void, u64) -> libc::c_int,
        data: *mut libc::c_void,
    ) -> libc::c_int;
}

/// What the patch tells the interrupt hook of the exception it reports.
#[derive(Clone, Copy, Debug, Default)]
pub struct TakenException {
    /// The exception as the hardware raises it: the hook's number, but #SS
    /// (12) for a #GP (13) that a stack access made (see [`take_exception`]).
    pub vector: u32,
    pub error_code: u32,
    /// An `int n` instruction raised it.
    pub is_int: bool,
    pub cr2: u64,
}

/// #GP, the general-protection fault.
const GP: u32 = 13;
/// #SS, the stack-segment fault.
const SS: u32 = 12;

/// The vector, error code, origin and CR2 of exception `intno`, which the
/// interrupt hook reports, ending its delivery (the next exception is not a
/// double fault). Call it from the interrupt hook only.
///
/// The emulator raises #GP(0) for every access to a non-canonical address;
/// the hardware raises #SS(0) instead when the access goes through the stack
/// segment (push, pop, leave, an operand based on RSP or RBP), and Linux
/// then sends SIGBUS, not SIGSEGV. The instruction at RIP is decoded to tell.
pub fn take_exception<D>(uc: &mut Unicorn<'_, D>, intno: u32) -> TakenException {
    let (mut err, mut is_int, mut cr2) = (0u32, 0u32, 0u64);
    // SAFETY: a live engine; the patch only reads its CPU state.
    unsafe { uc_pathvm_take_exception(uc.get_handle(), &mut err, &mut is_int, &mut cr2) };
    let mut vector = intno;
    if intno == GP && err == 0 && is_int == 0 && stack_access_non_canonical(uc) {
        vector = SS;
    }
    TakenException {
        vector,
        error_code: err,
        is_int: is_int != 0,
        cr2,
    }
}

/// The value of register `r` (a general register of any size, or FS/GS as
/// their bases) as the instruction reads it.
fn operand_register<D>(uc: &Unicorn<'_, D>, r: iced_x86::Register) -> Option<u64> {
    use iced_x86::Register;
    let reg = match r.full_register() {
        Register::RAX => RegisterX86::RAX,
        Register::RBX => RegisterX86::RBX,
        Register::RCX => RegisterX86::RCX,
        Register::RDX => RegisterX86::RDX,
        Register::RSI => RegisterX86::RSI,
        Register::RDI => RegisterX86::RDI,
        Register::RBP => RegisterX86::RBP,
        Register::RSP => RegisterX86::RSP,
        Register::R8 => RegisterX86::R8,
        Register::R9 => RegisterX86::R9,
        Register::R10 => RegisterX86::R10,
        Register::R11 => RegisterX86::R11,
        Register::R12 => RegisterX86::R12,
        Register::R13 => RegisterX86::R13,
        Register::R14 => RegisterX86::R14,
        Register::R15 => RegisterX86::R15,
        Register::RIP => return None,
        _ => match r {
            Register::FS => RegisterX86::FS_BASE,
            Register::GS => RegisterX86::GS_BASE,
            Register::ES | Register::CS | Register::SS | Register::DS => return Some(0),
            _ => return None,
        },
    };
    let v = uc.reg_read(reg).ok()?;
    Some(match r.size() {
        4 => v & 0xffff_ffff,
        2 => v & 0xffff,
        _ => v,
    })
}

/// Whether the instruction at RIP (its registers as it started: the
/// emulator faults before it writes any) first touches a non-canonical
/// address through the stack segment.
fn stack_access_non_canonical<D>(uc: &Unicorn<'_, D>) -> bool {
    use iced_x86::{Decoder, DecoderOptions, InstructionInfoFactory, Register};
    let Ok(rip) = uc.reg_read(RegisterX86::RIP) else {
        return false;
    };
    if !canonical(rip) {
        return false;
    }
    // The instruction ran its decode, so its bytes are readable; bytes past
    // it on the next page may not be: read to the page's end first.
    let in_page = (0x1000 - (rip & 0xfff)).min(15) as usize;
    let mut code = vec![0u8; in_page];
    if uc.mem_read(rip, &mut code).is_err() {
        return false;
    }
    let mut insn = Decoder::with_ip(64, &code, rip, DecoderOptions::NONE).decode();
    if insn.is_invalid() && in_page < 15 {
        code.resize(15, 0);
        if uc.mem_read(rip, &mut code).is_err() {
            return false;
        }
        insn = Decoder::with_ip(64, &code, rip, DecoderOptions::NONE).decode();
    }
    if insn.is_invalid() {
        return false;
    }
    let mut info = InstructionInfoFactory::new();
    for mem in info.info(&insn).used_memory() {
        let va = mem.virtual_address(0, |r, _, _| {
            if r == Register::RIP {
                Some(insn.next_ip())
            } else {
                operand_register(uc, r)
            }
        });
        if va.is_some_and(|a| !canonical(a)) {
            // 64-bit mode ignores CS, DS, ES and SS prefixes: the segment is
            // SS for a base of RSP or RBP (implicit stack accesses
            // included) unless FS or GS overrides it, as the host shows.
            let seg = mem.segment();
            return seg != Register::FS
                && seg != Register::GS
                && matches!(mem.base().full_register(), Register::RSP | Register::RBP);
        }
    }
    false
}

/// Checks guest page permissions at each TLB fill through `prot(data,
/// page)` (bit 0 read, 1 write, 2 execute; -1 unmapped), an access they
/// refuse raising #PF.
///
/// # Safety
/// `prot` is called with `data` during every later emulation of `uc`:
/// `data` must stay valid for what `prot` does with it while `uc` runs.
pub unsafe fn set_page_prot<D>(
    uc: &mut Unicorn<'_, D>,
    prot: extern "C" fn(*mut libc::c_void, u64) -> libc::c_int,
    data: *mut libc::c_void,
) {
    // SAFETY: the caller's contract.
    unsafe { uc_pathvm_set_page_prot(uc.get_handle(), prot, data) };
}

/// Run guest code at CPL 3 as Linux does (privileged and I/O instructions
/// raise #GP, x87 errors #MF, segment loads see Linux's descriptor table).
pub fn enter_user_mode<D>(uc: &mut Unicorn<'_, D>) {
    // SAFETY: a live engine; the call only sets CPU state.
    unsafe { uc_pathvm_user_mode(uc.get_handle()) };
}

pub(crate) const TRAP_BRKPT: i32 = 1;
const TRAP_TRACE: i32 = 2;
const BUS_ADRALN: i32 = 1;
const BUS_ADRERR: i32 = 2;
const SEGV_ACCERR: i32 = 2;

/// Lowest address of the kernel's half of the address space.
const KERNEL_HALF: u64 = 0xffff_8000_0000_0000;

fn canonical(a: u64) -> bool {
    let top = (a as i64) >> 47;
    top == 0 || top == -1
}

/// The signal Linux sends for CPU exception `intno`, which the emulator has
/// just raised, and the guest's pc for its signal frame (or its death): the
/// `SigInfo` (`si_code`, `si_addr`, trap number and error code as Linux
/// fills them) and the instruction pointer Linux leaves. May change RSP (a
/// call or return to a non-canonical address is undone, as the CPU faults
/// on the branch itself).
pub(crate) fn exception<O: events::Observer>(
    uc: &mut Unicorn<'_, crate::machine::Machine<'_, O>>,
    intno: u32,
) -> (SigInfo, u64) {
    let TakenException {
        error_code: err,
        is_int,
        cr2,
        vector,
    } = take_exception(uc, intno);
    let intno = vector;
    let rip = uc.reg_read(RegisterX86::RIP).unwrap_or(0);
    let kernel = |signo: i32, trapno: u64, err: u64| SigInfo {
        signo,
        code: SI_KERNEL,
        addr: None,
        trapno,
        err,
        ..Default::default()
    };
    let at = |signo: i32, code: i32, addr: u64, trapno: u64| SigInfo {
        signo,
        code,
        addr: Some(addr),
        trapno,
        ..Default::default()
    };
    if is_int {
        // Software interrupts: RIP is past the instruction. Linux's gates
        // for vectors 3 (breakpoint) and 4 (overflow) allow user mode; the
        // others raise #GP with the vector in the error code (0x80 too: a
        // kernel without 32-bit emulation).
        return match intno {
            3 => (kernel(libc::SIGTRAP, 3, 0), rip),
            1 if uc.get_data().mem.slice(rip.wrapping_sub(1), 1).ok() == Some(&[0xf1]) => {
                // icebp: a debug trap after the instruction.
                (at(libc::SIGTRAP, TRAP_BRKPT, rip, 1), rip)
            }
            4 => (kernel(libc::SIGSEGV, 4, 0), rip),
            n => (
                kernel(libc::SIGSEGV, 13, u64::from(n) * 8 + 2),
                rip.wrapping_sub(2),
            ),
        };
    }
    let err = u64::from(err);
    match intno {
        0 => (at(libc::SIGFPE, FPE_INTDIV, rip, 0), rip),
        1 => (at(libc::SIGTRAP, TRAP_TRACE, rip, 1), rip),
        6 => (at(libc::SIGILL, ILL_ILLOPN, rip, 6), rip),
        11 | 12 => (kernel(libc::SIGBUS, intno.into(), err), rip),
        13 if !canonical(rip) => {
            // A jump, call or return to a non-canonical address: the CPU
            // faults on the branch, before it changes anything.
            let pc = undo_branch(uc);
            (kernel(libc::SIGSEGV, 13, 0), pc)
        }
        14 if uc.get_data().mem.page_prot(cr2 & !0xfff) == crate::memory::BUS_ERROR => {
            // A file mapping's page past the end of the file.
            let mut info = at(libc::SIGBUS, BUS_ADRERR, cr2, 14);
            info.err = err;
            (info, rip)
        }
        14 => {
            let code = if err & 1 != 0 && cr2 < KERNEL_HALF {
                SEGV_ACCERR
            } else {
                SEGV_MAPERR
            };
            // A user access to the kernel's half finds its pages present;
            // a user page is present once touched (Linux maps pages on
            // first use), never when PROT_NONE: as the host page behind it.
            let err = if cr2 >= KERNEL_HALF {
                err | 1
            } else if err & 1 != 0 && !uc.get_data().mem.page_present(cr2) {
                err & !1
            } else {
                err
            };
            let mut info = at(libc::SIGSEGV, code, cr2, 14);
            info.err = err;
            (info, rip)
        }
        16 => {
            let sw = uc.reg_read(RegisterX86::FPSW).unwrap_or(0);
            let cw = uc.reg_read(RegisterX86::FPCW).unwrap_or(0x37f);
            (at(libc::SIGFPE, fpe_code(16, cw, sw, 0), rip, 16), rip)
        }
        17 => (at(libc::SIGBUS, BUS_ADRALN, rip, 17), rip),
        19 => {
            let mx = uc.reg_read(RegisterX86::MXCSR).unwrap_or(0x1f80);
            (at(libc::SIGFPE, fpe_code(19, 0, 0, mx), rip, 19), rip)
        }
        n => (kernel(libc::SIGSEGV, n.into(), err), rip),
    }
}

/// The last instruction of the current block, a branch that left for a
/// non-canonical address: its stack effect undone, its address returned.
fn undo_branch<O: events::Observer>(uc: &mut Unicorn<'_, crate::machine::Machine<'_, O>>) -> u64 {
    use iced_x86::{Decoder, DecoderOptions, FlowControl, Mnemonic};
    let m = uc.get_data();
    let start = m.cur_block;
    let mut len = 64 * 15u64;
    let code = loop {
        if let Ok(c) = m.mem.slice(start, len) {
            break c.to_vec();
        }
        len /= 2;
        if len < 16 {
            return start;
        }
    };
    let mut decoder = Decoder::with_ip(64, &code, start, DecoderOptions::NONE);
    for insn in &mut decoder {
        let rsp = uc.reg_read(RegisterX86::RSP).unwrap_or(0);
        match insn.flow_control() {
            FlowControl::Next => continue,
            FlowControl::Call | FlowControl::IndirectCall => {
                let _ = uc.reg_write(RegisterX86::RSP, rsp.wrapping_add(8));
            }
            FlowControl::Return if insn.mnemonic() == Mnemonic::Ret => {
                let imm = if insn.op_count() == 1 {
                    insn.immediate16()
                } else {
                    0
                };
                let pop = 8 + u64::from(imm);
                let _ = uc.reg_write(RegisterX86::RSP, rsp.wrapping_sub(pop));
            }
            _ => {}
        }
        return insn.ip();
    }
    start
}

/// A run that ended with an emulator error and no stop reason set by a hook.
pub(crate) fn fault_to_signal(e: uc_error, block: u64, pc: u64) -> StopReason {
    let signal = match e {
        uc_error::INSN_INVALID => libc::SIGILL,
        uc_error::EXCEPTION => libc::SIGILL,
        _ => libc::SIGSEGV,
    };
    let pc = if pc != 0 { pc } else { block };
    StopReason::Signaled {
        signal,
        pc,
        fault_addr: None,
    }
}

/// The instruction of the current block that accessed `fault`, for a data
/// fault without memory hooks (unicorn leaves RIP at an earlier instruction
/// then). The registers are those the faulting instruction started with
/// (the emulator writes them back before each memory access), so the
/// instruction whose operand covers `fault` with them is the one. Falls back
/// to the block's start.
pub(crate) fn data_fault_pc<O: events::Observer>(
    uc: &Unicorn<'_, crate::machine::Machine<'_, O>>,
    fault: u64,
) -> u64 {
    use iced_x86::{Decoder, DecoderOptions, InstructionInfoFactory, Register};
    let m = uc.get_data();
    let start = m.cur_block;
    let mut len = 64 * 15u64;
    let code = loop {
        if let Ok(c) = m.mem.slice(start, len) {
            break c;
        }
        len /= 2;
        if len < 16 {
            return start;
        }
    };
    let value = |r: Register| -> u64 { operand_register(uc, r).unwrap_or(0) };
    let mut info = InstructionInfoFactory::new();
    let mut decoder = Decoder::with_ip(64, code, start, DecoderOptions::NONE);
    for insn in &mut decoder {
        for mem in info.info(&insn).used_memory() {
            let Some(va) = mem.virtual_address(0, |r, _, _| Some(value(r))) else {
                continue;
            };
            let size = mem.memory_size().size().max(1) as u64;
            if fault >= va && fault - va < size {
                return insn.ip();
            }
        }
        if insn.flow_control() != iced_x86::FlowControl::Next {
            break;
        }
    }
    start
}
