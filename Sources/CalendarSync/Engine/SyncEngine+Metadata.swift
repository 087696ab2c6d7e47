import Foundation

/// Three-way sync of one metadata field: a side that changed since the last sync wins; when
/// both changed, the remote value wins; a missing value never deletes the other side's.
enum MetadataMerge {
    /// The values to write to (local, remote), and the value both now agree on.
    static func merge(local: String?, remote: String?, base: String?, normalize: (String) -> String = { $0 })
        -> (setLocal: String?, setRemote: String?, agreed: String?)
    {
        let l = local.map(normalize), r = remote.map(normalize), b = base.map(normalize)
        if l == r { return (nil, nil, local) }
        if l == nil { return (remote, nil, remote) }
        if r == nil { return (nil, local, local) }
        if l == b { return (remote, nil, remote) }
        if r == b { return (nil, local, local) }
        return (remote, nil, remote)
    }

    /// Colors compare case-insensitively, with an opaque alpha (`#rrggbbff`) equal to none.
    static func normalizeColor(_ color: String) -> String {
        var c = color.lowercased().trimmingCharacters(in: .whitespaces)
        if c.count == 9, c.hasPrefix("#"), c.hasSuffix("ff") { c.removeLast(2) }
        return c
    }
}

extension SyncEngine {
    /// What a run says of the name and color it wrote on `side` (`written`), which were `was`.
    static func metadataNotes(_ written: CollectionMetadata, was: CollectionMetadata, side: Side) -> [String] {
        let other = side == .local ? "remote" : "local"
        var notes: [String] = []
        if let name = written.displayName {
            notes.append(
                "the \(side.rawValue) calendar's name is now \"\(name)\" (was \(was.displayName.map { "\"\($0)\"" } ?? "none")), as on the \(other) side"
            )
        }
        if let color = written.color {
            notes.append(
                "the \(side.rawValue) calendar's color is now \(color) (was \(was.color ?? "none")), as on the \(other) side"
            )
        }
        return notes
    }

    /// Syncs the display name and color when both sides support it. Each write is a step of
    /// its own: a kill between them leaves the sides or the journal's agreed value behind, and
    /// the next run agrees again (docs/architecture.md).
    /// - Throws: only ``RunInterrupted`` (from the fault hook); other failures are the report's.
    func syncMetadata(into report: inout SyncReport) async throws {
        guard let l = local.capabilities.collectionMetadata, let r = remote.capabilities.collectionMetadata else {
            return
        }
        do {
            let lm = try await l.metadata(), rm = try await r.metadata()
            var localState = try journal.collection(.local), remoteState = try journal.collection(.remote)
            let name = MetadataMerge.merge(local: lm.displayName, remote: rm.displayName, base: localState.displayName)
            let color = MetadataMerge.merge(
                local: lm.color, remote: rm.color, base: localState.color, normalize: MetadataMerge.normalizeColor)
            var toLocal = CollectionMetadata(displayName: name.setLocal, color: color.setLocal)
            var toRemote = CollectionMetadata(displayName: name.setRemote, color: color.setRemote)
            if !policy.direction.writes(.local) { toLocal = CollectionMetadata() }
            if !policy.direction.writes(.remote) { toRemote = CollectionMetadata() }
            if toLocal != CollectionMetadata() {
                try await l.setMetadata(toLocal)
                try effects.happened()
            }
            if toRemote != CollectionMetadata() {
                try await r.setMetadata(toRemote)
                try effects.happened()
            }
            report.notes +=
                Self.metadataNotes(toLocal, was: lm, side: .local)
                + Self.metadataNotes(toRemote, was: rm, side: .remote)
            if policy.direction == .both {
                localState.displayName = name.agreed; localState.color = color.agreed
                remoteState.displayName = name.agreed; remoteState.color = color.agreed
                try journal.setCollection(.local, localState)
                try effects.happened()
                try journal.setCollection(.remote, remoteState)
                try effects.happened()
            }
        } catch let error as RunInterrupted {
            throw error
        } catch {
            report.addError(
                "collection name and color: \(Executor.describe(error))",
                cause: ErrorCause.of(error, item: "collection name and color"))
        }
    }
}
