//! Reports: the profile file and everything read from it.
//!
//! It owns the profile format (written by `pathvm run`, read by every other
//! command), the report views, exports, `diff` and `check`. It never runs a
//! guest and never links the emulator.

pub mod profile;

pub use profile::{ContextTable, FunctionRow, Meta, ObjectInfo, Profile};
