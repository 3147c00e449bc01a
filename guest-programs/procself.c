/* The process as it sees itself through /proc, its descriptors and its
 * terminal. Each mode prints facts that are the same natively and under
 * pathvm (comparisons, not values that differ by nature such as pids).
 *   procself proc          /proc/self under many spellings
 *   procself mem           /proc/self/mem reads and writes
 *   procself fds           pathvm's descriptors out of reach; close_range
 *   procself tty FILE      the standard descriptors' view, written to FILE
 *   procself open PATH     open PATH: prints the errno name or "opened"
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

extern char **environ;
static char target[64] = "the quick brown fox";

static long slurp(const char *path, int dirfd, char *buf, long size) {
    int fd = openat(dirfd, path, O_RDONLY);
    if (fd < 0)
        return -errno;
    long n = 0, r;
    while (n < size - 1 && (r = read(fd, buf + n, size - 1 - n)) > 0)
        n += r;
    buf[n] = 0;
    close(fd);
    return n;
}

static char buf[1 << 20];

/* Does the maps text in buf have an executable line of the program that
 * covers main? */
static int maps_ok(void) {
    unsigned long a = (unsigned long)&maps_ok;
    char exe[PATH_MAX];
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (k < 0)
        return 0;
    exe[k] = 0;
    for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
        unsigned long lo, hi;
        char perms[8];
        if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3 && lo <= a && a < hi)
            return perms[2] == 'x' && strstr(line, exe) != NULL;
    }
    return 0;
}

static long field(const char *text, const char *key) {
    const char *p = strstr(text, key);
    return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

static void mode_proc(char **argv) {
    char path[256], real[PATH_MAX], link[PATH_MAX];
    int pid = getpid(), tid = (int)syscall(SYS_gettid);
    const char *spell[] = {"/proc/self/maps", "/proc/thread-self/maps", NULL, NULL,
                           "/proc/self/./maps", "//proc///self/../self/maps",
                           "/proc/self/task/../maps", NULL};
    char p1[64], p2[64];
    snprintf(p1, sizeof p1, "/proc/%d/maps", pid);
    snprintf(p2, sizeof p2, "/proc/%d/task/%d/maps", pid, tid);
    spell[2] = p1;
    spell[3] = p2;
    for (int i = 0; spell[i]; i++) {
        long n = slurp(spell[i], AT_FDCWD, buf, sizeof buf);
        printf("maps %s: %s\n", i == 2 ? "/proc/PID/maps" : i == 3 ? "/proc/PID/task/TID/maps"
                                                                      : spell[i],
               n > 0 && maps_ok() ? "ok" : "WRONG");
    }
    int proc = open("/proc", O_RDONLY | O_DIRECTORY);
    int self = open("/proc/self", O_RDONLY | O_DIRECTORY);
    long n = slurp("self/maps", proc, buf, sizeof buf);
    printf("maps openat(/proc, self/maps): %s\n", n > 0 && maps_ok() ? "ok" : "WRONG");
    n = slurp("maps", self, buf, sizeof buf);
    printf("maps openat(/proc/self, maps): %s\n", n > 0 && maps_ok() ? "ok" : "WRONG");
    snprintf(path, sizeof path, "/tmp/procself-link-%d", pid);
    unlink(path);
    if (symlink("/proc/self/maps", path) == 0) {
        n = slurp(path, AT_FDCWD, buf, sizeof buf);
        printf("maps through a symlink: %s\n", n > 0 && maps_ok() ? "ok" : "WRONG");
        unlink(path);
    }
    /* exe: the resolved program, and opening it opens the program. */
    ssize_t k = readlink("/proc/self/exe", link, sizeof link - 1);
    link[k > 0 ? k : 0] = 0;
    printf("exe resolved: %s\n",
           realpath(argv[0], real) && strcmp(real, link) == 0 ? "ok" : "WRONG");
    struct stat a, b;
    printf("exe opens the program: %s\n",
           stat("/proc/self/exe", &a) == 0 && stat(real, &b) == 0 && a.st_ino == b.st_ino
               ? "ok"
               : "WRONG");
    k = readlink("/proc/self", link, sizeof link - 1);
    link[k > 0 ? k : 0] = 0;
    printf("self -> pid: %s\n", atoi(link) == pid ? "ok" : "WRONG");
    /* cmdline and environ. */
    n = slurp("/proc/self/cmdline", AT_FDCWD, buf, sizeof buf);
    long off = 0;
    int same = 1;
    for (char **a = argv; *a; a++) {
        same &= off < n && strcmp(buf + off, *a) == 0;
        off += strlen(*a) + 1;
    }
    printf("cmdline: %s\n", same && off == n ? "ok" : "WRONG");
    n = slurp("/proc/self/environ", AT_FDCWD, buf, sizeof buf);
    off = 0;
    same = 1;
    for (char **e = environ; *e; e++) {
        same &= off < n && strcmp(buf + off, *e) == 0;
        off += strlen(*e) + 1;
    }
    printf("environ: %s\n", same && off == n ? "ok" : "WRONG");
    n = slurp("/proc/self/auxv", AT_FDCWD, buf, sizeof buf);
    unsigned long *av = (unsigned long *)buf;
    int found = 0;
    for (long i = 0; i + 1 < n / 8; i += 2)
        if (av[i] == AT_ENTRY)
            found = av[i + 1] == getauxval(AT_ENTRY);
    printf("auxv AT_ENTRY: %s\n", found ? "ok" : "WRONG");
    /* status and stat. */
    slurp("/proc/self/status", AT_FDCWD, buf, sizeof buf);
    printf("status Pid/Tgid/PPid: %s\n",
           field(buf, "\nPid:\t") == pid && field(buf, "\nTgid:\t") == pid &&
                   field(buf, "\nPPid:\t") == getppid()
               ? "ok"
               : "WRONG");
    printf("status Name: %s\n", strncmp(buf, "Name:\tprocself", 14) == 0 ? "ok" : "WRONG");
    slurp("/proc/self/stat", AT_FDCWD, buf, sizeof buf);
    int spid = 0, sppid = 0;
    char comm[64], state;
    sscanf(buf, "%d (%63[^)]) %c %d", &spid, comm, &state, &sppid);
    printf("stat pid/comm/ppid: %s\n",
           spid == pid && sppid == getppid() && strncmp(comm, "procself", 8) == 0 ? "ok"
                                                                                 : "WRONG");
    /* fd/: this process's descriptors, nothing else. */
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    printf("fd/:");
    int fds[64], nfd = 0;
    while ((e = readdir(d)) && nfd < 64)
        if (e->d_name[0] != '.')
            fds[nfd++] = atoi(e->d_name);
    for (int i = 0; i < nfd; i++)
        for (int j = i + 1; j < nfd; j++)
            if (fds[j] < fds[i]) {
                int t = fds[i];
                fds[i] = fds[j];
                fds[j] = t;
            }
    for (int i = 0; i < nfd; i++)
        printf(" %d", fds[i]);
    printf("\n");
    closedir(d);
    snprintf(path, sizeof path, "/proc/self/fd/%d", self);
    k = readlink(path, link, sizeof link - 1);
    link[k > 0 ? k : 0] = 0;
    snprintf(path, sizeof path, "/proc/%d", pid);
    printf("fd/N of /proc/self: %s\n", strcmp(link, path) == 0 ? "ok" : "WRONG");
}

static void mode_mem(void) {
    int fd = open("/proc/self/mem", O_RDWR);
    char got[16] = {0};
    printf("open: %s\n", fd >= 0 ? "ok" : strerror(errno));
    printf("pread: %zd %.9s\n", pread(fd, got, 9, (off_t)(unsigned long)target), got);
    printf("pwrite: %zd\n", pwrite(fd, "QUICK", 5, (off_t)(unsigned long)(target + 4)));
    printf("target: %s\n", target);
    lseek(fd, (off_t)(unsigned long)(target + 10), SEEK_SET);
    memset(got, 0, sizeof got);
    printf("read: %zd %s\n", read(fd, got, 5), got);
    errno = 0;
    ssize_t r = pread(fd, got, 4, 4096);
    printf("unmapped: %zd %s\n", r, strerrorname_np(errno));
}

static void mode_fds(void) {
    int hits = 0;
    for (int fd = 1024; fd < 1200; fd++) {
        struct stat st;
        if (fstat(fd, &st) == 0 || write(fd, "", 0) == 0 || fcntl(fd, F_GETFD) >= 0)
            hits++;
        if (dup2(1, fd) >= 0 || close(fd) == 0)
            hits++;
    }
    printf("descriptors at or above 1024: %d usable\n", hits);
    printf("F_DUPFD at 1024: %s\n", fcntl(1, F_DUPFD, 1024) < 0 ? strerror(errno) : "ok");
    fflush(stdout);
    /* Everything, stderr included: pathvm must still report. */
    long r = syscall(SYS_close_range, 0, ~0U, 0);
    _exit(r == 0 ? 3 : 4);
}

static void mode_tty(const char *out) {
    FILE *f = fopen(out, "w");
    for (int fd = 0; fd < 3; fd++) {
        struct stat st;
        struct winsize ws = {0};
        struct termios t;
        fstat(fd, &st);
        int w = ioctl(fd, TIOCGWINSZ, &ws);
        fprintf(f, "fd %d: isatty %d, %s, tcgetattr %d, winsize %s %dx%d, ttyname %s, F_GETFL %d\n",
                fd, isatty(fd),
                S_ISFIFO(st.st_mode) ? "fifo" : S_ISCHR(st.st_mode) ? "chr"
                                            : S_ISREG(st.st_mode) ? "reg"
                                                                  : "other",
                tcgetattr(fd, &t), w == 0 ? "ok" : "fails", ws.ws_col, ws.ws_row,
                ttyname(fd) ? ttyname(fd) : "none", fcntl(fd, F_GETFL) & O_ACCMODE);
    }
    fclose(f);
    /* Buffering follows isatty: the count depends on it. */
    printf("to stdout\n");
}

int main(int argc, char **argv) {
    if (argc < 2)
        return 2;
    if (!strcmp(argv[1], "proc"))
        mode_proc(argv);
    else if (!strcmp(argv[1], "mem"))
        mode_mem();
    else if (!strcmp(argv[1], "fds"))
        mode_fds();
    else if (!strcmp(argv[1], "tty") && argc > 2)
        mode_tty(argv[2]);
    else if (!strcmp(argv[1], "open") && argc > 2) {
        int fd = open(argv[2], O_RDONLY);
        printf("%s\n", fd >= 0 ? "opened" : strerrorname_np(errno));
    } else
        return 2;
    return 0;
}
