//! Integration tests: the `pathvm` binary on real guest programs, compared
//! with native runs and with valgrind. One test binary (modules below) so it
//! links once. Guest programs are built from `guest-programs/` on first use.

mod common;

mod architecture;
mod bad_input;
mod bench_crate;
mod cache;
mod ci;
mod ci_recipe;
mod clientreq;
mod collect;
mod contexts;
mod corpus;
mod counts;
mod cpu;
mod docs;
mod export;
mod faults;
mod fpu;
mod inline;
mod lines;
mod memory;
mod native;
mod paths;
mod phases;
mod pipe;
mod process;
mod report_text;
mod signals;
mod sparse;
mod symbols;
mod syscalls;
mod threads;
mod view;
