import Failures

extension StorageError: ExplainedError {
    /// The case's name, e.g. `preconditionFailed`.
    public var errorCode: String {
        switch self {
        case .preconditionFailed: "preconditionFailed"
        case .alreadyExists: "alreadyExists"
        case .rejected: "rejected"
        case .notPermitted: "notPermitted"
        }
    }

    /// What happened to the item, naming its href.
    public var message: String {
        switch self {
        case .preconditionFailed(let href): "\(href) kept changing during the sync; run again"
        case .alreadyExists(let href): "\(href) exists already"
        case .rejected(let href, let reason), .notPermitted(let href, let reason): "\(href) was refused: \(reason)"
        }
    }

    /// For `.notPermitted`, that the calendar is read-only to the account from now on; nil
    /// otherwise.
    public var recovery: String? {
        switch self {
        case .notPermitted:
            "the account may not write to this calendar; from the next run on, calgw keeps the changes made in the vdir there and sends nothing"
        case .preconditionFailed, .alreadyExists, .rejected: nil
        }
    }

    /// None: a storage error carries no error beneath it.
    public var cause: (any Error)? { nil }
    /// The message.
    public var description: String { message }
}
