#ifndef CLINUX_H
#define CLINUX_H
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

// accept4 needs _GNU_SOURCE, which Swift's Glibc import does not define.
int rc_accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags);
// epoll and eventfd are not in Swift's Glibc module.
int rc_epoll_create(void);
int rc_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data);
int rc_epoll_wait(int epfd, struct epoll_event *events, int maxevents, int timeout);
int rc_eventfd(void);

#endif
