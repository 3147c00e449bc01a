//! The fixed pages a case runs in, on the host and in the VM alike, and the
//! code around the instruction under test.
//!
//! The same code page runs on both sides: a prologue loads the whole state
//! from the data page (FXRSTOR64 for x87/MMX/SSE, POPFQ, the general
//! registers, RSP last), the instruction sits at [`INSN`], and an epilogue
//! stores everything back (the registers, PUSHFQ, FXSAVE64: the 64-bit
//! layout, whose FIP and FDP are whole). On the host a
//! stub before the prologue saves the caller's registers and x87/SSE state
//! and [`EXIT`] restores them; in the VM the run starts at [`LOAD`] and stops
//! at [`EXIT`].

/// The code page.
pub const CODE: u64 = 0x4000_0000;
/// The data page: state in and out.
pub const DATA: u64 = 0x4010_0000;
/// The operand memory (two pages; the page after it is never mapped).
pub const MEM: u64 = 0x4020_0000;
pub const MEM_SIZE: usize = 0x2000;
pub const PAGE: usize = 0x1000;

/// Offsets in the data page.
pub const IN_GPR: u64 = 0x000;
pub const IN_FLAGS: u64 = 0x080;
pub const OUT_GPR: u64 = 0x100;
pub const OUT_FLAGS: u64 = 0x180;
pub const HOST_SAVE: u64 = 0x200;
/// Written by the host's signal handler: flag, signal, si_code, si_addr, rip.
pub const FAULT: u64 = 0x280;
pub const IN_FX: u64 = 0x400;
pub const OUT_FX: u64 = 0x600;
pub const HOST_FX: u64 = 0x800;
/// The upper halves of YMM0-15 in and out (with AVX).
pub const IN_YMMH: u64 = 0xa00;
pub const OUT_YMMH: u64 = 0xb00;
/// PUSHFQ's stack in the epilogue.
pub const SCRATCH_TOP: u64 = 0xf00;

/// Addresses in the code page.
pub const ENTRY: u64 = CODE;
pub const LOAD: u64 = CODE + 0x100;
pub const INSN: u64 = CODE + 0x400;
pub const STORE: u64 = CODE + 0x500;
pub const EXIT: u64 = CODE + 0x600;
/// With AVX: the epilogue's stores of the YMM upper halves (then EXIT).
pub const STORE_YMMH: u64 = CODE + 0x700;

/// The stack pointer every case starts with: the middle of the operand
/// memory, so that pushes and pops are compared like any store.
pub const CASE_RSP: u64 = MEM + 0x1000;

/// Register numbers as the encoding has them (RAX=0 .. R15=15).
pub const RSP: usize = 4;

fn abs_modrm(out: &mut Vec<u8>, w: bool, reg: u8, opcode: &[u8], addr: u64) {
    assert!(addr < 0x8000_0000);
    let rex = 0x40 | if w { 8 } else { 0 } | if reg >= 8 { 4 } else { 0 };
    if rex != 0x40 {
        out.push(rex);
    }
    out.extend_from_slice(opcode);
    out.push(((reg & 7) << 3) | 4);
    out.push(0x25);
    out.extend_from_slice(&(addr as u32).to_le_bytes());
}

fn load(out: &mut Vec<u8>, reg: u8, addr: u64) {
    abs_modrm(out, true, reg, &[0x8b], addr);
}

fn store(out: &mut Vec<u8>, reg: u8, addr: u64) {
    abs_modrm(out, true, reg, &[0x89], addr);
}

fn mov_rsp_imm(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&[0x48, 0xbc]);
    out.extend_from_slice(&v.to_le_bytes());
}

fn jmp(out: &mut Vec<u8>, from: u64, to: u64) {
    let rel = to as i64 - (from as i64 + 5);
    out.push(0xe9);
    out.extend_from_slice(&(rel as i32).to_le_bytes());
}

fn place(page: &mut [u8], at: u64, bytes: &[u8]) {
    let off = (at - CODE) as usize;
    page[off..off + bytes.len()].copy_from_slice(bytes);
}

/// Callee-saved registers of the host's calling convention.
const HOST_SAVED: [u8; 6] = [3, 5, 12, 13, 14, 15];

/// `vinsertf128 ymmR, ymmR, [addr], 1` (load) or `vextractf128 [addr],
/// ymmR, 1` (store): the upper half of YMMr.
fn ymm_hi(out: &mut Vec<u8>, r: u8, addr: u64, store: bool) {
    let vvvv = if store { 0xf } else { !r & 0xf };
    out.push(0xc4);
    out.push((u8::from(r < 8) << 7) | 0x60 | 0x03);
    out.push((vvvv << 3) | 0x04 | 0x01);
    out.push(if store { 0x19 } else { 0x18 });
    out.push(((r & 7) << 3) | 4);
    out.push(0x25);
    out.extend_from_slice(&(addr as u32).to_le_bytes());
    out.push(1);
}

/// The code page without an instruction (its slot holds `int3`); with
/// `avx`, the prologue and epilogue move the upper halves of YMM0-15 too
/// (a CPU model with AVX, on a host with AVX).
pub fn code_page(avx: bool) -> Vec<u8> {
    let mut page = vec![0xccu8; PAGE];
    // ENTRY (host only): save the caller's state, then run the prologue.
    let mut c = Vec::new();
    for (i, r) in HOST_SAVED.iter().enumerate() {
        store(&mut c, *r, DATA + HOST_SAVE + 8 * i as u64);
    }
    store(&mut c, RSP as u8, DATA + HOST_SAVE + 48);
    abs_modrm(&mut c, false, 0, &[0x0f, 0xae], DATA + HOST_FX); // fxsave
    let here = ENTRY + c.len() as u64;
    jmp(&mut c, here, LOAD);
    place(&mut page, ENTRY, &c);
    // LOAD: the case's state.
    let mut c = Vec::new();
    abs_modrm(&mut c, true, 1, &[0x0f, 0xae], DATA + IN_FX); // fxrstor64
    if avx {
        for r in 0..16u8 {
            ymm_hi(&mut c, r, DATA + IN_YMMH + 16 * r as u64, false);
        }
    }
    mov_rsp_imm(&mut c, DATA + IN_FLAGS);
    c.push(0x9d); // popfq
    for r in 0..16u8 {
        if r as usize != RSP {
            load(&mut c, r, DATA + IN_GPR + 8 * r as u64);
        }
    }
    load(&mut c, RSP as u8, DATA + IN_GPR + 8 * RSP as u64);
    let here = LOAD + c.len() as u64;
    jmp(&mut c, here, INSN);
    place(&mut page, LOAD, &c);
    // STORE: everything back.
    let mut c = Vec::new();
    for r in 0..16u8 {
        store(&mut c, r, DATA + OUT_GPR + 8 * r as u64);
    }
    mov_rsp_imm(&mut c, DATA + SCRATCH_TOP);
    c.push(0x9c); // pushfq
    c.push(0x58); // pop rax
    store(&mut c, 0, DATA + OUT_FLAGS);
    abs_modrm(&mut c, true, 0, &[0x0f, 0xae], DATA + OUT_FX); // fxsave64
    let here = STORE + c.len() as u64;
    jmp(&mut c, here, if avx { STORE_YMMH } else { EXIT });
    place(&mut page, STORE, &c);
    if avx {
        let mut c = Vec::new();
        for r in 0..16u8 {
            ymm_hi(&mut c, r, DATA + OUT_YMMH + 16 * r as u64, true);
        }
        let here = STORE_YMMH + c.len() as u64;
        jmp(&mut c, here, EXIT);
        place(&mut page, STORE_YMMH, &c);
    }
    // EXIT (the VM stops here): the caller's state back.
    let mut c = Vec::new();
    if avx {
        c.extend_from_slice(&[0xc5, 0xf8, 0x77]); // vzeroupper
    }
    c.push(0xfc); // cld
    abs_modrm(&mut c, false, 1, &[0x0f, 0xae], DATA + HOST_FX); // fxrstor
    for (i, r) in HOST_SAVED.iter().enumerate() {
        load(&mut c, *r, DATA + HOST_SAVE + 8 * i as u64);
    }
    load(&mut c, RSP as u8, DATA + HOST_SAVE + 48);
    c.push(0xc3);
    place(&mut page, EXIT, &c);
    page
}

/// Put an instruction in the slot, followed by a jump to the epilogue.
pub fn set_insn(page: &mut [u8], insn: &[u8]) {
    assert!(insn.len() <= 15);
    let mut c = insn.to_vec();
    let here = INSN + c.len() as u64;
    jmp(&mut c, here, STORE);
    c.resize(32, 0xcc);
    place(page, INSN, &c);
}

/// The FXSAVE image's fields.
pub mod fx {
    pub const FCW: usize = 0;
    pub const FSW: usize = 2;
    pub const FTW: usize = 4;
    pub const FOP: usize = 6;
    pub const FIP: usize = 8;
    pub const FDP: usize = 16;
    pub const MXCSR: usize = 24;
    pub const ST: usize = 32;
    pub const XMM: usize = 160;
}
