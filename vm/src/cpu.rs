//! CPU state at process start and the mapping of CPU exceptions to signals.

use unicorn_engine::{uc_error, RegisterX86, Unicorn};

use crate::machine::StopReason;

/// `AT_HWCAP` on x86-64 is CPUID.1:EDX of the CPU. Haswell as the emulator
/// filters it (fpu, vme, de, pse, tsc, msr, pae, mce, cx8, apic, sep, mtrr,
/// pge, mca, cmov, pat, pse36, clflush, mmx, fxsr, sse, sse2).
pub const HWCAP: u64 = 0x078b_fbff;

/// CR4.OSFXSR: FXSAVE/FXRSTOR include the SSE state.
const CR4_OSFXSR: u64 = 1 << 9;
/// CR4.OSXMMEXCPT: the OS handles SIMD floating-point exceptions (#XM).
const CR4_OSXMMEXCPT: u64 = 1 << 10;

/// Registers at the first instruction, as Linux leaves them after `execve`.
pub(crate) fn init_registers<D>(
    uc: &mut Unicorn<'_, D>,
    entry: u64,
    sp: u64,
) -> Result<(), uc_error> {
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
    uc.reg_write(RegisterX86::CR4, CR4_OSFXSR | CR4_OSXMMEXCPT)?;
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
    let _ = uc.reg_write(RegisterX86::MXCSR, 0x1f80);
    for r in [
        RegisterX86::ST0,
        RegisterX86::ST1,
        RegisterX86::ST2,
        RegisterX86::ST3,
        RegisterX86::ST4,
        RegisterX86::ST5,
        RegisterX86::ST6,
        RegisterX86::ST7,
    ] {
        let _ = uc.reg_write_long(r, &[0u8; 10]);
    }
    for r in [
        RegisterX86::XMM0,
        RegisterX86::XMM1,
        RegisterX86::XMM2,
        RegisterX86::XMM3,
        RegisterX86::XMM4,
        RegisterX86::XMM5,
        RegisterX86::XMM6,
        RegisterX86::XMM7,
        RegisterX86::XMM8,
        RegisterX86::XMM9,
        RegisterX86::XMM10,
        RegisterX86::XMM11,
        RegisterX86::XMM12,
        RegisterX86::XMM13,
        RegisterX86::XMM14,
        RegisterX86::XMM15,
    ] {
        let _ = uc.reg_write_long(r, &[0u8; 16]);
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

/// The signal a CPU exception raises in user mode.
pub(crate) fn interrupt_signal(intno: u32) -> i32 {
    match intno {
        0 => libc::SIGFPE, // divide error
        1 | 3 => libc::SIGTRAP,
        4 | 5 => libc::SIGSEGV, // overflow, bound
        6 => libc::SIGILL,      // invalid opcode
        7 => libc::SIGFPE,
        13 | 14 => libc::SIGSEGV,
        16 | 19 => libc::SIGFPE,
        17 => libc::SIGBUS, // alignment check
        _ => libc::SIGSEGV,
    }
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
    let value = |r: Register| -> u64 {
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
            _ => match r {
                Register::FS => RegisterX86::FS_BASE,
                Register::GS => RegisterX86::GS_BASE,
                _ => return 0,
            },
        };
        let v = uc.reg_read(reg).unwrap_or(0);
        match r.size() {
            4 => v & 0xffff_ffff,
            2 => v & 0xffff,
            _ => v,
        }
    };
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
