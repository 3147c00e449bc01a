/* Dies of SIGSEGV (null write) or SIGFPE (division by zero) or abort(). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) void poke(int *p) { *p = 1; }
__attribute__((noinline)) int divide(int a, int b) { return a / b; }

int main(int argc, char **argv) {
    const char *what = argc > 1 ? argv[1] : "segv";
    if (!strcmp(what, "segv"))
        poke(NULL);
    else if (!strcmp(what, "fpe"))
        printf("%d\n", divide(1, argc - 2));
    else if (!strcmp(what, "abort"))
        abort();
    return 0;
}
