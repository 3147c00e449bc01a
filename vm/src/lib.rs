//! The pathvm virtual machine.
//!
//! It owns the emulated CPU (unicorn 2.1.1, x86-64 only), the guest's memory,
//! its Linux system calls, and everything that makes a run deterministic: a
//! fixed CPU model, fixed addresses, a virtual clock driven by retired
//! instructions, seeded randomness, fixed identity; virtual signals
//! ([`signals`]), child processes that are host processes ([`process`]) on
//! one virtual timeline ([`timeline`]) and guest threads under a
//! deterministic scheduler ([`threads`]).
//! It decodes each block the CPU runs once ([`decode`]) and reports
//! execution to an [`events::Observer`]; no unicorn type leaves this crate.

pub mod clock;
pub mod cpu;
pub mod decode;
mod epoll;
pub mod fdview;
pub mod identity;
pub mod machine;
pub mod memory;
mod net;
pub mod process;
mod procfs;
mod sigcalls;
mod signalfd;
pub mod signals;
mod sparse;
pub mod start;
mod syscalls;
mod sysnames;
pub mod threads;
pub mod timeline;
mod waits;

pub use fdview::{reserve_fd, GUEST_FD_LIMIT};
pub use identity::{Identity, Ids};
pub use loader::escape_path;
pub use machine::{
    install_stop_handlers, loading, request_stop, run, RunOutcome, StartSignals, StopReason,
    VmConfig, VmError, GUEST_PID,
};
pub use process::{
    die_of_signal, exec_host, forked_child, resolve_command, take_exec_request, ChildIdentity,
    ExecRequest,
};
pub use start::{guest_env, DEFAULT_ENV};
pub use syscalls::syscall_name;
