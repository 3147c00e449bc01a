/* SIGUSR1 raised at the bottom of a recursion; the handler leaves with
 * siglongjmp. */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static sigjmp_buf env;
volatile int sink;

__attribute__((noinline)) static void on_usr1(int sig) { siglongjmp(env, sig); }

__attribute__((noinline)) void deep(int n) {
    if (n == 0)
        raise(SIGUSR1);
    else
        deep(n - 1);
    sink++;
}

__attribute__((noinline)) void after(void) {
    for (int i = 0; i < 100; i++)
        sink += i;
}

int main(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sigaction(SIGUSR1, &sa, 0);
    int r = sigsetjmp(env, 1);
    if (r == 0) {
        deep(20);
        return 1;
    }
    after();
    sigset_t cur;
    sigprocmask(SIG_BLOCK, NULL, &cur);
    printf("left the handler of signal %d, sink=%d, SIGUSR1 blocked: %d\n", r, sink,
           sigismember(&cur, SIGUSR1));
    return 0;
}
