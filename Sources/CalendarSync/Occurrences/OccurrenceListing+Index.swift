import Foundation
import ICalendar
import Recurrence

extension OccurrenceListing {
    /// The occurrences of listed files in [from, to), as ``init(files:from:to:zone:hrefs:includeCancelled:calendars:)``
    /// gives them, with hrefs and each file's calendar.
    ///
    /// A listing with an index (``ListedFiles/index``) passes over the files the index knows
    /// unchanged and whose occurrences cannot touch the window; every other file is read and
    /// expanded as without it, and a file read for being new or changed has its reach
    /// recorded. A file that was reported on (a problem or a warning) is read every time, so
    /// that it is reported every time.
    public init(listed: [ListedFiles], from: Int64, to: Int64, zone: any ZoneRules, includeCancelled: Bool) {
        let window = ExpansionWindow(from: from, to: to, zone: zone, includeCancelled: includeCancelled)
        // A reach says nothing before the year 1: such a window reads every file.
        let readsAll = from < Series.reachFloor + 31 * 86_400
        for files in listed {
            let index = files.index
            let read = (0..<files.count).filter { i in
                guard let index, !readsAll else { return true }
                return !index.canPassOver(i, from: from, to: to)
            }
            Self.expandInOrder(
                read.count, at: { files.path(of: read[$0]) }, in: window,
                reach: { index?.isFresh(read[$0]) == false }
            ) { k, file in
                let i = read[k]
                let reported = (problems.count, warnings.count)
                add(file, href: files.name(of: i), calendar: files.calendar(of: i))
                guard let index, !index.isFresh(i) else { return }
                let quiet = problems.count == reported.0 && warnings.count == reported.1
                index.record(i, spans: quiet ? file.reach?.spans : nil)
            }
            if let index {
                indexNotes.append(index.saveAndDescribe(root: files.root, total: files.count, read: read.count))
            }
        }
        sortEntries()
    }
}
