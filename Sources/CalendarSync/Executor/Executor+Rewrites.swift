import Foundation

extension Executor {
    /// A write whose storage kept another version than the one written (see
    /// ``RewritingStorage``), with the item it was copied from.
    struct Rewrite {
        var side: Side
        var stored: StoredItem
        var source: SideItem
    }

    /// Notes the version `side` kept of `written`, a copy of `source`, when it is not what was
    /// written.
    func noteRewrite(of written: SideItem, on side: Side, copying source: SideItem) {
        guard let rewriting = side == .local ? rewriting.local : rewriting.remote,
            let stored = rewriting.takeRewrittenVersion(at: written.href)
        else { return }
        rewrites.append(Rewrite(side: side, stored: stored, source: source))
    }

    /// Brings each item a storage rewrote to the version it kept, on the side it was copied
    /// from: after `calgw event add --attendee`, the vdir holds the meeting as the server
    /// stores it (each attendee's SCHEDULE-STATUS), not as it was sent. Each write is an
    /// intent like any other; the item's row then records both sides at the server's version.
    /// Not counted in the report: the item was written once, as the plan said; this is the
    /// same write coming back. One round: what this write is given back is left to the next run.
    func keepRewrittenVersions() async throws {
        guard !rewrites.isEmpty else { return }
        try await settle()
        let pending = rewrites
        rewrites = []
        let counts = (report.created, report.updated)
        defer { (report.created, report.updated) = counts }
        for rewrite in pending {
            let content = ItemContent(rewrite.stored.data)
            guard content.parses, content.key == rewrite.source.key || rewrite.source.key.isUIDLess else { continue }
            let kept = SideItem(
                version: rewrite.stored.version, data: rewrite.stored.data, content: content, key: rewrite.source.key)
            let action = PlannedAction.update(on: rewrite.side.other, target: rewrite.source, source: kept)
            try await inSection {
                try await executeWithReplan(action, journal: try journal.items(keys: [action.key]).first)
            }
        }
    }
}
