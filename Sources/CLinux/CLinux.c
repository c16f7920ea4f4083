#define _GNU_SOURCE
#include "CLinux.h"
#include <sys/socket.h>

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
