/* Allocations of known sizes from two call paths, for `alloc-bytes`:
 * a() asks malloc for 100 bytes three times (300); b() asks calloc for
 * 10 x 20 (200) and realloc for 500 (700). The pointers escape so -O2
 * keeps every call. */
#include <stdio.h>
#include <stdlib.h>

void *volatile keep[8];

__attribute__((noinline)) void a(void) {
    for (int i = 0; i < 3; i++)
        keep[i] = malloc(100);
}

__attribute__((noinline)) void b(void) {
    char *p = calloc(10, 20);
    keep[3] = realloc(p, 500);
}

int main(void) {
    a();
    b();
    for (int i = 0; i < 4; i++)
        free(keep[i]);
    puts("done");
    return 0;
}
