/* An epoll set for the thread that reads an isolated plugin's descriptors.
 * The socket is watched one event at a time (EPOLLONESHOT), so the thread
 * that calls the plugin can take the socket for the length of a call and
 * read its own answer, without the watching thread waking for it too. */
#define _GNU_SOURCE
#include "host_shim.h"

#include <sys/epoll.h>

int wh_shim_watch_create(void) {
    return epoll_create1(EPOLL_CLOEXEC);
}

static int control(int watch, int operation, int fd, uint32_t events) {
    struct epoll_event event = {.events = events, .data.fd = fd};
    return epoll_ctl(watch, operation, fd, &event);
}

int wh_shim_watch_add(int watch, int fd, int once) {
    return control(watch, EPOLL_CTL_ADD, fd, EPOLLIN | (once ? EPOLLONESHOT : 0));
}

int wh_shim_watch_rearm(int watch, int fd) {
    return control(watch, EPOLL_CTL_MOD, fd, EPOLLIN | EPOLLONESHOT);
}

int wh_shim_watch_disarm(int watch, int fd) {
    return control(watch, EPOLL_CTL_MOD, fd, 0);
}

int wh_shim_watch_remove(int watch, int fd) {
    return epoll_ctl(watch, EPOLL_CTL_DEL, fd, NULL);
}

int wh_shim_watch_wait(int watch, int *ready, int capacity, int timeout_ms) {
    struct epoll_event events[8];
    if (capacity > 8) capacity = 8;
    int count = epoll_wait(watch, events, capacity, timeout_ms);
    for (int i = 0; i < count; i++) ready[i] = events[i].data.fd;
    return count;
}
