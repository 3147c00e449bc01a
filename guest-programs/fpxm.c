/* Unmasked SSE exceptions: #XM delivered as SIGFPE with the si_code Linux
 * derives from MXCSR; the destination is left as it was. */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static sigjmp_buf env;
static volatile int code;

static void on_fpe(int sig, siginfo_t *si, void *uc)
{
    (void)sig; (void)uc;
    code = si->si_code;
    siglongjmp(env, 1);
}

static uint32_t getcsr(void) { uint32_t c; __asm__ volatile("stmxcsr %0" : "=m"(c)); return c; }
static void setcsr(uint32_t c) { __asm__ volatile("ldmxcsr %0" : : "m"(c)); }

static void attempt(const char *name, uint32_t csr, double a, double b, int op)
{
    static volatile double out;
    out = -1.5;
    code = 0;
    if (sigsetjmp(env, 1) == 0) {
        double x = a;
        setcsr(csr);
        switch (op) {
        case 0: __asm__ volatile("divsd %1, %0" : "+x"(x) : "x"(b)); break;
        case 1: __asm__ volatile("mulsd %1, %0" : "+x"(x) : "x"(b)); break;
        case 2: __asm__ volatile("addsd %1, %0" : "+x"(x) : "x"(b)); break;
        case 3: __asm__ volatile("sqrtsd %1, %0" : "+x"(x) : "x"(b)); break;
        }
        out = x;
        uint32_t after = getcsr();
        setcsr(0x1f80);
        printf("%s: no trap, %a, mxcsr %04x\n", name, out, after);
    } else {
        uint32_t after = getcsr();
        setcsr(0x1f80);
        printf("%s: SIGFPE si_code %d, mxcsr %04x\n", name, code, after);
    }
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fpe;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGFPE, &sa, 0);
    attempt("div by zero, ZE unmasked", 0x1f80 & ~0x200, 1.0, 0.0, 0);
    attempt("div by zero, masked", 0x1f80, 1.0, 0.0, 0);
    attempt("0/0, IE unmasked", 0x1f80 & ~0x80, 0.0, 0.0, 0);
    attempt("overflow, OE unmasked", 0x1f80 & ~0x400, 1e300, 1e300, 1);
    attempt("underflow, UE unmasked", 0x1f80 & ~0x800, 1e-300, 1e-300, 1);
    attempt("inexact, PE unmasked", 0x1f80 & ~0x1000, 1.0, 3.0, 0);
    attempt("exact, PE unmasked", 0x1f80 & ~0x1000, 1.0, 4.0, 0);
    attempt("denormal, DE unmasked", 0x1f80 & ~0x100, 1.0, 0x1p-1070, 2);
    attempt("sqrt(-1), IE unmasked", 0x1f80 & ~0x80, 0.0, -1.0, 3);
    attempt("all unmasked, 1/3", 0, 1.0, 3.0, 0);
    return 0;
}
