/* The benchmark's vector-heavy program: a 320x320 double matrix multiply
 * written with SSE2 intrinsics (two doubles per instruction), then a checksum
 * so that nothing is optimized away. Built by scripts/bench.py with gcc -O2. */
#include <emmintrin.h>
#include <stdio.h>
#include <stdlib.h>

#define N 320

static double a[N][N], b[N][N], c[N][N];

int main(void) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            a[i][j] = (double)((i * 7 + j * 3) % 17) / 8.0;
            b[i][j] = (double)((i * 5 + j * 11) % 13) / 4.0;
        }
    for (int i = 0; i < N; i++)
        for (int k = 0; k < N; k++) {
            __m128d aik = _mm_set1_pd(a[i][k]);
            for (int j = 0; j < N; j += 2) {
                __m128d cij = _mm_load_pd(&c[i][j]);
                __m128d bkj = _mm_load_pd(&b[k][j]);
                _mm_store_pd(&c[i][j], _mm_add_pd(cij, _mm_mul_pd(aik, bkj)));
            }
        }
    double sum = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            sum += c[i][j] * (double)((i + j) % 5);
    printf("%.1f\n", sum);
    return 0;
}
