import CStopSignal

/// A private file removed if the process is ended by a signal while it exists: the copy
/// `event open` gives the editor holds the event, and must not outlive a SIGTERM or a hang-up.
public enum SignalCleanup {
    /// Until ``release()``: SIGTERM, SIGHUP, SIGINT and SIGQUIT remove `file`, then its folder
    /// `folder`, and end the process by the signal (only unlink and rmdir run in the handler).
    public static func remove(_ file: String, then folder: String) { cstop_remove_on_signals(file, folder) }

    /// The four signals get their default action back.
    public static func release() { cstop_keep_on_signals() }
}
