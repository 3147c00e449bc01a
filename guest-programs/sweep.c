/* A loop over a large array with a data-dependent branch: one side sweeps
 * a 16 MiB buffer a cache line at a time (every access misses L1), the
 * other does arithmetic only. The path through the sweeping side is the
 * one that misses (Ammons, Ball and Larus: misses concentrate on few paths). */
#include <stdio.h>

#define N 200000
#define BIG (16u << 20)

unsigned char big[BIG];
static unsigned char pick[N];

__attribute__((noinline)) static void fill(void) {
    unsigned x = 12345;
    for (int i = 0; i < N; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        pick[i] = x & 1;
    }
}

__attribute__((noinline)) static long walk(void) {
    long s = 0;
    unsigned idx = 0;
    for (int i = 0; i < N; i++) {
        if (pick[i]) {
            s += big[idx]; /* SWEEP */
            idx = (idx + 4096 + 64) & (BIG - 1);
        } else {
            s += i & 7; /* CALM */
        }
    }
    return s;
}

int main(void) {
    fill();
    long s = walk();
    printf("%ld\n", s);
    return 0;
}
