//! Running the analyses on a second thread, fed in order by the VM's.
//!
//! A [`Pipe`] is the VM's [`Observer`]. It hands each event to a [`Front`],
//! the part of the analyses that runs on the VM's thread (the cache model,
//! which sees every memory access), and queues it, in batches, for a [`Back`]
//! (the calling-context tree, paths, branch model and charging), which
//! replays the stream on a thread of its own. What the front learns about
//! the running block reaches the back as notes ([`Front::take_note`]),
//! queued just before the next event, so the back sees exactly the sequence
//! it would see on one thread: the counts do not depend on the pipe.
//!
//! The queue is bounded (a few batches): when the back falls behind, the
//! VM's thread waits, so memory stays flat. The VM forks the host process
//! for the guest's `fork`; the back's thread is stopped first and started
//! again on both sides ([`Observer::fork_prepare`]).

use std::sync::mpsc::{channel, sync_channel, Receiver, Sender, SyncSender};
use std::sync::Arc;
use std::thread::{Scope, ScopedJoinHandle};

use crate::{Addr, BlockEvent, BlockFacts, BlockId, Marker, MemEvent, ObjectMapped, Observer, Tid};

/// The part of the analyses on the VM's thread, before the queue.
///
/// Every event passes through the front before it is queued. Its answers to
/// the VM's questions ([`Front::watch_entry`], [`Front::wants_memory`]) are
/// the pipe's answers, so it must watch at least every block the back would.
pub trait Front {
    /// What the front tells the back about the running block.
    type Note: Send + 'static;
    /// Whether the front needs [`Front::mem`] (the back's wish is asked too).
    fn wants_memory(&self) -> bool {
        false
    }
    /// [`Observer::mem_filter`]: used only when the back wants no memory events.
    fn mem_filter(&mut self) -> Option<crate::MemFilter> {
        None
    }
    fn block_decoded(&mut self, _id: BlockId, _facts: &BlockFacts) {}
    /// Whether the VM reads the argument registers when block `id` starts.
    fn watch_entry(&mut self, _id: BlockId, _facts: &BlockFacts) -> bool {
        false
    }
    /// The thread goes on at block `ev`: called before the notes about the
    /// previous block are taken (what its terminator did is known now).
    fn before_block(&mut self, _ev: BlockEvent, _facts: &BlockFacts) {}
    fn block(&mut self, _ev: BlockEvent, _facts: &BlockFacts) {}
    fn rep_iteration(&mut self, _id: BlockId) {}
    fn mem(&mut self, _ev: MemEvent) {}
    fn thread_switch(&mut self, _tid: Tid) {}
    fn object_mapped(&mut self, _obj: &ObjectMapped) {}
    /// A note for the back, if any; called until it returns `None` before
    /// each event is queued (and at the end of the run).
    fn take_note(&mut self) -> Option<Self::Note> {
        None
    }
}

/// The part of the analyses on the pipe's thread: an [`Observer`] that also
/// takes the front's notes. [`Observer::watch_entry`] is still asked, for
/// its effect on the back, when a block is decoded; the entry arguments come
/// for the blocks the front watches.
pub trait Back: Observer + Send {
    type Note: Send + 'static;
    fn note(&mut self, _note: Self::Note) {}
}

/// Events per batch: the handover costs a few microseconds, and the batches
/// in flight (at most about six of 32 KiB) stay within the L2 cache.
const BATCH: usize = 1024;
/// Batches queued before the VM's thread waits for the back.
const QUEUED: usize = 3;

/// A [`Marker`] with its own name.
enum OwnedMarker {
    Start,
    Stop,
    Zero,
    Phase(String),
}

impl OwnedMarker {
    fn new(m: Marker<'_>) -> OwnedMarker {
        match m {
            Marker::Start => OwnedMarker::Start,
            Marker::Stop => OwnedMarker::Stop,
            Marker::Zero => OwnedMarker::Zero,
            Marker::Phase(name) => OwnedMarker::Phase(name.to_owned()),
        }
    }

    fn get(&self) -> Marker<'_> {
        match self {
            OwnedMarker::Start => Marker::Start,
            OwnedMarker::Stop => Marker::Stop,
            OwnedMarker::Zero => Marker::Zero,
            OwnedMarker::Phase(name) => Marker::Phase(name),
        }
    }
}

enum Msg<N> {
    Decoded(BlockId, Arc<BlockFacts>),
    EntryArgs(BlockId, Box<[u64; 3]>),
    Block(BlockEvent),
    /// A note, then a block: one event where there would be two.
    NotedBlock(BlockEvent, N),
    Rep(BlockId),
    Mem(MemEvent),
    ThreadSwitch(Tid),
    ObjectMapped(Box<ObjectMapped>),
    SignalDelivered(i32, Addr, Addr),
    SignalReturned(Addr),
    Marker(Box<OwnedMarker>),
    Note(N),
}

type Batch<N> = Vec<Msg<N>>;

/// The back with the facts of every block it was told about.
struct Consumer<'env, B> {
    back: &'env mut B,
    facts: Vec<Arc<BlockFacts>>,
}

impl<B: Back> Consumer<'_, B> {
    fn run(mut self, batches: Receiver<Batch<B::Note>>, spare: Sender<Batch<B::Note>>) -> Self {
        while let Ok(mut batch) = batches.recv() {
            for m in batch.drain(..) {
                self.apply(m);
            }
            // The VM's thread may be gone (end of run): the batch is dropped.
            let _ = spare.send(batch);
        }
        self
    }

    #[inline]
    fn apply(&mut self, m: Msg<B::Note>) {
        let back = &mut *self.back;
        match m {
            Msg::NotedBlock(ev, n) => {
                back.note(n);
                back.block(ev, &self.facts[ev.id.index()]);
            }
            Msg::Block(ev) => back.block(ev, &self.facts[ev.id.index()]),
            Msg::Note(n) => back.note(n),
            Msg::Mem(ev) => back.mem(ev),
            Msg::Rep(id) => back.rep_iteration(id),
            Msg::Decoded(id, facts) => {
                back.block_decoded_shared(id, &facts);
                back.watch_entry(id, &facts);
                let i = id.index();
                if i >= self.facts.len() {
                    self.facts.resize(i + 1, facts.clone());
                }
                self.facts[i] = facts;
            }
            Msg::EntryArgs(id, args) => back.entry_args(id, *args),
            Msg::ThreadSwitch(tid) => back.thread_switch(tid),
            Msg::ObjectMapped(obj) => back.object_mapped(&obj),
            Msg::SignalDelivered(signal, handler, sp) => back.signal_delivered(signal, handler, sp),
            Msg::SignalReturned(sp) => back.signal_returned(sp),
            Msg::Marker(m) => back.marker(m.get()),
        }
    }
}

/// The queue to a running back.
struct Link<'scope, 'env, B: Back> {
    batches: SyncSender<Batch<B::Note>>,
    spare: Receiver<Batch<B::Note>>,
    worker: ScopedJoinHandle<'scope, Consumer<'env, B>>,
}

/// The VM's observer that runs `B` on a thread of its own (see the module
/// documentation). Make it inside [`std::thread::scope`] and end it with
/// [`Pipe::finish`].
pub struct Pipe<'scope, 'env, F: Front, B: Back<Note = F::Note>> {
    front: F,
    scope: &'scope Scope<'scope, 'env>,
    batch: Batch<F::Note>,
    link: Option<Link<'scope, 'env, B>>,
    /// The back while its thread is stopped (around a fork).
    parked: Option<Consumer<'env, B>>,
    back_wants_memory: bool,
}

impl<'scope, 'env, F: Front, B: Back<Note = F::Note>> Pipe<'scope, 'env, F, B> {
    /// Starts `back`'s thread in `scope`.
    pub fn new(scope: &'scope Scope<'scope, 'env>, front: F, back: &'env mut B) -> Self {
        let back_wants_memory = back.wants_memory();
        let mut pipe = Pipe {
            front,
            scope,
            batch: Vec::with_capacity(BATCH),
            link: None,
            parked: Some(Consumer {
                back,
                facts: Vec::new(),
            }),
            back_wants_memory,
        };
        pipe.start();
        pipe
    }

    /// Delivers everything queued, stops the back's thread and returns the
    /// front. Panics if the back's thread panicked (with its panic).
    pub fn finish(mut self) -> F {
        self.notes();
        self.stop();
        self.front
    }

    fn start(&mut self) {
        let Some(consumer) = self.parked.take() else {
            return;
        };
        let (tx, rx) = sync_channel(QUEUED);
        let (spare_tx, spare_rx) = channel();
        let worker = self.scope.spawn(move || consumer.run(rx, spare_tx));
        self.link = Some(Link {
            batches: tx,
            spare: spare_rx,
            worker,
        });
    }

    fn stop(&mut self) {
        let Some(link) = self.link.take() else {
            return;
        };
        if !self.batch.is_empty() {
            let _ = link.batches.send(std::mem::take(&mut self.batch));
        }
        drop(link.batches);
        match link.worker.join() {
            Ok(consumer) => self.parked = Some(consumer),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    }

    #[inline]
    fn push(&mut self, m: Msg<F::Note>) {
        self.batch.push(m);
        if self.batch.len() >= BATCH {
            self.send();
        }
    }

    #[cold]
    #[inline(never)]
    fn send(&mut self) {
        let Some(link) = &self.link else {
            return;
        };
        let next = link
            .spare
            .try_recv()
            .unwrap_or_else(|_| Vec::with_capacity(BATCH));
        let full = std::mem::replace(&mut self.batch, next);
        if link.batches.send(full).is_err() {
            // The back's thread ended early (it panicked): stop queueing;
            // `finish` reports the panic.
            if let Some(link) = self.link.take() {
                if let Err(panic) = link.worker.join() {
                    std::panic::resume_unwind(panic);
                }
            }
        }
    }

    /// Queues what the front has for the back about the running block.
    #[inline]
    fn notes(&mut self) {
        while let Some(n) = self.front.take_note() {
            self.push(Msg::Note(n));
        }
    }
}

impl<F: Front, B: Back<Note = F::Note>> Observer for Pipe<'_, '_, F, B> {
    fn wants_memory(&self) -> bool {
        self.front.wants_memory() || self.back_wants_memory
    }

    fn mem_filter(&mut self) -> Option<crate::MemFilter> {
        if self.back_wants_memory {
            return None;
        }
        self.front.mem_filter()
    }

    fn block_decoded(&mut self, id: BlockId, facts: &BlockFacts) {
        self.block_decoded_shared(id, &Arc::new(facts.clone()));
    }

    fn block_decoded_shared(&mut self, id: BlockId, facts: &Arc<BlockFacts>) {
        self.front.block_decoded(id, facts);
        self.push(Msg::Decoded(id, facts.clone()));
    }

    fn watch_entry(&mut self, id: BlockId, facts: &BlockFacts) -> bool {
        self.front.watch_entry(id, facts)
    }

    fn entry_args(&mut self, id: BlockId, args: [u64; 3]) {
        self.notes();
        self.push(Msg::EntryArgs(id, Box::new(args)));
    }

    #[inline]
    fn block(&mut self, ev: BlockEvent, facts: &BlockFacts) {
        self.front.before_block(ev, facts);
        // The last note goes with the block, in one event.
        let mut last = self.front.take_note();
        if last.is_some() {
            while let Some(n) = self.front.take_note() {
                let earlier = last.replace(n).expect("checked above");
                self.push(Msg::Note(earlier));
            }
        }
        self.front.block(ev, facts);
        self.push(match last {
            Some(n) => Msg::NotedBlock(ev, n),
            None => Msg::Block(ev),
        });
    }

    #[inline]
    fn rep_iteration(&mut self, id: BlockId) {
        self.notes();
        self.front.rep_iteration(id);
        self.push(Msg::Rep(id));
    }

    #[inline]
    fn mem(&mut self, ev: MemEvent) {
        self.front.mem(ev);
        if self.back_wants_memory {
            self.push(Msg::Mem(ev));
        }
    }

    fn thread_switch(&mut self, tid: Tid) {
        self.notes();
        self.front.thread_switch(tid);
        self.push(Msg::ThreadSwitch(tid));
    }

    fn object_mapped(&mut self, obj: &ObjectMapped) {
        self.notes();
        self.front.object_mapped(obj);
        self.notes();
        self.push(Msg::ObjectMapped(Box::new(obj.clone())));
    }

    fn signal_delivered(&mut self, signal: i32, handler: Addr, sp: Addr) {
        self.notes();
        self.push(Msg::SignalDelivered(signal, handler, sp));
    }

    fn signal_returned(&mut self, sp: Addr) {
        self.notes();
        self.push(Msg::SignalReturned(sp));
    }

    fn marker(&mut self, m: Marker<'_>) {
        self.notes();
        self.push(Msg::Marker(Box::new(OwnedMarker::new(m))));
    }

    fn fork_prepare(&mut self) {
        self.notes();
        self.stop();
    }

    fn fork_done(&mut self) {
        self.start();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{InsnFacts, Terminator};

    /// Records every call as text.
    #[derive(Default)]
    struct Log(Vec<String>);

    impl Observer for Log {
        fn block_decoded(&mut self, id: BlockId, facts: &BlockFacts) {
            self.0.push(format!("decoded {} {:#x}", id.0, facts.start));
        }
        fn watch_entry(&mut self, id: BlockId, _: &BlockFacts) -> bool {
            self.0.push(format!("watch {}", id.0));
            false
        }
        fn entry_args(&mut self, id: BlockId, args: [u64; 3]) {
            self.0.push(format!("args {} {:?}", id.0, args));
        }
        fn block(&mut self, ev: BlockEvent, facts: &BlockFacts) {
            self.0.push(format!(
                "block {} {:#x} sp {:#x}",
                ev.id.0, facts.start, ev.sp
            ));
        }
        fn rep_iteration(&mut self, id: BlockId) {
            self.0.push(format!("rep {}", id.0));
        }
        fn mem(&mut self, ev: MemEvent) {
            self.0.push(format!("mem {:#x}", ev.addr));
        }
        fn thread_switch(&mut self, tid: Tid) {
            self.0.push(format!("thread {tid}"));
        }
        fn object_mapped(&mut self, obj: &ObjectMapped) {
            self.0.push(format!("object {}", obj.path));
        }
        fn signal_delivered(&mut self, signal: i32, handler: Addr, sp: Addr) {
            self.0.push(format!("signal {signal} {handler:#x} {sp:#x}"));
        }
        fn signal_returned(&mut self, sp: Addr) {
            self.0.push(format!("sigreturn {sp:#x}"));
        }
        fn marker(&mut self, m: Marker<'_>) {
            self.0.push(format!("marker {m:?}"));
        }
    }

    impl Back for Log {
        type Note = u64;
        fn note(&mut self, n: u64) {
            self.0.push(format!("note {n}"));
        }
    }

    /// Counts memory accesses per block and notes them; watches block 1.
    #[derive(Default)]
    struct Counter {
        accesses: u64,
    }

    impl Front for Counter {
        type Note = u64;
        fn wants_memory(&self) -> bool {
            true
        }
        fn watch_entry(&mut self, id: BlockId, _: &BlockFacts) -> bool {
            id.0 == 1
        }
        fn mem(&mut self, _: MemEvent) {
            self.accesses += 1;
        }
        fn take_note(&mut self) -> Option<u64> {
            (self.accesses != 0).then(|| std::mem::take(&mut self.accesses))
        }
    }

    fn facts(start: Addr) -> Arc<BlockFacts> {
        Arc::new(BlockFacts::new(
            start,
            1,
            vec![InsnFacts {
                offset: 0,
                len: 1,
                loads: 0,
                stores: 0,
                is_branch: false,
            }]
            .into_boxed_slice(),
            Terminator::FallThrough,
        ))
    }

    /// Drives an observer with a stream of every kind of event, long enough
    /// to fill several batches, with a fork in the middle.
    fn drive(o: &mut impl Observer) {
        let blocks = [facts(0x1000), facts(0x2000)];
        for (i, f) in blocks.iter().enumerate() {
            o.block_decoded_shared(BlockId(i as u32), f);
            if o.watch_entry(BlockId(i as u32), f) {
                o.entry_args(BlockId(i as u32), [i as u64, 2, 3]);
            }
        }
        o.object_mapped(&ObjectMapped {
            path: "/lib/x.so".into(),
            base: 0x7000,
            bias: 0x7000,
        });
        for k in 0..3 * BATCH as u64 {
            let id = BlockId((k % 2) as u32);
            o.block(BlockEvent { id, sp: k }, &blocks[id.index()]);
            for a in 0..k % 3 {
                o.mem(MemEvent {
                    addr: a,
                    size: 8,
                    is_store: false,
                });
            }
            match k % 700 {
                1 => o.rep_iteration(id),
                2 => o.thread_switch(k as Tid),
                3 => o.signal_delivered(10, 0x1000, k),
                4 => o.signal_returned(k),
                5 => o.marker(Marker::Phase("p")),
                6 => {
                    o.fork_prepare();
                    o.fork_done();
                }
                _ => {}
            }
        }
    }

    /// The event size the batch size is chosen for, with a note of 14
    /// bytes (`cachemodel::BlockCosts`).
    #[test]
    fn an_event_is_32_bytes() {
        assert_eq!(std::mem::size_of::<Msg<[u16; 7]>>(), 32);
    }

    #[test]
    fn the_back_sees_the_stream_it_would_see_on_one_thread() {
        // On one thread: the front's notes go straight to the back.
        struct Direct {
            front: Counter,
            back: Log,
        }
        impl Direct {
            fn notes(&mut self) {
                while let Some(n) = self.front.take_note() {
                    self.back.note(n);
                }
            }
        }
        impl Observer for Direct {
            fn block_decoded(&mut self, id: BlockId, f: &BlockFacts) {
                self.back.block_decoded(id, f);
            }
            fn watch_entry(&mut self, id: BlockId, f: &BlockFacts) -> bool {
                self.back.watch_entry(id, f);
                self.front.watch_entry(id, f)
            }
            fn entry_args(&mut self, id: BlockId, a: [u64; 3]) {
                self.notes();
                self.back.entry_args(id, a);
            }
            fn block(&mut self, ev: BlockEvent, f: &BlockFacts) {
                self.notes();
                self.back.block(ev, f);
            }
            fn rep_iteration(&mut self, id: BlockId) {
                self.notes();
                self.back.rep_iteration(id);
            }
            fn mem(&mut self, ev: MemEvent) {
                self.front.mem(ev);
            }
            fn thread_switch(&mut self, tid: Tid) {
                self.notes();
                self.back.thread_switch(tid);
            }
            fn object_mapped(&mut self, o: &ObjectMapped) {
                self.notes();
                self.back.object_mapped(o);
            }
            fn signal_delivered(&mut self, s: i32, h: Addr, sp: Addr) {
                self.notes();
                self.back.signal_delivered(s, h, sp);
            }
            fn signal_returned(&mut self, sp: Addr) {
                self.notes();
                self.back.signal_returned(sp);
            }
            fn marker(&mut self, m: Marker<'_>) {
                self.notes();
                self.back.marker(m);
            }
        }
        let mut direct = Direct {
            front: Counter::default(),
            back: Log::default(),
        };
        drive(&mut direct);
        direct.notes();

        let mut piped = Log::default();
        std::thread::scope(|s| {
            let mut pipe = Pipe::new(s, Counter::default(), &mut piped);
            assert!(pipe.wants_memory());
            drive(&mut pipe);
            pipe.finish();
        });
        assert!(direct.back.0.len() > 3 * BATCH);
        assert!(direct.back.0.iter().any(|l| l == "args 1 [1, 2, 3]"));
        assert_eq!(direct.back.0, piped.0);
    }
}
