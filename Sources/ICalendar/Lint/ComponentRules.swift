/// The per-component rules of RFC 5545 §3.6–3.8 that calgw checks.
struct ComponentRules {
    let resolver: TimeZoneResolver

    func check(_ c: Component, into problems: inout [LintProblem]) {
        checkProperties(of: c, into: &problems)
        switch c.name {
        case "VCALENDAR":
            if c["VERSION"] == nil {
                problems.append(.init(line: c.line, severity: .error, message: "VCALENDAR has no VERSION"))
            }
            if c["PRODID"] == nil {
                problems.append(
                    .init(
                        line: c.line, severity: .warning,
                        message: "VCALENDAR has no PRODID (calgw adds one when uploading)"))
            }
            checkUIDsAreOneObject(c, into: &problems)
            checkTimeZonesAreDefined(c, into: &problems)
            ReadingChecks(resolver: resolver).checkCalendar(c, into: &problems)
        case "VEVENT", "VTODO", "VJOURNAL":
            checkSchedulable(c, into: &problems)
        case "VALARM":
            if c["ACTION"] == nil {
                problems.append(.init(line: c.line, severity: .error, message: "VALARM has no ACTION"))
            }
            if c["TRIGGER"] == nil {
                problems.append(.init(line: c.line, severity: .error, message: "VALARM has no TRIGGER"))
            }
        case "VTIMEZONE":
            if c["TZID"] == nil {
                problems.append(.init(line: c.line, severity: .error, message: "VTIMEZONE has no TZID"))
            }
            if !c.components.contains(where: { $0.name == "STANDARD" || $0.name == "DAYLIGHT" }) {
                problems.append(
                    .init(line: c.line, severity: .error, message: "VTIMEZONE has neither STANDARD nor DAYLIGHT"))
            }
        case "STANDARD", "DAYLIGHT":
            for name in ["DTSTART", "TZOFFSETFROM", "TZOFFSETTO"] where c[name] == nil {
                problems.append(.init(line: c.line, severity: .error, message: "\(c.name) has no \(name)"))
            }
        default:
            break
        }
        for child in c.components { check(child, into: &problems) }
    }

    private func checkProperties(of c: Component, into problems: inout [LintProblem]) {
        var seen = Set<String>()
        for p in c.properties {
            if ValueType.isSingleValued(p.name) && !seen.insert(p.name).inserted {
                problems.append(
                    .init(line: p.line, severity: .warning, message: "\(p.name) appears more than once in \(c.name)"))
            }
            if let tzid = p.tzid, resolver.zone(for: tzid) == nil {
                problems.append(
                    .init(
                        line: p.line, severity: .error,
                        message:
                            "\(p.name) has TZID \"\(tzid)\", which is neither a known zone nor defined by a VTIMEZONE",
                        kind: .unknownZone))
            }
            if let bad = p.parameters.first(where: { !Self.isParameterName($0.name) }) {
                problems.append(
                    .init(
                        line: p.line, severity: .error,
                        message:
                            "\(p.name) has a parameter named \"\(bad.name)\", which is no parameter name (RFC 5545 §3.1: "
                            + "letters, digits and '-'); servers refuse the line", kind: .parameterName))
            }
            guard let type = p.valueType else {
                if let v = p[parameter: "VALUE"] {
                    problems.append(
                        .init(line: p.line, severity: .warning, message: "\(p.name) has unknown VALUE=\(v)"))
                }
                continue
            }
            if type == .dateTime && p[parameter: "VALUE"] == nil,
                p.value.split(separator: ",").contains(where: { DateTimeValue(parsing: $0)?.isDate == true })
            {
                problems.append(
                    .init(line: p.line, severity: .warning, message: "\(p.name) holds a DATE without VALUE=DATE"))
                continue
            }
            if let problem = ValueChecker.problem(with: p.value, as: type, tzid: p.tzid) {
                var message = "\(p.name): \(problem)"
                if type == .recur, let count = RecurrenceRule.negativeCount(in: p.value),
                    RecurrenceRule.reading(p.value) != nil
                {
                    message =
                        "\(p.name): COUNT=\(count) is negative: calgw ignores the COUNT and repeats the rule without end, as recurring-ical-events does"
                }
                problems.append(.init(line: p.line, severity: .error, message: message, kind: .invalidValue(type)))
            }
            if type == .recur, let rule = try? p.recurrenceRule() {
                for v in rule.rfcViolations {
                    problems.append(.init(line: p.line, severity: .warning, message: "RRULE: \(v)"))
                }
            }
        }
    }

    /// An iana-token or x-name (RFC 5545 §3.1): ASCII letters, digits and `-`, at least one.
    static func isParameterName(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy {
                ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D
            }
    }

    private func checkSchedulable(_ c: Component, into problems: inout [LintProblem]) {
        let line = c.line
        if c["UID"] == nil { problems.append(.init(line: line, severity: .error, message: "\(c.name) has no UID")) }
        if c["DTSTAMP"] == nil {
            problems.append(
                .init(
                    line: line, severity: .warning, message: "\(c.name) has no DTSTAMP (calgw adds one when uploading)")
            )
        }
        let endName = c.name == "VTODO" ? "DUE" : "DTEND"
        guard let startProperty = c["DTSTART"] else {
            if c.name == "VEVENT" {
                problems.append(.init(line: line, severity: .error, message: "VEVENT has no DTSTART"))
            }
            return
        }
        if c[endName] != nil && c["DURATION"] != nil {
            problems.append(
                .init(line: c[endName]!.line, severity: .error, message: "\(c.name) has both \(endName) and DURATION"))
        }
        guard let start = startProperty.dateTime else { return }
        ReadingChecks(resolver: resolver).checkRecurrenceValueTypes(c, start: start, into: &problems)
        guard let endProperty = c[endName], let end = endProperty.dateTime else { return }
        if start.isDate != end.isDate {
            ReadingChecks(resolver: resolver).checkMixedEnd(endProperty, end: end, start: start, into: &problems)
            return
        }
        if let s = instant(start), let e = instant(end), e < s {
            problems.append(
                .init(
                    line: endProperty.line, severity: .error,
                    message: "\(endName) \(end) is before DTSTART \(start): "
                        + "calgw shows the event from the earlier time to the later, as recurring-ical-events does",
                    kind: .endBeforeStart))
        }
    }

    /// Several UIDs in one VCALENDAR is fine for a file of many events, but not for one vdir item.
    private func checkUIDsAreOneObject(_ c: Component, into problems: inout [LintProblem]) {
        let uids = Set(c.components.compactMap { $0["UID"]?.text })
        if uids.count > 1 {
            problems.append(
                .init(
                    line: c.line, severity: .warning,
                    message: "\(uids.count) different UIDs in one calendar: a vdir item should hold one calendar object"
                ))
        }
    }

    /// RFC 5545 §3.2.19 wants a VTIMEZONE for every TZID; one warning per zone that calgw knows
    /// but the file does not define (unknown zones are errors at each use, above).
    private func checkTimeZonesAreDefined(_ c: Component, into problems: inout [LintProblem]) {
        for (tzid, property) in TimeZoneCompletion.undefinedTZIDs(in: c) {
            guard let iana = TimeZoneResolver.ianaIdentifier(for: tzid) else { continue }
            let upload =
                iana == tzid ? "calgw adds one when uploading" : "calgw uploads it as \(iana), with a VTIMEZONE"
            problems.append(
                .init(
                    line: property.line, severity: .warning,
                    message: "TZID \"\(tzid)\" has no VTIMEZONE in this file (\(upload))"))
        }
    }

    /// Seconds for comparing start and end; floating and unresolved times compare on the wall clock.
    private func instant(_ v: DateTimeValue) -> Int64? {
        switch v.form {
        case .date, .floating, .utc: return v.local.secondsSinceEpoch
        case .zoned(let tzid): return (resolver.zone(for: tzid)?.utc(forLocal: v.local)) ?? v.local.secondsSinceEpoch
        }
    }
}
