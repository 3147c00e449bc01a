/* Timers: alarm() woken in pause(); ITIMER_REAL ends a busy loop; a periodic
 * ITIMER_VIRTUAL; nanosleep interrupted by SIGALRM. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t alarms, vticks;

__attribute__((noinline)) static void on_alarm(int sig) {
    (void)sig;
    alarms++;
}

__attribute__((noinline)) static void on_vtalrm(int sig) {
    (void)sig;
    vticks++;
}

__attribute__((noinline)) long spin(volatile sig_atomic_t *flag, int until) {
    long n = 0;
    while (*flag < until)
        n++;
    return n;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, 0);

    double t0 = now();
    alarm(1);
    pause();
    printf("pause woke: alarms %d, at least 1 s later: %d\n", alarms, now() - t0 >= 1.0);

    struct itimerval it = {{0, 0}, {0, 5000}};
    setitimer(ITIMER_REAL, &it, 0);
    spin(&alarms, 2);
    printf("busy loop ended by ITIMER_REAL: alarms %d\n", alarms);

    sa.sa_handler = on_vtalrm;
    sigaction(SIGVTALRM, &sa, 0);
    struct itimerval v = {{0, 2000}, {0, 2000}};
    setitimer(ITIMER_VIRTUAL, &v, 0);
    spin(&vticks, 3);
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_VIRTUAL, &off, 0);
    printf("virtual timer ticks: %d\n", vticks);

    alarm(1);
    struct timespec req = {2, 0}, rem = {0, 0};
    int r = nanosleep(&req, &rem);
    long left_ms = rem.tv_sec * 1000 + rem.tv_nsec / 1000000;
    printf("nanosleep: %d %s, about %ld s left, alarms %d\n", r, r ? strerror(errno) : "",
           (left_ms + 500) / 1000, alarms);
    return 0;
}
