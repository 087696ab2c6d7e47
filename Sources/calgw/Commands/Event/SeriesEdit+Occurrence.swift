import CalendarSync
import ICalendar
import Recurrence

extension SeriesEdit {
    /// The resource with an override for the occurrence at `occurrence` (made from the series
    /// if it has none), and the override's index among its components.
    /// - Throws: `CLIError` when the time is not an occurrence of the series.
    static func occurrence(_ occurrence: String, of file: EventFile, uid: String, zone: String?) throws -> (
        Component, Int
    ) {
        let edit = try SeriesEdit(file: file, uid: uid, zone: zone)
        let rid = try edit.times.parse(occurrence, option: "--occurrence")
        let made = try edit.perform(on: rid) { editor, instances in
            try editor.editOccurrence(rid, span: .thisEvent, changes: EventChanges(), instances: instances, newUID: "")
        }
        var resource = made.resource ?? file.calendar
        let frame = DateTimeFrame(resolver: TimeZoneResolver(calendar: resource))
        guard
            let index = resource.components.firstIndex(where: {
                $0["UID"]?.text == uid && ($0["RECURRENCE-ID"]?.dateTime).map { frame.same($0, rid) } == true
            })
        else { throw CLIError("the occurrence at \(occurrence) could not be found in \(uid)") }
        // An exception made only to be answered or opened is no new version: it keeps the
        // series' SEQUENCE (the organizer's), as one already there keeps its own.
        let key = OrganizerChange.key(resource.components[index])
        let before =
            file.calendar.components.first { OrganizerChange.key($0) == key } ?? master(of: file.calendar, uid: uid)
        if let sequence = before?["SEQUENCE"] {
            resource.components[index].set(sequence)
        } else {
            resource.components[index].remove("SEQUENCE")
        }
        return (resource, index)
    }
}
