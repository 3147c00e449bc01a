//! State kept per guest thread by a frame consumer.

use events::Tid;
use rustc_hash::FxHashMap;

/// One value per guest thread: the current thread's at hand, the others
/// parked until their thread runs again.
///
/// Everything that follows frames keeps its state per thread the same way
/// (the tracker's shadow stacks, the path recorder's and
/// `--toggle-collect`'s frames), so the switching rule lives here once: a
/// thread's value is created when the thread first runs and survives
/// every switch away from it.
#[derive(Debug, Default)]
pub struct PerThread<T> {
    current: T,
    current_tid: Tid,
    parked: FxHashMap<Tid, T>,
}

impl<T> PerThread<T> {
    /// `first` is thread `tid`'s value; it is current.
    pub fn new(tid: Tid, first: T) -> PerThread<T> {
        PerThread {
            current: first,
            current_tid: tid,
            parked: FxHashMap::default(),
        }
    }

    /// The current thread.
    pub fn tid(&self) -> Tid {
        self.current_tid
    }

    /// Makes `tid` current, parking the current thread's value and taking
    /// `tid`'s, or `make(tid)` for a thread not seen before. Returns false
    /// when `tid` was already current (nothing changed).
    pub fn switch(&mut self, tid: Tid, make: impl FnOnce(Tid) -> T) -> bool {
        if tid == self.current_tid {
            return false;
        }
        let next = self.parked.remove(&tid).unwrap_or_else(|| make(tid));
        let old = std::mem::replace(&mut self.current, next);
        self.parked.insert(self.current_tid, old);
        self.current_tid = tid;
        true
    }

    /// Gives the current value to thread `tid` instead, when nothing was
    /// parked yet (the first thread's id is known only once it runs).
    pub fn rename(&mut self, tid: Tid) {
        debug_assert!(self.parked.is_empty());
        self.current_tid = tid;
    }

    /// Whether no other thread has a value.
    pub fn alone(&self) -> bool {
        self.parked.is_empty()
    }

    /// The parked threads' values, in no particular order.
    pub fn parked_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.parked.values_mut()
    }
}

impl<T: Default> PerThread<T> {
    /// Makes `tid` current; a thread not seen before starts from
    /// `T::default()`. Returns false when `tid` was already current.
    pub fn switch_default(&mut self, tid: Tid) -> bool {
        self.switch(tid, |_| T::default())
    }
}

impl<T> std::ops::Deref for PerThread<T> {
    type Target = T;
    #[inline]
    fn deref(&self) -> &T {
        &self.current
    }
}

impl<T> std::ops::DerefMut for PerThread<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        &mut self.current
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_survive_switches() {
        let mut t: PerThread<Vec<u32>> = PerThread::default();
        t.push(1);
        assert!(t.switch_default(7));
        assert!(t.is_empty());
        t.push(70);
        assert!(!t.switch_default(7));
        assert!(t.switch_default(0));
        assert_eq!(*t, vec![1]);
        assert!(t.switch(7, |_| unreachable!()));
        assert_eq!(*t, vec![70]);
        assert_eq!(t.tid(), 7);
        assert_eq!(t.parked_mut().count(), 1);
    }

    #[test]
    fn new_threads_made_by_their_id() {
        let mut t = PerThread::new(3, 3u32);
        t.switch(9, |tid| tid * 10);
        assert_eq!(*t, 90);
        t.switch(3, |_| 0);
        assert_eq!(*t, 3);
    }
}
