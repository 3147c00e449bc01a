//! What the tracker needs to know about the guest's functions.

use events::{Addr, ObjectMapped};

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
