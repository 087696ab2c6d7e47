/// What calendars as other programs write them carry, and how calgw reads it: several versions
/// of one event, a declared zone it cannot use, RDATE and EXDATE of another value type than
/// DTSTART. Each message names the problem and the reading, so nothing is dropped unsaid.
struct ReadingChecks {
    let resolver: TimeZoneResolver

    /// The checks on a VCALENDAR's members.
    func checkCalendar(_ calendar: Component, into problems: inout [LintProblem]) {
        checkVersions(calendar, into: &problems)
        if let tzid = DeclaredCalendarZone.identifier(of: calendar), resolver.zone(for: tzid) == nil,
            let p = calendar["X-WR-TIMEZONE"]
        {
            problems.append(
                .init(
                    line: p.line, severity: .warning,
                    message: "X-WR-TIMEZONE \"\(tzid)\" is not a known zone: floating times stay floating"))
        }
    }

    /// Two or more components with one UID and one RECURRENCE-ID (or none) are versions of one
    /// event (or of one changed instance): calgw reads the newest and syncs the file as it is.
    private func checkVersions(_ calendar: Component, into problems: inout [LintProblem]) {
        var groups: [String: [Component]] = [:]
        var order: [String] = []
        for c in calendar.components where c.name == "VEVENT" || c.name == "VTODO" || c.name == "VJOURNAL" {
            guard let uid = c["UID"]?.text else { continue }
            let key = c.name + "\u{0}" + uid + "\u{0}" + (c["RECURRENCE-ID"]?.value ?? "")
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(c)
        }
        for key in order {
            guard let versions = groups[key], versions.count > 1, let newest = EventVersion.newest(of: versions) else {
                continue
            }
            let current = versions[newest]
            let what = current["RECURRENCE-ID"].map { "the change of \($0.value) of " } ?? ""
            let uid = current["UID"]?.text ?? ""
            for (i, c) in versions.enumerated() where i != newest {
                problems.append(
                    .init(
                        line: c.line, severity: .warning,
                        message:
                            "\(versions.count) versions of \(what)UID \(uid) in one calendar: this one is older than the one of line "
                            + "\(current.line) (SEQUENCE \(EventVersion(current).sequence), then DTSTAMP, then LAST-MODIFIED decide, "
                            + "RFC 5546 §2.1.5); calgw reads the newest, as recurring-ical-events does, and syncs the file as it is"
                    ))
            }
        }
    }

    /// DTEND (or DUE) of another type than DTSTART, which RFC 5545 forbids (§3.8.2.2): an
    /// error that names the reading: the DATE is read as midnight of its day in the other's
    /// form, so a DATE DTSTART with a UTC DTEND is an event from 00:00 UTC, not an all-day one.
    func checkMixedEnd(
        _ endProperty: Property, end: DateTimeValue, start: DateTimeValue, into problems: inout [LintProblem]
    ) {
        let reading: String
        if start.isDate {
            reading =
                "calgw starts the event at 00:00 of its day \(Self.clockName(of: end.form))"
                + " (a timed event, not an all-day one)"
        } else {
            reading = "calgw ends the event at 00:00 of that day \(Self.clockName(of: start.form))"
        }
        let kind = { (v: DateTimeValue) in v.isDate ? "DATE" : "DATE-TIME" }
        problems.append(
            .init(
                line: endProperty.line, severity: .error,
                message:
                    "\(endProperty.name) is a \(kind(end)) but DTSTART is a \(kind(start)), which RFC 5545 forbids: "
                    + "\(reading), as recurring-ical-events does"
            ))
    }

    /// Whose clock a time of `form` is read on, for a message: `in UTC`, `in Europe/Berlin`,
    /// `in floating time`.
    static func clockName(of form: DateTimeValue.Form) -> String {
        switch form {
        case .utc: return "in UTC"
        case .zoned(let tzid): return "in \(tzid)"
        case .floating, .date: return "in floating time"
        }
    }

    /// RDATE and EXDATE values of another type than DTSTART (DATE against DATE-TIME).
    func checkRecurrenceValueTypes(_ c: Component, start: DateTimeValue, into problems: inout [LintProblem]) {
        for p in c.properties where p.name == "RDATE" || p.name == "EXDATE" {
            guard p[parameter: "VALUE"]?.uppercased() != "PERIOD" else { continue }
            let values = p.dateTimes
            if !start.isDate, values.contains(where: \.isDate) {
                let reading =
                    p.name == "RDATE"
                    ? "calgw adds an occurrence at midnight of that day in DTSTART's zone"
                    : "calgw removes every occurrence on that day"
                problems.append(
                    .init(
                        line: p.line, severity: .warning,
                        message:
                            "\(p.name) is a DATE but DTSTART is a DATE-TIME: \(reading), as recurring-ical-events does")
                )
            } else if start.isDate, values.contains(where: { !$0.isDate }) {
                let reading: String
                if p.name == "RDATE" {
                    reading = "calgw adds the whole day of its date"
                } else if values.contains(where: { !$0.isDate && $0.local.time != .midnight }) {
                    reading = "calgw removes the day of a midnight time and nothing for any other time"
                } else {
                    reading = "calgw removes the day of its date"
                }
                problems.append(
                    .init(
                        line: p.line, severity: .warning,
                        message:
                            "\(p.name) is a DATE-TIME but DTSTART is a DATE: \(reading), as recurring-ical-events does")
                )
            }
        }
    }
}
