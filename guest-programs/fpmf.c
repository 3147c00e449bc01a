/* Unmasked x87 exceptions (#MF) as Linux delivers them. An x87 instruction
 * whose exception is unmasked only makes it pending (ES and B in the status
 * word); the next waiting instruction (fwait, an x87 instruction other than
 * the no-wait ones, an MMX instruction) raises #MF, which Linux sends as
 * SIGFPE with the si_code derived from the status and control words and
 * si_addr at that waiting instruction. Each case prints what its handler
 * sees: si_code, si_addr and the saved RIP relative to the case's labels
 * (F: the instruction that raised the exception, W: the one expected to
 * wait), and the frame's fpstate: control, status and abridged tag words,
 * FOP, FIP (relative to F), FDP (relative to `operand`) and ST0. The handler
 * then either jumps out (siglongjmp) or, for the `resume` cases, clears the
 * exception in the frame and returns, and the case goes on.
 * `fpmf` runs every case; `fpmf NAME` one; `fpmf NAME die` without a
 * handler (the process dies of SIGFPE). */
#define _GNU_SOURCE
#include <fenv.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

static sigjmp_buf env;
static const char *cur_f, *cur_w;
static int resume;

/* 0, 1, 3, 1e308 (a store's target, reset by each case), a denormal, a
 * quiet NaN, two more targets. */
double operand[8] = {0.0, 1.0, 3.0, 1e308, 4.9e-324, __builtin_nan(""), 0, 0};
long double tiny_ld = 1e-4940L;
long double huge_ld = 1e4900L, max_ld = 1.18973149535723176502e+4932L;
int scale_up = 20000, scale_down = -16400, scale_far = 41000;

/* A case: `name` loads the control word in %di (as fldcw m16 from the
 * stack), then runs `body`, whose instruction F raises the exception and W
 * is the one expected to wait; `name_F` and `name_W` mark them. */
#define CASE(name, body)                                                       \
    extern char name[], name##_F[], name##_W[];                                \
    __asm__(".text\n.globl " #name "\n" #name ":\n"                            \
            " fninit\n sub $8, %rsp\n mov %di, (%rsp)\n fldcw (%rsp)\n"        \
            " add $8, %rsp\n" body "\n ret\n");
#define F(name) ".globl " #name "_F\n" #name "_F:\n"
#define W(name) ".globl " #name "_W\n" #name "_W:\n"

/* 1/0 with ZM clear, then the waiting instruction. */
#define ZDIV(name) " fld1\n fldz\n" F(name) " fdivrp\n nop\n"
CASE(zdiv_fwait, ZDIV(zdiv_fwait) W(zdiv_fwait) " fwait\n nop")
CASE(zdiv_fld1, ZDIV(zdiv_fld1) " xor %eax, %eax\n" W(zdiv_fld1) " fld1\n nop")
CASE(zdiv_fadd, ZDIV(zdiv_fadd) W(zdiv_fadd) " fadd %st(0), %st(0)\n nop")
CASE(zdiv_fxch, ZDIV(zdiv_fxch) W(zdiv_fxch) " fxch %st(1)\n nop")
CASE(zdiv_fxam, ZDIV(zdiv_fxam) W(zdiv_fxam) " fxam\n nop")
CASE(zdiv_fincstp, ZDIV(zdiv_fincstp) W(zdiv_fincstp) " fincstp\n nop")
CASE(zdiv_fdecstp, ZDIV(zdiv_fdecstp) W(zdiv_fdecstp) " fdecstp\n nop")
CASE(zdiv_ffree, ZDIV(zdiv_ffree) W(zdiv_ffree) " ffree %st(3)\n nop")
CASE(zdiv_fnop, ZDIV(zdiv_fnop) W(zdiv_fnop) " fnop\n nop")
CASE(zdiv_fstp_mem, ZDIV(zdiv_fstp_mem) W(zdiv_fstp_mem)
     " fstpl operand+24(%rip)\n nop")
CASE(zdiv_fild, ZDIV(zdiv_fild) W(zdiv_fild) " fildl operand(%rip)\n nop")
CASE(zdiv_fstsw, ZDIV(zdiv_fstsw) W(zdiv_fstsw) " fstsw %ax\n nop")
CASE(zdiv_emms, ZDIV(zdiv_emms) W(zdiv_emms) " emms\n nop")
CASE(zdiv_paddb, ZDIV(zdiv_paddb) W(zdiv_paddb) " paddb %mm1, %mm0\n nop")
CASE(zdiv_movq_mm, ZDIV(zdiv_movq_mm) W(zdiv_movq_mm)
     " movq operand(%rip), %mm0\n nop")
/* No-wait and control instructions: which wait and which do not. */
CASE(zdiv_fnstsw, ZDIV(zdiv_fnstsw) " fnstsw %ax\n fnstcw -8(%rsp)\n"
     " fnstenv -40(%rsp)\n fldcw -40(%rsp)\n" W(zdiv_fnstsw) " fwait\n nop")
CASE(zdiv_fnclex, ZDIV(zdiv_fnclex) " fnclex\n" W(zdiv_fnclex) " fwait\n"
     " fld1\n nop")
CASE(zdiv_fninit, ZDIV(zdiv_fninit) " fninit\n" W(zdiv_fninit) " fwait\n"
     " fld1\n nop")
CASE(zdiv_fldcw, ZDIV(zdiv_fldcw) W(zdiv_fldcw) " fldcw -8(%rsp)\n nop\n"
     " fwait")
CASE(zdiv_fldenv, ZDIV(zdiv_fldenv) " fnstenv -40(%rsp)\n" W(zdiv_fldenv)
     " fldenv -40(%rsp)\n nop\n fwait")
CASE(zdiv_fnsave, ZDIV(zdiv_fnsave) " fnsave -120(%rsp)\n" W(zdiv_fnsave)
     " frstor -120(%rsp)\n nop\n fwait")
CASE(zdiv_fxsave, ZDIV(zdiv_fxsave) " mov %rsp, %rcx\n and $-16, %rsp\n sub $512, %rsp\n"
     " fxsave (%rsp)\n fxrstor (%rsp)\n mov %rcx, %rsp\n" W(zdiv_fxsave)
     " fwait")
/* Unmasking an exception whose flag is set makes it pending. */
CASE(unmask_pe, " fld1\n fldl operand+16(%rip)\n" F(unmask_pe) " fdivrp\n"
     " sub $8, %rsp\n movw $0x035f, (%rsp)\n fldcw (%rsp)\n add $8, %rsp\n"
     W(unmask_pe) " fld1\n nop")
/* Each kind of exception, the waiting instruction an fwait. */
CASE(invalid, " fldz\n fldz\n" F(invalid) " fdivrp\n" W(invalid) " fwait")
CASE(sqrt_neg, " fld1\n fchs\n" F(sqrt_neg) " fsqrt\n" W(sqrt_neg) " fwait")
CASE(underflow_stack, F(underflow_stack) " fadd %st(1), %st(0)\n"
     W(underflow_stack) " fwait")
CASE(overflow_stack, " fld1\n fld1\n fld1\n fld1\n fld1\n fld1\n fld1\n fld1\n"
     F(overflow_stack) " fld1\n" W(overflow_stack) " fwait")
CASE(overflow, " fldl operand+24(%rip)\n fmul %st(0), %st(0)\n" F(overflow)
     " fstl operand+48(%rip)\n" W(overflow) " fwait")
CASE(underflow, " fldt tiny_ld(%rip)\n fld %st(0)\n" F(underflow)
     " fmulp\n" W(underflow) " fwait")
/* Unmasked overflow and underflow into a register: the result with its
 * exponent adjusted by 24576, rounded to the precision control. */
CASE(overflow_mul, " fldt huge_ld(%rip)\n fld %st(0)\n" F(overflow_mul)
     " fmulp\n" W(overflow_mul) " fwait")
CASE(overflow_mul24, " fldt huge_ld(%rip)\n fldl operand+16(%rip)\n fdivrp\n"
     " fldt huge_ld(%rip)\n" F(overflow_mul24) " fmulp\n" W(overflow_mul24) " fwait")
CASE(overflow_add, " fldt max_ld(%rip)\n fld %st(0)\n" F(overflow_add)
     " faddp\n" W(overflow_add) " fwait")
CASE(overflow_div, " fldt huge_ld(%rip)\n fldt tiny_ld(%rip)\n" F(overflow_div)
     " fdivrp\n" W(overflow_div) " fwait")
CASE(overflow_scale, " fildl scale_up(%rip)\n fldl operand+16(%rip)\n"
     F(overflow_scale) " fscale\n" W(overflow_scale) " fwait")
CASE(underflow_div, " fldt huge_ld(%rip)\n fldt tiny_ld(%rip)\n"
     F(underflow_div) " fdivp\n" W(underflow_div) " fwait")
CASE(underflow_exact, " fildl scale_down(%rip)\n fld1\n" F(underflow_exact)
     " fscale\n" W(underflow_exact) " fwait")
CASE(underflow_sub, " fldt tiny_ld(%rip)\n fld %st(0)\n fmull operand+16(%rip)\n"
     F(underflow_sub) " fsubp\n" W(underflow_sub) " fwait")
CASE(precision, " fld1\n" F(precision) " fdivl operand+16(%rip)\n"
     W(precision) " fwait")
CASE(denormal_op, " fld1\n" F(denormal_op) " fmull operand+32(%rip)\n"
     W(denormal_op) " fwait")
CASE(mem_zdiv, " fldl operand+8(%rip)\n" F(mem_zdiv) " fdivl operand(%rip)\n"
     " nop\n" W(mem_zdiv) " fwait")
CASE(fist_invalid, " fldl operand+24(%rip)\n" F(fist_invalid)
     " fistpl operand+48(%rip)\n" W(fist_invalid) " fwait")
CASE(fcom_nan, " fldz\n" F(fcom_nan) " fcoml operand+40(%rip)\n" W(fcom_nan)
     " fwait")
/* FDP after a load without exception and a register operation with one. */
CASE(zdiv_after_load, " fldl operand+8(%rip)\n fldz\n" F(zdiv_after_load)
     " fdivrp\n" W(zdiv_after_load) " fwait")
/* Resumed: the handler clears the exception in the frame and returns; the
 * waiting instruction then runs. */
CASE(resume_fwait, ZDIV(resume_fwait) W(resume_fwait) " fwait\n"
     " fstpl operand+24(%rip)\n fnstsw %ax")
CASE(resume_fld1, ZDIV(resume_fld1) W(resume_fld1) " fld1\n faddp\n"
     " fstpl operand+24(%rip)\n fnstsw %ax")
/* The transcendental instructions' unmasked overflow and underflow, into a
 * register: the result with its exponent adjusted by 24576 too (fptan and
 * fsincos push 1 and the cosine over it). fyl2x's is max_ld log2(4), exact:
 * where the result is rounded, the host's C1 tells which way its own
 * approximation was rounded (docs/cpu.md), max_ld log2(3)'s up, pathvm's
 * (the correctly rounded value's) down. */
CASE(fyl2x_ovf, " fldt max_ld(%rip)\n fld1\n fadd %st(0), %st(0)\n"
     " fadd %st(0), %st(0)\n" F(fyl2x_ovf)
     " fyl2x\n" W(fyl2x_ovf) " fwait")
CASE(fyl2x_unf, " fldt tiny_ld(%rip)\n fldl operand+16(%rip)\n" F(fyl2x_unf)
     " fyl2x\n" W(fyl2x_unf) " fwait")
CASE(fyl2xp1_unf, " fldt tiny_ld(%rip)\n fldl operand+32(%rip)\n"
     F(fyl2xp1_unf) " fyl2xp1\n" W(fyl2xp1_unf) " fwait")
CASE(f2xm1_unf, " fldt tiny_ld(%rip)\n" F(f2xm1_unf) " f2xm1\n"
     W(f2xm1_unf) " fwait")
CASE(fsin_unf, " fldt tiny_ld(%rip)\n" F(fsin_unf) " fsin\n"
     W(fsin_unf) " fwait")
CASE(fptan_unf, " fldt tiny_ld(%rip)\n" F(fptan_unf) " fptan\n"
     W(fptan_unf) " fwait")
CASE(fsincos_unf, " fldt tiny_ld(%rip)\n" F(fsincos_unf) " fsincos\n"
     W(fsincos_unf) " fwait")
CASE(fpatan_unf, " fldt tiny_ld(%rip)\n fldl operand+16(%rip)\n"
     F(fpatan_unf) " fpatan\n" W(fpatan_unf) " fwait")
/* fscale out of range even adjusted: the infinity (C1 set), in every
 * rounding mode; an overflow on the way to memory (from a register that
 * holds its value exactly): no PE. */
CASE(overflow_scale_far, " fildl scale_far(%rip)\n fld1\n"
     F(overflow_scale_far) " fscale\n" W(overflow_scale_far) " fwait")
CASE(overflow_store32, " fldt huge_ld(%rip)\n" F(overflow_store32)
     " fstps operand+48(%rip)\n" W(overflow_store32) " fwait")

struct fcase {
    const char *name;
    char *fn, *f, *w;
    unsigned short cw;
    int resume;
};
#define C(n, cw) {#n, n, n##_F, n##_W, cw, 0}
#define R(n, cw) {#n, n, n##_F, n##_W, cw, 1}
/* The control words: 0x37b unmasks ZM, 0x37e IM, 0x377 OM, 0x36f UM,
 * 0x35f PM, 0x37d DM. */
static const struct fcase cases[] = {
    C(zdiv_fwait, 0x37b), C(zdiv_fld1, 0x37b), C(zdiv_fadd, 0x37b),
    C(zdiv_fxch, 0x37b), C(zdiv_fxam, 0x37b), C(zdiv_fincstp, 0x37b),
    C(zdiv_fdecstp, 0x37b), C(zdiv_ffree, 0x37b), C(zdiv_fnop, 0x37b),
    C(zdiv_fstp_mem, 0x37b), C(zdiv_fild, 0x37b), C(zdiv_fstsw, 0x37b),
    C(zdiv_emms, 0x37b), C(zdiv_paddb, 0x37b), C(zdiv_movq_mm, 0x37b),
    C(zdiv_fnstsw, 0x37b), C(zdiv_fnclex, 0x37b), C(zdiv_fninit, 0x37b),
    C(zdiv_fldcw, 0x37b), C(zdiv_fldenv, 0x37b), C(zdiv_fnsave, 0x37b),
    C(zdiv_fxsave, 0x37b), C(unmask_pe, 0x37f), C(invalid, 0x37e),
    C(sqrt_neg, 0x37e), C(underflow_stack, 0x37e), C(overflow_stack, 0x37e),
    C(overflow, 0x377), C(underflow, 0x36f), C(overflow_mul, 0x377),
    C(overflow_mul24, 0x077), C(overflow_add, 0x377), C(overflow_div, 0x377),
    C(overflow_scale, 0x377), C(underflow_div, 0x36f),
    C(underflow_exact, 0x36f), C(underflow_sub, 0x26f), C(precision, 0x35f),
    C(denormal_op, 0x37d), C(mem_zdiv, 0x37b), C(fist_invalid, 0x37e),
    C(fcom_nan, 0x37e), C(zdiv_after_load, 0x37b), R(resume_fwait, 0x37b), R(resume_fld1, 0x37b),
    C(fyl2x_ovf, 0x377), C(fyl2x_unf, 0x36f), C(fyl2xp1_unf, 0x36f),
    C(f2xm1_unf, 0x36f), C(fsin_unf, 0x36f), C(fptan_unf, 0x36f),
    C(fsincos_unf, 0x36f), C(fpatan_unf, 0x36f), C(overflow_scale_far, 0x777),
    C(overflow_store32, 0x357),
};

static const char *code_name(int code) {
    switch (code) {
    case FPE_FLTINV: return "FLTINV";
    case FPE_FLTDIV: return "FLTDIV";
    case FPE_FLTOVF: return "FLTOVF";
    case FPE_FLTUND: return "FLTUND";
    case FPE_FLTRES: return "FLTRES";
    case FPE_INTDIV: return "INTDIV";
    default: return "other";
    }
}

/* An address relative to `base` (F or W) when near it, to `operand` for
 * data. */
static void where(char *buf, size_t n, unsigned long x, const char *base,
                  const char *name) {
    long d = (long)(x - (unsigned long)base);
    long dd = (long)(x - (unsigned long)operand);
    if (base && d > -32 && d < 32)
        snprintf(buf, n, "%s%+ld", name, d);
    else if (base && (int32_t)(uint32_t)(x - (unsigned long)base) > -32 &&
             (int32_t)(uint32_t)(x - (unsigned long)base) < 32 && x >> 32 == 0)
        snprintf(buf, n, "%s%+d(low 32 bits)", name,
                 (int32_t)(uint32_t)(x - (unsigned long)base));
    else if (dd >= 0 && dd < 64)
        snprintf(buf, n, "operand%+ld", dd);
    else if (x == 0)
        snprintf(buf, n, "0");
    else
        snprintf(buf, n, "other");
}

static void handler(int sig, siginfo_t *si, void *ucv) {
    ucontext_t *uc = ucv;
    struct _libc_fpstate *fp = uc->uc_mcontext.fpregs;
    char addr[32], rip[32], fip[32], fdp[32];
    unsigned short fcw, fsw;
    unsigned long long st0;
    memcpy(&st0, fp->_st[0].significand, sizeof st0);
    __asm__ volatile("fnstcw %0" : "=m"(fcw));
    __asm__ volatile("fnstsw %0" : "=m"(fsw));
    where(addr, sizeof addr, (unsigned long)si->si_addr, cur_w, "W");
    where(rip, sizeof rip, (unsigned long)uc->uc_mcontext.gregs[REG_RIP], cur_w,
          "W");
    where(fip, sizeof fip, (unsigned long)fp->rip, cur_f, "F");
    where(fdp, sizeof fdp, (unsigned long)fp->rdp, 0, "");
    if (!cur_w) {
        /* No labels (feenableexcept): addresses relative to FIP. */
        long a = (long)((unsigned long)si->si_addr - fp->rip);
        long r = (long)(uc->uc_mcontext.gregs[REG_RIP] - fp->rip);
        snprintf(addr, sizeof addr, "fip%+ld", a);
        snprintf(rip, sizeof rip, "fip%+ld", r);
        snprintf(fip, sizeof fip, "-");
    }
    printf("%s %s addr=%s rip=%s trapno=%lld | cwd=%#x swd=%#x ftw=%#x "
           "fop=%#x fip=%s fdp=%s st0=%04x:%016llx | handler fcw=%#x "
           "fsw=%#x\n",
           sig == SIGFPE ? "SIGFPE" : "other", code_name(si->si_code), addr,
           rip, (long long)uc->uc_mcontext.gregs[REG_TRAPNO], fp->cwd,
           fp->swd, fp->ftw, fp->fop, fip, fdp, fp->_st[0].exponent, st0,
           fcw, fsw);
    if (resume) {
        fp->swd &= ~0x80ff;
        resume = 0;
        return;
    }
    siglongjmp(env, 1);
}

static void run(const struct fcase *c, int die) {
    printf("%-16s ", c->name);
    fflush(stdout);
    cur_f = c->f;
    cur_w = c->w;
    resume = c->resume;
    operand[3] = 1e308;
    if (sigsetjmp(env, 1) == 0) {
        if (die)
            signal(SIGFPE, SIG_DFL);
        ((void (*)(long))c->fn)(c->cw);
        unsigned short sw;
        __asm__ volatile("fnstsw %0" : "=m"(sw));
        printf("no trap: fsw=%#x operand[3]=%a\n", sw, operand[3]);
    }
    __asm__ volatile("emms\n fninit");
}

/* feenableexcept, as a C program uses it: long double arithmetic traps. */
static void c_feenable(void) {
    printf("%-16s ", "feenableexcept");
    fflush(stdout);
    cur_f = cur_w = 0;
    if (sigsetjmp(env, 1) == 0) {
        volatile long double one = 1.0L, zero = 0.0L, r;
        feenableexcept(FE_DIVBYZERO);
        r = one / zero;
        r = r + one;
        printf("no trap %Lg\n", r);
    }
    fedisableexcept(FE_ALL_EXCEPT);
    __asm__ volatile("fninit");
}

int main(int argc, char **argv) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = handler;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGFPE, &sa, 0);
    const char *which = argc > 1 ? argv[1] : "all";
    int die = argc > 2 && !strcmp(argv[2], "die");
    int ran = 0;
    for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++) {
        if (!strcmp(which, "all") || !strcmp(which, cases[i].name)) {
            run(&cases[i], die);
            ran++;
        }
    }
    if (!strcmp(which, "all") || !strcmp(which, "feenableexcept")) {
        c_feenable();
        ran++;
    }
    if (!ran) {
        fprintf(stderr, "no case %s\n", which);
        return 2;
    }
    return 0;
}
