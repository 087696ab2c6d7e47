import Foundation
import ICalendar
import Recurrence

extension AlarmListing {
    /// The alarm instants of listed files in [from, to), as ``init(files:from:to:zone:calendars:)``
    /// gives them, with each file's calendar.
    ///
    /// A listing with an index of alarms (``ListingIndex/Kind/alarms``) passes over the files
    /// the index knows unchanged whose alarms cannot go off in the window (a file without
    /// alarms never can); every other file is read as without it, and one read for being new
    /// or changed has where its alarms can go off recorded (``CalendarAlarms/reach()``). A
    /// file that could not be read or parsed is read every time, so that it is reported
    /// every time. ``indexNotes`` says, per listing, how many files the index passed over.
    public init(listed: [ListedFiles], from: Int64, to: Int64, zone: any ZoneRules) {
        // A reach says nothing before the year 1: such a window reads every file.
        let readsAll = from < Series.reachFloor + 31 * 86_400
        for files in listed {
            let index = files.index
            var read = 0
            for i in 0..<files.count {
                if let index, !readsAll, index.canPassOver(i, from: from, to: to) { continue }
                read += 1
                let url = files.url(of: i)
                let alarms: CalendarAlarms?
                do { alarms = try AlarmFile.read(url) } catch {
                    problems.append((url.path, AlarmFile.problem(error, path: url.path)))
                    if let index, !index.isFresh(i) { index.record(i, spans: nil) }
                    continue
                }
                if let index, !index.isFresh(i) { index.record(i, spans: alarms?.reach().spans ?? []) }
                guard let alarms else { continue }
                add(alarms, from: from, to: to, zone: zone, calendar: files.calendar(of: i))
            }
            if let index {
                indexNotes.append(index.saveAndDescribe(root: files.root, total: files.count, read: read))
            }
        }
        entries.sort { AlarmInstant.precedes($0.alarm, $1.alarm) }
    }
}
