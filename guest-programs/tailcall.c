/* At -O2, mid ends in `jmp leaf`: a tail call. */
#include <stdio.h>

volatile int sink;

__attribute__((noinline)) int leaf(int x) {
    for (int i = 0; i < x; i++)
        sink += i;
    return sink;
}

__attribute__((noinline)) int mid(int x) { return leaf(x + 1); }

int main(void) {
    int s = 0;
    for (int i = 0; i < 10; i++)
        s += mid(i);
    printf("s=%d\n", s);
    return 0;
}
