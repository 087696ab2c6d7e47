import ICalendar

/// What applying a scheduling message to the vdir comes to: the copy to write, or why nothing
/// is written.
public enum ITipOutcome: Sendable, Equatable {
    /// A new invitation: the copy to create.
    case added(Component)
    /// The copy brought to the organizer's newer version.
    case updated(Component)
    /// The meeting, or occurrences of it, marked cancelled.
    case cancelled(Component)
    /// An attendee's answer set in the copy the account organizes.
    case answerRecorded(Component)
    /// Nothing to do, and why (an older or repeated message, a method calgw does not act on).
    case unchanged(String)
    /// An attendee's proposal of another time, said, and the command that takes it (nil when
    /// it names no time): nothing is written until the organizer runs it.
    case proposed(String, taking: String?)
    /// Not applied, and why (a message that may not change what it names).
    case refused(String)

    /// The copy to write; nil when nothing is written.
    public var copy: Component? {
        switch self {
        case .added(let copy), .updated(let copy), .cancelled(let copy), .answerRecorded(let copy): copy
        case .unchanged, .proposed, .refused: nil
        }
    }

    /// The outcome's name in `--json`'s `action`.
    public var action: String {
        switch self {
        case .added: "added"
        case .updated: "updated"
        case .cancelled: "cancelled"
        case .answerRecorded: "answer recorded"
        case .unchanged, .proposed: "unchanged"
        case .refused: "refused"
        }
    }

    /// Why nothing was written; nil when the copy was.
    public var reason: String? {
        switch self {
        case .unchanged(let why), .proposed(let why, _), .refused(let why): why
        default: nil
        }
    }
}
