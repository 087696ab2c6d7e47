import Foundation

/// Starts the notify command for an alarm without waiting for it (a slow notifier never holds
/// up syncs or other alarms), its output discarded but for its standard error, which goes to
/// `watch`'s own (the log). A command that fails (not found, exit status other than 0) is said
/// once, with why, and again only after it has worked or fails another way; it is never run
/// again for the same alarm.
public final class NotifyRunner: @unchecked Sendable {
    private let lock = NSLock()
    private var lastFailure: String?
    /// Says a failure to the person: its message and what may help.
    private let report: @Sendable (_ message: String, _ hint: String?) -> Void

    /// A runner that says its failures through `report` (on `watch`'s standard error).
    public init(report: @escaping @Sendable (_ message: String, _ hint: String?) -> Void) { self.report = report }

    /// Runs `argv` (looked up on PATH, no shell).
    public func run(_ argv: [String]) {
        guard let program = argv.first else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = argv
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.terminationHandler = { [self] p in
            let status = p.terminationReason == .uncaughtSignal ? 128 + p.terminationStatus : p.terminationStatus
            finished(program: program, status: status)
        }
        do { try process.run() } catch {
            failed("cannot run notify_command \(program): \(error.localizedDescription)", hint: nil)
        }
    }

    private func finished(program: String, status: Int32) {
        switch status {
        case 0: lock.withLock { lastFailure = nil }
        case 127:
            // env answers 127 when the program is not found.
            failed(
                "notify_command \(program) was not found; the alarm is not run again",
                hint: "install it, or give its full path in the config")
        default:
            failed(
                "notify_command \(program) exited with \(status); the alarm is not run again",
                hint:
                    "run it by hand to see why; later alarms run it again, "
                    + "and it is said again only if it fails otherwise"
            )
        }
    }

    private func failed(_ message: String, hint: String?) {
        let isNew = lock.withLock {
            defer { lastFailure = message }
            return lastFailure != message
        }
        if isNew { report(message, hint) }
    }
}
