/* Floating-point arguments through the first, lazily bound call of a
 * library function, and the x87 unit as execve leaves it. Built the
 * default way (no -z now), so glibc's lazy-binding trampoline saves and
 * restores the argument registers with FXSAVE/FXRSTOR around the resolver;
 * a virtual CPU whose FXSAVE skips the XMM registers hands pow garbage. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    volatile double x = argc > 1 ? atof(argv[1]) : 2.0;
    /* Each of these is the first call through its PLT slot. */
    printf("pow %g %g\n", pow(x, 10), pow(x, 10));
    printf("exp %.17g log %.17g\n", exp(x), log(x));
    printf("sin %.17g atan2 %.17g\n", sin(x), atan2(x, 3.0));
    printf("strtod %.17g\n", strtod("0.1", NULL));
    /* Long double arithmetic at the precision the control word sets. */
    volatile long double third = 1.0L / 3;
    printf("third %.21Lg\n", third);
    printf("sqrtl %.21Lg\n", sqrtl(2.0L));
    unsigned short cw, sw;
    __asm__ volatile("fnstcw %0" : "=m"(cw));
    __asm__ volatile("fnstsw %0" : "=m"(sw));
    printf("fcw %#x fsw %#x\n", cw, sw);
    unsigned int mxcsr;
    __asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
    printf("mxcsr %#x\n", mxcsr & ~0x3fu);
    return 0;
}
