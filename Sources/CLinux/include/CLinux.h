#ifndef CLINUX_H
#define CLINUX_H
#include <stddef.h>
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

// struct linger and the SO_LINGER dance are clumsy from Swift: abort a TCP connection with RST.
int rc_set_linger_zero(int fd);
// setsockopt with an int value, for SO_REUSEADDR, SO_REUSEPORT, TCP_NODELAY.
int rc_setsockopt_int(int fd, int level, int name, int value);
// The socket option constants Swift imports awkwardly (SO_REUSEPORT is missing on some Glibc overlays).
int rc_so_reuseport(void);
// Send with MSG_NOSIGNAL so a peer that went away yields EPIPE instead of killing the process.
long rc_send_nosignal(int fd, const void *buf, unsigned long len);
// Non-blocking TCP socket creation in one call (SOCK_NONBLOCK | SOCK_CLOEXEC are enum-typed in Swift).
int rc_socket_tcp_nonblock(int family);
// Wall-clock and monotonic milliseconds without Foundation.
int64_t rc_wall_ms(void);
int64_t rc_monotonic_ms(void);

/// Names the calling thread (at most 15 bytes are kept); 0 on success.
int rc_set_thread_name(const char *name);
// Formats a socket address as "ip:port" ("[ip]:port" for IPv6) into out; returns 0 on success.
int rc_format_sockaddr(const struct sockaddr *addr, char *out, unsigned long outlen);
// Returns the local port a socket is bound to, or -1.
int rc_local_port(int fd);
// Binds and listens on host:port (IPv4 or IPv6 literal), returns the fd or -errno.
int rc_listen_tcp(const char *host, int port, int backlog, int reuseport);

// A cache of small heap blocks for one owner on one thread at a time (an nghttp2 session through its
// nghttp2_mem): freed blocks are kept by 16-byte size class and handed out again, sparing the C
// allocator's slower paths for the many short-lived blocks of a request. Not thread-safe.
typedef struct rc_block_pool rc_block_pool;
rc_block_pool *rc_block_pool_create(void);
// Frees the pool and the blocks it keeps; blocks still handed out must have been freed before.
void rc_block_pool_destroy(rc_block_pool *pool);
// malloc, free, calloc and realloc over the pool passed as `user`, with nghttp2_mem's signatures.
void *rc_block_pool_malloc(size_t size, void *user);
void rc_block_pool_free(void *p, void *user);
void *rc_block_pool_calloc(size_t n, size_t size, void *user);
void *rc_block_pool_realloc(void *p, size_t size, void *user);

// Forks the guardian: a process that outlives ringcheck and, once ringcheck's end of the socket returned
// here closes (ringcheck exited, `kill -9` included), sends SIGTERM to every process group still listed,
// then SIGKILL after grace_ms to those still there. Write 16-byte records to the socket (send with
// MSG_NOSIGNAL): int32 pgid at offset 0 (negative: the group is gone, forget it), uint64 start time of
// the group's leader at offset 8. Returns the socket (close-on-exec) or -errno.
// tag_out (at least 33 bytes) receives a random tag (32 hex digits; empty when none could be made): put
// `RINGCHECK_GUARD=<tag>` in every child's environment, and the guardian also stops every process whose
// environment carries it (a child spawned but not listed yet when ringcheck was killed).
int rc_guardian_start(int grace_ms, char *tag_out, size_t tag_out_size);
// Field 22 of /proc/PID/stat (start time in clock ticks since boot); 0 when there is no such process.
uint64_t rc_process_start_time(int32_t pid);

#endif
