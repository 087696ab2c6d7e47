import CalDAV
import Foundation
import Graph
import VDir

extension GraphAccountRun {
    /// A folder gone from the vdir whose calendar Outlook still has: reported and left alone;
    /// with `--allow-collection-delete` (and a run that writes to Outlook) the calendar is
    /// deleted, unless it cannot be (the mailbox's default one, one holding meetings the
    /// account organizes, whose attendees Graph would mail).
    /// - Returns: whether the calendar was deleted (its mapping entry is then dropped).
    func deleteCalendar(
        of entry: CollectionMapping.Entry, at calendar: DiscoveredCalendar, http: HTTPClient,
        report: inout SyncReport
    ) async throws -> Bool {
        let name = calendar.displayName ?? entry.name
        let count = (try? Journal.summary(at: layout.journal(entry.name)))?.items ?? 0
        let items = "\(count) item\(count == 1 ? "" : "s") when last synced"
        guard run.options.allowCollectionDelete && run.policy.direction.writes(.remote) else {
            report.notes.append(
                "folder \(entry.name)/ is gone from the vdir; its calendar \(name) (\(items)) is left alone in "
                    + "Outlook (--allow-collection-delete deletes it; or make the folder again)")
            return false
        }
        if dryRun {
            report.notes.append(
                "folder \(entry.name)/ is gone from the vdir; its calendar \(name) (\(items)) "
                    + "would be deleted in Outlook")
            return true
        }
        do {
            try await GraphStorage.deleteCalendar(http: http, calendar: calendar.url)
        } catch let error as GraphError {
            report.errors.append(
                ReportedError(
                    "folder \(entry.name)/ is gone from the vdir, but its calendar was not deleted: "
                        + error.message + (error.recovery.map { " (hint: \($0))" } ?? "")))
            return false
        }
        try effects.happened()
        layout.forgetJournal(entry.name)
        try effects.happened()
        var part = SyncReport()
        part.deleted[.remote] = count
        report.add(part, collection: entry.name)
        report.notes.append(
            "folder \(entry.name)/ is gone from the vdir; its calendar \(name) (\(items)) was deleted in Outlook")
        return true
    }

    /// A calendar gone from Outlook whose folder the vdir still has: reported and left alone;
    /// with `--allow-collection-delete` (and a run that writes to the vdir) the folder goes too.
    /// - Returns: whether the folder was removed (its mapping entry is then dropped).
    func removeFolder(of gone: CollectionMapping.Entry, report: inout SyncReport) throws -> Bool {
        let folder = layout.folder(gone.name)
        let count = (try? VDirectory(url: folder).scan().count) ?? 0
        let items = "\(count) item\(count == 1 ? "" : "s")"
        guard run.options.allowCollectionDelete && run.policy.direction.writes(.local) else {
            report.notes.append(
                "the calendar of folder \(gone.name)/ is gone from Outlook; the folder (\(items)) is left alone "
                    + "(--allow-collection-delete removes it; or move its events to another folder)")
            return false
        }
        if !dryRun {
            try FileManager.default.removeItem(at: folder)
            try effects.happened()
            layout.forgetJournal(gone.name)
            try effects.happened()
        }
        var part = SyncReport()
        part.deleted[.local] = count
        report.add(part, collection: gone.name)
        report.notes.append(
            "the calendar of folder \(gone.name)/ is gone from Outlook; the folder (\(items)) "
                + (dryRun ? "would be removed" : "was removed"))
        return true
    }
}
