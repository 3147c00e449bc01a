/* Kernels whose cache misses come from user code: a naive and a
 * loop-interchanged matrix multiply, a linked-list walk over shuffled
 * nodes, and a strided sweep. `cachetest MODE`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 128
static double A[N][N], B[N][N], C[N][N];

__attribute__((noinline)) void mm_naive(void) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int k = 0; k < N; k++)
                s += A[i][k] * B[k][j];
            C[i][j] = s;
        }
}

__attribute__((noinline)) void mm_interchanged(void) {
    for (int i = 0; i < N; i++)
        for (int k = 0; k < N; k++) {
            double a = A[i][k];
            for (int j = 0; j < N; j++)
                C[i][j] += a * B[k][j];
        }
}

struct node { struct node *next; long pad[7]; };
#define NODES 65536
static struct node nodes[NODES];

__attribute__((noinline)) long list_walk(struct node *n) {
    long steps = 0;
    while (n) {
        n = n->next;
        steps++;
    }
    return steps;
}

#define SWEEP (4 << 20)
static char big[SWEEP];

__attribute__((noinline)) long stride_sweep(int stride) {
    long s = 0;
    for (int r = 0; r < 4; r++)
        for (int i = 0; i < SWEEP; i += stride)
            s += big[i]++;
    return s;
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "naive";
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            A[i][j] = i + j;
            B[i][j] = i - j;
        }
    if (!strcmp(mode, "naive")) {
        mm_naive();
        printf("%f\n", C[N / 2][N / 3]);
    } else if (!strcmp(mode, "interchange")) {
        mm_interchanged();
        printf("%f\n", C[N / 2][N / 3]);
    } else if (!strcmp(mode, "list")) {
        unsigned *perm = malloc(NODES * sizeof *perm);
        for (unsigned i = 0; i < NODES; i++)
            perm[i] = i;
        unsigned x = 12345;
        for (unsigned i = NODES - 1; i > 0; i--) {
            x = x * 1103515245u + 12345u;
            unsigned j = (x >> 8) % (i + 1);
            unsigned t = perm[i]; perm[i] = perm[j]; perm[j] = t;
        }
        for (unsigned i = 0; i + 1 < NODES; i++)
            nodes[perm[i]].next = &nodes[perm[i + 1]];
        printf("%ld\n", list_walk(&nodes[perm[0]]));
    } else if (!strcmp(mode, "stride")) {
        printf("%ld\n", stride_sweep(64));
    }
    return 0;
}
