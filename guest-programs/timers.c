/* POSIX timers, per-thread pending signals and sigwaitinfo: each part prints
 * what it observed (never a time), so a native run and a run under pathvm
 * print the same lines.
 *   periodic: SIGEV_SIGNAL every 2 ms, 5 expirations counted in sigsuspend
 *   thread:   glibc's SIGEV_THREAD calls a function 5 times
 *   threadid: SIGEV_THREAD_ID to a chosen thread while main does not block it
 *   sigwait:  sigwaitinfo in a worker while main blocks the signal; a
 *             sigtimedwait that times out; SIGCHLD taken by sigwaitinfo
 *   tgkill:   to a thread that blocks the signal while main does not
 *   queue:    real-time signals queued with values, delivered in order
 *   overrun:  a blocked periodic timer's overruns, si_overrun and
 *             timer_getoverrun agreeing
 *   misc:     SIGEV_NONE, a CPU-time timer, bad arguments, fork
 *   signalfd: reads of queued, raised and timer signals, poll and epoll on
 *             it, a worker blocked reading it, SIGCHLD through it
 *   sfdthread: signalfd readiness per thread: a signal sent to one
 *             thread (tgkill) is readable (poll, epoll, read) only in that
 *             thread, one sent to the process in every thread
 *   stale:    (only when asked: Linux 6.12 and later) a timer deleted, or
 *             armed again, while its signal is pending and blocked: the
 *             signal still shows in sigpending, and is dropped when
 *             unblocked or waited for */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static pid_t gettid_(void) { return (pid_t)syscall(SYS_gettid); }

static void arm(timer_t t, long first_ns, long every_ns) {
    struct itimerspec its = {{0, every_ns}, {0, first_ns}};
    if (timer_settime(t, 0, &its, NULL) != 0) {
        perror("timer_settime");
        exit(1);
    }
}

/* periodic */
static volatile sig_atomic_t ticks, bad_info;
static timer_t periodic_id;

static void on_tick(int sig, siginfo_t *si, void *uc) {
    (void)uc;
    if (sig != SIGRTMIN || si->si_code != SI_TIMER || si->si_value.sival_int != 77)
        bad_info++;
    ticks++;
}

static void periodic(void) {
    struct sigaction sa = {0};
    sa.sa_sigaction = on_tick;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGRTMIN, &sa, NULL);
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGRTMIN);
    sigprocmask(SIG_BLOCK, &block, &old);
    struct sigevent ev = {0};
    ev.sigev_notify = SIGEV_SIGNAL;
    ev.sigev_signo = SIGRTMIN;
    ev.sigev_value.sival_int = 77;
    timer_create(CLOCK_MONOTONIC, &ev, &periodic_id);
    arm(periodic_id, 2000000, 2000000);
    while (ticks < 5)
        sigsuspend(&old);
    timer_delete(periodic_id);
    sigprocmask(SIG_SETMASK, &old, NULL);
    printf("periodic: %d expirations, siginfo %s\n", (int)ticks, bad_info ? "wrong" : "right");
}

/* thread */
static sem_t called;
static volatile int calls, thread_value_ok = 1;

static void on_thread(union sigval v) {
    if (v.sival_int != 5)
        thread_value_ok = 0;
    __atomic_add_fetch(&calls, 1, __ATOMIC_SEQ_CST);
    sem_post(&called);
}

static void sigev_thread(void) {
    sem_init(&called, 0, 0);
    struct sigevent ev = {0};
    ev.sigev_notify = SIGEV_THREAD;
    ev.sigev_notify_function = on_thread;
    ev.sigev_value.sival_int = 5;
    timer_t t;
    if (timer_create(CLOCK_MONOTONIC, &ev, &t) != 0) {
        perror("timer_create SIGEV_THREAD");
        exit(1);
    }
    arm(t, 3000000, 3000000);
    for (int i = 0; i < 5; i++)
        sem_wait(&called);
    timer_delete(t);
    printf("thread: %d calls at least, values %s\n", calls >= 5 ? 5 : calls,
           thread_value_ok ? "right" : "wrong");
}

/* threadid */
static sem_t ready;
static volatile pid_t worker_tid, handled_by;

static void on_directed(int sig) {
    (void)sig;
    handled_by = gettid_();
}

static void *directed_worker(void *arg) {
    (void)arg;
    worker_tid = gettid_();
    sem_post(&ready);
    while (!handled_by)
        pause();
    return NULL;
}

static void thread_id(void) {
    signal(SIGRTMIN + 1, on_directed);
    sem_init(&ready, 0, 0);
    pthread_t th;
    pthread_create(&th, NULL, directed_worker, NULL);
    sem_wait(&ready);
    struct sigevent ev = {0};
    ev.sigev_notify = SIGEV_THREAD_ID;
    ev.sigev_signo = SIGRTMIN + 1;
    ev._sigev_un._tid = worker_tid;
    timer_t t;
    timer_create(CLOCK_REALTIME, &ev, &t);
    arm(t, 4000000, 0);
    pthread_join(th, NULL);
    timer_delete(t);
    printf("threadid: handled by %s\n",
           handled_by == worker_tid ? "the worker" : handled_by == getpid() ? "main" : "?");
}

/* sigwait */
static void *waiting_worker(void *arg) {
    (void)arg;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR2);
    sem_post(&ready);
    siginfo_t si;
    int s = sigwaitinfo(&set, &si);
    printf("sigwait: worker took %s, code %s, value %d\n", s == SIGUSR2 ? "SIGUSR2" : "?",
           si.si_code == SI_QUEUE ? "SI_QUEUE" : "?", si.si_value.sival_int);
    return NULL;
}

static void sigwait_part(void) {
    sigset_t set, old;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR2);
    pthread_sigmask(SIG_BLOCK, &set, &old);
    pthread_t th;
    pthread_create(&th, NULL, waiting_worker, NULL);
    sem_wait(&ready);
    sigqueue(getpid(), SIGUSR2, (union sigval){.sival_int = 42});
    pthread_join(th, NULL);
    struct timespec ts = {0, 20000000};
    int r = sigtimedwait(&set, NULL, &ts);
    printf("sigwait: timed out %s\n", r < 0 && errno == EAGAIN ? "with EAGAIN" : "?");
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, NULL);
    fflush(stdout);
    pid_t p = fork();
    if (p == 0)
        _exit(3);
    siginfo_t si;
    int s = sigwaitinfo(&chld, &si);
    printf("sigwait: %s, child %s, code %s, status %d\n", s == SIGCHLD ? "SIGCHLD" : "?",
           si.si_pid == p ? "right" : "wrong", si.si_code == CLD_EXITED ? "CLD_EXITED" : "?",
           si.si_status);
    waitpid(p, NULL, 0);
    sigprocmask(SIG_UNBLOCK, &chld, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* tgkill */
static volatile sig_atomic_t main_usr1;
static sem_t go;

static void on_usr1(int sig) {
    (void)sig;
    main_usr1++;
}

static void *blocking_worker(void *arg) {
    (void)arg;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    worker_tid = gettid_();
    sem_post(&ready);
    sem_wait(&go);
    sigset_t pend;
    sigpending(&pend);
    int mine = sigismember(&pend, SIGUSR1);
    FILE *st = fopen("/proc/thread-self/status", "r");
    char line[256];
    while (st && fgets(line, sizeof line, st))
        if (!strncmp(line, "SigPnd:", 7) || !strncmp(line, "ShdPnd:", 7))
            printf("tgkill: the worker's %s", line);
    if (st)
        fclose(st);
    siginfo_t si;
    int s = sigwaitinfo(&set, &si);
    /* SI_TKILL, or SI_USER on kernels that say so for tgkill. */
    printf("tgkill: pending in the worker %s, taken %s, code %s\n", mine ? "yes" : "no",
           s == SIGUSR1 ? "SIGUSR1" : "?",
           si.si_code == SI_TKILL || si.si_code == SI_USER ? "a kill's" : "?");
    return NULL;
}

static void tgkill_part(void) {
    signal(SIGUSR1, on_usr1);
    sem_init(&go, 0, 0);
    pthread_t th;
    pthread_create(&th, NULL, blocking_worker, NULL);
    sem_wait(&ready);
    syscall(SYS_tgkill, getpid(), worker_tid, SIGUSR1);
    sigset_t pend;
    sigpending(&pend);
    printf("tgkill: pending in main %s, main's handler ran %d times\n",
           sigismember(&pend, SIGUSR1) ? "yes" : "no", (int)main_usr1);
    sem_post(&go);
    pthread_join(th, NULL);
    printf("tgkill: main's handler ran %d times after\n", (int)main_usr1);
}

/* queue */
static int order[16][2], n_order;

static void on_queued(int sig, siginfo_t *si, void *uc) {
    (void)uc;
    if (n_order < 16) {
        order[n_order][0] = sig;
        order[n_order][1] = si->si_value.sival_int;
        n_order++;
    }
}

static void queue_part(void) {
    struct sigaction sa = {0};
    sa.sa_sigaction = on_queued;
    sa.sa_flags = SA_SIGINFO;
    sigfillset(&sa.sa_mask);
    int sigs[] = {SIGUSR1, SIGRTMIN + 2, SIGRTMIN + 3};
    sigset_t set, old;
    sigemptyset(&set);
    for (int i = 0; i < 3; i++) {
        sigaction(sigs[i], &sa, NULL);
        sigaddset(&set, sigs[i]);
    }
    sigprocmask(SIG_BLOCK, &set, &old);
    sigqueue(getpid(), SIGRTMIN + 3, (union sigval){.sival_int = 9});
    for (int v = 1; v <= 3; v++)
        sigqueue(getpid(), SIGRTMIN + 2, (union sigval){.sival_int = v});
    sigqueue(getpid(), SIGUSR1, (union sigval){.sival_int = 100});
    sigqueue(getpid(), SIGUSR1, (union sigval){.sival_int = 101});
    sigprocmask(SIG_SETMASK, &old, NULL);
    printf("queue:");
    for (int i = 0; i < n_order; i++)
        printf(" %s%d:%d", order[i][0] >= SIGRTMIN ? "RTMIN+" : "sig",
               order[i][0] >= SIGRTMIN ? order[i][0] - SIGRTMIN : order[i][0], order[i][1]);
    printf("\n");
}

/* overrun */
static void overrun_part(void) {
    sigset_t set, old;
    sigemptyset(&set);
    sigaddset(&set, SIGRTMIN + 4);
    sigprocmask(SIG_BLOCK, &set, &old);
    struct sigevent ev = {0};
    ev.sigev_notify = SIGEV_SIGNAL;
    ev.sigev_signo = SIGRTMIN + 4;
    timer_t t;
    timer_create(CLOCK_MONOTONIC, &ev, &t);
    arm(t, 1000000, 1000000);
    struct timespec ts = {0, 20500000};
    while (nanosleep(&ts, &ts) != 0)
        ;
    siginfo_t si;
    sigwaitinfo(&set, &si);
    int got = timer_getoverrun(t);
    printf("overrun: at least 10 %s, timer_getoverrun agrees %s\n",
           si.si_overrun >= 10 ? "yes" : "no", got == si.si_overrun ? "yes" : "no");
    timer_delete(t);
    sigprocmask(SIG_SETMASK, &old, NULL);
}

/* misc */
static volatile sig_atomic_t cpu_fired;

static void on_cpu(int sig) {
    (void)sig;
    cpu_fired = 1;
}

static void misc_part(void) {
    struct sigevent ev = {0};
    ev.sigev_notify = SIGEV_NONE;
    timer_t t;
    timer_create(CLOCK_MONOTONIC, &ev, &t);
    struct itimerspec cur;
    arm(t, 500000000, 0);
    timer_gettime(t, &cur);
    int armed = cur.it_value.tv_sec == 0 && cur.it_value.tv_nsec > 0;
    struct timespec ts = {0, 600000000};
    nanosleep(&ts, NULL);
    timer_gettime(t, &cur);
    printf("misc: SIGEV_NONE armed %s, expired %s\n", armed ? "yes" : "no",
           cur.it_value.tv_sec == 0 && cur.it_value.tv_nsec == 0 ? "yes" : "no");
    timer_delete(t);
    errno = 0;
    printf("misc: deleted timer gives %s\n",
           timer_gettime(t, &cur) < 0 && errno == EINVAL ? "EINVAL" : "?");

    signal(SIGRTMIN + 5, on_cpu);
    ev.sigev_notify = SIGEV_SIGNAL;
    ev.sigev_signo = SIGRTMIN + 5;
    timer_create(CLOCK_PROCESS_CPUTIME_ID, &ev, &t);
    arm(t, 3000000, 0);
    volatile long spins = 0;
    while (!cpu_fired)
        spins++;
    timer_delete(t);
    printf("misc: CPU-time timer fired\n");

    errno = 0;
    ev.sigev_signo = 65;
    int r = timer_create(CLOCK_MONOTONIC, &ev, &t);
    printf("misc: signal 65 gives %s\n", r < 0 && errno == EINVAL ? "EINVAL" : "?");
    ev.sigev_signo = SIGALRM;
    ev.sigev_notify = 77;
    r = timer_create(CLOCK_MONOTONIC, &ev, &t);
    printf("misc: notify 77 gives %s\n", r < 0 && errno == EINVAL ? "EINVAL" : "?");
    ev.sigev_notify = SIGEV_SIGNAL;
    r = timer_create((clockid_t)123, &ev, &t);
    printf("misc: clock 123 gives %s\n", r < 0 && errno == EINVAL ? "EINVAL" : "?");

    timer_create(CLOCK_MONOTONIC, &ev, &t);
    arm(t, 900000000, 0);
    fflush(stdout);
    pid_t p = fork();
    if (p == 0) {
        errno = 0;
        int g = timer_gettime(t, &cur);
        printf("misc: the child has the timer %s\n", g == 0 ? "yes" : "no");
        fflush(stdout);
        _exit(0);
    }
    waitpid(p, NULL, 0);
    timer_delete(t);
}

/* signalfd */
static int sfd_blocking;

static const char *sig_name(int sig) {
    static char b[16];
    if (sig >= SIGRTMIN)
        snprintf(b, sizeof b, "RTMIN+%d", sig - SIGRTMIN);
    else
        snprintf(b, sizeof b, "sig%d", sig);
    return b;
}

static void *sfd_reader(void *arg) {
    (void)arg;
    sem_post(&ready);
    struct signalfd_siginfo si;
    ssize_t n = read(sfd_blocking, &si, sizeof si);
    printf("signalfd: the worker read %zd bytes, %s value %d\n", n, sig_name((int)si.ssi_signo),
           si.ssi_int);
    return NULL;
}

/* sfdthread */
static int sfd_thr;
static sem_t sfd_go, sfd_done;
static pid_t sfd_worker_tid, main_tid;

/* What the calling thread sees of signalfd `fd`: poll with `ms`, epoll
 * with 0, then a read. */
static void sfd_look(const char *who, int fd, int ms) {
    struct pollfd p = {fd, POLLIN, 0};
    int r = poll(&p, 1, ms);
    int ep = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN, .data.u32 = 1}, got;
    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
    int e = epoll_wait(ep, &got, 1, 0);
    close(ep);
    sigset_t pend;
    sigpending(&pend);
    struct signalfd_siginfo si;
    ssize_t n = read(fd, &si, sizeof si);
    printf("sfdthread: %s: poll %d, epoll %d, sigpending %s, read %s\n", who, r, e,
           sigismember(&pend, SIGUSR2) ? "SIGUSR2" : "-",
           n == (ssize_t)sizeof si ? sig_name((int)si.ssi_signo) : errno == EAGAIN ? "EAGAIN" : "?");
}

static void *sfd_worker(void *arg) {
    (void)arg;
    sfd_worker_tid = gettid_();
    sem_post(&ready);
    sem_wait(&sfd_go);
    sfd_look("worker, its own signal", sfd_thr, 0);
    /* Its own signal again, then main looks (and waits 20 ms) first. */
    syscall(SYS_tgkill, getpid(), gettid_(), SIGUSR2);
    sem_post(&sfd_done);
    sem_wait(&sfd_go);
    sfd_look("worker, after main", sfd_thr, 0);
    sem_post(&sfd_done);
    sem_wait(&sfd_go);
    sfd_look("worker, the process's", sfd_thr, 0);
    sem_post(&sfd_done);
    /* Its own signal while main waits in poll: main's poll times out. */
    struct timespec ms10 = {0, 10000000};
    nanosleep(&ms10, NULL);
    syscall(SYS_tgkill, getpid(), gettid_(), SIGUSR2);
    sem_wait(&sfd_go);
    sfd_look("worker, while main waited", sfd_thr, 0);
    /* main blocks reading: its own signal does not wake main, the
       process's (a real-time one, with a value) does. */
    nanosleep(&ms10, NULL);
    syscall(SYS_tgkill, getpid(), gettid_(), SIGUSR2);
    nanosleep(&ms10, NULL);
    sigqueue(getpid(), SIGUSR2, (union sigval){.sival_int = 42});
    sem_wait(&sfd_go);
    sfd_look("worker, after main's read", sfd_thr, 0);
    /* A timer's signal to this thread (SIGEV_THREAD_ID) while it sleeps
       and main waits in poll. */
    struct sigevent sev = {0};
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = SIGUSR2;
    sev._sigev_un._tid = gettid_();
    timer_t t;
    timer_create(CLOCK_MONOTONIC, &sev, &t);
    arm(t, 10000000, 0);
    struct timespec ms200 = {0, 200000000};
    nanosleep(&ms200, NULL);
    sfd_look("worker, its timer's", sfd_thr, 0);
    timer_delete(t);
    /* A signal to main while main waits in poll (1 s) and epoll: it wakes. */
    nanosleep(&ms10, NULL);
    syscall(SYS_tgkill, getpid(), main_tid, SIGUSR2);
    sem_wait(&sfd_go);
    nanosleep(&ms10, NULL);
    syscall(SYS_tgkill, getpid(), main_tid, SIGUSR2);
    /* A timer's signal to main while main waits and this thread sleeps. */
    sem_wait(&sfd_go);
    sev._sigev_un._tid = main_tid;
    timer_create(CLOCK_MONOTONIC, &sev, &t);
    arm(t, 10000000, 0);
    nanosleep(&ms200, NULL);
    timer_delete(t);
    return NULL;
}

static void sfdthread_part(void) {
    sigset_t set, old;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR2);
    sigprocmask(SIG_BLOCK, &set, &old);
    sfd_thr = signalfd(-1, &set, SFD_NONBLOCK);
    main_tid = gettid_();
    sem_init(&sfd_go, 0, 0);
    sem_init(&sfd_done, 0, 0);
    pthread_t th;
    pthread_create(&th, NULL, sfd_worker, NULL);
    sem_wait(&ready);
    syscall(SYS_tgkill, getpid(), sfd_worker_tid, SIGUSR2);
    sfd_look("main, the worker's signal", sfd_thr, 0);
    sem_post(&sfd_go);
    sem_wait(&sfd_done);
    sfd_look("main, the worker's own again", sfd_thr, 20);
    sem_post(&sfd_go);
    sem_wait(&sfd_done);
    kill(getpid(), SIGUSR2);
    sfd_look("main, the process's", sfd_thr, 0);
    kill(getpid(), SIGUSR2);
    sem_post(&sfd_go);
    sem_wait(&sfd_done);
    sfd_look("main, waiting while the worker signals itself", sfd_thr, 100);
    sem_post(&sfd_go);
    int blocking = signalfd(-1, &set, 0);
    struct signalfd_siginfo si;
    ssize_t n = read(blocking, &si, sizeof si);
    printf("sfdthread: main's blocking read: %zd, %s %s value %d\n", n, sig_name((int)si.ssi_signo),
           si.ssi_code == SI_QUEUE ? "SI_QUEUE" : "?", si.ssi_int);
    close(blocking);
    sem_post(&sfd_go);
    sfd_look("main, waiting while the worker's timer fires", sfd_thr, 100);
    sfd_look("main, waiting for the worker's signal to main", sfd_thr, 1000);
    sem_post(&sfd_go);
    int ep = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN, .data.u32 = 5}, got;
    epoll_ctl(ep, EPOLL_CTL_ADD, sfd_thr, &ev);
    int r = epoll_wait(ep, &got, 1, 1000);
    n = read(sfd_thr, &si, sizeof si);
    printf("sfdthread: main's epoll_wait for the worker's signal to main: %d (%u), read %s\n", r,
           r > 0 ? got.data.u32 : 0, n == (ssize_t)sizeof si ? sig_name((int)si.ssi_signo) : "EAGAIN");
    close(ep);
    sem_post(&sfd_go);
    sfd_look("main, waiting for its timer's signal", sfd_thr, 1000);
    pthread_join(th, NULL);
    close(sfd_thr);
    sigprocmask(SIG_SETMASK, &old, NULL);
}

static void signalfd_part(void) {
    int rt = SIGRTMIN + 6;
    sigset_t set, old;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR1);
    sigaddset(&set, rt);
    sigaddset(&set, SIGCHLD);
    sigprocmask(SIG_BLOCK, &set, &old);
    int sfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
    struct signalfd_siginfo si[4];
    ssize_t n = read(sfd, si, sizeof si);
    printf("signalfd: empty read %s\n", n < 0 && errno == EAGAIN ? "EAGAIN" : "?");
    sigqueue(getpid(), rt, (union sigval){.sival_int = 7});
    raise(SIGUSR1);
    struct pollfd p = {sfd, POLLIN, 0};
    int r = poll(&p, 1, 0);
    printf("signalfd: poll %d %s\n", r, p.revents & POLLIN ? "POLLIN" : "-");
    n = read(sfd, si, sizeof si);
    printf("signalfd: read %zd records:", n / (ssize_t)sizeof si[0]);
    for (int i = 0; i < n / (ssize_t)sizeof si[0]; i++)
        printf(" %s/%s/%d", sig_name((int)si[i].ssi_signo),
               si[i].ssi_code == SI_QUEUE ? "SI_QUEUE"
               : si[i].ssi_code == SI_TKILL || si[i].ssi_code == SI_USER ? "kill"
                                                                         : "?",
               si[i].ssi_int);
    printf("\n");
    r = poll(&p, 1, 0);
    printf("signalfd: then poll %d\n", r);

    int ep = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN, .data.u32 = 99};
    epoll_ctl(ep, EPOLL_CTL_ADD, sfd, &ev);
    struct sigevent sev = {0};
    sev.sigev_notify = SIGEV_SIGNAL;
    sev.sigev_signo = rt;
    sev.sigev_value.sival_int = 11;
    timer_t t;
    timer_create(CLOCK_MONOTONIC, &sev, &t);
    arm(t, 5000000, 0);
    struct epoll_event got;
    r = epoll_wait(ep, &got, 1, -1);
    n = read(sfd, si, sizeof si);
    printf("signalfd: epoll %d (%u), read %zd: %s %s value %d\n", r, got.data.u32,
           n / (ssize_t)sizeof si[0], sig_name((int)si[0].ssi_signo),
           si[0].ssi_code == SI_TIMER ? "SI_TIMER" : "?", si[0].ssi_int);
    timer_delete(t);
    close(ep);

    sfd_blocking = signalfd(-1, &set, 0);
    pthread_t th;
    pthread_create(&th, NULL, sfd_reader, NULL);
    sem_wait(&ready);
    sigqueue(getpid(), rt, (union sigval){.sival_int = 8});
    pthread_join(th, NULL);

    fflush(stdout);
    pid_t c = fork();
    if (c == 0)
        _exit(5);
    n = read(sfd_blocking, si, sizeof si[0]);
    printf("signalfd: %s, child %s, code %s, status %d\n", sig_name((int)si[0].ssi_signo),
           (pid_t)si[0].ssi_pid == c ? "right" : "wrong",
           si[0].ssi_code == CLD_EXITED ? "CLD_EXITED" : "?", si[0].ssi_status);
    waitpid(c, NULL, 0);
    close(sfd);
    close(sfd_blocking);
    sigprocmask(SIG_SETMASK, &old, NULL);
}

static volatile sig_atomic_t stale_got;

static void on_stale(int sig) {
    (void)sig;
    stale_got++;
}

static void stale_part(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stale;
    sigaction(SIGUSR1, &sa, NULL);
    sigset_t s, old;
    sigemptyset(&s);
    sigaddset(&s, SIGUSR1);
    sigprocmask(SIG_BLOCK, &s, &old);
    const char *how[] = {"deleted", "armed again", "deleted, then sigtimedwait"};
    for (int mode = 0; mode < 3; mode++) {
        timer_t t;
        struct sigevent ev;
        memset(&ev, 0, sizeof ev);
        ev.sigev_notify = SIGEV_SIGNAL;
        ev.sigev_signo = SIGUSR1;
        timer_create(CLOCK_MONOTONIC, &ev, &t);
        struct itimerspec its = {{0, 0}, {0, 10000000}};
        timer_settime(t, 0, &its, NULL);
        usleep(50000);
        sigset_t p;
        sigpending(&p);
        int before = sigismember(&p, SIGUSR1);
        if (mode == 1) {
            its.it_value.tv_sec = 100;
            timer_settime(t, 0, &its, NULL);
        } else {
            timer_delete(t);
        }
        sigpending(&p);
        int after = sigismember(&p, SIGUSR1);
        stale_got = 0;
        int waited = -2;
        if (mode == 2) {
            struct timespec zero = {0, 0};
            waited = sigtimedwait(&s, NULL, &zero);
        } else {
            sigprocmask(SIG_UNBLOCK, &s, NULL);
            sigprocmask(SIG_BLOCK, &s, NULL);
        }
        printf("stale, %s: pending %d then %d, handled %d, sigtimedwait %d\n", how[mode], before,
               after, (int)stale_got, waited);
        if (mode == 1)
            timer_delete(t);
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
}

int main(int argc, char **argv) {
    const char *only = argc > 1 ? argv[1] : "";
    if (!strcmp(only, "stale")) {
        setvbuf(stdout, NULL, _IOLBF, 0);
        stale_part();
        return 0;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (!*only || !strcmp(only, "periodic"))
        periodic();
    if (!*only || !strcmp(only, "thread"))
        sigev_thread();
    if (!*only || !strcmp(only, "threadid"))
        thread_id();
    if (!*only || !strcmp(only, "sigwait"))
        sigwait_part();
    if (!*only || !strcmp(only, "tgkill"))
        tgkill_part();
    if (!*only || !strcmp(only, "queue"))
        queue_part();
    if (!*only || !strcmp(only, "overrun"))
        overrun_part();
    if (!*only || !strcmp(only, "misc"))
        misc_part();
    if (!*only || !strcmp(only, "signalfd"))
        signalfd_part();
    if (!*only || !strcmp(only, "sfdthread"))
        sfdthread_part();
    return 0;
}
