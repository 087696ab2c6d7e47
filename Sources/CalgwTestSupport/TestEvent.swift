import Foundation

/// The calendar object tests write: one VEVENT in a VCALENDAR, CRLF line ends, with the
/// properties a test cares about and nothing else. The one builder of test events, so that a
/// test says what its event is, not how iCalendar is spelled.
///
/// ```swift
/// storage.put("a.ics", TestEvent.data(uid: "a", summary: "v1"))
/// TestEvent.ics(uid: "b", summary: "Review", start: "20270301T100000Z", duration: "PT1H", extra: ["RRULE:FREQ=WEEKLY"])
/// ```
public enum TestEvent {
    /// The properties are written in this order: PRODID; UID, DTSTAMP, DTSTART, DTEND, DURATION,
    /// SUMMARY, LAST-MODIFIED, LOCATION, then `extra`.
    /// - Parameters:
    ///   - uid: nil for a hand-written file without a UID.
    ///   - summary: SUMMARY (`Meeting` when the test does not care).
    ///   - start: DTSTART as written (UTC by default).
    ///   - end: DTEND as written, or `duration` (DURATION); neither: none.
    ///   - location: LOCATION, when given.
    ///   - prodid: the calendar's PRODID; a test of what a server's restamping changes sets it.
    ///   - dtstamp: DTSTAMP as written; likewise.
    ///   - extra: more property lines, as written (`DESCRIPTION:Notes`, `RRULE:FREQ=DAILY`).
    public static func ics(
        uid: String?, summary: String = "Meeting", start: String = "20260310T100000Z", end: String? = nil,
        duration: String? = nil, lastModified: String? = nil, location: String? = nil,
        prodid: String = "-//calgw//tests//EN", dtstamp: String = "20260101T000000Z",
        extra: [String] = []
    ) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:\(prodid)", "BEGIN:VEVENT"]
        if let uid { lines.append("UID:\(uid)") }
        lines += ["DTSTAMP:\(dtstamp)", "DTSTART:\(start)"]
        if let end { lines.append("DTEND:\(end)") }
        if let duration { lines.append("DURATION:\(duration)") }
        lines.append("SUMMARY:\(summary)")
        if let lastModified { lines.append("LAST-MODIFIED:\(lastModified)") }
        if let location { lines.append("LOCATION:\(location)") }
        lines += extra + ["END:VEVENT", "END:VCALENDAR"]
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// ``ics(uid:summary:start:end:duration:lastModified:location:prodid:dtstamp:extra:)`` as
    /// UTF-8 bytes.
    public static func data(
        uid: String?, summary: String = "Meeting", start: String = "20260310T100000Z", end: String? = nil,
        duration: String? = nil, lastModified: String? = nil, location: String? = nil,
        prodid: String = "-//calgw//tests//EN", dtstamp: String = "20260101T000000Z",
        extra: [String] = []
    ) -> Data {
        Data(
            ics(
                uid: uid, summary: summary, start: start, end: end, duration: duration, lastModified: lastModified,
                location: location, prodid: prodid, dtstamp: dtstamp, extra: extra
            ).utf8)
    }

    /// A UID no other test run uses, `STEM-<uuid>`: Cyrus wants UIDs unique per user across
    /// all of a user's calendars, and the servers are shared by every test of a run.
    public static func uniqueUID(_ stem: String = "ev") -> String { "\(stem)-\(UUID().uuidString.lowercased())" }

    /// A VTIMEZONE of Central European time (+01:00, +02:00 from the last Sunday of March to the
    /// last Sunday of October), as exports carry it, CRLF line ends, under `tzid`.
    public static func centralEuropeanZone(tzid: String = "Europe/Berlin") -> String {
        [
            "BEGIN:VTIMEZONE", "TZID:\(tzid)",
            "BEGIN:STANDARD", "DTSTART:19701025T030000", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100",
            "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD",
            "BEGIN:DAYLIGHT", "DTSTART:19700329T020000", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200",
            "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "END:DAYLIGHT", "END:VTIMEZONE",
        ].joined(separator: "\r\n") + "\r\n"
    }
}
