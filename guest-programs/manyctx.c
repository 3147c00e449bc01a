/* A binary tree of calls: a_k and b_k each call a_{k+1} and b_{k+1}, so
 * depth d makes 2^(d+1) - 2 distinct calling contexts below main. Prints
 * how many calls it made, for a test to compare with the profile. */
#include <stdio.h>
#include <stdlib.h>

static long calls;

#define LEAF(k)                                                              \
    __attribute__((noinline)) void a##k(int d) { (void)d; calls++; }        \
    __attribute__((noinline)) void b##k(int d) { (void)d; calls++; }
#define LEVEL(k, n)                                                          \
    __attribute__((noinline)) void a##k(int d) {                             \
        calls++;                                                             \
        if (d) { a##n(d - 1); b##n(d - 1); }                                 \
    }                                                                        \
    __attribute__((noinline)) void b##k(int d) {                             \
        calls++;                                                             \
        if (d) { a##n(d - 1); b##n(d - 1); }                                 \
    }

LEAF(24)
LEVEL(23, 24) LEVEL(22, 23) LEVEL(21, 22) LEVEL(20, 21) LEVEL(19, 20)
LEVEL(18, 19) LEVEL(17, 18) LEVEL(16, 17) LEVEL(15, 16) LEVEL(14, 15)
LEVEL(13, 14) LEVEL(12, 13) LEVEL(11, 12) LEVEL(10, 11) LEVEL(9, 10)
LEVEL(8, 9) LEVEL(7, 8) LEVEL(6, 7) LEVEL(5, 6) LEVEL(4, 5) LEVEL(3, 4)
LEVEL(2, 3) LEVEL(1, 2)

int main(int argc, char **argv) {
    int depth = argc > 1 ? atoi(argv[1]) : 10;
    if (depth < 1 || depth > 23)
        depth = 10;
    a1(depth - 1);
    b1(depth - 1);
    printf("calls %ld\n", calls);
    return 0;
}
