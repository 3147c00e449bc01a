//! The loader: ELF images, the initial process image, and symbolization.
//!
//! It owns everything that reads program files: parsing an executable into a
//! load plan ([`elf`]), laying out the initial stack ([`stack`]), and mapping
//! guest addresses back to objects, functions and source lines ([`symbols`]).
//! It never touches the emulator: the VM performs the plans made here.

pub mod elf;
pub mod stack;
pub mod symbols;
