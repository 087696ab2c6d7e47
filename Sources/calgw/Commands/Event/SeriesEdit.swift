import CalendarSync
import Failures
import Foundation
import ICalendar
import Recurrence

/// One edit of an event's resource: the editor, the series' instances, and the errors of
/// either turned into messages for the person.
struct SeriesEdit {
    let editor: SeriesEditor
    let instances: SeriesExpansion
    /// How times on the command line are read for this event: in `--tz`, else in the
    /// event's own zone (floating for floating events).
    let times: TimeArgument

    init(file: EventFile, uid: String, zone: String?) throws {
        editor = try SeriesEditor(calendar: file.calendar, uid: uid, now: EventTarget.now())
        guard let expansion = SeriesExpansion(calendar: file.calendar, uid: uid) else {
            throw SpanEditError.noMaster(uid: uid)
        }
        instances = expansion
        times = Self.times(for: Self.master(of: file.calendar, uid: uid)?["DTSTART"]?.dateTime, zone: zone)
    }

    /// Runs `body` on `occurrence` (nil: the whole event), reporting span-edit errors; an
    /// occurrence that is not one gets the nearest real ones.
    func perform(on occurrence: DateTimeValue?, _ body: (SeriesEditor, SeriesExpansion) throws -> SpanEditResult) throws
        -> SpanEditResult
    {
        do { return try body(editor, instances) } catch let error as any ExplainedError
            where ["noSuchOccurrence", "excludedOccurrence"].contains(error.errorCode)
        {
            if let rid = occurrence {
                let near = instances.nearest(to: rid)
                let nearest = [near.before, near.after].compactMap { $0 }.map { OccurrenceText.display($0) }
                throw CLIError(
                    error.message,
                    hint: nearest.isEmpty
                        ? error.recovery
                        : "the nearest occurrences start at \(nearest.joined(separator: " and "))", status: .usage)
            }
            throw error
        }
    }

    static func master(of calendar: Component, uid: String) -> Component? {
        calendar.components.first { $0.name == "VEVENT" && $0["UID"]?.text == uid && $0["RECURRENCE-ID"] == nil }
            ?? calendar.components.first { $0.name == "VEVENT" && $0["UID"]?.text == uid }
    }

    static func times(for start: DateTimeValue?, zone: String?) -> TimeArgument {
        if let zone { return TimeArgument(zone: zone) }
        switch start?.form {
        case .zoned(let tzid): return TimeArgument(zone: tzid)
        case .floating: return TimeArgument(zone: "floating")
        case .utc: return TimeArgument(zone: "UTC")
        default: return TimeArgument(zone: nil)
        }
    }
}

/// How an occurrence's start is shown in messages: as it is typed on the command line.
enum OccurrenceText {
    static func display(_ value: DateTimeValue) -> String {
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
