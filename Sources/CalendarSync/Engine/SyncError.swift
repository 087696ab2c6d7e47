import Foundation

/// Why a run stopped as a whole (per-item problems go to the report's `errors`).
public struct SyncError: Error, LocalizedError, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// A side is empty while the journal knows many items (exit 4).
        case massDeletion
        /// A storage failed while scanning.
        case scanFailed
    }

    public var code: Code
    public var message: String
    public var recovery: String?

    public init(_ code: Code, _ message: String, recovery: String? = nil) {
        self.code = code
        self.message = message
        self.recovery = recovery
    }

    public var description: String { message }
    public var errorDescription: String? { message }
    public var recoverySuggestion: String? { recovery }
}
