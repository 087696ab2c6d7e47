#include "CStopSignal.h"

#include <limits.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

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

static char removed_file[PATH_MAX];
static char removed_folder[PATH_MAX];
static const int removal_signals[] = {SIGTERM, SIGHUP, SIGINT, SIGQUIT};

static void on_removal_signal(int sig) {
    unlink(removed_file);
    rmdir(removed_folder);
    signal(sig, SIG_DFL);
    raise(sig);
}

void cstop_remove_on_signals(const char *file, const char *folder) {
    strncpy(removed_file, file, sizeof removed_file - 1);
    strncpy(removed_folder, folder, sizeof removed_folder - 1);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_removal_signal;
    sigemptyset(&action.sa_mask);
    for (unsigned i = 0; i < sizeof removal_signals / sizeof removal_signals[0]; i++) {
        sigaction(removal_signals[i], &action, NULL);
    }
}

void cstop_keep_on_signals(void) {
    for (unsigned i = 0; i < sizeof removal_signals / sizeof removal_signals[0]; i++) {
        signal(removal_signals[i], SIG_DFL);
    }
}
