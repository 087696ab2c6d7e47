import Foundation
import ICalendar
import Recurrence

/// The alarm instants of a set of .ics files in a window, ready to print (`calgw alarms`).
public struct AlarmListing {
    /// One alarm instant, and the file it came from.
    public struct Entry {
        /// When the alarm goes off, and of what.
        public var alarm: AlarmInstant
        /// Index into `sources`.
        public var source: Int
    }

    /// The alarm instants, sorted by trigger, then UID.
    public var entries: [Entry] = []
    /// The resolver and calendar of each file with alarms.
    public var sources: [(resolver: TimeZoneResolver, calendar: String?)] = []
    /// Files that could not be read or parsed, with the reason (reported on stderr).
    public var problems: [(file: String, message: String)] = []
    /// Per listing read through an index, how many files it passed over (for `-v`).
    public var indexNotes: [String] = []

    /// Every alarm instant of `files` in [from, to), floating times and dates read in `zone`,
    /// sorted by trigger, then UID.
    /// - Parameter calendars: the calendar each file belongs to (an account pair's folder
    ///   name), shown as a column and a `calendar` key; empty for none.
    public init(files: [URL], from: Int64, to: Int64, zone: any ZoneRules, calendars: [URL: String] = [:]) {
        for url in files {
            let alarms: CalendarAlarms?
            do { alarms = try AlarmFile.read(url) } catch {
                problems.append((url.path, AlarmFile.problem(error, path: url.path)))
                continue
            }
            guard let alarms else { continue }
            add(alarms, from: from, to: to, zone: zone, calendar: calendars[url])
        }
        entries.sort { AlarmInstant.precedes($0.alarm, $1.alarm) }
    }

    /// Adds the alarm instants of one file's `alarms` in [from, to), unsorted.
    mutating func add(_ alarms: CalendarAlarms, from: Int64, to: Int64, zone: any ZoneRules, calendar: String?) {
        let source = sources.count
        sources.append((alarms.resolver, calendar))
        for a in alarms.alarms(from: from, to: to, floatingZone: zone) {
            entries.append(Entry(alarm: a, source: source))
        }
    }

    /// The JSON array of docs/cli.md.
    public func records() -> [AlarmRecord] {
        entries.map {
            var record = AlarmRecord($0.alarm, resolver: sources[$0.source].resolver)
            record.calendar = sources[$0.source].calendar
            return record
        }
    }
}
