/* Two versions of one program for `pathvm diff`: built with -DMORE_WORK,
 * `heavy` does 1% more iterations; nothing else changes. */
#include <stdio.h>

#ifdef MORE_WORK
#define ITERS 101000
#else
#define ITERS 100000
#endif

volatile unsigned long sink;

__attribute__((noinline)) void heavy(void) {
    for (int i = 0; i < ITERS; i++)
        sink += i;
}

__attribute__((noinline)) void light(void) {
    for (int i = 0; i < 50000; i++)
        sink ^= i;
}

int main(void) {
    heavy();
    light();
    printf("%lu\n", sink);
    return 0;
}
