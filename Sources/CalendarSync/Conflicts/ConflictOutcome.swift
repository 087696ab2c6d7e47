/// How a conflict ended (or will end), as a run's report and `status` name it: the strategy
/// that resolved it, or why it was not. Its raw value is the name `--json` gives (the
/// strategy's own name, or `pending`, `unresolved`, `kept-as-copy`).
public enum ConflictOutcome: Sendable, Hashable, Codable, RawRepresentable {
    /// Resolved by a strategy (for a preview: the strategy a sync will apply).
    case resolved(ConflictStrategy)
    /// Left for `calgw sync`: a pull or push writes one side only.
    case pending
    /// Not decided: `ask` without an answer, or a strategy that could not decide (exit 3).
    case unresolved
    /// A read-only remote's version taken, the local edit kept beside it as a conflict copy.
    case keptAsCopy

    /// The outcome `strategy` names.
    public init(_ strategy: ConflictStrategy) { self = .resolved(strategy) }

    /// The outcome named `rawValue` (`pending`, `unresolved`, `kept-as-copy` or a strategy's name);
    /// nil for another name.
    public init?(rawValue: String) {
        switch rawValue {
        case "pending": self = .pending
        case "unresolved": self = .unresolved
        case "kept-as-copy": self = .keptAsCopy
        default:
            guard let strategy = ConflictStrategy(rawValue: rawValue) else { return nil }
            self = .resolved(strategy)
        }
    }

    /// The name `--json` and `status` give the outcome.
    public var rawValue: String {
        switch self {
        case .resolved(let strategy): strategy.rawValue
        case .pending: "pending"
        case .unresolved: "unresolved"
        case .keptAsCopy: "kept-as-copy"
        }
    }
}
