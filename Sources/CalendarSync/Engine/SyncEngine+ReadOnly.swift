import Foundation

extension SyncEngine {
    /// The policy as the remote allows it now. A calendar the account may only read (a share
    /// without write access, found when it was listed) is synced like a subscription: a sync
    /// pulls, nothing is written to it, the vdir's own changes stay in the vdir, and a local
    /// edit the server also changed is kept as a conflict copy beside the server's version.
    var effectivePolicy: SyncPolicy {
        guard remoteFoundReadOnly else { return policy }
        var readOnly = policy
        readOnly.remoteIsReadOnly = true
        if readOnly.direction == .both { readOnly.direction = .pull }
        return readOnly
    }

    /// The remote was found read-only when it was listed (a calendar shared read-only; a
    /// subscription is read-only by kind, and says so otherwise).
    var remoteFoundReadOnly: Bool {
        guard !policy.remoteIsReadOnly else { return false }
        let capabilities = remote.capabilities
        // A calendar whose access its listing does not tell is read-only once a write to it
        // was refused for want of the privilege (the journal remembers), until it says otherwise.
        return capabilities.isReadOnly
            || !capabilities.knowsWriteAccess && (try? journal.flag(Self.writesRefused)) == true
    }

    /// Remembers that a write was refused for want of the privilege, or forgets it once the
    /// calendar's listing says the account may write.
    func noteRefusedWrites(_ refused: Bool) throws {
        let capabilities = remote.capabilities
        if refused {
            try journal.setFlag(Self.writesRefused, true)
        } else if capabilities.knowsWriteAccess, !capabilities.isReadOnly, try journal.flag(Self.writesRefused) {
            try journal.setFlag(Self.writesRefused, false)
        }
    }

    static let writesRefused = "writesRefused"

    /// Says once, in the first run that keeps a vdir change from a read-only calendar, that the
    /// calendar is read-only and what becomes of the vdir's changes; later runs say nothing
    /// more (the journal remembers), until the calendar is writable again.
    func noteReadOnlyCalendar(in report: inout SyncReport, dryRun: Bool) throws {
        let readOnly = remoteFoundReadOnly
        let noted = try journal.flag(Self.readOnlyNoted)
        if readOnly && !noted && report.pending.remote > 0 {
            report.notes.append(
                "the calendar is read-only for this account: changes made in the vdir stay there and are not sent "
                    + "(\(report.pending.remote) now)")
            if !dryRun { try journal.setFlag(Self.readOnlyNoted, true) }
        } else if !readOnly && noted && !dryRun {
            try journal.setFlag(Self.readOnlyNoted, false)
        }
    }

    static let readOnlyNoted = "readOnlyNoted"
}
