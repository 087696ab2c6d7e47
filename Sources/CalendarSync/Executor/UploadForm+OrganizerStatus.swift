import Foundation
import ICalendar

extension UploadForm {
    /// `data` with `SCHEDULE-STATUS` set to `status` on the ORGANIZER of each of its events.
    static func withOrganizerStatus(_ data: Data, _ status: String) -> Data {
        guard let parsed = try? ICalendarParser().parse(data), !parsed.components.isEmpty else { return data }
        var components = parsed.components
        for i in components.indices where components[i].name == "VCALENDAR" {
            for j in components[i].components.indices {
                for k in components[i].components[j].properties.indices
                where components[i].components[j].properties[k].name == "ORGANIZER" {
                    components[i].components[j].properties[k].setParameter("SCHEDULE-STATUS", status)
                }
            }
        }
        return ICalendarSerializer().data(components)
    }
}
