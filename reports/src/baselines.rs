//! `pathvm check` on files: which baseline each profile is checked
//! against, and making (`--save-baseline`) or replacing
//! (`--update-baseline`) baselines. The check itself is
//! [`crate::check_profiles`].

use std::path::{Path, PathBuf};

use crate::{
    check_profiles, cpu_mismatch, read_profile, write_profile, CheckInput, CheckOptions,
    CheckOutcome, Limits, LimitsError, Profile, ProfileError, ReportError,
};

/// Profile files to check, and where their baselines are.
#[derive(Clone, Debug)]
pub struct CheckFiles<'a> {
    /// The fresh profiles.
    pub profiles: &'a [PathBuf],
    /// The baseline of one profile; a directory (required for several)
    /// holds one per profile, under the profile's file name.
    pub baseline: &'a Path,
    /// A limits file (TOML), read before the limits of `limits`.
    pub limits_file: Option<&'a Path>,
    /// Limits on the totals, `METRIC:SPEC[,SPEC]` ([`Limits::from_cli`]).
    pub limits: &'a [String],
    /// Phases and format of the check.
    pub options: CheckOptions,
    /// A missing baseline is made from its profile (the check passes).
    pub save_baseline: bool,
    /// Every baseline is replaced by its profile; nothing is checked.
    pub update_baseline: bool,
    /// Profiles made on different CPU models may be compared.
    pub allow_cpu_mismatch: bool,
}

/// What [`check_files`] did.
#[derive(Clone, Debug, PartialEq)]
pub enum CheckFilesOutcome {
    /// The check ran.
    Checked(CheckOutcome),
    /// `update_baseline`: one line per baseline replaced.
    Updated(String),
}

/// Why [`check_files`] could not check.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CheckFilesError {
    /// A profile or baseline could not be read or written.
    #[error(transparent)]
    Profile(#[from] ProfileError),
    /// The limits are not usable.
    #[error(transparent)]
    Limits(#[from] LimitsError),
    /// The check refused the profiles.
    #[error(transparent)]
    Report(#[from] ReportError),
    /// The baselines named cannot be told apart, or the CPU models differ.
    #[error("{0}")]
    Baseline(String),
}

/// The baseline of each profile: `baseline` itself for one profile,
/// unless it is a directory (or ends in `/`); in a directory, the
/// profile's file name.
pub fn baselines_of(profiles: &[PathBuf], baseline: &Path) -> Result<Vec<PathBuf>, String> {
    let is_dir = baseline.is_dir() || baseline.as_os_str().as_encoded_bytes().ends_with(b"/");
    if profiles.len() == 1 && !is_dir {
        return Ok(vec![baseline.to_path_buf()]);
    }
    if baseline.exists() && !baseline.is_dir() {
        return Err(format!(
            "--baseline {}: several profiles need a directory of baselines",
            baseline.display()
        ));
    }
    let mut out: Vec<PathBuf> = Vec::new();
    for p in profiles {
        let name = p
            .file_name()
            .ok_or_else(|| format!("{}: not a file name", p.display()))?;
        let b = baseline.join(name);
        if out.contains(&b) {
            return Err(format!(
                "two profiles are named {}: their baselines would be one file",
                name.to_string_lossy()
            ));
        }
        out.push(b);
    }
    Ok(out)
}

/// Reads the profiles and their baselines and checks them (see
/// [`CheckFiles`] for what else it may do).
pub fn check_files(req: &CheckFiles) -> Result<CheckFilesOutcome, CheckFilesError> {
    let baselines = baselines_of(req.profiles, req.baseline).map_err(CheckFilesError::Baseline)?;
    let currents = req
        .profiles
        .iter()
        .map(read_profile)
        .collect::<Result<Vec<_>, _>>()?;
    if req.update_baseline {
        let mut text = String::new();
        for ((base, path), current) in baselines.iter().zip(req.profiles).zip(&currents) {
            write_baseline(base, current)?;
            text.push_str(&format!(
                "baseline {} updated from {}\n",
                base.display(),
                path.display()
            ));
        }
        return Ok(CheckFilesOutcome::Updated(text));
    }
    let mut bases = Vec::new();
    let mut created = Vec::new();
    for ((base, current), path) in baselines.iter().zip(&currents).zip(req.profiles) {
        if req.save_baseline && !base.exists() {
            write_baseline(base, current)?;
            bases.push(current.clone());
            created.push(true);
        } else {
            let baseline = read_profile(base)?;
            if let (Some(why), false) = (
                cpu_mismatch(&baseline.meta, &current.meta),
                req.allow_cpu_mismatch,
            ) {
                return Err(CheckFilesError::Baseline(format!(
                    "{} against {}: {why}",
                    path.display(),
                    base.display()
                )));
            }
            bases.push(baseline);
            created.push(false);
        }
    }
    let mut limits = match req.limits_file {
        Some(path) => Limits::read(path)?,
        None => Limits::default(),
    };
    limits.merge(Limits::from_cli(req.limits)?);
    let names: Vec<String> = req
        .profiles
        .iter()
        .map(|p| {
            p.file_name()
                .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into())
        })
        .collect();
    let inputs: Vec<CheckInput> = (0..currents.len())
        .map(|i| CheckInput {
            name: &names[i],
            baseline: &bases[i],
            current: &currents[i],
            created: created[i],
        })
        .collect();
    Ok(CheckFilesOutcome::Checked(check_profiles(
        &inputs,
        &limits,
        &req.options,
    )?))
}

/// Writes a baseline, making its directory when missing.
fn write_baseline(path: &Path, profile: &Profile) -> Result<(), CheckFilesError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| CheckFilesError::Baseline(format!("{}: {e}", dir.display())))?;
    }
    Ok(write_profile(path, profile)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_profile_has_its_baseline_file_several_a_directory() {
        let dir = std::env::temp_dir().join(format!("pathvm-baselines-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("base.out");
        std::fs::write(&file, b"x").unwrap();
        let one = [PathBuf::from("a/new.out")];
        let two = [PathBuf::from("a/x.out"), PathBuf::from("b/y.out")];
        assert_eq!(baselines_of(&one, &file), Ok(vec![file.clone()]));
        assert_eq!(baselines_of(&one, &dir), Ok(vec![dir.join("new.out")]));
        assert_eq!(
            baselines_of(&two, Path::new("none/")),
            Ok(vec![
                PathBuf::from("none/x.out"),
                PathBuf::from("none/y.out")
            ])
        );
        assert!(baselines_of(&two, &file)
            .unwrap_err()
            .ends_with("several profiles need a directory of baselines"));
        let same = [PathBuf::from("a/x.out"), PathBuf::from("b/x.out")];
        assert_eq!(
            baselines_of(&same, &dir),
            Err("two profiles are named x.out: their baselines would be one file".into())
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
