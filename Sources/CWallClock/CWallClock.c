#include "CWallClock.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#ifndef TFD_TIMER_CANCEL_ON_SET
#define TFD_TIMER_CANCEL_ON_SET (1 << 1)
#endif

int cwallclock_timer_create(void) {
    return timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC);
}

int cwallclock_timer_arm(int fd, long long seconds) {
    struct itimerspec spec;
    memset(&spec, 0, sizeof spec);
    if (seconds < 0) return timerfd_settime(fd, 0, &spec, NULL);
    // An it_value of zero disarms: the first second of the epoch stands for "already past".
    spec.it_value.tv_sec = seconds > 0 ? (time_t)seconds : 1;
    return timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &spec, NULL);
}

int cwallclock_timer_read(int fd) {
    uint64_t expirations = 0;
    ssize_t count = read(fd, &expirations, sizeof expirations);
    if (count == (ssize_t)sizeof expirations) return 1;
    return count < 0 && errno == ECANCELED ? 2 : 0;
}
