//! The oracle: cases run on the host CPU, in a forked child that maps the
//! case's pages at their fixed addresses and catches faults with a signal
//! handler. The child only copies and calls (everything it needs is made
//! before the fork), so it is safe to fork from a multi-threaded process.

use crate::gen::State;
use crate::layout::*;
use crate::{Fault, Outcome};

const SLOT_GPR: usize = 0;
const SLOT_FLAGS: usize = 128;
const SLOT_FAULT: usize = 136; // flag, signal, code, addr, rip
const SLOT_FX: usize = 192;
const SLOT_YMMH: usize = SLOT_FX + 512;
const SLOT_MEM: usize = SLOT_YMMH + 256;
const SLOT: usize = SLOT_MEM + MEM_SIZE;

/// The input of one host run: the code page and the state.
pub struct HostCase<'a> {
    pub page: &'a [u8],
    pub input: &'a State,
}

extern "C" fn on_fault(sig: libc::c_int, info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
    // SAFETY: the kernel passes a valid siginfo and ucontext; the data page
    // is mapped for as long as the child runs cases.
    unsafe {
        let uc = ctx as *mut libc::ucontext_t;
        let rip = (*uc).uc_mcontext.gregs[libc::REG_RIP as usize] as u64;
        if rip >= EXIT || rip < LOAD {
            // A fault in the harness itself: give up on this child.
            libc::_exit(3);
        }
        let f = (DATA + FAULT) as *mut u64;
        *f = 1;
        *f.add(1) = sig as u64;
        *f.add(2) = (*info).si_code as u64;
        *f.add(3) = (*info).si_addr() as u64;
        *f.add(4) = rip;
        (*uc).uc_mcontext.gregs[libc::REG_RIP as usize] = EXIT as i64;
    }
}

/// Map `len` bytes at `addr` exactly.
unsafe fn map_fixed(addr: u64, len: usize, prot: i32) -> bool {
    let p = libc::mmap(
        addr as *mut libc::c_void,
        len,
        prot,
        libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED_NOREPLACE,
        -1,
        0,
    );
    p as u64 == addr
}

/// The child: run `cases`, writing each outcome to its slot of `out` and
/// counting them in `done`. Never returns.
unsafe fn child(cases: &[HostCase<'_>], out: *mut u8, done: *mut u64) -> ! {
    if !map_fixed(
        CODE,
        PAGE,
        libc::PROT_READ | libc::PROT_WRITE | libc::PROT_EXEC,
    ) || !map_fixed(DATA, PAGE, libc::PROT_READ | libc::PROT_WRITE)
        || !map_fixed(MEM, MEM_SIZE, libc::PROT_READ | libc::PROT_WRITE)
    {
        libc::_exit(4);
    }
    // The page after the operand memory must fault.
    let probe = libc::mmap(
        (MEM + MEM_SIZE as u64) as *mut libc::c_void,
        PAGE,
        libc::PROT_NONE,
        libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED_NOREPLACE,
        -1,
        0,
    );
    if probe as u64 != MEM + MEM_SIZE as u64 {
        libc::_exit(5);
    }
    libc::munmap(probe, PAGE);
    let stack_size = 256 * 1024;
    let stack = libc::mmap(
        std::ptr::null_mut(),
        stack_size,
        libc::PROT_READ | libc::PROT_WRITE,
        libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
        -1,
        0,
    );
    let ss = libc::stack_t {
        ss_sp: stack,
        ss_flags: 0,
        ss_size: stack_size,
    };
    libc::sigaltstack(&ss, std::ptr::null_mut());
    for sig in [
        libc::SIGSEGV,
        libc::SIGBUS,
        libc::SIGFPE,
        libc::SIGILL,
        libc::SIGTRAP,
    ] {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_fault as *const () as usize;
        sa.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
        libc::sigemptyset(&mut sa.sa_mask);
        libc::sigaction(sig, &sa, std::ptr::null_mut());
    }
    let entry: extern "C" fn() = std::mem::transmute(ENTRY as usize);
    for (i, c) in cases.iter().enumerate() {
        std::ptr::copy_nonoverlapping(c.page.as_ptr(), CODE as *mut u8, PAGE);
        let d = DATA as *mut u8;
        std::ptr::write_bytes(d, 0, PAGE);
        std::ptr::copy_nonoverlapping(
            c.input.gpr.as_ptr() as *const u8,
            d.add(IN_GPR as usize),
            128,
        );
        *(d.add(IN_FLAGS as usize) as *mut u64) = c.input.flags;
        std::ptr::copy_nonoverlapping(c.input.fx.as_ptr(), d.add(IN_FX as usize), 512);
        std::ptr::copy_nonoverlapping(c.input.ymmh.as_ptr(), d.add(IN_YMMH as usize), 256);
        std::ptr::copy_nonoverlapping(c.input.mem.as_ptr(), MEM as *mut u8, MEM_SIZE);
        entry();
        let s = out.add(i * SLOT);
        std::ptr::copy_nonoverlapping(d.add(OUT_GPR as usize), s.add(SLOT_GPR), 128);
        std::ptr::copy_nonoverlapping(d.add(OUT_FLAGS as usize), s.add(SLOT_FLAGS), 8);
        std::ptr::copy_nonoverlapping(d.add(FAULT as usize), s.add(SLOT_FAULT), 40);
        std::ptr::copy_nonoverlapping(d.add(OUT_FX as usize), s.add(SLOT_FX), 512);
        std::ptr::copy_nonoverlapping(d.add(OUT_YMMH as usize), s.add(SLOT_YMMH), 256);
        std::ptr::copy_nonoverlapping(MEM as *const u8, s.add(SLOT_MEM), MEM_SIZE);
        std::ptr::write_volatile(done, i as u64 + 1);
    }
    libc::_exit(0);
}

fn read_u64(b: &[u8], off: usize) -> u64 {
    u64::from_le_bytes(b[off..off + 8].try_into().unwrap())
}

/// Run the cases on the host CPU. A case whose child died gets `Err`.
pub fn run(cases: &[HostCase<'_>]) -> Vec<Result<Outcome, String>> {
    let mut results = Vec::with_capacity(cases.len());
    let mut start = 0;
    while start < cases.len() {
        let batch = &cases[start..];
        let len = 8 + batch.len() * SLOT;
        // SAFETY: a fresh shared anonymous mapping, unmapped below.
        let shm = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if shm == libc::MAP_FAILED {
            results.extend((start..cases.len()).map(|_| Err("mmap failed".to_string())));
            break;
        }
        let done = shm as *mut u64;
        // SAFETY: the mapping is `len` bytes.
        let out = unsafe { (shm as *mut u8).add(8) };
        // SAFETY: the child runs `child`, which never returns.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            unsafe { child(batch, out, done) };
        }
        let mut status = 0;
        if pid > 0 {
            // SAFETY: waiting for our own child.
            unsafe { libc::waitpid(pid, &mut status, 0) };
        }
        // SAFETY: the child has exited; the mapping is ours.
        let n = unsafe { std::ptr::read_volatile(done) } as usize;
        let bytes = unsafe { std::slice::from_raw_parts(out, batch.len() * SLOT) };
        for i in 0..n {
            let s = &bytes[i * SLOT..(i + 1) * SLOT];
            let mut gpr = [0u64; 16];
            for (j, g) in gpr.iter_mut().enumerate() {
                *g = read_u64(s, SLOT_GPR + 8 * j);
            }
            let fault = (read_u64(s, SLOT_FAULT) == 1).then(|| Fault {
                signo: read_u64(s, SLOT_FAULT + 8) as i32,
                code: read_u64(s, SLOT_FAULT + 16) as i32,
                addr: read_u64(s, SLOT_FAULT + 24),
                rip: read_u64(s, SLOT_FAULT + 32),
            });
            results.push(Ok(Outcome {
                state: State {
                    gpr,
                    flags: read_u64(s, SLOT_FLAGS),
                    fx: s[SLOT_FX..SLOT_FX + 512].to_vec(),
                    ymmh: s[SLOT_YMMH..SLOT_YMMH + 256].to_vec(),
                    mem: s[SLOT_MEM..SLOT_MEM + MEM_SIZE].to_vec(),
                },
                fault,
            }));
        }
        // SAFETY: unmapping what was mapped above.
        unsafe { libc::munmap(shm, len) };
        if n < batch.len() {
            let why = if pid < 0 {
                "fork failed".to_string()
            } else if libc::WIFSIGNALED(status) {
                format!("the host child died of signal {}", libc::WTERMSIG(status))
            } else {
                format!(
                    "the host child exited with status {}",
                    libc::WEXITSTATUS(status)
                )
            };
            results.push(Err(why));
            if pid < 0 || n == 0 && libc::WIFEXITED(status) && libc::WEXITSTATUS(status) >= 4 {
                results
                    .extend((start + n + 1..cases.len()).map(|_| Err("no host child".to_string())));
                break;
            }
        }
        start += n + 1;
    }
    results.truncate(cases.len());
    results
}
