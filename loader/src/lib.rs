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
