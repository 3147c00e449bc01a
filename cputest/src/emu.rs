//! The VM's side: the same pages in a unicorn engine built by
//! `vm::cpu::new_cpu`, in user mode (`vm::cpu::enter_user_mode`) and
//! started from `vm::cpu::init_registers`, exactly the CPU guests get.

use unicorn_engine::{HookType, MemType, Permission, RegisterX86, Unicorn};

use crate::gen::State;
use crate::layout::*;
use crate::{Fault, Outcome};

/// The pages of the layout, readable, writable and executable; any other
/// page unmapped (as pathvm answers from the guest's memory map).
extern "C" fn page_prot(_data: *mut libc::c_void, page: u64) -> libc::c_int {
    let mapped = |start: u64, len: usize| page >= start && page < start + len as u64;
    if mapped(CODE, PAGE) || mapped(DATA, PAGE) || mapped(MEM, MEM_SIZE) {
        7
    } else {
        -1
    }
}

#[derive(Default)]
pub struct EmuData {
    fault: Option<Fault>,
}

pub struct Emu {
    uc: Unicorn<'static, EmuData>,
    model: vm::cpu::CpuModel,
}

const SI_KERNEL: i32 = 0x80;
const SEGV_MAPERR: i32 = 1;
const ILL_ILLOPN: i32 = 2;
const FPE_INTDIV: i32 = 1;
const BUS_ADRALN: i32 = 1;

/// The signal Linux sends for a CPU exception in user mode. The si_code of
/// a SIMD or x87 floating-point exception (Linux's choice from the status
/// bits) is not compared: `code` is -1.
pub fn exception_fault(intno: u32, rip: u64) -> Fault {
    let (signo, code, addr) = match intno {
        0 => (libc::SIGFPE, FPE_INTDIV, rip),
        1 | 3 => (libc::SIGTRAP, SI_KERNEL, 0),
        6 => (libc::SIGILL, ILL_ILLOPN, rip),
        12 => (libc::SIGBUS, SI_KERNEL, 0),
        16 | 19 => (libc::SIGFPE, -1, rip),
        17 => (libc::SIGBUS, BUS_ADRALN, 0),
        _ => (libc::SIGSEGV, SI_KERNEL, 0),
    };
    Fault {
        signo,
        code,
        addr,
        rip,
    }
}

fn err(e: unicorn_engine::uc_error) -> String {
    format!("unicorn: {e:?}")
}

impl Emu {
    /// A VM CPU of `model`.
    pub fn new(model: vm::cpu::CpuModel) -> Result<Emu, String> {
        let mut uc = vm::cpu::new_cpu(EmuData::default(), model).map_err(err)?;
        uc.mem_map(CODE, PAGE, Permission::ALL).map_err(err)?;
        uc.mem_map(DATA, PAGE, Permission::ALL).map_err(err)?;
        uc.mem_map(MEM, MEM_SIZE, Permission::ALL).map_err(err)?;
        // User code at CPL 3, as pathvm runs guests (once the engine has
        // its CPU: after the first mapping).
        vm::cpu::enter_user_mode(&mut uc);
        // Faults as pathvm takes them: page permissions at the TLB fill,
        // so that a denied access is a #PF with CR2 (unicorn's own
        // unmapped-memory hook reports other addresses for accesses that
        // cross pages).
        // SAFETY: a live engine; the callback reads nothing but its page.
        unsafe { vm::cpu::set_page_prot(&mut uc, page_prot, std::ptr::null_mut()) };
        uc.add_intr_hook(|uc, intno| {
            let rip = uc.reg_read(RegisterX86::RIP).unwrap_or(0);
            let vm::cpu::TakenException { cr2, vector, .. } = vm::cpu::take_exception(uc, intno);
            let intno = vector;
            let mut f = exception_fault(intno, rip);
            if intno == 14 {
                f = Fault {
                    signo: libc::SIGSEGV,
                    code: SEGV_MAPERR,
                    addr: cr2,
                    rip,
                };
            }
            uc.get_data_mut().fault = Some(f);
            let _ = uc.emu_stop();
        })
        .map_err(err)?;
        uc.add_mem_hook(
            HookType::MEM_INVALID,
            1,
            0,
            |uc, _kind: MemType, addr, _size, _value| {
                let rip = uc.reg_read(RegisterX86::RIP).unwrap_or(0);
                uc.get_data_mut().fault = Some(Fault {
                    signo: libc::SIGSEGV,
                    code: SEGV_MAPERR,
                    addr,
                    rip,
                });
                false
            },
        )
        .map_err(err)?;
        uc.add_insn_invalid_hook(|uc| {
            let rip = uc.reg_read(RegisterX86::RIP).unwrap_or(0);
            uc.get_data_mut().fault = Some(exception_fault(6, rip));
            // Handled: unicorn then clears the pending exception (an
            // unhandled one stays pending and stops the next run at once).
            let _ = uc.emu_stop();
            true
        })
        .map_err(err)?;
        Ok(Emu { uc, model })
    }

    /// The CPU model.
    pub fn model(&self) -> vm::cpu::CpuModel {
        self.model
    }

    /// Whether cases move the YMM upper halves (the model and the host
    /// have AVX): the code page to build ([`crate::layout::code_page`]).
    pub fn avx(&self) -> bool {
        self.model.has_avx() && std::arch::is_x86_feature_detected!("avx")
    }

    /// Run one case: `page` is the code page with the instruction in place.
    /// After a fault the engine is made anew: unicorn can keep state of an
    /// exception into the next run.
    pub fn run(&mut self, page: &[u8], input: &State) -> Result<Outcome, String> {
        let r = self.run_once(page, input);
        if !matches!(r, Ok(Outcome { fault: None, .. })) {
            *self = Emu::new(self.model)?;
        }
        r
    }

    fn run_once(&mut self, page: &[u8], input: &State) -> Result<Outcome, String> {
        let uc = &mut self.uc;
        uc.mem_write(CODE, page).map_err(err)?;
        uc.ctl_remove_cache(CODE, CODE + PAGE as u64).map_err(err)?;
        let mut data = vec![0u8; PAGE];
        for (i, g) in input.gpr.iter().enumerate() {
            let o = IN_GPR as usize + 8 * i;
            data[o..o + 8].copy_from_slice(&g.to_le_bytes());
        }
        data[IN_FLAGS as usize..IN_FLAGS as usize + 8].copy_from_slice(&input.flags.to_le_bytes());
        data[IN_FX as usize..IN_FX as usize + 512].copy_from_slice(&input.fx);
        data[IN_YMMH as usize..IN_YMMH as usize + 256].copy_from_slice(&input.ymmh);
        uc.mem_write(DATA, &data).map_err(err)?;
        uc.mem_write(MEM, &input.mem).map_err(err)?;
        vm::cpu::init_registers(uc, LOAD, DATA + SCRATCH_TOP).map_err(err)?;
        uc.get_data_mut().fault = None;
        let r = uc.emu_start(LOAD, EXIT, 0, 0);
        if let Some(f) = uc.get_data_mut().fault.take() {
            if f.rip != 0 && (f.rip < LOAD || f.rip >= EXIT) {
                return Err(format!("the VM faulted in the harness at {:#x}", f.rip));
            }
            let mut f = f;
            // The VM's fault address for a data access is not the
            // instruction's: the instruction is the one under test.
            f.rip = INSN;
            return Ok(Outcome {
                state: self.read_state()?,
                fault: Some(f),
            });
        }
        r.map_err(err)?;
        let pc = uc.reg_read(RegisterX86::RIP).map_err(err)?;
        if pc != EXIT {
            return Err(format!("the VM stopped at {pc:#x}"));
        }
        Ok(Outcome {
            state: self.read_state()?,
            fault: None,
        })
    }

    fn read_state(&self) -> Result<State, String> {
        let data = self.uc.mem_read_as_vec(DATA, PAGE).map_err(err)?;
        let mut gpr = [0u64; 16];
        for (i, g) in gpr.iter_mut().enumerate() {
            let o = OUT_GPR as usize + 8 * i;
            *g = u64::from_le_bytes(data[o..o + 8].try_into().unwrap());
        }
        let o = OUT_FLAGS as usize;
        Ok(State {
            gpr,
            flags: u64::from_le_bytes(data[o..o + 8].try_into().unwrap()),
            fx: data[OUT_FX as usize..OUT_FX as usize + 512].to_vec(),
            ymmh: data[OUT_YMMH as usize..OUT_YMMH as usize + 256].to_vec(),
            mem: self.uc.mem_read_as_vec(MEM, MEM_SIZE).map_err(err)?,
        })
    }
}
