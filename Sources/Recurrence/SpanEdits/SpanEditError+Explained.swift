import Failures

extension SpanEditError: ExplainedError {
    public var errorCode: String {
        switch self {
        case .noSuchEvent: "noSuchEvent"
        case .noMaster: "noMaster"
        case .noSuchOccurrence: "noSuchOccurrence"
        case .excludedOccurrence: "excludedOccurrence"
        case .notRecurring: "notRecurring"
        case .notApplicableToOccurrence: "notApplicableToOccurrence"
        case .invalidChange: "invalidChange"
        }
    }

    public var message: String { description }
    public var cause: (any Error)? { nil }

    /// An edit asked of an event that is not as the file should hold it fails; an edit that
    /// asks what cannot be (an occurrence that is none, an end before its start) is a usage
    /// error.
    public var kind: FailureKind {
        switch self {
        case .noSuchEvent, .noMaster: .failed
        default: .usage
        }
    }
}
