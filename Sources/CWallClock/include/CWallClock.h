#ifndef CWALLCLOCK_H
#define CWALLCLOCK_H

/// A timer on the real-time clock (Linux `timerfd`), for waiting until a time of day: it comes
/// due at that time though the machine slept or the process was stopped meanwhile, and a
/// change of the clock cancels the wait. Returns a descriptor (non-blocking, close-on-exec) to
/// poll, or -1 with errno set.
int cwallclock_timer_create(void);

/// Arms `fd` to come due at `seconds` since the epoch (at once when that has passed), to be
/// cancelled when the clock is set; `seconds` < 0 disarms it. Returns 0, or -1 with errno set.
int cwallclock_timer_arm(int fd, long long seconds);

/// Reads a readable timer: 1 when it came due, 2 when a change of the clock cancelled it, 0
/// when neither (a spurious wake).
int cwallclock_timer_read(int fd);

#endif
