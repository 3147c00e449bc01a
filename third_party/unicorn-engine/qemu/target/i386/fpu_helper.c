/*
 *  x86 FPU, MMX/3DNow!/SSE/SSE2/SSE3/SSSE3/SSE4/PNI helpers
 *
 *  Copyright (c) 2003 Fabrice Bellard
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 *
 * This library is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 *
 * You should have received a copy of the GNU Lesser General Public
 * License along with this library; if not, see <http://www.gnu.org/licenses/>.
 */

#include "qemu/osdep.h"
#include "cpu.h"
#include "exec/helper-proto.h"
#include "qemu/host-utils.h"
#include "exec/exec-all.h"
#include "exec/cpu_ldst.h"
#include "fpu/softfloat.h"

#define FPU_RC_MASK         0xc00
#define FPU_RC_NEAR         0x000
#define FPU_RC_DOWN         0x400
#define FPU_RC_UP           0x800
#define FPU_RC_CHOP         0xc00


/* the following deal with x86 long double-precision numbers */
#define MAXEXPD 0x7fff
#define EXPBIAS 16383
#define EXPD(fp)        (fp.l.upper & 0x7fff)
#define SIGND(fp)       ((fp.l.upper) & 0x8000)
#define MANTD(fp)       (fp.l.lower)
#define BIASEXPONENT(fp) fp.l.upper = (fp.l.upper & ~(0x7fff)) | EXPBIAS

#define FPUS_IE (1 << 0)
#define FPUS_DE (1 << 1)
#define FPUS_ZE (1 << 2)
#define FPUS_OE (1 << 3)
#define FPUS_UE (1 << 4)
#define FPUS_PE (1 << 5)
#define FPUS_SF (1 << 6)
#define FPUS_SE (1 << 7)
#define FPUS_B  (1 << 15)

#define FPUC_EM 0x3f

#define floatx80_lg2 make_floatx80(0x3ffd, 0x9a209a84fbcff799LL)
#define floatx80_l2e make_floatx80(0x3fff, 0xb8aa3b295c17f0bcLL)
#define floatx80_l2t make_floatx80(0x4000, 0xd49a784bcd1b8afeLL)

static void cpu_clear_ignne(CPUX86State *env)
{
    env->hflags2 &= ~HF2_IGNNE_MASK;
}

void cpu_set_ignne(CPUX86State *env)
{
    env->hflags2 |= HF2_IGNNE_MASK;
    /*
     * We get here in response to a write to port F0h.  The chipset should
     * deassert FP_IRQ and FERR# instead should stay signaled until FPSW_SE is
     * cleared, because FERR# and FP_IRQ are two separate pins on real
     * hardware.  However, we don't model FERR# as a qemu_irq, so we just
     * do directly what the chipset would do, i.e. deassert FP_IRQ.
     */
    // qemu_irq_lower(ferr_irq);
}


static inline void fpush(CPUX86State *env)
{
    env->fpstt = (env->fpstt - 1) & 7;
    env->fptags[env->fpstt] = 0; /* validate stack entry */
}

static inline void fpop(CPUX86State *env)
{
    env->fptags[env->fpstt] = 1; /* invalidate stack entry */
    env->fpstt = (env->fpstt + 1) & 7;
}

/* pathvm: an m80 operand is one access of 10 bytes for the data tracer
   (accel/tcg/cputlb.c) */
uint64_t pathvm_ld80(CPUX86State *env, target_ulong ptr, uint32_t *hi,
                     uintptr_t retaddr);
void pathvm_st80(CPUX86State *env, target_ulong ptr, uint64_t lo,
                 uint32_t hi, uintptr_t retaddr);

static inline floatx80 helper_fldt(CPUX86State *env, target_ulong ptr,
                                   uintptr_t retaddr)
{
    CPU_LDoubleU temp;
    uint32_t hi;

    temp.l.lower = pathvm_ld80(env, ptr, &hi, retaddr);
    temp.l.upper = hi;
    return temp.d;
}

static inline void helper_fstt(CPUX86State *env, floatx80 f, target_ulong ptr,
                               uintptr_t retaddr)
{
    CPU_LDoubleU temp;

    temp.d = f;
    pathvm_st80(env, ptr, temp.l.lower, temp.l.upper, retaddr);
}

/* x87 FPU helpers */

static void fpu_set_exception(CPUX86State *env, int mask)
{
    env->fpus |= mask;
    if (env->fpus & (~env->fpuc & FPUC_EM)) {
        env->fpus |= FPUS_SE | FPUS_B;
    }
}

/*
 * pathvm: the x87 status word's exception flags.  fp_status keeps the sticky
 * softfloat flags of x87 arithmetic (float_flag_input_denormal carries DE,
 * which pathvm computes: x87 has no DAZ, so softfloat never sets it); they
 * are merged into FPUS wherever the status word is read (pathvm_fpus_sync)
 * and follow it wherever it is written (x87_flags_from_fpus).
 */
static int x87_flags_from_fpus(uint16_t fpus)
{
    int f = 0;

    if (fpus & FPUS_IE) {
        f |= float_flag_invalid;
    }
    if (fpus & FPUS_DE) {
        f |= float_flag_input_denormal;
    }
    if (fpus & FPUS_ZE) {
        f |= float_flag_divbyzero;
    }
    if (fpus & FPUS_OE) {
        f |= float_flag_overflow;
    }
    if (fpus & FPUS_UE) {
        f |= float_flag_underflow;
    }
    if (fpus & FPUS_PE) {
        f |= float_flag_inexact;
    }
    return f;
}

/*
 * pathvm: unmasked x87 exceptions, as the hardware delivers them.  An
 * instruction whose exception is unmasked only makes it pending (ES and B);
 * the next waiting instruction (fwait, every x87 instruction but fninit,
 * fnclex, fnstsw, fnstcw, fnstenv, fnsave, fldenv and frstor, emms and the
 * MMX instructions) raises #MF before it does anything (x87_wait).  The
 * pending exception also sets FOP and FDP to the faulting instruction's
 * opcode and memory operand (0 for none: CPUID.7.0:EBX[6]), and an invalid
 * operand, a denormal operand or a division by zero (and an overflow or
 * underflow on the way to memory) leaves the destination and the stack as
 * they were.
 *
 * The flags come from softfloat's sticky flags, merged when the status
 * word is read (x87_sync), so the faulting instruction is known only then:
 * while an exception is unmasked, each x87 instruction records its memory
 * operand, the stack and the bytes of a memory destination beforehand
 * (x87_last, helper_x87_stack), and the merge that finds an unmasked
 * exception (or the stack fault that raised one) completes it
 * (x87_commit).  FIP already names the instruction then (it is written
 * after each non-control instruction), and FOP is read from its code.
 * An unmasked overflow or underflow with a register destination stores the
 * result with its exponent adjusted by 24576 (x87_biased), as the hardware
 * does, for the arithmetic (fadd, fsub, fsubr, fmul, fdiv, fdivr and their
 * memory and integer forms) and fscale; with UE unmasked a tiny result
 * raises UE even when exact (float_status.underflow_when_tiny).
 */
struct x87_insn {
    CPUX86State *env;       /* NULL: nothing recorded */
    bool stack_fault;       /* its stack check raised an unmasked IE */
    target_ulong operand;   /* its memory operand, 0 for none */
    target_ulong mem_addr;  /* a memory destination and its old bytes */
    int mem_len;
    uint8_t mem[10];
    int fpstt;
    uint8_t fptags[8];
    FPReg fpregs[8];
};
static __thread struct x87_insn x87_last;

static void x87_sync(CPUX86State *env, bool in_exec);

void pathvm_fpus_sync(CPUX86State *env);
void pathvm_fpus_sync(CPUX86State *env)
{
    x87_sync(env, false);
}

/* The softfloat flags as status word bits. */
static int x87_softfloat_fpus(CPUX86State *env)
{
    int f = get_float_exception_flags(&env->fp_status);
    int m = 0;

    if (f & float_flag_invalid) {
        m |= FPUS_IE;
    }
    if (f & float_flag_input_denormal) {
        m |= FPUS_DE;
    }
    if (f & float_flag_divbyzero) {
        m |= FPUS_ZE;
    }
    if (f & float_flag_overflow) {
        m |= FPUS_OE;
    }
    if (f & float_flag_underflow) {
        m |= FPUS_UE;
    }
    if (f & float_flag_inexact) {
        m |= FPUS_PE;
    }
    return m;
}

void pathvm_fpus_loaded(CPUX86State *env);
void pathvm_fpus_loaded(CPUX86State *env)
{
    x87_last.env = NULL;
    set_float_exception_flags(x87_flags_from_fpus(env->fpus), &env->fp_status);
}

/* pathvm: unnormals, pseudo-infinities and pseudo-NaNs (invalid operands) */
static inline bool x87_unsupported(floatx80 a)
{
    return (a.high & 0x7fff) != 0 && !(a.low >> 63);
}

static inline bool x87_is_denormal(floatx80 a)
{
    return (a.high & 0x7fff) == 0 && a.low != 0;
}

/* DE for a denormal operand, unless an operand is a NaN (IE comes first). */
static inline void x87_den2(CPUX86State *env, floatx80 a, floatx80 b)
{
    if (unlikely(x87_is_denormal(a) || x87_is_denormal(b)) &&
        !floatx80_is_any_nan(a) && !floatx80_is_any_nan(b) &&
        !x87_unsupported(a) && !x87_unsupported(b)) {
        env->fp_status.float_exception_flags |= float_flag_input_denormal;
    }
}

/*
 * pathvm: an unsupported operand (unnormal, pseudo-infinity, pseudo-NaN) of
 * ST0/ST1 instructions: IE, ST0 <- the QNaN indefinite.
 */
static bool x87_bad2(CPUX86State *env, floatx80 a, floatx80 b)
{
    floatx80 indef = { 0xc000000000000000ULL, 0xffff };

    if (!x87_unsupported(a) && !x87_unsupported(b)) {
        return false;
    }
    float_raise(float_flag_invalid, &env->fp_status);
    ST0 = indef;
    return true;
}

static inline void x87_den(CPUX86State *env, floatx80 a)
{
    if (unlikely(x87_is_denormal(a))) {
        env->fp_status.float_exception_flags |= float_flag_input_denormal;
    }
}

/* A pseudo-denormal is the normal number of exponent 1 with its significand. */
static inline floatx80 x87_canon(floatx80 a)
{
    if ((a.high & 0x7fff) == 0 && (a.low >> 63)) {
        a.high |= 1;
    }
    return a;
}

enum { X87_ADD, X87_SUB, X87_MUL, X87_DIV, X87_SQRT, X87_RNDINT, X87_SCALE };

static floatx80 x87_do(int op, floatx80 a, floatx80 b, int n, float_status *s)
{
    switch (op) {
    case X87_ADD:
        return floatx80_add(a, b, s);
    case X87_SUB:
        return floatx80_sub(a, b, s);
    case X87_MUL:
        return floatx80_mul(a, b, s);
    case X87_DIV:
        return floatx80_div(a, b, s);
    case X87_RNDINT:
        return floatx80_round_to_int(b, s);
    case X87_SCALE: {
        /* pathvm: fscale is not rounded to the precision control's width */
        floatx80 r;
        int8_t p = s->floatx80_rounding_precision;

        s->floatx80_rounding_precision = 80;
        r = floatx80_scalbn(a, n, s);
        s->floatx80_rounding_precision = p;
        return r;
    }
    default:
        return floatx80_sqrt(b, s);
    }
}

/*
 * pathvm: the result of an unmasked overflow (over) or underflow with a
 * register destination: rounded to the precision control, with its
 * exponent adjusted by 24576 (down for an overflow, up for an underflow),
 * as the manuals define it.  The operation is done on operands scaled by
 * powers of two (exact: each stays normal, or, for an addend far below
 * the other, a nonzero sticky value) so that its result is a normal number,
 * whose one rounding is then the one of the true result; the rest of the
 * adjustment is exact too.  The operand scaling's own flags are dropped.
 */
static floatx80 x87_scalb80(floatx80 a, int n, float_status *s)
{
    float_status t = *s;

    t.floatx80_rounding_precision = 80;
    return floatx80_scalbn(a, n, &t);
}

static floatx80 x87_biased(int op, floatx80 a, floatx80 b, int n, bool over,
                           float_status *s)
{
    int d = over ? -1 : 1, ka = 0, kb = 0, rest = 0;
    floatx80 sa, sb, r;

    switch (op) {
    case X87_ADD:
    case X87_SUB:
        /* an overflowing sum has an operand of exponent >= 16382, a tiny
           one both below 2^-16318 */
        ka = kb = over ? -16383 : 24576;
        rest = over ? 16383 - 24576 : 0;
        break;
    case X87_MUL:
        ka = kb = d * 12288;
        break;
    case X87_DIV:
        ka = d * 12288;
        kb = -d * 12288;
        break;
    case X87_SCALE:
        n += d * 24576;
        break;
    default:
        return x87_do(op, a, b, n, s);
    }
    sa = x87_scalb80(a, ka, s);
    sb = x87_scalb80(b, kb, s);
    if (floatx80_is_zero(sa) && !floatx80_is_zero(a)) {
        sa = packFloatx80(floatx80_is_neg(a), 0, 1);
    }
    if (floatx80_is_zero(sb) && !floatx80_is_zero(b)) {
        sb = packFloatx80(floatx80_is_neg(b), 0, 1);
    }
    r = x87_do(op, sa, sb, n, s);
    return rest ? x87_scalb80(r, rest, s) : r;
}

/*
 * pathvm: x87 arithmetic with DE for denormal operands (not with a NaN, nor
 * when dividing by zero or taking the root of a negative number), the
 * pseudo-denormals read as their normal equals, and C1 set when an inexact
 * result was rounded away from zero (the result differs from the one
 * rounded towards zero), cleared otherwise.
 */
static floatx80 x87_arith_n(CPUX86State *env, int op, floatx80 a, floatx80 b,
                            int n)
{
    int old = get_float_exception_flags(&env->fp_status);
    int f, biased;
    floatx80 r;

    set_float_exception_flags(0, &env->fp_status);
    if (op == X87_SQRT || op == X87_RNDINT) {
        if (!floatx80_is_neg(b) || floatx80_is_zero(b) || op == X87_RNDINT) {
            x87_den(env, b);
        }
    } else if (op != X87_DIV || !floatx80_is_zero(b)) {
        x87_den2(env, a, b);
    }
    a = x87_canon(a);
    b = x87_canon(b);
    r = x87_do(op, a, b, n, &env->fp_status);
    f = get_float_exception_flags(&env->fp_status);
    /* an unmasked overflow (OM, bit 3) or underflow (UM, bit 4) */
    biased = ((f & float_flag_overflow) && !(env->fpuc & 0x08)) ? 1
             : ((f & float_flag_underflow) && !(env->fpuc & 0x10)) ? 2 : 0;
    if (biased) {
        int fb;

        set_float_exception_flags(f & ~(float_flag_overflow |
                                        float_flag_underflow |
                                        float_flag_inexact),
                                  &env->fp_status);
        r = x87_biased(op, a, b, n, biased == 1, &env->fp_status);
        fb = get_float_exception_flags(&env->fp_status);
        f = fb | (biased == 1 ? float_flag_overflow : float_flag_underflow);
        if (fb & (biased == 1 ? float_flag_overflow : float_flag_underflow)) {
            /*
             * Out of range even adjusted (only fscale gets there): the
             * host gives the infinity (C1 set) or the zero of the sign, in
             * every rounding mode, inexact.
             */
            r = biased == 1
                    ? packFloatx80(r.high >> 15, 0x7fff, 0x8000000000000000ULL)
                    : packFloatx80(r.high >> 15, 0, 0);
            env->fpus = (env->fpus & ~0x200) | (biased == 1 ? 0x200 : 0);
            set_float_exception_flags(old | fb | float_flag_inexact,
                                      &env->fp_status);
            return r;
        }
    }
    env->fpus &= ~0x200;
    if (f & float_flag_inexact) {
        signed char rm = env->fp_status.float_rounding_mode;
        floatx80 z;

        env->fp_status.float_rounding_mode = float_round_to_zero;
        z = biased ? x87_biased(op, a, b, n, biased == 1, &env->fp_status)
                   : x87_do(op, a, b, n, &env->fp_status);
        env->fp_status.float_rounding_mode = rm;
        if (z.low != r.low || z.high != r.high) {
            env->fpus |= 0x200;
        }
    }
    set_float_exception_flags(old | f, &env->fp_status);
    return r;
}

static floatx80 x87_arith(CPUX86State *env, int op, floatx80 a, floatx80 b)
{
    return x87_arith_n(env, op, a, b, 0);
}

static inline floatx80 helper_fdiv(CPUX86State *env, floatx80 a, floatx80 b)
{
    return x87_arith(env, X87_DIV, a, b);
}

static inline floatx80 x87_add(CPUX86State *env, floatx80 a, floatx80 b)
{
    return x87_arith(env, X87_ADD, a, b);
}

static inline floatx80 x87_sub(CPUX86State *env, floatx80 a, floatx80 b)
{
    return x87_arith(env, X87_SUB, a, b);
}

static inline floatx80 x87_mul(CPUX86State *env, floatx80 a, floatx80 b)
{
    return x87_arith(env, X87_MUL, a, b);
}

static void fpu_raise_exception(CPUX86State *env, uintptr_t retaddr)
{
    if (env->cr[0] & CR0_NE_MASK) {
        raise_exception_ra(env, EXCP10_COPR, retaddr);
    }
}

/*
 * pathvm: the host address of guest address a when the TLB already maps it
 * for access t (NULL otherwise: nothing is filled, nothing faults).
 */
static void *x87_tlb_host(CPUX86State *env, target_ulong a, MMUAccessType t)
{
    int idx = cpu_mmu_index(env, t == MMU_INST_FETCH);
    CPUTLBEntry *e = tlb_entry(env, idx, a);
    target_ulong ta = t == MMU_INST_FETCH ? e->addr_code
                      : t == MMU_DATA_STORE ? tlb_addr_write(e) : e->addr_read;

    if (!tlb_hit(env->uc, ta, a) || (ta & TLB_MMIO)) {
        return NULL;
    }
    return (void *)((uintptr_t)a + e->addend);
}

/*
 * pathvm: FOP of the x87 instruction at pc (the low 3 bits of its opcode
 * byte and its ModRM byte), past its prefixes.  Within a helper the code is
 * read as a fetch would read it; elsewhere (a register read by the
 * embedder) only through the TLB, and 0 when it does not map the page.
 */
static int x87_fop(CPUX86State *env, target_ulong pc, bool in_exec)
{
    uint8_t b[2];
    int i, j;

    for (i = 0; i < 15; i++) {
        for (j = 0; j < 2; j++) {
            uint8_t *p;

            if (in_exec) {
                b[j] = cpu_ldub_code(env, pc + i + j);
                continue;
            }
            p = x87_tlb_host(env, pc + i + j, MMU_INST_FETCH);
            if (!p) {
                return 0;
            }
            b[j] = *p;
        }
        if (b[0] >= 0xd8 && b[0] <= 0xdf) {
            return ((b[0] & 7) << 8) | b[1];
        }
        switch (b[0]) {
        case 0x26: case 0x2e: case 0x36: case 0x3e: case 0x64: case 0x65:
        case 0x66: case 0x67: case 0xf0: case 0xf2: case 0xf3:
            break;
        default:
            if ((b[0] & 0xf0) != 0x40) {
                return 0;
            }
        }
    }
    return 0;
}

/* pathvm: the unmasked exceptions of the recorded instruction (above). */
static void x87_commit(CPUX86State *env, int arrived, int unmasked,
                       bool in_exec)
{
    struct x87_insn *x = &x87_last;
    bool pre = x->stack_fault ||
               (unmasked & (FPUS_IE | FPUS_DE | FPUS_ZE)) != 0;

    env->fpop = x87_fop(env, env->fpip, in_exec);
    if (x->operand) {
        /* pathvm: a register operand leaves FDP, as the host does */
        env->fpdp = x->operand;
    }
    if (pre || (x->mem_len && (unmasked & (FPUS_OE | FPUS_UE)))) {
        env->fpstt = x->fpstt;
        memcpy(env->fptags, x->fptags, sizeof(x->fptags));
        memcpy(env->fpregs, x->fpregs, sizeof(x->fpregs));
        if (x->mem_len) {
            uint8_t *p = x87_tlb_host(env, x->mem_addr, MMU_DATA_STORE);

            if (p) {
                memcpy(p, x->mem, x->mem_len);
            }
        }
        if (!pre) {
            env->fpus &= ~0x200; /* C1: nothing was rounded up */
            if (arrived & FPUS_PE) {
                /* a store's inexact result is not reported with them */
                env->fpus &= ~FPUS_PE;
                env->fp_status.float_exception_flags &= ~float_flag_inexact;
            }
        }
    }
    x->env = NULL;
    x->stack_fault = false;
}

/*
 * pathvm: the softfloat flags merged into the status word; an unmasked one
 * (or a stack fault) completes the instruction that raised it.  in_exec:
 * called from a helper (the code may be read with a TLB fill).
 */
static void x87_sync(CPUX86State *env, bool in_exec)
{
    int arrived = x87_softfloat_fpus(env) & ~env->fpus;
    int unmasked = arrived & ~env->fpuc & FPUC_EM;

    if (arrived) {
        fpu_set_exception(env, arrived);
    }
    if (x87_last.env == env && (unmasked || x87_last.stack_fault)) {
        x87_commit(env, arrived, unmasked, in_exec);
    }
}

/* pathvm: a waiting instruction raises #MF for a pending exception. */
static void x87_wait(CPUX86State *env, uintptr_t ra)
{
    x87_sync(env, true);
    if (env->fpus & FPUS_SE) {
        fpu_raise_exception(env, ra);
    }
}

/*
 * pathvm: before an x87 instruction that may raise an exception while one
 * is unmasked: its memory operand (mem, an X87M_* kind), the stack, and a
 * memory destination's bytes (in its first page; probed as the store will
 * be, so a fault comes as it would).
 */
static void x87_record(CPUX86State *env, int mem, target_ulong addr,
                       uintptr_t ra)
{
    static const int size[] = { 0, 2, 4, 8, 10, 4, 8, 10, 2, 4, 8, 10 };
    struct x87_insn *x = &x87_last;

    x->env = env;
    x->stack_fault = false;
    x->operand = mem ? addr : 0;
    x->fpstt = env->fpstt;
    memcpy(x->fptags, env->fptags, sizeof(x->fptags));
    memcpy(x->fpregs, env->fpregs, sizeof(x->fpregs));
    x->mem_len = 0;
    if (mem >= X87M_F32) {
        int n = MIN(size[mem], TARGET_PAGE_SIZE - (addr & ~TARGET_PAGE_MASK));
        uint8_t *p = probe_access(env, addr, n, MMU_DATA_STORE,
                                  cpu_mmu_index(env, false), ra);

        if (p) {
            memcpy(x->mem, p, n);
            x->mem_addr = addr;
            x->mem_len = n;
        }
    }
}

/* pathvm: the DE that the last m32/m64 operand loaded into FT0 raised
   (fdivr of it by a zero ST0 takes it back: no DE when dividing by zero) */
static __thread bool x87_ft0_den;

void helper_flds_FT0(CPUX86State *env, uint32_t val)
{
    union {
        float32 f;
        uint32_t i;
    } u;

    u.i = val;
    /* pathvm: no DE when ST0 is an unsupported operand (IE only) */
    x87_ft0_den = false;
    if (float32_is_denormal(u.f) && !x87_unsupported(ST0) &&
        !floatx80_is_any_nan(ST0)) {
        x87_ft0_den = !(env->fp_status.float_exception_flags &
                        float_flag_input_denormal);
        env->fp_status.float_exception_flags |= float_flag_input_denormal;
    }
    /* pathvm: an SNaN stays signalling, so that the operation quiets it
       and, with a QNaN in ST0, returns that QNaN (the x87's rule) */
    FT0 = float32_to_floatx80(u.f, &env->fp_status);
}

void helper_fldl_FT0(CPUX86State *env, uint64_t val)
{
    union {
        float64 f;
        uint64_t i;
    } u;

    u.i = val;
    /* pathvm: no DE when ST0 is an unsupported operand (IE only) */
    x87_ft0_den = false;
    if (float64_is_denormal(u.f) && !x87_unsupported(ST0) &&
        !floatx80_is_any_nan(ST0)) {
        x87_ft0_den = !(env->fp_status.float_exception_flags &
                        float_flag_input_denormal);
        env->fp_status.float_exception_flags |= float_flag_input_denormal;
    }
    /* pathvm: an SNaN stays signalling, so that the operation quiets it
       and, with a QNaN in ST0, returns that QNaN (the x87's rule) */
    FT0 = float64_to_floatx80(u.f, &env->fp_status);
}

void helper_fildl_FT0(CPUX86State *env, int32_t val)
{
    x87_ft0_den = false;
    FT0 = int32_to_floatx80(val, &env->fp_status);
}

void helper_flds_ST0(CPUX86State *env, uint32_t val)
{
    int new_fpstt;
    union {
        float32 f;
        uint32_t i;
    } u;

    new_fpstt = (env->fpstt - 1) & 7;
    u.i = val;
    if (float32_is_denormal(u.f)) {
        env->fp_status.float_exception_flags |= float_flag_input_denormal;
    }
    env->fpregs[new_fpstt].d = float32_to_floatx80(u.f, &env->fp_status);
    if (floatx80_is_any_nan(env->fpregs[new_fpstt].d)) {
        env->fpregs[new_fpstt].d.low |= 0x4000000000000000ULL; /* pathvm */
    }
    env->fpstt = new_fpstt;
    env->fptags[new_fpstt] = 0; /* validate stack entry */
}

void helper_fldl_ST0(CPUX86State *env, uint64_t val)
{
    int new_fpstt;
    union {
        float64 f;
        uint64_t i;
    } u;

    new_fpstt = (env->fpstt - 1) & 7;
    u.i = val;
    if (float64_is_denormal(u.f)) {
        env->fp_status.float_exception_flags |= float_flag_input_denormal;
    }
    env->fpregs[new_fpstt].d = float64_to_floatx80(u.f, &env->fp_status);
    if (floatx80_is_any_nan(env->fpregs[new_fpstt].d)) {
        env->fpregs[new_fpstt].d.low |= 0x4000000000000000ULL; /* pathvm */
    }
    env->fpstt = new_fpstt;
    env->fptags[new_fpstt] = 0; /* validate stack entry */
}

void helper_fildl_ST0(CPUX86State *env, int32_t val)
{
    int new_fpstt;

    new_fpstt = (env->fpstt - 1) & 7;
    env->fpregs[new_fpstt].d = int32_to_floatx80(val, &env->fp_status);
    env->fpstt = new_fpstt;
    env->fptags[new_fpstt] = 0; /* validate stack entry */
}

void helper_fildll_ST0(CPUX86State *env, int64_t val)
{
    int new_fpstt;

    new_fpstt = (env->fpstt - 1) & 7;
    env->fpregs[new_fpstt].d = int64_to_floatx80(val, &env->fp_status);
    env->fpstt = new_fpstt;
    env->fptags[new_fpstt] = 0; /* validate stack entry */
}

/*
 * pathvm: fst m32/m64: an SNaN quieted (with IE), C1 as for arithmetic.
 */
static uint64_t x87_store(CPUX86State *env, int bits)
{
    int old = get_float_exception_flags(&env->fp_status);
    floatx80 a = x87_canon(ST0);
    uint64_t r, z = 0;
    int f;

    set_float_exception_flags(0, &env->fp_status);
    if (floatx80_is_signaling_nan(a, &env->fp_status)) {
        float_raise(float_flag_invalid, &env->fp_status);
        a = floatx80_silence_nan(a, &env->fp_status);
    }
    r = bits == 32 ? floatx80_to_float32(a, &env->fp_status)
                   : floatx80_to_float64(a, &env->fp_status);
    f = get_float_exception_flags(&env->fp_status);
    env->fpus &= ~0x200;
    if (f & float_flag_inexact) {
        signed char rm = env->fp_status.float_rounding_mode;

        env->fp_status.float_rounding_mode = float_round_to_zero;
        z = bits == 32 ? floatx80_to_float32(a, &env->fp_status)
                       : floatx80_to_float64(a, &env->fp_status);
        env->fp_status.float_rounding_mode = rm;
        if (z != r) {
            env->fpus |= 0x200;
        }
    }
    set_float_exception_flags(old | f, &env->fp_status);
    return r;
}

uint32_t helper_fsts_ST0(CPUX86State *env)
{
    return x87_store(env, 32);
}

uint64_t helper_fstl_ST0(CPUX86State *env)
{
    return x87_store(env, 64);
}

/*
 * pathvm: conversions to integers.  Out of range (or a NaN): the integer
 * indefinite value (the most negative one) with IE; the 16-bit forms were
 * saturated without IE, fisttp saturated.
 */
static int64_t x87_to_int(CPUX86State *env, floatx80 a, int bits, bool chop)
{
    a = x87_canon(a);
    int old = get_float_exception_flags(&env->fp_status);
    int64_t v;
    int f;

    set_float_exception_flags(0, &env->fp_status);
    v = chop ? floatx80_to_int64_round_to_zero(a, &env->fp_status)
             : floatx80_to_int64(a, &env->fp_status);
    f = get_float_exception_flags(&env->fp_status);
    if (f & float_flag_invalid) {
        v = INT64_MIN;
    } else if (bits < 64 && v != (int64_t)(v << (64 - bits)) >> (64 - bits)) {
        f = (f & ~float_flag_inexact) | float_flag_invalid;
        v = INT64_MIN;
    }
    env->fpus &= ~0x200;
    if (!(f & float_flag_invalid) && (f & float_flag_inexact) && !chop) {
        int64_t z = floatx80_to_int64_round_to_zero(a, &env->fp_status);

        if (z != v) {
            env->fpus |= 0x200;
        }
    }
    set_float_exception_flags(old | f, &env->fp_status);
    if (v == INT64_MIN) {
        v = (int64_t)((uint64_t)-1 << (bits - 1));
    }
    return v;
}

int32_t helper_fist_ST0(CPUX86State *env)
{
    return x87_to_int(env, ST0, 16, false);
}

int32_t helper_fistl_ST0(CPUX86State *env)
{
    return x87_to_int(env, ST0, 32, false);
}

int64_t helper_fistll_ST0(CPUX86State *env)
{
    return x87_to_int(env, ST0, 64, false);
}

int32_t helper_fistt_ST0(CPUX86State *env)
{
    return x87_to_int(env, ST0, 16, true);
}

int32_t helper_fisttl_ST0(CPUX86State *env)
{
    return x87_to_int(env, ST0, 32, true);
}

int64_t helper_fisttll_ST0(CPUX86State *env)
{
    return x87_to_int(env, ST0, 64, true);
}

/*
 * pathvm: a plain memory operand checked before anything is written: a page
 * fault at its first byte, or at the first byte of the next page when it
 * crosses into one it may not access.
 */
static void x87_probe_plain(CPUX86State *env, target_ulong addr, int size,
                            MMUAccessType t, uintptr_t ra)
{
    int idx = cpu_mmu_index(env, false);

    probe_access(env, addr, 1, t, idx, ra);
    if (((addr ^ (addr + size - 1)) & TARGET_PAGE_MASK) != 0) {
        probe_access(env, (addr + size - 1) & TARGET_PAGE_MASK, 1, t, idx, ra);
    }
}

void helper_fldt_ST0(CPUX86State *env, target_ulong ptr)
{
    int new_fpstt;

    new_fpstt = (env->fpstt - 1) & 7;
    env->fpregs[new_fpstt].d = helper_fldt(env, ptr, GETPC());
    env->fpstt = new_fpstt;
    env->fptags[new_fpstt] = 0; /* validate stack entry */
}

void helper_fstt_ST0(CPUX86State *env, target_ulong ptr)
{
    helper_fstt(env, ST0, ptr, GETPC());
}

void helper_fpush(CPUX86State *env)
{
    fpush(env);
}

void helper_fpop(CPUX86State *env)
{
    fpop(env);
}

void helper_fdecstp(CPUX86State *env)
{
    x87_wait(env, GETPC());
    env->fpstt = (env->fpstt - 1) & 7;
    env->fpus &= ~0x4700;
}

void helper_fincstp(CPUX86State *env)
{
    x87_wait(env, GETPC());
    env->fpstt = (env->fpstt + 1) & 7;
    env->fpus &= ~0x4700;
}

/* FPU move */

void helper_ffree_STN(CPUX86State *env, int st_index)
{
    x87_wait(env, GETPC());
    env->fptags[(env->fpstt + st_index) & 7] = 1;
}

void helper_fmov_ST0_FT0(CPUX86State *env)
{
    ST0 = FT0;
}

void helper_fmov_FT0_STN(CPUX86State *env, int st_index)
{
    x87_ft0_den = false;
    FT0 = ST(st_index);
}

void helper_fmov_ST0_STN(CPUX86State *env, int st_index)
{
    ST0 = ST(st_index);
}

void helper_fmov_STN_ST0(CPUX86State *env, int st_index)
{
    /* pathvm: an empty ST0 is not stored (no stack fault), as the host */
    if (!env->fptags[env->fpstt]) {
        ST(st_index) = ST0;
        env->fptags[(env->fpstt + st_index) & 7] = 0;
    }
}

void helper_fxchg_ST0_STN(CPUX86State *env, int st_index)
{
    floatx80 tmp;

    tmp = ST(st_index);
    ST(st_index) = ST0;
    ST0 = tmp;
}

/* FPU operations */

static const int fcom_ccval[4] = {0x0100, 0x4000, 0x0000, 0x4500};

void helper_fcom_ST0_FT0(CPUX86State *env)
{
    int ret;

    x87_den2(env, ST0, FT0);
    ret = floatx80_compare(x87_canon(ST0), x87_canon(FT0), &env->fp_status);
    env->fpus = (env->fpus & ~0x4500) | fcom_ccval[ret + 1];
}

void helper_fucom_ST0_FT0(CPUX86State *env)
{
    int ret;

    x87_den2(env, ST0, FT0);
    ret = floatx80_compare_quiet(x87_canon(ST0), x87_canon(FT0), &env->fp_status);
    env->fpus = (env->fpus & ~0x4500) | fcom_ccval[ret + 1];
}

static const int fcomi_ccval[4] = {CC_C, CC_Z, 0, CC_Z | CC_P | CC_C};

void helper_fcomi_ST0_FT0(CPUX86State *env)
{
    int eflags;
    int ret;

    x87_den2(env, ST0, FT0);
    ret = floatx80_compare(x87_canon(ST0), x87_canon(FT0), &env->fp_status);
    eflags = cpu_cc_compute_all(env, CC_OP);
    eflags = (eflags & ~(CC_Z | CC_P | CC_C | CC_O | CC_S | CC_A)) |
             fcomi_ccval[ret + 1];
    CC_SRC = eflags;
}

void helper_fucomi_ST0_FT0(CPUX86State *env)
{
    int eflags;
    int ret;

    x87_den2(env, ST0, FT0);
    ret = floatx80_compare_quiet(x87_canon(ST0), x87_canon(FT0), &env->fp_status);
    eflags = cpu_cc_compute_all(env, CC_OP);
    eflags = (eflags & ~(CC_Z | CC_P | CC_C | CC_O | CC_S | CC_A)) |
             fcomi_ccval[ret + 1];
    CC_SRC = eflags;
}

void helper_fadd_ST0_FT0(CPUX86State *env)
{
    ST0 = x87_add(env, ST0, FT0);
}

void helper_fmul_ST0_FT0(CPUX86State *env)
{
    ST0 = x87_mul(env, ST0, FT0);
}

void helper_fsub_ST0_FT0(CPUX86State *env)
{
    ST0 = x87_sub(env, ST0, FT0);
}

void helper_fsubr_ST0_FT0(CPUX86State *env)
{
    ST0 = x87_sub(env, FT0, ST0);
}

void helper_fdiv_ST0_FT0(CPUX86State *env)
{
    ST0 = helper_fdiv(env, ST0, FT0);
}

void helper_fdivr_ST0_FT0(CPUX86State *env)
{
    if (x87_ft0_den && floatx80_is_zero(ST0)) {
        env->fp_status.float_exception_flags &= ~float_flag_input_denormal;
    }
    x87_ft0_den = false;
    ST0 = helper_fdiv(env, FT0, ST0);
}

/* fp operations between STN and ST0 */

void helper_fadd_STN_ST0(CPUX86State *env, int st_index)
{
    ST(st_index) = x87_add(env, ST(st_index), ST0);
}

void helper_fmul_STN_ST0(CPUX86State *env, int st_index)
{
    ST(st_index) = x87_mul(env, ST(st_index), ST0);
}

void helper_fsub_STN_ST0(CPUX86State *env, int st_index)
{
    ST(st_index) = x87_sub(env, ST(st_index), ST0);
}

void helper_fsubr_STN_ST0(CPUX86State *env, int st_index)
{
    ST(st_index) = x87_sub(env, ST0, ST(st_index));
}

void helper_fdiv_STN_ST0(CPUX86State *env, int st_index)
{
    floatx80 *p;

    p = &ST(st_index);
    *p = helper_fdiv(env, *p, ST0);
}

void helper_fdivr_STN_ST0(CPUX86State *env, int st_index)
{
    floatx80 *p;

    p = &ST(st_index);
    *p = helper_fdiv(env, ST0, *p);
}

/* misc FPU operations */
void helper_fchs_ST0(CPUX86State *env)
{
    ST0 = floatx80_chs(ST0);
}

void helper_fabs_ST0(CPUX86State *env)
{
    ST0 = floatx80_abs(ST0);
}

void helper_fld1_ST0(CPUX86State *env)
{
    floatx80 one = { 0x8000000000000000LL, 0x3fff };
    ST0 = one;
}

/*
 * pathvm: the constants rounded as the control word's RC says (their
 * significands truncated to 64 bits, and whether the rest rounds up).
 */
static floatx80 x87_const(CPUX86State *env, uint64_t chopped, uint16_t se,
                          bool more_than_half)
{
    floatx80 r;
    bool up;

    switch (env->fpuc & FPU_RC_MASK) {
    case FPU_RC_NEAR:
        up = more_than_half;
        break;
    case FPU_RC_UP:
        up = true;
        break;
    default:
        up = false;
        break;
    }
    r.low = chopped + up;
    r.high = se;
    return r;
}

void helper_fldl2t_ST0(CPUX86State *env)
{
    /* log2(10) = 0xd49a784bcd1b8afe 492bf6ff... x 2^-62 */
    ST0 = x87_const(env, 0xd49a784bcd1b8afeULL, 0x4000, false);
}

void helper_fldl2e_ST0(CPUX86State *env)
{
    /* log2(e) = 0xb8aa3b295c17f0bb be87fed0... x 2^-63 */
    ST0 = x87_const(env, 0xb8aa3b295c17f0bbULL, 0x3fff, true);
}

void helper_fldpi_ST0(CPUX86State *env)
{
    /* pi = 0xc90fdaa22168c234 c4c6628b... x 2^-62 */
    ST0 = x87_const(env, 0xc90fdaa22168c234ULL, 0x4000, true);
}

void helper_fldlg2_ST0(CPUX86State *env)
{
    /* log10(2) = 0x9a209a84fbcff798 8f8959ac... x 2^-65 */
    ST0 = x87_const(env, 0x9a209a84fbcff798ULL, 0x3ffd, true);
}

void helper_fldln2_ST0(CPUX86State *env)
{
    /* ln(2) = 0xb17217f7d1cf79ab c9e3b398... x 2^-64 */
    ST0 = x87_const(env, 0xb17217f7d1cf79abULL, 0x3ffe, true);
}

void helper_fldz_ST0(CPUX86State *env)
{
    //ST0 = floatx80_zero;
    floatx80 zero = { 0x0000000000000000LL, 0x0000 };
    ST0 = zero;
}

void helper_fldz_FT0(CPUX86State *env)
{
    //FT0 = floatx80_zero;
    floatx80 zero = { 0x0000000000000000LL, 0x0000 };
    x87_ft0_den = false;
    FT0 = zero;
}

uint32_t helper_fnstsw(CPUX86State *env)
{
    x87_sync(env, true);
    return (env->fpus & ~0x3800) | (env->fpstt & 0x7) << 11;
}

uint32_t helper_fnstcw(CPUX86State *env)
{
    return env->fpuc;
}

void update_fp_status(CPUX86State *env)
{
    int rnd_type;

    /* set rounding mode */
    switch (env->fpuc & FPU_RC_MASK) {
    default:
    case FPU_RC_NEAR:
        rnd_type = float_round_nearest_even;
        break;
    case FPU_RC_DOWN:
        rnd_type = float_round_down;
        break;
    case FPU_RC_UP:
        rnd_type = float_round_up;
        break;
    case FPU_RC_CHOP:
        rnd_type = float_round_to_zero;
        break;
    }
    set_float_rounding_mode(rnd_type, &env->fp_status);
    /* pathvm: with UE unmasked, a tiny result raises it even when exact */
    env->fp_status.underflow_when_tiny = !(env->fpuc & 0x10);
    switch ((env->fpuc >> 8) & 3) {
    case 0:
        rnd_type = 32;
        break;
    case 2:
        rnd_type = 64;
        break;
    case 3:
    default:
        rnd_type = 80;
        break;
    }
    set_floatx80_rounding_precision(rnd_type, &env->fp_status);
}

/* pathvm: the reserved bits read as the host has them: 6 set, 7, 13-15 clear */
static inline uint16_t x87_fcw(uint32_t val)
{
    return (val & 0x1f3f) | 0x40;
}

void helper_fldcw(CPUX86State *env, uint32_t val)
{
    x87_wait(env, GETPC()); /* pathvm: fldcw waits */
    cpu_set_fpuc(env, x87_fcw(val));
    /* pathvm: unmasking an exception whose flag is set makes it pending */
    if (env->fpus & ~env->fpuc & FPUC_EM) {
        env->fpus |= FPUS_SE | FPUS_B;
    }
}

void helper_fclex(CPUX86State *env)
{
    x87_sync(env, true); /* pathvm: FOP and FDP of a pending exception */
    env->fpus &= 0x7f00;
    set_float_exception_flags(0, &env->fp_status);
}

void helper_fwait(CPUX86State *env)
{
    x87_wait(env, GETPC()); /* pathvm: the flags of the last instructions */
}

static void do_fninit(CPUX86State *env)
{
    x87_last.env = NULL;
    env->fpus = 0;
    set_float_exception_flags(0, &env->fp_status);
    env->fpstt = 0;
    env->fpcs = 0;
    env->fpds = 0;
    env->fpip = 0;
    env->fpdp = 0;
    env->fpop = 0;
    cpu_set_fpuc(env, 0x37f);
    env->fptags[0] = 1;
    env->fptags[1] = 1;
    env->fptags[2] = 1;
    env->fptags[3] = 1;
    env->fptags[4] = 1;
    env->fptags[5] = 1;
    env->fptags[6] = 1;
    env->fptags[7] = 1;
}

void helper_fninit(CPUX86State *env)
{
    do_fninit(env);
}

/*
 * pathvm: the stack check before an x87 instruction (the X87S_* kinds of
 * cpu.h).  Returns 0 when the registers the instruction reads are valid and
 * the one it pushes into is empty (C1 cleared: the instruction's helpers set
 * it when they define it otherwise); on a stack fault, sets IE and SF, C1 for
 * an overflow (cleared for an underflow) and, with IE masked, gives the
 * masked response (the QNaN indefinite where the instruction writes, the
 * pops it does), and returns 1: the instruction is skipped.  With IE
 * unmasked nothing is written (the #MF comes at the next x87 instruction).
 */
static void x87_set_indef(CPUX86State *env, int i)
{
    floatx80 indef = { 0xc000000000000000ULL, 0xffff };

    ST(i) = indef;
    env->fptags[(env->fpstt + i) & 7] = 0;
}

uint32_t helper_x87_stack(CPUX86State *env, uint32_t kind, uint32_t sti,
                          target_ulong addr)
{
    uintptr_t ra = GETPC();
    int top, mem = (kind >> X87S_MEM_SHIFT) & 0xff;
    bool over, under;
    int n;

    x87_wait(env, ra);
    if (~env->fpuc & FPUC_EM) {
        x87_record(env, mem, addr, ra);
    }
    top = env->fpstt;
    over = (kind & X87S_PUSHES) && !env->fptags[(top - 1) & 7];
    under = ((kind & X87S_R0) && env->fptags[top]) ||
            ((kind & X87S_RI) && env->fptags[(top + sti) & 7]) ||
            ((kind & X87S_R1) && env->fptags[(top + 1) & 7]);

    if (!over && !under) {
        if (!(kind & X87S_KEEPC1)) {
            env->fpus &= ~0x200;
        }
        return 0;
    }
    if (mem) {
        static const int size[] = { 0, 2, 4, 8, 10, 4, 8, 10, 2, 4, 8, 10 };
        MMUAccessType t = mem <= X87M_R10 ? MMU_DATA_LOAD : MMU_DATA_STORE;

        /*
         * The operand is accessed first: its page fault comes before.  A
         * 10-byte store writes its low 8 bytes and then the last 2, as
         * the host does: only the first part is checked here.
         */
        x87_probe_plain(env, addr,
                        size[mem] == 10 && t == MMU_DATA_STORE ? 8 : size[mem],
                        t, ra);
    }
    /* C1: 1 for an overflow (not also an underflow) */
    env->fpus = (env->fpus & ~0x200) | (over && !under ? 0x200 : 0);
    if (kind & X87S_CLRC2) {
        env->fpus &= ~0x400;
    }
    set_float_exception_flags(get_float_exception_flags(&env->fp_status) |
                              float_flag_invalid, &env->fp_status);
    fpu_set_exception(env, FPUS_IE | FPUS_SF);
    if (!(env->fpuc & FPUS_IE)) {
        x87_last.stack_fault = x87_last.env == env;
        return 1;
    }
    switch (kind & 0xff) {
    case X87S_PUSH:
        fpush(env);
        x87_set_indef(env, 0);
        break;
    case X87S_ST0:
        x87_set_indef(env, 0);
        break;
    case X87S_STI:
        x87_set_indef(env, sti);
        break;
    case X87S_ST1:
        x87_set_indef(env, 1);
        break;
    case X87S_COM:
        env->fpus |= 0x4500;
        break;
    case X87S_COMI:
        CC_SRC = (cpu_cc_compute_all(env, CC_OP) & ~(CC_O | CC_S | CC_A)) |
                 CC_Z | CC_P | CC_C;
        break;
    case X87S_MEM:
        switch (mem) {
        case X87M_F32:
            cpu_stl_data_ra(env, addr, 0xffc00000, ra);
            break;
        case X87M_F64:
            cpu_stq_data_ra(env, addr, 0xfff8000000000000ULL, ra);
            break;
        case X87M_F80:
            cpu_stq_data_ra(env, addr, 0xc000000000000000ULL, ra);
            cpu_stw_data_ra(env, addr + 8, 0xffff, ra);
            break;
        case X87M_I16:
            cpu_stw_data_ra(env, addr, 0x8000, ra);
            break;
        case X87M_I32:
            cpu_stl_data_ra(env, addr, 0x80000000, ra);
            break;
        case X87M_I64:
            cpu_stq_data_ra(env, addr, 0x8000000000000000ULL, ra);
            break;
        case X87M_BCD:
            cpu_stq_data_ra(env, addr, 0xc000000000000000ULL, ra);
            cpu_stw_data_ra(env, addr + 8, 0xffff, ra);
            break;
        }
        break;
    case X87S_XCH: {
        floatx80 t;

        if (env->fptags[top]) {
            x87_set_indef(env, 0);
        }
        if (env->fptags[(top + sti) & 7]) {
            x87_set_indef(env, sti);
        }
        t = ST(sti);
        ST(sti) = ST0;
        ST0 = t;
        break;
    }
    case X87S_FCMOV:
        x87_set_indef(env, 0);
        break;
    case X87S_PUSH2:
        x87_set_indef(env, 0);
        fpush(env);
        x87_set_indef(env, 0);
        break;
    }
    n = (kind & X87S_POP2) ? 2 : (kind & X87S_POP1) ? 1 : 0;
    while (n--) {
        fpop(env);
    }
    return 1;
}

/* BCD ops */

void helper_fbld_ST0(CPUX86State *env, target_ulong ptr)
{
    floatx80 tmp;
    uint64_t val;
    unsigned int v;
    int i;

    /* pathvm: read as fld m80 reads (the low 8 bytes, then the last 2), so
       that an operand crossing into a page it cannot read faults at that
       page's first byte, as on the host */
    uint32_t hi;
    uint64_t lo = pathvm_ld80(env, ptr, &hi, GETPC());

    val = 0;
    for (i = 8; i >= 0; i--) {
        v = i == 8 ? hi & 0xff : (lo >> (i * 8)) & 0xff;
        val = (val * 100) + ((v >> 4) * 10) + (v & 0xf);
    }
    tmp = int64_to_floatx80(val, &env->fp_status);
    if (hi & 0x8000) {
        tmp = floatx80_chs(tmp);
    }
    fpush(env);
    ST0 = tmp;
}

/*
 * pathvm: fbstp.  The sign byte is the operand's sign (also for -0 and
 * values rounding to 0); NaNs, infinities and values of more than 18
 * digits store the BCD indefinite (0xffff c000 0000 0000 0000) with IE.
 */
void helper_fbst_ST0(CPUX86State *env, target_ulong ptr)
{
    floatx80 a = ST0;
    int64_t val = x87_to_int(env, a, 64, false);
    uint64_t lo = 0;
    uint16_t hi;
    int i;

    if (val == INT64_MIN || val >= 1000000000000000000LL ||
        val <= -1000000000000000000LL) {
        if (val != INT64_MIN) {
            int f = get_float_exception_flags(&env->fp_status);

            set_float_exception_flags(f | float_flag_invalid, &env->fp_status);
        }
        lo = 0xc000000000000000ULL;
        hi = 0xffff;
    } else {
        if (val < 0) {
            val = -val;
        }
        for (i = 0; i < 8; i++) {
            int v = val % 100;

            val /= 100;
            lo |= (uint64_t)(((v / 10) << 4) | (v % 10)) << (8 * i);
        }
        hi = (((val / 10) << 4) | (val % 10)) | ((a.high & 0x8000) ? 0x8000 : 0);
    }
    /*
     * The low eight bytes, then the last two, as the host stores them: a
     * page fault at the second leaves the first written.
     */
    pathvm_st80(env, ptr, lo, hi, GETPC());
}





/*
 * pathvm: fxtract with NaNs (both results the NaN, quieted), infinities
 * (exponent +inf), zeros (ZE, exponent -inf) and denormals (DE, normalised
 * significand, true exponent) handled.
 */
void helper_fxtract(CPUX86State *env)
{
    if (x87_unsupported(ST0)) {
        /* pathvm: an unsupported operand: IE, both results indefinite */
        floatx80 indef = { 0xc000000000000000ULL, 0xffff };

        float_raise(float_flag_invalid, &env->fp_status);
        ST0 = indef;
        fpush(env);
        ST0 = indef;
        return;
    }
    floatx80 a = ST0, sig, ex;
    uint64_t m = a.low;
    int e = a.high & 0x7fff;

    if (floatx80_is_any_nan(a)) {
        sig = ex = floatx80_add(a, a, &env->fp_status);
    } else if (e == 0x7fff) {
        sig = a;
        ex = floatx80_infinity;
    } else if (m == 0) {
        floatx80 one = { 0x8000000000000000LL, 0x3fff };
        floatx80 zero = { 0, 0 };

        ex = floatx80_div(floatx80_chs(one), zero, &env->fp_status);
        sig = a;
    } else {
        if (e == 0) {
            x87_den(env, a);
            e = 1;
        }
        while (!(m & 0x8000000000000000ULL)) {
            m <<= 1;
            e--;
        }
        ex = int32_to_floatx80(e - EXPBIAS, &env->fp_status);
        sig.low = m;
        sig.high = (a.high & 0x8000) | EXPBIAS;
    }
    ST0 = ex;
    fpush(env);
    ST0 = sig;
}

/*
 * pathvm: fprem and fprem1 computed exactly in integers (they were computed
 * in double precision).  The quotient's low bits go to C0 (q2), C3 (q1) and
 * C1 (q0); when the exponents differ by 64 or more only a partial remainder
 * is computed (C2 set), reducing by 2^(d - n) with n = 32 + (d % 32), so
 * that repeated executions converge.
 */
static void x87_unpack(floatx80 a, uint64_t *m, int *e)
{
    *m = a.low;
    *e = a.high & 0x7fff;
    if (*e == 0) {
        *e = 1;
    }
    while (*m && !(*m & 0x8000000000000000ULL)) {
        *m <<= 1;
        (*e)--;
    }
}

/*
 * pathvm: an exact result that is denormal, with UE unmasked: UE, and the
 * result normalized with its exponent raised by 24576 (fprem, fprem1, the
 * operands the transcendental instructions return).
 */
static floatx80 x87_tiny_exact(CPUX86State *env, floatx80 r)
{
    if ((r.high & 0x7fff) == 0 && r.low != 0 && !(env->fpuc & 0x10)) {
        int sh = clz64(r.low);

        float_raise(float_flag_underflow, &env->fp_status);
        r.low <<= sh;
        r.high = (r.high & 0x8000) | (uint16_t)(1 - sh + 24576);
    }
    return r;
}

static void x87_prem(CPUX86State *env, bool nearest)
{
    floatx80 a = ST0, b = ST1;
    uint64_t ma, mb, q = 0;
    unsigned __int128 r;
    int ea, eb, d, steps, i;
    bool sign = a.high & 0x8000;

    /* pathvm: a NaN or an unsupported operand clears C2 and C1 only */
    if (x87_bad2(env, a, b)) {
        env->fpus &= ~0x600;
        return;
    }
    if (floatx80_is_any_nan(a) || floatx80_is_any_nan(b)) {
        env->fpus &= ~0x600;
        ST0 = floatx80_add(a, b, &env->fp_status);
        return;
    }
    if ((a.high & 0x7fff) == 0x7fff || floatx80_is_zero(b)) {
        env->fpus &= ~0x600; /* pathvm: invalid: C3 and C0 are left */
        float_raise(float_flag_invalid, &env->fp_status);
        ST0 = floatx80_default_nan(&env->fp_status);
        return;
    }
    env->fpus &= ~0x4700; /* (C3,C2,C1,C0) <-- 0000 */
    x87_den2(env, a, b);
    a = x87_canon(a);
    b = x87_canon(b);
    if (floatx80_is_zero(a) || (b.high & 0x7fff) == 0x7fff) {
        ST0 = a;
        return;
    }
    x87_unpack(a, &ma, &ea);
    x87_unpack(b, &mb, &eb);
    d = ea - eb;
    if (d < 0) {
        if (nearest && d == -1 && ma > mb) {
            /* |a| in (|b|/2, |b|): a - sign(a) |b|, quotient 1 */
            r = ((unsigned __int128)mb << 1) - ma;
            sign = !sign;
            env->fpus |= 0x200;
            ST0 = x87_tiny_exact(env,
                                 normalizeRoundAndPackFloatx80(80, sign, ea,
                                                               (uint64_t)r, 0,
                                                               &env->fp_status));
        } else {
            ST0 = x87_tiny_exact(env, a);
        }
        return;
    }
    steps = d;
    if (d >= 64) {
        steps = 32 + (d % 32);
        env->fpus |= 0x400; /* C2: partial */
        nearest = false;    /* fprem1's partial remainder truncates too */
    }
    r = ma;
    for (i = 0; i <= steps; i++) {
        if (i) {
            r <<= 1;
        }
        q <<= 1;
        if (r >= mb) {
            r -= mb;
            q |= 1;
        }
    }
    if (nearest && ((r << 1) > mb || ((r << 1) == mb && (q & 1)))) {
        r = mb - r;
        q++;
        sign = !sign;
    }
    if (!(env->fpus & 0x400)) {
        env->fpus |= (q & 0x4) << (8 - 2);  /* (C0) <-- q2 */
        env->fpus |= (q & 0x2) << (14 - 1); /* (C3) <-- q1 */
        env->fpus |= (q & 0x1) << (9 - 0);  /* (C1) <-- q0 */
    }
    if (r == 0) {
        ST0.low = 0;
        ST0.high = (a.high & 0x8000);
        return;
    }
    /* r x 2^(exponent of b, or of a less the steps reduced) */
    ST0 = x87_tiny_exact(env,
                         normalizeRoundAndPackFloatx80(80, sign, ea - steps,
                                                       (uint64_t)r, 0,
                                                       &env->fp_status));
}

void helper_fprem1(CPUX86State *env)
{
    x87_prem(env, true);
}

void helper_fprem(CPUX86State *env)
{
    x87_prem(env, false);
}

/*
 * pathvm: the transcendental instructions (f2xm1, fyl2x, fyl2xp1, fptan,
 * fpatan, fsin, fcos, fsincos), computed in softfloat's float128 (a 113-bit
 * significand: series evaluated by Horner's scheme after exact argument
 * reductions) and rounded once to the 64-bit significand by the rounding
 * control.  The precision control does not apply to them (as on the
 * hardware).  No host libm: the results are the same on every machine.
 * fsin, fcos, fsincos and fptan reduce their argument by multiples of pi/2
 * taken from the hardware's 66-bit approximation of pi, exactly (integer
 * division), so that large arguments give the hardware's results.
 */
#define Q_ONE make_float128(0x3fff000000000000ULL, 0)
#define Q_PI make_float128(0x4000921fb54442d1ULL, 0x8469898cc51701b8ULL)
#define Q_PI2 make_float128(0x3fff921fb54442d1ULL, 0x8469898cc51701b8ULL)
#define Q_PI4 make_float128(0x3ffe921fb54442d1ULL, 0x8469898cc51701b8ULL)
#define Q_LN2 make_float128(0x3ffe62e42fefa39eULL, 0xf35793c7673007e6ULL)
#define Q_SQRT2 make_float128(0x3fff6a09e667f3bcULL, 0xc908b2fb1366ea95ULL)

static void q_init(float_status *q)
{
    memset(q, 0, sizeof(*q));
    q->float_rounding_mode = float_round_nearest_even;
    q->floatx80_rounding_precision = 80;
}

static inline float128 q_int(int n, float_status *q)
{
    return int32_to_float128(n, q);
}

static inline floatx80 x87_indef(void)
{
    floatx80 r = { 0xc000000000000000ULL, 0xffff };

    return r;
}

static inline floatx80 x87_inf(bool neg)
{
    floatx80 r = { 0x8000000000000000ULL, (uint16_t)((neg << 15) | 0x7fff) };

    return r;
}

static inline floatx80 x87_zero(bool neg)
{
    floatx80 r = { 0, (uint16_t)(neg << 15) };

    return r;
}

/*
 * v 2^-scale rounded to the 64-bit significand (flags into fp_status, C1
 * set when rounded away from zero).  dir says where the true value lies
 * when v is not exact: 1 a little further from zero than v (or unknown), -1
 * a little nearer, 0 v is exact.  A float128 overflow is an overflow.  An
 * overflow or underflow whose exception is unmasked gives the result with
 * its exponent lowered (overflow) or raised (underflow) by 24576, as the
 * arithmetic does (x87_biased).
 */
static floatx80 x87_t_round_s(CPUX86State *env, float128 v, int dir,
                               int scale)
{
    bool sign = v.high >> 63;
    int e = (v.high >> 48) & 0x7fff;
    uint64_t s0 = ((v.high & 0xffffffffffffULL) << 15) | (v.low >> 49);
    uint64_t s1 = v.low << 15;
    float_status z;
    floatx80 r, rz;
    int bias = 0;

    if (e == 0x7fff) {
        s0 = 0x8000000000000000ULL;
        s1 = 0;
        dir = 1;
    } else if (e == 0) {
        e = 1;
    } else {
        s0 |= 0x8000000000000000ULL;
    }
    if (s0 == 0 && s1 == 0) {
        if (dir == 0) {
            return x87_zero(sign);
        }
        dir = 1;
    }
    if (e != 0x7fff) {
        e -= scale;
    }
    if (dir > 0) {
        s1 |= 1;
    } else if (dir < 0) {
        if (s1 == 0) {
            s0--;
        }
        s1--;
    }
    if ((env->fpuc & 0x18) != 0x18 && (v.high >> 48 & 0x7fff) != 0x7fff) {
        /* OM or UM clear: would the result overflow or underflow? */
        z = env->fp_status;
        z.float_exception_flags = 0;
        normalizeRoundAndPackFloatx80(80, sign, e, s0, s1, &z);
        if ((z.float_exception_flags & float_flag_overflow) &&
            !(env->fpuc & 0x08)) {
            bias = -24576;
        } else if ((z.float_exception_flags & float_flag_underflow) &&
                   !(env->fpuc & 0x10)) {
            bias = 24576;
        }
        e += bias;
    }
    z = env->fp_status;
    z.float_rounding_mode = float_round_to_zero;
    r = normalizeRoundAndPackFloatx80(80, sign, e, s0, s1, &env->fp_status);
    rz = normalizeRoundAndPackFloatx80(80, sign, e, s0, s1, &z);
    if (r.low != rz.low || r.high != rz.high) {
        env->fpus |= 0x200;
    }
    if (bias) {
        float_raise(bias < 0 ? float_flag_overflow : float_flag_underflow,
                    &env->fp_status);
    }
    return r;
}

static floatx80 x87_t_round(CPUX86State *env, float128 v, int dir)
{
    return x87_t_round_s(env, v, dir, 0);
}

/*
 * A result the hardware flags inexact although it is the exact value (or
 * the operand returned as it is): PE, and UE for a denormal, which with UE
 * unmasked is returned normalized with its exponent raised by 24576.
 */
static floatx80 x87_t_inexact(CPUX86State *env, floatx80 r)
{
    float_raise(float_flag_inexact, &env->fp_status);
    if ((r.high & 0x7fff) == 0 && r.low != 0) {
        float_raise(float_flag_underflow, &env->fp_status);
    }
    return x87_tiny_exact(env, r);
}

/* sin(r) and cos(r) for |r| <= pi/4 */
static float128 q_sin(float128 r, float_status *q)
{
    float128 r2 = float128_mul(r, r, q), p = Q_ONE;
    int k;

    for (k = 18; k >= 1; k--) {
        p = float128_sub(Q_ONE,
                         float128_div(float128_mul(r2, p, q),
                                      q_int(2 * k * (2 * k + 1), q), q), q);
    }
    return float128_mul(r, p, q);
}

static float128 q_cos(float128 r, float_status *q)
{
    float128 r2 = float128_mul(r, r, q), p = Q_ONE;
    int k;

    for (k = 18; k >= 1; k--) {
        p = float128_sub(Q_ONE,
                         float128_div(float128_mul(r2, p, q),
                                      q_int((2 * k - 1) * 2 * k, q), q), q);
    }
    return p;
}

/* atan(z) for 0 <= z <= 1: three halvings, then the series */
static float128 q_atan(float128 z, float_status *q)
{
    float128 z2, p;
    int h = 0, k;

    if (((z.high >> 48) & 0x7fff) >= 0x3fff - 8) {
        for (; h < 3; h++) {
            float128 t = float128_add(Q_ONE, float128_mul(z, z, q), q);

            z = float128_div(z, float128_add(Q_ONE, float128_sqrt(t, q), q),
                             q);
        }
    }
    z2 = float128_mul(z, z, q);
    p = float128_div(Q_ONE, q_int(2 * 20 + 1, q), q);
    for (k = 19; k >= 0; k--) {
        float128 c = float128_div(Q_ONE, q_int(2 * k + 1, q), q);

        /* p_k = 1/(2k+1) - z2 p_(k+1): the alternating series */
        p = float128_sub(c, float128_mul(p, z2, q), q);
    }
    return float128_scalbn(float128_mul(z, p, q), h, q);
}

/* log2((1 + s) / (1 - s)) = 2 atanh(s) / ln 2, for |s| <= 0.18 */
static float128 q_l2atanh(float128 s, float_status *q)
{
    float128 s2 = float128_mul(s, s, q);
    float128 p = float128_div(Q_ONE, q_int(2 * 26 + 1, q), q);
    int k;

    for (k = 25; k >= 0; k--) {
        p = float128_add(float128_mul(p, s2, q),
                         float128_div(Q_ONE, q_int(2 * k + 1, q), q), q);
    }
    return float128_div(float128_scalbn(float128_mul(s, p, q), 1, q), Q_LN2,
                        q);
}

/* log2(f 2^E), 1 <= f < 2 */
static float128 q_log2(float128 f, int E, float_status *q)
{
    float128 s;

    if (float128_lt(Q_SQRT2, f, q)) {
        f.high -= 1ULL << 48;
        E++;
    }
    s = float128_div(float128_sub(f, Q_ONE, q), float128_add(f, Q_ONE, q), q);
    return float128_add(q_int(E, q), q_l2atanh(s, q), q);
}

/* e^t - 1 for |t| <= 0.7 */
static float128 q_expm1(float128 t, float_status *q)
{
    float128 p = Q_ONE;
    int k;

    for (k = 34; k >= 2; k--) {
        p = float128_add(Q_ONE, float128_div(float128_mul(t, p, q),
                                             q_int(k, q), q), q);
    }
    return float128_mul(t, p, q);
}

/*
 * x = k (pi66 / 2) + r exactly, |r| <= pi66 / 4, for a canonical finite
 * non-zero x with |x| < 2^63; r as a float128 (it has at most 66 bits),
 * k mod 4 in *quad.
 */
static float128 x87_reduce(floatx80 a, int *quad, float_status *q)
{
    const unsigned __int128 M =
        ((unsigned __int128)0x3 << 64) | 0x243f6a8885a308d3ULL;
    unsigned __int128 n, k, rem, f;
    bool neg = a.high & 0x8000, rneg = false;
    uint64_t m, hi;
    int e, s, p;

    x87_unpack(a, &m, &e);
    s = e - 16383 - 63 + 65;
    if (s < 0) {
        *quad = 0;
        return floatx80_to_float128(a, q); /* |x| < 1/4 */
    }
    n = (unsigned __int128)m << s;
    k = n / M;
    rem = n % M;
    if (rem * 2 > M) {
        rem = M - rem;
        k++;
        rneg = true;
    }
    *quad = neg ? (int)((4 - (k & 3)) & 3) : (int)(k & 3);
    if (rem == 0) {
        return float128_zero;
    }
    for (p = 65; !((rem >> p) & 1); p--) {
    }
    f = rem << (112 - p);
    hi = ((uint64_t)(f >> 64) & 0xffffffffffffULL) |
         ((uint64_t)(16383 + p - 65) << 48) | ((uint64_t)(neg ^ rneg) << 63);
    return make_float128(hi, (uint64_t)f);
}

enum { T_SIN, T_COS, T_TAN, T_SINCOS };

/* the function of x = k (pi66 / 2) + r */
static floatx80 x87_trig(CPUX86State *env, int fn, float128 r, int quad,
                         float_status *q)
{
    float128 v;
    int dir = -1;

    if (fn == T_COS) {
        quad++; /* cos x = sin(x + pi/2) */
    }
    quad &= 3;
    if (fn == T_TAN) {
        float128 s = q_sin(r, q), c = q_cos(r, q);

        if (quad & 1) {
            v = float128_chs(float128_div(c, s, q));
        } else {
            v = float128_div(s, c, q);
            dir = 1;
        }
    } else {
        v = (quad & 1) ? q_cos(r, q) : q_sin(r, q);
        if (quad & 2) {
            v = float128_chs(v);
        }
    }
    return x87_t_round(env, v, dir);
}

/*
 * fsin, fcos, fptan, fsincos: NaNs propagated, infinities and unsupported
 * operands invalid (the indefinite), zeros exact, |x| >= 2^63 out of range
 * (C2 set, the operand left), denormals DE; below 2^-68 the sine and the
 * tangent are the operand and the cosine 1 (inexact).  fptan pushes 1 (a NaN operand:
 * the NaN), fsincos pushes the cosine.
 */
static void x87_trig_op(CPUX86State *env, int fn)
{
    floatx80 a = ST0, r1, r2;
    floatx80 one = { 0x8000000000000000ULL, 0x3fff };
    float_status q;
    float128 r;
    int quad;

    q_init(&q);
    env->fpus &= ~0x600;
    if (x87_unsupported(a) ||
        ((a.high & 0x7fff) == 0x7fff && !floatx80_is_any_nan(a))) {
        float_raise(float_flag_invalid, &env->fp_status);
        r1 = r2 = x87_indef();
    } else if (floatx80_is_any_nan(a)) {
        r1 = r2 = floatx80_add(a, a, &env->fp_status);
    } else if ((a.high & 0x7fff) >= 16383 + 63) {
        env->fpus |= 0x400;
        return;
    } else if (floatx80_is_zero(a)) {
        r1 = fn == T_COS ? one : a;
        r2 = one;
    } else if ((a.high & 0x7fff) < 16383 - 68) {
        /* |x| < 2^-68: x (cos: 1), inexact, as the hardware returns them */
        x87_den(env, a);
        a = x87_canon(a);
        r1 = x87_t_inexact(env, fn == T_COS ? one : a);
        r2 = one;
    } else {
        x87_den(env, a);
        a = x87_canon(a);
        r = x87_reduce(a, &quad, &q);
        r1 = x87_trig(env, fn == T_SINCOS ? T_SIN : fn, r, quad, &q);
        r2 = fn == T_SINCOS ? x87_trig(env, T_COS, r, quad, &q) : one;
    }
    ST0 = r1;
    if (fn == T_TAN || fn == T_SINCOS) {
        fpush(env);
        ST0 = r2;
    }
}

void helper_fsin(CPUX86State *env)
{
    x87_trig_op(env, T_SIN);
}

void helper_fcos(CPUX86State *env)
{
    x87_trig_op(env, T_COS);
}

void helper_fptan(CPUX86State *env)
{
    x87_trig_op(env, T_TAN);
}

void helper_fsincos(CPUX86State *env)
{
    x87_trig_op(env, T_SINCOS);
}

/* a finite non-zero canonical x87 value as f 2^E, 1 <= f < 2 */
static float128 x87_frac(floatx80 a, int *E, bool *pow2)
{
    uint64_t m;
    int e;

    x87_unpack(a, &m, &e);
    *E = e - 16383;
    *pow2 = m == 0x8000000000000000ULL;
    return make_float128((0x3fffULL << 48) | ((m << 1) >> 16), (m << 1) << 48);
}

/*
 * fpatan: ST1 <- atan(ST1 / ST0) in the quadrant of (ST0, ST1), popped;
 * the signed zeros and infinities as the manuals' table says.
 */
void helper_fpatan(CPUX86State *env)
{
    floatx80 x = ST0, y = ST1, res;
    bool xs = x.high & 0x8000, ys = y.high & 0x8000;
    float_status q;

    q_init(&q);
    env->fpus &= ~0x200;
    if (x87_unsupported(x) || x87_unsupported(y)) {
        float_raise(float_flag_invalid, &env->fp_status);
        res = x87_indef();
    } else if (floatx80_is_any_nan(x) || floatx80_is_any_nan(y)) {
        res = floatx80_add(x, y, &env->fp_status);
    } else {
        bool xi = (x.high & 0x7fff) == 0x7fff, yi = (y.high & 0x7fff) == 0x7fff;
        float128 v;
        int dir = 1, scale = 0;
        bool pe = false;

        x87_den2(env, x, y);
        x = x87_canon(x);
        y = x87_canon(y);
        if (floatx80_is_zero(y) || (xi && !yi && !xs)) {
            v = xs ? Q_PI : float128_zero;
            dir = xs;
        } else if (yi) {
            v = !xi ? Q_PI2 : xs ? float128_mul(Q_PI4, q_int(3, &q), &q)
                                 : Q_PI4;
        } else if (xi) {
            v = Q_PI;
        } else if (floatx80_is_zero(x)) {
            v = Q_PI2;
        } else {
            float128 ax = float128_abs(floatx80_to_float128(x, &q));
            float128 ay = float128_abs(floatx80_to_float128(y, &q));

            if (float128_le(ay, ax, &q)) {
                float_status zq = q;
                float128 z, zf;
                int Ex, Ey;
                bool p2;

                /* the ratio of the significands, so that a tiny one keeps
                   its bits: |y / x| = zf 2^(Ey - Ex) */
                zq.float_exception_flags = 0;
                zf = float128_div(x87_frac(y, &Ey, &p2), x87_frac(x, &Ex, &p2),
                                  &zq);
                z = float128_div(ay, ax, &q);
                if (!xs && (int)((zf.high >> 48) & 0x7fff) - 0x3fff + Ey - Ex <
                               -40) {
                    /* below 2^-40 the hardware returns the ratio rounded */
                    v = zf;
                    scale = Ex - Ey;
                    dir = !!(zq.float_exception_flags & float_flag_inexact);
                    pe = dir == 0;
                } else {
                    v = q_atan(z, &q);
                    dir = xs ? 1 : -1;
                }
            } else {
                v = float128_sub(Q_PI2, q_atan(float128_div(ax, ay, &q), &q),
                                 &q);
            }
            if (xs) {
                v = float128_sub(Q_PI, v, &q);
            }
        }
        if (ys) {
            v = float128_chs(v);
        }
        res = x87_t_round_s(env, v, dir, scale);
        if (pe) {
            res = x87_t_inexact(env, res);
        }
    }
    ST1 = res;
    fpop(env);
}

/*
 * fyl2x (ST1 <- ST1 log2(ST0)) and fyl2xp1 (ST1 <- ST1 log2(ST0 + 1)),
 * popped: a negative argument of the logarithm invalid (no DE), log2(0) =
 * -inf (ZE for a finite non-zero ST1), 0 x inf invalid.
 */
static void x87_log_op(CPUX86State *env, bool p1)
{
    floatx80 x = ST0, y = ST1, res;
    bool xs = x.high & 0x8000, ys = y.high & 0x8000;
    float_status q;

    q_init(&q);
    env->fpus &= ~0x200;
    if (x87_unsupported(x) || x87_unsupported(y)) {
        float_raise(float_flag_invalid, &env->fp_status);
        res = x87_indef();
    } else if (floatx80_is_any_nan(x) || floatx80_is_any_nan(y)) {
        res = floatx80_add(x, y, &env->fp_status);
    } else {
        bool xi = (x.high & 0x7fff) == 0x7fff, yi = (y.high & 0x7fff) == 0x7fff;
        bool xz, yz, exact = false, lneg;
        floatx80 m1 = { 0x8000000000000000ULL, 0xbfff };
        float128 L, f;
        int E, cmp = 1, sc = 0;

        x = x87_canon(x);
        y = x87_canon(y);
        xz = floatx80_is_zero(x);
        yz = floatx80_is_zero(y);
        if (p1 && xs && !xz) {
            /* the argument of the logarithm against 0: 1 + x vs 0 */
            cmp = floatx80_compare_quiet(m1, x, &q) == float_relation_less
                      ? 1 : floatx80_compare_quiet(m1, x, &q) ==
                                float_relation_equal ? 0 : -1;
        } else if (!p1) {
            cmp = xz ? 0 : xs ? -1 : 1;
        }
        if (cmp < 0 && (!p1 || xi)) {
            /* a negative logarithm's argument: IE (no DE) */
            float_raise(float_flag_invalid, &env->fp_status);
            res = x87_indef();
            goto done;
        }
        if (p1 || cmp != 0) {
            x87_den2(env, ST0, ST1); /* log2(0): ZE without DE */
        }
        if (p1 && cmp <= 0) {
            /*
             * fyl2xp1 with a finite x <= -1 (outside its domain): the
             * hardware returns x (inexact), or -y for a zero or infinite y.
             */
            if (yz || yi) {
                res = y;
                res.high ^= 0x8000;
            } else {
                res = x87_t_inexact(env, x);
            }
            goto done;
        }
        if (cmp == 0) {
            if (yz) {
                float_raise(float_flag_invalid, &env->fp_status);
                res = x87_indef();
            } else {
                if (!yi) {
                    float_raise(float_flag_divbyzero, &env->fp_status);
                }
                res = x87_inf(!ys);
            }
            goto done;
        }
        if (xi) {
            if (yz) {
                float_raise(float_flag_invalid, &env->fp_status);
                res = x87_indef();
            } else {
                res = x87_inf(ys);
            }
            goto done;
        }
        if (p1 ? xz : (x.high == 0x3fff && x.low == 0x8000000000000000ULL)) {
            /* log2(1) = 0 (fyl2xp1: the sign of x) */
            if (yi) {
                float_raise(float_flag_invalid, &env->fp_status);
                res = x87_indef();
            } else {
                res = x87_zero(ys ^ (p1 && xs));
            }
            goto done;
        }
        if (!p1) {
            bool pow2;

            f = x87_frac(x, &E, &pow2);
            L = q_log2(f, E, &q);
            exact = pow2;
            lneg = E < 0;
        } else if ((x.high & 0x7fff) < 0x3ffd) {
            /* |x| < 1/4: log2(1 + x) = 2 atanh(x / (2 + x)) / ln 2 */
            float128 xq = floatx80_to_float128(x, &q);
            float128 xsc = xq;

            if ((x.high & 0x7fff) < 0x100) {
                /* scaled out of float128's subnormals (ST1 may be huge) */
                sc = 256;
                xsc = float128_scalbn(xq, sc, &q);
            }
            L = q_l2atanh(float128_div(xsc, float128_add(q_int(2, &q), xq, &q),
                                       &q), &q);
            lneg = xs;
        } else {
            float128 w = float128_add(Q_ONE, floatx80_to_float128(x, &q), &q);

            E = (int)((w.high >> 48) & 0x7fff) - 16383;
            f = make_float128((w.high & 0xffffffffffffULL) | (0x3fffULL << 48),
                              w.low);
            L = q_log2(f, E, &q);
            lneg = xs;
        }
        if (yz || yi) {
            res = yz ? x87_zero(ys ^ lneg) : x87_inf(ys ^ lneg);
        } else {
            /*
             * A power of two: the hardware flags the exact product inexact
             * and, below 1, rounds it as if log2 were a little above E.
             */
            int dir = !exact ? 1 : E < 0 ? -1 : 0;

            /* y as f 2^Ey, so that the product is a normal float128 */
            int Ey;
            bool yp2;
            float128 v = float128_mul(x87_frac(y, &Ey, &yp2), L, &q);

            res = x87_t_round_s(env, ys ? float128_chs(v) : v, dir, sc - Ey);
            if (dir == 0) {
                res = x87_t_inexact(env, res);
            }
        }
    }
done:
    ST1 = res;
    fpop(env);
}

void helper_fyl2x(CPUX86State *env)
{
    x87_log_op(env, false);
}

void helper_fyl2xp1(CPUX86State *env)
{
    x87_log_op(env, true);
}

/*
 * f2xm1: 2^x - 1, defined for |x| <= 1; outside, the operand is left
 * (inexact), as the hardware does; +inf gives +inf, -inf gives -1.
 */
void helper_f2xm1(CPUX86State *env)
{
    floatx80 a = ST0, res;
    float_status q;

    q_init(&q);
    env->fpus &= ~0x200;
    if (x87_unsupported(a)) {
        float_raise(float_flag_invalid, &env->fp_status);
        res = x87_indef();
    } else if (floatx80_is_any_nan(a)) {
        res = floatx80_add(a, a, &env->fp_status);
    } else if (floatx80_is_zero(a)) {
        res = a;
    } else if ((a.high & 0x7fff) == 0x7fff) {
        floatx80 m1 = { 0x8000000000000000ULL, 0xbfff };

        res = (a.high & 0x8000) ? m1 : a;
    } else {
        float128 x, v;
        int dir = 1, scale = 0;

        x87_den(env, a);
        a = x87_canon(a);
        x = floatx80_to_float128(a, &q);
        if ((a.high & 0x7fff) >= 0x3fff &&
            ((a.high & 0x7fff) > 0x3fff || a.low != 0x8000000000000000ULL)) {
            /* |x| > 1: the hardware leaves the operand (inexact) */
            ST0 = x87_t_inexact(env, a);
            return;
        }
        if ((a.high & 0x7fff) == 0x3fff) {
            /* 2^1 - 1 = 1, 2^-1 - 1 = -1/2 */
            v = (a.high & 0x8000) ? make_float128(0xbffe000000000000ULL, 0)
                                  : Q_ONE;
            dir = 0;
        } else if ((a.high & 0x7fff) < 0x3fff - 120) {
            /* 2^x - 1 = x ln 2 (1 + x ln 2 / 2 ...): x ln 2 to float128's
               precision, x as f 2^E so that a tiny one keeps its bits */
            int E;
            bool p2;

            v = float128_mul(x87_frac(a, &E, &p2), Q_LN2, &q);
            v = (a.high & 0x8000) ? float128_chs(v) : v;
            scale = -E;
        } else {
            v = q_expm1(float128_mul(x, Q_LN2, &q), &q);
        }
        res = x87_t_round_s(env, v, dir, scale);
        if (dir == 0) {
            res = x87_t_inexact(env, res);
        }
    }
    ST0 = res;
}


void helper_fsqrt(CPUX86State *env)
{
    ST0 = x87_arith(env, X87_SQRT, ST0, ST0);
}


void helper_frndint(CPUX86State *env)
{
    ST0 = x87_arith(env, X87_RNDINT, ST0, ST0);
}

/*
 * pathvm: fscale with NaNs propagated by the x87 rules, infinite scales
 * (0 x 2^+inf and inf x 2^-inf invalid) and huge finite ones (no spurious
 * IE from the conversion of ST1) handled.
 */
void helper_fscale(CPUX86State *env)
{
    floatx80 a = ST0, b = ST1;

    if (x87_bad2(env, a, b)) {
        env->fpus &= ~0x200;
    } else if (floatx80_is_any_nan(a) || floatx80_is_any_nan(b)) {
        ST0 = floatx80_add(a, b, &env->fp_status);
    } else if ((b.high & 0x7fff) == 0x7fff) {
        bool neg = b.high & 0x8000;

        x87_den(env, a);
        if (neg ? (a.high & 0x7fff) == 0x7fff : floatx80_is_zero(a)) {
            float_raise(float_flag_invalid, &env->fp_status);
            ST0 = floatx80_default_nan(&env->fp_status);
        } else if (!floatx80_is_zero(a) && (a.high & 0x7fff) != 0x7fff) {
            ST0.low = neg ? 0 : 0x8000000000000000ULL;
            ST0.high = (a.high & 0x8000) | (neg ? 0 : 0x7fff);
        }
    } else {
        int eb = b.high & 0x7fff;
        int n;

        if (eb >= EXPBIAS + 30) {
            n = (b.high & 0x8000) ? -(1 << 30) : (1 << 30);
        } else if (eb < EXPBIAS) {
            n = 0;
        } else {
            n = (int)(b.low >> (63 - (eb - EXPBIAS)));
            if (b.high & 0x8000) {
                n = -n;
            }
        }
        ST0 = x87_arith_n(env, X87_SCALE, a, b, n);
    }
}



void helper_fxam_ST0(CPUX86State *env)
{
    CPU_LDoubleU temp;
    int expdif;

    x87_wait(env, GETPC());
    temp.d = ST0;

    env->fpus &= ~0x4700; /* (C3,C2,C1,C0) <-- 0000 */
    if (SIGND(temp)) {
        env->fpus |= 0x200; /* C1 <-- 1 */
    }

    if (env->fptags[env->fpstt]) {
        env->fpus |= 0x4100; /* Empty */
        return;
    }

    expdif = EXPD(temp);
    if (x87_unsupported(ST0)) {
        return; /* pathvm: unsupported format: C3, C2, C0 = 000 */
    }
    if (expdif == MAXEXPD) {
        if (MANTD(temp) == 0x8000000000000000ULL) {
            env->fpus |= 0x500; /* Infinity */
        } else {
            env->fpus |= 0x100; /* NaN */
        }
    } else if (expdif == 0) {
        if (MANTD(temp) == 0) {
            env->fpus |=  0x4000; /* Zero */
        } else {
            env->fpus |= 0x4400; /* Denormal */
        }
    } else {
        env->fpus |= 0x400;
    }
}

/*
 * pathvm: the environment and state images (fnstenv, fldenv, fnsave,
 * frstor, fxsave, fxrstor) are checked whole before anything is read or
 * written, in the order the hardware reports their page faults: the first
 * field (the control word: 2 bytes in the 16-bit images, 4 in the others;
 * a fault at the first byte of the next page when it crosses), then the
 * last byte (a fault at that byte).
 */
static void x87_probe_image(CPUX86State *env, target_ulong ptr, int size,
                            MMUAccessType t, uintptr_t ra)
{
    int idx = cpu_mmu_index(env, false);

    x87_probe_plain(env, ptr, size == 14 || size == 94 ? 2 : 4, t, ra);
    probe_access(env, ptr + size - 1, 1, t, idx, ra);
}

/* pathvm: ES and B say whether an unmasked exception is pending. */
static void x87_set_es(CPUX86State *env)
{
    env->fpus &= ~(FPUS_SE | FPUS_B);
    if (env->fpus & ~env->fpuc & 0x3f) {
        env->fpus |= FPUS_SE | FPUS_B;
    }
}

static void do_fstenv(CPUX86State *env, target_ulong ptr, int data32,
                      uintptr_t retaddr)
{
    int fpus, fptag, exp, i;
    uint64_t mant;
    CPU_LDoubleU tmp;

    x87_sync(env, true);
    fpus = (env->fpus & ~0x3800) | (env->fpstt & 0x7) << 11;
    fptag = 0;
    for (i = 7; i >= 0; i--) {
        fptag <<= 2;
        if (env->fptags[i]) {
            fptag |= 3;
        } else {
            tmp.d = env->fpregs[i].d;
            exp = EXPD(tmp);
            mant = MANTD(tmp);
            if (exp == 0 && mant == 0) {
                /* zero */
                fptag |= 1;
            } else if (exp == 0 || exp == MAXEXPD
                       || (mant & (1ULL << 63)) == 0) {
                /* NaNs, infinity, denormal */
                fptag |= 2;
            }
        }
    }

    if (data32) {
        /* 32 bit */
        /* pathvm: the reserved upper halves are ones, as the host has them */
        cpu_stl_data_ra(env, ptr, env->fpuc | 0xffff0000, retaddr);
        cpu_stl_data_ra(env, ptr + 4, fpus | 0xffff0000, retaddr);
        cpu_stl_data_ra(env, ptr + 8, fptag | 0xffff0000, retaddr);
        /*
         * pathvm: FIP, FOP (bits 16-26 above FCS) and FDP; FCS and FDS
         * are 0 (deprecated, CPUID.7.0:EBX[13])
         */
        cpu_stl_data_ra(env, ptr + 12, env->fpip, retaddr); /* fpip */
        cpu_stl_data_ra(env, ptr + 16, (env->fpop & 0x7ff) << 16, retaddr);
        cpu_stl_data_ra(env, ptr + 20, env->fpdp, retaddr); /* fpoo */
        cpu_stl_data_ra(env, ptr + 24, 0xffff0000, retaddr);
    } else {
        /* 16 bit */
        cpu_stw_data_ra(env, ptr, env->fpuc, retaddr);
        cpu_stw_data_ra(env, ptr + 2, fpus, retaddr);
        cpu_stw_data_ra(env, ptr + 4, fptag, retaddr);
        cpu_stw_data_ra(env, ptr + 6, env->fpip, retaddr);
        cpu_stw_data_ra(env, ptr + 8, 0, retaddr);
        cpu_stw_data_ra(env, ptr + 10, env->fpdp, retaddr);
        cpu_stw_data_ra(env, ptr + 12, 0, retaddr);
    }
}

void helper_fstenv(CPUX86State *env, target_ulong ptr, int data32)
{
    x87_probe_image(env, ptr, 14 << data32, MMU_DATA_STORE, GETPC());
    do_fstenv(env, ptr, data32, GETPC());
    /* pathvm: then every exception is masked (nothing pending), as the
       manuals and the host have it */
    cpu_set_fpuc(env, env->fpuc | FPUC_EM);
    x87_set_es(env);
}

static void cpu_set_fpus(CPUX86State *env, uint16_t fpus)
{
    env->fpstt = (fpus >> 11) & 7;
    env->fpus = fpus & ~0x3800 & ~FPUS_B;
    env->fpus |= env->fpus & FPUS_SE ? FPUS_B : 0;
    pathvm_fpus_loaded(env);
    if (!(env->fpus & FPUS_SE)) {
        /*
         * Here the processor deasserts FERR#; in response, the chipset deasserts
         * IGNNE#.
         */
        cpu_clear_ignne(env);
    }
}

static void do_fldenv(CPUX86State *env, target_ulong ptr, int data32,
                      uintptr_t retaddr)
{
    int i, fpuc, fpus, fptag;

    /* pathvm: the whole image is read before anything changes */
    x87_probe_image(env, ptr, 14 << data32, MMU_DATA_LOAD, retaddr);
    if (data32) {
        fpuc = cpu_lduw_data_ra(env, ptr, retaddr);
        fpus = cpu_lduw_data_ra(env, ptr + 4, retaddr);
        fptag = cpu_lduw_data_ra(env, ptr + 8, retaddr);
        /* pathvm: FIP, FOP and FDP (zero-extended; FCS and FDS ignored) */
        env->fpip = cpu_ldl_data_ra(env, ptr + 12, retaddr);
        env->fpop = cpu_lduw_data_ra(env, ptr + 18, retaddr) & 0x7ff;
        env->fpdp = cpu_ldl_data_ra(env, ptr + 20, retaddr);
    } else {
        fpuc = cpu_lduw_data_ra(env, ptr, retaddr);
        fpus = cpu_lduw_data_ra(env, ptr + 2, retaddr);
        fptag = cpu_lduw_data_ra(env, ptr + 4, retaddr);
        /* pathvm: the 16-bit image has no FOP: it is cleared */
        env->fpip = cpu_lduw_data_ra(env, ptr + 6, retaddr);
        env->fpop = 0;
        env->fpdp = cpu_lduw_data_ra(env, ptr + 10, retaddr);
    }
    cpu_set_fpuc(env, x87_fcw(fpuc));
    cpu_set_fpus(env, fpus);
    x87_set_es(env);
    for (i = 0; i < 8; i++) {
        env->fptags[i] = ((fptag & 3) == 3);
        fptag >>= 2;
    }
}

void helper_fldenv(CPUX86State *env, target_ulong ptr, int data32)
{
    do_fldenv(env, ptr, data32, GETPC());
}

void helper_fsave(CPUX86State *env, target_ulong ptr, int data32)
{
    floatx80 tmp;
    int i;

    x87_probe_image(env, ptr, data32 ? 108 : 94, MMU_DATA_STORE, GETPC());
    do_fstenv(env, ptr, data32, GETPC());

    ptr += (14 << data32);
    for (i = 0; i < 8; i++) {
        tmp = ST(i);
        helper_fstt(env, tmp, ptr, GETPC());
        ptr += 10;
    }

    do_fninit(env);
}

void helper_frstor(CPUX86State *env, target_ulong ptr, int data32)
{
    floatx80 tmp[8];
    target_ulong p = ptr + (14 << data32);
    int i;

    /* pathvm: the whole image is read before anything changes */
    x87_probe_image(env, ptr, data32 ? 108 : 94, MMU_DATA_LOAD, GETPC());
    for (i = 0; i < 8; i++) {
        tmp[i] = helper_fldt(env, p, GETPC());
        p += 10;
    }
    do_fldenv(env, ptr, data32, GETPC());
    for (i = 0; i < 8; i++) {
        ST(i) = tmp[i];
    }
}

#define XO(X)  offsetof(X86XSaveArea, X)

/*
 * pathvm: the legacy image's x87 part.  w64: the 64-bit layout (FXSAVE64,
 * REX.W: 64-bit FIP and FDP) or the 32-bit one (FIP and FDP as offsets,
 * each followed by its selector and a reserved word; the selectors are 0,
 * as CPUID.7.0:EBX[13] says).  FOP is stored with the other fields; the
 * six bytes after each register are written as zeros, as the host does.
 */
static void do_xsave_fpu_layout(CPUX86State *env, target_ulong ptr,
                                uintptr_t ra, bool w64)
{
    int fpus, fptag, i;
    target_ulong addr;

    x87_sync(env, true);
    fpus = (env->fpus & ~0x3800) | (env->fpstt & 0x7) << 11;
    fptag = 0;
    for (i = 0; i < 8; i++) {
        fptag |= (env->fptags[i] << i);
    }

    cpu_stw_data_ra(env, ptr + XO(legacy.fcw), env->fpuc, ra);
    cpu_stw_data_ra(env, ptr + XO(legacy.fsw), fpus, ra);
    cpu_stw_data_ra(env, ptr + XO(legacy.ftw), fptag ^ 0xff, ra);
    cpu_stw_data_ra(env, ptr + XO(legacy.fpop), env->fpop & 0x7ff, ra);

    if (w64) {
        cpu_stq_data_ra(env, ptr + XO(legacy.fpip), env->fpip, ra);
        cpu_stq_data_ra(env, ptr + XO(legacy.fpdp), env->fpdp, ra);
    } else {
        cpu_stq_data_ra(env, ptr + XO(legacy.fpip), (uint32_t)env->fpip, ra);
        cpu_stq_data_ra(env, ptr + XO(legacy.fpdp), (uint32_t)env->fpdp, ra);
    }

    addr = ptr + XO(legacy.fpregs);
    for (i = 0; i < 8; i++) {
        floatx80 tmp = ST(i);
        helper_fstt(env, tmp, addr, ra);
        cpu_stw_data_ra(env, addr + 10, 0, ra);
        cpu_stl_data_ra(env, addr + 12, 0, ra);
        addr += 16;
    }
}

static void do_xsave_fpu(CPUX86State *env, target_ulong ptr, uintptr_t ra)
{
    do_xsave_fpu_layout(env, ptr, ra, true);
}

static void do_xsave_mxcsr(CPUX86State *env, target_ulong ptr, uintptr_t ra)
{
    cpu_stl_data_ra(env, ptr + XO(legacy.mxcsr), env->mxcsr, ra);
    cpu_stl_data_ra(env, ptr + XO(legacy.mxcsr_mask), 0x0000ffff, ra);
}

static void do_xsave_sse(CPUX86State *env, target_ulong ptr, uintptr_t ra)
{
    int i, nb_xmm_regs;
    target_ulong addr;

    if (env->hflags & HF_CS64_MASK) {
        nb_xmm_regs = 16;
    } else {
        nb_xmm_regs = 8;
    }

    addr = ptr + XO(legacy.xmm_regs);
    for (i = 0; i < nb_xmm_regs; i++) {
        cpu_stq_data_ra(env, addr, env->xmm_regs[i].ZMM_Q(0), ra);
        cpu_stq_data_ra(env, addr + 8, env->xmm_regs[i].ZMM_Q(1), ra);
        addr += 16;
    }
}

/* pathvm: the AVX component, the upper halves of YMM0-15. */
static void do_xsave_ymmh(CPUX86State *env, target_ulong ptr, uintptr_t ra)
{
    int i;

    for (i = 0; i < 16; i++, ptr += 16) {
        cpu_stq_data_ra(env, ptr, env->xmm_regs[i].ZMM_Q(2), ra);
        cpu_stq_data_ra(env, ptr + 8, env->xmm_regs[i].ZMM_Q(3), ra);
    }
}

static void do_xsave_bndregs(CPUX86State *env, target_ulong ptr, uintptr_t ra)
{
    target_ulong addr = ptr + offsetof(XSaveBNDREG, bnd_regs);
    int i;

    for (i = 0; i < 4; i++, addr += 16) {
        cpu_stq_data_ra(env, addr, env->bnd_regs[i].lb, ra);
        cpu_stq_data_ra(env, addr + 8, env->bnd_regs[i].ub, ra);
    }
}

static void do_xsave_bndcsr(CPUX86State *env, target_ulong ptr, uintptr_t ra)
{
    cpu_stq_data_ra(env, ptr + offsetof(XSaveBNDCSR, bndcsr.cfgu),
                    env->bndcs_regs.cfgu, ra);
    cpu_stq_data_ra(env, ptr + offsetof(XSaveBNDCSR, bndcsr.sts),
                    env->bndcs_regs.sts, ra);
}

static void do_xsave_pkru(CPUX86State *env, target_ulong ptr, uintptr_t ra)
{
    cpu_stq_data_ra(env, ptr, env->pkru, ra);
}

void helper_fxsave(CPUX86State *env, target_ulong ptr, uint32_t w64)
{
    uintptr_t ra = GETPC();

    /* The operand must be 16 byte aligned */
    if (ptr & 0xf) {
        raise_exception_ra(env, EXCP0D_GPF, ra);
    }

    /* pathvm: nothing is written unless all of it can be */
    x87_probe_image(env, ptr, 512, MMU_DATA_STORE, ra);
    do_xsave_fpu_layout(env, ptr, ra, w64);

    if (env->cr[4] & CR4_OSFXSR_MASK) {
        do_xsave_mxcsr(env, ptr, ra);
        /* Fast FXSAVE leaves out the XMM registers */
        if (!(env->efer & MSR_EFER_FFXSR)
            || (env->hflags & HF_CPL_MASK)
            || !(env->hflags & HF_LMA_MASK)) {
            do_xsave_sse(env, ptr, ra);
        }
    }
}

static uint64_t get_xinuse(CPUX86State *env)
{
    uint64_t inuse = -1;

    /* For the most part, we don't track XINUSE.  We could calculate it
       here for all components, but it's probably less work to simply
       indicate in use.  That said, the state of BNDREGS is important
       enough to track in HFLAGS, so we might as well use that here.  */
    if ((env->hflags & HF_MPX_IU_MASK) == 0) {
       inuse &= ~XSTATE_BNDREGS_MASK;
    }
    return inuse;
}

static void do_xsave(CPUX86State *env, target_ulong ptr, uint64_t rfbm,
                     uint64_t inuse, uint64_t opt, uintptr_t ra)
{
    uint64_t old_bv, new_bv;

    /* The OS must have enabled XSAVE.  */
    if (!(env->cr[4] & CR4_OSXSAVE_MASK)) {
        raise_exception_ra(env, EXCP06_ILLOP, ra);
    }

    /* The operand must be 64 byte aligned.  */
    if (ptr & 63) {
        raise_exception_ra(env, EXCP0D_GPF, ra);
    }

    /* Never save anything not enabled by XCR0.  */
    rfbm &= env->xcr0;
    opt &= rfbm;

    if (opt & XSTATE_FP_MASK) {
        do_xsave_fpu(env, ptr, ra);
    }
    if (rfbm & XSTATE_SSE_MASK) {
        /* Note that saving MXCSR is not suppressed by XSAVEOPT.  */
        do_xsave_mxcsr(env, ptr, ra);
    }
    if (opt & XSTATE_SSE_MASK) {
        do_xsave_sse(env, ptr, ra);
    }
    if (opt & XSTATE_YMM_MASK) {
        do_xsave_ymmh(env, ptr + XO(avx_state), ra);
    }
    if (opt & XSTATE_BNDREGS_MASK) {
        do_xsave_bndregs(env, ptr + XO(bndreg_state), ra);
    }
    if (opt & XSTATE_BNDCSR_MASK) {
        do_xsave_bndcsr(env, ptr + XO(bndcsr_state), ra);
    }
    if (opt & XSTATE_PKRU_MASK) {
        do_xsave_pkru(env, ptr + XO(pkru_state), ra);
    }

    /* Update the XSTATE_BV field.  */
    old_bv = cpu_ldq_data_ra(env, ptr + XO(header.xstate_bv), ra);
    new_bv = (old_bv & ~rfbm) | (inuse & rfbm);
    cpu_stq_data_ra(env, ptr + XO(header.xstate_bv), new_bv, ra);
}

void helper_xsave(CPUX86State *env, target_ulong ptr, uint64_t rfbm)
{
    do_xsave(env, ptr, rfbm, get_xinuse(env), -1, GETPC());
}

void helper_xsaveopt(CPUX86State *env, target_ulong ptr, uint64_t rfbm)
{
    uint64_t inuse = get_xinuse(env);
    do_xsave(env, ptr, rfbm, inuse, inuse, GETPC());
}

/*
 * pathvm: XSAVEC, the compacted form.  With the components this CPU has
 * (x87, SSE, AVX) the compacted layout is the standard one; the header
 * says which components the image has (XSTATE_BV, those requested and in
 * use) and that it is compacted (XCOMP_BV bit 63 and the requested ones).
 */
void helper_xsavec(CPUX86State *env, target_ulong ptr, uint64_t rfbm)
{
    uintptr_t ra = GETPC();
    uint64_t inuse = get_xinuse(env);

    do_xsave(env, ptr, rfbm, inuse, inuse, ra);
    rfbm &= env->xcr0;
    cpu_stq_data_ra(env, ptr + XO(header.xstate_bv), inuse & rfbm, ra);
    cpu_stq_data_ra(env, ptr + XO(header.xcomp_bv), rfbm | (1ULL << 63), ra);
}

/*
 * pathvm: the legacy image's x87 part, in the 64-bit layout (w64) or the
 * 32-bit one (FIP and FDP zero-extended offsets; the selectors ignored).
 * FOP is loaded (11 bits); a 64-bit FIP is made canonical for the CPU's
 * 48-bit linear addresses (sign-extended from bit 47) and FDP kept whole.  The control word keeps its reserved
 * bits as fldcw does, and ES and B say whether an unmasked exception is
 * pending.
 */
static void do_xrstor_fpu_layout(CPUX86State *env, target_ulong ptr,
                                 uintptr_t ra, bool w64)
{
    int i, fpuc, fpus, fptag;
    target_ulong addr;

    fpuc = cpu_lduw_data_ra(env, ptr + XO(legacy.fcw), ra);
    fpus = cpu_lduw_data_ra(env, ptr + XO(legacy.fsw), ra);
    fptag = cpu_lduw_data_ra(env, ptr + XO(legacy.ftw), ra);
    env->fpop = cpu_lduw_data_ra(env, ptr + XO(legacy.fpop), ra) & 0x7ff;
    if (w64) {
        env->fpip = (int64_t)(cpu_ldq_data_ra(env, ptr + XO(legacy.fpip), ra)
                              << 16) >> 16;
        env->fpdp = cpu_ldq_data_ra(env, ptr + XO(legacy.fpdp), ra);
    } else {
        env->fpip = cpu_ldl_data_ra(env, ptr + XO(legacy.fpip), ra);
        env->fpdp = cpu_ldl_data_ra(env, ptr + XO(legacy.fpdp), ra);
    }
    cpu_set_fpuc(env, x87_fcw(fpuc));
    cpu_set_fpus(env, fpus);
    x87_set_es(env);
    fptag ^= 0xff;
    for (i = 0; i < 8; i++) {
        env->fptags[i] = ((fptag >> i) & 1);
    }

    addr = ptr + XO(legacy.fpregs);
    for (i = 0; i < 8; i++) {
        floatx80 tmp = helper_fldt(env, addr, ra);
        ST(i) = tmp;
        addr += 16;
    }
}

static void do_xrstor_fpu(CPUX86State *env, target_ulong ptr, uintptr_t ra)
{
    do_xrstor_fpu_layout(env, ptr, ra, true);
}

static void do_xrstor_mxcsr(CPUX86State *env, target_ulong ptr, uintptr_t ra)
{
    cpu_set_mxcsr(env, cpu_ldl_data_ra(env, ptr + XO(legacy.mxcsr), ra));
}

static void do_xrstor_sse(CPUX86State *env, target_ulong ptr, uintptr_t ra)
{
    int i, nb_xmm_regs;
    target_ulong addr;

    if (env->hflags & HF_CS64_MASK) {
        nb_xmm_regs = 16;
    } else {
        nb_xmm_regs = 8;
    }

    addr = ptr + XO(legacy.xmm_regs);
    for (i = 0; i < nb_xmm_regs; i++) {
        env->xmm_regs[i].ZMM_Q(0) = cpu_ldq_data_ra(env, addr, ra);
        env->xmm_regs[i].ZMM_Q(1) = cpu_ldq_data_ra(env, addr + 8, ra);
        addr += 16;
    }
}

static void do_xrstor_bndregs(CPUX86State *env, target_ulong ptr, uintptr_t ra)
{
    target_ulong addr = ptr + offsetof(XSaveBNDREG, bnd_regs);
    int i;

    for (i = 0; i < 4; i++, addr += 16) {
        env->bnd_regs[i].lb = cpu_ldq_data_ra(env, addr, ra);
        env->bnd_regs[i].ub = cpu_ldq_data_ra(env, addr + 8, ra);
    }
}

static void do_xrstor_bndcsr(CPUX86State *env, target_ulong ptr, uintptr_t ra)
{
    /* FIXME: Extend highest implemented bit of linear address.  */
    env->bndcs_regs.cfgu
        = cpu_ldq_data_ra(env, ptr + offsetof(XSaveBNDCSR, bndcsr.cfgu), ra);
    env->bndcs_regs.sts
        = cpu_ldq_data_ra(env, ptr + offsetof(XSaveBNDCSR, bndcsr.sts), ra);
}

static void do_xrstor_pkru(CPUX86State *env, target_ulong ptr, uintptr_t ra)
{
    env->pkru = cpu_ldq_data_ra(env, ptr, ra);
}

void helper_fxrstor(CPUX86State *env, target_ulong ptr, uint32_t w64)
{
    uintptr_t ra = GETPC();

    /* The operand must be 16 byte aligned */
    if (ptr & 0xf) {
        raise_exception_ra(env, EXCP0D_GPF, ra);
    }

    /*
     * pathvm: the whole image is readable and MXCSR's reserved bits clear
     * (else #GP) before anything changes
     */
    x87_probe_image(env, ptr, 512, MMU_DATA_LOAD, ra);
    if ((env->cr[4] & CR4_OSFXSR_MASK)
        && (cpu_ldl_data_ra(env, ptr + XO(legacy.mxcsr), ra) & ~0xffffu)) {
        raise_exception_ra(env, EXCP0D_GPF, ra);
    }
    do_xrstor_fpu_layout(env, ptr, ra, w64);

    if (env->cr[4] & CR4_OSFXSR_MASK) {
        do_xrstor_mxcsr(env, ptr, ra);
        /* Fast FXRSTOR leaves out the XMM registers */
        if (!(env->efer & MSR_EFER_FFXSR)
            || (env->hflags & HF_CPL_MASK)
            || !(env->hflags & HF_LMA_MASK)) {
            do_xrstor_sse(env, ptr, ra);
        }
    }
}

void helper_xrstor(CPUX86State *env, target_ulong ptr, uint64_t rfbm)
{
    uintptr_t ra = GETPC();
    uint64_t xstate_bv, xcomp_bv, reserve0;

    rfbm &= env->xcr0;

    /* The OS must have enabled XSAVE.  */
    if (!(env->cr[4] & CR4_OSXSAVE_MASK)) {
        raise_exception_ra(env, EXCP06_ILLOP, ra);
    }

    /* The operand must be 64 byte aligned.  */
    if (ptr & 63) {
        raise_exception_ra(env, EXCP0D_GPF, ra);
    }

    xstate_bv = cpu_ldq_data_ra(env, ptr + XO(header.xstate_bv), ra);

    /* The XSTATE_BV field must not set bits not present in XCR0.  */
    if (xstate_bv & ~env->xcr0) {
        raise_exception_ra(env, EXCP0D_GPF, ra);
    }

    xcomp_bv = cpu_ldq_data_ra(env, ptr + XO(header.xcomp_bv), ra);
    reserve0 = cpu_ldq_data_ra(env, ptr + XO(header.reserve0), ra);
    if ((int64_t)xcomp_bv < 0) {
        /* pathvm: the compacted form (XSAVEC's), whose layout is the
           standard one for the components this CPU has; components it
           does not list are restored to their initial state.  */
        if ((xcomp_bv & ~(1ULL << 63) & ~env->xcr0) ||
            (xstate_bv & ~xcomp_bv) || reserve0) {
            raise_exception_ra(env, EXCP0D_GPF, ra);
        }
        xstate_bv &= xcomp_bv;
    } else if (xcomp_bv || reserve0) {
        /* The XCOMP_BV field must be zero.  Note that, as of the April 2016
           revision, the description of the XSAVE Header (Vol 1, Sec 13.4.2)
           describes only XCOMP_BV, but the description of the standard form
           of XRSTOR (Vol 1, Sec 13.8.1) checks bytes 23:8 for zero, which
           includes the next 64-bit field.  */
        raise_exception_ra(env, EXCP0D_GPF, ra);
    }

    if (rfbm & XSTATE_FP_MASK) {
        if (xstate_bv & XSTATE_FP_MASK) {
            do_xrstor_fpu(env, ptr, ra);
        } else {
            do_fninit(env);
            memset(env->fpregs, 0, sizeof(env->fpregs));
        }
    }
    if (rfbm & XSTATE_SSE_MASK) {
        /* Note that the standard form of XRSTOR loads MXCSR from memory
           whether or not the XSTATE_BV bit is set.  */
        if ((int64_t)xcomp_bv >= 0 ||
            (xcomp_bv & (XSTATE_SSE_MASK | XSTATE_YMM_MASK))) {
            do_xrstor_mxcsr(env, ptr, ra);
        }
        if (xstate_bv & XSTATE_SSE_MASK) {
            do_xrstor_sse(env, ptr, ra);
        } else {
            /* pathvm: the XMM registers alone (not the YMM halves) */
            int i;
            for (i = 0; i < 16; i++) {
                env->xmm_regs[i].ZMM_Q(0) = 0;
                env->xmm_regs[i].ZMM_Q(1) = 0;
            }
        }
    }
    if (rfbm & XSTATE_YMM_MASK) {
        int i;
        target_ulong addr = ptr + XO(avx_state);
        for (i = 0; i < 16; i++, addr += 16) {
            if (xstate_bv & XSTATE_YMM_MASK) {
                env->xmm_regs[i].ZMM_Q(2) = cpu_ldq_data_ra(env, addr, ra);
                env->xmm_regs[i].ZMM_Q(3) = cpu_ldq_data_ra(env, addr + 8, ra);
            } else {
                env->xmm_regs[i].ZMM_Q(2) = 0;
                env->xmm_regs[i].ZMM_Q(3) = 0;
            }
        }
    }
    if (rfbm & XSTATE_BNDREGS_MASK) {
        if (xstate_bv & XSTATE_BNDREGS_MASK) {
            do_xrstor_bndregs(env, ptr + XO(bndreg_state), ra);
            env->hflags |= HF_MPX_IU_MASK;
        } else {
            memset(env->bnd_regs, 0, sizeof(env->bnd_regs));
            env->hflags &= ~HF_MPX_IU_MASK;
        }
    }
    if (rfbm & XSTATE_BNDCSR_MASK) {
        if (xstate_bv & XSTATE_BNDCSR_MASK) {
            do_xrstor_bndcsr(env, ptr + XO(bndcsr_state), ra);
        } else {
            memset(&env->bndcs_regs, 0, sizeof(env->bndcs_regs));
        }
        cpu_sync_bndcs_hflags(env);
    }
    if (rfbm & XSTATE_PKRU_MASK) {
        uint64_t old_pkru = env->pkru;
        if (xstate_bv & XSTATE_PKRU_MASK) {
            do_xrstor_pkru(env, ptr + XO(pkru_state), ra);
        } else {
            env->pkru = 0;
        }
        if (env->pkru != old_pkru) {
            CPUState *cs = env_cpu(env);
            tlb_flush(cs);
        }
    }
}

#undef XO

uint64_t helper_xgetbv(CPUX86State *env, uint32_t ecx)
{
    /* The OS must have enabled XSAVE.  */
    if (!(env->cr[4] & CR4_OSXSAVE_MASK)) {
        raise_exception_ra(env, EXCP06_ILLOP, GETPC());
    }

    switch (ecx) {
    case 0:
        return env->xcr0;
    case 1:
        if (env->features[FEAT_XSAVE] & CPUID_XSAVE_XGETBV1) {
            return env->xcr0 & get_xinuse(env);
        }
        break;
    }
    raise_exception_ra(env, EXCP0D_GPF, GETPC());
}

void helper_xsetbv(CPUX86State *env, uint32_t ecx, uint64_t mask)
{
    uint32_t dummy, ena_lo, ena_hi;
    uint64_t ena;

    /* The OS must have enabled XSAVE.  */
    if (!(env->cr[4] & CR4_OSXSAVE_MASK)) {
        raise_exception_ra(env, EXCP06_ILLOP, GETPC());
    }

    /* Only XCR0 is defined at present; the FPU may not be disabled.  */
    if (ecx != 0 || (mask & XSTATE_FP_MASK) == 0) {
        goto do_gpf;
    }

    /* Disallow enabling unimplemented features.  */
    cpu_x86_cpuid(env, 0x0d, 0, &ena_lo, &dummy, &dummy, &ena_hi);
    ena = ((uint64_t)ena_hi << 32) | ena_lo;
    if (mask & ~ena) {
        goto do_gpf;
    }

    /* Disallow enabling only half of MPX.  */
    if ((mask ^ (mask * (XSTATE_BNDCSR_MASK / XSTATE_BNDREGS_MASK)))
        & XSTATE_BNDCSR_MASK) {
        goto do_gpf;
    }

    env->xcr0 = mask;
    cpu_sync_bndcs_hflags(env);
    return;

 do_gpf:
    raise_exception_ra(env, EXCP0D_GPF, GETPC());
}

/* MMX/SSE */
/* XXX: optimize by storing fptt and fptags in the static cpu state */

#define SSE_DAZ             0x0040
#define SSE_RC_MASK         0x6000
#define SSE_RC_NEAR         0x0000
#define SSE_RC_DOWN         0x2000
#define SSE_RC_UP           0x4000
#define SSE_RC_CHOP         0x6000
#define SSE_FZ              0x8000

/*
 * pathvm: MXCSR exception flags.  sse_status keeps the sticky softfloat
 * flags; after each SSE floating-point helper they are ORed into MXCSR
 * (sse_done).  While every exception is masked the softfloat flags stay
 * sticky (so the hardfloat fast path, which needs inexact already set,
 * keeps working); while any is unmasked they are cleared after each
 * instruction, and an unmasked one raises #XM.  The denormal-operand flag
 * (DE), which softfloat does not compute, is carried in
 * float_flag_input_denormal (softfloat sets that bit only when DAZ squashes
 * an input, and DAZ suppresses DE, so it is ignored then).
 */
#define PATHVM_EXCP13_XMM 19

static inline uint32_t sse_soft_to_mxcsr(CPUX86State *env, int f)
{
    uint32_t r = 0;

    if (f & float_flag_invalid) {
        r |= 0x01;
    }
    if ((f & float_flag_input_denormal) && !(env->mxcsr & SSE_DAZ)) {
        r |= 0x02;
    }
    if (f & float_flag_divbyzero) {
        r |= 0x04;
    }
    if (f & float_flag_overflow) {
        r |= 0x08;
    }
    if (f & float_flag_underflow) {
        r |= 0x10;
    }
    if (f & float_flag_inexact) {
        r |= 0x20;
    }
    if (f & float_flag_output_denormal) {
        r |= 0x30;
    }
    return r;
}

static inline int sse_mxcsr_to_soft(uint32_t m)
{
    int f = 0;

    if (m & 0x01) {
        f |= float_flag_invalid;
    }
    if (m & 0x04) {
        f |= float_flag_divbyzero;
    }
    if (m & 0x08) {
        f |= float_flag_overflow;
    }
    if (m & 0x10) {
        f |= float_flag_underflow;
    }
    if (m & 0x20) {
        f |= float_flag_inexact;
    }
    return f;
}

/* The exceptions MXCSR leaves unmasked. */
static inline uint32_t sse_unmasked(CPUX86State *env)
{
    return ~(env->mxcsr >> 7) & 0x3f;
}

/*
 * Flags of the instruction just computed into MXCSR; #XM if one of them is
 * unmasked (called before the destination is written where the helper can).
 */
static inline void sse_done(CPUX86State *env, uintptr_t ra)
{
    uint32_t m = sse_soft_to_mxcsr(env,
                     get_float_exception_flags(&env->sse_status));

    env->mxcsr |= m;
    if (unlikely(sse_unmasked(env))) {
        set_float_exception_flags(0, &env->sse_status);
        if (m & sse_unmasked(env)) {
            raise_exception_ra(env, PATHVM_EXCP13_XMM, ra);
        }
    }
}

/*
 * Denormal operands (DE unless DAZ).  The host shows that DE is not raised
 * when an operand is a NaN, nor when the operation is invalid or divides by
 * zero (those pre-computation exceptions come first): the callers check
 * the last two.
 */
static inline void sse_den32(CPUX86State *env, float32 a)
{
    if (unlikely(float32_is_denormal(a)) && !(env->mxcsr & SSE_DAZ)) {
        env->sse_status.float_exception_flags |= float_flag_input_denormal;
    }
}

static inline void sse_den64(CPUX86State *env, float64 a)
{
    if (unlikely(float64_is_denormal(a)) && !(env->mxcsr & SSE_DAZ)) {
        env->sse_status.float_exception_flags |= float_flag_input_denormal;
    }
}

static inline void sse_den2_32(CPUX86State *env, float32 a, float32 b)
{
    if (unlikely(float32_is_denormal(a) || float32_is_denormal(b)) &&
        !float32_is_any_nan(a) && !float32_is_any_nan(b) &&
        !(env->mxcsr & SSE_DAZ)) {
        env->sse_status.float_exception_flags |= float_flag_input_denormal;
    }
}

static inline void sse_den2_64(CPUX86State *env, float64 a, float64 b)
{
    if (unlikely(float64_is_denormal(a) || float64_is_denormal(b)) &&
        !float64_is_any_nan(a) && !float64_is_any_nan(b) &&
        !(env->mxcsr & SSE_DAZ)) {
        env->sse_status.float_exception_flags |= float_flag_input_denormal;
    }
}

void update_mxcsr_status(CPUX86State *env)
{
    uint32_t mxcsr = env->mxcsr;
    int rnd_type;

    /* set rounding mode */
    switch (mxcsr & SSE_RC_MASK) {
    default:
    case SSE_RC_NEAR:
        rnd_type = float_round_nearest_even;
        break;
    case SSE_RC_DOWN:
        rnd_type = float_round_down;
        break;
    case SSE_RC_UP:
        rnd_type = float_round_up;
        break;
    case SSE_RC_CHOP:
        rnd_type = float_round_to_zero;
        break;
    }
    set_float_rounding_mode(rnd_type, &env->sse_status);

    /* set denormals are zero */
    set_flush_inputs_to_zero((mxcsr & SSE_DAZ) ? 1 : 0, &env->sse_status);

    /* set flush to zero (pathvm: of SSE results; it was set on x87's) */
    set_flush_to_zero((mxcsr & SSE_FZ) ? 1 : 0, &env->sse_status);

    /* pathvm: SSE's two-NaN rule (the first source operand's NaN) */
    env->sse_status.nan_first_operand = 1;
    /* pathvm: with UM unmasked, a tiny result underflows even if exact */
    env->sse_status.underflow_when_tiny = !(mxcsr & (1 << 11));
    /* pathvm: the sticky softfloat flags follow MXCSR's (see sse_done) */
    set_float_exception_flags((~(mxcsr >> 7) & 0x3f) ? 0 :
                              sse_mxcsr_to_soft(mxcsr), &env->sse_status);
}

void helper_ldmxcsr(CPUX86State *env, uint32_t val)
{
    cpu_set_mxcsr(env, val);
}

void helper_enter_mmx(CPUX86State *env)
{
    x87_wait(env, GETPC()); /* pathvm: MMX instructions wait */
    env->fpstt = 0;
    *(uint32_t *)(env->fptags) = 0;
    *(uint32_t *)(env->fptags + 4) = 0;
}

void helper_emms(CPUX86State *env)
{
    x87_wait(env, GETPC());
    /* set to empty state */
    env->fpstt = 0; /* pathvm: TOP cleared too, as the host does */
    *(uint32_t *)(env->fptags) = 0x01010101;
    *(uint32_t *)(env->fptags + 4) = 0x01010101;
}

/* XXX: suppress */
void helper_movq(CPUX86State *env, void *d, void *s)
{
    *(uint64_t *)d = *(uint64_t *)s;
}

#define SHIFT 0
#include "ops_sse.h"

#define SHIFT 1
#include "ops_sse.h"

/* pathvm: the VEX decoder's helpers */
#include "vex_helper.c.inc"
