//! The profile file: what `pathvm run -o FILE` writes and every other
//! command reads.
//!
//! # Format, version 5
//!
//! All integers of the frame are little-endian.
//!
//! | offset   | size | content                                                 |
//! |----------|------|---------------------------------------------------------|
//! | 0        | 8    | magic `PATHVM\0\x01` ([`MAGIC`]; never changes)          |
//! | 8        | 4    | format version, `u32` ([`FORMAT_VERSION`])               |
//! | 12       | 8    | body length `n` in bytes, `u64`                          |
//! | 20       | n    | body: the [`Profile`] encoded with `postcard` 1.x        |
//! | 20 + n   | 4    | CRC-32 (IEEE) of bytes `0 .. 20 + n`, `u32`              |
//!
//! Version history: 1 had neither [`Profile::paths`] nor [`Profile::phases`];
//! 2 added the phases; 3 the paths and the blocks; 4 the costs per
//! instruction ([`Profile::insns`]); 5 their inline frames
//! ([`Profile::inlines`]). A version 1 file reads as one phase, `main`,
//! with the run's totals; versions 1 and 2 read with no paths; versions 1
//! to 3 with no costs per instruction; versions 1 to 4 with no inline
//! frames.
//!
//! Nothing follows the checksum. The body is serde's data model of
//! [`Profile`] in postcard's encoding: integers as LEB128 varints (so the
//! large context columns stay compact), strings and vectors prefixed by
//! their varint length, `Option` as a 0/1 tag, fields in declaration order.
//! A change to the fields of [`Profile`] or of anything it holds is a new
//! format version; a reader refuses versions newer than its own with
//! [`ProfileError::NewerVersion`] and keeps reading the older ones.
//!
//! Reading checks, in order: the file exists, the magic, the version, the
//! length (truncation), the checksum (corruption), the decoding, then
//! [`Profile::validate`]. Each failure is one [`ProfileError`] whose message
//! is one line naming the file; no input makes the reader panic.
//!
//! Writing is atomic: the bytes go to a new temporary file in the same
//! directory (`.NAME.tmp-PID-N`), which is flushed to disk and then renamed
//! over the final name; on any error the temporary file is removed. A crash
//! or a full disk never leaves a partial file under the final name, and the
//! temporary files of runs that were killed (their pid no longer exists) are
//! removed by the next write beside them.
//!
//! The final name is where the path leads: a symbolic link is followed and
//! the file it names is replaced, so the link stays. A path that names an
//! existing file that is not a regular file (`/dev/null`, a terminal, a
//! pipe) is written in place, never replaced. [`check_writable`] tells
//! before a run whether its profile could be written.
//!
//! The body is encoded in memory before it is written, so a profile costs
//! about its encoded size in memory on both sides; the length in the header
//! lets a reader allocate once and report truncation exactly.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::profile::{
    BlockProfile, ContextTable, FunctionRow, InsnProfile, Meta, PathProfile, Phase, PhaseFunction,
    Profile,
};

/// The first 8 bytes of every profile file.
pub const MAGIC: [u8; 8] = *b"PATHVM\0\x01";

/// The format version this build writes, and the newest it reads.
pub const FORMAT_VERSION: u32 = 5;

const HEADER_LEN: usize = 8 + 4 + 8;
const CHECKSUM_LEN: usize = 4;

/// Why a profile file could not be read or written. Every message is one
/// line and names the file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProfileError {
    /// The file does not exist.
    #[error("{}: no such profile file", path.display())]
    NotFound {
        /// The file asked for.
        path: PathBuf,
    },
    /// The operating system refused to read the file.
    #[error("{}: cannot read: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// Writing (the temporary file, its flush or the rename) failed; the
    /// final name was left as it was.
    #[error("{}: cannot write profile: {source}", path.display())]
    Write {
        /// The final name.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// The file does not start with [`MAGIC`].
    #[error("{}: not a pathvm profile (bad magic)", path.display())]
    NotAProfile {
        /// The file.
        path: PathBuf,
    },
    /// The file was written by a newer pathvm.
    #[error("{}: profile format version {found} is newer than this pathvm reads (version {supported} and older)", path.display())]
    NewerVersion {
        /// The file.
        path: PathBuf,
        /// The version in the file.
        found: u32,
        /// [`FORMAT_VERSION`].
        supported: u32,
    },
    /// The file ends before the length its header announces.
    #[error("{}: truncated profile: {found} bytes, expected {expected}", path.display())]
    Truncated {
        /// The file.
        path: PathBuf,
        /// Its length.
        found: u64,
        /// The length its header announces (the header's own length when
        /// the header itself is cut).
        expected: u64,
    },
    /// The checksum does not match, the body does not decode, or the
    /// decoded profile is inconsistent.
    #[error("{}: corrupt profile: {reason}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What was wrong, in words.
        reason: String,
    },
}

/// A decoding failure without a file name: what [`decode_profile`] returns.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeError {
    /// The bytes do not start with [`MAGIC`].
    BadMagic,
    /// The format version is newer than [`FORMAT_VERSION`].
    NewerVersion(u32),
    /// The bytes end early: `(found, expected)` lengths.
    Truncated(u64, u64),
    /// Anything else, in words.
    Corrupt(String),
}

impl DecodeError {
    fn at(self, path: &Path) -> ProfileError {
        let path = path.to_path_buf();
        match self {
            DecodeError::BadMagic => ProfileError::NotAProfile { path },
            DecodeError::NewerVersion(found) => ProfileError::NewerVersion {
                path,
                found,
                supported: FORMAT_VERSION,
            },
            DecodeError::Truncated(found, expected) => ProfileError::Truncated {
                path,
                found,
                expected,
            },
            DecodeError::Corrupt(reason) => ProfileError::Corrupt { path, reason },
        }
    }
}

/// The bytes of a profile file for `profile` (header, body, checksum).
pub fn encode_profile(profile: &Profile) -> Vec<u8> {
    let body = postcard::to_stdvec(profile).expect("a Profile always serializes");
    let mut out = Vec::with_capacity(HEADER_LEN + body.len() + CHECKSUM_LEN);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(&body);
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// Decodes the bytes of a profile file. Never panics, whatever the bytes
/// (a fuzzing entry point).
pub fn decode_profile(bytes: &[u8]) -> Result<Profile, DecodeError> {
    let len = bytes.len() as u64;
    if bytes.len() < MAGIC.len() {
        return Err(if MAGIC.starts_with(bytes) {
            DecodeError::Truncated(len, HEADER_LEN as u64)
        } else {
            DecodeError::BadMagic
        });
    }
    if bytes[..8] != MAGIC {
        return Err(DecodeError::BadMagic);
    }
    if bytes.len() < HEADER_LEN {
        return Err(DecodeError::Truncated(len, HEADER_LEN as u64));
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version == 0 {
        return Err(DecodeError::Corrupt("format version 0".into()));
    }
    if version > FORMAT_VERSION {
        return Err(DecodeError::NewerVersion(version));
    }
    let body_len = u64::from_le_bytes(bytes[12..20].try_into().expect("8 bytes"));
    let expected = body_len
        .checked_add((HEADER_LEN + CHECKSUM_LEN) as u64)
        .ok_or_else(|| DecodeError::Corrupt(format!("impossible body length {body_len}")))?;
    if len < expected {
        return Err(DecodeError::Truncated(len, expected));
    }
    if len > expected {
        return Err(DecodeError::Corrupt(format!(
            "{} bytes after the checksum",
            len - expected
        )));
    }
    let end = HEADER_LEN + body_len as usize;
    let stored = u32::from_le_bytes(bytes[end..].try_into().expect("4 bytes"));
    let actual = crc32fast::hash(&bytes[..end]);
    if stored != actual {
        return Err(DecodeError::Corrupt(format!(
            "checksum mismatch (stored {stored:08x}, computed {actual:08x})"
        )));
    }
    let body = &bytes[HEADER_LEN..end];
    let (profile, rest) = match version {
        1 => postcard::take_from_bytes::<ProfileV1>(body).map(|(p, rest)| (p.upgrade(), rest)),
        2 => postcard::take_from_bytes::<ProfileV2>(body).map(|(p, rest)| (p.upgrade(), rest)),
        3 => postcard::take_from_bytes::<ProfileV3>(body).map(|(p, rest)| (p.upgrade(), rest)),
        4 => postcard::take_from_bytes::<ProfileV4>(body).map(|(p, rest)| (p.upgrade(), rest)),
        _ => postcard::take_from_bytes::<Profile>(body),
    }
    .map_err(|e| DecodeError::Corrupt(format!("body does not decode: {e}")))?;
    if !rest.is_empty() {
        return Err(DecodeError::Corrupt(format!(
            "{} bytes left after the body",
            rest.len()
        )));
    }
    profile
        .validate()
        .map_err(|e| DecodeError::Corrupt(format!("inconsistent profile: {e}")))?;
    Ok(profile)
}

/// The body of a version 1 file: [`Profile`] before phases.
#[derive(serde::Deserialize)]
struct ProfileV1 {
    meta: Meta,
    metrics: Vec<String>,
    totals: Vec<u64>,
    functions: Vec<FunctionRow>,
    contexts: ContextTable,
}

impl ProfileV1 {
    /// The run as one phase, `main`.
    fn upgrade(self) -> Profile {
        Profile {
            phases: vec![Phase {
                name: "main".into(),
                totals: self.totals.clone(),
                functions: self
                    .functions
                    .iter()
                    .enumerate()
                    .filter(|(_, f)| f.self_cost.iter().any(|&v| v != 0))
                    .map(|(i, f)| PhaseFunction {
                        function: i as u32,
                        self_cost: f.self_cost.clone(),
                    })
                    .collect(),
            }],
            meta: self.meta,
            metrics: self.metrics,
            totals: self.totals,
            functions: self.functions,
            contexts: self.contexts,
            paths: PathProfile::default(),
            blocks: Default::default(),
            insns: Default::default(),
            inlines: Default::default(),
        }
    }
}

/// The body of a version 2 file: [`Profile`] before paths.
#[derive(serde::Deserialize)]
struct ProfileV2 {
    meta: Meta,
    metrics: Vec<String>,
    totals: Vec<u64>,
    functions: Vec<FunctionRow>,
    contexts: ContextTable,
    phases: Vec<Phase>,
}

impl ProfileV2 {
    /// The run without paths.
    fn upgrade(self) -> Profile {
        Profile {
            meta: self.meta,
            metrics: self.metrics,
            totals: self.totals,
            functions: self.functions,
            contexts: self.contexts,
            paths: PathProfile::default(),
            phases: self.phases,
            blocks: Default::default(),
            insns: Default::default(),
            inlines: Default::default(),
        }
    }
}

/// The body of a version 3 file: [`Profile`] before the costs per instruction.
#[derive(serde::Deserialize)]
struct ProfileV3 {
    meta: Meta,
    metrics: Vec<String>,
    totals: Vec<u64>,
    functions: Vec<FunctionRow>,
    contexts: ContextTable,
    paths: PathProfile,
    phases: Vec<Phase>,
    blocks: BlockProfile,
}

impl ProfileV3 {
    /// The run without costs per instruction.
    fn upgrade(self) -> Profile {
        Profile {
            meta: self.meta,
            metrics: self.metrics,
            totals: self.totals,
            functions: self.functions,
            contexts: self.contexts,
            paths: self.paths,
            phases: self.phases,
            blocks: self.blocks,
            insns: Default::default(),
            inlines: Default::default(),
        }
    }
}

/// The body of a version 4 file: [`Profile`] before the inline frames.
#[derive(serde::Deserialize)]
struct ProfileV4 {
    meta: Meta,
    metrics: Vec<String>,
    totals: Vec<u64>,
    functions: Vec<FunctionRow>,
    contexts: ContextTable,
    paths: PathProfile,
    phases: Vec<Phase>,
    blocks: BlockProfile,
    insns: InsnProfile,
}

impl ProfileV4 {
    /// The run without inline frames.
    fn upgrade(self) -> Profile {
        Profile {
            meta: self.meta,
            metrics: self.metrics,
            totals: self.totals,
            functions: self.functions,
            contexts: self.contexts,
            paths: self.paths,
            phases: self.phases,
            blocks: self.blocks,
            insns: self.insns,
            inlines: Default::default(),
        }
    }
}

/// Reads and checks a profile file.
pub fn read_profile(path: impl AsRef<Path>) -> Result<Profile, ProfileError> {
    let path = path.as_ref();
    let bytes = fs::read(path).map_err(|source| match source.kind() {
        io::ErrorKind::NotFound => ProfileError::NotFound {
            path: path.to_path_buf(),
        },
        _ => ProfileError::Read {
            path: path.to_path_buf(),
            source,
        },
    })?;
    decode_profile(&bytes).map_err(|e| e.at(path))
}

/// Writes `profile` to `path` atomically (see the module documentation):
/// either the complete new file is under `path` afterwards, or whatever
/// was there before.
pub fn write_profile(path: impl AsRef<Path>, profile: &Profile) -> Result<(), ProfileError> {
    let path = path.as_ref();
    let fail = |source| ProfileError::Write {
        path: path.to_path_buf(),
        source,
    };
    let bytes = encode_profile(profile);
    let path = match destination(path).map_err(fail)? {
        Destination::Special(device) => {
            let mut f = OpenOptions::new().write(true).open(device).map_err(fail)?;
            return f.write_all(&bytes).map_err(fail);
        }
        Destination::Regular(target) => target,
    };
    remove_stale_temporaries(&path);
    let temp = TempFile::create_beside(&path).map_err(fail)?;
    temp.write_all_synced(&bytes).map_err(fail)?;
    temp.rename_to(&path).map_err(fail)?;
    // Make the rename itself durable; a directory that cannot be opened or
    // synced (some file systems) does not make the write fail.
    if let Ok(dir) = File::open(parent_dir(&path)) {
        let _ = dir.sync_all();
    }
    Ok(())
}

/// An output file (an export, a report, a page) written as profiles are:
/// into a temporary file beside the final name, renamed over it by
/// [`OutputFile::commit`] once complete; dropped before that (an error
/// half-way, a full disk), it leaves the final name as it was. An existing
/// device or pipe (`/dev/null`, `/dev/stdout`) is written in place. Writes
/// are buffered, so an output of any size costs no memory.
pub struct OutputFile {
    out: io::BufWriter<File>,
    /// The temporary file and the final name, or `None` for a device.
    temp: Option<(TempFile, PathBuf)>,
}

impl OutputFile {
    /// Opens the output `path` (following symbolic links to the name that
    /// is written, as [`write_profile`] does).
    pub fn create(path: impl AsRef<Path>) -> io::Result<OutputFile> {
        match destination(path.as_ref())? {
            Destination::Special(device) => Ok(OutputFile {
                out: io::BufWriter::new(OpenOptions::new().write(true).open(device)?),
                temp: None,
            }),
            Destination::Regular(target) => {
                remove_stale_temporaries(&target);
                let temp = TempFile::create_beside(&target)?;
                Ok(OutputFile {
                    out: io::BufWriter::new(temp.file.try_clone()?),
                    temp: Some((temp, target)),
                })
            }
        }
    }

    /// Flushes the output to disk and gives it its final name.
    pub fn commit(mut self) -> io::Result<()> {
        self.out.flush()?;
        if let Some((temp, target)) = self.temp.take() {
            temp.file.sync_all()?;
            temp.rename_to(&target)?;
            if let Ok(dir) = File::open(parent_dir(&target)) {
                let _ = dir.sync_all();
            }
        }
        Ok(())
    }
}

impl Write for OutputFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.out.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.out.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Whether a profile could be written to `path` now: the directory of the
/// final name takes a new file, or the existing non-regular file opens for
/// writing. Nothing is left behind. A run calls it before it starts, so an
/// unwritable `-o` is found before the program runs rather than after.
pub fn check_writable(path: impl AsRef<Path>) -> Result<(), ProfileError> {
    let path = path.as_ref();
    let fail = |source| ProfileError::Write {
        path: path.to_path_buf(),
        source,
    };
    match destination(path).map_err(fail)? {
        Destination::Special(device) => OpenOptions::new()
            .write(true)
            .open(device)
            .map(drop)
            .map_err(fail),
        // The temporary removes itself when dropped.
        Destination::Regular(target) => TempFile::create_beside(&target).map(drop).map_err(fail),
    }
}

/// Where the bytes of a profile written to a path go.
#[derive(Debug, PartialEq)]
enum Destination {
    /// A regular file (existing or not), replaced atomically.
    Regular(PathBuf),
    /// An existing file of another kind (a device, a pipe), written in place.
    Special(PathBuf),
}

/// Follows symbolic links from `path` to the name that is written.
fn destination(path: &Path) -> io::Result<Destination> {
    let mut at = path.to_path_buf();
    // Linux's own limit on links followed in one lookup.
    for _ in 0..40 {
        match fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = fs::read_link(&at)?;
                at = if to.is_absolute() {
                    to
                } else {
                    parent_dir(&at).join(to)
                };
            }
            Ok(m) if m.is_dir() => {
                return Err(io::Error::new(
                    io::ErrorKind::IsADirectory,
                    "is a directory",
                ))
            }
            Ok(m) if m.is_file() => return Ok(Destination::Regular(at)),
            Ok(_) => return Ok(Destination::Special(at)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Destination::Regular(at)),
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        "too many levels of symbolic links",
    ))
}

/// Removes the temporary files `.NAME.tmp-PID-N` beside `target` whose
/// writer no longer runs (a run killed while writing, which could not
/// remove its own). Failures are ignored: this is housekeeping.
fn remove_stale_temporaries(target: &Path) {
    let Some(name) = target.file_name().and_then(|n| n.to_str()) else {
        return;
    };
    let prefix = format!(".{name}.tmp-");
    let Ok(dir) = fs::read_dir(parent_dir(target)) else {
        return;
    };
    for entry in dir.flatten() {
        let file_name = entry.file_name();
        let Some(rest) = file_name.to_str().and_then(|n| n.strip_prefix(&prefix)) else {
            continue;
        };
        let Some((pid, n)) = rest.split_once('-') else {
            continue;
        };
        if pid.parse::<u32>().is_err() || n.parse::<u64>().is_err() {
            continue;
        }
        if !Path::new("/proc").join(pid).exists() && Path::new("/proc/self").exists() {
            let _ = fs::remove_file(entry.path());
        }
    }
}

fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// A temporary file that removes itself unless renamed.
struct TempFile {
    path: PathBuf,
    file: File,
    renamed: bool,
}

impl TempFile {
    fn create_beside(target: &Path) -> io::Result<TempFile> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let name = target
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the path names no file"))?;
        loop {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let mut temp_name = std::ffi::OsString::from(".");
            temp_name.push(name);
            temp_name.push(format!(".tmp-{}-{n}", std::process::id()));
            let temp = parent_dir(target).join(temp_name);
            match OpenOptions::new().write(true).create_new(true).open(&temp) {
                Ok(file) => {
                    return Ok(TempFile {
                        path: temp,
                        file,
                        renamed: false,
                    })
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
    }

    fn write_all_synced(&self, bytes: &[u8]) -> io::Result<()> {
        (&self.file).write_all(bytes)?;
        self.file.sync_all()
    }

    fn rename_to(mut self, target: &Path) -> io::Result<()> {
        fs::rename(&self.path, target)?;
        self.renamed = true;
        Ok(())
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if !self.renamed {
            let _ = fs::remove_file(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::ContextTable;
    use crate::testdata::tiny_profile;

    fn scratch_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("pathvm-reports-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn an_output_appears_whole_on_commit_and_not_at_all_without() {
        let dir = scratch_dir("output");
        let path = dir.join("out.txt");
        fs::write(&path, "old").unwrap();
        let mut out = OutputFile::create(&path).unwrap();
        out.write_all(&vec![b'x'; 1 << 20]).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"old");
        drop(out);
        assert_eq!(fs::read(&path).unwrap(), b"old");
        assert_eq!(dir_entries(&dir), ["out.txt"]);
        let mut out = OutputFile::create(&path).unwrap();
        out.write_all(b"new").unwrap();
        out.commit().unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new");
        assert_eq!(dir_entries(&dir), ["out.txt"]);
        let mut null = OutputFile::create("/dev/null").unwrap();
        null.write_all(b"gone").unwrap();
        null.commit().unwrap();
        assert!(OutputFile::create(&dir).is_err());
        fs::remove_dir_all(&dir).unwrap();
    }

    fn dir_entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn round_trip_through_a_file() {
        let dir = scratch_dir("round-trip");
        let path = dir.join("p.pathvm");
        let profile = crate::testdata::phased_profile();
        write_profile(&path, &profile).unwrap();
        assert_eq!(read_profile(&path).unwrap(), profile);
        // Overwriting leaves exactly the final file, no temporary.
        write_profile(&path, &Profile::default()).unwrap();
        assert_eq!(read_profile(&path).unwrap(), Profile::default());
        assert_eq!(dir_entries(&dir), ["p.pathvm"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn header_layout_is_as_documented() {
        let bytes = encode_profile(&tiny_profile());
        assert_eq!(&bytes[..8], b"PATHVM\0\x01");
        assert_eq!(&bytes[8..12], &[5, 0, 0, 0]);
        let body_len = u64::from_le_bytes(bytes[12..20].try_into().unwrap()) as usize;
        assert_eq!(bytes.len(), 20 + body_len + 4);
        let crc = u32::from_le_bytes(bytes[20 + body_len..].try_into().unwrap());
        assert_eq!(crc, crc32fast::hash(&bytes[..20 + body_len]));
    }

    #[test]
    fn failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = scratch_dir("failed-write");
        let path = dir.join("p.pathvm");
        write_profile(&path, &tiny_profile()).unwrap();
        // Renaming a file over a directory fails after the temporary was
        // written: the temporary must go, the directory must stay.
        let blocked = dir.join("blocked");
        fs::create_dir(&blocked).unwrap();
        fs::write(blocked.join("x"), b"x").unwrap();
        let err = write_profile(&blocked, &tiny_profile()).unwrap_err();
        assert!(matches!(err, ProfileError::Write { .. }), "{err}");
        assert!(err
            .to_string()
            .starts_with(&format!("{}: cannot write profile: ", blocked.display())));
        assert_eq!(dir_entries(&dir), ["blocked", "p.pathvm"]);
        assert_eq!(read_profile(&path).unwrap(), tiny_profile());
        // A directory that does not exist.
        let err = write_profile(dir.join("no/such/dir/p"), &tiny_profile()).unwrap_err();
        assert!(matches!(err, ProfileError::Write { .. }));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn writes_through_symbolic_links() {
        let dir = scratch_dir("symlink");
        fs::create_dir(dir.join("real")).unwrap();
        std::os::unix::fs::symlink("real/p.pathvm", dir.join("link")).unwrap();
        std::os::unix::fs::symlink("link", dir.join("link2")).unwrap();
        check_writable(dir.join("link2")).unwrap();
        write_profile(dir.join("link2"), &tiny_profile()).unwrap();
        assert!(fs::symlink_metadata(dir.join("link"))
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(
            read_profile(dir.join("real/p.pathvm")).unwrap(),
            tiny_profile()
        );
        assert_eq!(dir_entries(&dir), ["link", "link2", "real"]);
        assert_eq!(dir_entries(&dir.join("real")), ["p.pathvm"]);
        // A loop of links is an error, not a hang.
        std::os::unix::fs::symlink("loop2", dir.join("loop1")).unwrap();
        std::os::unix::fs::symlink("loop1", dir.join("loop2")).unwrap();
        assert!(write_profile(dir.join("loop1"), &tiny_profile()).is_err());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_device_is_written_in_place_not_replaced() {
        let null = Path::new("/dev/null");
        use std::os::unix::fs::FileTypeExt;
        if !fs::metadata(null)
            .map(|m| m.file_type().is_char_device())
            .unwrap_or(false)
        {
            eprintln!("skipped: /dev/null is not a character device on this machine");
            return;
        }
        check_writable(null).unwrap();
        write_profile(null, &tiny_profile()).unwrap();
        assert!(fs::metadata(null).unwrap().file_type().is_char_device());
        assert!(fs::read(null).unwrap().is_empty());
    }

    #[test]
    fn unwritable_places_are_found_before_writing() {
        let dir = scratch_dir("unwritable");
        let err = check_writable(dir.join("no/such/dir/p")).unwrap_err();
        assert!(err.to_string().contains("cannot write profile"), "{err}");
        assert!(check_writable(&dir).is_err());
        check_writable(dir.join("p.pathvm")).unwrap();
        assert!(dir_entries(&dir).is_empty());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn temporaries_of_dead_runs_are_removed() {
        let dir = scratch_dir("stale");
        // No process has a pid above Linux's largest pid_max (2^22).
        let dead = ".p.pathvm.tmp-4194305-0";
        let alive = format!(".p.pathvm.tmp-{}-77", std::process::id());
        let other = ".q.pathvm.tmp-4194305-0";
        for n in [dead, alive.as_str(), other] {
            fs::write(dir.join(n), b"partial").unwrap();
        }
        write_profile(dir.join("p.pathvm"), &tiny_profile()).unwrap();
        assert_eq!(
            dir_entries(&dir),
            [alive.as_str(), other, "p.pathvm"],
            "only the dead run's temporary beside p.pathvm goes"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn missing_file() {
        let err = read_profile("/nonexistent/pathvm.out").unwrap_err();
        assert_eq!(
            err.to_string(),
            "/nonexistent/pathvm.out: no such profile file"
        );
    }

    #[test]
    fn truncation_at_every_length_is_reported() {
        let bytes = encode_profile(&tiny_profile());
        let full = bytes.len() as u64;
        for cut in 0..bytes.len() {
            let err = decode_profile(&bytes[..cut]).unwrap_err();
            let expected = if cut < HEADER_LEN {
                HEADER_LEN as u64
            } else {
                full
            };
            assert_eq!(
                err,
                DecodeError::Truncated(cut as u64, expected),
                "cut at {cut}"
            );
        }
        let dir = scratch_dir("truncated");
        let path = dir.join("t");
        fs::write(&path, &bytes[..30]).unwrap();
        assert_eq!(
            read_profile(&path).unwrap_err().to_string(),
            format!(
                "{}: truncated profile: 30 bytes, expected {full}",
                path.display()
            )
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn every_flipped_byte_is_reported() {
        let bytes = encode_profile(&tiny_profile());
        for pos in 0..bytes.len() {
            for mask in [0x01u8, 0x80, 0xff] {
                let mut bad = bytes.clone();
                bad[pos] ^= mask;
                let err = decode_profile(&bad).unwrap_err();
                let ok = match pos {
                    0..=7 => err == DecodeError::BadMagic,
                    8..=11 => matches!(err, DecodeError::NewerVersion(_) | DecodeError::Corrupt(_)),
                    12..=19 => matches!(err, DecodeError::Truncated(..) | DecodeError::Corrupt(_)),
                    _ => {
                        matches!(&err, DecodeError::Corrupt(r) if r.starts_with("checksum mismatch"))
                    }
                };
                assert!(ok, "byte {pos} ^ {mask:#x}: {err:?}");
            }
        }
    }

    /// A version 1 file (no phases) still reads, as one phase `main`.
    #[test]
    fn version_1_reads_as_one_phase() {
        #[derive(serde::Serialize)]
        struct V1<'a> {
            meta: &'a Meta,
            metrics: &'a Vec<String>,
            totals: &'a Vec<u64>,
            functions: &'a Vec<FunctionRow>,
            contexts: &'a ContextTable,
        }
        let p = crate::testdata::phased_profile();
        let body = postcard::to_stdvec(&V1 {
            meta: &p.meta,
            metrics: &p.metrics,
            totals: &p.totals,
            functions: &p.functions,
            contexts: &p.contexts,
        })
        .unwrap();
        let mut bytes = Vec::new();
        bytes.extend_from_slice(&MAGIC);
        bytes.extend_from_slice(&1u32.to_le_bytes());
        bytes.extend_from_slice(&(body.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&body);
        let crc = crc32fast::hash(&bytes);
        bytes.extend_from_slice(&crc.to_le_bytes());
        let back = decode_profile(&bytes).unwrap();
        assert_eq!(
            back.phases,
            [Phase {
                name: "main".into(),
                totals: vec![270, 33],
                functions: (0..4)
                    .map(|i| PhaseFunction {
                        function: i,
                        self_cost: p.functions[i as usize].self_cost.clone(),
                    })
                    .collect(),
            }]
        );
        assert_eq!(
            Profile {
                phases: p.phases.clone(),
                paths: p.paths.clone(),
                ..back
            },
            p
        );
        // A version 2 body under a version 1 header does not decode as one.
        let v2 = encode_profile(&p);
        let mut relabeled = v2[..v2.len() - 4].to_vec();
        relabeled[8..12].copy_from_slice(&1u32.to_le_bytes());
        let crc = crc32fast::hash(&relabeled);
        relabeled.extend_from_slice(&crc.to_le_bytes());
        assert!(matches!(
            decode_profile(&relabeled).unwrap_err(),
            DecodeError::Corrupt(_)
        ));
    }

    #[test]
    fn phases_must_add_up() {
        let phased = crate::testdata::phased_profile;
        phased().validate().unwrap();
        let mut p = phased();
        p.phases[1].totals[0] += 1;
        assert_eq!(
            p.validate().unwrap_err(),
            "the phases do not add up to the totals"
        );
        let mut p = phased();
        p.phases[1].name = "main".into();
        assert_eq!(p.validate().unwrap_err(), "phase `main` appears twice");
        let mut p = phased();
        p.phases[1].functions[0].function = 4;
        assert_eq!(
            p.validate().unwrap_err(),
            "phase `work` has a bad row for function 4"
        );
        let mut p = phased();
        p.phases[0].totals.pop();
        assert_eq!(
            p.validate().unwrap_err(),
            "phase `main` has totals for 1 metrics, not 2"
        );
    }

    #[test]
    fn appended_bytes_are_corruption() {
        let mut bytes = encode_profile(&tiny_profile());
        bytes.push(0);
        assert_eq!(
            decode_profile(&bytes).unwrap_err(),
            DecodeError::Corrupt("1 bytes after the checksum".into())
        );
    }

    #[test]
    fn wrong_magic() {
        assert_eq!(
            decode_profile(b"\x7fELF\x02\x01\x01\0rest of an ELF file").unwrap_err(),
            DecodeError::BadMagic
        );
        assert_eq!(
            decode_profile(b"events:").unwrap_err(),
            DecodeError::BadMagic
        );
        assert_eq!(
            decode_profile(b"").unwrap_err(),
            DecodeError::Truncated(0, 20)
        );
        let dir = scratch_dir("magic");
        let path = dir.join("callgrind.out");
        fs::write(&path, "# callgrind format\nversion: 1\n").unwrap();
        assert_eq!(
            read_profile(&path).unwrap_err().to_string(),
            format!("{}: not a pathvm profile (bad magic)", path.display())
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn future_version() {
        let mut bytes = encode_profile(&tiny_profile());
        bytes[8..12].copy_from_slice(&7u32.to_le_bytes());
        assert_eq!(
            decode_profile(&bytes).unwrap_err(),
            DecodeError::NewerVersion(7)
        );
        let err = DecodeError::NewerVersion(7).at(Path::new("new.pathvm"));
        assert_eq!(
            err.to_string(),
            "new.pathvm: profile format version 7 is newer than this pathvm reads (version 5 and older)"
        );
    }

    /// A version 4 file (no inline frames) still reads, without them; a
    /// version 5 file keeps them.
    #[test]
    fn version_4_reads_without_inline_frames() {
        let profile = crate::testdata::inlined_profile();
        let bytes = encode_profile(&profile);
        assert_eq!(decode_profile(&bytes).unwrap(), profile);
        let mut old = profile.clone();
        old.inlines = Default::default();
        let body = postcard::to_allocvec(&old).unwrap();
        // Version 4's body is version 5's without the (empty) inline table's
        // two length prefixes at its end.
        assert!(body.ends_with(&[0, 0]));
        let body = &body[..body.len() - 2];
        let mut v4 = Vec::new();
        v4.extend_from_slice(&MAGIC);
        v4.extend_from_slice(&4u32.to_le_bytes());
        v4.extend_from_slice(&(body.len() as u64).to_le_bytes());
        v4.extend_from_slice(body);
        let crc = crc32fast::hash(&v4);
        v4.extend_from_slice(&crc.to_le_bytes());
        assert_eq!(decode_profile(&v4).unwrap(), old);
    }

    /// Every report of a profile read back from disk equals the report of
    /// the profile in memory.
    #[test]
    fn reports_of_a_read_back_profile_are_equal() {
        let dir = scratch_dir("reports-equal");
        let path = dir.join("p.pathvm");
        let profile = tiny_profile();
        write_profile(&path, &profile).unwrap();
        let back = read_profile(&path).unwrap();
        assert_eq!(every_report(&back), every_report(&profile));
        fs::remove_dir_all(&dir).unwrap();
    }

    /// Every view, in every format, or the error it gives.
    fn every_report(p: &Profile) -> Vec<String> {
        use crate::*;
        let mut out = Vec::new();
        let mut push =
            |r: Result<String, ReportError>| out.push(r.unwrap_or_else(|e| e.to_string()));
        for format in [ReportFormat::Text, ReportFormat::Json] {
            push(report_functions(
                p,
                &FunctionReportOptions {
                    format,
                    ..Default::default()
                },
            ));
            for view in [
                ContextView::Tree,
                ContextView::Callers { levels: 2 },
                ContextView::CallPaths { depth: 2 },
            ] {
                push(report_contexts(
                    p,
                    &ContextReportOptions {
                        view,
                        format,
                        ..Default::default()
                    },
                ));
                push(report_contexts(
                    p,
                    &ContextReportOptions {
                        view,
                        format,
                        threshold_pct: 10.0,
                        focus: vec!["?".into()],
                        path_contains: vec!["*a*".into()],
                        ..Default::default()
                    },
                ));
            }
            push(report_stats(p, format));
        }
        push(json_summary(p, 3));
        for format in [DiffFormat::Text, DiffFormat::Json, DiffFormat::Markdown] {
            for by in [DiffBy::Function, DiffBy::Context] {
                let o = DiffOptions {
                    by,
                    format,
                    fail_on: vec!["instructions".parse().unwrap()],
                    ..Default::default()
                };
                push(diff(p, &tiny_profile(), &o).map(|d| d.text));
                push(diff(&tiny_profile(), p, &o).map(|d| d.text));
            }
        }
        push(check(&tiny_profile(), p, &Limits::default()).map(|c| c.verdict_text));
        for phase in [None, Some("main".to_string()), Some("work".to_string())] {
            for format in [ReportFormat::Text, ReportFormat::Json] {
                push(report_phases(
                    p,
                    &PhaseReportOptions {
                        phase: phase.clone(),
                        top: Some(3),
                        format,
                        ..Default::default()
                    },
                ));
            }
            if let Some(name) = &phase {
                push(
                    phase_profile(p, name)
                        .and_then(|q| diff(&q, &q, &DiffOptions::default()))
                        .map(|d| d.text),
                );
            }
        }
        out
    }

    /// Bodies mutated byte by byte and framed with a right checksum: the
    /// decoder either refuses them or returns a profile that every report
    /// handles without panicking.
    #[test]
    fn mutated_bodies_decode_or_fail_cleanly() {
        fn frame(body: &[u8]) -> Vec<u8> {
            let mut out = Vec::new();
            out.extend_from_slice(&MAGIC);
            out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
            out.extend_from_slice(&(body.len() as u64).to_le_bytes());
            out.extend_from_slice(body);
            let crc = crc32fast::hash(&out);
            out.extend_from_slice(&crc.to_le_bytes());
            out
        }
        let body = postcard::to_stdvec(&tiny_profile()).unwrap();
        let mut decoded = 0;
        for pos in 0..body.len() {
            for value in [0u8, 1, 0xff] {
                let mut bad = body.clone();
                bad[pos] = value;
                if let Ok(p) = decode_profile(&frame(&bad)) {
                    decoded += 1;
                    every_report(&p);
                }
            }
        }
        assert!(decoded > 0);
        // Pseudo-random bodies (a fixed linear congruential sequence).
        let mut x: u64 = 0x9e3779b97f4a7c15;
        for len in 0..400 {
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (x >> 56) as u8
                })
                .collect();
            if let Ok(p) = decode_profile(&frame(&bytes)) {
                every_report(&p);
            }
        }
    }

    /// The fuzz target's work without a fuzzer (`fuzz/` needs nightly):
    /// deterministic pseudo-random mutations of valid profiles (bit flips,
    /// byte values at varint boundaries, truncations, insertions, deletions,
    /// splices of two profiles), each read as a whole file and as a body
    /// framed with a right checksum; whatever decodes goes through every
    /// report and export. Nothing may panic.
    #[test]
    fn pseudo_random_mutations_never_panic() {
        struct Lcg(u64);
        impl Lcg {
            fn next(&mut self) -> u64 {
                self.0 = self
                    .0
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                self.0 >> 33
            }
            fn below(&mut self, n: usize) -> usize {
                (self.next() % n.max(1) as u64) as usize
            }
        }
        fn frame(version: u32, body: &[u8]) -> Vec<u8> {
            let mut out = Vec::new();
            out.extend_from_slice(&MAGIC);
            out.extend_from_slice(&version.to_le_bytes());
            out.extend_from_slice(&(body.len() as u64).to_le_bytes());
            out.extend_from_slice(body);
            let crc = crc32fast::hash(&out);
            out.extend_from_slice(&crc.to_le_bytes());
            out
        }
        let mut other = crate::testdata::phased_profile();
        other.contexts = ContextTable::default();
        other.metrics.push("cycles".into());
        other.totals.push(9);
        other.phases[0].totals.push(4);
        other.phases[1].totals.push(5);
        for f in other.phases.iter_mut().flat_map(|p| &mut p.functions) {
            f.self_cost.push(1);
        }
        for f in &mut other.functions {
            f.self_cost.push(1);
            f.inclusive.push(2);
        }
        let seeds = [encode_profile(&tiny_profile()), encode_profile(&other)];
        let bodies: Vec<Vec<u8>> = seeds
            .iter()
            .map(|b| b[HEADER_LEN..b.len() - CHECKSUM_LEN].to_vec())
            .collect();
        let mut rng = Lcg(0x5eed_0f_9a7f);
        let (mut decoded, mut tried) = (0, 0);
        let mut exercise = |bytes: &[u8]| {
            tried += 1;
            if let Ok(p) = decode_profile(bytes) {
                decoded += 1;
                every_report(&p);
                let mut sink = Vec::new();
                let _ = crate::export_callgrind(&p, &mut sink);
                let _ = crate::export_speedscope(&p, None, &mut sink);
                let _ = crate::export_pprof(&p, None, &mut sink);
                if let Some(m) = p.metrics.first() {
                    let _ = crate::export_folded(&p, m, &mut sink);
                }
            }
        };
        for round in 0..6000 {
            let which = rng.below(2);
            let framed = round % 2 == 1;
            let mut bytes = if framed {
                bodies[which].clone()
            } else {
                seeds[which].clone()
            };
            for _ in 0..1 + rng.below(4) {
                let len = bytes.len();
                match rng.below(7) {
                    0 if len > 0 => {
                        let i = rng.below(len);
                        bytes[i] ^= 1 << rng.below(8);
                    }
                    1 if len > 0 => {
                        let i = rng.below(len);
                        bytes[i] = [0, 1, 0x7f, 0x80, 0xff][rng.below(5)];
                    }
                    2 => bytes.truncate(rng.below(len + 1)),
                    3 => {
                        let i = rng.below(len + 1);
                        let n = 1 + rng.below(8);
                        let fill: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
                        bytes.splice(i..i, fill);
                    }
                    4 if len > 0 => {
                        let i = rng.below(len);
                        let j = (i + 1 + rng.below(8)).min(len);
                        bytes.drain(i..j);
                    }
                    5 => {
                        // Splice: our head, the other seed's tail.
                        let src = if framed {
                            &bodies[1 - which]
                        } else {
                            &seeds[1 - which]
                        };
                        let cut = rng.below(len + 1);
                        let from = rng.below(src.len() + 1);
                        bytes.truncate(cut);
                        bytes.extend_from_slice(&src[from..]);
                    }
                    _ => {
                        // Duplicate a run (repeated fields, longer vectors).
                        if len > 0 {
                            let i = rng.below(len);
                            let j = (i + 1 + rng.below(16)).min(len);
                            let run = bytes[i..j].to_vec();
                            bytes.splice(j..j, run);
                        }
                    }
                }
            }
            if framed {
                let version = 1 + rng.below(FORMAT_VERSION as usize) as u32;
                exercise(&frame(version, &bytes));
            } else {
                exercise(&bytes);
            }
        }
        assert_eq!(tried, 6000);
        // Some mutations keep the profile readable (a changed count, a
        // changed name): the reports ran on them.
        assert!(decoded > 20, "{decoded} decoded");
    }

    /// A well-framed file (right checksum) whose body is garbage or
    /// inconsistent: the decoder and the validation catch it.
    #[test]
    fn valid_frame_with_bad_body() {
        fn frame(body: &[u8]) -> Vec<u8> {
            let mut out = Vec::new();
            out.extend_from_slice(&MAGIC);
            out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
            out.extend_from_slice(&(body.len() as u64).to_le_bytes());
            out.extend_from_slice(body);
            let crc = crc32fast::hash(&out);
            out.extend_from_slice(&crc.to_le_bytes());
            out
        }
        let err = decode_profile(&frame(&[0xff; 40])).unwrap_err();
        assert!(
            matches!(&err, DecodeError::Corrupt(r) if r.starts_with("body does not decode")),
            "{err:?}"
        );

        let mut body = postcard::to_stdvec(&tiny_profile()).unwrap();
        body.push(0);
        let err = decode_profile(&frame(&body)).unwrap_err();
        assert_eq!(
            err,
            DecodeError::Corrupt("1 bytes left after the body".into())
        );

        let mut inconsistent = tiny_profile();
        inconsistent.contexts.parent[2] = 4;
        let err = decode_profile(&frame(&postcard::to_stdvec(&inconsistent).unwrap())).unwrap_err();
        assert_eq!(
            err,
            DecodeError::Corrupt(
                "inconsistent profile: context 2 comes before its parent 4".into()
            )
        );

        // A huge announced length is truncation, not an allocation.
        let mut huge = encode_profile(&tiny_profile());
        huge[12..20].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(matches!(
            decode_profile(&huge).unwrap_err(),
            DecodeError::Corrupt(_)
        ));
        huge[12..20].copy_from_slice(&(u64::MAX / 2).to_le_bytes());
        assert!(matches!(
            decode_profile(&huge).unwrap_err(),
            DecodeError::Truncated(..)
        ));
    }
}
