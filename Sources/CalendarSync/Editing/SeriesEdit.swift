import Failures
import Foundation
import ICalendar
import Recurrence

/// One edit of an event's resource: the editor, the series' instances, and the errors of
/// either turned into messages for the person.
public struct SeriesEdit {
    /// The editor of the event's series.
    public let editor: SeriesEditor
    /// The series' instances, to find an occurrence (and the nearest ones when it is none).
    public let instances: SeriesExpansion

    /// The edit of the event `uid` of `file`, at `now` (LAST-MODIFIED and DTSTAMP).
    /// - Throws: the editor's error, or ``SpanEditError/noMaster(uid:)``.
    public init(file: EventFile, uid: String, now: DateTimeValue) throws {
        editor = try SeriesEditor(calendar: file.calendar, uid: uid, now: now)
        guard let expansion = SeriesExpansion(calendar: file.calendar, uid: uid) else {
            throw SpanEditError.noMaster(uid: uid)
        }
        instances = expansion
    }

    /// Runs `body` on `occurrence` (nil: the whole event), reporting span-edit errors; an
    /// occurrence that is not one gets the nearest real ones.
    public func perform(
        on occurrence: DateTimeValue?, _ body: (SeriesEditor, SeriesExpansion) throws -> SpanEditResult
    ) throws -> SpanEditResult {
        do { return try body(editor, instances) } catch let error as any ExplainedError
            where ["noSuchOccurrence", "excludedOccurrence"].contains(error.errorCode)
        {
            if let rid = occurrence {
                let near = instances.nearest(to: rid)
                let nearest = [near.before, near.after].compactMap { $0 }.map { OccurrenceText.display($0) }
                // The time as the person writes it (2027-01-05T09:00), not as the file does.
                let shown = OccurrenceText.display(rid)
                let message =
                    switch error as? SpanEditError {
                    case .noSuchOccurrence(let uid, _)?:
                        SpanEditError.noSuchOccurrence(uid: uid, recurrenceID: shown).description
                    case .excludedOccurrence(let uid, _)?:
                        SpanEditError.excludedOccurrence(uid: uid, recurrenceID: shown).description
                    default: error.message
                    }
                throw EventCommandError(
                    message,
                    recovery: nearest.isEmpty
                        ? error.recovery
                        : "the nearest occurrences start at \(nearest.joined(separator: " and "))", kind: .usage)
            }
            throw error
        }
    }

    /// The event `uid`'s master in `calendar` (its component without RECURRENCE-ID), else
    /// its first component.
    public static func master(of calendar: Component, uid: String) -> Component? {
        calendar.components.first { $0.name == "VEVENT" && $0["UID"]?.text == uid && $0["RECURRENCE-ID"] == nil }
            ?? calendar.components.first { $0.name == "VEVENT" && $0["UID"]?.text == uid }
    }

    /// The resource of `file` with an override for the occurrence at `rid` (made from the
    /// series if it has none), and the override's index among its components.
    /// - Parameter text: the occurrence as the person gave it, for the error.
    /// - Throws: ``EventCommandError`` when the time is not an occurrence of the series.
    public func occurrence(_ rid: DateTimeValue, text: String, of file: EventFile, uid: String) throws -> (
        Component, Int
    ) {
        let made = try perform(on: rid) { editor, instances in
            try editor.editOccurrence(rid, span: .thisEvent, changes: EventChanges(), instances: instances, newUID: "")
        }
        var resource = made.resource ?? file.calendar
        let frame = DateTimeFrame(resolver: TimeZoneResolver(calendar: resource))
        guard
            let index = resource.components.firstIndex(where: {
                $0["UID"]?.text == uid && ($0["RECURRENCE-ID"]?.dateTime).map { frame.same($0, rid) } == true
            })
        else { throw EventCommandError("the occurrence at \(text) could not be found in \(uid)") }
        // An exception made only to be answered or opened is no new version: it keeps the
        // series' SEQUENCE (the organizer's), as one already there keeps its own.
        let key = OrganizerChange.key(resource.components[index])
        let before =
            file.calendar.components.first { OrganizerChange.key($0) == key }
            ?? Self.master(of: file.calendar, uid: uid)
        if let sequence = before?["SEQUENCE"] {
            resource.components[index].set(sequence)
        } else {
            resource.components[index].remove("SEQUENCE")
        }
        return (resource, index)
    }
}
