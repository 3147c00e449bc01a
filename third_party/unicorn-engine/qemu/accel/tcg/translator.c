/*
 * Generic intermediate code generation.
 *
 * Copyright (C) 2016-2017 Lluís Vilanova <vilanova@ac.upc.edu>
 *
 * This work is licensed under the terms of the GNU GPL, version 2 or later.
 * See the COPYING file in the top-level directory.
 */

#include "qemu/osdep.h"
#include "cpu.h"
#include "tcg/tcg.h"
#include "tcg/tcg-op.h"
#include "exec/exec-all.h"
#include "exec/gen-icount.h"
#include "exec/translator.h"

#include <uc_priv.h>

void gen_pathvm_hook_call(TCGContext *tcg_ctx, TCGv_ptr slot);

/* pathvm: count the block inline (see uc_pathvm_set_block_counter) and call
 * the hook only when asked, or log the report in a buffer the hook reads
 * later. The count is emitted after gen_tb_start's exit check
 * (gen_pathvm_block), the report after gen_tb_end (gen_pathvm_report). The
 * slot's address and the instruction count are immediates, patched by
 * pathvm_patch_block once the block's size is known. The layouts are
 * pathvm's (vm/src/sparse.rs); the slot's masks are 0 or -1 in 32 bits,
 * loaded sign-extended. */
#define PV_G_DUE 0
#define PV_G_LAST 8
#define PV_G_SYNC 16
#define PV_G_DEADLINE 24
#define PV_G_LOG 32
#define PV_G_LOG_END 40
#define PV_S_COUNT 0
#define PV_S_INSNS 8
#define PV_S_FLAGS 12
#define PV_S_ALWAYS 16
#define PV_S_NEXT 20
#define PV_FLAG_LOG 1
#define PV_FLAG_SYNC_NEXT 2
#define PV_FLAG_NO_SYNC 4
#define PV_ENTRY 32

struct pathvm_ops {
    TCGOp *slot[6];
    int nslot;
    TCGOp *insns;
    TCGOp *sync;
    /* Where the prologue branches to report, and where the report code
     * (emitted after the block's exit, out of the common path) returns. */
    TCGLabel *report;
    TCGLabel *done;
};

static TCGv_ptr pathvm_slot(TCGContext *tcg_ctx, struct pathvm_ops *ops)
{
    TCGv_ptr slot = tcg_const_ptr(tcg_ctx, 0);
    ops->slot[ops->nslot++] = tcg_last_op(tcg_ctx);
    return slot;
}

static void gen_pathvm_block(TCGContext *tcg_ctx, struct uc_struct *uc,
                             struct pathvm_ops *ops)
{
    TCGv_ptr slot, ip, g;
    TCGv_i64 t, n, c, d, m;
    TCGLabel *report, *done;

    slot = pathvm_slot(tcg_ctx, ops);
    n = tcg_const_i64(tcg_ctx, 0);
    ops->insns = tcg_last_op(tcg_ctx);
    ip = tcg_const_ptr(tcg_ctx, uc->pathvm_instret);
    g = tcg_const_ptr(tcg_ctx, uc->pathvm_globals);
    t = tcg_temp_new_i64(tcg_ctx);
    c = tcg_temp_new_i64(tcg_ctx);
    d = tcg_temp_new_i64(tcg_ctx);
    m = tcg_temp_new_i64(tcg_ctx);

    /* instret += insns; slot.count += 1; old = due; due = old & next;
     * if instret >= (old & always): report, else last = slot. */
    tcg_gen_ld_i64(tcg_ctx, t, ip, 0);
    tcg_gen_add_i64(tcg_ctx, t, t, n);
    tcg_gen_st_i64(tcg_ctx, t, ip, 0);
    tcg_gen_ld_i64(tcg_ctx, c, slot, PV_S_COUNT);
    tcg_gen_addi_i64(tcg_ctx, c, c, 1);
    tcg_gen_st_i64(tcg_ctx, c, slot, PV_S_COUNT);
    tcg_gen_ld_i64(tcg_ctx, d, g, PV_G_DUE);
    tcg_gen_ld32s_i64(tcg_ctx, m, slot, PV_S_NEXT);
    tcg_gen_and_i64(tcg_ctx, m, m, d);
    tcg_gen_st_i64(tcg_ctx, m, g, PV_G_DUE);
    tcg_gen_ld32s_i64(tcg_ctx, m, slot, PV_S_ALWAYS);
    tcg_gen_and_i64(tcg_ctx, d, d, m);
    report = gen_new_label(tcg_ctx);
    done = gen_new_label(tcg_ctx);
    ops->report = report;
    ops->done = done;
    tcg_gen_brcond_i64(tcg_ctx, TCG_COND_GEU, t, d, report);
    tcg_temp_free_i64(tcg_ctx, t);
    tcg_temp_free_i64(tcg_ctx, n);
    tcg_temp_free_i64(tcg_ctx, c);
    tcg_temp_free_i64(tcg_ctx, d);
    tcg_temp_free_i64(tcg_ctx, m);
    tcg_temp_free_ptr(tcg_ctx, slot);
    tcg_temp_free_ptr(tcg_ctx, ip);
    tcg_temp_free_ptr(tcg_ctx, g);

    /* Temporaries do not live across a branch: the addresses again. */
    slot = pathvm_slot(tcg_ctx, ops);
    g = tcg_const_ptr(tcg_ctx, uc->pathvm_globals);
    tcg_gen_st_ptr(tcg_ctx, slot, g, PV_G_LAST);
    tcg_temp_free_ptr(tcg_ctx, slot);
    tcg_temp_free_ptr(tcg_ctx, g);
    gen_set_label(tcg_ctx, done);

    /* A block whose successor must reach the hook says so (removed by
     * pathvm_patch_block from the blocks whose successor may be logged). */
    g = tcg_const_ptr(tcg_ctx, uc->pathvm_globals);
    m = tcg_const_i64(tcg_ctx, 1);
    tcg_gen_st_i64(tcg_ctx, m, g, PV_G_SYNC);
    ops->sync = tcg_last_op(tcg_ctx);
    tcg_temp_free_i64(tcg_ctx, m);
    tcg_temp_free_ptr(tcg_ctx, g);
}

/* The reports of a block, emitted after its exit (gen_tb_end) so that the
 * common path, which does not report, runs straight from the prologue into
 * the block's first instruction. Branched to from the prologue's
 * ops->report, and back to its ops->done. */
static void gen_pathvm_report(TCGContext *tcg_ctx, struct uc_struct *uc,
                              struct pathvm_ops *ops)
{
    TCGv_ptr slot, ip, g, e;
    TCGv_i64 t, d, m, x;
    TCGv_i32 decr;
    TCGLabel *hook;

    hook = gen_new_label(tcg_ctx);

    /* A report goes to the log unless the block before asked for the hook
     * (sync) and this block does not waive it (NO_SYNC), the block may not
     * be logged, a deadline passed or the log is full. The entry (slot,
     * last, instret, rsp) is written first, one past the end at most (the
     * log has a spare entry), and kept only when logging. */
    gen_set_label(tcg_ctx, ops->report);
    slot = pathvm_slot(tcg_ctx, ops);
    g = tcg_const_ptr(tcg_ctx, uc->pathvm_globals);
    ip = tcg_const_ptr(tcg_ctx, uc->pathvm_instret);
    t = tcg_temp_new_i64(tcg_ctx);
    x = tcg_temp_new_i64(tcg_ctx);
    m = tcg_temp_new_i64(tcg_ctx);
    d = tcg_temp_new_i64(tcg_ctx);
    e = tcg_temp_new_ptr(tcg_ctx);
    tcg_gen_ld_i64(tcg_ctx, x, g, PV_G_SYNC);
    tcg_gen_ld32u_i64(tcg_ctx, m, slot, PV_S_FLAGS);
    /* sync &= !(flags & NO_SYNC) */
    tcg_gen_shri_i64(tcg_ctx, d, m, 2);
    tcg_gen_andi_i64(tcg_ctx, d, d, 1);
    tcg_gen_xori_i64(tcg_ctx, d, d, 1);
    tcg_gen_and_i64(tcg_ctx, x, x, d);
    tcg_gen_andi_i64(tcg_ctx, m, m, PV_FLAG_LOG);
    tcg_gen_xori_i64(tcg_ctx, m, m, PV_FLAG_LOG);
    tcg_gen_or_i64(tcg_ctx, x, x, m);
    tcg_gen_ld_i64(tcg_ctx, t, ip, 0);
    tcg_gen_ld_i64(tcg_ctx, m, g, PV_G_DEADLINE);
    tcg_gen_setcond_i64(tcg_ctx, TCG_COND_GEU, m, t, m);
    tcg_gen_or_i64(tcg_ctx, x, x, m);
    tcg_gen_ld_i64(tcg_ctx, m, g, PV_G_LOG);
    tcg_gen_ld_i64(tcg_ctx, d, g, PV_G_LOG_END);
    tcg_gen_setcond_i64(tcg_ctx, TCG_COND_EQ, m, m, d);
    tcg_gen_or_i64(tcg_ctx, x, x, m);
    tcg_gen_ld_ptr(tcg_ctx, e, g, PV_G_LOG);
    tcg_gen_st_ptr(tcg_ctx, slot, e, 0);
    tcg_gen_ld_i64(tcg_ctx, m, g, PV_G_LAST);
    tcg_gen_st_i64(tcg_ctx, m, e, 8);
    tcg_gen_st_i64(tcg_ctx, t, e, 16);
    tcg_gen_ld_i64(tcg_ctx, m, tcg_ctx->cpu_env,
                   offsetof(CPUX86State, regs[R_ESP]));
    tcg_gen_st_i64(tcg_ctx, m, e, 24);
    tcg_gen_brcondi_i64(tcg_ctx, TCG_COND_NE, x, 0, hook);
    tcg_temp_free_i64(tcg_ctx, d);
    tcg_temp_free_i64(tcg_ctx, t);
    tcg_temp_free_i64(tcg_ctx, x);
    tcg_temp_free_i64(tcg_ctx, m);
    tcg_temp_free_ptr(tcg_ctx, e);
    tcg_temp_free_ptr(tcg_ctx, slot);
    tcg_temp_free_ptr(tcg_ctx, g);
    tcg_temp_free_ptr(tcg_ctx, ip);

    /* Logged: keep the entry; last = slot; due = deadline & next; sync = 0. */
    slot = pathvm_slot(tcg_ctx, ops);
    g = tcg_const_ptr(tcg_ctx, uc->pathvm_globals);
    e = tcg_temp_new_ptr(tcg_ctx);
    m = tcg_temp_new_i64(tcg_ctx);
    d = tcg_temp_new_i64(tcg_ctx);
    tcg_gen_ld_ptr(tcg_ctx, e, g, PV_G_LOG);
    tcg_gen_addi_ptr(tcg_ctx, e, e, PV_ENTRY);
    tcg_gen_st_ptr(tcg_ctx, e, g, PV_G_LOG);
    tcg_gen_st_ptr(tcg_ctx, slot, g, PV_G_LAST);
    tcg_gen_ld_i64(tcg_ctx, d, g, PV_G_DEADLINE);
    tcg_gen_ld32s_i64(tcg_ctx, m, slot, PV_S_NEXT);
    tcg_gen_and_i64(tcg_ctx, d, d, m);
    tcg_gen_st_i64(tcg_ctx, d, g, PV_G_DUE);
    /* A logged report after a block that set sync (this block waived it)
     * ends the request. */
    tcg_gen_movi_i64(tcg_ctx, d, 0);
    tcg_gen_st_i64(tcg_ctx, d, g, PV_G_SYNC);
    tcg_temp_free_ptr(tcg_ctx, e);
    tcg_temp_free_i64(tcg_ctx, m);
    tcg_temp_free_i64(tcg_ctx, d);
    tcg_temp_free_ptr(tcg_ctx, slot);
    tcg_temp_free_ptr(tcg_ctx, g);
    tcg_gen_br(tcg_ctx, ops->done);

    gen_set_label(tcg_ctx, hook);
    slot = pathvm_slot(tcg_ctx, ops);
    gen_pathvm_hook_call(tcg_ctx, slot);
    tcg_temp_free_ptr(tcg_ctx, slot);
    /* The hook may have stopped the emulation: the block must not run. */
    decr = tcg_temp_new_i32(tcg_ctx);
    tcg_gen_ld_i32(tcg_ctx, decr, tcg_ctx->cpu_env,
                   offsetof(ArchCPU, neg.icount_decr.u32) -
                   offsetof(ArchCPU, env));
    tcg_gen_brcondi_i32(tcg_ctx, TCG_COND_LT, decr, 0, tcg_ctx->exitreq_label);
    tcg_temp_free_i32(tcg_ctx, decr);
    tcg_gen_br(tcg_ctx, ops->done);
}

static void pathvm_patch_block(struct uc_struct *uc, struct pathvm_ops *ops,
                               TranslationBlock *tb)
{
    TCGContext *tcg_ctx = uc->tcg_ctx;
    uint32_t *slot = uc->pathvm_translated(uc->pathvm_data, tb->pc, tb->size);
    int i;

    for (i = 0; i < ops->nslot; i++) {
        ops->slot[i]->args[1] = (TCGArg)(uintptr_t)slot;
    }
    ops->insns->args[1] = (TCGArg)slot[PV_S_INSNS / 4];
    if (!(slot[PV_S_FLAGS / 4] & PV_FLAG_SYNC_NEXT)) {
        tcg_op_remove(tcg_ctx, ops->sync);
    }
}

/* Pairs with tcg_clear_temp_count.
   To be called by #TranslatorOps.{translate_insn,tb_stop} if
   (1) the target is sufficiently clean to support reporting,
   (2) as and when all temporaries are known to be consumed.
   For most targets, (2) is at the end of translate_insn.  */
void translator_loop_temp_check(DisasContextBase *db)
{
#if 0
    if (tcg_check_temp_count()) {
        qemu_log("warning: TCG temporary leaks before "
                 TARGET_FMT_lx "\n", db->pc_next);
    }
#endif
}

void translator_loop(const TranslatorOps *ops, DisasContextBase *db,
                     CPUState *cpu, TranslationBlock *tb, int max_insns)
{
    int bp_insn = 0;
    struct uc_struct *uc = (struct uc_struct *)cpu->uc;
    TCGContext *tcg_ctx = uc->tcg_ctx;
    TCGOp *prev_op = NULL;
    bool block_hook = false;
    struct pathvm_ops pathvm_ops = { { NULL }, 0, NULL, NULL, NULL, NULL };

    /* Initialize DisasContext */
    db->tb = tb;
    db->pc_first = tb->pc;
    db->pc_next = db->pc_first;
    db->is_jmp = DISAS_NEXT;
    db->num_insns = 0;
    db->max_insns = max_insns;
    db->singlestep_enabled = cpu->singlestep_enabled;

    ops->init_disas_context(db, cpu);
    tcg_debug_assert(db->is_jmp == DISAS_NEXT);  /* no early exit */

    /* Reset the temp count so that we can identify leaks */
    tcg_clear_temp_count();

    /* Unicorn: early check to see if the address of this block is
     * the "run until" address. */
    if (uc_addr_is_exit(uc, tb->pc)) {
        // This should catch that instruction is at the end
        // and generate appropriate halting code.
        gen_tb_start(tcg_ctx, db->tb);
        ops->tb_start(db, cpu);
        db->num_insns++;
        ops->insn_start(db, cpu);
        ops->translate_insn(db, cpu);
        goto _end_loop;
    }

    /* Unicorn: trace this block on request
     * Only hook this block if it is not broken from previous translation due to
     * full translation cache
     */
    if (HOOK_EXISTS_BOUNDED(uc, UC_HOOK_BLOCK, tb->pc)) {
        prev_op = tcg_last_op(tcg_ctx);
        block_hook = true;
        gen_uc_tracecode(tcg_ctx, 0xf8f8f8f8, UC_HOOK_BLOCK_IDX, uc, db->pc_first);
    }

    // tcg_dump_ops(tcg_ctx, false, "translator loop");

    /* Start translating.  */
    gen_tb_start(tcg_ctx, db->tb);
    // tcg_dump_ops(tcg_ctx, false, "tb start");
    if (uc->pathvm_hook) {
        gen_pathvm_block(tcg_ctx, uc, &pathvm_ops);
    }

    ops->tb_start(db, cpu);
    // tcg_dump_ops(tcg_ctx, false, "tb start 2");

    tcg_debug_assert(db->is_jmp == DISAS_NEXT);  /* no early exit */

    while (true) {
        db->num_insns++;

        ops->insn_start(db, cpu);
        tcg_debug_assert(db->is_jmp == DISAS_NEXT);  /* no early exit */

        /* Pass breakpoint hits to target for further processing */
        if (!db->singlestep_enabled
            && unlikely(!QTAILQ_EMPTY(&cpu->breakpoints))) {
            CPUBreakpoint *bp;
            QTAILQ_FOREACH(bp, &cpu->breakpoints, entry) {
                if (bp->pc == db->pc_next) {
                    if (ops->breakpoint_check(db, cpu, bp)) {
                        bp_insn = 1;
                        break;
                    }
                }
            }
            /* The breakpoint_check hook may use DISAS_TOO_MANY to indicate
               that only one more instruction is to be executed.  Otherwise
               it should use DISAS_NORETURN when generating an exception,
               but may use a DISAS_TARGET_* value for Something Else.  */
            if (db->is_jmp > DISAS_TOO_MANY) {
                break;
            }
        }

        /* Disassemble one instruction.  The translate_insn hook should
           update db->pc_next and db->is_jmp to indicate what should be
           done next -- either exiting this loop or locate the start of
           the next instruction.  */
        ops->translate_insn(db, cpu);
        // tcg_dump_ops(tcg_ctx, false, "insn translate");

        /* Stop translation if translate_insn so indicated.  */
        if (db->is_jmp != DISAS_NEXT) {
            break;
        }

        /* Stop translation if the output buffer is full,
           or we have executed all of the allowed instructions.  */
        if (tcg_op_buf_full(tcg_ctx) || db->num_insns >= db->max_insns) {
            db->is_jmp = DISAS_TOO_MANY;
            break;
        }
    }

_end_loop:
    /* Emit code to exit the TB, as indicated by db->is_jmp.  */
    ops->tb_stop(db, cpu);
    gen_tb_end(tcg_ctx, db->tb, db->num_insns - bp_insn);
    // tcg_dump_ops(tcg_ctx, false, "tb end");
    if (pathvm_ops.report) {
        gen_pathvm_report(tcg_ctx, uc, &pathvm_ops);
    }

    /* The disas_log hook may use these values rather than recompute.  */
    db->tb->size = db->pc_next - db->pc_first;
    db->tb->icount = db->num_insns;

    hooked_regions_check(uc, db->tb->pc, db->tb->size);

    if (pathvm_ops.nslot) {
        pathvm_patch_block(uc, &pathvm_ops, db->tb);
    }

    if (block_hook) {
        TCGOp *tcg_op;

        // Unicorn: patch the callback to have the proper block size.
        if (prev_op) {
            // As explained further up in the function where prev_op is
            // assigned, we move forward in the tail queue, so we're modifying the
            // move instruction generated by gen_uc_tracecode() that contains
            // the instruction size to assign the proper size (replacing 0xF1F1F1F1).
            tcg_op = QTAILQ_NEXT(prev_op, link);
        } else {
            // this basic block is the first emulated code ever,
            // so the basic block operand is the first operand
            tcg_op = QTAILQ_FIRST(&tcg_ctx->ops);
        }

        tcg_op->args[1] = db->tb->size;
    }
}
