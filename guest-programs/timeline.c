/* Time across processes: a parent's timer and a child's sleep on one
 * timeline, as natively.
 *   alarm-wait     alarm(1), then waitpid for a child that sleeps 3 s:
 *                  SIGALRM kills the parent first (status 142)
 *   alarm-handler  the same with a handler (no SA_RESTART): waitpid fails
 *                  with EINTR at 1 s, the parent kills the child
 *   child-first    alarm(5) with a handler; the child sleeps 1 s and exits:
 *                  the parent reaps it before the alarm, 1 s later */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t alarms;

static void on_alarm(int sig) {
    (void)sig;
    alarms++;
}

static double seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static pid_t sleeper(unsigned secs, int code) {
    fflush(stdout);
    pid_t c = fork();
    if (c == 0) {
        /* Natively the child may outlive the parent: keep the output's
         * end out of its hands. */
        close(1);
        close(2);
        sleep(secs);
        _exit(code);
    }
    return c;
}

static void handle_alarm(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    int st = 0;
    if (!strcmp(mode, "alarm-wait")) {
        alarm(1);
        pid_t c = sleeper(3, 0);
        printf("waiting for the child\n");
        fflush(stdout);
        waitpid(c, &st, 0);
        printf("WRONG: the child ended first (status %d)\n", st);
        return 1;
    }
    if (!strcmp(mode, "alarm-handler")) {
        handle_alarm();
        alarm(1);
        pid_t c = sleeper(3, 0);
        double t0 = seconds();
        pid_t w = waitpid(c, &st, 0);
        int e = errno;
        double waited = seconds() - t0;
        printf("waitpid: %d %s, alarms %d, waited 0.9 to 1.5 s: %d\n", (int)w,
               w < 0 ? strerror(e) : "", (int)alarms, waited >= 0.9 && waited < 1.5);
        kill(c, SIGKILL);
        w = waitpid(c, &st, 0);
        printf("child: reaped %d, killed by signal %d\n", w == c,
               WIFSIGNALED(st) ? WTERMSIG(st) : 0);
        return 0;
    }
    if (!strcmp(mode, "child-first")) {
        handle_alarm();
        alarm(5);
        double t0 = seconds();
        pid_t c = sleeper(1, 7);
        pid_t w = waitpid(c, &st, 0);
        double waited = seconds() - t0;
        printf("child: reaped %d, exit status %d, alarms %d, waited 0.9 to 1.5 s: %d\n",
               w == c, WIFEXITED(st) ? WEXITSTATUS(st) : -1, (int)alarms,
               waited >= 0.9 && waited < 1.5);
        return 0;
    }
    fprintf(stderr, "usage: timeline alarm-wait|alarm-handler|child-first\n");
    return 2;
}
