/* Recursion deeper than the calling context tree's default depth cap:
 * prints how many times `down` was called, so a test can compare the
 * profile's call count with what the program itself counted natively. */
#include <stdio.h>
#include <stdlib.h>

static long calls;

__attribute__((noinline)) long down(long n) {
    calls++;
    if (n == 0)
        return 0;
    return 1 + down(n - 1) + (n & 1);
}

int main(int argc, char **argv) {
    long depth = argc > 1 ? atol(argv[1]) : 5000;
    long r = down(depth);
    printf("down %ld calls %ld\n", r, calls);
    return 0;
}
