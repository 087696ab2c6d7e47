import Foundation

/// The lines under an error, outermost first: each explained error's details, then the error
/// it wraps, down to one that wraps nothing. `-v` prints them after the error itself. A cause
/// whose words its wrapper's message already quotes is not said twice.
public enum CauseChain {
    /// How deep the chain is followed (a cycle cannot hang the print).
    static let depth = 10

    /// The lines under `error` (not the error's own message).
    public static func lines(under error: any Error) -> [String] {
        var lines: [String] = []
        var next: (any Error)? = error
        for _ in 0..<depth {
            guard let current = next else { break }
            let explained = current as? any ExplainedError
            lines += explained?.details ?? []
            next = explained?.cause
            if let next, let explained, case let words = text(of: next), !explained.message.contains(words) {
                lines.append(words)
            }
        }
        return lines
    }

    /// An error in one line: its message, a Foundation error's description, or its text.
    public static func text(of error: any Error) -> String {
        if let explained = error as? any ExplainedError { return explained.message }
        if let localized = error as? LocalizedError, let text = localized.errorDescription { return text }
        return String(describing: error)
    }
}
