/* Numeric loops that gcc -O3 -march=x86-64-v3 vectorizes with AVX, AVX2
 * and FMA (dot products, saxpy, integer arithmetic, conversions, min/max,
 * conditional selects, shuffles of complex numbers) and table look-ups by
 * every AVX2 gather (intrinsics, masked and not): every result printed
 * exactly (hex floats), so that a run under pathvm compares byte for byte
 * with a native one. Built by build.sh as avxdot-v3 (see there). */
#include <immintrin.h>
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

#ifdef __AVX2__
/* Every AVX2 gather (only in the x86-64-v3 builds), 128 and 256 bits, with all elements and with a mask
   (the odd elements, or those of negative keys), from tables indexed
   forwards and backwards (negative indexes from the table's middle). */
__attribute__((noinline)) static int64_t gathers(const int32_t *ti, const float *tf,
                                                 const double *td, int n)
{
    const int32_t *mi = ti + n / 2;
    const float *mf = tf + n / 2;
    const double *md = td + n / 2;
    const int64_t *mq = (const int64_t *)td + n / 2;
    int64_t s = 0;
    double f = 0;
    for (int i = 0; i + 8 <= n; i += 8) {
        __m256i k = _mm256_loadu_si256((const __m256i *)(ti + i));
        __m256i x = _mm256_and_si256(k, _mm256_set1_epi32(255));
        __m256i y = _mm256_sub_epi32(x, _mm256_set1_epi32(128));
        __m128i x4 = _mm256_castsi256_si128(x);
        __m128i y4 = _mm256_extracti128_si256(y, 1);
        __m256i xq = _mm256_cvtepi32_epi64(x4);
        __m256i yq = _mm256_cvtepi32_epi64(y4);
        __m256i odd = _mm256_set_epi32(-1, 0, -1, 0, -1, 0, -1, 0);
        __m256i sign = _mm256_srai_epi32(k, 31);
        __m256i v = _mm256_i32gather_epi32(mi, y, 4);
        v = _mm256_add_epi32(v, _mm256_mask_i32gather_epi32(v, ti, x, sign, 4));
        v = _mm256_add_epi32(v, _mm256_castsi128_si256(_mm_i32gather_epi32(mi, y4, 4)));
        v = _mm256_add_epi32(v, _mm256_castsi128_si256(
                                    _mm_mask_i32gather_epi32(x4, ti, x4, _mm256_castsi256_si128(sign), 2)));
        v = _mm256_add_epi32(v, _mm256_castsi128_si256(_mm256_i64gather_epi32(mi, yq, 4)));
        v = _mm256_add_epi32(v, _mm256_castsi128_si256(_mm_i64gather_epi32(ti, _mm256_castsi256_si128(xq), 4)));
        __m256i q = _mm256_i32gather_epi64((const long long *)mq, y4, 8);
        q = _mm256_add_epi64(q, _mm256_mask_i64gather_epi64(q, (const long long *)mq, yq, odd, 8));
        q = _mm256_add_epi64(q, _mm256_castsi128_si256(_mm_i64gather_epi64((const long long *)mq, _mm256_castsi256_si128(yq), 8)));
        q = _mm256_add_epi64(q, _mm256_castsi128_si256(_mm_i32gather_epi64((const long long *)mq, y4, 8)));
        __m256 g = _mm256_i32gather_ps(mf, y, 4);
        g = _mm256_add_ps(g, _mm256_mask_i32gather_ps(g, tf, x, _mm256_castsi256_ps(sign), 4));
        g = _mm256_add_ps(g, _mm256_castps128_ps256(_mm256_i64gather_ps(mf, yq, 4)));
        g = _mm256_add_ps(g, _mm256_castps128_ps256(_mm_i32gather_ps(tf, x4, 4)));
        g = _mm256_add_ps(g, _mm256_castps128_ps256(_mm_i64gather_ps(mf, _mm256_castsi256_si128(yq), 4)));
        __m256d h = _mm256_i32gather_pd(md, y4, 8);
        h = _mm256_add_pd(h, _mm256_mask_i64gather_pd(h, md, yq, _mm256_castsi256_pd(odd), 8));
        h = _mm256_add_pd(h, _mm256_castpd128_pd256(_mm_i32gather_pd(td, x4, 8)));
        h = _mm256_add_pd(h, _mm256_castpd128_pd256(_mm_i64gather_pd(md, _mm256_castsi256_si128(yq), 8)));
        int32_t vi[8];
        int64_t qi[4];
        float gf[8];
        double hd[4];
        _mm256_storeu_si256((__m256i *)vi, v);
        _mm256_storeu_si256((__m256i *)qi, q);
        _mm256_storeu_ps(gf, g);
        _mm256_storeu_pd(hd, h);
        for (int j = 0; j < 8; j++) {
            s = s * 31 + vi[j];
            f += gf[j];
        }
        for (int j = 0; j < 4; j++) {
            s = s * 17 + qi[j];
            f += hd[j];
        }
    }
    return s ^ (int64_t)(f * 1024);
}
#endif

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
#ifdef __AVX2__
    printf("gathers %lld\n", (long long)gathers(ia, fa, da, N));
#endif
    return 0;
}
