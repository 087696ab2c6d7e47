import Foundation
import ICalendar
import Recurrence

/// The alarm instants of a set of .ics files in a window, ready to print (`calgw alarms`).
struct AlarmListing {
    struct Entry {
        var alarm: AlarmInstant
        /// Index into `sources`.
        var source: Int
    }

    var entries: [Entry] = []
    /// The resolver and calendar of each file with alarms.
    var sources: [(resolver: TimeZoneResolver, calendar: String?)] = []
    /// Files that could not be read or parsed, with the reason (reported on stderr).
    var problems: [(file: String, message: String)] = []

    /// Every alarm instant of `files` in [from, to), floating times and dates read in `zone`,
    /// sorted by trigger, then UID.
    /// - Parameter calendars: the calendar each file belongs to (an account pair's folder
    ///   name), shown as a column and a `calendar` key; empty for none.
    init(files: [URL], from: Int64, to: Int64, zone: any ZoneRules, calendars: [URL: String] = [:]) {
        for url in files {
            let alarms: CalendarAlarms?
            do { alarms = try AlarmFile.read(url) } catch {
                problems.append((url.path, AlarmFile.problem(error, path: url.path)))
                continue
            }
            guard let alarms else { continue }
            let source = sources.count
            sources.append((alarms.resolver, calendars[url]))
            for a in alarms.alarms(from: from, to: to, floatingZone: zone) {
                entries.append(Entry(alarm: a, source: source))
            }
        }
        entries.sort { AlarmInstant.precedes($0.alarm, $1.alarm) }
    }

    /// The JSON array of docs/cli.md.
    func records() -> [AlarmRecord] {
        entries.map {
            var record = AlarmRecord($0.alarm, resolver: sources[$0.source].resolver)
            record.calendar = sources[$0.source].calendar
            return record
        }
    }

    /// A table for people: the trigger's date and time (in `zone`), the action, the calendar
    /// when files have one, the summary and when the occurrence starts.
    func table(zone: any ZoneRules) -> [String] {
        let withCalendar = sources.contains { $0.calendar != nil }
        var rows: [[String]] = []
        for e in entries {
            let a = e.alarm
            let trigger = a.triggerValue.form == .floating ? a.triggerValue.local : zone.local(atUTC: a.trigger)
            var row = [
                trigger.date.isoString, OccurrenceListing.hm(trigger), (a.view.action ?? "-").lowercased(),
                a.component["SUMMARY"]?.text ?? "(no title)",
            ]
            if withCalendar { row.insert(sources[e.source].calendar ?? "-", at: 3) }
            row.append(Self.startText(a.occurrence, trigger: trigger, zone: zone))
            rows.append(row)
        }
        guard let columns = rows.first?.count else { return [] }
        var widths = Array(repeating: 0, count: columns - 1)
        for r in rows { for i in widths.indices { widths[i] = max(widths[i], r[i].count) } }
        return rows.map { r in
            (widths.indices.map { r[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) } + [r[columns - 1]])
                .joined(separator: "  ")
                .replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
    }

    /// When the occurrence starts, for the table: `starts 10:00`, with its date when not the
    /// trigger's (`starts 2026-03-30 10:00`), `all day 2026-03-30` for a whole day.
    static func startText(_ o: Occurrence?, trigger: LocalDateTime, zone: any ZoneRules) -> String {
        guard let o else { return "" }
        switch o.start.form {
        case .date: return "all day " + o.start.date.isoString
        case .floating:
            let s = o.start.local
            return "starts " + (s.date == trigger.date ? "" : s.date.isoString + " ") + OccurrenceListing.hm(s)
        case .utc, .zoned:
            let s = zone.local(atUTC: o.startInstant)
            return "starts " + (s.date == trigger.date ? "" : s.date.isoString + " ") + OccurrenceListing.hm(s)
        }
    }
}
