/* SSE floating point compared bit for bit with the host: results, MXCSR
 * flags after each instruction (flags cleared before), NaN propagation,
 * conversions, compares, rounding, DAZ/FTZ. Prints one line per case. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t getcsr(void) { uint32_t c; __asm__ volatile("stmxcsr %0" : "=m"(c)); return c; }
static void setcsr(uint32_t c) { __asm__ volatile("ldmxcsr %0" : : "m"(c)); }
static uint32_t base = 0x1f80;

static double d_of(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static uint64_t u_of(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static float f_of(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t uf_of(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

#define BIN_SD(op) \
    static uint64_t op##_sd(double a, double b) { \
        __asm__ volatile(#op "sd %1, %0" : "+x"(a) : "x"(b)); return u_of(a); }
#define BIN_SS(op) \
    static uint32_t op##_ss(float a, float b) { \
        __asm__ volatile(#op "ss %1, %0" : "+x"(a) : "x"(b)); return uf_of(a); }
BIN_SD(add) BIN_SD(sub) BIN_SD(mul) BIN_SD(div) BIN_SD(min) BIN_SD(max) BIN_SD(sqrt)
BIN_SS(add) BIN_SS(sub) BIN_SS(mul) BIN_SS(div) BIN_SS(min) BIN_SS(max) BIN_SS(sqrt)

typedef uint64_t (*binsd)(double, double);
typedef uint32_t (*binss)(float, float);

static const uint64_t dv[] = {
    0x0000000000000000, 0x8000000000000000, 0x3ff0000000000000, 0xbff0000000000000,
    0x4008000000000000, 0x3fd5555555555555, 0x7fefffffffffffff, 0xffefffffffffffff,
    0x0010000000000000, 0x000fffffffffffff, 0x8000000000000001, 0x7ff0000000000000,
    0xfff0000000000000, 0x7ff8000000000000, 0xfff8000000000123, 0x7ff0000000000001,
    0xfff4000000000456, 0x3cb0000000000000, 0x43e0000000000000, 0xc3e0000000000001,
    0x41e0000000000000, 0xc1e0000000200000, 0x1ff0000000000000, 0x0018000000000001,
};
static const uint32_t fv[] = {
    0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x40400000, 0x3eaaaaab,
    0x7f7fffff, 0xff7fffff, 0x00800000, 0x007fffff, 0x80000001, 0x7f800000,
    0xff800000, 0x7fc00000, 0xffc00123, 0x7f800001, 0xffa00456, 0x33800000,
    0x5f000000, 0xdf000001, 0x4f000000, 0x1f800000, 0x00c00001,
};
#define N(a) (sizeof(a) / sizeof((a)[0]))

static void run_sd(const char *name, binsd f)
{
    for (unsigned i = 0; i < N(dv); i++)
        for (unsigned j = 0; j < N(dv); j++) {
            setcsr(base);
            uint64_t r = f(d_of(dv[i]), d_of(dv[j]));
            printf("%s %u %u %016llx %04x\n", name, i, j, (unsigned long long)r, getcsr());
        }
}
static void run_ss(const char *name, binss f)
{
    for (unsigned i = 0; i < N(fv); i++)
        for (unsigned j = 0; j < N(fv); j++) {
            setcsr(base);
            uint32_t r = f(f_of(fv[i]), f_of(fv[j]));
            printf("%s %u %u %08x %04x\n", name, i, j, r, getcsr());
        }
}

#define CMP_SD(imm) \
    static uint64_t cmp##imm##_sd(double a, double b) { \
        __asm__ volatile("cmpsd $" #imm ", %1, %0" : "+x"(a) : "x"(b)); return u_of(a); }
CMP_SD(0) CMP_SD(1) CMP_SD(2) CMP_SD(3) CMP_SD(4) CMP_SD(5) CMP_SD(6) CMP_SD(7)

static uint64_t comi_sd(double a, double b)
{
    uint64_t fl;
    __asm__ volatile("comisd %1, %2; pushfq; popq %0" : "=r"(fl) : "x"(b), "x"(a) : "cc");
    return fl & 0x8d5;
}
static uint64_t ucomi_sd(double a, double b)
{
    uint64_t fl;
    __asm__ volatile("ucomisd %1, %2; pushfq; popq %0" : "=r"(fl) : "x"(b), "x"(a) : "cc");
    return fl & 0x8d5;
}
static uint64_t cvt_sd2ss(double a, double b) { (void)b; float r; __asm__ volatile("cvtsd2ss %1, %0" : "=x"(r) : "x"(a)); return uf_of(r); }
static uint64_t cvt_ss2sd(double a, double b) { (void)b; float x = (float)0; double r; uint32_t u = (uint32_t)u_of(a); memcpy(&x, &u, 4); __asm__ volatile("cvtss2sd %1, %0" : "=x"(r) : "x"(x)); return u_of(r); }
static uint64_t cvt_sd2si(double a, double b) { (void)b; int32_t r; __asm__ volatile("cvtsd2si %1, %0" : "=r"(r) : "x"(a)); return (uint32_t)r; }
static uint64_t cvtt_sd2si(double a, double b) { (void)b; int32_t r; __asm__ volatile("cvttsd2si %1, %0" : "=r"(r) : "x"(a)); return (uint32_t)r; }
static uint64_t cvt_sd2sq(double a, double b) { (void)b; int64_t r; __asm__ volatile("cvtsd2si %1, %0" : "=r"(r) : "x"(a)); return r; }
static uint64_t cvtt_sd2sq(double a, double b) { (void)b; int64_t r; __asm__ volatile("cvttsd2si %1, %0" : "=r"(r) : "x"(a)); return r; }
static uint64_t cvt_sq2sd(double a, double b) { (void)b; double r; int64_t i = (int64_t)u_of(a); __asm__ volatile("cvtsi2sdq %1, %0" : "=x"(r) : "r"(i)); return u_of(r); }
static uint64_t cvt_sq2ss(double a, double b) { (void)b; float r; int64_t i = (int64_t)u_of(a); __asm__ volatile("cvtsi2ssq %1, %0" : "=x"(r) : "r"(i)); return uf_of(r); }
#define ROUND_SD(imm) \
    static uint64_t round##imm##_sd(double a, double b) { (void)b; double r; \
        __asm__ volatile("roundsd $" #imm ", %1, %0" : "=x"(r) : "x"(a)); return u_of(r); }
ROUND_SD(0) ROUND_SD(1) ROUND_SD(2) ROUND_SD(3) ROUND_SD(4) ROUND_SD(8) ROUND_SD(9) ROUND_SD(10) ROUND_SD(11) ROUND_SD(12)
static uint64_t hadd_pd(double a, double b)
{
    double x[2] __attribute__((aligned(16))) = {a, b};
    double y[2] __attribute__((aligned(16))) = {b, a};
    __asm__ volatile("movapd %0, %%xmm0; haddpd %1, %%xmm0; movapd %%xmm0, %0" : "+m"(x) : "m"(y) : "xmm0");
    return u_of(x[0]) ^ (u_of(x[1]) * 3);
}
static uint64_t dp_pd(double a, double b)
{
    double x[2] __attribute__((aligned(16))) = {a, b};
    double y[2] __attribute__((aligned(16))) = {b, 3.0};
    __asm__ volatile("movapd %0, %%xmm0; dppd $0x33, %1, %%xmm0; movapd %%xmm0, %0" : "+m"(x) : "m"(y) : "xmm0");
    return u_of(x[0]);
}

int main(void)
{
    static const struct { const char *n; binsd f; } sd[] = {
        {"addsd", add_sd}, {"subsd", sub_sd}, {"mulsd", mul_sd}, {"divsd", div_sd},
        {"minsd", min_sd}, {"maxsd", max_sd}, {"sqrtsd", sqrt_sd},
        {"cmpsd0", cmp0_sd}, {"cmpsd1", cmp1_sd}, {"cmpsd2", cmp2_sd}, {"cmpsd3", cmp3_sd},
        {"cmpsd4", cmp4_sd}, {"cmpsd5", cmp5_sd}, {"cmpsd6", cmp6_sd}, {"cmpsd7", cmp7_sd},
        {"comisd", comi_sd}, {"ucomisd", ucomi_sd}, {"haddpd", hadd_pd}, {"dppd", dp_pd},
    };
    static const struct { const char *n; binsd f; } un[] = {
        {"cvtsd2ss", cvt_sd2ss}, {"cvtss2sd", cvt_ss2sd}, {"cvtsd2si", cvt_sd2si},
        {"cvttsd2si", cvtt_sd2si}, {"cvtsd2sq", cvt_sd2sq}, {"cvttsd2sq", cvtt_sd2sq},
        {"cvtsq2sd", cvt_sq2sd}, {"cvtsq2ss", cvt_sq2ss},
        {"roundsd0", round0_sd}, {"roundsd1", round1_sd}, {"roundsd2", round2_sd},
        {"roundsd3", round3_sd}, {"roundsd4", round4_sd}, {"roundsd8", round8_sd},
        {"roundsd9", round9_sd}, {"roundsd10", round10_sd}, {"roundsd11", round11_sd},
        {"roundsd12", round12_sd},
    };
    static const struct { const char *n; binss f; } ss[] = {
        {"addss", add_ss}, {"subss", sub_ss}, {"mulss", mul_ss}, {"divss", div_ss},
        {"minss", min_ss}, {"maxss", max_ss}, {"sqrtss", sqrt_ss},
    };
    static const uint32_t modes[] = {0x1f80, 0x3f80, 0x5f80, 0x7f80, 0x9f80, 0x1fc0, 0x9fc0};
    for (unsigned m = 0; m < N(modes); m++) {
        base = modes[m];
        printf("mode %04x\n", base);
        for (unsigned k = 0; k < N(sd); k++) run_sd(sd[k].n, sd[k].f);
        for (unsigned k = 0; k < N(ss); k++) run_ss(ss[k].n, ss[k].f);
        for (unsigned k = 0; k < N(un); k++)
            for (unsigned i = 0; i < N(dv); i++) {
                setcsr(base);
                uint64_t r = un[k].f(d_of(dv[i]), 0);
                printf("%s %u %016llx %04x\n", un[k].n, i, (unsigned long long)r, getcsr());
            }
    }
    return 0;
}
