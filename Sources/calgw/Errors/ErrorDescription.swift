import Failures
import Foundation

/// What a person is told about an error, and the exit status it gives: the one mapping from
/// the library's errors to CLI.md's exit codes.
struct ErrorDescription {
    var message: String
    var hint: String?
    var status: ExitStatus
    /// What lies under the error (``CauseChain``), printed with `-v`.
    var causes: [String]

    init(_ error: Error) {
        causes = CauseChain.lines(under: error)
        if let explained = error as? any ExplainedError {
            (message, hint, status) = (explained.message, explained.recovery, ExitStatus(explained.kind))
        } else {
            let localized = error as? LocalizedError
            (message, hint, status) = (CauseChain.text(of: error), localized?.recoverySuggestion, .failure)
        }
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
        error is any ExplainedError || error is LocalizedError
    }
}

extension ExitStatus {
    /// The worse of two statuses, for a command over several pairs: a refusal for safety
    /// outranks a usage error, then authentication, failure and unresolved conflicts.
    static func worse(_ a: ExitStatus, _ b: ExitStatus) -> ExitStatus {
        let rank: [ExitStatus: Int] = [
            .success: 0, .unresolvedConflicts: 1, .failure: 2, .authenticationFailed: 3, .usage: 4,
            .refusedForSafety: 5,
        ]
        return rank[b, default: 0] > rank[a, default: 0] ? b : a
    }
}
