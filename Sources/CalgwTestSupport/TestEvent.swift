import Foundation

/// The calendar object tests write: one VEVENT in a VCALENDAR, CRLF line ends, with the
/// properties a test cares about and nothing else. The one builder of test events, so that a
/// test says what its event is, not how iCalendar is spelled.
public enum TestEvent {
    /// - Parameters:
    ///   - uid: nil for a hand-written file without a UID.
    ///   - start: DTSTART as written (UTC by default).
    ///   - end: DTEND as written, or `duration` (DURATION); neither: none.
    ///   - extra: more property lines, as written (`LOCATION:Room 1`, `RRULE:FREQ=DAILY`).
    public static func ics(uid: String?, summary: String, start: String = "20260310T100000Z", end: String? = nil,
                           duration: String? = nil, lastModified: String? = nil, extra: [String] = []) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//calgw//tests//EN", "BEGIN:VEVENT"]
        if let uid { lines.append("UID:\(uid)") }
        lines += ["DTSTAMP:20260101T000000Z", "DTSTART:\(start)"]
        if let end { lines.append("DTEND:\(end)") }
        if let duration { lines.append("DURATION:\(duration)") }
        lines.append("SUMMARY:\(summary)")
        if let lastModified { lines.append("LAST-MODIFIED:\(lastModified)") }
        lines += extra + ["END:VEVENT", "END:VCALENDAR"]
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// ``ics(uid:summary:start:end:duration:lastModified:extra:)`` as UTF-8 bytes.
    public static func data(uid: String?, summary: String, start: String = "20260310T100000Z", end: String? = nil,
                            duration: String? = nil, lastModified: String? = nil, extra: [String] = []) -> Data {
        Data(ics(uid: uid, summary: summary, start: start, end: end, duration: duration, lastModified: lastModified, extra: extra).utf8)
    }

    /// A VTIMEZONE of Central European time (+01:00, +02:00 from the last Sunday of March to the
    /// last Sunday of October), as exports carry it, CRLF line ends, under `tzid`.
    public static func centralEuropeanZone(tzid: String = "Europe/Berlin") -> String {
        ["BEGIN:VTIMEZONE", "TZID:\(tzid)",
         "BEGIN:STANDARD", "DTSTART:19701025T030000", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100",
         "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD",
         "BEGIN:DAYLIGHT", "DTSTART:19700329T020000", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200",
         "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "END:DAYLIGHT", "END:VTIMEZONE"].joined(separator: "\r\n") + "\r\n"
    }
}
