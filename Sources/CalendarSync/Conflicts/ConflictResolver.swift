import Foundation
import ICalendar

/// How one conflict ends.
public enum ConflictResolution: Sendable, Hashable {
    /// The local version goes to the remote side.
    case takeLocal
    /// The remote version goes to the local side.
    case takeRemote
    /// A merged version goes to both sides.
    case merged(Data)
    /// The remote version keeps the item; the local version is kept as a new item with `copy`
    /// (the same content under a new UID), created on both sides.
    case keepBoth(copy: Data, copyUID: String)
    /// Nobody decided (`ask` without a terminal, or declined): both sides stay as they are.
    case unresolved
}

/// A conflict put to a person (`ask`): both versions and the base, to show a diff.
public struct ConflictQuestion: Sendable {
    /// The item in conflict.
    public var key: ItemKey
    /// The local version's bytes.
    public var local: Data
    /// The remote version's bytes.
    public var remote: Data
    /// The version both sides last agreed on, from the journal; nil without one.
    public var base: Data?
}

/// Turns a conflict into a resolution by the pair's strategy. Pure, except `ask`, which calls
/// the prompt it is given.
public struct ConflictResolver: Sendable {
    /// The pair's strategy for conflicts.
    public var strategy: ConflictStrategy
    /// Asked for `ask`; returns the strategy chosen, nil to leave the conflict unresolved.
    /// Without a prompt (no terminal), `ask` leaves every conflict unresolved.
    public var prompt: (@Sendable (ConflictQuestion) -> ConflictStrategy?)?

    /// A resolver applying `strategy`; `prompt` answers for `ask`.
    public init(strategy: ConflictStrategy, prompt: (@Sendable (ConflictQuestion) -> ConflictStrategy?)? = nil) {
        self.strategy = strategy
        self.prompt = prompt
    }

    /// Resolves a conflict.
    ///
    /// Two copies with no shared history (no journal row: a first sync of two full sides, a
    /// lost journal, a run stopped before it recorded the item) have no base to say which one
    /// changed: a file calgw wrote from the server yesterday looks as new as an edit made on the
    /// phone today, and comparing times would let the stale copy overwrite the edit. Unless the
    /// strategy names a side (`local-wins`, `remote-wins`) or a person decides (`ask`), both
    /// are kept: the server's copy keeps the item, the local one becomes a conflict copy; but a
    /// server's copy that only adds to the local one (``ServerAdditions``) is taken as it is.
    /// - Parameter sharingHistory: false for two copies that met without a journal row.
    /// - Returns: the resolution and the name of the rule that decided it (for the report).
    public func resolve(key: ItemKey, local: Data, remote: Data, base: Data?, sharingHistory: Bool = true) -> (
        ConflictResolution, ConflictOutcome
    ) {
        var strategy = self.strategy
        if strategy == .ask {
            guard let prompt, let chosen = prompt(ConflictQuestion(key: key, local: local, remote: remote, base: base)),
                chosen != .ask
            else {
                return (.unresolved, .unresolved)
            }
            strategy = chosen
        }
        if !sharingHistory && (strategy == .merge || strategy == .newest) {
            // The server's copy is the local one with what the server added: one item.
            if ServerAdditions.onlyAdded(local: local, remote: remote) { return (.takeRemote, .resolved(.merge)) }
            strategy = .keepBoth
        }
        let lc = ItemContent(local), rc = ItemContent(remote)
        switch strategy {
        case .localWins: return (.takeLocal, ConflictOutcome(strategy))
        case .remoteWins: return (.takeRemote, ConflictOutcome(strategy))
        case .newest: return (Self.localIsNewer(lc, rc) ? .takeLocal : .takeRemote, ConflictOutcome(strategy))
        case .keepBoth:
            let copyUID = (lc.uid ?? "item") + "-conflict-" + lc.hash.value.suffix(8)
            guard let copy = Self.withUID(local, copyUID) else { return (.unresolved, .unresolved) }
            return (.keepBoth(copy: copy, copyUID: copyUID), ConflictOutcome(strategy))
        case .merge, .ask:
            guard let base, let merged = ThreeWayMerge.merge(base: base, local: local, remote: remote) else {
                return (Self.localIsNewer(lc, rc) ? .takeLocal : .takeRemote, .resolved(.newest))
            }
            let mh = ContentHash.of(merged)
            if mh == lc.hash { return (.takeLocal, .resolved(.merge)) }
            if mh == rc.hash { return (.takeRemote, .resolved(.merge)) }
            return (.merged(merged), .resolved(.merge))
        }
    }

    /// Later LAST-MODIFIED wins, then higher SEQUENCE; local on a tie.
    static func localIsNewer(_ l: ItemContent, _ r: ItemContent) -> Bool {
        let lm = l.lastModified ?? "", rm = r.lastModified ?? ""
        if lm != rm { return lm > rm }
        return l.sequence >= r.sequence
    }

    /// `data` with every UID replaced by `uid`.
    static func withUID(_ data: Data, _ uid: String) -> Data? {
        guard var calendar = try? ICalendarParser().parse(data).calendar else { return nil }
        for i in calendar.components.indices where calendar.components[i]["UID"] != nil {
            calendar.components[i].set(Property(name: "UID", value: uid))
        }
        return ICalendarSerializer().data([calendar])
    }
}
