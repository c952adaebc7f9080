/* An epoll set for the thread that watches an isolated plugin's
 * descriptors. Its socket is watched for the child's hang-up alone, never
 * for input: the thread that calls the plugin reads its own answer, and the
 * watching thread must not wake for it too (the child rings a doorbell for
 * what the watching thread is to read). */
#define _GNU_SOURCE
#include "host_shim.h"

#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

int wh_shim_watch_create(void) {
    return epoll_create1(EPOLL_CLOEXEC);
}

static int control(int watch, int operation, int fd, uint32_t events) {
    struct epoll_event event = {.events = events, .data.fd = fd};
    return epoll_ctl(watch, operation, fd, &event);
}

int wh_shim_watch_add(int watch, int fd) {
    return control(watch, EPOLL_CTL_ADD, fd, EPOLLIN);
}

int wh_shim_watch_add_hangup(int watch, int fd) {
    return control(watch, EPOLL_CTL_ADD, fd, EPOLLRDHUP);
}

int wh_shim_watch_nudge_create(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

int wh_shim_watch_nudge(int nudge) {
    uint64_t one = 1;
    return write(nudge, &one, sizeof one) == sizeof one ? 0 : -1;
}

int wh_shim_watch_take_nudges(int nudge) {
    uint64_t count;
    return read(nudge, &count, sizeof count) == sizeof count ? 0 : -1;
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
