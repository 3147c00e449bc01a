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
use std::time::{Duration, Instant};

use crate::{
    Addr, BlockEvent, BlockExit, BlockFacts, BlockId, CallgrindRequest, Logged, Marker, MemEvent,
    ObjectMapped, Observer, SparsePolicy, Tid,
};

/// The part of the analyses on the VM's thread, before the queue.
///
/// Every event passes through the front before it is queued. Its answers to
/// the VM's questions ([`Front::watch_entry`], [`Front::wants_memory`]) are
/// the pipe's answers, so it must watch at least every block the back would.
pub trait Front {
    /// What the front tells the back about the running block.
    type Note: NoteWords;
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
    /// Whether [`Front::take_note`] may return a note now. False saves a
    /// call after a block's note, which is nearly always its only one.
    fn has_note(&self) -> bool {
        true
    }
    fn signal_delivered(&mut self, _signal: i32, _handler: Addr, _sp: Addr) {}
    /// A marker, after the notes of the block that ends with it were taken.
    fn marker(&mut self, _m: Marker<'_>) {}

    /// Sparse events ([`Observer::sparse`]): the front answers the VM's
    /// questions ([`Front::sparse_policy`], [`Front::sparse_entries`]) for
    /// the back, so it must ask for an event at least wherever the back
    /// would. A block the back did not need is harmless: the back does with
    /// its event what it would have done with it skipped.
    fn sparse(&self) -> bool {
        false
    }
    fn sparse_policy(&mut self, _id: BlockId, _facts: &BlockFacts) -> SparsePolicy {
        SparsePolicy::EVERY
    }
    fn sparse_entries(&self) -> &[Addr] {
        &[]
    }
    fn skipped(&mut self, _insns: u64, _last: BlockId, _exit: BlockExit) {}
    /// A logged report ([`Observer::logged`]); the front has no notes in
    /// sparse mode.
    fn logged(&mut self, _e: &Logged) {}
}

/// The part of the analyses on the pipe's thread: an [`Observer`] that also
/// takes the front's notes. [`Observer::watch_entry`] is still asked, for
/// its effect on the back, when a block is decoded; the entry arguments come
/// for the blocks the front watches.
pub trait Back: Observer + Send {
    type Note: NoteWords;
    fn note(&mut self, _note: Self::Note) {}
}

/// A note as the queue carries it: the common one in 24 bits of the word
/// that carries its block, any other in two words of its own.
pub trait NoteWords: Copy + Send + 'static {
    /// The note in the low 24 bits, if it fits there.
    fn short(&self) -> Option<u32>;
    fn from_short(bits: u32) -> Self;
    fn long(&self) -> [u64; 2];
    fn from_long(words: [u64; 2]) -> Self;
}

/// Words per batch (32 KiB): the handover costs a few microseconds, and the
/// batches in flight (at most six) stay within the L2 cache.
const WORDS: usize = 4096;
/// Batches queued before the VM's thread waits for the back.
const QUEUED: usize = 3;

/// The queue carries a stream of 64-bit words. An event starts with a head
/// word: its kind in the low 4 bits, flags in the next 4, a short note in
/// bits 8 to 31, a block id (or a size) in the high 32. Most blocks are one
/// word: the guest stack pointer follows only when it differs from the
/// last one queued (it changes only after calls, returns and the like), and
/// the two words of a long note follow only when the note does not fit.
mod word {
    /// A block, after its note if one is flagged.
    pub const BLOCK: u64 = 0;
    /// A note on its own.
    pub const NOTE: u64 = 1;
    /// A further iteration of a `rep` string block.
    pub const REP: u64 = 2;
    /// A memory access: size in bits 8..16, bit 16 a store; the address follows.
    pub const MEM: u64 = 3;
    /// The next of the batch's rare events ([`super::Msg`]).
    pub const OTHER: u64 = 4;
    /// Blocks ran without events (sparse mode): the last one's id in the
    /// high 32 bits, their instruction total in the next word.
    pub const SKIPPED: u64 = 5;
    pub const KIND: u64 = 0xf;
    /// A block's stack pointer follows.
    pub const SP: u64 = 1 << 4;
    /// A short note is in bits 8..32.
    pub const SHORT: u64 = 1 << 5;
    /// A long note's two words follow.
    pub const LONG: u64 = 1 << 6;
}

/// A [`Marker`] with its own name.
enum OwnedMarker {
    Start,
    Stop,
    Zero,
    Phase(String),
    Callgrind(CallgrindRequest<'static>),
    DumpStatsAt(String),
}

impl OwnedMarker {
    fn new(m: Marker<'_>) -> OwnedMarker {
        match m {
            Marker::Start => OwnedMarker::Start,
            Marker::Stop => OwnedMarker::Stop,
            Marker::Zero => OwnedMarker::Zero,
            Marker::Phase(name) => OwnedMarker::Phase(name.to_owned()),
            Marker::Callgrind(r) => match r {
                CallgrindRequest::DumpStatsAt(name) => OwnedMarker::DumpStatsAt(name.to_owned()),
                CallgrindRequest::DumpStats => OwnedMarker::Callgrind(CallgrindRequest::DumpStats),
                CallgrindRequest::ZeroStats => OwnedMarker::Callgrind(CallgrindRequest::ZeroStats),
                CallgrindRequest::ToggleCollect => {
                    OwnedMarker::Callgrind(CallgrindRequest::ToggleCollect)
                }
                CallgrindRequest::StartInstrumentation => {
                    OwnedMarker::Callgrind(CallgrindRequest::StartInstrumentation)
                }
                CallgrindRequest::StopInstrumentation => {
                    OwnedMarker::Callgrind(CallgrindRequest::StopInstrumentation)
                }
            },
        }
    }

    fn get(&self) -> Marker<'_> {
        match self {
            OwnedMarker::Start => Marker::Start,
            OwnedMarker::Stop => Marker::Stop,
            OwnedMarker::Zero => Marker::Zero,
            OwnedMarker::Phase(name) => Marker::Phase(name),
            OwnedMarker::Callgrind(r) => Marker::Callgrind(*r),
            OwnedMarker::DumpStatsAt(name) => {
                Marker::Callgrind(CallgrindRequest::DumpStatsAt(name))
            }
        }
    }
}

/// The events that are neither blocks nor notes: rare, queued as they are.
enum Msg {
    Decoded(BlockId, Arc<BlockFacts>),
    EntryArgs(BlockId, [u64; 3]),
    ThreadSwitch(Tid),
    ObjectMapped(Box<ObjectMapped>),
    SignalDelivered(i32, Addr, Addr),
    SignalReturned(Addr),
    Marker(OwnedMarker),
    UncountedExecs(BlockId, u64),
    /// The VM asked the block's sparse policy: the back is asked too, at
    /// the same point of the stream, for what the asking does to it (the
    /// recorder numbers functions in the order it first sees them), and
    /// its answer is dropped.
    PolicyAsked(BlockId),
}

/// The word stream and the rare events it refers to, in order.
#[derive(Default)]
struct Batch {
    words: Vec<u64>,
    others: Vec<Msg>,
}

impl Batch {
    fn new() -> Batch {
        Batch {
            // Room for the longest event past the limit: no growing.
            words: Vec::with_capacity(WORDS + 4),
            others: Vec::new(),
        }
    }

    fn is_empty(&self) -> bool {
        self.words.is_empty()
    }
}

/// The back with the facts of every block it was told about.
struct Consumer<'env, B> {
    back: &'env mut B,
    facts: Vec<Arc<BlockFacts>>,
    /// The stack pointer of the last block queued.
    sp: Addr,
    /// Keep a copy of every batch (the batch itself goes back to the VM's
    /// thread) until the queue closes, then replay them all
    /// ([`Pipe::deferred`]).
    deferred: bool,
    /// Time spent replaying kept batches.
    replaying: Duration,
}

impl<B: Back> Consumer<'_, B> {
    fn run(mut self, batches: Receiver<Batch>, spare: Sender<Batch>) -> Self {
        if self.deferred {
            // Copies, so that the VM's thread writes to recycled batches as
            // it does when the back keeps up (fresh memory costs it more).
            let mut kept = Vec::new();
            while let Ok(mut batch) = batches.recv() {
                kept.push((batch.words.clone(), std::mem::take(&mut batch.others)));
                batch.words.clear();
                let _ = spare.send(batch);
            }
            let t0 = Instant::now();
            for (words, others) in kept {
                self.replay(&words, others.into_iter());
            }
            self.replaying += t0.elapsed();
            return self;
        }
        while let Ok(mut batch) = batches.recv() {
            self.replay(&batch.words, batch.others.drain(..));
            batch.words.clear();
            // The VM's thread may be gone (end of run): the batch is dropped.
            let _ = spare.send(batch);
        }
        self
    }

    fn replay(&mut self, words: &[u64], mut others: impl Iterator<Item = Msg>) {
        let mut i = 0;
        while let Some(&head) = words.get(i) {
            i += 1;
            match head & word::KIND {
                word::BLOCK => {
                    if head & word::SP != 0 {
                        self.sp = words[i];
                        i += 1;
                    }
                    i = self.note(head, words, i);
                    let id = BlockId((head >> 32) as u32);
                    let ev = BlockEvent { id, sp: self.sp };
                    self.back.block(ev, &self.facts[id.index()]);
                }
                word::NOTE => i = self.note(head, words, i),
                word::REP => self.back.rep_iteration(BlockId((head >> 32) as u32)),
                word::SKIPPED => {
                    let id = BlockId((head >> 32) as u32);
                    let exit = self.facts[id.index()].exit();
                    self.back.skipped(words[i], id, exit);
                    i += 1;
                }
                word::MEM => {
                    self.back.mem(MemEvent {
                        addr: words[i],
                        size: (head >> 8) as u8,
                        is_store: head & (1 << 16) != 0,
                        pc: words[i + 1],
                    });
                    i += 2;
                }
                _ => {
                    let m = others.next().expect("queued with its word");
                    self.apply(m);
                }
            }
        }
    }

    /// The note flagged in `head`, if any; its words start at `i`. Returns
    /// the index after them.
    #[inline(always)]
    fn note(&mut self, head: u64, words: &[u64], i: usize) -> usize {
        if head & word::SHORT != 0 {
            self.back
                .note(B::Note::from_short((head >> 8) as u32 & 0xff_ffff));
            i
        } else if head & word::LONG != 0 {
            self.back.note(B::Note::from_long([words[i], words[i + 1]]));
            i + 2
        } else {
            i
        }
    }

    fn apply(&mut self, m: Msg) {
        let back = &mut *self.back;
        match m {
            Msg::Decoded(id, facts) => {
                back.block_decoded_shared(id, &facts);
                back.watch_entry(id, &facts);
                let i = id.index();
                if i >= self.facts.len() {
                    self.facts.resize(i + 1, facts.clone());
                }
                self.facts[i] = facts;
            }
            Msg::EntryArgs(id, args) => back.entry_args(id, args),
            Msg::ThreadSwitch(tid) => back.thread_switch(tid),
            Msg::ObjectMapped(obj) => back.object_mapped(&obj),
            Msg::SignalDelivered(signal, handler, sp) => back.signal_delivered(signal, handler, sp),
            Msg::SignalReturned(sp) => back.signal_returned(sp),
            Msg::Marker(m) => back.marker(m.get()),
            Msg::UncountedExecs(id, n) => back.uncounted_execs(id, n),
            Msg::PolicyAsked(id) => {
                back.sparse_policy(id, &self.facts[id.index()]);
            }
        }
    }
}

/// The queue to a running back.
struct Link<'scope, 'env, B: Back> {
    batches: SyncSender<Batch>,
    spare: Receiver<Batch>,
    worker: ScopedJoinHandle<'scope, Consumer<'env, B>>,
}

/// The VM's observer that runs `B` on a thread of its own (see the module
/// documentation). Make it inside [`std::thread::scope`] and end it with
/// [`Pipe::finish`].
pub struct Pipe<'scope, 'env, F: Front, B: Back<Note = F::Note>> {
    front: F,
    scope: &'scope Scope<'scope, 'env>,
    batch: Batch,
    /// The stack pointer of the last block queued (the consumer's `sp`).
    sp: Addr,
    link: Option<Link<'scope, 'env, B>>,
    /// The back while its thread is stopped (around a fork).
    parked: Option<Consumer<'env, B>>,
    back_wants_memory: bool,
}

impl<'scope, 'env, F: Front, B: Back<Note = F::Note>> Pipe<'scope, 'env, F, B> {
    /// Starts `back`'s thread in `scope`.
    pub fn new(scope: &'scope Scope<'scope, 'env>, front: F, back: &'env mut B) -> Self {
        Self::with_mode(scope, front, back, false)
    }

    /// A pipe whose back keeps a copy of every batch until the VM stops
    /// (the end of the run, or a fork), and only then replays them: the two threads run
    /// one after the other, so each one's time can be measured alone (see
    /// [`Pipe::finish_timed`]). The counts are the same; memory grows with
    /// the run (about 10 bytes per block).
    pub fn deferred(scope: &'scope Scope<'scope, 'env>, front: F, back: &'env mut B) -> Self {
        Self::with_mode(scope, front, back, true)
    }

    fn with_mode(
        scope: &'scope Scope<'scope, 'env>,
        front: F,
        back: &'env mut B,
        deferred: bool,
    ) -> Self {
        let back_wants_memory = back.wants_memory();
        let mut pipe = Pipe {
            front,
            scope,
            batch: Batch::new(),
            sp: 0,
            link: None,
            parked: Some(Consumer {
                back,
                facts: Vec::new(),
                sp: 0,
                deferred,
                replaying: Duration::ZERO,
            }),
            back_wants_memory,
        };
        pipe.start();
        pipe
    }

    /// Delivers everything queued, stops the back's thread and returns the
    /// front. Panics if the back's thread panicked (with its panic).
    pub fn finish(self) -> F {
        self.finish_timed().0
    }

    /// [`Pipe::finish`], with the time the back spent replaying the batches
    /// a [`Pipe::deferred`] pipe kept (zero for a pipe made by
    /// [`Pipe::new`]).
    pub fn finish_timed(mut self) -> (F, Duration) {
        self.notes();
        self.stop();
        let replaying = self.parked.as_ref().map_or(Duration::ZERO, |c| c.replaying);
        (self.front, replaying)
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
            let _ = link
                .batches
                .send(std::mem::replace(&mut self.batch, Batch::new()));
        }
        drop(link.batches);
        match link.worker.join() {
            Ok(consumer) => self.parked = Some(consumer),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    }

    /// Appends one word of an event.
    #[inline]
    fn word(&mut self, w: u64) {
        self.batch.words.push(w);
    }

    /// Ends an event: the batch goes when full.
    #[inline]
    fn queued(&mut self) {
        if self.batch.words.len() >= WORDS {
            self.send();
        }
    }

    /// Queues a rare event.
    fn other(&mut self, m: Msg) {
        self.batch.others.push(m);
        self.word(word::OTHER);
        self.queued();
    }

    /// Appends a note's words, flagged in `head`; returns the head.
    #[inline]
    fn with_note(&mut self, mut head: u64, note: Option<F::Note>, long: &mut [u64; 2]) -> u64 {
        if let Some(n) = note {
            match n.short() {
                Some(bits) => head |= word::SHORT | u64::from(bits & 0xff_ffff) << 8,
                None => {
                    head |= word::LONG;
                    *long = n.long();
                }
            }
        }
        head
    }

    #[cold]
    #[inline(never)]
    fn send(&mut self) {
        let Some(link) = &self.link else {
            return;
        };
        let next = link.spare.try_recv().unwrap_or_else(|_| Batch::new());
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

    /// Queues a note on its own.
    #[inline]
    fn note(&mut self, n: F::Note) {
        let mut long = [0; 2];
        let head = self.with_note(word::NOTE, Some(n), &mut long);
        self.word(head);
        if head & word::LONG != 0 {
            self.word(long[0]);
            self.word(long[1]);
        }
        self.queued();
    }

    /// Queues what the front has for the back about the running block.
    #[inline]
    fn notes(&mut self) {
        while let Some(n) = self.front.take_note() {
            self.note(n);
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
        self.other(Msg::Decoded(id, facts.clone()));
    }

    fn watch_entry(&mut self, id: BlockId, facts: &BlockFacts) -> bool {
        self.front.watch_entry(id, facts)
    }

    fn entry_args(&mut self, id: BlockId, args: [u64; 3]) {
        self.notes();
        self.other(Msg::EntryArgs(id, args));
    }

    #[inline]
    fn block(&mut self, ev: BlockEvent, facts: &BlockFacts) {
        self.front.before_block(ev, facts);
        // The last note goes with the block, in its head word.
        let mut last = self.front.take_note();
        if last.is_some() && self.front.has_note() {
            while let Some(n) = self.front.take_note() {
                let earlier = last.replace(n).expect("checked above");
                self.note(earlier);
            }
        }
        self.front.block(ev, facts);
        let mut long = [0; 2];
        let mut head = self.with_note(word::BLOCK | u64::from(ev.id.0) << 32, last, &mut long);
        let new_sp = ev.sp != self.sp;
        if new_sp {
            head |= word::SP;
        }
        self.word(head);
        if new_sp {
            self.sp = ev.sp;
            self.word(ev.sp);
        }
        if head & word::LONG != 0 {
            self.word(long[0]);
            self.word(long[1]);
        }
        self.queued();
    }

    #[inline]
    fn rep_iteration(&mut self, id: BlockId) {
        self.notes();
        self.front.rep_iteration(id);
        self.word(word::REP | u64::from(id.0) << 32);
        self.queued();
    }

    #[inline]
    fn mem(&mut self, ev: MemEvent) {
        self.front.mem(ev);
        if self.back_wants_memory {
            self.word(word::MEM | u64::from(ev.size) << 8 | u64::from(ev.is_store) << 16);
            self.word(ev.addr);
            self.word(ev.pc);
            self.queued();
        }
    }

    fn thread_switch(&mut self, tid: Tid) {
        self.notes();
        self.front.thread_switch(tid);
        self.other(Msg::ThreadSwitch(tid));
    }

    fn object_mapped(&mut self, obj: &ObjectMapped) {
        self.notes();
        self.front.object_mapped(obj);
        self.notes();
        self.other(Msg::ObjectMapped(Box::new(obj.clone())));
    }

    fn signal_delivered(&mut self, signal: i32, handler: Addr, sp: Addr) {
        self.notes();
        self.front.signal_delivered(signal, handler, sp);
        self.other(Msg::SignalDelivered(signal, handler, sp));
    }

    fn signal_returned(&mut self, sp: Addr) {
        self.notes();
        self.other(Msg::SignalReturned(sp));
    }

    fn marker(&mut self, m: Marker<'_>) {
        self.notes();
        self.front.marker(m);
        self.other(Msg::Marker(OwnedMarker::new(m)));
    }

    fn fork_prepare(&mut self) {
        self.notes();
        self.stop();
    }

    fn fork_done(&mut self) {
        self.start();
    }

    fn sparse(&self) -> bool {
        self.front.sparse()
    }

    /// The front's answer; the back is asked too (see `Msg::PolicyAsked`),
    /// so that it sees the calls it would see on one thread.
    fn sparse_policy(&mut self, id: BlockId, facts: &BlockFacts) -> SparsePolicy {
        self.other(Msg::PolicyAsked(id));
        self.front.sparse_policy(id, facts)
    }

    fn sparse_entries(&self) -> &[Addr] {
        self.front.sparse_entries()
    }

    #[inline]
    fn skipped(&mut self, insns: u64, last: BlockId, exit: BlockExit) {
        self.notes();
        self.front.skipped(insns, last, exit);
        self.word(word::SKIPPED | u64::from(last.0) << 32);
        self.word(insns);
        self.queued();
    }

    fn uncounted_execs(&mut self, id: BlockId, n: u64) {
        self.other(Msg::UncountedExecs(id, n));
    }

    fn takes_logged(&self) -> bool {
        self.front.sparse()
    }

    /// The words of `skipped` and `block`, with no front work but the
    /// front's [`Front::logged`].
    #[inline]
    fn logged(&mut self, e: Logged) {
        self.front.logged(&e);
        // Up to four words, pushed one by one: a copy through an array
        // called memmove for its variable length, or stalled reading back
        // as vectors what was stored as words.
        let words = &mut self.batch.words;
        if e.skipped != 0 {
            words.push(word::SKIPPED | u64::from(e.last.0) << 32);
            words.push(e.skipped);
        }
        let block = word::BLOCK | u64::from(e.id.0) << 32;
        if e.sp != self.sp {
            words.push(block | word::SP);
            words.push(e.sp);
            self.sp = e.sp;
        } else {
            words.push(block);
        }
        self.queued();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{InsnFacts, Terminator};

    /// Notes below 2^24 travel in the block's word, the others in two words.
    impl NoteWords for u64 {
        fn short(&self) -> Option<u32> {
            (*self < 1 << 24).then_some(*self as u32)
        }
        fn from_short(bits: u32) -> u64 {
            u64::from(bits)
        }
        fn long(&self) -> [u64; 2] {
            [*self, !*self]
        }
        fn from_long(words: [u64; 2]) -> u64 {
            assert_eq!(words[1], !words[0]);
            words[0]
        }
    }

    /// Records every call as text; wants memory events if `memory`.
    #[derive(Default)]
    struct Log(Vec<String>, bool);

    impl Observer for Log {
        fn wants_memory(&self) -> bool {
            self.1
        }
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
            self.0
                .push(format!("mem {:#x} {} {}", ev.addr, ev.size, ev.is_store));
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
        fn skipped(&mut self, insns: u64, last: BlockId, exit: BlockExit) {
            self.0
                .push(format!("skipped {insns} {} {:#x}", last.0, exit.end));
        }
        fn uncounted_execs(&mut self, id: BlockId, n: u64) {
            self.0.push(format!("uncounted {} {n}", id.0));
        }
    }

    impl Back for Log {
        type Note = u64;
        fn note(&mut self, n: u64) {
            self.0.push(format!("note {n}"));
        }
    }

    /// Counts memory accesses per block and notes them (every other note
    /// too large for a block's word); watches block 1.
    #[derive(Default)]
    struct Counter {
        accesses: u64,
        notes: u64,
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
            if self.accesses == 0 {
                return None;
            }
            self.notes += 1;
            Some(std::mem::take(&mut self.accesses) << (40 * (self.notes % 2)))
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
        for k in 0..3 * WORDS as u64 {
            let id = BlockId((k % 2) as u32);
            // The stack pointer stays the same over runs of blocks.
            o.block(BlockEvent { id, sp: k / 5 }, &blocks[id.index()]);
            for a in 0..k % 3 {
                o.mem(MemEvent {
                    addr: a << 50 | k,
                    size: 1 << a,
                    is_store: a == 1,
                    pc: 0x1000 + k,
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

    /// A block with a short note and the last stack pointer is one word.
    #[test]
    fn a_block_is_one_word() {
        let mut back = Log::default();
        std::thread::scope(|s| {
            let mut pipe = Pipe::new(s, Counter::default(), &mut back);
            let f = facts(0x1000);
            pipe.block_decoded_shared(BlockId(0), &f);
            pipe.block(
                BlockEvent {
                    id: BlockId(0),
                    sp: 0,
                },
                &f,
            );
            let words = pipe.batch.words.len();
            pipe.mem(MemEvent {
                addr: 8,
                size: 8,
                is_store: true,
                pc: 0,
            });
            pipe.front.notes = 1; // the next note is short
            pipe.block(
                BlockEvent {
                    id: BlockId(0),
                    sp: 0,
                },
                &f,
            );
            assert_eq!(pipe.batch.words.len(), words + 1);
            pipe.finish();
        });
        assert_eq!(
            back.0.last().map(String::as_str),
            Some("block 0 0x1000 sp 0x0")
        );
        assert_eq!(back.0[back.0.len() - 2], "note 1");
    }

    /// A front for sparse runs: no notes.
    struct Sparse;

    impl Front for Sparse {
        type Note = u64;
        fn sparse(&self) -> bool {
            true
        }
    }

    /// A logged report reaches the back as the `skipped` and `block` it
    /// stands for, in order with the reports the VM makes itself, and the
    /// stack pointer stays right across both.
    #[test]
    fn logged_reports_are_skipped_and_block_events() {
        let blocks = [facts(0x1000), facts(0x2000)];
        let exit = |i: usize| blocks[i].exit();
        let logged = |id: u32, skipped: u64, last: u32, sp: Addr| Logged {
            id: BlockId(id),
            skipped,
            last: BlockId(last),
            sp,
            exit: exit(id as usize),
        };
        let mut back = Log::default();
        let mut expected = Vec::new();
        std::thread::scope(|s| {
            let mut pipe = Pipe::new(s, Sparse, &mut back);
            assert!(pipe.sparse() && pipe.takes_logged());
            for (i, f) in blocks.iter().enumerate() {
                pipe.block_decoded_shared(BlockId(i as u32), f);
                expected.push(format!("decoded {i} {:#x}", f.start));
                expected.push(format!("watch {i}"));
            }
            for k in 0..2 * WORDS as u64 {
                let sp = 0x8000 - k / 3 * 8;
                match k % 4 {
                    0 => {
                        pipe.logged(logged(1, k, 0, sp));
                        if k != 0 {
                            expected.push(format!("skipped {k} 0 0x1001"));
                        }
                        expected.push(format!("block 1 0x2000 sp {sp:#x}"));
                    }
                    1 => {
                        pipe.logged(logged(0, 0, 1, sp));
                        expected.push(format!("block 0 0x1000 sp {sp:#x}"));
                    }
                    2 => {
                        pipe.skipped(7, BlockId(1), exit(1));
                        expected.push("skipped 7 1 0x2001".to_string());
                    }
                    _ => {
                        let ev = BlockEvent { id: BlockId(0), sp };
                        pipe.block(ev, &blocks[0]);
                        expected.push(format!("block 0 0x1000 sp {sp:#x}"));
                    }
                }
            }
            pipe.uncounted_execs(BlockId(1), 5);
            expected.push("uncounted 1 5".to_string());
            pipe.finish();
        });
        assert_eq!(back.0, expected);
    }

    #[test]
    fn the_back_sees_the_stream_it_would_see_on_one_thread() {
        for memory in [false, true] {
            one_thread_and_pipe(memory);
        }
    }

    fn one_thread_and_pipe(memory: bool) {
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
                if self.back.1 {
                    self.back.mem(ev);
                }
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
            back: Log(Vec::new(), memory),
        };
        drive(&mut direct);
        direct.notes();

        let mut piped = Log(Vec::new(), memory);
        std::thread::scope(|s| {
            let mut pipe = Pipe::new(s, Counter::default(), &mut piped);
            assert!(pipe.wants_memory());
            drive(&mut pipe);
            pipe.finish();
        });
        assert!(direct.back.0.len() > 3 * WORDS);
        for kind in ["note 1099511627776", "note 1", "sp 0x1"] {
            assert!(direct.back.0.iter().any(|l| l.contains(kind)), "{kind}");
        }
        let store = |l: &String| l.starts_with("mem 0x4000000000") && l.ends_with(" 2 true");
        assert_eq!(direct.back.0.iter().any(store), memory);
        assert!(direct.back.0.iter().any(|l| l == "args 1 [1, 2, 3]"));
        assert_eq!(direct.back.0, piped.0);

        // Kept until the end and replayed then: the same events, in order.
        let mut deferred = Log(Vec::new(), memory);
        std::thread::scope(|s| {
            let mut pipe = Pipe::deferred(s, Counter::default(), &mut deferred);
            drive(&mut pipe);
            let (_, replaying) = pipe.finish_timed();
            assert!(replaying > Duration::ZERO);
        });
        assert_eq!(direct.back.0, deferred.0);
    }
}
