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

/// While a private temporary copy exists (the file `event open` gives the editor): SIGTERM,
/// SIGHUP, SIGINT and SIGQUIT remove `file`, then its folder `folder`, and end the process by
/// the signal. The paths are copied. Only unlink and rmdir run in the handler (both
/// async-signal-safe).
void cstop_remove_on_signals(const char *file, const char *folder);

/// Undoes `cstop_remove_on_signals`: the four signals get their default action back.
void cstop_keep_on_signals(void);

#endif
