/* User and group ids as Linux sets them, and posix_spawn with
 * POSIX_SPAWN_RESETIDS (what GNU make's recipes use). Prints what it sees;
 * the output is the same as root or as another user. `ids exec` (as root)
 * sets other ids and groups and runs itself again with execve (`ids
 * show`), which prints the ids it starts with: execve keeps the real and
 * effective ids and the groups, and sets the saved ids to the effective
 * ones. `ids secure` prints the ids it starts with, AT_SECURE and whether
 * LD_LIBRARY_PATH reached it (the loader removes it from a secure
 * program's environment); `ids setid PROGRAM [user]` (as root) sets
 * LD_LIBRARY_PATH and execs PROGRAM `secure`, with `user` first taking
 * uid and gid 1000 for good: PROGRAM is a set-user-ID or set-group-ID
 * copy of this program. */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <stddef.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <sys/fsuid.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static void show(const char *what) {
    uid_t r, e, s;
    gid_t gr, ge, gs;
    getresuid(&r, &e, &s);
    getresgid(&gr, &ge, &gs);
    printf("%s: uid %s gid %s\n", what,
           r == getuid() && e == geteuid() ? "consistent" : "INCONSISTENT",
           gr == getgid() && ge == getegid() ? "consistent" : "INCONSISTENT");
}

static void show_ids(void) {
    uid_t r, e, s;
    gid_t gr, ge, gs;
    getresuid(&r, &e, &s);
    getresgid(&gr, &ge, &gs);
    printf("after execve: uid %u %u %u fsuid %d, gid %u %u %u fsgid %d, groups", r, e, s,
           setfsuid(-1), gr, ge, gs, setfsgid(-1));
    gid_t g[64];
    int n = getgroups(64, g);
    for (int i = 0; i < n; i++)
        printf(" %u", g[i]);
    printf("\n");
}

int main(int argc, char **argv) {
    uid_t r, e, s;
    if (argc > 1 && !strcmp(argv[1], "show")) {
        show_ids();
        return 0;
    }
    if (argc > 1 && !strcmp(argv[1], "secure")) {
        gid_t gr, ge, gs;
        getresuid(&r, &e, &s);
        getresgid(&gr, &ge, &gs);
        printf("uid %u %u %u gid %u %u %u AT_SECURE %lu LD_LIBRARY_PATH %s\n", r, e, s, gr, ge, gs,
               getauxval(AT_SECURE), getenv("LD_LIBRARY_PATH") ? "kept" : "removed");
        return 0;
    }
    if (argc > 2 && !strcmp(argv[1], "setid")) {
        if (argc > 3 && !strcmp(argv[3], "user")) {
            printf("setgroups = %d\n", setgroups(0, NULL));
            printf("setresgid(1000,1000,1000) = %d\n", setresgid(1000, 1000, 1000));
            printf("setresuid(1000,1000,1000) = %d\n", setresuid(1000, 1000, 1000));
        }
        setenv("LD_LIBRARY_PATH", "/nonexistent", 1);
        fflush(stdout);
        char *args[] = {argv[2], "secure", NULL};
        execv(argv[2], args);
        printf("execv: %s\n", strerror(errno));
        return 1;
    }
    if (argc > 1 && !strcmp(argv[1], "exec")) {
        if (geteuid() == 0) {
            gid_t g[2] = {7, 8};
            printf("setgroups = %d\n", setgroups(2, g));
            printf("setresgid(5,6,7) = %d\n", setresgid(5, 6, 7));
            printf("setresuid(1,2,3) = %d\n", setresuid(1, 2, 3));
        }
        fflush(stdout);
        char *args[] = {argv[0], "show", NULL};
        execv("/proc/self/exe", args);
        printf("execv: %s\n", strerror(errno));
        return 1;
    }
    getresuid(&r, &e, &s);
    show("start");
    printf("setresuid(-1,-1,-1) = %d\n", setresuid(-1, -1, -1));
    printf("setresgid(-1,-1,-1) = %d\n", setresgid(-1, -1, -1));
    printf("setresuid(same) = %d\n", setresuid(r, e, s));
    printf("setfsuid(-1) is euid: %d\n", setfsuid(-1) == (int)e);
    int n = getgroups(0, NULL);
    gid_t g[256];
    printf("getgroups: %d\n", getgroups(256, g) == n);

    /* posix_spawn with RESETIDS: the child sets its effective ids to the
     * real ones before exec. */
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_RESETIDS);
    char *sh_argv[] = {"/bin/sh", "-c", "echo spawned child ran", NULL};
    fflush(stdout);
    pid_t pid;
    int rc = posix_spawn(&pid, "/bin/sh", NULL, &at, sh_argv, environ);
    int st = 0;
    if (rc == 0)
        waitpid(pid, &st, 0);
    printf("posix_spawn RESETIDS: rc %d, exit %d\n", rc, WEXITSTATUS(st));
    fflush(stdout);

    if (e == 0) {
        /* Root: any ids, then the rules of an unprivileged process. */
        printf("setresgid(5,6,7) = %d\n", setresgid(5, 6, 7));
        printf("setresuid(1,2,0) = %d\n", setresuid(1, 2, 0));
        getresuid(&r, &e, &s);
        printf("now %u %u %u fsuid %d\n", r, e, s, setfsuid(-1));
        errno = 0;
        { long rv_ = (long)(setresuid(3, -1, -1)); int e_ = errno; printf("setresuid(3,-1,-1) = %ld %s\n", rv_, strerror(e_)); }
        { long rv_ = (long)(setgroups(0, NULL)); int e_ = errno; printf("setgroups = %ld %s\n", rv_, strerror(e_)); }
        printf("seteuid(0) = %d\n", seteuid(0));
        printf("setreuid(4,5) = %d\n", setreuid(4, 5));
        getresuid(&r, &e, &s);
        printf("now %u %u %u\n", r, e, s);
        errno = 0;
        { long rv_ = (long)(setuid(0)); int e_ = errno; printf("setuid(0) = %ld %s\n", rv_, strerror(e_)); }
        printf("setuid(4) = %d\n", setuid(4));
        getresuid(&r, &e, &s);
        printf("now %u %u %u\n", r, e, s);
    } else {
        errno = 0;
        { long rv_ = (long)(setuid(0)); int e_ = errno; printf("setuid(0) = %ld %s\n", rv_, strerror(e_)); }
    }
    return 0;
}
