import ICalendar

extension UploadForm {
    /// A task's DTSTART made the value type of its DUE where they differ: a date start with a
    /// timed due (as todoman writes `todo new --start DATE --due "DATE TIME"`) goes as a
    /// date-time at 00:00 in the due's zone (its TZID, UTC, or floating as the due is). RFC 5545
    /// §3.8.2.3 wants both of one type and sabre/dav refuses the task with 415 otherwise. The
    /// file keeps what was written; the content hash reads both forms as one item's.
    /// - Returns: whether a start was changed.
    @discardableResult
    static func mendTaskStarts(_ calendar: inout Component) -> Bool {
        var changed = false
        for index in calendar.components.indices where calendar.components[index].name == "VTODO" {
            changed = mendStart(&calendar.components[index]) || changed
        }
        return changed
    }

    /// The mend of one task (see ``mendTaskStarts(_:)``).
    private static func mendStart(_ task: inout Component) -> Bool {
        guard let due = task.properties(named: "DUE").first, due.value.contains("T"),
            let startIndex = task.properties.firstIndex(where: { $0.name == "DTSTART" })
        else { return false }
        let start = task.properties[startIndex]
        guard start.value.count == 8, start.value.allSatisfy(\.isNumber) else { return false }
        task.properties[startIndex] = Property(
            name: "DTSTART", parameters: due[parameter: "TZID"].map { [Parameter("TZID", $0)] } ?? [],
            value: start.value + "T000000" + (due.value.hasSuffix("Z") ? "Z" : ""))
        return true
    }
}
