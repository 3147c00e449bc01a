/* Kernels whose memory accesses are legacy-SSE 16-byte loads and stores
 * (SSE2 intrinsics, so every build variant has them): a matrix multiply
 * over misaligned rows (movupd, some straddling two cache lines), an
 * unaligned byte copy (movdqu), an aligned integer sum (movdqa and paddd
 * from memory) and non-temporal stores (movntdq). Larger than a 32 KiB L1
 * data cache, so they miss. Each prints a checksum, so that a run under
 * pathvm compares with a native one; tests/cache.rs compares their loads,
 * stores and L1 misses with cachegrind's. */
#include <emmintrin.h>
#include <stdint.h>
#include <stdio.h>

#define N 96
/* one double more per row: rows start 8 bytes apart from 16-byte alignment */
static double A[N][N + 1] __attribute__((aligned(64)));
static double B[N][N + 1] __attribute__((aligned(64)));
static double C[N][N + 1] __attribute__((aligned(64)));

__attribute__((noinline)) void mm_sse2(void)
{
    for (int i = 0; i < N; i++)
        for (int k = 0; k < N; k++) {
            __m128d a = _mm_set1_pd(A[i][k]);
            for (int j = 0; j < N; j += 2) {
                __m128d b = _mm_loadu_pd(&B[k][j + 1]);
                __m128d c = _mm_loadu_pd(&C[i][j + 1]);
                _mm_storeu_pd(&C[i][j + 1], _mm_add_pd(c, _mm_mul_pd(a, b)));
            }
        }
}

#define BYTES (96 * 1024)
static uint8_t src[BYTES + 64] __attribute__((aligned(64)));
static uint8_t dst[BYTES + 64] __attribute__((aligned(64)));

__attribute__((noinline)) void copy_unaligned(uint8_t *d, const uint8_t *s, int n)
{
    for (int i = 0; i + 16 <= n; i += 16)
        _mm_storeu_si128((__m128i *)(d + i), _mm_loadu_si128((const __m128i *)(s + i)));
}

__attribute__((noinline)) uint32_t sum_aligned(const uint8_t *p, int n)
{
    __m128i s = _mm_setzero_si128();
    for (int i = 0; i < n; i += 16)
        s = _mm_add_epi32(s, _mm_load_si128((const __m128i *)(p + i)));
    uint32_t out[4];
    _mm_storeu_si128((__m128i *)out, s);
    return out[0] + 3 * out[1] + 5 * out[2] + 7 * out[3];
}

__attribute__((noinline)) void stream_fill(uint8_t *d, int n, int v)
{
    __m128i x = _mm_set1_epi8((char)v);
    for (int i = 0; i < n; i += 16)
        _mm_stream_si128((__m128i *)(d + i), x);
    _mm_sfence();
}

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j <= N; j++) {
            A[i][j] = i + j;
            B[i][j] = i - j;
            C[i][j] = 0;
        }
    mm_sse2();
    double t = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j <= N; j++)
            t += C[i][j] * (j + 1);
    printf("mm %.17g\n", t);

    for (int i = 0; i < BYTES + 64; i++)
        src[i] = (uint8_t)(i * 7 + (i >> 9));
    for (int r = 0; r < 3; r++)
        copy_unaligned(dst + 5 + r, src + 3, BYTES);
    uint32_t h = 0;
    for (int i = 0; i < BYTES + 64; i++)
        h = h * 31 + dst[i];
    printf("copy %08x\n", h);
    printf("sum %08x\n", sum_aligned(src, BYTES) ^ sum_aligned(dst, BYTES));
    stream_fill(dst, BYTES, 0x5a);
    printf("stream %08x\n", sum_aligned(dst, BYTES));
    return 0;
}
