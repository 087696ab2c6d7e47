import Foundation
import ICalendar

extension UploadForm {
    /// `data` with `SCHEDULE-STATUS` set to `status` on the ORGANIZER of each of its events.
    static func withOrganizerStatus(_ data: Data, _ status: String) -> Data {
        withEachOrganizer(data) { $0.setParameter("SCHEDULE-STATUS", status) }
    }

    /// `data` with `change` made to the ORGANIZER of each of its events; `data` itself when it
    /// does not parse.
    static func withEachOrganizer(_ data: Data, _ change: (inout Property) -> Void) -> Data {
        guard let parsed = try? ICalendarParser().parse(data), !parsed.components.isEmpty else { return data }
        var components = parsed.components
        for i in components.indices where components[i].name == "VCALENDAR" {
            for j in components[i].components.indices {
                for k in components[i].components[j].properties.indices
                where components[i].components[j].properties[k].name == "ORGANIZER" {
                    change(&components[i].components[j].properties[k])
                }
            }
        }
        return ICalendarSerializer().data(components)
    }
}
