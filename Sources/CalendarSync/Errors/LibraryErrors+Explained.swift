import Failures

extension EventEditError: ExplainedError {
    /// The case's name: `notFound`, `duplicateUID` or `unreadable`.
    public var errorCode: String {
        switch self {
        case .notFound: "notFound"
        case .duplicateUID: "duplicateUID"
        case .unreadable: "unreadable"
        }
    }

    /// The description, naming the UID.
    public var message: String { description }
    /// None: the error is calgw's own finding.
    public var cause: (any Error)? { nil }
}

extension InvitationReply.Refusal: ExplainedError {
    /// The case's name: `notInvited`, `organizer`, `notAMeeting` or `cancelled`.
    public var errorCode: String {
        switch self {
        case .notInvited: "notInvited"
        case .organizer: "organizer"
        case .notAMeeting: "notAMeeting"
        case .cancelled: "cancelled"
        case .invalidAddress: "invalidAddress"
        }
    }

    /// The description, naming the event.
    public var message: String { description }

    /// Give the address the invitation names, edit a meeting of one's own, or remove a
    /// cancelled one.
    public var recovery: String? {
        switch self {
        case .notInvited: "give the address the invitation names with --address"
        case .organizer: "to change a meeting you organize, use `calgw event edit`"
        case .notAMeeting: nil
        case .cancelled(let uid, _): "`calgw event delete \(uid) --no-reply` removes it from your calendar"
        case .invalidAddress:
            "write the line as ATTENDEE;…:mailto:you@example.org (`calgw lint` on the file shows it), then answer again"
        }
    }

    /// None: the refusal is calgw's own.
    public var cause: (any Error)? { nil }
}

extension RunStopped: ExplainedError {
    /// `stopped`.
    public var errorCode: String { "stopped" }
    /// The description, giving why the run was asked to stop.
    public var message: String { description }
    /// Run again: the run carries on where it stopped.
    public var recovery: String? { "run again to carry on from where it stopped" }
    /// None: the run stopped because it was asked to.
    public var cause: (any Error)? { nil }
}

extension RunInterrupted: ExplainedError {
    /// `interrupted`.
    public var errorCode: String { "interrupted" }
    /// That the run was cut short as a crash would cut it.
    public var message: String { "the run was cut short as a crash would (a test's fault hook)" }
    /// Run again: the journal's intents settle what was written.
    public var recovery: String? { "run again: the journal's intents settle what was written" }
    /// None: a test's fault hook cut the run short.
    public var cause: (any Error)? { nil }
    /// The message.
    public var description: String { message }
}
