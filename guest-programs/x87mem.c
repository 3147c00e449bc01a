/* Kernels whose memory accesses are x87 80-bit loads and stores (long
 * double arrays: fldt and fstpt) and read-modify-write instructions (an
 * add to memory). The arrays are larger than a 32 KiB L1 data cache, so
 * they miss. It prints a checksum, so that a run under pathvm compares
 * with a native one; tests/cache.rs compares their loads, stores and L1
 * misses with cachegrind's. */
#include <stdio.h>

#define N 4096
static long double X[N], Y[N];
static long counts[N];

__attribute__((noinline)) long double ld_sum(void)
{
    long double s = 0;
    for (int i = 0; i < N; i++)
        s += X[i];
    return s;
}

__attribute__((noinline)) void ld_axpy(long double a)
{
    for (int i = 0; i < N; i++)
        Y[i] = a * X[i] + Y[i];
}

__attribute__((noinline)) void bump(int n)
{
    for (int i = 0; i < n; i++)
        counts[(i * 7) & (N - 1)] += 3;
}

int main(void)
{
    for (int i = 0; i < N; i++) {
        X[i] = i * 0.5L;
        Y[i] = 1;
    }
    for (int r = 0; r < 3; r++)
        ld_axpy(1.5L);
    long double s = ld_sum() + Y[N - 1];
    bump(100000);
    printf("%.6Lf %ld\n", s, counts[5]);
    return 0;
}
