import Failures

extension EventEditError: ExplainedError {
    public var errorCode: String {
        switch self {
        case .notFound: "notFound"
        case .duplicateUID: "duplicateUID"
        }
    }

    public var message: String { description }
    public var cause: (any Error)? { nil }
}

extension InvitationReply.Refusal: ExplainedError {
    public var errorCode: String {
        switch self {
        case .notInvited: "notInvited"
        case .organizer: "organizer"
        }
    }

    public var message: String { description }

    public var recovery: String? {
        switch self {
        case .notInvited: "give the address the invitation names with --address"
        case .organizer: "to change a meeting you organize, use `calgw event edit`"
        }
    }

    public var cause: (any Error)? { nil }
}

extension RunStopped: ExplainedError {
    public var errorCode: String { "stopped" }
    public var message: String { description }
    public var recovery: String? { "run again to carry on from where it stopped" }
    public var cause: (any Error)? { nil }
}

extension RunInterrupted: ExplainedError {
    public var errorCode: String { "interrupted" }
    public var message: String { "the run was cut short as a crash would (a test's fault hook)" }
    public var recovery: String? { "run again: the journal's intents settle what was written" }
    public var cause: (any Error)? { nil }
    public var description: String { message }
}
