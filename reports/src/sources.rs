//! Finding the source files a profile names, for the page's source view.

use std::path::{Path, PathBuf};

/// Source files larger than this are not read (they are not put in a page).
pub const MAX_SOURCE_BYTES: u64 = 16 << 20;

/// Where source files are looked for: a name relative to the build is
/// looked up in the current directory, then in each directory given; an
/// absolute name is read where it is, or by its file name in each
/// directory given (the sources moved since the build).
#[derive(Clone, Debug, Default)]
pub struct SourceDirs {
    dirs: Vec<PathBuf>,
}

impl SourceDirs {
    /// The current directory, then `extra` in order.
    pub fn new(extra: &[PathBuf]) -> SourceDirs {
        SourceDirs {
            dirs: extra.to_vec(),
        }
    }

    /// The text of the source file `name` names (lossily decoded), if one is
    /// found, is a regular file and is at most [`MAX_SOURCE_BYTES`].
    pub fn read(&self, name: &str) -> Option<String> {
        let path = Path::new(name);
        let candidates: Vec<PathBuf> = if path.is_absolute() {
            std::iter::once(path.to_path_buf())
                .chain(
                    self.dirs
                        .iter()
                        .filter_map(|d| path.file_name().map(|f| d.join(f))),
                )
                .collect()
        } else {
            std::iter::once(Path::new("."))
                .chain(self.dirs.iter().map(PathBuf::as_path))
                .map(|d| d.join(path))
                .collect()
        };
        candidates.into_iter().find_map(|p| {
            let meta = std::fs::metadata(&p).ok()?;
            if !meta.is_file() || meta.len() > MAX_SOURCE_BYTES {
                return None;
            }
            let bytes = std::fs::read(&p).ok()?;
            Some(String::from_utf8_lossy(&bytes).into_owned())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_names_in_the_directories_absolute_ones_by_file_name() {
        let base = std::env::temp_dir().join(format!("pathvm-sources-{}", std::process::id()));
        let (a, b) = (base.join("a"), base.join("b"));
        std::fs::create_dir_all(a.join("sub")).unwrap();
        std::fs::create_dir_all(&b).unwrap();
        std::fs::write(a.join("sub/x.c"), "in a").unwrap();
        std::fs::write(b.join("x.c"), "in b").unwrap();
        std::fs::write(b.join("big.c"), vec![b'x'; MAX_SOURCE_BYTES as usize + 1]).unwrap();
        let dirs = SourceDirs::new(&[a.clone(), b.clone()]);
        assert_eq!(dirs.read("sub/x.c").as_deref(), Some("in a"));
        assert_eq!(dirs.read("x.c").as_deref(), Some("in b"));
        // Moved since the build: found by its file name.
        assert_eq!(dirs.read("/nonexistent/build/x.c").as_deref(), Some("in b"));
        assert_eq!(dirs.read("big.c"), None);
        assert_eq!(dirs.read("sub"), None);
        assert_eq!(SourceDirs::new(&[]).read("/nonexistent/x.c"), None);
        std::fs::remove_dir_all(&base).unwrap();
    }
}
