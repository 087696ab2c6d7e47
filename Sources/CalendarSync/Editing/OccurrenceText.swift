import Foundation
import ICalendar

/// How an occurrence's start is shown in messages: as it is typed on the command line.
public enum OccurrenceText {
    /// `2026-04-06T09:30` (with seconds when it has them, `Z` for UTC), or the date alone.
    public static func display(_ value: DateTimeValue) -> String {
        let d = value.local.date
        let date = String(format: "%04d-%02d-%02d", d.year, d.month, d.day)
        if value.isDate { return date }
        let t = value.local.time
        let time =
            String(format: "%@T%02d:%02d", date, t.hour, t.minute)
            + (t.second == 0 ? "" : String(format: ":%02d", t.second))
        return value.form == .utc ? time + "Z" : time
    }
}
