/* callgrind empties its simulated caches whenever its instrumentation is
 * switched on or off; pathvm does the same at callgrind's requests. A
 * 16 KiB buffer (256 lines, a quarter of L1D) is read while not
 * instrumented, then after CALLGRIND_START_INSTRUMENTATION: every line
 * misses again (part "after_start"); read once more it hits ("again");
 * after a stop and a start it misses again ("restarted"). Under
 * `valgrind --tool=callgrind --instr-atstart=no --cache-sim=yes` and
 * `pathvm run --instr-atstart no` the parts have the same D1 read misses
 * and I1 misses (tests/clientreq.rs). Nothing calls into libc while
 * instrumented.
 *
 * Built by the test: gcc -O2 -g -o cache_restart cache_restart.c */
#include <stdio.h>
#include <valgrind/callgrind.h>

static volatile char buf[16384] __attribute__((aligned(64)));

/* One load from each line of `buf`. */
__attribute__((noinline)) static long touch(void)
{
    long s = 0;
    for (int i = 0; i < (int)sizeof buf; i += 64)
        s += buf[i];
    return s;
}

int main(void)
{
    long s = touch(); /* not instrumented: the caches are warm after it */
    CALLGRIND_START_INSTRUMENTATION;
    s += touch();
    CALLGRIND_DUMP_STATS_AT("after_start");
    s += touch();
    CALLGRIND_DUMP_STATS_AT("again");
    CALLGRIND_STOP_INSTRUMENTATION;
    s += touch();
    CALLGRIND_START_INSTRUMENTATION;
    s += touch();
    CALLGRIND_DUMP_STATS_AT("restarted");
    CALLGRIND_STOP_INSTRUMENTATION;
    printf("%ld\n", s);
    return 0;
}
