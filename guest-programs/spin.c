/* Runs until stopped: for testing pathvm's own SIGINT/SIGTERM handling. */
volatile unsigned long sink;
__attribute__((noinline)) void spin(void) {
    for (;;)
        sink++;
}
int main(void) {
    spin();
    return 0;
}
