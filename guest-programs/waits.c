/* Waiting system calls under the scheduler and the virtual clock: epoll on
 * an eventfd written by another thread, timerfds, poll and select between
 * threads, pause() and sigsuspend() woken by another thread, a SIGCHLD
 * handler, setitimer firing while blocked in ppoll and pselect.
 * `waits block`: says so, then blocks in ppoll on its standard input. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/select.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int efd;
static volatile int work_sink;
static volatile sig_atomic_t got_usr1, got_chld, got_alrm;

static void busy(int n) {
    for (int i = 0; i < n; i++)
        work_sink += i;
}

static void *writer(void *arg) {
    (void)arg;
    busy(300000);
    uint64_t one = 7;
    write(efd, &one, 8);
    return NULL;
}

static volatile sig_atomic_t woke;

/* Sends the signal until the main thread says it woke: natively the first
 * one may come before main is in pause(). */
static void *signaller(void *arg) {
    busy(300000);
    while (!woke) {
        kill(getpid(), (int)(intptr_t)arg);
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    return NULL;
}

static void on_usr1(int s) { (void)s; got_usr1++; }
static void on_chld(int s) { (void)s; got_chld++; }
static void on_alrm(int s) { (void)s; got_alrm++; }

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IONBF, 0);
    if (argc > 1) {
        printf("blocking\n");
        struct pollfd f = {0, POLLIN, 0};
        int r = ppoll(&f, 1, NULL, NULL);
        printf("ppoll returned %d\n", r);
        return 3;
    }
    /* epoll on an eventfd another thread writes. */
    efd = eventfd(0, EFD_CLOEXEC);
    int ep = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event ev = {.events = EPOLLIN, .data.u64 = 42};
    printf("epoll_ctl = %d\n", epoll_ctl(ep, EPOLL_CTL_ADD, efd, &ev));
    struct epoll_event out[4];
    printf("epoll_wait no wait = %d\n", epoll_wait(ep, out, 4, 0));
    pthread_t t;
    pthread_create(&t, NULL, writer, NULL);
    int r, e, n = epoll_wait(ep, out, 4, -1);
    printf("epoll_wait = %d data %llu\n", n, (unsigned long long)out[0].data.u64);
    uint64_t v = 0;
    read(efd, &v, 8);
    printf("eventfd read %llu\n", (unsigned long long)v);
    pthread_join(t, NULL);
    /* A blocking read of the eventfd while the writer runs. */
    pthread_create(&t, NULL, writer, NULL);
    v = 0;
    ssize_t rd = read(efd, &v, 8);
    printf("blocking eventfd read %zd %llu\n", rd, (unsigned long long)v);
    pthread_join(t, NULL);
    printf("epoll_wait timeout = %d\n", epoll_wait(ep, out, 4, 20));

    /* timerfds on the virtual clock. */
    int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
    struct itimerspec its = {{0, 0}, {0, 50000000}};
    printf("timerfd_settime = %d\n", timerfd_settime(tfd, 0, &its, NULL));
    struct itimerspec cur;
    timerfd_gettime(tfd, &cur);
    printf("armed: %d\n", cur.it_value.tv_nsec > 0 && cur.it_value.tv_nsec <= 50000000);
    v = 0;
    rd = read(tfd, &v, 8);
    printf("timerfd read %zd expirations %llu\n", rd, (unsigned long long)v);
    struct itimerspec per = {{0, 10000000}, {0, 10000000}};
    timerfd_settime(tfd, 0, &per, NULL);
    struct timespec ts = {0, 35000000};
    nanosleep(&ts, NULL);
    read(tfd, &v, 8);
    /* 3 on the virtual clock; natively 3, or more on a loaded machine. */
    printf("periodic expirations after 35 ms at least 3: %d\n", v >= 3);
    ev.data.u64 = 99;
    epoll_ctl(ep, EPOLL_CTL_ADD, tfd, &ev);
    n = epoll_wait(ep, out, 4, 1000);
    printf("epoll on timerfd = %d data %llu\n", n, (unsigned long long)out[0].data.u64);
    struct itimerspec off = {{0, 0}, {0, 0}};
    timerfd_settime(tfd, 0, &off, NULL);
    close(tfd);

    /* poll and select on a pipe another process writes. */
    int p[2];
    pipe(p);
    if (fork() == 0) {
        busy(100000);
        write(p[1], "x", 1);
        _exit(0);
    }
    struct pollfd pf = {p[0], POLLIN, 0};
    r = poll(&pf, 1, -1);
    printf("poll = %d revents %d\n", r, pf.revents);
    fd_set rs;
    FD_ZERO(&rs);
    FD_SET(p[0], &rs);
    struct timeval tv;
    r = select(p[0] + 1, &rs, NULL, NULL, NULL);
    printf("select = %d isset %d\n", r, FD_ISSET(p[0], &rs));
    char c;
    read(p[0], &c, 1);
    wait(NULL);
    FD_ZERO(&rs);
    FD_SET(p[0], &rs);
    tv.tv_sec = 0;
    tv.tv_usec = 30000;
    r = select(p[0] + 1, &rs, NULL, NULL, &tv);
    printf("select timeout = %d isset %d\n", r, FD_ISSET(p[0], &rs));

    /* pause() and sigsuspend() woken by another thread. */
    signal(SIGUSR1, on_usr1);
    pthread_create(&t, NULL, signaller, (void *)(intptr_t)SIGUSR1);
    r = pause();
    e = errno;
    woke = 1;
    printf("pause = %d %s, handler ran %d\n", r, strerror(e), got_usr1 > 0);
    pthread_join(t, NULL);
    woke = 0;
    got_usr1 = 0;
    sigset_t block, empty;
    sigemptyset(&block);
    sigaddset(&block, SIGUSR1);
    sigprocmask(SIG_BLOCK, &block, NULL);
    pthread_create(&t, NULL, signaller, (void *)(intptr_t)SIGUSR1);
    sigemptyset(&empty);
    r = sigsuspend(&empty);
    e = errno;
    woke = 1;
    printf("sigsuspend = %d %s, handler ran %d\n", r, strerror(e), got_usr1 > 0);
    pthread_join(t, NULL);

    /* A SIGCHLD handler runs when a child ends. */
    struct sigaction sa = {0};
    sa.sa_handler = on_chld;
    sigaction(SIGCHLD, &sa, NULL);
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, NULL);
    if (fork() == 0)
        _exit(5);
    sigsuspend(&empty);
    printf("SIGCHLD handler ran %d\n", got_chld);
    int st;
    wait(&st);
    printf("child status %d\n", WEXITSTATUS(st));
    sigprocmask(SIG_UNBLOCK, &chld, NULL);
    if (fork() == 0)
        _exit(6);
    wait(&st);
    printf("SIGCHLD handler after wait: %d, status %d\n", got_chld, WEXITSTATUS(st));

    /* A real-time timer fires while the guest blocks in ppoll, pselect. */
    sa.sa_handler = on_alrm;
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {{0, 0}, {0, 200000}};
    setitimer(ITIMER_REAL, &it, NULL);
    int q[2];
    pipe(q);
    struct pollfd qf = {q[0], POLLIN, 0};
    r = ppoll(&qf, 1, NULL, NULL);
    e = errno;
    printf("ppoll = %d %s, alarms %d\n", r, strerror(e), got_alrm);
    setitimer(ITIMER_REAL, &it, NULL);
    FD_ZERO(&rs);
    FD_SET(q[0], &rs);
    r = pselect(q[0] + 1, &rs, NULL, NULL, NULL, NULL);
    e = errno;
    printf("pselect = %d %s, alarms %d\n", r, strerror(e), got_alrm);
    return 0;
}
