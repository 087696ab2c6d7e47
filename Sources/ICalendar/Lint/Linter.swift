import Foundation

/// Checks calendar data against RFC 5545 (and what calgw needs to sync it) and reports each
/// problem at its line, so one run shows every problem in a file. Broken structure is reported
/// at each place it breaks (see `StructureChecks`); the checks of the components themselves
/// run only on a file whose structure is sound, or broken only by misspelled ENDs.
public struct Linter: Sendable {
    /// Checks of a calendar that need more than this module knows (its series expanded:
    /// `SeriesLint` of the Recurrence module), run on each top-level component of a file that
    /// can be read; none by default.
    public var calendarChecks: [@Sendable (Component) -> [LintProblem]]

    /// A linter with the checks of this module, and `calendarChecks` besides.
    public init(calendarChecks: [@Sendable (Component) -> [LintProblem]] = []) {
        self.calendarChecks = calendarChecks
    }

    /// The problems in `data`, sorted by line.
    ///
    /// A file whose only broken structure is misspelled ENDs (`END:VTOOD` closing a VTODO) is
    /// read past them as `expand` and `list` read it: each is an error, and the rest of the
    /// file is checked as any other.
    public func lint(_ data: Data) -> [LintProblem] {
        var problems = RawTextChecks.problems(in: data)
        let parsed: ParsedCalendar
        do {
            parsed = try ICalendarParser().parse(data)
        } catch let error as ICalendarSyntaxError {
            guard let readPast = try? ICalendarParser(readsPastMisspelledEnds: true).parse(data) else {
                let first = LintProblem(line: error.line, severity: .error, message: error.reason)
                var structural = StructureChecks.problems(in: data)
                if !structural.contains(first) { structural.append(first) }
                return (structural + problems).sorted { ($0.line, $1.severity) < ($1.line, $0.severity) }
            }
            parsed = readPast
            problems += readPast.readPast.map(Self.misspelledEnd)
        } catch {
            return [LintProblem(line: 0, severity: .error, message: "\(error)")]
        }
        problems += parsed.warnings.map { LintProblem(line: $0.line, severity: .warning, message: $0.message) }
        if parsed.components.isEmpty {
            problems.append(
                LintProblem(line: 0, severity: .error, message: "no calendar data (expected BEGIN:VCALENDAR)"))
        }
        for root in parsed.components where root.name != "VCALENDAR" {
            problems.append(
                LintProblem(
                    line: root.line, severity: .warning, message: "top-level \(root.name) is not inside a VCALENDAR"))
        }
        problems += ruleProblems(in: parsed)
        return problems.sorted { ($0.line, $1.severity) < ($1.line, $0.severity) }
    }

    /// A misspelled END, with how `expand` and `list` read it. An error all the same: sync
    /// holds such a file back (its parse refuses it), so that a damaged file is never taken
    /// for a sound one.
    static func misspelledEnd(_ error: ICalendarSyntaxError) -> LintProblem {
        LintProblem(
            line: error.line, severity: .error,
            message: error.reason + ": expand and list read it as the END of that component and read on, "
                + "as recurring-ical-events does; sync holds the file back until the line is fixed")
    }

    /// What the component rules find in a calendar already parsed (property values, an end
    /// before its start, recurrence rules), and `calendarChecks`, sorted by line: the checks
    /// of `lint` that need the tree and not the bytes, for a caller that has parsed the data
    /// anyway.
    public func ruleProblems(in parsed: ParsedCalendar) -> [LintProblem] {
        var problems: [LintProblem] = []
        for root in parsed.components {
            ComponentRules(resolver: TimeZoneResolver(calendar: root)).check(root, into: &problems)
            for check in calendarChecks { problems += check(root) }
        }
        return problems.sorted { ($0.line, $1.severity) < ($1.line, $0.severity) }
    }
}

/// Checks on the bytes as written: line ends and line length (RFC 5545 §3.1).
enum RawTextChecks {
    static func problems(in data: Data) -> [LintProblem] {
        var problems: [LintProblem] = []
        var line = 1, length = 0
        var reportedLF = false, reportedLong = false
        var previous: UInt8 = 0
        for byte in data {
            if byte == 0x0A {
                if previous != 0x0D && !reportedLF {
                    problems.append(
                        LintProblem(
                            line: line, severity: .warning,
                            message: "line ends with LF instead of CRLF (calgw fmt fixes this)"))
                    reportedLF = true
                }
                line += 1
                length = 0
            } else if byte != 0x0D {
                length += 1
                if length == 76 && !reportedLong {
                    problems.append(
                        LintProblem(
                            line: line, severity: .warning,
                            message: "line longer than 75 octets is not folded (calgw fmt fixes this)"))
                    reportedLong = true
                }
            }
            previous = byte
        }
        return problems
    }
}
