/* fork: the child prints and exits 3, the parent waits and prints the
 * status; a second child dies of SIGABRT; a pipe between parent and child. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
    pid_t me = getpid();
    fflush(stdout);
    pid_t c = fork();
    if (c < 0) {
        perror("fork");
        return 1;
    }
    if (c == 0) {
        printf("child: parent is my parent: %d\n", getppid() == me);
        exit(3);
    }
    int st;
    pid_t w = waitpid(c, &st, 0);
    printf("parent: waited the child: %d, exited %d status %d\n", w == c, WIFEXITED(st),
           WEXITSTATUS(st));

    int fds[2];
    if (pipe(fds) != 0)
        return 1;
    fflush(stdout);
    c = fork();
    if (c == 0) {
        close(fds[0]);
        const char *msg = "hello through a pipe";
        write(fds[1], msg, strlen(msg));
        close(fds[1]);
        abort();
    }
    close(fds[1]);
    char buf[64] = {0};
    ssize_t n = read(fds[0], buf, sizeof buf - 1);
    printf("parent read %zd bytes: %s\n", n, buf);
    w = wait(&st);
    printf("second child: %d, signaled %d by %d\n", w == c, WIFSIGNALED(st), WTERMSIG(st));
    return 0;
}
