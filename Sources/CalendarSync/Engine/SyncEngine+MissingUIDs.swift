import Foundation

extension SyncEngine {
    /// Gives each new file the scan set aside for lacking a UID one, written into the file
    /// (``MissingUID``) before planning, so that the copy uploaded and the file share it. Each
    /// write is an intent in the journal like any other, conditional on the file not having
    /// changed since the scan.
    ///
    /// - Returns: the snapshot with those files among its items; a file that could not be
    ///   given a UID is reported as a problem instead, never dropped silently.
    func assigningMissingUIDs(in scanned: SideSnapshot) async throws -> SideSnapshot {
        guard !scanned.missingUID.isEmpty else { return scanned }
        var snapshot = scanned
        snapshot.missingUID = []
        for stored in scanned.missingUID {
            let uid = UUID().uuidString.lowercased()
            let data = MissingUID.inserting(uid, into: stored.data)
            let intent = try journal.record(
                Intent(
                    key: .uid(uid), operation: .update, side: .local, href: stored.href,
                    ifMatch: stored.etag, newHash: ContentHash.of(data)))
            do {
                let version = try await local.update(href: stored.href, data: data, ifMatch: stored.etag)
                if let flushing = local.capabilities.flushing { try await flushing.flush() }
                try journal.complete(intent, change: .none)
                let content = ItemContent(data)
                snapshot.items.append(SideItem(version: version, data: data, content: content, key: content.key))
            } catch {
                try journal.fail(intent, reason: Executor.describe(error))
                snapshot.unparseable.append(stored.href)
                snapshot.problems[stored.href] =
                    "\(snapshot.location(stored.href)): calgw could not give this file a UID "
                    + "(\(Executor.describe(error, withHint: false))); add a UID line to each event by hand"
            }
        }
        snapshot.unparseable.sort()
        return snapshot
    }
}
