/* glibc's long double functions, which compute with the x87 transcendental
 * instructions (fsin, fcos, fptan, fpatan, f2xm1, fyl2x, fyl2xp1, fscale,
 * fprem): results printed as %La over edge values and seeded random ones,
 * in each rounding mode. Compared byte for byte with a native run. */
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint64_t state = 0x9e3779b97f4a7c15ULL;

static uint64_t next(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

/* A random long double: sign, exponent in [lo, hi], random significand. */
static long double rnd(int lo, int hi)
{
    long double x;
    uint64_t m = next() | (1ULL << 63);
    uint16_t se = (uint16_t)(16383 + lo + (int)(next() % (uint64_t)(hi - lo + 1)));
    if (next() & 1) {
        se |= 0x8000;
    }
    memset(&x, 0, sizeof x);
    memcpy(&x, &m, 8);
    memcpy((char *)&x + 8, &se, 2);
    return x;
}

static const long double edge[] = {
    0.0L, -0.0L, 1.0L, -1.0L, 0.5L, -0.5L, 2.0L, 0.75L, 1e-5L, -1e-5L,
    3.14159265358979323846L, 1.57079632679489661923L, 0.78539816339744830962L,
    10.0L, -10.0L, 100.0L, 1e10L, -1e10L, 1e18L, 9.2e18L, 1e19L, 1e300L,
    1e-300L, 1e-4940L, 0x1p-16382L, 0x1p-70L, 0x1p-40L, 11356.0L, -11400.0L,
    16384.0L, -16446.0L, 0.693147180559945309417L, 2.71828182845904523536L,
    1e4000L, -1e4000L, 1.0L / 0.0L, -1.0L / 0.0L, 0.0L / 0.0L,
};
#define NEDGE (sizeof edge / sizeof edge[0])

static void one(const char *name, long double x, long double r)
{
    printf("%s(%La) = %La\n", name, x, r);
}

static void two(const char *name, long double x, long double y, long double r)
{
    printf("%s(%La, %La) = %La\n", name, x, y, r);
}

static void unary(long double x)
{
    one("sinl", x, sinl(x));
    one("cosl", x, cosl(x));
    one("tanl", x, tanl(x));
    one("expl", x, expl(x));
    one("exp2l", x, exp2l(x));
    one("logl", x, logl(x));
    one("log2l", x, log2l(x));
    one("log1pl", x, log1pl(x));
}

static void binary(long double x, long double y)
{
    two("atan2l", x, y, atan2l(x, y));
    two("powl", x, y, powl(x, y));
}

int main(void)
{
    static const int modes[] = { FE_TONEAREST, FE_DOWNWARD, FE_UPWARD,
                                 FE_TOWARDZERO };
    static const char *names[] = { "nearest", "down", "up", "zero" };
    unsigned i, j, m;

    for (m = 0; m < 4; m++) {
        fesetround(modes[m]);
        printf("rounding %s\n", names[m]);
        for (i = 0; i < NEDGE; i++) {
            unary(edge[i]);
            for (j = 0; j < NEDGE; j++) {
                binary(edge[i], edge[j]);
            }
        }
        for (i = 0; i < 400; i++) {
            unary(rnd(-8, 8));
            unary(rnd(-70, 70));
            binary(rnd(-4, 4), rnd(-4, 4));
            binary(rnd(-3, 3), rnd(-30, 30));
        }
    }
    fesetround(FE_TONEAREST);
    return 0;
}
