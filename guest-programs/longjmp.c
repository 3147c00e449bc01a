/* A longjmp out of a recursion: no frame of the recursion survives it. */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf env;
volatile int sink;

__attribute__((noinline)) void leaf(int depth) {
    if (depth == 0)
        longjmp(env, 42);
    leaf(depth - 1);
    sink++;
}

__attribute__((noinline)) void after(void) {
    for (int i = 0; i < 100; i++)
        sink += i;
}

int main(void) {
    int r = setjmp(env);
    if (r == 0) {
        leaf(10);
        return 1;
    }
    after();
    printf("longjmp returned %d, sink=%d\n", r, sink);
    return 0;
}
