/* Inlined functions: mix and mix2 (inlined.h) exist only inlined, mix2 with
   mix inlined into it, so their instructions are found from DWARF inline
   frames. Prints a hash of N numbers (argument 1, default 1000). */
#include <stdio.h>
#include <stdlib.h>
#include "inlined.h"

__attribute__((noinline)) static unsigned hash_all(const unsigned *v, int n)
{
    unsigned h = 2166136261u;
    for (int i = 0; i < n; i++)
        h = mix(h, v[i]);
    return h;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    if (n < 1)
        n = 1;
    unsigned *v = malloc(n * sizeof *v);
    if (!v)
        return 1;
    for (int i = 0; i < n; i++)
        v[i] = i * 2654435761u;
    unsigned h = hash_all(v, n);
    for (int i = 0; i < n; i++)
        h = mix2(h, v[i]);
    printf("%u\n", h);
    free(v);
    return 0;
}
