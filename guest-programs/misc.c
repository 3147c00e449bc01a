/* System calls local programs need: getcpu, the vsyscall page (calls work,
 * reads fault), setrlimit and getrandom argument checks, prctl(PR_SET_TSC),
 * AF_UNIX sockets, System V shared memory and semaphores,
 * process_vm_readv on itself. */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <stddef.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static sigjmp_buf jb;
static void on_segv(int sig, siginfo_t *si, void *uc) {
    (void)uc;
    printf("SIGSEGV %d at vsyscall page: %d\n", sig,
           (unsigned long)si->si_addr == 0xffffffffff600000UL);
    siglongjmp(jb, 1);
}

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "pkey")) {
        /* Protection keys on a CPU without them (CPUID.7.ECX: PKU bit 3,
         * OSPKE bit 4): Linux answers ENOSPC to pkey_alloc and accepts only
         * the default key. */
        unsigned a, b, c, d;
        __asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(7), "c"(0));
        printf("cpuid pku %u ospke %u\n", (c >> 3) & 1, (c >> 4) & 1);
        long k = syscall(SYS_pkey_alloc, 0, 0);
        printf("pkey_alloc = %ld %s\n", k, k < 0 ? strerror(errno) : "");
        k = syscall(SYS_pkey_alloc, 1, 0);
        printf("pkey_alloc bad flags = %ld %s\n", k, k < 0 ? strerror(errno) : "");
        static char page[4096] __attribute__((aligned(4096)));
        k = syscall(SYS_pkey_mprotect, page, 4096, PROT_READ | PROT_WRITE, -1);
        printf("pkey_mprotect default key = %ld\n", k);
        k = syscall(SYS_pkey_mprotect, page, 4096, PROT_READ | PROT_WRITE, 1);
        printf("pkey_mprotect key 1 = %ld %s\n", k, k < 0 ? strerror(errno) : "");
        k = syscall(SYS_pkey_free, 1);
        printf("pkey_free 1 = %ld %s\n", k, k < 0 ? strerror(errno) : "");
        return 0;
    }
    if (argc > 1) {
        /* Unsupported calls: pathvm names each once, whatever the count. */
        for (int i = 0; i < 3; i++)
            syscall(SYS_io_uring_setup, 0, NULL);
        syscall(SYS_kexec_load, 0, 0, NULL, 0);
        printf("%s\n", argv[1]);
        return 0;
    }
    unsigned cpu = 9, node = 9;
    long rc = syscall(SYS_getcpu, &cpu, &node, NULL);
    printf("getcpu = %ld cpu valid %d node %u\n", rc, cpu < 4096, node);
    printf("sched_getcpu >= 0: %d\n", sched_getcpu() >= 0);

    /* vsyscall: time() at 0xffffffffff600400 agrees with time(). */
    time_t (*vtime)(time_t *) = (time_t (*)(time_t *))0xffffffffff600400UL;
    time_t t1 = time(NULL), t2 = vtime(NULL);
    printf("vsyscall time within 1 s: %d\n", t2 - t1 >= 0 && t2 - t1 <= 1);
    int (*vgtod)(struct timeval *, void *) = (int (*)(struct timeval *, void *))0xffffffffff600000UL;
    struct timeval tv;
    rc = vgtod(&tv, NULL);
    printf("vsyscall gettimeofday = %ld, sane %d\n", rc, tv.tv_sec >= t1 && tv.tv_sec <= t1 + 1);
    long (*vgetcpu)(unsigned *, unsigned *, void *) =
        (long (*)(unsigned *, unsigned *, void *))0xffffffffff600800UL;
    cpu = 9;
    rc = vgetcpu(&cpu, NULL, NULL);
    printf("vsyscall getcpu = %ld, cpu set: %d\n", rc, cpu != 9);
    struct sigaction sa = {0};
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, NULL);
    if (!sigsetjmp(jb, 1)) {
        volatile unsigned char *p = (unsigned char *)0xffffffffff600000UL;
        printf("read %d\n", *p);
    }

    struct rlimit rl;
    getrlimit(RLIMIT_NOFILE, &rl);
    struct rlimit bad = {rl.rlim_max, rl.rlim_max - 1};
    errno = 0;
    { long rv_ = (long)(setrlimit(RLIMIT_NOFILE, &bad)); int e_ = errno; printf("setrlimit soft > hard = %ld %s\n", rv_, strerror(e_)); }
    printf("setrlimit same = %d\n", setrlimit(RLIMIT_NOFILE, &rl));
    char b[16];
    errno = 0;
    { long rv_ = (long)((long)getrandom(b, 16, 0x100)); int e_ = errno; printf("getrandom bad flags = %ld %s\n", rv_, strerror(e_)); }
    errno = 0;
    rc = getrandom(b, 16, GRND_RANDOM | 4);
    printf("getrandom RANDOM|INSECURE = %ld %s\n", rc, strerror(errno));
    printf("getrandom nonblock = %ld\n", (long)getrandom(b, 16, GRND_NONBLOCK));

    int mode = 0;
    printf("PR_SET_TSC = %d\n", prctl(PR_SET_TSC, PR_TSC_ENABLE));
    rc = prctl(PR_GET_TSC, &mode);
    printf("PR_GET_TSC = %ld mode %d\n", rc, mode);

    int sv[2];
    printf("socketpair = %d\n", socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
    if (fork() == 0) {
        close(sv[0]);
        const char *m = "hello through a socketpair";
        write(sv[1], m, strlen(m) + 1);
        _exit(0);
    }
    close(sv[1]);
    char got[64] = {0};
    read(sv[0], got, sizeof got);
    wait(NULL);
    printf("child said: %s\n", got);

    int s = socket(AF_UNIX, SOCK_DGRAM, 0);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    /* Abstract name: nothing on disk. */
    snprintf(a.sun_path + 1, sizeof a.sun_path - 1, "pathvm-misc-%d", (int)getpid());
    socklen_t alen = offsetof(struct sockaddr_un, sun_path) + 1 + strlen(a.sun_path + 1);
    printf("bind = %d\n", bind(s, (struct sockaddr *)&a, alen));
    struct sockaddr_un back;
    socklen_t blen = sizeof back;
    rc = getsockname(s, (struct sockaddr *)&back, &blen);
    printf("getsockname = %ld same %d\n", rc, blen == alen && memcmp(&back, &a, alen) == 0);
    int c = socket(AF_UNIX, SOCK_DGRAM, 0);
    printf("connect = %d\n", connect(c, (struct sockaddr *)&a, alen));
    struct iovec iov = {(void *)"dgram", 6};
    struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1};
    printf("sendmsg = %zd\n", sendmsg(c, &mh, 0));
    char rb[16] = {0};
    struct iovec riov = {rb, sizeof rb};
    struct msghdr rh = {.msg_iov = &riov, .msg_iovlen = 1};
    rc = recvmsg(s, &rh, 0);
    printf("recvmsg = %ld %s\n", rc, rb);
    struct sockaddr_un nscd = {.sun_family = AF_UNIX, .sun_path = "/nonexistent/pathvm/socket"};
    errno = 0;
    rc = connect(c, (struct sockaddr *)&nscd, sizeof nscd);
    printf("connect to nothing = %ld %s\n", rc, strerror(errno));

    int id = shmget(IPC_PRIVATE, 8192, IPC_CREAT | 0600);
    char *m = shmat(id, NULL, 0);
    printf("shmat at NULL ok: %d\n", m != (void *)-1);
    strcpy(m, "before fork");
    if (fork() == 0) {
        strcpy(m, "written by the child");
        _exit(0);
    }
    wait(NULL);
    printf("shared: %s\n", m);
    struct shmid_ds ds;
    rc = shmctl(id, IPC_STAT, &ds);
    printf("shmctl stat = %ld size %zu\n", rc, (size_t)ds.shm_segsz);
    printf("shmdt = %d\n", shmdt(m));
    printf("shmctl rmid = %d\n", shmctl(id, IPC_RMID, NULL));

    int sem = semget(IPC_PRIVATE, 1, IPC_CREAT | 0600);
    printf("semctl setval = %d\n", semctl(sem, 0, SETVAL, 2));
    struct sembuf op = {0, -1, 0};
    printf("semop = %d\n", semop(sem, &op, 1));
    printf("semctl getval = %d\n", semctl(sem, 0, GETVAL));
    printf("semctl rmid = %d\n", semctl(sem, 0, IPC_RMID));

    char src[32] = "copied by process_vm_readv", dst[32] = {0};
    struct iovec l = {dst, sizeof dst}, r = {src, sizeof src};
    rc = process_vm_readv(getpid(), &l, 1, &r, 1, 0);
    printf("process_vm_readv = %ld %s\n", rc, dst);
    return 0;
}
