// Linux epoll, eventfd and accept4 for the HTTP server's workers (the Glibc module leaves these headers out), through plain
// functions: epoll_event is a packed struct, which these keep on the C side.
#include <sys/socket.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <stdint.h>
#include <stddef.h>

/// Interest in reading (and the peer hanging up), or in writing.
static const uint32_t wayfinder_epoll_readable = EPOLLIN | EPOLLRDHUP;
static const uint32_t wayfinder_epoll_writable = EPOLLOUT;
/// Error or hang-up on the socket.
static const uint32_t wayfinder_epoll_failed = EPOLLERR | EPOLLHUP;

/// A new epoll instance (close-on-exec), or -1.
static inline int wayfinder_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

/// A new non-blocking eventfd (close-on-exec), or -1.
static inline int wayfinder_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

/// Adds `fd` (operation EPOLL_CTL_ADD), changes its interest (EPOLL_CTL_MOD) or removes it (EPOLL_CTL_DEL); level-triggered.
static inline int wayfinder_epoll_add(int poller, int fd, uint32_t events) {
    struct epoll_event event = { .events = events, .data = { .fd = fd } };
    return epoll_ctl(poller, EPOLL_CTL_ADD, fd, &event);
}
static inline int wayfinder_epoll_modify(int poller, int fd, uint32_t events) {
    struct epoll_event event = { .events = events, .data = { .fd = fd } };
    return epoll_ctl(poller, EPOLL_CTL_MOD, fd, &event);
}
static inline int wayfinder_epoll_remove(int poller, int fd) { return epoll_ctl(poller, EPOLL_CTL_DEL, fd, NULL); }

/// Waits up to `timeout` ms for events; fills `fds` and `events` (room for `capacity`) and returns how many, or -1.
static inline int wayfinder_epoll_wait(int poller, int *fds, uint32_t *events, int capacity, int timeout) {
    struct epoll_event ready[256];
    int n = epoll_wait(poller, ready, capacity < 256 ? capacity : 256, timeout);
    for (int i = 0; i < n; i++) { fds[i] = ready[i].data.fd; events[i] = ready[i].events; }
    return n;
}

/// Accepts a connection from `listener` as a non-blocking, close-on-exec socket (accept4, which glibc declares only
/// with _GNU_SOURCE); fills `address` (an IPv4 sockaddr_in's bytes), or returns -1.
int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);
static inline int wayfinder_accept(int listener, struct sockaddr *address, socklen_t *length) {
    return accept4(listener, address, length, SOCK_NONBLOCK | SOCK_CLOEXEC);
}
