/* Waits whose answer comes from other processes, whose speed pathvm does
 * not control: `waitrace DELAYFILE` runs native children (`sh -c "sleep
 * $(cat DELAYFILE); echo x"`) and waits for their output and their end with
 * poll and epoll timeouts, a reader thread, pause() for SIGCHLD. However
 * long the children take (the test changes DELAYFILE between runs), the
 * guest's profile must be the same: nothing the guest sees may depend on
 * host timing. Natively, the loop counts depend on the delay: the output
 * prints whether they are zero only. */
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
static const char *delay_file;

static void busy(int n) {
    for (int i = 0; i < n; i++)
        sink += i;
}

static void on_chld(int s) {
    (void)s;
    got_chld++;
}

/* A native child writing "x\n" to the returned descriptor after the delay. */
static int spawn(void) {
    int p[2];
    char cmd[512];
    snprintf(cmd, sizeof cmd, "sleep $(cat '%s'); echo x", delay_file);
    if (pipe(p) != 0)
        return -1;
    if (fork() == 0) {
        dup2(p[1], 1);
        close(p[0]);
        close(p[1]);
        execl("/bin/sh", "sh", "-c", cmd, (char *)0);
        _exit(127);
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

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IONBF, 0);
    if (argc < 2)
        return 2;
    delay_file = argv[1];
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
