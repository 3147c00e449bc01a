/* Numeric loops that gcc -O3 -march=x86-64-v3 vectorizes with AVX, AVX2
 * and FMA (dot products, saxpy, integer arithmetic, conversions, min/max,
 * conditional selects, shuffles of complex numbers): every result printed
 * exactly (hex floats), so that a run under pathvm compares byte for byte
 * with a native one. Built by build.sh as avxdot-v3 (see there). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N 1003

static float fa[N], fb[N], fc[N];
static double da[N], db[N], dc[N];
static int32_t ia[N], ib[N], ic[N];
static uint8_t ua[N], ub[N];

__attribute__((noinline)) static float dotf(const float *a, const float *b, int n)
{
    float s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

__attribute__((noinline)) static double dotd(const double *a, const double *b, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

__attribute__((noinline)) static void saxpy(float *y, const float *x, float a, int n)
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

__attribute__((noinline)) static void daxpy(double *y, const double *x, double a, int n)
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

__attribute__((noinline)) static int64_t ints(int32_t *c, const int32_t *a, const int32_t *b, int n)
{
    int64_t s = 0;
    for (int i = 0; i < n; i++) {
        c[i] = a[i] * b[i] + (a[i] >> 3) - (b[i] << 2);
        s += c[i] ^ (c[i] >> 7);
    }
    return s;
}

__attribute__((noinline)) static unsigned bytes(const uint8_t *a, const uint8_t *b, int n)
{
    unsigned s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] > b[i] ? a[i] - b[i] : b[i] - a[i];
    return s;
}

__attribute__((noinline)) static void convert(float *f, double *d, const int32_t *a, int n)
{
    for (int i = 0; i < n; i++) {
        f[i] = (float)a[i] * 0.5f;
        d[i] = (double)f[i] + (double)a[i];
    }
}

__attribute__((noinline)) static void clamp(float *y, const float *x, int n)
{
    for (int i = 0; i < n; i++) {
        float v = x[i] < 0 ? -x[i] : x[i] * 2;
        y[i] = fminf(fmaxf(v, 0.25f), 300.0f);
    }
}

__attribute__((noinline)) static void cmul(float *re, float *im, const float *a, const float *b, int n)
{
    /* interleaved complex numbers: (a0 + i a1) (b0 + i b1) */
    for (int i = 0; i < n / 2; i++) {
        float ar = a[2 * i], ai = a[2 * i + 1], br = b[2 * i], bi = b[2 * i + 1];
        re[i] = ar * br - ai * bi;
        im[i] = ar * bi + ai * br;
    }
}

__attribute__((noinline)) static double roots(const double *x, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += sqrt(fabs(x[i])) / (1.0 + x[i] * x[i]);
    return s;
}

static uint32_t seed = 12345;
static uint32_t next(void)
{
    seed = seed * 1103515245u + 12345u;
    return seed >> 8;
}

int main(void)
{
    for (int i = 0; i < N; i++) {
        fa[i] = (float)(int)(next() % 2001 - 1000) / 64.0f;
        fb[i] = (float)(int)(next() % 2001 - 1000) / 256.0f;
        da[i] = (double)(int)(next() % 20001 - 10000) / 3.0;
        db[i] = (double)(int)(next() % 20001 - 10000) / 7.0;
        ia[i] = (int32_t)next() - (1 << 23);
        ib[i] = (int32_t)(next() % 70000) - 35000;
        ua[i] = (uint8_t)next();
        ub[i] = (uint8_t)next();
    }
    printf("dotf %a\n", dotf(fa, fb, N));
    printf("dotd %a\n", dotd(da, db, N));
    for (int i = 0; i < N; i++) {
        fc[i] = fb[i];
        dc[i] = db[i];
    }
    saxpy(fc, fa, 1.5f, N);
    daxpy(dc, da, -0.75, N);
    printf("saxpy %a %a %a\n", fc[0], fc[N / 2], fc[N - 1]);
    printf("daxpy %a %a %a\n", dc[0], dc[N / 2], dc[N - 1]);
    printf("ints %lld %d %d\n", (long long)ints(ic, ia, ib, N), ic[1], ic[N - 2]);
    printf("bytes %u\n", bytes(ua, ub, N));
    convert(fc, dc, ia, N);
    printf("convert %a %a %a\n", fc[7], dc[7], dc[N - 1]);
    clamp(fc, fa, N);
    printf("clamp %a %a %a\n", fc[3], fc[100], dotf(fc, fb, N));
    cmul(fc, fc + N / 2 + 1, fa, fb, N - 1);
    printf("cmul %a %a\n", fc[10], fc[N / 2 + 11]);
    printf("roots %a\n", roots(da, N));
    return 0;
}
