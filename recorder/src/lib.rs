//! A pathvm recording session: the observer of a run and the profile it
//! builds.
//!
//! The crate owns everything between the VM's events and a
//! [`reports::Profile`]: charging each block's costs once to a calling
//! context, a function and a Ball-Larus path; `--toggle-collect`;
//! `alloc-bytes` with its allocator table; region markers and phases; path
//! assembly; and the profile itself. It depends on the VM only through
//! [`events`]: a [`Driver`] hands it the events of one run. With the `vm`
//! feature, [`run::record`] runs a program under pathvm's VM.
//!
//! ```
//! use events::{BlockEvent, BlockFacts, BlockId, InsnFacts, Observer, Terminator};
//! use recorder::{Driver, Options, RunFacts, Session};
//!
//! /// Two blocks of stripped code, the first run three times.
//! struct Events;
//! impl Driver for Events {
//!     type Outcome = ();
//!     fn run<O: Observer>(&mut self, o: &mut O) {
//!         let insn = |offset| InsnFacts { offset, len: 2, loads: 0, stores: 0, is_branch: false };
//!         let a = BlockFacts::new(0x1000, 4, vec![insn(0), insn(2)].into(), Terminator::FallThrough);
//!         let b = BlockFacts::new(0x1004, 2, vec![insn(0)].into(), Terminator::Return);
//!         o.block_decoded(BlockId(0), &a);
//!         o.block_decoded(BlockId(1), &b);
//!         for _ in 0..3 {
//!             o.block(BlockEvent { id: BlockId(0), sp: 0x7000 }, &a);
//!         }
//!         o.block(BlockEvent { id: BlockId(1), sp: 0x7000 }, &b);
//!     }
//! }
//!
//! let opts = Options { machine: None, threaded: false, ..Options::default() };
//! let ((), finished) = Session::new(&opts).unwrap().record(&mut Events);
//! let profile = finished.build_profile(&RunFacts::default()).profile;
//! assert_eq!(profile.metrics[0], "instructions");
//! assert_eq!(profile.totals[0], 3 * 2 + 1);
//! ```

mod functions;
mod markers;
mod paths;
mod record;
#[cfg(feature = "vm")]
pub mod run;

pub use record::{Built, ConfigError, Driver, Finished, Options, RunFacts, Session};

/// The configuration types of [`Options`], from the crates that own them.
pub use cachemodel::{BranchConfig, CacheConfig, HierarchyConfig, SimConfig};
pub use cct::{RecursionPolicy, TrackerConfig, DEFAULT_MAX_CONTEXTS, DEFAULT_MAX_DEPTH};
