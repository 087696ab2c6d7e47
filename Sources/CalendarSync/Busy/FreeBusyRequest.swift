import Foundation
import ICalendar

/// A free-busy request (RFC 6638 §5.2, RFC 5546 §3.3.2: a VFREEBUSY with METHOD:REQUEST naming
/// the people asked), and the busy time read from an answer's VFREEBUSY. Pure.
struct FreeBusyRequest {
    var organizer: String
    var attendees: [String]
    var from: Int64
    var to: Int64

    /// `20270310T090000Z` for an instant.
    static func utc(_ t: Int64) -> String { DateTimeValue(LocalDateTime(secondsSinceEpoch: t), form: .utc).description }

    /// The request as it is POSTed.
    var data: Data {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//calgw//free//EN", "METHOD:REQUEST", "BEGIN:VFREEBUSY",
            "UID:calgw-free-\(UUID().uuidString.lowercased())",
            "DTSTAMP:\(Self.utc(Int64(Date().timeIntervalSince1970)))",
            "DTSTART:\(Self.utc(from))", "DTEND:\(Self.utc(to))", "ORGANIZER:\(organizer)",
        ]
        lines += attendees.map { "ATTENDEE:mailto:\(CalendarUser.normalized($0))" }
        lines += ["END:VFREEBUSY", "END:VCALENDAR", ""]
        return Data(lines.joined(separator: "\r\n").utf8)
    }

    /// The busy periods of the VFREEBUSY in `text` (FREEBUSY lines but FBTYPE=FREE); nil when
    /// it holds none.
    static func intervals(in text: String) -> [FreeTime.Interval]? {
        guard let calendar = try? ICalendarParser().parse(text).calendar,
            let freeBusy = calendar.components.first(where: { $0.name == "VFREEBUSY" })
        else { return nil }
        var out: [FreeTime.Interval] = []
        for line in freeBusy.properties(named: "FREEBUSY") {
            let type = (line[parameter: "FBTYPE"] ?? "BUSY").uppercased()
            guard type != "FREE" else { continue }
            let kind = type == "BUSY-TENTATIVE" ? "tentative" : type == "BUSY-UNAVAILABLE" ? "unavailable" : "busy"
            for period in line.value.split(separator: ",") {
                let ends = period.split(separator: "/")
                guard ends.count == 2, let start = DateTimeValue(parsing: ends[0]), start.form == .utc else { continue }
                let begin = start.local.secondsSinceEpoch
                let end =
                    DateTimeValue(parsing: ends[1]).map { $0.local.secondsSinceEpoch }
                    ?? ICalDuration(parsing: String(ends[1])).map { begin + $0.approximateSeconds } ?? begin
                out.append(FreeTime.Interval(start: begin, end: end, kind: kind))
            }
        }
        return FreeTime.merged(out)
    }
}
