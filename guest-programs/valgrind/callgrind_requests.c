/* A benchmark instrumented for callgrind with valgrind's own client
 * requests (valgrind/callgrind.h, from the valgrind package): run under
 * `valgrind --tool=callgrind --instr-atstart=no` and under
 * `pathvm run --instr-atstart no`, its parts (callgrind's dump files) and
 * pathvm's phases have the same instruction counts (tests/clientreq.rs).
 * Nothing calls into libc while counted: glibc's string functions differ
 * with the CPU each one presents.
 *
 * Built by the test: gcc -O2 -g -o callgrind_requests callgrind_requests.c */
#include <stdio.h>
#include <stdlib.h>
#include <valgrind/callgrind.h>

__attribute__((noinline)) static long spin(long n)
{
    long s = 0;
    for (long i = 0; i < n; i++) {
        s += i;
        __asm__ volatile("" : "+r"(s));
    }
    return s;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000;
    long s = 0;
    int on_valgrind = RUNNING_ON_VALGRIND;
    s += spin(10); /* before instrumentation: not counted */
    CALLGRIND_START_INSTRUMENTATION;
    s += spin(n);
    CALLGRIND_DUMP_STATS_AT("first");
    s += spin(2 * n);
    CALLGRIND_TOGGLE_COLLECT;
    s += spin(5 * n); /* not collected */
    CALLGRIND_TOGGLE_COLLECT;
    s += spin(3 * n);
    CALLGRIND_DUMP_STATS_AT("second");
    CALLGRIND_ZERO_STATS;
    s += spin(7 * n);
    CALLGRIND_STOP_INSTRUMENTATION;
    s += spin(11 * n); /* not instrumented */
    CALLGRIND_START_INSTRUMENTATION;
    s += spin(4 * n);
    CALLGRIND_DUMP_STATS;
    s += spin(n);
    CALLGRIND_STOP_INSTRUMENTATION;
    printf("on valgrind: %d, sum %ld\n", on_valgrind, s);
    return 0;
}
