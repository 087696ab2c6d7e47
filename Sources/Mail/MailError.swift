import Foundation

/// Why a mail could not be read: what is wrong with it, in words a person can act on.
///
/// Mail is not authenticated and may be hostile (RFC 6047 §6): every way a message can be
/// malformed or oversized ends here, never in a crash, and the message says which bound was hit
/// or which part was unreadable.
///
/// ## Topics
/// - ``Code``
/// - ``code``
/// - ``message``
public struct MailError: Error, LocalizedError, CustomStringConvertible, Sendable, Equatable {
    /// What kind of problem it is, for callers that branch on it.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String {
            case tooLarge = "too large"
            case headerLineTooLong = "header line too long"
            case tooManyHeaders = "too many header fields"
            case tooManyParts = "too many parts"
            case nestedTooDeep = "nested too deep"
            case missingBoundary = "missing boundary"
            case truncatedMultipart = "truncated multipart"
            case badTransferEncoding = "bad transfer encoding"
            case unsupportedCharset = "unsupported charset"
            case notAMessage = "not a message"
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The message is bigger than ``MailLimits/maximumSize``.
        public static let tooLarge = Code(.tooLarge)
        /// A header line is longer than ``MailLimits/maximumHeaderLineLength``.
        public static let headerLineTooLong = Code(.headerLineTooLong)
        /// A header block has more fields than ``MailLimits/maximumHeaderFields``.
        public static let tooManyHeaders = Code(.tooManyHeaders)
        /// The MIME tree has more parts than ``MailLimits/maximumParts``.
        public static let tooManyParts = Code(.tooManyParts)
        /// Multiparts are nested deeper than ``MailLimits/maximumDepth``.
        public static let nestedTooDeep = Code(.nestedTooDeep)
        /// A multipart names no boundary, or its boundary never appears.
        public static let missingBoundary = Code(.missingBoundary)
        /// A multipart ends before its closing boundary.
        public static let truncatedMultipart = Code(.truncatedMultipart)
        /// A calendar part's base64 or transfer encoding cannot be decoded.
        public static let badTransferEncoding = Code(.badTransferEncoding)
        /// A calendar part is in a character set this reader does not know.
        public static let unsupportedCharset = Code(.unsupportedCharset)
        /// The input is neither a mail nor an iCalendar object.
        public static let notAMessage = Code(.notAMessage)

        public var description: String { value.rawValue }
    }

    /// What kind of problem it is.
    public var code: Code
    /// What is wrong, in one sentence.
    public var message: String

    /// An error of `code` saying `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var errorDescription: String? { message }
    public var description: String { message }
}
