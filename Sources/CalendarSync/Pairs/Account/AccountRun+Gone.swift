import Failures
import Foundation
import VDir

extension AccountRun {
    /// Calendars gone from one side since the last run. By default each is reported with what
    /// it held and left alone on the other side; with `--allow-collection-delete` (and a
    /// direction that writes that side) the other side's copy is deleted too: the folder with
    /// its events, or the calendar with its items. A calendar the provider will not delete is
    /// an error of the report, and stays mapped.
    /// - Returns: the entries deleted (to be dropped from the mapping).
    func handleGone(
        _ plan: CollectionPlan, directory: any CalendarDirectory, listing: DirectoryListing,
        report: inout SyncReport, parts: inout [String: SyncReport]
    ) async throws -> Set<CollectionMapping.Entry> {
        var removed: Set<CollectionMapping.Entry> = []
        /// Counts a calendar's deletion on `side` in the run's report and its own, and says so.
        func recordRemoval(of gone: CollectionMapping.Entry, on side: Side, count: Int, message: String) {
            var part = SyncReport()
            part.dryRun = dryRun
            part.deleted[side] = count
            report.add(part, collection: gone.name)
            report.skipped.append(message)
            parts[gone.name] = part
            removed.insert(gone)
        }
        for gone in plan.goneRemote where wanted(gone.name) {
            let count = Self.itemCount(in: layout.folder(gone.name))
            let what =
                "calendar \(gone.href) is gone from \(directory.provider); its folder \(gone.name)/ (\(Self.items(count)))"
            guard allowCollectionDelete && policy.direction.writes(.local) else {
                let hint = policy.direction.writes(.local) ? " (--allow-collection-delete removes it)" : ""
                report.skipped.append(what + " is left as it is" + hint)
                continue
            }
            if !dryRun {
                try FileManager.default.removeItem(at: layout.folder(gone.name))
                try effects.happened()
                forgetJournal(gone.name)
                try effects.happened()
            }
            recordRemoval(
                of: gone, on: .local, count: count, message: what + (dryRun ? " would be removed" : " was removed"))
        }
        for gone in plan.goneLocal where wanted(gone.name) {
            let count = journalItemCount(gone.name)
            let listed = listing.calendars.first { $0.href == gone.href }
            let what =
                "folder \(gone.name)/ is gone from the vdir; its calendar \(Self.label(gone, listed)) "
                + "(\(Self.items(count)) when last synced)"
            guard allowCollectionDelete && policy.direction.writes(.remote) else {
                let hint = policy.direction.writes(.remote) ? " (--allow-collection-delete deletes it)" : ""
                report.skipped.append(what + " is left as it is \(directory.place)" + hint)
                continue
            }
            if !dryRun {
                do {
                    try await directory.deleteCalendar(gone.href)
                } catch let error as any ExplainedError where error.kind == .failed {
                    report.errors.append(ReportedError(what + " was not deleted: " + Self.line(error)))
                    continue
                }
                try effects.happened()
                forgetJournal(gone.name)
                try effects.happened()
            }
            recordRemoval(
                of: gone, on: .remote, count: count,
                message: what + (dryRun ? " would be deleted " : " was deleted ") + directory.place)
        }
        return removed
    }

    /// "1 item", "2 items".
    static func items(_ count: Int) -> String { "\(count) item\(count == 1 ? "" : "s")" }

    /// The items of a folder, as its listing counts them.
    static func itemCount(in folder: URL) -> Int {
        (try? VDirectory(url: folder).scan().count) ?? 0
    }

    /// How many items a collection's journal knows (0 without a journal), read without
    /// writing anything (a dry run and `status` ask it too).
    func journalItemCount(_ name: String) -> Int {
        (try? Journal.summary(at: journalURL(name)))?.items ?? 0
    }

    /// Removes a collection's journal (and its lock and SQLite side files).
    func forgetJournal(_ name: String) { layout.forgetJournal(name) }
}
