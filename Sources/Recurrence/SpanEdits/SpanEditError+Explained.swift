import Failures

extension SpanEditError: ExplainedError {
    /// The case's name, e.g. `noSuchOccurrence`.
    public var errorCode: String {
        switch self {
        case .noSuchEvent: "noSuchEvent"
        case .notAnEvent: "notAnEvent"
        case .noMaster: "noMaster"
        case .noSuchOccurrence: "noSuchOccurrence"
        case .excludedOccurrence: "excludedOccurrence"
        case .notRecurring: "notRecurring"
        case .notApplicableToOccurrence: "notApplicableToOccurrence"
        case .invalidChange: "invalidChange"
        }
    }

    /// The description, naming the event and the occurrence.
    public var message: String { description }
    /// None: the editor's own finding.
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
