/* Synchronous faults caught by handlers: SIGSEGV left with siglongjmp
 * (three times, the mask restored each time), SIGTRAP from int3 whose handler
 * returns, SIGILL from ud2 whose handler moves the saved rip past it, SIGFPE
 * from a division by zero left with siglongjmp. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>

static sigjmp_buf env;
static void *volatile fault_addr;
static volatile int fault_code, traps;
static volatile long fault_rip;
volatile int sink;

__attribute__((noinline)) static void on_segv(int sig, siginfo_t *si, void *uc) {
    fault_rip = ((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
    fault_addr = si->si_addr;
    fault_code = si->si_code;
    siglongjmp(env, sig);
}

__attribute__((noinline)) static void on_trap(int sig) {
    (void)sig;
    traps++;
}

__attribute__((noinline)) static void on_ill(int sig, siginfo_t *si, void *uc) {
    ucontext_t *u = uc;
    (void)sig;
    fault_code = si->si_code;
    u->uc_mcontext.gregs[REG_RIP] += 2; /* skip the ud2 */
}

__attribute__((noinline)) int poke(int *volatile p) {
    *p = 42;
    return 1;
}

__attribute__((noinline)) int divide(int a, volatile int b) { return a / b; }

__attribute__((noinline)) void after(void) {
    for (int i = 0; i < 100; i++)
        sink += i;
}

static void install(int sig, void (*h)(int, siginfo_t *, void *)) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = h;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, 0);
}

int main(void) {
    install(SIGSEGV, on_segv);
    for (int round = 0; round < 3; round++) {
        int r = sigsetjmp(env, 1);
        if (r == 0) {
            poke((int *)(long)(0x10 + round * 8));
            puts("not reached");
            return 1;
        }
        after();
        sigset_t cur;
        sigprocmask(SIG_BLOCK, NULL, &cur);
        printf("segv round %d: signal %d code %d addr %p at poke+%ld, SIGSEGV blocked after: %d\n",
               round, r, fault_code, fault_addr, fault_rip - (long)poke, sigismember(&cur, SIGSEGV));
    }

    signal(SIGTRAP, on_trap);
    for (int i = 0; i < 3; i++)
        __asm__ volatile("int3");
    printf("traps: %d\n", traps);

    install(SIGILL, on_ill);
    __asm__ volatile("ud2");
    printf("ill: code %d, went on after ud2\n", fault_code);

    install(SIGFPE, on_segv);
    if (sigsetjmp(env, 1) == 0)
        printf("%d\n", divide(1, 0));
    printf("fpe: code %d at divide+%ld\n", fault_code, fault_rip - (long)divide);
    return 0;
}
