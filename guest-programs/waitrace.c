/* Waits whose answer comes from other processes, whose speed pathvm does
 * not control: each of three forked children reads one byte of the
 * standard input (which the test writes, as slowly as it likes), then
 * writes "x\n" to a pipe and ends. The guest waits for the pipes and the
 * ends with poll and epoll timeouts, a reader thread, pause() for SIGCHLD.
 * However long the children take, the guest's profile must be the same:
 * nothing it sees may depend on host timing. Natively, the loop counts
 * depend on the delay: the output prints whether they are zero only. */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int sink;
static volatile sig_atomic_t got_chld;

static void busy(int n) {
    for (int i = 0; i < n; i++)
        sink += i;
}

static void on_chld(int s) {
    (void)s;
    got_chld++;
}

/* A child that writes "x\n" to the returned descriptor once it has read a
 * byte of the standard input. */
static int spawn(void) {
    int p[2];
    if (pipe(p) != 0)
        return -1;
    if (fork() == 0) {
        char c;
        close(p[0]);
        if (read(0, &c, 1) != 1)
            _exit(1);
        write(p[1], "x\n", 2);
        _exit(0);
    }
    close(p[1]);
    return p[0];
}

static int tfd, tn;
static char tbuf[8];

static void *reader(void *a) {
    (void)a;
    tn = (int)read(tfd, tbuf, sizeof tbuf);
    return NULL;
}

int main(void) {
    setvbuf(stdout, NULL, _IONBF, 0);
    signal(SIGCHLD, on_chld);

    /* poll with a timeout, in a loop, on a child's pipe. */
    int fd = spawn();
    busy(50000);
    struct pollfd f = {fd, POLLIN, 0};
    int loops = 0, r, st;
    while ((r = poll(&f, 1, 100)) == 0)
        loops++;
    char b[8];
    int n = (int)read(fd, b, sizeof b);
    printf("poll = %d revents %d, read %d\n", r, f.revents, n);
    n = (int)read(fd, b, sizeof b);
    printf("then read %d (end of file)\n", n);
    close(fd);
    /* pause() until SIGCHLD. */
    while (!got_chld)
        pause();
    wait(&st);
    printf("child exit %d, SIGCHLD %d\n", WEXITSTATUS(st), got_chld);

    /* A reader thread blocked on a child's pipe while main computes. */
    tfd = spawn();
    pthread_t t;
    pthread_create(&t, NULL, reader, NULL);
    busy(300000);
    pthread_join(t, NULL);
    printf("thread read %d\n", tn);
    close(tfd);
    wait(&st);

    /* epoll with a timeout on a child's pipe. */
    fd = spawn();
    int ep = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN, .data.u64 = 5};
    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
    while ((r = epoll_wait(ep, &ev, 1, 50)) == 0)
        loops++;
    printf("epoll = %d events %u data %llu\n", r, ev.events, (unsigned long long)ev.data.u64);
    wait(&st);
    printf("SIGCHLD %d, timeouts seen: %s\n", got_chld, loops ? "some" : "none");
    return 0;
}
