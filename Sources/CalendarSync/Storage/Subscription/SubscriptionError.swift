import Failures
import Foundation

/// Why a subscription could not be read, or refused a write.
///
/// A feed that cannot be used (an HTTP error, a web page, an empty or cut-short body, invalid
/// iCalendar, a line or body over its cap) stops the run before anything is planned, so nothing
/// is deleted locally and the next run, once the feed is right again, converges.
public typealias SubscriptionError = CodedError<SubscriptionFailure>

/// The ways a feed cannot be used.
public enum SubscriptionFailure: Sendable, Equatable {
    /// The feed answered with an HTTP error status.
    case httpStatus
    /// The feed's body is not a calendar calgw can use.
    case unusableFeed
    /// The body is larger than the configured cap.
    case tooLarge
    /// A write to the feed, which is read-only.
    case readOnly
}

extension SubscriptionFailure: FailureCode {}
