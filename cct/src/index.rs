//! What the tracker needs to know about the guest's functions.

use events::{Addr, ObjectMapped, Terminator};

use crate::FuncId;

/// The guest's functions, as the owner of the tracker knows them (the VM side
/// implements it from ELF symbols; this crate never reads ELF).
///
/// The tracker asks once per decoded block (and again after
/// [`FunctionIndex::object_mapped`]), never per executed block, so a binary
/// search is fast enough.
pub trait FunctionIndex {
    /// The function containing `addr` and that function's entry address, or
    /// `None` where no symbol covers `addr`.
    ///
    /// The tracker gives code without a function a synthetic [`FuncId`] of its
    /// own, one per entry address (the target of a `call`, or of a jump out of
    /// a PLT stub), from [`FuncId::FIRST_SYNTHETIC`] upwards; the index must
    /// only hand out ids below that.
    ///
    /// Parts of one function that the compiler split off (`foo.cold`) should
    /// map to the id of the function: a jump into them is then not taken for
    /// a tail call.
    fn function_at(&self, addr: Addr) -> Option<(FuncId, Addr)>;

    /// True if `addr` lies in a PLT (`.plt`, `.plt.sec`, `.plt.got`): code
    /// that only jumps on to the real function, or to the lazy resolver.
    fn is_plt(&self, addr: Addr) -> bool;

    /// True if `addr` lies in the dynamic linker's lazy-binding trampoline
    /// (`_dl_runtime_resolve*`, `_dl_runtime_profile*`), which a PLT stub
    /// reaches on the first call and which jumps on to the resolved function.
    /// The default says no: resolution then shows as a tail call from the
    /// trampoline.
    fn is_lazy_resolver(&self, _addr: Addr) -> bool {
        false
    }

    /// An object was mapped executable (forwarded from
    /// [`events::Observer::object_mapped`]); the tracker then asks again
    /// about every block.
    fn object_mapped(&mut self, _obj: &ObjectMapped) {}
}

impl<T: FunctionIndex + ?Sized> FunctionIndex for &mut T {
    fn function_at(&self, addr: Addr) -> Option<(FuncId, Addr)> {
        (**self).function_at(addr)
    }
    fn is_plt(&self, addr: Addr) -> bool {
        (**self).is_plt(addr)
    }
    fn is_lazy_resolver(&self, addr: Addr) -> bool {
        (**self).is_lazy_resolver(addr)
    }
    fn object_mapped(&mut self, obj: &ObjectMapped) {
        (**self).object_mapped(obj)
    }
}

/// What the start of a block is to the frames, from the function index
/// alone: the one rule the tracker applies to each block, and a front that
/// must predict the tracker's entries without its frames (sparse runs on
/// two threads) applies too.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BlockStart {
    /// The function the index says the address belongs to.
    pub func: Option<FuncId>,
    /// The address is that function's entry.
    pub entry: bool,
    /// A PLT stub ([`FunctionIndex::is_plt`]).
    pub plt: bool,
    /// The lazy resolver ([`FunctionIndex::is_lazy_resolver`]).
    pub resolver: bool,
}

impl BlockStart {
    /// The index's answers for a block starting at `start`.
    pub fn of<I: FunctionIndex + ?Sized>(index: &I, start: Addr) -> BlockStart {
        let found = index.function_at(start);
        BlockStart {
            func: found.map(|(f, _)| f),
            entry: found.is_some_and(|(_, entry)| entry == start),
            plt: index.is_plt(start),
            resolver: index.is_lazy_resolver(start),
        }
    }

    /// A transfer landing here may change the frames: a function's entry,
    /// a PLT stub, the lazy resolver. Any other block reached by a jump, a
    /// branch or falling through leaves them as they are (code without a
    /// symbol may still be the entry of a function the tracker made for
    /// it: see [`may_start_function`]).
    #[inline]
    pub fn moves_frames(self) -> bool {
        self.entry || self.plt || self.resolver
    }
}

/// Whether the block after one that ended as `prev` (`None`: a thread's
/// or a signal handler's first block) may be the entry of a function the
/// tracker makes for code without a symbol: reached by a call (not one to
/// the next instruction, which reads the program counter), by an indirect
/// call or jump, or by a jump or branch out of a PLT stub or the lazy
/// resolver (`prev_in_plt`, asked only then). The tracker makes such a
/// function only at some of these transfers (it knows whether a PLT frame
/// is open); this is the superset a consumer without the frames can take.
pub fn may_start_function(
    prev: Option<(Terminator, Addr)>,
    prev_in_plt: impl FnOnce() -> bool,
) -> bool {
    match prev {
        None => true,
        Some((t, end)) => match t {
            Terminator::Call { target } => target != end,
            Terminator::IndirectCall | Terminator::IndirectJump => true,
            Terminator::Jump { .. } | Terminator::CondBranch { .. } => prev_in_plt(),
            _ => false,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Transfers that may start a function: a call (not to the next
    /// instruction), indirect calls and jumps, a thread's first block, and
    /// jumps only out of a PLT stub; never a return, a fall-through or a
    /// system call.
    #[test]
    fn which_transfers_may_start_a_function() {
        let yes = || true;
        let no = || false;
        assert!(may_start_function(None, no));
        assert!(may_start_function(
            Some((Terminator::Call { target: 0x2000 }, 0x1005)),
            no
        ));
        assert!(!may_start_function(
            Some((Terminator::Call { target: 0x1005 }, 0x1005)),
            yes
        ));
        assert!(may_start_function(Some((Terminator::IndirectCall, 0)), no));
        assert!(may_start_function(Some((Terminator::IndirectJump, 0)), no));
        for t in [
            Terminator::Jump { target: 0x3000 },
            Terminator::CondBranch { target: 0x3000 },
        ] {
            assert!(may_start_function(Some((t, 0x1005)), yes));
            assert!(!may_start_function(Some((t, 0x1005)), no));
        }
        for t in [
            Terminator::Return,
            Terminator::FallThrough,
            Terminator::Syscall,
        ] {
            assert!(!may_start_function(Some((t, 0x1005)), yes));
        }
    }
}
