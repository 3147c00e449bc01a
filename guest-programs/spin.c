/* Runs until stopped: for testing pathvm's own SIGINT/SIGTERM handling.
 * It says "spinning" once it runs, so a test signals it only then. */
#include <unistd.h>
volatile unsigned long sink;
__attribute__((noinline)) void spin(void) {
    for (;;)
        sink++;
}
int main(void) {
    (void)!write(1, "spinning\n", 9);
    spin();
    return 0;
}
