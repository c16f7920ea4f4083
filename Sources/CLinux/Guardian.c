#define _GNU_SOURCE
#include "CLinux.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

// The guardian: a forked copy of ringcheck that only reads its socket. ringcheck writes one record per child
// process group it starts and one when the group is gone; when ringcheck's end is closed (ringcheck
// exited, however it exited, `kill -9` included) the guardian stops the groups still listed: SIGTERM,
// then SIGKILL to those still there after the grace period. After fork only async-signal-safe calls are
// made (read, kill, open, nanosleep, _exit), on a table that lives in static memory.

#define RC_GUARD_MAX 4096

typedef struct {
    int32_t pgid;
    uint64_t start_time;
} rc_guard_entry;

static rc_guard_entry guarded[RC_GUARD_MAX];
static int guarded_count;

// The tag ringcheck puts in every child's environment (`RINGCHECK_GUARD=<tag>`, which the children's own
// children inherit): the guardian also stops every process carrying it, so that a child ringcheck spawned
// but had not listed yet when it was killed (the moment between spawn and its record) does not survive it.
#define RC_TAG_ENTRY_MAX 64
static char tag_entry[RC_TAG_ENTRY_MAX];  // "RINGCHECK_GUARD=<32 hex digits>"
static size_t tag_entry_len;
// One /proc/PID/environ at a time; an environment larger than this is searched in its first 256 KiB only.
static char environ_buf[256 * 1024];
static char dirents[32 * 1024];

/// Field 22 of /proc/PID/stat (the start time in clock ticks since boot), 0 when the process is gone.
static int open_proc_file(int32_t pid, const char *file);

static uint64_t proc_start_time(int32_t pid) {
    int fd = open_proc_file(pid, "stat");
    if (fd < 0) return 0;
    char buf[1024];
    ssize_t got = 0;
    while (got < (ssize_t)sizeof buf - 1) {
        ssize_t r = read(fd, buf + got, sizeof buf - 1 - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += r;
    }
    close(fd);
    buf[got > 0 ? got : 0] = 0;
    char *close_paren = NULL;
    for (ssize_t i = 0; i < got; i++)
        if (buf[i] == ')') close_paren = buf + i;
    if (!close_paren) return 0;
    // After ") " comes field 3; field 22 is 19 spaces further.
    char *p = close_paren + 1;
    for (int field = 2; field < 22 && *p; p++)
        if (*p == ' ') field++;
    uint64_t t = 0;
    while (*p >= '0' && *p <= '9') t = t * 10 + (uint64_t)(*p++ - '0');
    return t;
}

uint64_t rc_process_start_time(int32_t pid) { return proc_start_time(pid); }

static void guard_add(int32_t pgid, uint64_t start_time) {
    if (guarded_count == RC_GUARD_MAX) {
        // Full: drop the groups that are gone (children reaped by code that does not say so).
        int kept = 0;
        for (int i = 0; i < guarded_count; i++)
            if (kill(-guarded[i].pgid, 0) == 0) guarded[kept++] = guarded[i];
        guarded_count = kept;
    }
    if (guarded_count < RC_GUARD_MAX) guarded[guarded_count++] = (rc_guard_entry){pgid, start_time};
}

static void guard_remove(int32_t pgid) {
    for (int i = 0; i < guarded_count; i++) {
        if (guarded[i].pgid == pgid) {
            guarded[i] = guarded[--guarded_count];
            return;
        }
    }
}

/// The group is still ours to signal: its leader is the process registered (same start time), or the
/// leader is gone and members may remain (a process-group ID is not handed out again while any member
/// lives, so `kill(-pgid)` reaches only them). A pid now naming another process means the group is gone.
static int guard_is_ours(const rc_guard_entry *e) {
    uint64_t now = proc_start_time(e->pgid);
    return now == 0 || now == e->start_time;
}

static void guard_signal_all(int sig) {
    for (int i = 0; i < guarded_count; i++)
        if (guard_is_ours(&guarded[i])) kill(-guarded[i].pgid, sig);
}

static int guard_any_alive(void) {
    for (int i = 0; i < guarded_count; i++)
        if (guard_is_ours(&guarded[i]) && kill(-guarded[i].pgid, 0) == 0) return 1;
    return 0;
}

/// Opens /proc/PID/`file` for reading; -1 when it cannot.
static int open_proc_file(int32_t pid, const char *file) {
    char path[64];
    char digits[16];
    int n = 0;
    uint32_t v = (uint32_t)pid;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v && n < 15);
    memcpy(path, "/proc/", 6);
    int len = 6;
    while (n) path[len++] = digits[--n];
    path[len++] = '/';
    size_t flen = strlen(file);
    if (flen > 32) return -1;
    memcpy(path + len, file, flen + 1);
    return open(path, O_RDONLY | O_CLOEXEC);
}

/// Whether `pid` is a guardian (named so by `PR_SET_NAME`): a ringcheck started by ringcheck has one, forked from
/// it and so carrying the tag too, which must live on to stop that ringcheck's own children.
static int is_guardian(int32_t pid) {
    int fd = open_proc_file(pid, "comm");
    if (fd < 0) return 0;
    char comm[32];
    ssize_t r;
    do r = read(fd, comm, sizeof comm - 1);
    while (r < 0 && errno == EINTR);
    close(fd);
    return r >= 15 && memcmp(comm, "ringcheck-guard", 15) == 0 && (r == 15 || comm[15] == '\n');
}

/// Whether the process `pid`'s environment holds `tag_entry` as a whole entry.
static int carries_tag(int32_t pid) {
    int fd = open_proc_file(pid, "environ");
    if (fd < 0) return 0;
    size_t got = 0;
    while (got < sizeof environ_buf) {
        ssize_t r = read(fd, environ_buf + got, sizeof environ_buf - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    close(fd);
    // Entries are NUL-terminated, one after the other.
    size_t start = 0;
    for (size_t i = 0; i < got; i++) {
        if (environ_buf[i] != 0) continue;
        if (i - start == tag_entry_len && memcmp(environ_buf + start, tag_entry, tag_entry_len) == 0) return 1;
        start = i + 1;
    }
    return 0;
}

/// Sends `sig` to every process (other than the guardian) whose environment carries the tag, and to the group of
/// each that leads one (a child ringcheck spawned leads its own); the number of such processes.
static int signal_tagged(int sig) {
    if (tag_entry_len == 0) return 0;
    int dir = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0) return 0;
    int32_t self = (int32_t)getpid();
    int found = 0;
    while (1) {
        long n = syscall(SYS_getdents64, dir, dirents, sizeof dirents);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        for (long at = 0; at < n;) {
            // struct linux_dirent64: d_ino (8), d_off (8), d_reclen (2), d_type (1), d_name.
            unsigned short reclen;
            memcpy(&reclen, dirents + at + 16, 2);
            const char *name = dirents + at + 19;
            at += reclen;
            int32_t pid = 0;
            int numeric = *name != 0;
            for (const char *c = name; *c; c++) {
                if (*c < '0' || *c > '9' || pid > 100000000) {
                    numeric = 0;
                    break;
                }
                pid = pid * 10 + (*c - '0');
            }
            if (!numeric || pid <= 1 || pid == self || !carries_tag(pid) || is_guardian(pid)) continue;
            found++;
            if (getpgid(pid) == pid) kill(-pid, sig);
            kill(pid, sig);
        }
    }
    close(dir);
    return found;
}

static void guardian_main(int fd, int grace_ms) {
    unsigned char record[16];
    while (1) {
        // A SOCK_SEQPACKET socket: one read, one whole record.
        ssize_t r = read(fd, record, sizeof record);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        if (r != 16) continue;
        int32_t pgid;
        uint64_t start_time;
        memcpy(&pgid, record, 4);
        memcpy(&start_time, record + 8, 8);
        if (pgid > 0) guard_add(pgid, start_time);
        else if (pgid < 0) guard_remove(-pgid);
    }
    guard_signal_all(SIGTERM);
    signal_tagged(SIGTERM);
    struct timespec pause = {0, 50 * 1000 * 1000};
    for (int waited = 0; waited < grace_ms && (guard_any_alive() || signal_tagged(0) > 0); waited += 50)
        nanosleep(&pause, NULL);
    guard_signal_all(SIGKILL);
    signal_tagged(SIGKILL);
    _exit(0);
}

int rc_guardian_start(int grace_ms, char *tag_out, size_t tag_out_size) {
    // The tag: 16 random bytes in hex, in the guardian's copy of `tag_entry` (and the caller's `tag_out`).
    unsigned char random_bytes[16];
    size_t have = 0;
    while (have < sizeof random_bytes) {
        ssize_t r = getrandom(random_bytes + have, sizeof random_bytes - have, 0);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        have += (size_t)r;
    }
    static const char hex[] = "0123456789abcdef";
    const char *prefix = "RINGCHECK_GUARD=";
    tag_entry_len = 0;
    if (have == sizeof random_bytes && tag_out && tag_out_size > 2 * sizeof random_bytes) {
        size_t p = strlen(prefix);
        memcpy(tag_entry, prefix, p);
        for (size_t i = 0; i < sizeof random_bytes; i++) {
            tag_entry[p + 2 * i] = hex[random_bytes[i] >> 4];
            tag_entry[p + 2 * i + 1] = hex[random_bytes[i] & 15];
        }
        tag_entry_len = p + 2 * sizeof random_bytes;
        tag_entry[tag_entry_len] = 0;
        memcpy(tag_out, tag_entry + p, 2 * sizeof random_bytes);
        tag_out[2 * sizeof random_bytes] = 0;
    } else if (tag_out && tag_out_size > 0) {
        tag_out[0] = 0;
    }
    int fds[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds) != 0) return -errno;
    int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(fds[0]);
        close(fds[1]);
        if (null_fd >= 0) close(null_fd);
        return -e;
    }
    if (pid == 0) {
        // Only signals that cannot be blocked end it early: Ctrl-C and SIGTERM reach ringcheck's whole
        // process group, and the guardian must outlive ringcheck to clean up after it.
        sigset_t all;
        sigfillset(&all);
        sigprocmask(SIG_SETMASK, &all, NULL);
        // A group of its own, so a SIGKILL to ringcheck's process group (a CI runner's timeout) leaves it
        // to stop the children.
        setpgid(0, 0);
        // Named so in `ps -o comm` and `top` (its command line stays ringcheck's).
        prctl(PR_SET_NAME, "ringcheck-guard", 0, 0, 0);
        if (null_fd >= 0) {
            dup2(null_fd, 0);
            dup2(null_fd, 1);
            dup2(null_fd, 2);
        }
        // Keep only its own end (as descriptor 3): ringcheck's end and every other descriptor ringcheck
        // holds (listening sockets, the terminal, a test's pipes) must not be kept open by the guardian.
        if (fds[0] != 3) {
            dup2(fds[0], 3);
        } else {
            fcntl(3, F_SETFD, 0);
        }
        struct rlimit limit;
        int top = getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < 65536 ? (int)limit.rlim_cur : 65536;
        if (syscall(SYS_close_range, 4u, ~0u, 0u) != 0)
            for (int fd = 4; fd < top; fd++) close(fd);
        guardian_main(3, grace_ms);
    }
    close(fds[0]);
    if (null_fd >= 0) close(null_fd);
    return fds[1];
}
