/// How a conflict ended (or will end), as a run's report and `status` name it: the strategy
/// that resolved it, or why it was not. Its raw value is the name `--json` gives.
public enum ConflictOutcome: String, Sendable, Hashable, Codable, CaseIterable {
    case merge
    case newest
    case localWins = "local-wins"
    case remoteWins = "remote-wins"
    case keepBoth = "keep-both"
    case ask
    /// Left for `calgw sync`: a pull or push writes one side only.
    case pending
    /// Not decided: `ask` without an answer, or a strategy that could not decide (exit 3).
    case unresolved
    /// A read-only remote's version taken, the local edit kept beside it as a conflict copy.
    case keptAsCopy = "kept-as-copy"

    /// The outcome `strategy` names.
    public init(_ strategy: ConflictStrategy) {
        switch strategy {
        case .merge: self = .merge
        case .newest: self = .newest
        case .localWins: self = .localWins
        case .remoteWins: self = .remoteWins
        case .keepBoth: self = .keepBoth
        case .ask: self = .ask
        }
    }
}
