/* The x87 unit's last-instruction pointers (FIP, FOP, FDP) and the state
 * images that hold them (FXSAVE/FXRSTOR in both layouts, FNSTENV/FLDENV,
 * FNSAVE/FRSTOR), their faults (#GP for a misaligned image or reserved MXCSR
 * bits) and where an image or operand that crosses into an inaccessible
 * page faults. Everything is printed in hex, code addresses relative to a
 * label, so that a native run and a run under pathvm compare line by line. */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

static uint8_t img[512] __attribute__((aligned(64)));
static uint8_t out[1024] __attribute__((aligned(64)));
static sigjmp_buf jb;
static volatile int got_sig, got_code;
static volatile uintptr_t got_addr;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    got_sig = sig;
    got_code = si->si_code;
    got_addr = (uintptr_t)si->si_addr;
    siglongjmp(jb, 1);
}

/* The signal frame's copy of the pointers and the handler's own. */
static volatile unsigned frame_fop;
static volatile uint64_t frame_rip, frame_rdp, own[3];

static void on_frame(int sig, siginfo_t *si, void *ucv)
{
    ucontext_t *uc = ucv;
    static uint8_t fx[512] __attribute__((aligned(64)));
    (void)sig; (void)si;
    frame_fop = uc->uc_mcontext.fpregs->fop;
    frame_rip = uc->uc_mcontext.fpregs->rip;
    frame_rdp = uc->uc_mcontext.fpregs->rdp;
    __asm__ volatile("fxsave64 %0" : "=m"(fx));
    own[0] = *(uint16_t *)(fx + 6);
    memcpy((void *)&own[1], fx + 8, 8);
    memcpy((void *)&own[2], fx + 16, 8);
    siglongjmp(jb, 1);
}

static void set_image(uint16_t fop, uint64_t fip, uint64_t fdp)
{
    memset(img, 0, sizeof img);
    *(uint16_t *)img = 0x037f;
    *(uint32_t *)(img + 24) = 0x1f80;
    *(uint16_t *)(img + 6) = fop;
    memcpy(img + 8, &fip, 8);
    memcpy(img + 16, &fdp, 8);
    for (int i = 0; i < 8; i++)
        memset(img + 32 + 16 * i + 10, 0x5a, 6); /* reserved bytes */
}

static void show(const char *what, const uint8_t *b, int n)
{
    printf("%-34s", what);
    for (int i = 0; i < n; i++)
        printf("%s%02x", i && i % 4 == 0 ? " " : "", b[i]);
    printf("\n");
}

/* FOP, FIP and FDP of an FXSAVE64 image. FIP is shown relative to `base`
 * when given (a code label: the program's load address differs between
 * runs), as "kept" when it is still the 0x1111 that set_image loaded, and
 * not at all when `base` is 1. */
static void pointers(const char *what, uintptr_t base)
{
    uint64_t fip, fdp;
    memset(out, 0xee, 512);
    __asm__ volatile("fxsave64 %0" : "=m"(*(uint8_t(*)[512])out));
    memcpy(&fip, out + 8, 8);
    memcpy(&fdp, out + 16, 8);
    printf("%-34s fsw %04x ftw %02x fop %04x", what, *(uint16_t *)(out + 2),
           out[4], *(uint16_t *)(out + 6));
    if (base > 1 && fip == 0x1111)
        printf(" fip kept");
    else if (base > 1)
        printf(" fip label%+lld", (long long)(fip - base));
    else if (base == 0)
        printf(" fip %llx", (unsigned long long)fip);
    printf(" fdp %llx\n", (unsigned long long)fdp);
}

static double one = 1.0;

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, 0);
    sigaction(SIGBUS, &sa, 0);

    /* FXRSTOR64 and FXRSTOR load the pointers; FXSAVE64 and FXSAVE store
     * them in their layouts (FOP 11 bits, FCS and FDS 0). */
    set_image(0xffff, 0x00007fff12345678ull, 0x99aabbccddeeff00ull);
    __asm__ volatile("fxrstor64 %0" : : "m"(img));
    memset(out, 0xee, 512);
    __asm__ volatile("fxsave64 %0" : "=m"(*(uint8_t(*)[512])out));
    show("fxrstor64, fxsave64", out, 48);
    memset(out, 0xee, 512);
    __asm__ volatile("fxsave %0" : "=m"(*(uint8_t(*)[512])out));
    show("fxrstor64, fxsave", out, 48);
    show("  xmm8, bytes 416-431, 464-479", out + 288, 16);
    show("", out + 416, 16);
    show("", out + 464, 16);
    set_image(0x0123, 0xffff800012345678ull, 0x0000000100000002ull);
    __asm__ volatile("fxrstor %0" : : "m"(img));
    pointers("fxrstor (32-bit layout)", 0);
    __asm__ volatile("fxrstor64 %0" : : "m"(img));
    pointers("fxrstor64", 0);

    /* FNSTENV and FNSAVE images, 32- and 16-bit. */
    {
        uint8_t env[108];
        __asm__ volatile("fxrstor64 %0" : : "m"(img));
        memset(env, 0xee, sizeof env);
        __asm__ volatile("fnstenv %0" : "=m"(*(uint8_t(*)[28])env));
        show("fnstenv", env, 28);
        __asm__ volatile("fxrstor64 %0" : : "m"(img));
        memset(env, 0xee, sizeof env);
        __asm__ volatile("data16 fnstenv %0" : "=m"(*(uint8_t(*)[14])env));
        show("data16 fnstenv", env, 14);
        __asm__ volatile("fxrstor64 %0" : : "m"(img));
        memset(env, 0xee, sizeof env);
        __asm__ volatile("fnsave %0" : "=m"(env));
        show("fnsave (first 28 bytes)", env, 28);
        pointers("after fnsave", 0);
        /* FLDENV and FRSTOR load them (16-bit: no FOP). */
        uint32_t e32[7] = {0x037f, 0, 0xffff, 0x87654321, 0xffff1234,
                           0x13579bdf, 0x4321};
        __asm__ volatile("fldenv %0" : : "m"(e32));
        pointers("fldenv", 0);
        uint16_t e16[7] = {0x037f, 0, 0xffff, 0xabcd, 0x1234, 0x9876, 0x5678};
        __asm__ volatile("data16 fldenv %0" : : "m"(e16));
        pointers("data16 fldenv", 0);
        memcpy(env, e32, sizeof e32);
        memset(env + 28, 0, 80);
        __asm__ volatile("frstor %0" : : "m"(env));
        pointers("frstor", 0);
        __asm__ volatile("fninit");
        pointers("fninit", 0);
    }

    /* FIP is the last non-control x87 instruction's; control instructions,
     * FWAIT and MMX leave it; FOP and FDP change only on unmasked
     * exceptions. */
    set_image(0x0123, 0x1111, 0x2222);
    {
        static const struct { const char *name; int which; } cases[] = {
            {"fnop", 0}, {"fxch", 1}, {"ffree", 2}, {"fincstp", 3},
            {"faddl m64", 4}, {"fnstsw ax", 5}, {"fnclex", 6}, {"fldcw", 7},
            {"fwait", 8}, {"emms", 9}, {"movq mm", 10}, {"fnstcw", 11},
            {"fld1", 12},
        };
        for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            uintptr_t at = 0;
            uint16_t cw = 0x037f;
            __asm__ volatile("fxrstor64 %0" : : "m"(img));
            switch (cases[i].which) {
            case 0: __asm__ volatile("lea 1f(%%rip), %0\n1: fnop" : "=r"(at)); break;
            case 1: __asm__ volatile("lea 1f(%%rip), %0\n1: fxch %%st(2)" : "=r"(at)); break;
            case 2: __asm__ volatile("lea 1f(%%rip), %0\n1: ffree %%st(3)" : "=r"(at)); break;
            case 3: __asm__ volatile("lea 1f(%%rip), %0\n1: fincstp" : "=r"(at)); break;
            case 4: __asm__ volatile("lea 1f(%%rip), %0\n1: faddl %1" : "=r"(at) : "m"(one)); break;
            case 5: { uint16_t sw; __asm__ volatile("lea 1f(%%rip), %0\n1: fnstsw %%ax" : "=r"(at), "=a"(sw)); break; }
            case 6: __asm__ volatile("lea 1f(%%rip), %0\n1: fnclex" : "=r"(at)); break;
            case 7: __asm__ volatile("lea 1f(%%rip), %0\n1: fldcw %1" : "=r"(at) : "m"(cw)); break;
            case 8: __asm__ volatile("lea 1f(%%rip), %0\n1: fwait" : "=r"(at)); break;
            case 9: __asm__ volatile("lea 1f(%%rip), %0\n1: emms" : "=r"(at)); break;
            case 10: __asm__ volatile("lea 1f(%%rip), %0\n1: movq %%mm0, %%mm1" : "=r"(at)); break;
            case 11: __asm__ volatile("lea 1f(%%rip), %0\n1: fnstcw %1" : "=r"(at), "=m"(cw)); break;
            case 12: __asm__ volatile("lea 1f(%%rip), %0\n1: fld1" : "=r"(at)); break;
            }
            pointers(cases[i].name, at);
        }
    }
    __asm__ volatile("emms");

    /* A signal frame holds the interrupted pointers; the handler starts
     * with FNINIT's. */
    {
        struct sigaction fa;
        static volatile uintptr_t at;
        uintptr_t a;
        memset(&fa, 0, sizeof fa);
        fa.sa_sigaction = on_frame;
        fa.sa_flags = SA_SIGINFO;
        sigaction(SIGSEGV, &fa, 0);
        set_image(0x0123, 0x1111, 0x2222);
        __asm__ volatile("fxrstor64 %0" : : "m"(img));
        __asm__ volatile("lea fpptr_fld1(%%rip), %0" : "=r"(a));
        at = a;
        if (sigsetjmp(jb, 1) == 0)
            __asm__ volatile("fpptr_fld1: fld1\n\tmovb $0, 0" : : : "memory");
        printf("signal frame: fop %04x fip label%+lld fdp %llx; handler: fop %llx fip %llx fdp %llx\n",
               frame_fop, (long long)(frame_rip - at), (unsigned long long)frame_rdp,
               (unsigned long long)own[0], (unsigned long long)own[1],
               (unsigned long long)own[2]);
        sigaction(SIGSEGV, &sa, 0);
        __asm__ volatile("fninit");
    }

    /* The abridged tag word. */
    __asm__ volatile("fninit; fld1; fldz; fldpi; ffree %st(1)");
    pointers("abridged tags (3 pushed, 1 freed)", 1);
    __asm__ volatile("fninit");

    /* Faults: a misaligned FXSAVE/FXRSTOR image, reserved MXCSR bits. */
    for (int k = 0; k < 4; k++) {
        got_sig = 0;
        set_image(0, 0, 0);
        if (k == 2)
            *(uint32_t *)(img + 24) = 0x11f80;
        if (k == 3)
            *(uint32_t *)(img + 24) = 0x1f80 | 0x40; /* DAZ: allowed */
        if (sigsetjmp(jb, 1) == 0) {
            switch (k) {
            case 0: __asm__ volatile("fxsave (%0)" : : "r"(out + 8) : "memory"); break;
            case 1: __asm__ volatile("fxrstor64 (%0)" : : "r"(out + 4) : "memory"); break;
            default: __asm__ volatile("fxrstor64 %0" : : "m"(img)); break;
            }
        }
        uint32_t csr;
        __asm__ volatile("stmxcsr %0" : "=m"(csr));
        printf("fault case %d: signal %d code %#x addr %#lx, mxcsr %04x\n", k,
               got_sig, got_sig ? got_code : 0,
               got_sig ? (unsigned long)got_addr : 0ul, csr);
        __asm__ volatile("fninit");
        csr = 0x1f80;
        __asm__ volatile("ldmxcsr %0" : : "m"(csr));
    }

    /* Images and operands that cross into an inaccessible page: where the
     * fault is reported (relative to that page) and whether anything was
     * written. */
    uint8_t *pg = mmap(0, 8192, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pg == MAP_FAILED || mprotect(pg + 4096, 4096, PROT_NONE))
        return 1;
    static const struct { const char *name; int size, step; } ops[] = {
        {"fxsave", 512, 16}, {"fxsave64", 512, 16}, {"fxrstor", 512, 16},
        {"fxrstor64", 512, 16}, {"fnsave", 108, 1}, {"frstor", 108, 1},
        {"data16 fnsave", 94, 1}, {"fnstenv", 28, 1}, {"fldenv", 28, 1},
        {"data16 fnstenv", 14, 1}, {"data16 fldenv", 14, 1}, {"fstpt", 10, 1},
        {"fldt", 10, 1}, {"fbstp", 10, 1}, {"fstpl", 8, 1}, {"fistpll", 8, 1},
    };
    for (unsigned o = 0; o < sizeof ops / sizeof ops[0]; o++) {
        printf("%-16s", ops[o].name);
        for (int in = ops[o].size - ops[o].step; in > 0; in -= ops[o].step) {
            uint8_t *p = pg + 4096 - in, before[4096];
            for (int i = 0; i < 4096; i += 2)
                *(uint16_t *)(pg + i) = 0x037f; /* valid control words */
            if (p + 28 <= pg + 4096)
                *(uint32_t *)(p + 24) = 0x1f80; /* and MXCSR */
            memcpy(before, pg, 4096);
            got_sig = 0;
            __asm__ volatile("fninit; fld1");
            if (sigsetjmp(jb, 1) == 0) {
                switch (o) {
                case 0: __asm__ volatile("fxsave (%0)" : : "r"(p) : "memory"); break;
                case 1: __asm__ volatile("fxsave64 (%0)" : : "r"(p) : "memory"); break;
                case 2: __asm__ volatile("fxrstor (%0)" : : "r"(p) : "memory"); break;
                case 3: __asm__ volatile("fxrstor64 (%0)" : : "r"(p) : "memory"); break;
                case 4: __asm__ volatile("fnsave (%0)" : : "r"(p) : "memory"); break;
                case 5: __asm__ volatile("frstor (%0)" : : "r"(p) : "memory"); break;
                case 6: __asm__ volatile("data16 fnsave (%0)" : : "r"(p) : "memory"); break;
                case 7: __asm__ volatile("fnstenv (%0)" : : "r"(p) : "memory"); break;
                case 8: __asm__ volatile("fldenv (%0)" : : "r"(p) : "memory"); break;
                case 9: __asm__ volatile("data16 fnstenv (%0)" : : "r"(p) : "memory"); break;
                case 10: __asm__ volatile("data16 fldenv (%0)" : : "r"(p) : "memory"); break;
                case 11: __asm__ volatile("fstpt (%0)" : : "r"(p) : "memory"); break;
                case 12: __asm__ volatile("fldt (%0)" : : "r"(p) : "memory"); break;
                case 13: __asm__ volatile("fbstp (%0)" : : "r"(p) : "memory"); break;
                case 14: __asm__ volatile("fstpl (%0)" : : "r"(p) : "memory"); break;
                case 15: __asm__ volatile("fistpll (%0)" : : "r"(p) : "memory"); break;
                }
            }
            int written = memcmp(before, pg, 4096) != 0;
            if (got_sig)
                printf(" %d:%+ld%s", in, (long)(got_addr - (uintptr_t)(pg + 4096)),
                       written ? "w" : "");
            else
                printf(" %d:none", in);
        }
        printf("\n");
        __asm__ volatile("fninit");
    }
    return 0;
}
