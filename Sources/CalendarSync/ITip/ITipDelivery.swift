import Foundation
import VDir
import ICalendar

/// A scheduling message applied to the vdir and sent on to the server, as an `event` command's
/// change goes: the copy written (a new file for an invitation, the file replaced otherwise),
/// then pushed unless offline. What the message brings is a copy of the organizer's (or the
/// attendee's) own act: the server is not asked to schedule anything for it.
public struct ITipDelivery: Sendable {
    /// What `itip` reports, in `--json` as shared/CLI.md names it.
    public struct Report: Encodable, Sendable {
        public var method: String
        public var uid: String
        public var recurrenceId: String?
        public var pair: String?
        public var path: String?
        /// added, updated, cancelled, answer recorded, unchanged, refused, unreadable.
        public var action: String
        /// Why nothing was written; nil when applied.
        public var reason: String?
        /// What the reader should know of the message itself (a method stated twice).
        public var note: String?
        /// Whether the change reached the server.
        public var pushed: Bool?
        /// Why the change is not on the server yet (the next push sends it).
        public var pending: String?

        public init(method: String, uid: String, action: String, reason: String?) {
            self.method = method
            self.uid = uid
            self.action = action
            self.reason = reason
        }
    }

    /// Applies `message` from `sender` at `target` for the person at `own`: writes the copy
    /// (not with `dryRun`) and pushes it (not `offline`).
    /// - Throws: what writing the vdir throws (the file changed meanwhile, a folder not writable).
    public static func deliver(
        _ message: ITipMessage, sender: String?, to target: ITipTarget, own: Set<String>, offline: Bool, dryRun: Bool
    ) async throws -> Report {
        let outcome = message.apply(to: target.file?.calendar, sender: sender, own: own)
        var report = Report(
            method: message.method.rawValue, uid: message.uid, action: outcome.action, reason: outcome.reason)
        report.recurrenceId = message.recurrenceID
        report.pair = target.pair.name
        report.note = message.note
        let files = target.calendar.eventFiles
        report.path = files.directory.path(target.file?.name ?? SafeFileName.fileName(forUID: message.uid))
        guard let copy = outcome.copy, !dryRun else { return report }
        if let file = target.file {
            try files.replace(file, with: copy)
        } else {
            try files.create(copy, uid: message.uid)
        }
        let outcomeOfPush = await EventPush(pair: target.pair, calendar: target.calendar, offline: offline)
            .push(uids: [message.uid])
        report.pushed = outcomeOfPush.pushed
        report.pending = outcomeOfPush.pendingReason
        return report
    }
}
