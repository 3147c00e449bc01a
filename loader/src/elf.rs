//! Reading an ELF executable into a load plan: what to map where, with which
//! permissions, and where execution starts. The VM performs the plan; this
//! module never touches guest memory.

use std::path::{Path, PathBuf};

use goblin::elf::{header, program_header, Elf};

/// Page size of the guest.
pub const PAGE_SIZE: u64 = 4096;

/// Round down to a page boundary.
pub fn page_down(a: u64) -> u64 {
    a & !(PAGE_SIZE - 1)
}

/// Round up to a page boundary.
pub fn page_up(a: u64) -> u64 {
    (a + PAGE_SIZE - 1) & !(PAGE_SIZE - 1)
}

/// Why a program cannot be loaded. Each variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("{}: no such file", crate::escape_path(.0))]
    NotFound(PathBuf),
    #[error("{}: permission denied (not executable)", crate::escape_path(.0))]
    NotExecutable(PathBuf),
    #[error("{}: cannot read: {source}", crate::escape_path(.path))]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: not an ELF file", crate::escape_path(.0))]
    NotElf(PathBuf),
    #[error("{}: 32-bit ELF is not supported (x86-64 only)", crate::escape_path(.0))]
    Not64Bit(PathBuf),
    #[error("{}: ELF for machine {machine}, not x86-64", crate::escape_path(.path))]
    WrongMachine { path: PathBuf, machine: u16 },
    #[error("{}: ELF type {kind} is not an executable or shared object", crate::escape_path(.path))]
    WrongType { path: PathBuf, kind: u16 },
    #[error("{}: truncated or malformed ELF: {}", crate::escape_path(.path), crate::escape(.what.as_bytes()))]
    Malformed { path: PathBuf, what: String },
    #[error("{}: interpreter {} not found", crate::escape_path(.path), crate::escape(.interp.as_bytes()))]
    MissingInterpreter { path: PathBuf, interp: String },
}

impl LoadError {
    /// The exit status a shell would give for this error (127: not found,
    /// 126: found but cannot be executed).
    pub fn exit_status(&self) -> i32 {
        match self {
            LoadError::NotFound(_) => 127,
            _ => 126,
        }
    }
}

/// Segment permissions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Prot {
    pub read: bool,
    pub write: bool,
    pub exec: bool,
}

impl Prot {
    /// From the `PROT_*` bits of `mmap`/`mprotect`.
    pub fn from_bits(bits: u64) -> Prot {
        Prot {
            read: bits & 1 != 0,
            write: bits & 2 != 0,
            exec: bits & 4 != 0,
        }
    }
}

/// One `PT_LOAD` segment, in ELF virtual addresses (add the bias to place it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    pub vaddr: u64,
    pub memsz: u64,
    pub offset: u64,
    pub filesz: u64,
    pub prot: Prot,
}

/// The bytes of a file: mapped read-only and private (pages are read on
/// first use, so a large or sparse file costs only what is read of it), or
/// owned.
pub enum FileData {
    Mapped { base: *mut libc::c_void, len: usize },
    Owned(Vec<u8>),
}

// SAFETY: the mapping is read-only, never written through, and owned by this
// value alone (unmapped when it drops).
unsafe impl Send for FileData {}
// SAFETY: as above: shared references only read.
unsafe impl Sync for FileData {}

impl FileData {
    /// Map the whole of `file` (`len` bytes); an empty file, or one that
    /// cannot be mapped, is read instead.
    fn map(file: &mut std::fs::File, len: u64) -> std::io::Result<FileData> {
        use std::io::Read;
        use std::os::fd::AsRawFd;
        if len > 0 {
            if let Ok(len) = usize::try_from(len) {
                // SAFETY: a new private read-only mapping the kernel places.
                let base = unsafe {
                    libc::mmap(
                        std::ptr::null_mut(),
                        len,
                        libc::PROT_READ,
                        libc::MAP_PRIVATE,
                        file.as_raw_fd(),
                        0,
                    )
                };
                if base != libc::MAP_FAILED {
                    return Ok(FileData::Mapped { base, len });
                }
            }
        }
        let mut v = Vec::new();
        file.read_to_end(&mut v)?;
        Ok(FileData::Owned(v))
    }
}

impl FileData {
    /// Map the file at `path`.
    pub fn open(path: &Path) -> std::io::Result<FileData> {
        let mut file = std::fs::File::open(path)?;
        let len = file.metadata()?.len();
        FileData::map(&mut file, len)
    }
}

impl From<Vec<u8>> for FileData {
    fn from(v: Vec<u8>) -> FileData {
        FileData::Owned(v)
    }
}

impl From<&[u8]> for FileData {
    fn from(v: &[u8]) -> FileData {
        FileData::Owned(v.to_vec())
    }
}

impl std::ops::Deref for FileData {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            // SAFETY: `base..base+len` stays mapped until drop and is never
            // written. A file cut short under the run faults on read (as
            // the guest's own mappings of it do).
            FileData::Mapped { base, len } => unsafe {
                std::slice::from_raw_parts(base.cast::<u8>(), *len)
            },
            FileData::Owned(v) => v,
        }
    }
}

impl Drop for FileData {
    fn drop(&mut self) {
        if let FileData::Mapped { base, len } = *self {
            // SAFETY: the mapping made in `map`, unmapped once; no slice of
            // it outlives `self`.
            unsafe { libc::munmap(base, len) };
        }
    }
}

impl std::fmt::Debug for FileData {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "FileData({} bytes)", self.len())
    }
}

/// A parsed ELF executable or shared object.
#[derive(Debug)]
pub struct ElfImage {
    /// The file as given.
    pub path: PathBuf,
    /// The whole file (mapped, not read: only what is used is read).
    pub bytes: FileData,
    /// `ET_DYN` (PIE, static-PIE, shared object) rather than `ET_EXEC`.
    pub is_dyn: bool,
    /// Entry point (ELF virtual address).
    pub entry: u64,
    /// `PT_INTERP`, if any.
    pub interp: Option<String>,
    pub segments: Vec<Segment>,
    /// Virtual address of the program headers in memory (for `AT_PHDR`).
    pub phdr_vaddr: u64,
    pub phnum: u64,
    pub phentsize: u64,
    /// Whether `PT_GNU_STACK` asks for an executable stack.
    pub exec_stack: bool,
}

impl ElfImage {
    /// Read and check `path`.
    pub fn open(path: &Path) -> Result<ElfImage, LoadError> {
        let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => LoadError::NotFound(path.to_owned()),
            std::io::ErrorKind::PermissionDenied => LoadError::NotExecutable(path.to_owned()),
            _ => LoadError::Io {
                path: path.to_owned(),
                source: e,
            },
        })?;
        if !meta.is_file() {
            return Err(LoadError::NotExecutable(path.to_owned()));
        }
        let io = |e: std::io::Error| match e.kind() {
            std::io::ErrorKind::PermissionDenied => LoadError::NotExecutable(path.to_owned()),
            _ => LoadError::Io {
                path: path.to_owned(),
                source: e,
            },
        };
        let mut file = std::fs::File::open(path).map_err(io)?;
        let bytes = FileData::map(&mut file, meta.len()).map_err(io)?;
        Self::parse_data(path, bytes)
    }

    /// Check and parse the bytes of an ELF file.
    pub fn parse(path: &Path, bytes: Vec<u8>) -> Result<ElfImage, LoadError> {
        Self::parse_data(path, FileData::Owned(bytes))
    }

    fn parse_data(path: &Path, bytes: FileData) -> Result<ElfImage, LoadError> {
        let p = || path.to_owned();
        if bytes.len() < 4 || &bytes[..4] != b"\x7fELF" {
            return Err(LoadError::NotElf(p()));
        }
        if bytes.len() < 64 {
            return Err(LoadError::Malformed {
                path: p(),
                what: "header cut short".into(),
            });
        }
        if bytes[header::EI_CLASS] != header::ELFCLASS64 {
            return Err(LoadError::Not64Bit(p()));
        }
        let machine = u16::from_le_bytes([bytes[18], bytes[19]]);
        if machine != header::EM_X86_64 {
            return Err(LoadError::WrongMachine { path: p(), machine });
        }
        let elf = Elf::parse_header(&bytes).map_err(|e| LoadError::Malformed {
            path: p(),
            what: e.to_string(),
        })?;
        let kind = elf.e_type;
        if kind != header::ET_EXEC && kind != header::ET_DYN {
            return Err(LoadError::WrongType { path: p(), kind });
        }
        let phoff = elf.e_phoff as usize;
        let phnum = elf.e_phnum as usize;
        let phentsize = elf.e_phentsize as usize;
        if phentsize != program_header::program_header64::SIZEOF_PHDR
            || phoff
                .checked_add(phnum * phentsize)
                .is_none_or(|e| e > bytes.len())
        {
            return Err(LoadError::Malformed {
                path: p(),
                what: "program headers outside the file".into(),
            });
        }
        let ctx = goblin::container::Ctx::new(
            goblin::container::Container::Big,
            goblin::container::Endian::Little,
        );
        let phdrs =
            program_header::ProgramHeader::parse(&bytes, phoff, phnum, ctx).map_err(|e| {
                LoadError::Malformed {
                    path: p(),
                    what: e.to_string(),
                }
            })?;

        let mut segments = Vec::new();
        let mut interp = None;
        let mut phdr_vaddr = None;
        let mut exec_stack = false;
        for ph in &phdrs {
            match ph.p_type {
                program_header::PT_LOAD => {
                    if ph.p_filesz > ph.p_memsz
                        || ph
                            .p_offset
                            .checked_add(ph.p_filesz)
                            .is_none_or(|e| e > bytes.len() as u64)
                    {
                        return Err(LoadError::Malformed {
                            path: p(),
                            what: format!(
                                "segment at {:#x} extends past the end of the file",
                                ph.p_vaddr
                            ),
                        });
                    }
                    if ph.p_memsz == 0 {
                        continue;
                    }
                    segments.push(Segment {
                        vaddr: ph.p_vaddr,
                        memsz: ph.p_memsz,
                        offset: ph.p_offset,
                        filesz: ph.p_filesz,
                        prot: Prot {
                            read: ph.p_flags & program_header::PF_R != 0,
                            write: ph.p_flags & program_header::PF_W != 0,
                            exec: ph.p_flags & program_header::PF_X != 0,
                        },
                    });
                }
                program_header::PT_INTERP => {
                    let start = ph.p_offset as usize;
                    let end = start.saturating_add(ph.p_filesz as usize);
                    let raw = bytes.get(start..end).ok_or_else(|| LoadError::Malformed {
                        path: p(),
                        what: "PT_INTERP outside the file".into(),
                    })?;
                    let s = raw.split(|&b| b == 0).next().unwrap_or(&[]);
                    interp = Some(String::from_utf8_lossy(s).into_owned());
                }
                program_header::PT_PHDR => phdr_vaddr = Some(ph.p_vaddr),
                program_header::PT_GNU_STACK => exec_stack = ph.p_flags & program_header::PF_X != 0,
                _ => {}
            }
        }
        if segments.is_empty() {
            return Err(LoadError::Malformed {
                path: p(),
                what: "no loadable segment".into(),
            });
        }
        // Without PT_PHDR, the headers are wherever the segment holding
        // e_phoff maps them (as the kernel computes it).
        let phdr_vaddr = phdr_vaddr
            .or_else(|| {
                segments
                    .iter()
                    .find(|s| s.offset <= phoff as u64 && (phoff as u64) < s.offset + s.filesz)
                    .map(|s| s.vaddr + (phoff as u64 - s.offset))
            })
            .unwrap_or(0);
        Ok(ElfImage {
            path: path.to_owned(),
            is_dyn: kind == header::ET_DYN,
            entry: elf.e_entry,
            interp,
            segments,
            phdr_vaddr,
            phnum: phnum as u64,
            phentsize: phentsize as u64,
            exec_stack,
            bytes,
        })
    }

    /// Lowest page-aligned virtual address of the image.
    pub fn min_vaddr(&self) -> u64 {
        self.segments
            .iter()
            .map(|s| page_down(s.vaddr))
            .min()
            .unwrap_or(0)
    }

    /// Highest virtual address of the image, rounded up to a page.
    pub fn max_vaddr(&self) -> u64 {
        self.segments
            .iter()
            .map(|s| page_up(s.vaddr + s.memsz))
            .max()
            .unwrap_or(0)
    }

    /// Bytes from the file that segment `s` places at its start (`filesz` of them).
    pub fn segment_bytes(&self, s: &Segment) -> &[u8] {
        &self.bytes[s.offset as usize..(s.offset + s.filesz) as usize]
    }
}
