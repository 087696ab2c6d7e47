import Foundation
import ICalendar

extension SeriesEdit {
    /// The edit of the event `uid` of `file`, as of now.
    public init(file: EventFile, uid: String) throws {
        let now = LocalDateTime(secondsSinceEpoch: Int64(Date().timeIntervalSince1970))
        try self.init(file: file, uid: uid, now: DateTimeValue(now, form: .utc))
    }

    /// How times on the command line are read for the event `uid` of `file`: in `--tz`, else
    /// in the event's own zone (floating for floating events).
    public static func times(for file: EventFile, uid: String, zone: String?) -> TimeArgument {
        times(for: master(of: file.calendar, uid: uid)?["DTSTART"]?.dateTime, zone: zone)
    }

    /// How times on the command line are read for an event starting at `start`.
    public static func times(for start: DateTimeValue?, zone: String?) -> TimeArgument {
        if let zone { return TimeArgument(zone: zone) }
        switch start?.form {
        case .zoned(let tzid): return TimeArgument(zone: tzid)
        case .floating: return TimeArgument(zone: "floating")
        case .utc: return TimeArgument(zone: "UTC")
        default: return TimeArgument(zone: nil)
        }
    }

    /// The resource with an override for the occurrence at `occurrence` (`--occurrence`, read
    /// in the event's times), and the override's index among its components.
    public static func occurrence(_ occurrence: String, of file: EventFile, uid: String, zone: String?) throws -> (
        Component, Int
    ) {
        let edit = try SeriesEdit(file: file, uid: uid)
        let rid = try times(for: file, uid: uid, zone: zone).parse(occurrence, option: "--occurrence")
        return try edit.occurrence(rid, text: occurrence, of: file, uid: uid)
    }
}
