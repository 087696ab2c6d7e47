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
            let reading = (0..<files.count).filter { i in
                guard let index, !readsAll else { return true }
                return !index.canPassOver(i, from: from, to: to)
            }
            // Read on every core (each file alone: a long series costs more than one event),
            // then taken in listing order, as the index records them.
            let urls = reading.map(files.url(of:))
            let results = urls.mappedOnEveryCore(minimum: 2, eachAlone: true) { url in
                Result { try AlarmFile.read(url) }
            }
            for (k, i) in reading.enumerated() {
                let alarms: CalendarAlarms?
                switch results[k] {
                case .success(let read): alarms = read
                case .failure(let error):
                    problems.append((urls[k].path, AlarmFile.problem(error, path: urls[k].path)))
                    if let index, !index.isFresh(i) { index.record(i, spans: nil) }
                    continue
                }
                if let index, !index.isFresh(i) { index.record(i, spans: alarms?.reach().spans ?? []) }
                guard let alarms else { continue }
                add(alarms, from: from, to: to, zone: zone, calendar: files.calendar(of: i))
            }
            if let index {
                indexNotes.append(index.saveAndDescribe(root: files.root, total: files.count, read: reading.count))
            }
        }
        entries.sort { AlarmInstant.precedes($0.alarm, $1.alarm) }
    }
}
