#define _GNU_SOURCE
#include "host_shim.h"

#include <fcntl.h>
#include <unistd.h>

int wh_shim_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }
