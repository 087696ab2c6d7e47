import Foundation

/// Random calendars of one event series each, for tests that compare two ways of reading them:
/// every form of DTSTART (a date, floating, UTC, an IANA zone, a zone of the file's own
/// VTIMEZONE, a TZID nobody knows, floating times under X-WR-TIMEZONE), ends by DTEND, by
/// DURATION (some negative) or none, RRULEs with and without COUNT or UNTIL, RDATEs (some
/// PERIODs), EXDATEs, and overrides: moved near or far, cancelled, RANGE=THISANDFUTURE.
public struct RandomCalendar {
    /// The generator; the same seed makes the same calendars.
    public var random: SeededRandom

    /// Whether series may recur hourly, or daily without end: thousands of occurrences a year.
    public var dense: Bool

    /// Calendars drawn from `seed`; without `dense` series, no year holds more than a few
    /// hundred occurrences of one series (for tests that print them).
    public init(seed: UInt64, dense: Bool = true) {
        random = SeededRandom(seed: seed)
        self.dense = dense
    }

    /// The year of the last series' DTSTART, to aim windows near it.
    public private(set) var year = 2026

    static let zones = [
        "Europe/Berlin", "America/New_York", "Asia/Tokyo", "Pacific/Apia", "Australia/Lord_Howe", "Asia/Kathmandu",
    ]

    /// A VCALENDAR holding one series with this UID; some are meetings `attendee` (a
    /// `mailto:` address) is invited to, with one answer or another.
    public mutating func calendar(uid: String, summary: String? = nil, attendee: String? = nil) -> String {
        let form = Int.random(in: 0..<8, using: &random)
        year = pick([1996, 2003, 2019, 2024, 2025, 2026, 2026, 2027, 2031, 2150, 1850])
        let month = Int.random(in: 1...12, using: &random), day = Int.random(in: 1...28, using: &random)
        let hour = Int.random(in: 0...23, using: &random), minute = pick([0, 15, 30, 45])
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//calgw//random//EN"]
        // The value of a date-time property in DTSTART's form, and its parameters.
        let tzid: String?
        switch form {
        case 3: tzid = pick(Self.zones)
        case 4: tzid = "Island Time"
        case 5: tzid = "Nowhere/Unknown"
        default: tzid = nil
        }
        if form == 4 {
            lines += [
                "BEGIN:VTIMEZONE", "TZID:Island Time", "BEGIN:STANDARD", "DTSTART:19700101T030000",
                "TZOFFSETFROM:+0630", "TZOFFSETTO:+0530", "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD",
                "BEGIN:DAYLIGHT", "DTSTART:19700301T020000", "TZOFFSETFROM:+0530", "TZOFFSETTO:+0630",
                "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "END:DAYLIGHT", "END:VTIMEZONE",
            ]
        }
        if form == 6 { lines.append("X-WR-TIMEZONE:\(pick(Self.zones))") }
        let isDate = form == 0
        func value(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int) -> (params: String, text: String) {
            let date = String(format: "%04d%02d%02d", y, mo, d)
            if isDate { return (";VALUE=DATE", date) }
            let time = date + String(format: "T%02d%02d00", h, mi)
            if form == 2 { return ("", time + "Z") }
            if let tzid { return (";TZID=\(tzid)", time) }
            return ("", time)
        }
        let start = value(year, month, day, hour, minute)
        var master = [
            "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20260101T000000Z", "SUMMARY:\(summary ?? uid)",
            "DTSTART\(start.params):\(start.text)",
        ]
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<4:
            master.append("DURATION:\(pick(isDate ? ["P1D", "P2D", "P1W"] : ["PT30M", "PT1H", "PT25H", "P3D"]))")
        case 4: master.append("DURATION:\(pick(["-PT1H", "PT0S"]))")
        case 5..<8:
            let end = value(year, month, min(day + pick([0, 1, 3]), 28), min(hour + 1, 23), minute)
            master.append("DTEND\(end.params):\(end.text)")
        case 8:
            master.append("DTEND;TZID=\(pick(Self.zones)):\(String(format: "%04d%02d%02dT235900", year, month, day))")
        default: break
        }
        if let attendee, Int.random(in: 0..<3, using: &random) == 0 {
            master += [
                "ORGANIZER:mailto:boss@example.org",
                "ATTENDEE;PARTSTAT=\(pick(["NEEDS-ACTION", "ACCEPTED", "DECLINED", "TENTATIVE"])):\(attendee)",
            ]
            if Bool.random(using: &random) { master.append("STATUS:CANCELLED") }
        }
        var recurs = false
        if Int.random(in: 0..<10, using: &random) < 7 {
            recurs = true
            let frequency = pick(
                ["DAILY", "WEEKLY", "WEEKLY", "MONTHLY", "YEARLY", "YEARLY"] + (dense ? ["HOURLY"] : []))
            var rule = "FREQ=" + frequency
            if Bool.random(using: &random) { rule += ";INTERVAL=\(Int.random(in: 2...5, using: &random))" }
            switch Int.random(in: 0..<6, using: &random) {
            case 0: rule += ";BYDAY=" + pick(["MO,WE,FR", "SA,SU", "TU"])
            case 1: rule += ";BYMONTHDAY=" + pick(["1", "-1", "15,31", "29"])
            case 2: rule += ";BYMONTH=" + pick(["2", "3,9", "12"])
            case 3: rule += ";BYDAY=" + pick(["1MO", "-1FR", "MO,TU,WE,TH,FR;BYSETPOS=-1"])
            default: break
            }
            switch Int.random(in: 0..<3, using: &random) {
            case _ where !dense && frequency == "DAILY": rule += ";COUNT=\(pick([1, 3, 10, 40]))"
            case 0: rule += ";COUNT=\(pick([1, 3, 10, 40, 200, 5000]))"
            case 1:
                let until = value(year + pick([0, 1, 3, 12]), 12, 31, 23, 59)
                rule += ";UNTIL=" + (isDate ? until.text : until.text.hasSuffix("Z") ? until.text : until.text + "Z")
            default: break
            }
            master.append("RRULE:\(rule)")
        }
        if Int.random(in: 0..<5, using: &random) == 0 {
            recurs = true
            let r = value(year + pick([0, 1, 5]), pick([1, 6]), 10, 9, 0)
            if !isDate && Bool.random(using: &random) {
                master.append("RDATE;VALUE=PERIOD\(r.params):\(r.text)/PT2H")
            } else {
                master.append("RDATE\(r.params):\(r.text)")
            }
        }
        if recurs && Int.random(in: 0..<4, using: &random) == 0 {
            let x = value(year + pick([0, 1]), month, day, hour, minute)
            master.append("EXDATE\(x.params):\(x.text)")
        }
        master.append("END:VEVENT")
        lines += master
        // Overrides of DTSTART's instance (one every rule has) or of one later.
        if recurs {
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                let rid = value(year + pick([0, 0, 1]), month, day, hour, minute)
                let moved = value(
                    year + pick([0, 0, 0, -3, 4]), pick([month, 1, 12]), pick([day, 1]), pick([hour, 7]), minute)
                let range = Int.random(in: 0..<5, using: &random) == 0 ? ";RANGE=THISANDFUTURE" : ""
                var o = [
                    "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20260101T000000Z", "SUMMARY:\(summary ?? uid) (moved)",
                    "RECURRENCE-ID\(rid.params)\(range):\(rid.text)", "DTSTART\(moved.params):\(moved.text)",
                ]
                if Int.random(in: 0..<4, using: &random) == 0 { o.append("STATUS:CANCELLED") }
                o.append("END:VEVENT")
                lines += o
            }
        }
        lines.append("END:VCALENDAR")
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    mutating func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &random)] }
}
