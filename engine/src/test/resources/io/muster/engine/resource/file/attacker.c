/*
 * An unprivileged user racing muster (run as that user by the test, through setpriv). Each mode loops for
 * SECONDS, then prints what it did ("key=count ...") and exits; "ready" is printed once it watches.
 *
 *   temp DIR VICTIM SECONDS          on each new .NAME.muster-* temp file in DIR: move it away, put a
 *                                    symlink to VICTIM (or a FIFO) in its place
 *   target DIR NAME VICTIM SECONDS   put at DIR/NAME, in turn: an own regular file (mode 0644), a symlink
 *                                    to VICTIM, a FIFO
 *   parent DIR SUB VICTIMDIR SECONDS DIR/SUB is, in turn, an own directory and a symlink to VICTIMDIR
 *   tree TREE VICTIMDIR SECONDS      TREE/a, a directory of own files, and TREE/l, a symlink to VICTIMDIR,
 *                                    trade places again and again (renameat2 RENAME_EXCHANGE)
 *   watch DIR SECONDS                on each new temp file in DIR: stat it (its mode now) and try to open it
 *
 * With ATTACKER_AT_LEAST=N in the environment, a mode goes on past SECONDS until it counted N swaps (temp
 * files seen, in watch mode), for at most 25 seconds more: on a loaded machine a few seconds may be too few
 * for the race to prove anything.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static time_t deadline;
static long at_least;
static const long *progress; /* what at_least counts */

static int running(void) {
    time_t now = time(NULL);
    return now < deadline || (*progress < at_least && now < deadline + 25);
}

static void ready(void) { printf("ready\n"); fflush(stdout); }

/* Calls on_temp(dir, name) for each temp file created in dir until the deadline. */
static void each_temp(const char *dir, void (*on_temp)(const char *, const char *)) {
    int fd = inotify_init1(IN_NONBLOCK);
    if (fd < 0 || inotify_add_watch(fd, dir, IN_CREATE) < 0) { perror("inotify"); exit(2); }
    ready();
    char buf[65536] __attribute__((aligned(8)));
    while (running()) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, 100) <= 0) continue;
        ssize_t n = read(fd, buf, sizeof buf);
        for (char *at = buf; n > 0 && at < buf + n;) {
            struct inotify_event *e = (struct inotify_event *) at;
            if (e->len && strstr(e->name, ".muster-")) on_temp(dir, e->name);
            at += sizeof *e + e->len;
        }
    }
}

static const char *victim;
static long swaps, stolen, created, opened, mode0600, modeFinal, modeOther;
static int finalMode;

static void swap_temp(const char *dir, const char *name) {
    char from[4096], to[4096];
    snprintf(from, sizeof from, "%s/%s", dir, name);
    snprintf(to, sizeof to, "%s/stolen-%ld", dir, stolen);
    if (rename(from, to) != 0) return;
    stolen++;
    if ((stolen % 2 ? symlink(victim, from) : mkfifo(from, 0666)) == 0) swaps++;
}

static void watch_temp(const char *dir, const char *name) {
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (lstat(path, &st) != 0) return;
    created++;
    int mode = st.st_mode & 07777;
    if (mode == 0600) mode0600++;
    else if (mode == finalMode) modeFinal++;
    else { modeOther++; fprintf(stderr, "mode %04o\n", mode); }
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd >= 0) { opened++; close(fd); }
}

static void own_file(const char *path) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) { (void) !write(fd, "attacker\n", 9); fchmod(fd, 0644); close(fd); }
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: see attacker.c\n"); return 2; }
    const char *mode = argv[1];
    deadline = time(NULL) + atoi(argv[argc - 1]);
    const char *at_least_env = getenv("ATTACKER_AT_LEAST");
    at_least = at_least_env ? atol(at_least_env) : 0;
    progress = !strcmp(mode, "watch") ? &created : &swaps;
    if (!strcmp(mode, "temp")) {
        victim = argv[3];
        each_temp(argv[2], swap_temp);
        printf("stolen=%ld swaps=%ld\n", stolen, swaps);
    } else if (!strcmp(mode, "watch")) {
        finalMode = strtol(argv[3], NULL, 8);
        each_temp(argv[2], watch_temp);
        printf("created=%ld opened=%ld mode0600=%ld modeFinal=%ld modeOther=%ld\n", created, opened, mode0600, modeFinal, modeOther);
    } else if (!strcmp(mode, "target")) {
        if (chdir(argv[2]) != 0) return 2;
        ready();
        for (long i = 0; running(); i++) {
            own_file("x"); rename("x", argv[3]);
            symlink(argv[4], "l"); rename("l", argv[3]);
            mkfifo("f", 0666); rename("f", argv[3]);
            swaps += 3;
        }
        printf("swaps=%ld\n", swaps);
    } else if (!strcmp(mode, "parent")) {
        if (chdir(argv[2]) != 0) return 2;
        ready();
        while (running()) {
            mkdir("d", 0755);
            unlink(argv[3]);
            rename("d", argv[3]);          /* an own directory */
            symlink(argv[4], "l");
            rename(argv[3], "away");
            rename("l", argv[3]);          /* a symlink to the victim's directory */
            unlink("away/file");
            rmdir("away");
            swaps++;
        }
        printf("swaps=%ld\n", swaps);
    } else if (!strcmp(mode, "tree")) {
        /* absolute paths: muster deletes TREE and the test makes it again, a new directory each time */
        char a[4096], l[4096], f[4096];
        snprintf(a, sizeof a, "%s/a", argv[2]);
        snprintf(l, sizeof l, "%s/l", argv[2]);
        ready();
        while (running()) {
            if (mkdir(a, 0755) == 0) {
                for (int i = 0; i < 8; i++) {
                    snprintf(f, sizeof f, "%s/f%d", a, i);
                    own_file(f);
                }
            }
            symlink(argv[3], l);
            /* TREE/a and TREE/l trade places atomically: a is, in turn, an own directory and a link to VICTIMDIR */
            for (int i = 0; i < 1000 && running(); i++, swaps++) {
                if (renameat2(AT_FDCWD, a, AT_FDCWD, l, RENAME_EXCHANGE) != 0) break;
            }
        }
        printf("swaps=%ld\n", swaps);
    } else {
        fprintf(stderr, "unknown mode %s\n", mode);
        return 2;
    }
    return 0;
}
