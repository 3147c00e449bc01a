/* Region markers (include/pathvm.h): phases of known work, a stopped
 * stretch, and optionally a zero.
 *
 *   phases N M [z]
 *
 * Phase "work" runs spin(N): 2*N instructions in its loop; phase "stopped"
 * runs spin(M) between PATHVM_STOP() and PATHVM_START(), so none of it
 * counts; with "z", PATHVM_ZERO() then discards everything before; phase
 * "tail" prints a line whose text does not depend on N or M. */
#include <stdio.h>
#include <stdlib.h>
#include "pathvm.h"

/* Exactly 2*n instructions in the loop (n > 0). */
__attribute__((noinline)) void spin(long n)
{
    __asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n));
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000;
    long m = argc > 2 ? atol(argv[2]) : 1000;
    int zero = argc > 3 && argv[3][0] == 'z';
    long r = pathvm_marker(PATHVM_OP_PHASE, "work");
    spin(n);
    PATHVM_PHASE("stopped");
    PATHVM_STOP();
    spin(m);
    PATHVM_START();
    if (zero)
        PATHVM_ZERO();
    PATHVM_PHASE("tail");
    printf("phases done; a marker returned %ld\n", r);
    return 3;
}
