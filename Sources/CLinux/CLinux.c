#define _GNU_SOURCE
#include "CLinux.h"
#include <arpa/inet.h>
#include <pthread.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

int rc_accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags) { return accept4(fd, addr, len, flags); }
int rc_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }
int rc_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data) {
    struct epoll_event ev;
    ev.events = events;
    ev.data.u64 = data;
    return epoll_ctl(epfd, op, fd, &ev);
}
int rc_epoll_wait(int epfd, struct epoll_event *events, int maxevents, int timeout) {
    return epoll_wait(epfd, events, maxevents, timeout);
}
int rc_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

int rc_set_linger_zero(int fd) {
    struct linger l;
    l.l_onoff = 1;
    l.l_linger = 0;
    return setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
}

int rc_setsockopt_int(int fd, int level, int name, int value) {
    return setsockopt(fd, level, name, &value, sizeof value);
}

int rc_so_reuseport(void) { return SO_REUSEPORT; }

long rc_send_nosignal(int fd, const void *buf, unsigned long len) { return send(fd, buf, len, MSG_NOSIGNAL); }

int rc_socket_tcp_nonblock(int family) { return socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0); }

int64_t rc_wall_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t rc_monotonic_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int rc_format_sockaddr(const struct sockaddr *addr, char *out, unsigned long outlen) {
    char ip[INET6_ADDRSTRLEN];
    if (addr->sa_family == AF_INET) {
        const struct sockaddr_in *a = (const struct sockaddr_in *)addr;
        if (!inet_ntop(AF_INET, &a->sin_addr, ip, sizeof ip)) return -1;
        snprintf(out, outlen, "%s:%u", ip, (unsigned)ntohs(a->sin_port));
        return 0;
    }
    if (addr->sa_family == AF_INET6) {
        const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)addr;
        if (!inet_ntop(AF_INET6, &a->sin6_addr, ip, sizeof ip)) return -1;
        snprintf(out, outlen, "[%s]:%u", ip, (unsigned)ntohs(a->sin6_port));
        return 0;
    }
    return -1;
}

int rc_local_port(int fd) {
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    if (getsockname(fd, (struct sockaddr *)&ss, &len) != 0) return -1;
    if (ss.ss_family == AF_INET) return ntohs(((struct sockaddr_in *)&ss)->sin_port);
    if (ss.ss_family == AF_INET6) return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
    return -1;
}

int rc_listen_tcp(const char *host, int port, int backlog, int reuseport) {
    struct sockaddr_storage ss;
    socklen_t len;
    memset(&ss, 0, sizeof ss);
    int family;
    struct sockaddr_in *a4 = (struct sockaddr_in *)&ss;
    struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&ss;
    if (inet_pton(AF_INET, host, &a4->sin_addr) == 1) {
        family = AF_INET;
        a4->sin_family = AF_INET;
        a4->sin_port = htons((uint16_t)port);
        len = sizeof *a4;
    } else if (inet_pton(AF_INET6, host, &a6->sin6_addr) == 1) {
        family = AF_INET6;
        a6->sin6_family = AF_INET6;
        a6->sin6_port = htons((uint16_t)port);
        len = sizeof *a6;
    } else {
        return -EINVAL;
    }
    int fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -errno;
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (reuseport) setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
    if (bind(fd, (struct sockaddr *)&ss, len) != 0 || listen(fd, backlog) != 0) {
        int e = errno;
        close(fd);
        return -e;
    }
    return fd;
}

int rc_set_thread_name(const char *name) {
    return pthread_setname_np(pthread_self(), name);
}
