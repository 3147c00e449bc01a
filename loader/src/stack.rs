//! The initial process stack as the Linux kernel builds it for `execve`
//! (fs/binfmt_elf.c `create_elf_tables`): strings at the top, then the
//! platform string and `AT_RANDOM` bytes, then argc, argv, envp and auxv,
//! with the stack pointer 16-byte aligned at argc.

/// Auxiliary vector keys (include/uapi/linux/auxvec.h).
pub mod at {
    pub const NULL: u64 = 0;
    pub const PHDR: u64 = 3;
    pub const PHENT: u64 = 4;
    pub const PHNUM: u64 = 5;
    pub const PAGESZ: u64 = 6;
    pub const BASE: u64 = 7;
    pub const FLAGS: u64 = 8;
    pub const ENTRY: u64 = 9;
    pub const UID: u64 = 11;
    pub const EUID: u64 = 12;
    pub const GID: u64 = 13;
    pub const EGID: u64 = 14;
    pub const PLATFORM: u64 = 15;
    pub const HWCAP: u64 = 16;
    pub const CLKTCK: u64 = 17;
    pub const SECURE: u64 = 23;
    pub const RANDOM: u64 = 25;
    pub const HWCAP2: u64 = 26;
    pub const EXECFN: u64 = 31;
    pub const MINSIGSTKSZ: u64 = 51;
}

/// What goes on the initial stack. Pointer-valued auxv entries (`AT_RANDOM`,
/// `AT_PLATFORM`, `AT_EXECFN`) are filled in by [`build`].
pub struct StackInputs<'a> {
    pub argv: &'a [Vec<u8>],
    pub envp: &'a [Vec<u8>],
    pub execfn: &'a [u8],
    pub platform: &'a [u8],
    pub random: [u8; 16],
    /// `(key, value)` pairs without the pointer-valued ones and without `AT_NULL`.
    pub auxv: &'a [(u64, u64)],
}

/// The built stack: `bytes` go at `[sp, top)`.
pub struct InitialStack {
    pub sp: u64,
    pub bytes: Vec<u8>,
}

/// Build the stack image that ends at `top` (exclusive).
pub fn build(top: u64, inp: &StackInputs) -> InitialStack {
    // Lay the string area out downwards from `top`, as the kernel does.
    let mut strings: Vec<u8> = Vec::new(); // reversed growth: we prepend
    let mut cursor = top - 8; // 8 bytes of zero end marker
    let mut place = |s: &[u8], strings: &mut Vec<u8>| -> u64 {
        cursor -= s.len() as u64 + 1;
        let mut v = s.to_vec();
        v.push(0);
        v.extend_from_slice(strings);
        *strings = v;
        cursor
    };
    let execfn = place(inp.execfn, &mut strings);
    let mut envp: Vec<u64> = inp
        .envp
        .iter()
        .rev()
        .map(|e| place(e, &mut strings))
        .collect();
    envp.reverse();
    let mut argv: Vec<u64> = inp
        .argv
        .iter()
        .rev()
        .map(|a| place(a, &mut strings))
        .collect();
    argv.reverse();
    let platform = place(inp.platform, &mut strings);
    // 16 random bytes, 16-byte aligned below the strings.
    let random_at = (cursor - 16) & !15;

    let mut auxv: Vec<(u64, u64)> = inp.auxv.to_vec();
    auxv.push((at::RANDOM, random_at));
    auxv.push((at::PLATFORM, platform));
    auxv.push((at::EXECFN, execfn));
    auxv.push((at::NULL, 0));

    let words = 1 + argv.len() + 1 + envp.len() + 1 + 2 * auxv.len();
    let sp = (random_at - 8 * words as u64) & !15;

    let mut bytes = vec![0u8; (top - sp) as usize];
    let at = |a: u64| (a - sp) as usize;
    let mut w = at(sp);
    let mut put = |bytes: &mut Vec<u8>, v: u64| {
        bytes[w..w + 8].copy_from_slice(&v.to_le_bytes());
        w += 8;
    };
    put(&mut bytes, argv.len() as u64);
    for &a in &argv {
        put(&mut bytes, a);
    }
    put(&mut bytes, 0);
    for &e in &envp {
        put(&mut bytes, e);
    }
    put(&mut bytes, 0);
    for &(k, v) in &auxv {
        put(&mut bytes, k);
        put(&mut bytes, v);
    }
    bytes[at(random_at)..at(random_at) + 16].copy_from_slice(&inp.random);
    let s = at(cursor);
    bytes[s..s + strings.len()].copy_from_slice(&strings);
    InitialStack { sp, bytes }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(st: &InitialStack, addr: u64) -> u64 {
        let o = (addr - st.sp) as usize;
        u64::from_le_bytes(st.bytes[o..o + 8].try_into().unwrap())
    }

    fn cstr(st: &InitialStack, addr: u64) -> Vec<u8> {
        let o = (addr - st.sp) as usize;
        st.bytes[o..]
            .iter()
            .take_while(|&&b| b != 0)
            .copied()
            .collect()
    }

    #[test]
    fn layout_round_trips() {
        let top = 0x7fff_ffff_f000;
        let argv = vec![b"prog".to_vec(), b"a b".to_vec()];
        let envp = vec![b"HOME=/".to_vec()];
        let st = build(
            top,
            &StackInputs {
                argv: &argv,
                envp: &envp,
                execfn: b"/bin/prog",
                platform: b"x86_64",
                random: [7; 16],
                auxv: &[(at::PAGESZ, 4096)],
            },
        );
        assert_eq!(st.sp % 16, 0);
        assert_eq!(st.sp + st.bytes.len() as u64, top);
        assert_eq!(word(&st, st.sp), 2);
        assert_eq!(cstr(&st, word(&st, st.sp + 8)), b"prog");
        assert_eq!(cstr(&st, word(&st, st.sp + 16)), b"a b");
        assert_eq!(word(&st, st.sp + 24), 0);
        assert_eq!(cstr(&st, word(&st, st.sp + 32)), b"HOME=/");
        assert_eq!(word(&st, st.sp + 40), 0);
        // auxv
        let mut a = st.sp + 48;
        let mut seen = Vec::new();
        loop {
            let (k, v) = (word(&st, a), word(&st, a + 8));
            a += 16;
            if k == at::NULL {
                break;
            }
            seen.push((k, v));
        }
        assert_eq!(seen[0], (at::PAGESZ, 4096));
        let get = |k| seen.iter().find(|e| e.0 == k).unwrap().1;
        assert_eq!(cstr(&st, get(at::EXECFN)), b"/bin/prog");
        assert_eq!(cstr(&st, get(at::PLATFORM)), b"x86_64");
        let r = get(at::RANDOM);
        assert_eq!(r % 16, 0);
        assert_eq!(&st.bytes[(r - st.sp) as usize..][..16], &[7; 16]);
    }
}
