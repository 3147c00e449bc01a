/* Guest memory as Linux manages it. `mem MODE [die]`:
 *   dontneed   16 GiB of anonymous memory touched here and there, then
 *              madvise(MADV_DONTNEED) over all of it: zeros again, cheaply;
 *   filedontneed  a private file mapping written, then MADV_DONTNEED: the
 *              file's contents again;
 *   reserve    a 64 GiB PROT_NONE reservation, a piece of it made usable;
 *   args       mmap/munmap/mprotect/madvise argument errors (errno);
 *   pasteof    a file mapping touched past the end of the file: SIGBUS;
 *   overflow   a runaway recursion: SIGSEGV on the alternate stack, or
 *              with `die` the process's death;
 *   rlimit     the same under a 1 MiB and then a 32 MiB RLIMIT_STACK;
 *   smc N      one function rewritten and called N times (self-modifying
 *              code: each rewrite retires the old translation);
 *   fixed      MAP_FIXED and MAP_FIXED_NOREPLACE low in the address space,
 *              and MAP_32BIT;
 *   threads    200 threads that touch 64 KiB of stack and exit (glibc
 *              frees their stacks with MADV_DONTNEED). */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

static sigjmp_buf env;
static char *base;

static void handler(int sig, siginfo_t *si, void *uc) {
    (void)uc;
    printf("signal %s code %d addr %s%+ld\n", sig == SIGBUS ? "SIGBUS" : sig == SIGSEGV ? "SIGSEGV" : "other",
           si->si_code, base ? "base" : "", base ? (long)((char *)si->si_addr - base) : 0L);
    siglongjmp(env, 1);
}

static void on(int sig) {
    static char alt[65536];
    stack_t ss = {.ss_sp = alt, .ss_size = sizeof alt};
    sigaltstack(&ss, 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigaction(sig, &sa, 0);
}

static int depth;
__attribute__((noinline)) static int recurse(int n) {
    volatile char buf[512];
    buf[0] = (char)n;
    depth = n;
    return recurse(n + 1) + buf[0];
}

static void *thread_work(void *a) {
    (void)a;
    volatile char buf[64 << 10];
    memset((char *)buf, 1, sizeof buf);
    return (void *)(long)buf[100];
}

static void show(const char *what, long r) {
    printf("%s: %s", what, r == -1 ? "error " : "ok");
    if (r == -1)
        printf("%d", errno);
    printf("\n");
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    int die = argc > 2 && !strcmp(argv[2], "die");
    long page = sysconf(_SC_PAGESIZE);
    if (!strcmp(mode, "dontneed")) {
        size_t len = (size_t)16 << 30;
        char *p = mmap(0, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        show("mmap 16 GiB", p == MAP_FAILED ? -1 : 0);
        for (size_t off = 0; off < len; off += len / 64)
            p[off] = 7;
        show("madvise", madvise(p, len, MADV_DONTNEED));
        long sum = 0;
        for (size_t off = 0; off < len; off += len / 64)
            sum += p[off];
        printf("sum after: %ld\n", sum);
        show("munmap", munmap(p, len));
    } else if (!strcmp(mode, "filedontneed")) {
        char path[] = "/tmp/pathvm-memXXXXXX";
        int fd = mkstemp(path);
        unlink(path);
        if (write(fd, "hello, file", 11) != 11)
            return 1;
        char *p = mmap(0, page, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
        p[0] = 'J';
        printf("written: %.11s\n", p);
        show("madvise", madvise(p, page, MADV_DONTNEED));
        printf("after: %.11s\n", p);
        char *a = mmap(0, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        strcpy(a, "anon");
        show("madvise anon", madvise(a, 2 * page, MADV_DONTNEED));
        printf("anon after: %d\n", a[0]);
        munmap(a + page, page);
        show("madvise over a hole", madvise(a, 2 * page, MADV_DONTNEED));
        show("madvise unaligned", madvise(a + 1, page, MADV_DONTNEED));
    } else if (!strcmp(mode, "reserve")) {
        size_t len = (size_t)64 << 30;
        char *p = mmap(0, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        show("reserve 64 GiB", p == MAP_FAILED ? -1 : 0);
        if (p != MAP_FAILED) {
            show("mprotect 1 MiB", mprotect(p + (len >> 1), 1 << 20, PROT_READ | PROT_WRITE));
            p[(len >> 1) + 100] = 5;
            printf("read back: %d\n", p[(len >> 1) + 100]);
            base = p;
            on(SIGSEGV);
            if (sigsetjmp(env, 1) == 0)
                printf("%d\n", p[(len >> 1) - 1]);
            base = 0;
            show("munmap", munmap(p, len));
        }
    } else if (!strcmp(mode, "args")) {
        void *r = mmap(0, (size_t)-page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        show("mmap near 2^64", r == MAP_FAILED ? -1 : 0);
        r = mmap(0, (size_t)-1, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        show("mmap 2^64-1", r == MAP_FAILED ? -1 : 0);
        r = mmap(0, 0, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        show("mmap 0", r == MAP_FAILED ? -1 : 0);
        r = mmap(0, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 1);
        show("mmap offset 1", r == MAP_FAILED ? -1 : 0);
        char *p = mmap(0, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        show("munmap wrapping", munmap(p, (size_t)-page));
        show("munmap huge", munmap(p, (size_t)1 << 62));
        show("munmap 0", munmap(p, 0));
        show("munmap unaligned", munmap(p + 1, page));
        show("mprotect wrapping", mprotect(p, (size_t)-page, PROT_READ));
        show("mprotect 0", mprotect(p, 0, PROT_READ));
        show("mprotect bad prot", mprotect(p, page, 0x40));
        show("mprotect unmapped", mprotect((void *)0x10000, page, PROT_READ));
        show("madvise wrapping", madvise(p, (size_t)-page, MADV_DONTNEED));
        show("munmap", munmap(p, page));
        show("munmap again", munmap(p, page));
    } else if (!strcmp(mode, "pasteof")) {
        char path[] = "/tmp/pathvm-memXXXXXX";
        int fd = mkstemp(path);
        unlink(path);
        char buf[100];
        memset(buf, 'a', sizeof buf);
        if (write(fd, buf, sizeof buf) != sizeof buf)
            return 1;
        base = mmap(0, 3 * page, PROT_READ, MAP_PRIVATE, fd, 0);
        printf("in the file: %c, past its end in its page: %d\n", base[50], base[200]);
        if (!die)
            on(SIGBUS);
        if (sigsetjmp(env, 1) == 0)
            printf("%d\n", base[page + 8]);
        if (sigsetjmp(env, 1) == 0)
            printf("%d\n", base[2 * page]);
    } else if (!strcmp(mode, "overflow")) {
        if (!die)
            on(SIGSEGV);
        if (sigsetjmp(env, 1) == 0)
            printf("%d\n", recurse(0));
        printf("overflowed past %d KiB\n", depth > 10000 ? 5000 : depth);
    } else if (!strcmp(mode, "rlimit")) {
        on(SIGSEGV);
        struct rlimit rl;
        getrlimit(RLIMIT_STACK, &rl);
        printf("limit %ld KiB\n", (long)(rl.rlim_cur >> 10));
        long limits[] = {1 << 20, 32 << 20};
        for (int i = 0; i < 2; i++) {
            rl.rlim_cur = limits[i];
            show("setrlimit", setrlimit(RLIMIT_STACK, &rl));
            depth = 0;
            if (sigsetjmp(env, 1) == 0)
                printf("%d\n", recurse(0));
            /* Each level takes more than 512 bytes and less than 1 KiB. */
            long lo = (long)depth * 512, hi = (long)depth * 1024;
            printf("limit %ld KiB: overflowed within it %d, near it %d\n", limits[i] >> 10,
                   lo < limits[i], hi > limits[i] / 2);
        }
    } else if (!strcmp(mode, "smc")) {
        long n = argc > 2 ? atol(argv[2]) : 1000;
        unsigned char *code = mmap(0, page, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        long sum = 0;
        for (long i = 0; i < n; i++) {
            unsigned v = (unsigned)i;
            code[0] = 0xb8; /* mov eax, imm32; ret */
            memcpy(code + 1, &v, 4);
            code[5] = 0xc3;
            sum += ((int (*)(void))code)();
        }
        printf("sum %ld\n", sum);
    } else if (!strcmp(mode, "fixed")) {
        char *want = (char *)0x10000000;
        char *p = mmap(want, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        printf("fixed at 256 MiB: %s\n", p == want ? "there" : p == MAP_FAILED ? strerror(errno) : "elsewhere");
        if (p == want) {
            p[page + 3] = 9;
            printf("read back %d\n", p[page + 3]);
        }
        p = mmap(want, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
        printf("noreplace: %s\n", p == MAP_FAILED ? strerror(errno) : "mapped");
        show("munmap", munmap(want, 2 * page));
        p = mmap((char *)0x20000, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        printf("fixed at 128 KiB: %s\n", p == (char *)0x20000 ? "there" : "not there");
        for (int i = 0; i < 3; i++) {
            char *q = mmap(0, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
            printf("MAP_32BIT: %s\n", q == MAP_FAILED ? strerror(errno) : (uintptr_t)q + (1 << 20) <= 0x80000000u ? "below 2 GiB" : "above 2 GiB");
            if (q != MAP_FAILED)
                q[5] = 1;
        }
    } else if (!strcmp(mode, "threads")) {
        long sum = 0;
        for (int r = 0; r < 10; r++) {
            pthread_t t[20];
            for (int i = 0; i < 20; i++)
                pthread_create(&t[i], 0, thread_work, 0);
            for (int i = 0; i < 20; i++) {
                void *v;
                pthread_join(t[i], &v);
                sum += (long)v;
            }
        }
        printf("threads %ld\n", sum);
    } else {
        fprintf(stderr, "no mode %s\n", mode);
        return 2;
    }
    return 0;
}
