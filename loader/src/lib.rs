//! The loader: ELF images, the initial process image, and symbolization.
//!
//! It owns everything that reads program files: parsing an executable into a
//! load plan ([`elf`]), laying out the initial stack ([`stack`]), and mapping
//! guest addresses back to objects, functions and source lines ([`symbols`]);
//! what a function of the run is ([`functions`]: `.cold` parts, PLT stubs,
//! the lazy resolver, allocators) and the code bytes and no-return functions
//! the path profiler reads ([`code`]).
//! It never touches the emulator: the VM performs the plans made here.

pub mod code;
pub mod elf;
pub mod functions;
pub mod stack;
pub mod symbols;

/// Bytes of a path or name for a one-line message: printable characters as
/// they are, control characters and bytes that are not UTF-8 as escapes
/// (`\n`, `\t`, `\x1b`, ...), backslashes doubled.
pub fn escape(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\t' => out.push_str("\\t"),
                '\r' => out.push_str("\\r"),
                c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                    out.push_str(&format!("\\x{:02x}", c as u32))
                }
                c if ('\u{80}'..='\u{9f}').contains(&c) => {
                    out.push_str(&format!("\\u{{{:x}}}", c as u32))
                }
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// [`escape`] of a path.
pub fn escape_path(p: &std::path::Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    escape(p.as_os_str().as_bytes())
}

#[cfg(test)]
mod tests {
    #[test]
    fn escape_keeps_messages_on_one_line() {
        assert_eq!(super::escape("/a b/\u{e9}".as_bytes()), "/a b/\u{e9}");
        assert_eq!(
            super::escape(b"x\ny\x1b[31m\\\xff"),
            "x\\ny\\x1b[31m\\\\\\xff"
        );
    }
}
