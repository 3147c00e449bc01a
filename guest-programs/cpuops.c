/* Integer, flag and BMI instructions whose emulation once differed from the
 * hardware (issue 24), each printed so that a run under pathvm can be
 * compared with a native one. Every input sits in a register or in memory
 * the compiler cannot see through, and every result is printed in full
 * (all 64 bits, the defined flags). */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define CF 0x1ul
#define PF 0x4ul
#define ZF 0x40ul
#define SF 0x80ul
#define OF 0x800ul

static volatile uint64_t sink;

static sigjmp_buf fault_env;
static volatile int fault_sig, fault_code;
static void *volatile fault_addr;

static void on_fault(int sig, siginfo_t *si, void *uc) {
    (void)uc;
    fault_sig = sig;
    fault_code = si->si_code;
    fault_addr = si->si_addr;
    siglongjmp(fault_env, 1);
}

struct __attribute__((packed)) far16 { uint16_t off, sel; };
struct __attribute__((packed)) far32 { uint32_t off; uint16_t sel; };
struct __attribute__((packed)) far64 { uint64_t off; uint16_t sel; };

/* A far-pointer load of selector `sel` (0: LGS m16:32, 1: LSS m16:32, 2: LGS
 * m16:64 with REX.W, 3: LGS m16:16): 1 when it faulted (SIGSEGV), else the
 * loaded register in *reg and GS's selector and base (set to 0x5000 first)
 * in *gs and *base. GS is 0 again afterwards (glibc leaves it unused). */
static int far_load(int form, unsigned sel, uint64_t *reg, uint64_t *gs, uint64_t *base) {
    struct far16 p16 = {0xbeef, (uint16_t)sel};
    struct far32 p32 = {0x12345678, (uint16_t)sel};
    struct far64 p64 = {0x1122334455667788ul, (uint16_t)sel};
    uint64_t r = ~0ul, g = 0, b = 0;
    int faulted = 0;
    fault_sig = 0;
    __asm__ volatile("wrgsbase %0" : : "r"(0x5000ul));
    if (sigsetjmp(fault_env, 1) == 0) {
        if (form == 0)
            __asm__ volatile("lgs %1, %%eax" : "+a"(r) : "m"(p32));
        else if (form == 1)
            __asm__ volatile("lss %1, %%eax" : "+a"(r) : "m"(p32));
        else if (form == 2)
            __asm__ volatile("rex.w lgs %1, %%eax" : "+a"(r) : "m"(p64));
        else
            __asm__ volatile("data16 lgs %1, %%eax" : "+a"(r) : "m"(p16));
        __asm__ volatile("mov %%gs, %0" : "=r"(g));
        __asm__ volatile("rdgsbase %0" : "=r"(b));
    } else {
        faulted = 1;
    }
    __asm__ volatile("mov %0, %%gs" : : "r"(0));
    *reg = r;
    *gs = g & 0xffff;
    *base = b;
    return faulted;
}

/* Which selectors each form loads, and what a load leaves. */
static void far_loads(void) {
    static const char *name[] = {"lgs", "lss", "lgs64", "lgs16"};
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &old);
    for (int form = 0; form < 4; form++) {
        uint64_t r, g, b;
        printf("%s loads:", name[form]);
        for (unsigned sel = 0; sel < 0x100; sel++) {
            if (!far_load(form, sel, &r, &g, &b))
                printf(" %#x", sel);
        }
        printf("\n");
        for (unsigned sel = 0; sel < 0x100; sel += 0x2b) {
            if (far_load(form, sel, &r, &g, &b))
                printf("%s %#x: signal %d code %d addr %p\n", name[form], sel,
                       fault_sig, fault_code, fault_addr);
            else
                printf("%s %#x: reg %#lx gs %#lx base %#lx\n", name[form], sel, r, g, b);
        }
        if (far_load(form, 0xffff, &r, &g, &b))
            printf("%s 0xffff: signal %d code %d\n", name[form], fault_sig, fault_code);
    }
    sigaction(SIGSEGV, &old, 0);
}

/* MOVSXD with a 16-bit operand size (66 63 /r) is a 16-bit move: it reads 2
 * bytes, so an operand in the last 2 bytes before an unreadable page loads
 * (it faulted when 4 bytes were read). */
static void movsxd16(void) {
    long page = sysconf(_SC_PAGESIZE);
    char *p = mmap(0, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    struct sigaction sa, old;
    uint64_t r = 0x1111222233334444ul;
    if (p == MAP_FAILED || mprotect(p + page, page, PROT_NONE))
        return;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &old);
    p[page - 2] = (char)0x85;
    p[page - 1] = (char)0x96;
    fault_sig = 0;
    if (sigsetjmp(fault_env, 1) == 0) {
        /* 66 63 01: movsxd ax, [rcx] */
        __asm__ volatile(".byte 0x66, 0x63, 0x01" : "+a"(r) : "c"(p + page - 2) : "memory");
        printf("movsxd r16, m32 at a page end: %#lx\n", r);
    } else {
        printf("movsxd r16, m32 at a page end: signal %d code %d addr at page end %d\n",
               fault_sig, fault_code, (char *)fault_addr == p + page);
    }
    sigaction(SIGSEGV, &old, 0);
    munmap(p, 2 * page);
}

int main(void) {
    volatile uint64_t in1 = 0xdeadbeef00000005ul, in2 = 0x1234567800000007ul;
    uint64_t a, d, f;

    /* 32-bit CMPXCHG: success writes the destination (clearing its upper
     * half) and leaves RAX whole; failure writes EAX (clearing RAX's upper
     * half) and leaves the destination whole. */
    a = 0xaaaaaaaa00000005ul; d = in1;
    __asm__ volatile("cmpxchg %k2, %k1" : "+a"(a), "+r"(d) : "r"(in2) : "cc");
    printf("cmpxchg32 ok   rax %#lx dst %#lx\n", a, d);
    a = 0xaaaaaaaa00000009ul; d = in1;
    __asm__ volatile("cmpxchg %k2, %k1" : "+a"(a), "+r"(d) : "r"(in2) : "cc");
    printf("cmpxchg32 fail rax %#lx dst %#lx\n", a, d);
    {
        volatile uint32_t m = 5;
        a = 0xaaaaaaaa00000005ul;
        __asm__ volatile("lock cmpxchg %k2, %1" : "+a"(a), "+m"(m) : "r"(in2) : "cc");
        printf("lock cmpxchg32 ok rax %#lx mem %#x\n", a, m);
    }

    /* BSF/BSR of zero (32-bit): the destination is left as it was. */
    d = 0x1111111122222222ul;
    __asm__ volatile("bsfl %k1, %k0" : "+r"(d) : "r"((uint64_t)0) : "cc");
    printf("bsf32(0) %#lx\n", d);
    d = 0x3333333344444444ul;
    __asm__ volatile("bsrl %k1, %k0" : "+r"(d) : "r"((uint64_t)0xffffffff00000000ul) : "cc");
    printf("bsr32(0) %#lx\n", d);

    /* LOCK NEG: the flags of the negated value. */
    {
        volatile uint32_t m = 5;
        __asm__ volatile("lock negl %1; pushfq; pop %0" : "=r"(f), "+m"(m) : : "cc");
        printf("lock neg %#x flags %#lx\n", m, f & (CF | PF | ZF | SF | OF));
    }

    /* TEST r/m, imm with the /1 encoding (an alias of /0). */
    d = in1;
    __asm__ volatile(".byte 0x48, 0xf7, 0xc8; .long 0x80000005; pushfq; pop %0"
                     : "=r"(f) : "a"(d) : "cc");
    printf("test /1 flags %#lx\n", f & (PF | ZF | SF));

    /* A reserved NOP: 0F 0D with a register operand. */
    __asm__ volatile(".byte 0x0f, 0x0d, 0xc8");
    printf("0f0d nop ok\n");

    /* BLSI: CF is set when the source is not zero. */
    for (uint64_t s = 0; s < 2; s++) {
        __asm__ volatile("blsi %2, %0; pushfq; pop %1" : "=r"(d), "=r"(f) : "r"(s * 12) : "cc");
        printf("blsi(%lu) %#lx cf %lu zf %d\n", s * 12, d, f & CF, !!(f & ZF));
    }
    /* BZHI: an index at or past the size keeps every bit and sets CF; the
     * last index keeps CF clear. */
    {
        uint64_t idx[] = {8, 63, 64, 200, 31 | 0x100};
        for (int i = 0; i < 5; i++) {
            __asm__ volatile("bzhi %3, %2, %0; pushfq; pop %1"
                             : "=r"(d), "=r"(f) : "r"(~0ul), "r"(idx[i]) : "cc");
            printf("bzhi64(%#lx) %#lx cf %lu\n", idx[i], d, f & CF);
            __asm__ volatile("bzhi %k3, %k2, %k0; pushfq; pop %1"
                             : "=r"(d), "=r"(f) : "r"(~0ul), "r"(idx[i] + 1) : "cc");
            printf("bzhi32(%#lx) %#lx cf %lu\n", idx[i] + 1, d, f & CF);
        }
    }
    /* PDEP (32-bit): the mask register's upper half is not part of it. */
    __asm__ volatile("pdep %k2, %k1, %k0" : "=r"(d) : "r"(0xfffffffffffffffful), "r"(0xff000000f0f0f0f0ul));
    printf("pdep32 %#lx\n", d);
    /* BEXTR: 32-bit sources, lengths past the size. */
    __asm__ volatile("bextr %k2, %k1, %k0" : "=r"(d) : "r"(in1 | 0x80000000ul), "r"((uint64_t)0x2800) : "cc");
    printf("bextr32 %#lx\n", d);
    __asm__ volatile("bextr %2, %1, %0" : "=r"(d) : "r"(in1), "r"((uint64_t)0x5000) : "cc");
    printf("bextr64 len 80 %#lx\n", d);
    /* RORX with a RIP-relative operand (the immediate follows it). */
    {
        static volatile uint64_t rip_value = 0x0123456789abcdeful;
        __asm__ volatile("rorx $8, %1, %0" : "=r"(d) : "m"(rip_value));
        printf("rorx rip %#lx\n", d);
    }

    /* The segment selectors of a 64-bit Linux process. */
    {
        uint16_t cs, ss;
        __asm__ volatile("mov %%cs, %0; mov %%ss, %1" : "=r"(cs), "=r"(ss));
        printf("cs %#x ss %#x\n", cs, ss);
    }
    /* FSGSBASE: RDFSBASE reads the thread pointer (glibc keeps it at
     * %fs:0 too). */
    {
        uint64_t base, self;
        __asm__ volatile("rdfsbase %0" : "=r"(base));
        __asm__ volatile("mov %%fs:0, %0" : "=r"(self));
        printf("rdfsbase matches %d\n", base == self);
    }
    far_loads();
    movsxd16();
    sink = d;
    return 0;
}
