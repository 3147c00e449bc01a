/* Prints its arguments and part of its environment; exits 3. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    for (int i = 0; i < argc; i++)
        printf("argv[%d] = %s\n", i, argv[i]);
    const char *home = getenv("HOME");
    printf("HOME=%s\n", home ? home : "(unset)");
    return 3;
}
