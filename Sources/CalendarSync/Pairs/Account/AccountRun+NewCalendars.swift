import Failures
import Foundation
import VDir

/// Calendars new on one side: a folder for each new calendar, a calendar for each new folder.
extension AccountRun {
    /// What became of the new folders' calendars.
    struct MadeCalendars {
        /// The folders whose calendar is made (or found), mapped to it.
        var entries: [CollectionMapping.Entry] = []
        /// The folders whose calendar a dry run would make: previewed against an empty
        /// calendar (``UnmadeCalendar``), made by nobody.
        var unmade: Set<String> = []
        /// The folders the provider refused a calendar, this run or before.
        var refused: Set<String> = []
    }

    /// Copies each calendar new on the provider into a new folder, with its display name and
    /// colour, when the run writes the vdir.
    /// - Returns: the new folders' entries, to sync.
    func copyNewCalendars(
        _ new: [CollectionMapping.Entry], listing: DirectoryListing, directory: any CalendarDirectory,
        report: inout SyncReport
    ) throws -> [CollectionMapping.Entry] {
        guard policy.direction.writes(.local) else { return [] }
        for entry in new {
            let listed = listing.calendars.first { $0.href == entry.href }
            if !dryRun {
                let folder = VDirectory(url: layout.folder(entry.name))
                try folder.createIfMissing()
                try folder.setMetadata(.displayName, listed?.displayName)
                try folder.setMetadata(.color, listed?.color)
                try effects.happened()
            }
            report.notes.append(
                "new calendar \(Self.label(entry, listed)) \(directory.place): "
                    + (dryRun
                        ? "would be copied into a new folder \(entry.name)/"
                        : "copied into a new folder \(entry.name)/"))
        }
        return new
    }

    /// Makes a calendar for each folder new in the vdir, when the run writes the provider's
    /// side. A folder the provider refused before is not asked again; a folder whose calendar
    /// fails to be made waits for the next run (an error of the report), and the others go on.
    func makeCalendars(
        _ new: [CollectionMapping.Entry], directory: any CalendarDirectory, mapping: CollectionMapping,
        report: inout SyncReport
    ) async throws -> MadeCalendars {
        var made = MadeCalendars(refused: Set(mapping.refused ?? []))
        guard policy.direction.writes(.remote) else { return made }
        for entry in new {
            if let note = directory.makesNoCalendar(for: entry.name) {
                report.notes.append(note)
                continue
            }
            if made.refused.contains(entry.name) {
                report.notes.append(CalendarMaking.note(folder: entry.name, refusal: nil))
                continue
            }
            if dryRun {
                made.unmade.insert(entry.name)
                made.entries.append(entry)
                report.notes.append(
                    "new folder \(entry.name)/: a calendar would be made for it \(directory.place) (\(entry.href))")
                continue
            }
            let outcome: CalendarMaking.Outcome
            do {
                outcome = try await directory.makeCalendar(
                    for: VDirectory(url: layout.folder(entry.name)), named: entry.name, proposed: entry.href)
            } catch let error as any ExplainedError where error.kind == .failed {
                report.errors.append(
                    ReportedError("new folder \(entry.name)/: its calendar was not made: \(Self.line(error))")
                        .marked(collection: entry.name))
                continue
            }
            switch outcome {
            case .refused(let error):
                made.refused.insert(entry.name)
                report.notes.append(CalendarMaking.note(folder: entry.name, refusal: error))
            case .made(let href), .found(let href):
                try effects.happened()
                let found = if case .found = outcome { true } else { false }
                report.notes.append(
                    "new folder \(entry.name)/: "
                        + (found
                            ? "its calendar \(href) was made by an earlier request whose answer was lost; it is the folder's"
                            : "made the calendar \(href) for it \(directory.place)"))
                made.entries.append(CollectionMapping.Entry(name: entry.name, href: href))
            }
        }
        return made
    }

    /// How a message names a calendar: by its display name, else by its href.
    static func label(_ entry: CollectionMapping.Entry, _ listed: ListedCalendar?) -> String {
        guard let name = listed?.displayName, !name.isEmpty else { return entry.href.path }
        return name
    }

    /// An error's message with its hint, as a report's line holds it.
    static func line(_ error: any ExplainedError) -> String {
        error.message + (error.recovery.map { " (hint: \($0))" } ?? "")
    }
}
