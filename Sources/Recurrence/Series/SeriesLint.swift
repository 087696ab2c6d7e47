import ICalendar

/// What `lint` says about a calendar that only its expanded series tell: overrides left out as
/// changes to an older version of their series (``Series/outdatedOverrides(floatingZone:)``).
/// Given to ``Linter`` as one of its `calendarChecks`.
///
/// ```swift
/// let problems = Linter(calendarChecks: [SeriesLint.problems(in:)]).lint(data)
/// ```
public enum SeriesLint {
    /// A warning at the RECURRENCE-ID of each override a listing leaves out as a change to an
    /// older version, naming the master it is no instance of and the reading.
    /// - Parameter calendar: a VCALENDAR (or a bare VEVENT), its X-WR-TIMEZONE applied as
    ///   `expand` and `list` apply it.
    public static func problems(in calendar: Component) -> [LintProblem] {
        // Only an override with rules of its own can be one: most files are done here.
        let members = calendar.name == "VCALENDAR" ? calendar.components : [calendar]
        guard members.contains(where: { $0["RECURRENCE-ID"] != nil && Series.carriesRules($0) }) else { return [] }
        let expansion = CalendarExpansion(calendar: DeclaredCalendarZone.applied(to: calendar))
        var problems: [LintProblem] = []
        for series in expansion.series {
            guard let master = series.master else { continue }
            for o in series.outdatedOverrides() {
                guard let rid = o["RECURRENCE-ID"] else { continue }
                let rules = ["RRULE", "RDATE", "EXDATE"].filter { o[$0] != nil }.joined(separator: ", ")
                problems.append(
                    LintProblem(
                        line: rid.line, severity: .warning,
                        message:
                            "RECURRENCE-ID \(rid.value) of UID \(series.uid) is no instance of the series of line "
                            + "\(master.line) (\(sequence(master))), and this change (\(sequence(o))) carries its own "
                            + "\(rules): it changes an older version of the series; calgw leaves it out, "
                            + "as recurring-ical-events does"))
            }
        }
        return problems
    }

    private static func sequence(_ c: Component) -> String {
        c["SEQUENCE"].map { "SEQUENCE \($0.value)" } ?? "no SEQUENCE"
    }
}
