import Foundation
import ICalendar

/// A task's completion, as its STATUS and COMPLETED say it.
enum TaskCompletion {
    /// True when `data` holds tasks only (VTODO, with their time zones), each done or cancelled:
    /// `STATUS:COMPLETED` or `STATUS:CANCELLED`, or a COMPLETED date. Deleting such a task is
    /// what `todo flush` does routinely, not a loss; false for anything else, and for what
    /// does not parse.
    static func isFinished(_ data: Data) -> Bool {
        guard let calendar = try? ICalendarParser().parse(data).calendar else { return false }
        let items = calendar.components.filter { $0.name != "VTIMEZONE" }
        return !items.isEmpty
            && items.allSatisfy { task in
                guard task.name == "VTODO" else { return false }
                let status = task.properties(named: "STATUS").first?.value.uppercased()
                return status == "COMPLETED" || status == "CANCELLED"
                    || (status == nil && !task.properties(named: "COMPLETED").isEmpty)
            }
    }
}
