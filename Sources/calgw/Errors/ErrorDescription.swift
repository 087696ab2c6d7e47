import CalDAV
import CalendarSync
import Foundation

/// What a person is told about an error, and the exit status it gives: the one mapping from
/// the library's errors to CLI.md's exit codes.
struct ErrorDescription {
    var message: String
    var hint: String?
    var status: ExitStatus
    /// What lies under the error (``causes(of:)``), printed with `-v`.
    var causes: [String]

    init(_ error: Error) {
        causes = Self.causes(of: error)
        switch error {
        case let e as CLIError:
            (message, hint, status) = (e.message, e.hint, e.status)
        case let e as ConfigError:
            (message, hint, status) = (e.message, e.hint, .usage)
        case let e as SyncError:
            (message, hint) = (e.message, e.recovery)
            status = switch e.code {
            case .massDeletion: .refusedForSafety
            case .authenticationFailed: .authenticationFailed
            case .unknownCollection, .unsupported: .usage
            case .scanFailed: .failure
            }
        case let e as CalDAVError:
            (message, hint, status) = (e.message, e.recovery, e.code == .authenticationFailed ? .authenticationFailed : .failure)
        case let e as JournalError:
            (message, hint, status) = (e.message, e.recovery, .failure)
        case let e as LocalizedError:
            (message, hint, status) = (e.errorDescription ?? "\(error)", e.recoverySuggestion, .failure)
        default:
            (message, hint, status) = ("\(error)", nil, .failure)
        }
    }

    /// What lies under the error, outermost first, one line each: the causes `CodedError`s
    /// chain, and a server's status and reason. `-v` prints them after the error.
    static func causes(of error: Error) -> [String] {
        var lines: [String] = []
        var next: (any Error)? = error
        var seen = 0
        while let current = next, seen < 10 {
            seen += 1
            var underneath: (any Error)?
            switch current {
            case let e as SyncError: underneath = e.cause
            case let e as JournalError: underneath = e.cause
            case let e as SingleFileError: underneath = e.cause
            case let e as SubscriptionError: underneath = e.cause
            case let e as CalDAVError:
                var parts = ["\(e.code)"]
                if let status = e.status { parts.append("HTTP \(status)") }
                if let url = e.url { parts.append(url.redactedString) }
                if let reason = e.serverReason { parts.append("server: \(reason)") }
                lines.append(parts.joined(separator: ", "))
            default: break
            }
            if let underneath {
                lines.append((underneath as? LocalizedError)?.errorDescription ?? String(describing: underneath))
            }
            next = underneath
        }
        return lines
    }

    /// Prints the error on stderr (after `pair: ` when one is named), its hint, and with
    /// `verbose` its causes.
    func report(pair: String? = nil, verbose: Bool) {
        Terminal.reportError(pair.map { "\($0): \(message)" } ?? message, hint: hint)
        if verbose { for line in causes { Terminal.err("cause: \(line)") } }
    }

    /// The message with its hint in parentheses, as a report's `errors` hold it.
    var line: String { hint.map { "\(message) (\($0))" } ?? message }

    /// Whether calgw itself describes this error (as opposed to the argument parser's own).
    static func isOwn(_ error: Error) -> Bool {
        error is CLIError || error is ConfigError || error is SyncError || error is CalDAVError || error is JournalError
            || error is LocalizedError
    }
}

extension ExitStatus {
    /// The worse of two statuses, for a command over several pairs: a refusal for safety
    /// outranks a usage error, then authentication, failure and unresolved conflicts.
    static func worse(_ a: ExitStatus, _ b: ExitStatus) -> ExitStatus {
        let rank: [ExitStatus: Int] = [.success: 0, .unresolvedConflicts: 1, .failure: 2, .authenticationFailed: 3, .usage: 4, .refusedForSafety: 5]
        return rank[b, default: 0] > rank[a, default: 0] ? b : a
    }
}
