import Foundation

/// Builds small calendar objects for tests.
enum Fixture {
    /// A VEVENT in a VCALENDAR, CRLF line ends.
    static func event(uid: String?, summary: String = "Meeting", location: String? = nil, description: String? = nil,
                      attendees: [String] = [], lastModified: String? = nil, sequence: Int? = nil,
                      prodid: String = "-//calgw tests//EN", dtstamp: String = "20260101T000000Z",
                      start: String = "20260310T100000Z") -> Data {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:\(prodid)", "BEGIN:VEVENT"]
        if let uid { lines.append("UID:\(uid)") }
        lines.append("DTSTAMP:\(dtstamp)")
        lines.append("DTSTART:\(start)")
        lines.append("DURATION:PT1H")
        lines.append("SUMMARY:\(summary)")
        if let location { lines.append("LOCATION:\(location)") }
        if let description { lines.append("DESCRIPTION:\(description)") }
        for a in attendees { lines.append("ATTENDEE:mailto:\(a)") }
        if let lastModified { lines.append("LAST-MODIFIED:\(lastModified)") }
        if let sequence { lines.append("SEQUENCE:\(sequence)") }
        lines += ["END:VEVENT", "END:VCALENDAR"]
        return Data((lines.joined(separator: "\r\n") + "\r\n").utf8)
    }

    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }
}
