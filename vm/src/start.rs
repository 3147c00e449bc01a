//! What the guest starts with that is not the program: the fixed
//! environment, and what `execve` passes on written as the arguments of
//! the pathvm that runs the new image (`pathvm run --start-signals`,
//! `--start-stack-limit`; the ids are [`crate::Identity::to_arg`]).

use std::ffi::OsString;

use crate::StartSignals;

/// The guest's environment unless the host's is asked for: small and
/// fixed, so that runs do not depend on who starts them.
pub const DEFAULT_ENV: &[&str] = &[
    "PATH=/usr/local/bin:/usr/bin:/bin",
    "HOME=/",
    "LANG=C",
    "TERM=dumb",
];

/// The guest's environment: [`DEFAULT_ENV`], or this process's own with
/// `inherit`, each `K=V` of `set` added or replacing the variable `K`.
pub fn guest_env(inherit: bool, set: &[OsString]) -> Vec<OsString> {
    let mut env: Vec<OsString> = if inherit {
        std::env::vars_os()
            .map(|(k, v)| {
                let mut s = k;
                s.push("=");
                s.push(v);
                s
            })
            .collect()
    } else {
        DEFAULT_ENV.iter().map(OsString::from).collect()
    };
    for kv in set {
        let key = kv
            .to_string_lossy()
            .split('=')
            .next()
            .unwrap_or("")
            .to_string();
        env.retain(|e| e.to_string_lossy().split('=').next() != Some(key.as_str()));
        env.push(kv.clone());
    }
    env
}

fn hex(h: &str) -> Result<u64, String> {
    u64::from_str_radix(h, 16).map_err(|e| format!("{h}: {e}"))
}

impl StartSignals {
    /// `MASK,IGNORED` in hexadecimal (bit `sig - 1`).
    pub fn to_arg(&self) -> String {
        format!("{:x},{:x}", self.blocked, self.ignored)
    }

    /// The inverse of [`StartSignals::to_arg`].
    pub fn from_arg(s: &str) -> Result<StartSignals, String> {
        let (blocked, ignored) = s.split_once(',').ok_or("expected MASK,IGNORED")?;
        Ok(StartSignals {
            blocked: hex(blocked)?,
            ignored: hex(ignored)?,
        })
    }
}

/// A `RLIMIT_STACK` (soft, hard) as `SOFT,HARD` in hexadecimal.
pub fn stack_limit_to_arg((soft, hard): (u64, u64)) -> String {
    format!("{soft:x},{hard:x}")
}

/// The inverse of [`stack_limit_to_arg`].
pub fn stack_limit_from_arg(s: &str) -> Result<(u64, u64), String> {
    let (soft, hard) = s.split_once(',').ok_or("expected SOFT,HARD")?;
    Ok((hex(soft)?, hex(hard)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_arguments_read_back_what_they_write() {
        let s = StartSignals {
            blocked: 1 << 9,
            ignored: 0x8000_0000_0000_0001,
        };
        assert_eq!(s.to_arg(), "200,8000000000000001");
        assert_eq!(StartSignals::from_arg(&s.to_arg()), Ok(s));
        assert_eq!(
            stack_limit_to_arg((0x80_0000, u64::MAX)),
            "800000,ffffffffffffffff"
        );
        assert_eq!(
            stack_limit_from_arg("800000,ffffffffffffffff"),
            Ok((0x80_0000, u64::MAX))
        );
        assert!(StartSignals::from_arg("12").is_err());
        assert!(stack_limit_from_arg("x,1").is_err());
    }

    #[test]
    fn the_environment_is_fixed_unless_inherited_and_set_replaces() {
        let env = guest_env(false, &["HOME=/tmp".into(), "A=b=c".into()]);
        assert_eq!(
            env,
            [
                "PATH=/usr/local/bin:/usr/bin:/bin",
                "LANG=C",
                "TERM=dumb",
                "HOME=/tmp",
                "A=b=c"
            ]
        );
    }
}
