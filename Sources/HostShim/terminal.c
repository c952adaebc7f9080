#define _GNU_SOURCE
#include "host_shim.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

static struct termios saved;
static volatile sig_atomic_t saved_fd = -1;

int wh_shim_terminal_width(int fd) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return 0;
    return size.ws_col;
}

int wh_shim_terminal_height(int fd) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return 0;
    return size.ws_row;
}

/* Shows the cursor, stops mouse reports (a dashboard asks for them) and
 * leaves the alternate screen. */
static const char leave[] = "\033[?25h\033[?1006l\033[?1000l\033[?1049l";

void wh_shim_terminal_restore(void) {
    int fd = saved_fd;
    if (fd < 0) return;
    saved_fd = -1;
    tcsetattr(fd, TCSAFLUSH, &saved);
    /* write() is async-signal-safe; the result does not matter here. */
    ssize_t ignored = write(fd, leave, sizeof leave - 1);
    (void)ignored;
}

static const int restoring_signals[] = {SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
static struct sigaction previous_actions[sizeof restoring_signals / sizeof restoring_signals[0]];

/* Restores the terminal, then hands the signal to whoever handled it
 * before (the default action, or the report that names a crashing plugin). */
static void on_signal(int signal_number) {
    wh_shim_terminal_restore();
    for (size_t i = 0; i < sizeof restoring_signals / sizeof restoring_signals[0]; i++) {
        if (restoring_signals[i] == signal_number) sigaction(signal_number, &previous_actions[i], NULL);
    }
    raise(signal_number);
}

static void on_exit_restore(void) { wh_shim_terminal_restore(); }

int wh_shim_terminal_enter_raw(int fd) {
    struct termios raw;
    if (tcgetattr(fd, &saved) != 0) return -1;
    raw = saved;
    raw.c_iflag &= ~(unsigned)(BRKINT | ICRNL | INPCK | ISTRIP | IXON);
    raw.c_oflag &= ~(unsigned)OPOST;
    raw.c_cflag |= CS8;
    raw.c_lflag &= ~(unsigned)(ECHO | ICANON | IEXTEN | ISIG);
    raw.c_cc[VMIN] = 0;
    raw.c_cc[VTIME] = 0;
    if (tcsetattr(fd, TCSAFLUSH, &raw) != 0) return -1;
    saved_fd = fd;

    static int installed = 0;
    if (!installed) {
        installed = 1;
        atexit(on_exit_restore);
        for (size_t i = 0; i < sizeof restoring_signals / sizeof restoring_signals[0]; i++) {
            struct sigaction action;
            memset(&action, 0, sizeof action);
            action.sa_handler = on_signal;
            sigemptyset(&action.sa_mask);
            action.sa_flags = SA_RESETHAND;
            sigaction(restoring_signals[i], &action, &previous_actions[i]);
        }
    }
    static const char enter[] = "\033[?1049h\033[?25l";
    ssize_t ignored = write(fd, enter, sizeof enter - 1);
    (void)ignored;
    return 0;
}

static volatile sig_atomic_t resize_fd = -1;

static void on_resize(int signal_number) {
    (void)signal_number;
    int saved_errno = errno;
    char byte = 1;
    if (resize_fd >= 0) {
        ssize_t ignored = write(resize_fd, &byte, 1);
        (void)ignored;
    }
    errno = saved_errno;
}

int wh_shim_terminal_notify_resize(int fd) {
    resize_fd = fd;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_resize;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    return sigaction(SIGWINCH, &action, NULL);
}

int wh_shim_open_pty(char *name, size_t size) {
    int fd = posix_openpt(O_RDWR | O_NOCTTY);
    if (fd < 0) return -1;
    if (grantpt(fd) != 0 || unlockpt(fd) != 0 || ptsname_r(fd, name, size) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}
