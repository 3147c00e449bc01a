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
 *              code: each rewrite retires the old translation), in two
 *              shapes of the same length: `mov eax, i; ret` for even i
 *              (2 instructions), `xor eax, eax; add eax, i & 127; ret`
 *              for odd i (3 instructions);
 *   smcself N  two loops of N iterations that each rewrite an immediate
 *              of their own translation block (a store into the block
 *              that runs it): in one the store is the block's first
 *              instruction (5 instructions an iteration), in the other
 *              its second (6); each prints its sum (the new immediates
 *              are used at once, as the CPU does);
 *   fixed      MAP_FIXED and MAP_FIXED_NOREPLACE low in the address space,
 *              and MAP_32BIT;
 *   threads    200 threads that touch 64 KiB of stack and exit (glibc
 *              frees their stacks with MADV_DONTNEED);
 *   shared     MAP_SHARED anonymous and file memory written by a forked
 *              child and by its parent, each seeing the other's writes
 *              (a MAP_PRIVATE mapping beside them is not shared);
 *   fixedhigh  MAP_FIXED, MAP_FIXED_NOREPLACE and hints anywhere in the
 *              user half (8 GiB, 16 TiB, 96 TiB);
 *   stack      the [stack] line of /proc/self/maps before and after
 *              touching 1 MiB of stack (Linux grows it as it is touched);
 *   execstack  setrlimit(RLIMIT_STACK, 64 MiB), then execve of this
 *              program in mode `deep`: the limit passes through execve, and
 *   deep       prints the limit and recurses through 24 MiB of stack;
 *   mremapshared  MAP_SHARED anonymous memory shared with a forked child,
 *              then moved (grown where it cannot grow in place, and to a
 *              fixed address), grown in place, shrunk and mapped a second
 *              time (old size 0) by mremap in the parent: each side sees
 *              the other's writes; the grown part past the shared object
 *              is a bus error;
 *   readcode   read(2) and readv(2) into a page of code that has run: the
 *              new code runs, as after a store;
 *   edges      ranges across the edges of pathvm's areas of guest memory
 *              (the first 4 GiB, the mmap area's start at 112 TiB, a span
 *              a MAP_FIXED mapping added at 9 GiB): anonymous, shared and
 *              file mappings, mprotect, MADV_DONTNEED, munmap and mremap
 *              over them (a file mapping grown in place across), and
 *              system calls' buffers across them (pread, write, read,
 *              writev, readv);
 *   mremapfixed  mremap of private memory (anonymous, and a file mapping
 *              with a page written) with MREMAP_FIXED, shrunk, grown and
 *              moved; grown past the end of its file (SIGBUS there); the
 *              man page's EINVAL cases. */
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
#include <sys/uio.h>
#include <sys/wait.h>
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

/* Rewrite one page of code and call it, `n` times (see `smc` above). */
__attribute__((noinline)) static long smc(long n, long page) {
    unsigned char *code = mmap(0, page, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    long sum = 0;
    for (long i = 0; i < n; i++) {
        unsigned v = (unsigned)i;
        if (i % 2 == 0) {
            code[0] = 0xb8; /* mov eax, imm32 */
            memcpy(code + 1, &v, 4);
        } else {
            code[0] = 0x31; /* xor eax, eax */
            code[1] = 0xc0;
            code[2] = 0x83; /* add eax, imm8 */
            code[3] = 0xc0;
            code[4] = (unsigned char)(v & 127);
        }
        code[5] = 0xc3; /* ret */
        sum += ((int (*)(void))code)();
    }
    return sum;
}

/* The loops of `smcself` (see above), each a function of its count. */
static const unsigned char smc_first[] = {
    0x31, 0xf6,                         /* xor esi, esi */
    0x89, 0x3d, 0x02, 0x00, 0x00, 0x00, /* loop: mov [rip+2], edi (the imm32 below) */
    0x81, 0xc6, 0x00, 0x00, 0x00, 0x00, /* add esi, imm32 */
    0x89, 0xf0,                         /* mov eax, esi */
    0xff, 0xcf,                         /* dec edi */
    0x75, 0xee,                         /* jnz loop */
    0xc3,                               /* ret */
};
static const unsigned char smc_second[] = {
    0x31, 0xf6,                         /* xor esi, esi */
    0x48, 0x01, 0xfe,                   /* loop: add rsi, rdi */
    0x89, 0x3d, 0x01, 0x00, 0x00, 0x00, /* mov [rip+1], edi (the imm32 below) */
    0xb8, 0x00, 0x00, 0x00, 0x00,       /* mov eax, imm32 */
    0x48, 0x01, 0xc6,                   /* add rsi, rax */
    0x48, 0xff, 0xcf,                   /* dec rdi */
    0x75, 0xea,                         /* jnz loop */
    0x48, 0x89, 0xf0,                   /* mov rax, rsi */
    0xc3,                               /* ret */
};

static void smcself(long n, long page) {
    unsigned char *code = mmap(0, page, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    memcpy(code, smc_first, sizeof smc_first);
    memcpy(code + 256, smc_second, sizeof smc_second);
    printf("first %ld\n", ((long (*)(long))code)(n));
    printf("second %ld\n", ((long (*)(long))(code + 256))(n));
}

/* Size in KiB of the mapping of /proc/self/maps that holds `addr`, and
 * its permissions in `perms` (5 bytes). */
static long mapping_kib(void *addr, char *perms) {
    FILE *f = fopen("/proc/self/maps", "r");
    char line[512];
    long kib = -1;
    while (f && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        char p[5];
        if (sscanf(line, "%lx-%lx %4s", &lo, &hi, p) == 3 && lo <= (unsigned long)addr && (unsigned long)addr < hi) {
            kib = (long)((hi - lo) >> 10);
            if (perms)
                memcpy(perms, p, 5);
        }
    }
    if (f)
        fclose(f);
    return kib;
}

/* Touch `kib` KiB of stack below this frame. */
__attribute__((noinline)) static int touch_stack(long kib) {
    volatile char buf[1024];
    buf[0] = (char)kib;
    return kib > 1 ? touch_stack(kib - 1) + buf[0] : buf[0];
}

static void show(const char *what, long r) {
    printf("%s: %s", what, r == -1 ? "error " : "ok");
    if (r == -1)
        printf("%d", errno);
    printf("\n");
}

/* Read the byte at `p` (off bytes from `base`), printing it or the signal. */
static void probe(const char *what, char *at) {
    if (sigsetjmp(env, 1) == 0)
        printf("%s: %d\n", what, *(volatile char *)at);
}

/* A temporary file of `pages` pages, page i filled with 'A' + i. */
static int pages_file(long pages, long page) {
    char path[] = "/tmp/pathvm-memXXXXXX";
    int fd = mkstemp(path);
    unlink(path);
    char *buf = malloc(page);
    for (long i = 0; i < pages; i++) {
        memset(buf, 'A' + (int)i, page);
        if (write(fd, buf, page) != page)
            exit(1);
    }
    free(buf);
    return fd;
}

/* Map 4 pages at `at` (2 below the edge `edge`, 2 above) in each way and
 * show that every operation reaches both sides. */
static void across(const char *name, char *edge, long page, int fd) {
    char *at = edge - 2 * page, what[128];
    base = at;
    char *p = mmap(at, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    printf("%s: anonymous %s\n", name, p == at ? "there" : p == MAP_FAILED ? strerror(errno) : "elsewhere");
    if (p != at)
        return;
    for (int i = 0; i < 4; i++)
        p[i * page + 1] = (char)(10 + i);
    memset(p + page, 7, 2 * page);
    printf("%s: written across: %d %d %d %d\n", name, p[page + 1], p[2 * page - 1], p[2 * page], p[3 * page - 1]);
    show("mprotect read-only", mprotect(p + page, 2 * page, PROT_READ));
    for (int i = 0; i < 4; i++) {
        snprintf(what, sizeof what, "%s: write to page %d", name, i);
        if (sigsetjmp(env, 1) == 0) {
            p[i * page + 2] = 1;
            printf("%s: ok\n", what);
        }
    }
    show("mprotect back", mprotect(p, 4 * page, PROT_READ | PROT_WRITE));
    show("madvise", madvise(p + page, 2 * page, MADV_DONTNEED));
    printf("%s: after MADV_DONTNEED: %d %d %d %d\n", name, p[1], p[page + 1], p[2 * page + 1], p[3 * page + 1]);
    show("munmap across", munmap(p + page, 2 * page));
    for (int i = 0; i < 4; i++) {
        snprintf(what, sizeof what, "%s: page %d after munmap", name, i);
        probe(what, p + i * page + 1);
    }
    /* A file mapping across: each page shows its own part of the file. */
    p = mmap(at, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd, page);
    printf("%s: file %s: %c %c %c %c\n", name, p == at ? "there" : strerror(errno), p[0], p[page], p[2 * page], p[3 * page]);
    p[2 * page] = 'z';
    show("madvise file", madvise(p, 4 * page, MADV_DONTNEED));
    printf("%s: file after MADV_DONTNEED: %c\n", name, p[2 * page]);
    /* Shared anonymous memory across, written by a child. */
    p = mmap(at, 4 * page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    printf("%s: shared %s\n", name, p == at ? "there" : strerror(errno));
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        for (int i = 0; i < 4; i++)
            p[i * page] = (char)('a' + i);
        _exit(0);
    }
    int st;
    waitpid(pid, &st, 0);
    printf("%s: the child wrote %c %c %c %c\n", name, p[0], p[page], p[2 * page], p[3 * page]);
    /* Moved by mremap, across the edge in both places. */
    char *q = mremap(p + page, 2 * page, 3 * page, MREMAP_MAYMOVE | MREMAP_FIXED, edge + 8 * page - page);
    printf("%s: mremap %s: %c %c\n", name, q == edge + 7 * page ? "there" : strerror(errno), q[0], q[page]);
    base = at;
    probe("old place after mremap", p + page);
    munmap(at, 16 * page);
    /* A file mapping grown in place across the edge: the file's next
     * pages, the written page kept. */
    p = mmap(at, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd, page);
    p[1] = 'w';
    q = mremap(p, 2 * page, 4 * page, 0);
    printf("%s: file grown across: %s: %c %c %c %c %c\n", name, q == p ? "in place" : strerror(errno), p[0], p[1],
           p[page], p[2 * page], p[3 * page]);
    munmap(at, 4 * page);
    /* System calls' buffers across the edge. */
    p = mmap(at, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    char *mid = p + 2 * page - page / 2;
    long n = pread(fd, mid, page, 2 * page);
    printf("%s: pread across: %ld: %c %c\n", name, n, mid[0], mid[page - 1]);
    int pfd[2];
    if (pipe(pfd) == 0) {
        memset(mid, 'x', 8);
        memset(mid + page - 8, 'y', 8);
        n = write(pfd[1], mid, page);
        char back[8192];
        long m = read(pfd[0], back, page);
        printf("%s: write across: %ld %ld: %c %c\n", name, n, m, back[0], back[page - 1]);
        memset(back, 'r', page);
        n = write(pfd[1], back, page);
        m = read(pfd[0], mid + 1, page);
        printf("%s: read across: %ld %ld: %c %c %c\n", name, n, m, mid[0], mid[1], mid[page]);
        memcpy(p + 2 * page - 3, "abcdef", 6);
        memcpy(p + 2 * page - 20, "WXYZ", 4);
        struct iovec iov[2] = {{p + 2 * page - 3, 6}, {p + 2 * page - 20, 4}};
        n = writev(pfd[1], iov, 2);
        memset(back, 0, 16);
        m = read(pfd[0], back, 16);
        printf("%s: writev across: %ld %ld: %.10s\n", name, n, m, back);
        n = write(pfd[1], "0123456789", 10);
        struct iovec in[1] = {{p + 2 * page - 5, 10}};
        m = readv(pfd[0], in, 1);
        printf("%s: readv across: %ld %ld: %.10s\n", name, n, m, p + 2 * page - 5);
        close(pfd[0]);
        close(pfd[1]);
    }
    munmap(at, 4 * page);
    base = 0;
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
        printf("sum %ld\n", smc(argc > 2 ? atol(argv[2]) : 1000, page));
    } else if (!strcmp(mode, "smcself")) {
        smcself(argc > 2 ? atol(argv[2]) : 1000, page);
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
    } else if (!strcmp(mode, "shared")) {
        char path[] = "/tmp/pathvm-memXXXXXX";
        int fd = mkstemp(path);
        unlink(path);
        if (ftruncate(fd, page) != 0)
            return 1;
        char *anon = mmap(0, page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        char *priv = mmap(0, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        char *file = mmap(0, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        char perms[5] = "";
        mapping_kib(anon, perms);
        printf("shared anonymous: %.4s\n", perms);
        mapping_kib(priv, perms);
        printf("private anonymous: %.4s\n", perms);
        mapping_kib(file, perms);
        printf("shared file: %.4s\n", perms);
        strcpy(anon, "parent");
        strcpy(priv, "parent");
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            printf("child sees: %s, %s\n", anon, priv);
            strcpy(anon, "child");
            strcpy(priv, "child");
            strcpy(file, "child wrote the file");
            fflush(stdout);
            _exit(0);
        }
        int st;
        waitpid(pid, &st, 0);
        printf("parent sees: %s, %s, %s\n", anon, priv, file);
        char buf[32] = "";
        printf("read(2) of the file: %zd %s\n", pread(fd, buf, 20, 0), buf);
        strcpy(anon, "parent again");
        strcpy(file, "parent wrote the file");
        fflush(stdout);
        pid = fork();
        if (pid == 0) {
            printf("second child sees: %s, %s\n", anon, file);
            fflush(stdout);
            _exit(anon[0] == 'p' ? 3 : 4);
        }
        waitpid(pid, &st, 0);
        printf("second child exited %d\n", WEXITSTATUS(st));
    } else if (!strcmp(mode, "mremapshared")) {
        char *a = mmap(0, 2 * page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        /* Room for b to grow in place: a reservation, b at its start. */
        char *room = mmap(0, 8 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        char *b = mmap(room, page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        munmap(room + page, 7 * page);
        /* Nothing may follow a: its growth must move it. */
        mmap(a + 2 * page, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
        strcpy(a, "a before");
        strcpy(a + page, "a's second page");
        strcpy(b, "b before");
        int go[2], back[2];
        if (pipe(go) || pipe(back))
            return 1;
        fflush(stdout);
        pid_t pid = fork();
        char c;
        if (pid == 0) {
            if (read(go[0], &c, 1) != 1)
                _exit(1);
            printf("child sees: %s, %s, %s\n", a, a + page, b);
            strcpy(a, "child wrote a");
            strcpy(b, "child wrote b");
            fflush(stdout);
            if (write(back[1], "c", 1) != 1)
                _exit(1);
            _exit(0);
        }
        char *a2 = mremap(a, 2 * page, 2 * page, MREMAP_MAYMOVE | MREMAP_FIXED, room + 4 * page);
        printf("a to a fixed address: %s\n", a2 == room + 4 * page ? "there" : a2 == MAP_FAILED ? strerror(errno) : "elsewhere");
        char *b2 = mremap(b, page, 3 * page, 0);
        printf("b grown: %s\n", b2 == MAP_FAILED ? strerror(errno) : b2 == b ? "in place" : "moved");
        /* b now ends at room + 3 pages: a cannot grow in place below it, and
           the page after a is blocked. */
        mmap(room + 6 * page, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
        char *a3 = mremap(a2, 2 * page, 4 * page, MREMAP_MAYMOVE);
        printf("a grown: %s\n", a3 == MAP_FAILED ? strerror(errno) : a3 == a2 ? "in place" : "moved");
        char *a4 = mremap(a3, 0, page, MREMAP_MAYMOVE);
        printf("a mapped again: %s\n", a4 == MAP_FAILED ? strerror(errno) : "ok");
        printf("parent sees: %s, %s, %s\n", a3, a3 + page, b2);
        strcpy(a3 + page, "parent wrote a's second page");
        strcpy(b2, "parent wrote b");
        fflush(stdout);
        if (write(go[1], "g", 1) != 1 || read(back[0], &c, 1) != 1)
            return 1;
        printf("parent sees: %s, %s, %s; second mapping: %s\n", a3, a3 + page, b2, a4 == MAP_FAILED ? "-" : a4);
        int st;
        waitpid(pid, &st, 0);
        base = a3;
        on(SIGBUS);
        if (sigsetjmp(env, 1) == 0)
            printf("past the object: %d\n", a3[3 * page]);
        base = b2;
        if (sigsetjmp(env, 1) == 0)
            printf("past b's object: %d\n", b2[2 * page]);
        base = 0;
        printf("b shrunk: %s\n", mremap(b2, 3 * page, page, 0) == b2 ? "ok" : strerror(errno));
        printf("private, old size 0: %s\n", mremap(room - page, 0, page, MREMAP_MAYMOVE) == MAP_FAILED ? strerror(errno) : "mapped");
    } else if (!strcmp(mode, "readcode")) {
        unsigned char *code = mmap(0, page, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        static const unsigned char ret1[] = {0xb8, 1, 0, 0, 0, 0xc3}; /* mov eax, 1; ret */
        memcpy(code + 100, ret1, sizeof ret1);
        int (*f)(void) = (int (*)(void))(code + 100);
        printf("before: %d\n", f());
        int fds[2];
        if (pipe(fds))
            return 1;
        static const unsigned char ret2[] = {0xb8, 2, 0, 0, 0, 0xc3};
        if (write(fds[1], ret2, sizeof ret2) != (ssize_t)sizeof ret2)
            return 1;
        printf("read: %zd\n", read(fds[0], code + 100, sizeof ret2));
        printf("after read: %d\n", f());
        static const unsigned char ret3[] = {0xb8, 3, 0, 0, 0, 0xc3};
        if (write(fds[1], ret3, sizeof ret3) != (ssize_t)sizeof ret3)
            return 1;
        unsigned char skip[2];
        struct iovec iov[2] = {{skip, 1}, {code + 101, sizeof ret3 - 1}};
        printf("readv: %zd\n", readv(fds[0], iov, 2));
        printf("after readv: %d\n", f());
    } else if (!strcmp(mode, "fixedhigh")) {
        char *at[] = {(char *)0x200000000, (char *)0x100000000000, (char *)0x600000000000};
        for (int i = 0; i < 3; i++) {
            char *p = mmap(at[i], 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
            printf("fixed at %p: %s\n", (void *)at[i], p == at[i] ? "there" : p == MAP_FAILED ? strerror(errno) : "elsewhere");
            if (p != at[i])
                continue;
            p[page + 5] = 42;
            printf("read back %d, then %d\n", p[page + 5], p[5]);
            char *q = mmap(at[i], page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
            printf("noreplace: %s\n", q == MAP_FAILED ? strerror(errno) : "mapped");
            show("munmap", munmap(p, 2 * page));
            q = mmap(at[i] + page, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            printf("hint: %s\n", q == at[i] + page ? "followed" : "not followed");
            if (q != MAP_FAILED)
                munmap(q, page);
        }
        char *hint = (char *)0x300000000000;
        char *q = mmap(hint, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        printf("hint at 48 TiB: %s\n", q == hint ? "followed" : "not followed");
        if (q == hint)
            q[1] = 1;
        q = mmap((char *)0x7ffffffff000, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        printf("fixed above the user half: %s\n", q == MAP_FAILED ? strerror(errno) : "mapped");
    } else if (!strcmp(mode, "stack")) {
        char here;
        long before = mapping_kib(&here, 0);
        printf("stack at start: %s\n", before > 0 && before <= 256 ? "at most 256 KiB" : "larger");
        touch_stack(1024);
        long after = mapping_kib(&here, 0);
        printf("after touching 1 MiB: %s\n", after >= 1024 && after <= 1024 + 256 ? "1 MiB and at most 256 KiB more" : "other");
    } else if (!strcmp(mode, "execstack")) {
        struct rlimit rl;
        getrlimit(RLIMIT_STACK, &rl);
        rl.rlim_cur = 64 << 20;
        show("setrlimit", setrlimit(RLIMIT_STACK, &rl));
        fflush(stdout);
        char *args[] = {argv[0], "deep", 0};
        execv("/proc/self/exe", args);
        printf("execv: %s\n", strerror(errno));
    } else if (!strcmp(mode, "deep")) {
        struct rlimit rl;
        getrlimit(RLIMIT_STACK, &rl);
        printf("limit %ld MiB\n", (long)(rl.rlim_cur >> 20));
        fflush(stdout);
        printf("deep: %d\n", touch_stack(24 << 10) != 0);
    } else if (!strcmp(mode, "edges")) {
        on(SIGSEGV);
        on(SIGBUS);
        int fd = pages_file(8, page);
        across("4 GiB", (char *)0x100000000, page, fd);
        across("112 TiB", (char *)0x700000000000, page, fd);
        /* A span MAP_FIXED adds (1 GiB-aligned), then a mapping across its top. */
        char *p = mmap((char *)0x200000000, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        printf("8 GiB: %s\n", p == (char *)0x200000000 ? "there" : strerror(errno));
        across("9 GiB", (char *)0x240000000, page, fd);
    } else if (!strcmp(mode, "mremapfixed")) {
        on(SIGSEGV);
        on(SIGBUS);
        char *a = mmap(0, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        char *dest = mmap(0, 8 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        memset(dest, 9, 8 * page);
        strcpy(a, "first page");
        strcpy(a + page, "second page");
        char *r = mremap(a, 2 * page, 3 * page, MREMAP_MAYMOVE | MREMAP_FIXED, dest + page);
        printf("anonymous to a fixed address: %s\n", r == dest + page ? "there" : r == MAP_FAILED ? strerror(errno) : "elsewhere");
        printf("moved: %s, %s, grown part %d, beside %d %d\n", r, r + page, r[2 * page + 5], dest[0], dest[4 * page]);
        base = a;
        probe("old place", a);
        base = 0;
        char *s2 = mremap(r, 3 * page, page, MREMAP_MAYMOVE | MREMAP_FIXED, dest + 5 * page);
        printf("shrunk to a fixed address: %s: %s\n", s2 == dest + 5 * page ? "there" : strerror(errno), s2);
        base = r;
        probe("old place's second page", r + page);
        base = 0;
        int fd = pages_file(4, page);
        char *f = mmap(0, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, page);
        f[10] = 'w';
        r = mremap(f, 2 * page, 3 * page, MREMAP_MAYMOVE | MREMAP_FIXED, dest + page);
        printf("file to a fixed address: %s: %c %c %c %c\n", r == dest + page ? "there" : strerror(errno), r[0], r[10], r[page], r[2 * page]);
        char *g = mremap(r, 3 * page, 4 * page, MREMAP_MAYMOVE);
        printf("file grown and moved: %s: %c %c %c\n", g == MAP_FAILED ? strerror(errno) : "ok", g[10], g[2 * page], g[3 * page - 1]);
        base = g;
        probe("past the end of the file", g + 3 * page);
        base = 0;
        errno = 0;
        show("FIXED without MAYMOVE", mremap(g, page, page, MREMAP_FIXED, dest) == MAP_FAILED ? -1 : 0);
        show("unaligned new address", mremap(g, page, page, MREMAP_FIXED | MREMAP_MAYMOVE, dest + 1) == MAP_FAILED ? -1 : 0);
        show("overlapping", mremap(g, 2 * page, 2 * page, MREMAP_FIXED | MREMAP_MAYMOVE, g + page) == MAP_FAILED ? -1 : 0);
        show("unknown flag", mremap(g, page, page, 64) == MAP_FAILED ? -1 : 0);
        show("old size 0, private", mremap(g, 0, page, MREMAP_MAYMOVE) == MAP_FAILED ? -1 : 0);
        show("new size 0", mremap(g, page, 0, MREMAP_MAYMOVE) == MAP_FAILED ? -1 : 0);
        show("unmapped source", mremap(a, page, 2 * page, MREMAP_MAYMOVE) == MAP_FAILED ? -1 : 0);
        char *c = mmap(0, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        mprotect(c + page, page, PROT_READ);
        show("grown, not movable", mremap(c, page, 2 * page, 0) == MAP_FAILED ? -1 : 0);
        show("past its mapping", mremap(c, 2 * page, 3 * page, MREMAP_MAYMOVE) == MAP_FAILED ? -1 : 0);
        show("shrunk in place", mremap(c, page, page / 2, 0) == c ? 0 : -1);
    } else {
        fprintf(stderr, "no mode %s\n", mode);
        return 2;
    }
    return 0;
}
