import CalendarSync
import Foundation
import ICalendar
import Recurrence

/// The alarms as a table for people (`alarms` without `--json`).
extension AlarmListing {
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
            row.append(Self.startText(a.occurrence, trigger: trigger, zone: zone, due: a.isDueAnchored))
            rows.append(row)
        }
        guard let columns = rows.first?.count else { return [] }
        // Widths in the UTF-16 units `padding` counts: no cell cut short (an emoji is two).
        var widths = Array(repeating: 0, count: columns - 1)
        for r in rows { for i in widths.indices { widths[i] = max(widths[i], r[i].utf16.count) } }
        return rows.map { r in
            OccurrenceListing.trimmingTrailingSpace(
                (widths.indices.map { OccurrenceListing.padding(r[$0], to: widths[$0]) }
                    + [r[columns - 1]]).joined(separator: "  "))
        }
    }

    /// When the occurrence starts, for the table: `starts 10:00`, with its date when not the
    /// trigger's (`starts 2026-03-30 10:00`), `all day 2026-03-30` for a whole day; for a task
    /// anchored on its due time (`due`), `due 17:00` and `due 2026-03-30`.
    static func startText(_ o: Occurrence?, trigger: LocalDateTime, zone: any ZoneRules, due: Bool = false) -> String {
        guard let o else { return "" }
        let word = due ? "due " : "starts "
        switch o.start.form {
        case .date: return (due ? "due " : "all day ") + o.start.date.isoString
        case .floating:
            let s = o.start.local
            return word + (s.date == trigger.date ? "" : s.date.isoString + " ") + OccurrenceListing.hm(s)
        case .utc, .zoned:
            let s = zone.local(atUTC: o.startInstant)
            return word + (s.date == trigger.date ? "" : s.date.isoString + " ") + OccurrenceListing.hm(s)
        }
    }
}
