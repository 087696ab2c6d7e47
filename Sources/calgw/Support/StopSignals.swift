import CalendarSync
import CStopSignal
import Foundation

/// SIGINT (Ctrl-C) and SIGTERM (systemd stopping a unit, a logout) during `sync`, `pull` and
/// `push`: the first one stops the run at its next safe point, where every write it made has
/// its journal row, and the process then ends by that same signal (exit status 130 or 143 in
/// a shell), so that the shell, a script's loop or systemd sees it was stopped. A second one
/// ends the process at once, which is as safe as a kill: the next run settles what it left.
enum StopSignals {
    static func install() { cstop_install() }

    /// The signal that asked for a stop, nil while none has.
    static var requested: Int32? {
        let sig = cstop_signal()
        return sig == 0 ? nil : sig
    }

    /// The check a run makes at its safe points: the signal's name once one came.
    static let check: StopCheck = { requested.map(name) }

    static func name(_ sig: Int32) -> String {
        switch sig {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        default: "signal \(sig)"
        }
    }

    /// Ends the process by the signal that asked for a stop; returns when none did.
    static func endIfRequested() {
        guard let sig = requested else { return }
        fflush(nil)
        cstop_raise_default(sig)
    }
}
