#include "CStopSignal.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t requested = 0;

static void on_stop_signal(int sig) {
    if (__atomic_load_n(&requested, __ATOMIC_SEQ_CST) != 0) {
        // A second signal forces the stop: the default action, now.
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    __atomic_store_n(&requested, sig, __ATOMIC_SEQ_CST);
}

void cstop_install(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
}

int cstop_signal(void) { return __atomic_load_n(&requested, __ATOMIC_SEQ_CST); }

void cstop_raise_default(int sig) {
    signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
}
