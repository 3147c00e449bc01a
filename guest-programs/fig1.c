/* Figure 1 of Froyd et al. (csprof): the cost of c depends on its caller. */
#include <stdio.h>
#define HUGE 2000000

volatile unsigned long sink;

__attribute__((noinline)) void d(void) { sink++; }

__attribute__((noinline)) void c(int n) {
    for (int i = 0; i < HUGE / n; i++)
        d();
}

__attribute__((noinline)) void f(int n) { c(n); }

__attribute__((noinline)) void a(void) {
    f(1);
    f(1);
}

__attribute__((noinline)) void b(void) {
    for (int i = 0; i < 4; i++)
        f(2);
}

int main(void) {
    a();
    b();
    printf("sink=%lu\n", sink);
    return 0;
}
