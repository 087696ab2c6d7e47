#ifndef CSTOPSIGNAL_H
#define CSTOPSIGNAL_H

/// Makes SIGINT and SIGTERM ask for a stop instead of ending the process: the first one is
/// noted (read it with `cstop_signal`), and a second one of either ends the process by that
/// signal at once, as if no handler had been installed.
void cstop_install(void);

/// The signal that asked for a stop, 0 while none has. Safe to call from any thread.
int cstop_signal(void);

/// Ends the process by `sig` with its default action, so that the parent (a shell, systemd)
/// sees the process stopped by that signal. Returns only if the signal is blocked or ignored.
void cstop_raise_default(int sig);

#endif
