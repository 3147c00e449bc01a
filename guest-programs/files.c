/* Files, directories, time and randomness through libc. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : "/tmp";
    char path[4096];
    snprintf(path, sizeof path, "%s/pathvm-files-test.txt", dir);
    FILE *f = fopen(path, "w");
    if (!f) { perror("fopen"); return 2; }
    for (int i = 0; i < 100; i++)
        fprintf(f, "line %d\n", i);
    fclose(f);
    struct stat st;
    stat(path, &st);
    printf("size=%ld\n", (long)st.st_size);
    f = fopen(path, "r");
    char line[64];
    int n = 0;
    while (fgets(line, sizeof line, f))
        n++;
    fclose(f);
    printf("lines=%d\n", n);
    unlink(path);
    printf("exists after unlink=%d\n", access(path, F_OK) == 0);
    char *m = malloc(1 << 20);
    memset(m, 7, 1 << 20);
    printf("big malloc ok=%d\n", m[12345] == 7);
    free(m);
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("clock moves forward=%d\n", b.tv_sec > a.tv_sec || b.tv_nsec >= a.tv_nsec);
    unsigned char r[4];
    printf("getrandom=%zd\n", getrandom(r, sizeof r, 0));
    return 0;
}
