//! Block decoding: each translation block unicorn reports is decoded once with
//! iced-x86 into [`BlockFacts`] and given a dense [`BlockId`].
//!
//! Invariant: an id names one `(start, len)` for the whole run and its facts
//! never change. When guest code in a range is unmapped or made
//! non-executable, [`BlockTable::invalidate`] forgets the ids that cover it,
//! so the next execution there decodes afresh under a new id. When the
//! guest's own stores rewrite a block (self-modifying code, JITs),
//! [`BlockTable::retire`] sets its id aside instead: the next block decoded
//! at the same `(start, len)` takes it back if its facts are the same (the
//! code changed only in what no analysis sees, such as an immediate
//! operand), and gets a new id otherwise. So a program that rewrites one
//! function 600,000 times holds one id per distinct shape of it, not one per
//! rewrite, and its counts stay exact whatever it writes.

use events::{BlockFacts, BlockId, InsnFacts, Terminator};
use iced_x86::{
    Decoder, DecoderOptions, EncodingKind, FastFormatter, FlowControl, Instruction,
    InstructionInfoFactory, Mnemonic, OpAccess, OpKind, Register,
};
use rustc_hash::FxHashMap;

/// Why a block cannot be run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// A VEX/EVEX/XOP instruction on vector registers under a model without
    /// AVX (x86-64-v2): refused when its block is decoded, before it runs.
    #[error("unsupported instruction `{text}` at {addr:#x} (VEX/EVEX vector encoding; the x86-64-v2 CPU model has no AVX, --cpu x86-64-v3 has)")]
    Vector { addr: u64, text: String },
    /// A vector instruction the model's emulation does not have (AVX-512,
    /// or a form of AVX/AVX2 not yet emulated): found when it raises #UD.
    #[error(
        "unsupported instruction `{text}` at {addr:#x} (not emulated by the {model} CPU model)"
    )]
    NotEmulated {
        addr: u64,
        text: String,
        model: crate::cpu::CpuModel,
    },
}

/// The instruction at `addr` (its bytes first in `code`) when it is a
/// VEX/EVEX/XOP instruction on vector registers: the error to stop with
/// when it raised #UD under `model` (the guest did not choose to run an
/// invalid instruction; the emulation lacks it).
pub fn not_emulated(code: &[u8], addr: u64, model: crate::cpu::CpuModel) -> Option<DecodeError> {
    let insn = Decoder::with_ip(64, code, addr, DecoderOptions::NONE).decode();
    if insn.is_invalid()
        || matches!(insn.encoding(), EncodingKind::Legacy | EncodingKind::D3NOW)
        || !uses_vector_registers(&insn)
    {
        return None;
    }
    let mut text = String::new();
    FastFormatter::new().format(&insn, &mut text);
    Some(if model.has_avx() {
        DecodeError::NotEmulated { addr, text, model }
    } else {
        DecodeError::Vector { addr, text }
    })
}

fn uses_vector_registers(insn: &Instruction) -> bool {
    (0..insn.op_count()).any(|i| {
        insn.op_kind(i) == OpKind::Register && {
            let r = insn.op_register(i);
            r.is_xmm() || r.is_ymm() || r.is_zmm() || r.is_k()
        }
    }) || insn.op_mask() != Register::None
}

fn terminator_is_branch(t: Terminator) -> bool {
    !matches!(
        t,
        Terminator::FallThrough | Terminator::Syscall | Terminator::RepString | Terminator::Trap
    )
}

/// valgrind's client request (`valgrind.h`): the preamble (`rol rdi` by 3,
/// 13, 61 and 51, 128 bits in all: `rdi` is unchanged) and `xchg rbx, rbx`.
/// pathvm's unicorn patch ends a translation block after it when all of it
/// is in the block; valgrind decodes it as one instruction of 19 bytes.
pub const CLIENT_REQUEST: [u8; 19] = [
    0x48, 0xc1, 0xc7, 0x03, 0x48, 0xc1, 0xc7, 0x0d, 0x48, 0xc1, 0xc7, 0x3d, 0x48, 0xc1, 0xc7, 0x33,
    0x48, 0x87, 0xdb,
];

/// Decode the block `[start, start + code.len())`. A block that ends with
/// a client request ([`CLIENT_REQUEST`]) has it as one instruction, as
/// callgrind counts it.
pub fn decode_block(
    code: &[u8],
    start: u64,
    info: &mut InstructionInfoFactory,
    model: crate::cpu::CpuModel,
) -> Result<BlockFacts, DecodeError> {
    let request = code.ends_with(&CLIENT_REQUEST);
    let body = if request {
        &code[..code.len() - CLIENT_REQUEST.len()]
    } else {
        code
    };
    let mut decoder = Decoder::with_ip(64, body, start, DecoderOptions::NONE);
    let mut insns = Vec::with_capacity(8);
    let mut insn = Instruction::default();
    let mut terminator = Terminator::FallThrough;
    while decoder.can_decode() {
        decoder.decode_out(&mut insn);
        let offset = (insn.ip() - start) as u32;
        // Without AVX, VEX-encoded instructions on general registers only
        // (BMI1/BMI2) run; vector ones do not.
        if !model.has_avx()
            && insn.encoding() != EncodingKind::Legacy
            && insn.encoding() != EncodingKind::D3NOW
            && uses_vector_registers(&insn)
        {
            let mut text = String::new();
            FastFormatter::new().format(&insn, &mut text);
            return Err(DecodeError::Vector {
                addr: insn.ip(),
                text,
            });
        }
        let (mut loads, mut stores) = (0u8, 0u8);
        if !insn.is_invalid() {
            for m in info.info(&insn).used_memory() {
                match m.access() {
                    OpAccess::Read | OpAccess::CondRead => loads += 1,
                    OpAccess::Write | OpAccess::CondWrite => stores += 1,
                    OpAccess::ReadWrite | OpAccess::ReadCondWrite => {
                        loads += 1;
                        stores += 1
                    }
                    _ => {}
                }
            }
        }
        let flow = insn.flow_control();
        terminator = match flow {
            _ if insn.mnemonic() == Mnemonic::Syscall => Terminator::Syscall,
            FlowControl::ConditionalBranch => Terminator::CondBranch {
                target: insn.near_branch_target(),
            },
            FlowControl::UnconditionalBranch => Terminator::Jump {
                target: insn.near_branch_target(),
            },
            FlowControl::IndirectBranch => Terminator::IndirectJump,
            FlowControl::Call => Terminator::Call {
                target: insn.near_branch_target(),
            },
            FlowControl::IndirectCall => Terminator::IndirectCall,
            FlowControl::Return => Terminator::Return,
            FlowControl::Interrupt | FlowControl::Exception => Terminator::Trap,
            _ if insn.is_string_instruction()
                && (insn.has_rep_prefix() || insn.has_repe_prefix() || insn.has_repne_prefix()) =>
            {
                Terminator::RepString
            }
            _ => Terminator::FallThrough,
        };
        insns.push(InsnFacts {
            offset,
            len: insn.len() as u8,
            loads,
            stores,
            is_branch: terminator_is_branch(terminator),
        });
    }
    if request {
        terminator = Terminator::FallThrough;
        insns.push(InsnFacts {
            offset: body.len() as u32,
            len: CLIENT_REQUEST.len() as u8,
            loads: 0,
            stores: 0,
            is_branch: false,
        });
    }
    Ok(BlockFacts::new(
        start,
        code.len() as u32,
        insns.into_boxed_slice(),
        terminator,
    )
    .with_client_request(request))
}

const CACHE_SLOTS: usize = 1 << 14;

#[derive(Clone, Copy)]
struct Slot {
    start: u64,
    len: u32,
    id: u32,
}

/// Every block decoded so far, with a direct-mapped cache in front of the map.
pub struct BlockTable {
    /// The facts (shared: a piped observer hands them to its thread), and
    /// whether the observer watches the block's entry
    /// ([`events::Observer::watch_entry`]): read together at each block.
    facts: Vec<(std::sync::Arc<BlockFacts>, bool)>,
    map: FxHashMap<(u64, u32), BlockId>,
    /// Ids whose code the guest rewrote ([`BlockTable::retire`]), by
    /// `(start, len)`, to be taken back by a block with the same facts.
    retired: FxHashMap<(u64, u32), Vec<BlockId>>,
    cache: Box<[Slot]>,
    info: InstructionInfoFactory,
    /// The CPU model (whether vector VEX instructions run).
    model: crate::cpu::CpuModel,
}

#[inline]
fn slot_of(start: u64) -> usize {
    ((start ^ (start >> 14)) as usize) & (CACHE_SLOTS - 1)
}

impl BlockTable {
    pub fn new(model: crate::cpu::CpuModel) -> BlockTable {
        BlockTable {
            model,
            facts: Vec::new(),
            map: FxHashMap::default(),
            retired: FxHashMap::default(),
            cache: vec![
                Slot {
                    start: u64::MAX,
                    len: 0,
                    id: 0
                };
                CACHE_SLOTS
            ]
            .into_boxed_slice(),
            info: InstructionInfoFactory::new(),
        }
    }

    /// The id of a block seen before, if any.
    #[inline]
    pub fn lookup(&mut self, start: u64, len: u32) -> Option<BlockId> {
        let s = &self.cache[slot_of(start)];
        if s.start == start && s.len == len {
            return Some(BlockId(s.id));
        }
        let id = *self.map.get(&(start, len))?;
        self.cache[slot_of(start)] = Slot {
            start,
            len,
            id: id.0,
        };
        Some(id)
    }

    /// Decode a block from its code and give it an id: a retired one with
    /// the same facts (second field false), or a new one (true).
    pub fn insert(&mut self, code: &[u8], start: u64) -> Result<(BlockId, bool), DecodeError> {
        let facts = decode_block(code, start, &mut self.info, self.model)?;
        let key = (start, facts.len);
        let revived = self.retired.get_mut(&key).and_then(|ids| {
            let i = ids
                .iter()
                .position(|&id| *self.facts[id.index()].0 == facts)?;
            Some(ids.swap_remove(i))
        });
        let id = revived.unwrap_or(BlockId(self.facts.len() as u32));
        self.map.insert(key, id);
        self.cache[slot_of(start)] = Slot {
            start,
            len: facts.len,
            id: id.0,
        };
        if revived.is_none() {
            self.facts.push((std::sync::Arc::new(facts), false));
        }
        Ok((id, revived.is_none()))
    }

    /// The guest rewrote the code of the block `(start, len)`: set its id
    /// aside until a block with the same facts is decoded there.
    pub fn retire(&mut self, start: u64, len: u32) {
        let Some(id) = self.map.remove(&(start, len)) else {
            return;
        };
        let s = &mut self.cache[slot_of(start)];
        if s.start == start && s.len == len {
            s.start = u64::MAX;
        }
        self.retired.entry((start, len)).or_default().push(id);
    }

    #[inline]
    pub fn facts(&self, id: BlockId) -> &BlockFacts {
        &self.facts[id.index()].0
    }

    /// The facts of `id` and whether its entry is watched.
    #[inline]
    pub fn facts_watched(&self, id: BlockId) -> (&BlockFacts, bool) {
        let (f, w) = &self.facts[id.index()];
        (f, *w)
    }

    #[inline]
    pub fn watched(&self, id: BlockId) -> bool {
        self.facts[id.index()].1
    }

    pub fn set_watched(&mut self, id: BlockId, watched: bool) {
        self.facts[id.index()].1 = watched;
    }

    /// The facts of `id` as kept (see [`events::Observer::block_decoded_shared`]).
    #[inline]
    pub fn shared(&self, id: BlockId) -> &std::sync::Arc<BlockFacts> {
        &self.facts[id.index()].0
    }

    /// Forget the blocks that overlap `[lo, hi)` (their code changed).
    pub fn invalidate(&mut self, lo: u64, hi: u64) {
        self.map.retain(|&(s, l), _| s + l as u64 <= lo || s >= hi);
        for s in self.cache.iter_mut() {
            if s.start != u64::MAX && s.start < hi && s.start + s.len as u64 > lo {
                s.start = u64::MAX;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(code: &[u8]) -> BlockFacts {
        decode_block(
            code,
            0x1000,
            &mut InstructionInfoFactory::new(),
            crate::cpu::CpuModel::X86_64V2,
        )
        .unwrap()
    }

    #[test]
    fn terminators() {
        // push rbp; mov rbp,rsp; call +0
        let b = dec(&[0x55, 0x48, 0x89, 0xe5, 0xe8, 0, 0, 0, 0]);
        assert_eq!(b.insn_count(), 3);
        assert_eq!(b.terminator, Terminator::Call { target: 0x1009 });
        assert_eq!(b.last_insn_addr(), 0x1004);
        assert_eq!(b.insns[0].stores, 1); // push writes the stack
        assert_eq!(dec(&[0xc3]).terminator, Terminator::Return);
        assert_eq!(
            dec(&[0x74, 0x02]).terminator,
            Terminator::CondBranch { target: 0x1004 }
        );
        assert_eq!(dec(&[0xff, 0xe0]).terminator, Terminator::IndirectJump);
        assert_eq!(dec(&[0xff, 0xd0]).terminator, Terminator::IndirectCall);
        assert_eq!(dec(&[0x0f, 0x05]).terminator, Terminator::Syscall);
        assert_eq!(dec(&[0xf3, 0xa4]).terminator, Terminator::RepString); // rep movsb
        assert_eq!(dec(&[0xf3, 0xc3]).terminator, Terminator::Return); // rep ret
        assert_eq!(dec(&[0x0f, 0x0b]).terminator, Terminator::Trap); // ud2
                                                                     // add [rax], ebx: one load and one store
        let b = dec(&[0x01, 0x18]);
        assert_eq!((b.insns[0].loads, b.insns[0].stores), (1, 1));
    }

    #[test]
    fn client_request_is_one_instruction_at_the_end() {
        // mov eax, 1; the request
        let mut code = vec![0xb8, 1, 0, 0, 0];
        code.extend_from_slice(&CLIENT_REQUEST);
        let b = dec(&code);
        assert!(b.client_request);
        assert_eq!(b.insn_count(), 2);
        assert_eq!((b.insns[1].offset, b.insns[1].len), (5, 19));
        assert_eq!(b.terminator, Terminator::FallThrough);
        assert_eq!(b.last_insn_addr(), 0x1005);
        // The request alone, and the preamble without its xchg: five
        // instructions, no request.
        assert_eq!(dec(&CLIENT_REQUEST).insn_count(), 1);
        let b = dec(&CLIENT_REQUEST[..16]);
        assert!(!b.client_request);
        assert_eq!(b.insn_count(), 4);
    }

    #[test]
    fn vector_vex_is_refused_but_bmi_is_not() {
        // vmovdqu xmm0, [rax]
        let e = decode_block(
            &[0xc5, 0xfa, 0x6f, 0x00],
            0x1000,
            &mut InstructionInfoFactory::new(),
            crate::cpu::CpuModel::X86_64V2,
        );
        assert!(matches!(e, Err(DecodeError::Vector { addr: 0x1000, .. })));
        // andn eax, ebx, ecx (BMI1)
        assert!(decode_block(
            &[0xc4, 0xe2, 0x60, 0xf2, 0xc1],
            0x1000,
            &mut InstructionInfoFactory::new(),
            crate::cpu::CpuModel::X86_64V2,
        )
        .is_ok());
    }

    #[test]
    fn table_caches_and_invalidates() {
        let mut t = BlockTable::new(crate::cpu::CpuModel::X86_64V2);
        let (a, _) = t.insert(&[0x90, 0xc3], 0x1000).unwrap();
        assert_eq!(t.lookup(0x1000, 2), Some(a));
        assert_eq!(t.lookup(0x1000, 1), None);
        t.invalidate(0x1001, 0x1002);
        assert_eq!(t.lookup(0x1000, 2), None);
        let (b, new) = t.insert(&[0x90, 0xc3], 0x1000).unwrap();
        assert!(new);
        assert_ne!(a, b);
    }

    #[test]
    fn rewritten_blocks_come_back_by_shape() {
        let mut t = BlockTable::new(crate::cpu::CpuModel::X86_64V2);
        // mov eax, 1; ret
        let (a, _) = t.insert(&[0xb8, 1, 0, 0, 0, 0xc3], 0x1000).unwrap();
        t.retire(0x1000, 6);
        assert_eq!(t.lookup(0x1000, 6), None);
        // mov eax, 2; ret: the same facts, the same id.
        assert_eq!(
            t.insert(&[0xb8, 2, 0, 0, 0, 0xc3], 0x1000).unwrap(),
            (a, false)
        );
        assert_eq!(t.lookup(0x1000, 6), Some(a));
        t.retire(0x1000, 6);
        // xor eax, eax; add eax, 3; ret: three instructions, a new id.
        let (b, new) = t
            .insert(&[0x31, 0xc0, 0x83, 0xc0, 3, 0xc3], 0x1000)
            .unwrap();
        assert!(new);
        assert_ne!(a, b);
        assert_eq!(t.facts(b).insn_count(), 3);
        t.retire(0x1000, 6);
        // Back to the first shape: its id again.
        assert_eq!(
            t.insert(&[0xb8, 9, 0, 0, 0, 0xc3], 0x1000).unwrap(),
            (a, false)
        );
        // Retiring what is not there changes nothing.
        t.retire(0x2000, 6);
        assert_eq!(t.lookup(0x1000, 6), Some(a));
    }
}
