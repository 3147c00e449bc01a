/* x87 compared bit for bit with the host: results (80-bit), the status
 * word's exception flags and condition codes after each instruction, over
 * edge values, precision and rounding controls. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct { uint64_t m; uint16_t se; } x80;


static void show(const char *what, unsigned i, unsigned j, long double r, unsigned sw)
{
    unsigned char b[16];
    memcpy(b, &r, 16);
    uint64_t m; uint16_t se;
    memcpy(&m, b, 8); memcpy(&se, b + 8, 2);
    printf("%s %u %u %04x:%016llx %04x\n", what, i, j, se, (unsigned long long)m, sw);
}

static const x80 vals[] = {
    {0, 0}, {0, 0x8000}, {0x8000000000000000ull, 0x3fff}, {0x8000000000000000ull, 0xbfff},
    {0xc000000000000000ull, 0x4000}, {0xaaaaaaaaaaaaaaabull, 0x3ffd}, {0xffffffffffffffffull, 0x7ffe},
    {0x8000000000000000ull, 0x0001}, {0x7fffffffffffffffull, 0x0000}, {0x0000000000000001ull, 0x8000},
    {0x8000000000000000ull, 0x7fff}, {0x8000000000000000ull, 0xffff}, {0xc000000000000000ull, 0x7fff},
    {0xc000000000000123ull, 0xffff}, {0xa000000000000000ull, 0x7fff}, {0x8000000000000001ull, 0x4040},
    {0x8000000000000000ull, 0x403e}, {0xc90fdaa22168c235ull, 0x4000}, {0x8000000000000000ull, 0x0000},
    {0xfffffffffffff800ull, 0x43fe}, {0x8000000000000000ull, 0x3c01}, {0x8000000000000000ull, 0x3f80},
    {0x9876543210fedcbaull, 0x401d}, {0x8000000000000000ull, 0x400e}, {0xffff000000000000ull, 0x400e},
};
#define NV (sizeof(vals) / sizeof(vals[0]))

static unsigned short cw = 0x37f;

/* Each case starts from FNINIT's state with the control word under test
 * and leaves the stack empty. */
#define BIN(name, insn) \
    static void name(unsigned i, unsigned j) { \
        x80 a = vals[i], b = vals[j]; long double r; unsigned short s; \
        __asm__ volatile("fninit; fldcw %3; fldt %2; fldt %1; " insn "; fnstsw %4; fstpt %0; fninit" \
            : "=m"(r) : "m"(a), "m"(b), "m"(cw), "m"(s) : "memory"); \
        show(#name, i, j, r, s); }
BIN(fadd, "fadd %%st(1), %%st")
BIN(fsub, "fsub %%st(1), %%st")
BIN(fmul, "fmul %%st(1), %%st")
BIN(fdiv, "fdiv %%st(1), %%st")
BIN(fprem, "fprem")
BIN(fprem1, "fprem1")
BIN(fscale, "fscale")
BIN(fcom, "fcom %%st(1)")
BIN(fucom, "fucom %%st(1)")

#define UN(name, insn) \
    static void name(unsigned i, unsigned j) { (void)j; \
        x80 a = vals[i]; long double r; unsigned short s; \
        __asm__ volatile("fninit; fldcw %2; fldt %1; " insn "; fnstsw %3; fstpt %0; fninit" \
            : "=m"(r) : "m"(a), "m"(cw), "m"(s) : "memory"); \
        show(#name, i, 0, r, s); }
UN(fsqrt, "fsqrt")
UN(frndint, "frndint")
UN(fxam, "fxam")
UN(ftst, "ftst")
UN(fabs_, "fabs")
UN(fchs, "fchs")

static void fxtract(unsigned i, unsigned j) { (void)j;
    x80 a = vals[i]; long double sig, ex; unsigned short s;
    __asm__ volatile("fninit; fldcw %3; fldt %2; fxtract; fnstsw %4; fstpt %0; fstpt %1; fninit"
        : "=m"(sig), "=m"(ex) : "m"(a), "m"(cw), "m"(s) : "memory");
    show("fxtract.sig", i, 0, sig, s); show("fxtract.exp", i, 0, ex, s); }

#define ST(insn, var) \
    __asm__ volatile("fninit; fldcw %2; fldt %1; " insn " %0; fnstsw %3; fninit" \
        : "=m"(var) : "m"(a), "m"(cw), "m"(s) : "memory")
static void stores(unsigned i, unsigned j) { (void)j;
    x80 a = vals[i]; unsigned short s;
    float f; double d; short h; int w; long long q; unsigned char bcd[10];
    ST("fsts", f); { uint32_t u; memcpy(&u, &f, 4); printf("fsts %u %08x %04x\n", i, u, s); }
    ST("fstl", d); { uint64_t u; memcpy(&u, &d, 8); printf("fstl %u %016llx %04x\n", i, (unsigned long long)u, s); }
    ST("fists", h); printf("fists %u %04x %04x\n", i, (unsigned short)h, s);
    ST("fistl", w); printf("fistl %u %08x %04x\n", i, (unsigned)w, s);
    ST("fistpll", q); printf("fistpll %u %016llx %04x\n", i, (unsigned long long)q, s);
    ST("fisttps", h); printf("fisttps %u %04x %04x\n", i, (unsigned short)h, s);
    ST("fisttpl", w); printf("fisttpl %u %08x %04x\n", i, (unsigned)w, s);
    ST("fisttpll", q); printf("fisttpll %u %016llx %04x\n", i, (unsigned long long)q, s);
    ST("fbstp", bcd);
    printf("fbstp %u ", i); for (int k = 9; k >= 0; k--) printf("%02x", bcd[k]); printf(" %04x\n", s);
}

static const uint32_t fl[] = {0x7f800001, 0xff800000, 0x00000001, 0x80400000, 0x7fc00000, 0x3f800000,
                              0xffbfffff, 0x7fa00000};
static const uint64_t dl[] = {0x7ff0000000000001ull, 0x0000000000000001ull, 0x800fffffffffffffull, 0x7ff8000000000000ull, 0x3ff0000000000000ull,
                              0xfff4000000000000ull, 0x7ff7ffffffffffffull};
static const int32_t il[] = {0, 1, -1, 0x7fffffff, -0x80000000};
#define NF (sizeof fl / sizeof fl[0])
#define ND (sizeof dl / sizeof dl[0])
#define NI (sizeof il / sizeof il[0])

/* ST0 op a memory operand (m32, m64, m32int, m16int): with NaNs on either
 * side, the x87's rule (a QNaN wins over an SNaN, of two SNaNs or two QNaNs
 * the larger significand) sees the memory operand's SNaN as signalling. */
#define MEM(name, insn, T, arr) \
    static void name(unsigned i, unsigned j) { \
        x80 a = vals[i]; T m; long double r; unsigned short s; \
        memcpy(&m, &arr[j], sizeof m); \
        __asm__ volatile("fninit; fldcw %3; fldt %1; " insn " %2; fnstsw %4; fstpt %0; fninit" \
            : "=m"(r) : "m"(a), "m"(m), "m"(cw), "m"(s) : "memory"); \
        show(#name, i, j, r, s); }
MEM(fadds, "fadds", float, fl) MEM(fsubs, "fsubs", float, fl) MEM(fsubrs, "fsubrs", float, fl)
MEM(fmuls, "fmuls", float, fl) MEM(fdivs, "fdivs", float, fl) MEM(fdivrs, "fdivrs", float, fl)
MEM(fcoms, "fcoms", float, fl)
MEM(faddl, "faddl", double, dl) MEM(fsubl, "fsubl", double, dl) MEM(fsubrl, "fsubrl", double, dl)
MEM(fmull, "fmull", double, dl) MEM(fdivl, "fdivl", double, dl) MEM(fdivrl, "fdivrl", double, dl)
MEM(fcoml, "fcoml", double, dl)
MEM(fiaddl, "fiaddl", int32_t, il) MEM(fisubrl, "fisubrl", int32_t, il)
MEM(fimull, "fimull", int32_t, il) MEM(fidivl, "fidivl", int32_t, il)
MEM(fiadds, "fiadds", int16_t, il) MEM(fidivrs, "fidivrs", int16_t, il)

static void loads(unsigned i, unsigned j) { (void)j;
    long double r; unsigned short s;
    if (i < sizeof fl / 4) { float f; memcpy(&f, &fl[i], 4);
        __asm__ volatile("fninit; fldcw %2; flds %1; fnstsw %3; fstpt %0; fninit" : "=m"(r) : "m"(f), "m"(cw), "m"(s) : "memory");
        show("flds", i, 0, r, s); }
    if (i < sizeof dl / 8) { double d; memcpy(&d, &dl[i], 8);
        __asm__ volatile("fninit; fldcw %2; fldl %1; fnstsw %3; fstpt %0; fninit" : "=m"(r) : "m"(d), "m"(cw), "m"(s) : "memory");
        show("fldl", i, 0, r, s); }
}

static void consts(void)
{
    long double r; unsigned short s;
#define C(insn) __asm__ volatile("fninit; fldcw %1; " insn "; fnstsw %2; fstpt %0; fninit" \
        : "=m"(r) : "m"(cw), "m"(s) : "memory"); show(insn, 0, 0, r, s);
    C("fldpi") C("fldl2e") C("fldl2t") C("fldlg2") C("fldln2") C("fld1") C("fldz")
}

int main(void)
{
    static const unsigned short cws[] = {0x37f, 0x27f, 0x07f, 0x77f, 0xb7f, 0xf7f, 0x360};
    void (*bins[])(unsigned, unsigned) = {fadd, fsub, fmul, fdiv, fcom, fucom};
    void (*uns[])(unsigned, unsigned) = {fsqrt, frndint, fxam, ftst, fabs_, fchs, fxtract, stores, loads};
    for (unsigned c = 0; c < sizeof cws / 2; c++) {
        cw = cws[c];
        if (cw == 0x360) continue; /* unmasked: separate test */
        printf("cw %04x\n", cw);
        consts();
        for (unsigned k = 0; k < sizeof bins / sizeof bins[0]; k++)
            for (unsigned i = 0; i < NV; i++)
                for (unsigned j = 0; j < NV; j++) bins[k](i, j);
        for (unsigned k = 0; k < sizeof uns / sizeof uns[0]; k++)
            for (unsigned i = 0; i < NV; i++) uns[k](i, 0);
    }
    cw = 0x37f;
    printf("cw %04x remainders\n", cw);
    for (unsigned i = 0; i < NV; i++)
        for (unsigned j = 0; j < NV; j++) { fprem(i, j); fprem1(i, j); fscale(i, j); }
    for (unsigned c = 0; c < 2; c++) {
        cw = c ? 0x07f : 0x37f;
        printf("cw %04x memory operands\n", cw);
        void (*f32[])(unsigned, unsigned) = {fadds, fsubs, fsubrs, fmuls, fdivs, fdivrs, fcoms};
        void (*f64[])(unsigned, unsigned) = {faddl, fsubl, fsubrl, fmull, fdivl, fdivrl, fcoml};
        void (*fint[])(unsigned, unsigned) = {fiaddl, fisubrl, fimull, fidivl, fiadds, fidivrs};
        for (unsigned i = 0; i < NV; i++) {
            for (unsigned k = 0; k < 7; k++) {
                for (unsigned j = 0; j < NF; j++) f32[k](i, j);
                for (unsigned j = 0; j < ND; j++) f64[k](i, j);
            }
            for (unsigned k = 0; k < 6; k++)
                for (unsigned j = 0; j < NI; j++) fint[k](i, j);
        }
    }
    return 0;
}
