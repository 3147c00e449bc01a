/* User code with deterministic work in several functions, for exact
 * per-function instruction counts against callgrind. No library calls in
 * the measured functions. */
#include <stdio.h>

#define N 4096
static unsigned data[N];

__attribute__((noinline)) unsigned fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__attribute__((noinline)) void fill(unsigned seed) {
    for (unsigned i = 0; i < N; i++) {
        seed = seed * 1103515245u + 12345u;
        data[i] = seed >> 8;
    }
}

__attribute__((noinline)) unsigned long sum_odd(void) {
    unsigned long s = 0;
    for (unsigned i = 0; i < N; i++)
        if (data[i] & 1)
            s += data[i];
    return s;
}

__attribute__((noinline)) void bubble(unsigned *a, unsigned n) {
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j + 1 < n - i; j++)
            if (a[j] > a[j + 1]) {
                unsigned t = a[j];
                a[j] = a[j + 1];
                a[j + 1] = t;
            }
}

int main(void) {
    fill(42);
    unsigned long s = sum_odd();
    bubble(data, 300);
    printf("fib=%u sum=%lu first=%u\n", fib(20), s, data[0]);
    return 0;
}
