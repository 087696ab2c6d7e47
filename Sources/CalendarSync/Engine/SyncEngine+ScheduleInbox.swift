import Foundation

extension SyncEngine {
    /// After a run that may write the vdir: the organizer's changes a server left in the
    /// account's schedule Inbox are applied to this calendar's copies on the server (see
    /// ``ScheduleInboxStorage``), and a second pass brings them down as any change made on the
    /// server, with the vdir's own changes merged as usual. The first pass has sent the person's
    /// changes already, so a copy is changed on top of them. A failure to read the Inbox is a
    /// note and leaves the messages for the next run; it never fails the run.
    ///
    /// A run that brought a change of the server's into the vdir looks. A run that brought
    /// none looks only where the Inbox moved since the last reading (``ScheduleInboxStorage/
    /// scheduleInboxMark(known:)``): DAViCal files an attendee's answer sent by his Outbox in
    /// the organizer's Inbox and changes no calendar, so her calendar alone would never show
    /// it. That costs DAViCal's no-op one request more (a PROPFIND of the Inbox); a server
    /// that needs no such look is asked nothing more (a no-op stays one request).
    /// - Parameter first: the report of the run's first pass.
    func applyingScheduleInbox(after first: SyncReport) async throws -> SyncReport {
        let pulled = first.created[.local] + first.updated[.local] + first.deleted[.local]
        guard effectivePolicy.direction.writes(.local), !effectivePolicy.remoteIsReadOnly,
            let inbox = remote.capabilities.scheduleInbox
        else { return first }
        let known = try? journal.scheduleInboxMark()
        let mark = try? await (pulled == 0 || known != nil ? inbox.scheduleInboxMark(known: known) : nil)
        if pulled == 0 {
            guard let mark, mark != known else { return first }
        }
        let applied: ScheduleInboxApplied
        do {
            applied = try await inbox.applyScheduleInbox()
            // The Inbox as it was before this reading: what the reading removed moves the
            // tokens, so the next run reads it once more (finding nothing) and keeps that.
            if let mark { try? journal.setScheduleInboxMark(mark) }
        } catch {
            var report = first
            report.notes.append(
                "the organizer's changes in the schedule inbox are left for a later run that brings a change: \(error)")
            return report
        }
        let moot = applied.mootCancellations
        let mootNote =
            "removed \(moot) cancellation\(moot == 1 ? "" : "s") of \(moot == 1 ? "a meeting" : "meetings") "
            + "no longer in the calendar from the schedule inbox"
        guard applied.total > 0 else {
            var report = first
            if moot > 0 { report.notes.append(mootNote) }
            return report
        }
        var engine = self
        engine.policy.personsActions = []
        engine.policy.answers = []
        var report = Self.combined(first, try await engine.runPlanned(dryRun: false))
        let updates = applied.organizerUpdates, answers = applied.answers
        if updates > 0 {
            report.notes.append("applied \(updates) organizer update\(updates == 1 ? "" : "s") from the schedule inbox")
        }
        if answers > 0 {
            report.notes.append("applied \(answers) attendee answer\(answers == 1 ? "" : "s") from the schedule inbox")
        }
        if moot > 0 { report.notes.append(mootNote) }
        return report
    }

    /// What two passes of one run did together: the writes and findings of both, what is
    /// pending as the second left it.
    static func combined(_ first: SyncReport, _ second: SyncReport) -> SyncReport {
        var report = first
        for side in [Side.local, .remote] {
            report.created[side] += second.created[side]
            report.updated[side] += second.updated[side]
            report.deleted[side] += second.deleted[side]
        }
        report.pending = second.pending
        report.conflicts += second.conflicts
        report.errors += second.errors
        report.skipped += second.skipped.filter { !first.skipped.contains($0) }
        report.notes += second.notes.filter { !first.notes.contains($0) }
        report.unsentAnswers += second.unsentAnswers.filter { !first.unsentAnswers.contains($0) }
        report.heldBack.merge(second.heldBack) { a, _ in a }
        report.deletionScheduling.merge(second.deletionScheduling) { a, _ in a }
        return report
    }
}
