import Foundation

/// How one transfer through an ``HTTPTransport`` ended: with a complete response (now in the
/// ``HTTPResponseReceiver``), or with a failure before one arrived whole. The client decides
/// from it whether to retry and which `HTTPError` to throw.
public struct HTTPTransferOutcome: Sendable {
    /// Why no complete response came; nil when one did.
    public var failure: Failure?
    /// Seconds the transfer took, for the client's debug log.
    public var seconds: Double
    /// The header lines said on the wire, when the transfer was traced (libcurl only).
    var trace = WireTrace()

    /// - Parameters:
    ///   - failure: why no complete response came; nil when one did.
    ///   - seconds: how long the transfer took.
    public init(failure: Failure? = nil, seconds: Double = 0) {
        self.failure = failure
        self.seconds = seconds
    }

    /// A transfer that received its response whole.
    public static let completed = HTTPTransferOutcome()

    /// A transfer that ended without a complete response.
    public struct Failure: Sendable {
        /// What kind of failure, which decides the error code and whether it is retried.
        public enum Kind: Sendable {
            /// No answer, or one cut short: DNS, refused, reset, timeout. Retried when safe;
            /// `.connectionFailed`.
            case connection
            /// The TLS certificate or the pinned public key did not verify; `.tlsVerificationFailed`.
            case tls
            /// The request could not be sent as asked (bad URL, setup failure); `.invalidRequest`.
            case invalidRequest
            /// The body was larger than the size cap before it arrived; `.responseTooLarge`.
            case responseTooLarge
        }

        /// What kind of failure.
        public var kind: Kind
        /// The transport's own words for it (libcurl's error text), put into the error message.
        public var text: String

        /// - Parameters:
        ///   - kind: what kind of failure.
        ///   - text: the transport's words for it.
        public init(_ kind: Kind, _ text: String) {
            self.kind = kind
            self.text = text
        }
    }
}
