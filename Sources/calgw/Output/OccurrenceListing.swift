import CalendarSync
import Failures
import Foundation
import ICalendar
import Recurrence

/// The occurrences of a set of .ics files in a window, ready to print: shared by `expand`
/// (files named on the command line) and `list` (a pair's vdir).
struct OccurrenceListing {
    struct Entry {
        var occurrence: Occurrence
        /// Index into `sources`.
        var source: Int
    }

    var entries: [Entry] = []
    /// The resolver, href and calendar of each file.
    var sources: [(resolver: TimeZoneResolver, href: String?, calendar: String?)] = []
    /// Files that could not be read or parsed, with the reason (reported on stderr).
    var problems: [(file: String, message: String)] = []
    /// What was listed only in part, with the reason: an RRULE that cannot be read, a
    /// misspelled END read past (reported on stderr as warnings; the rest of the file is listed).
    var warnings: [(file: String, message: String)] = []
    /// The person's calendar addresses, normalised (``CalendarUser/normalized(_:)``), to
    /// show their own answer to the meetings they attend; empty: not known.
    var ownAddresses: Set<String> = []

    /// The person's PARTSTAT on `event` (NEEDS-ACTION when their ATTENDEE has none, as RFC
    /// 5545 says); nil when not among its attendees, or when the event is not a meeting.
    func ownAnswer(_ event: Component) -> String? {
        guard !ownAddresses.isEmpty, event["ORGANIZER"] != nil else { return nil }
        return OwnPart.attendee(event, addresses: ownAddresses)?.answer
    }

    /// A few words for the table: what the person answered, or that an answer is awaited;
    /// for a meeting the organizer cancelled (STATUS:CANCELLED), that it is, since there is
    /// nothing left to answer.
    static func answerMark(_ partstat: String?, cancelled: Bool = false) -> String? {
        switch partstat {
        case nil: nil
        case _ where cancelled: "[cancelled]"
        case "NEEDS-ACTION": "[to answer]"
        case "ACCEPTED": "[accepted]"
        case "DECLINED": "[declined]"
        case "TENTATIVE": "[tentative]"
        case let other?: "[\(other.lowercased())]"
        }
    }

    /// A sentence for each RRULE of `expansion` no reader can take, naming its event's UID,
    /// the value and why: its series is listed without it.
    static func unreadableRules(in expansion: CalendarExpansion) -> [String] {
        expansion.series.flatMap { series in
            series.unreadableRules.map { value in
                var reason = "unreadable"
                let tzid = series.master?["DTSTART"]?.dateTime?.tzid
                do { _ = try RecurrenceRule(parsing: value, tzid: tzid) } catch { reason = CauseChain.text(of: error) }
                let uid = series.master?["UID"]?.text ?? "an event without a UID"
                return "\(uid): \(reason) (RRULE:\(value)); only its other occurrences (DTSTART, RDATE) are listed"
            }
        }
    }

    /// A sentence for a misspelled END read past: the line, what it closes, and that the
    /// file stays refused where it must be sound.
    static func readPast(_ error: ICalendarSyntaxError) -> String {
        "\(error.line): \(error.reason) (read as its END; calgw lint and sync refuse the file until the line is fixed)"
    }

    /// Expands every file over [from, to), reading floating times and dates in `zone`, or in
    /// the zone a calendar declares (`DeclaredCalendarZone`) for its floating times.
    /// - Parameter calendars: the calendar each file belongs to (an account pair's folder
    ///   name), shown as a column and a `calendar` key; empty for none.
    init(
        files: [URL], from: Int64, to: Int64, zone: any ZoneRules, hrefs: Bool, includeCancelled: Bool = false,
        calendars: [URL: String] = [:]
    ) {
        for url in files {
            let data: Data, parsed: ParsedCalendar
            do {
                data = try Data(contentsOf: url)
            } catch {
                // In a few words ("no such file"), not Foundation's error record.
                problems.append((url.path, LintCommand.readFailure(error, path: url.path)))
                continue
            }
            do {
                // A misspelled END (END:VTOOD) is read past, as other readers do: the events
                // the file holds are listed, and the line is named.
                parsed = try ICalendarParser(readsPastMisspelledEnds: true).parse(data)
            } catch {
                problems.append((url.path, "\(error)"))
                continue
            }
            warnings += parsed.readPast.map { (url.path, Self.readPast($0)) }
            // Floating times of a calendar that names its zone (X-WR-TIMEZONE) are read in it;
            // the file itself is left as it is.
            let expansion = CalendarExpansion(components: parsed.components.map(DeclaredCalendarZone.applied(to:)))
            warnings += Self.unreadableRules(in: expansion).map { (url.path, $0) }
            let source = sources.count
            sources.append((expansion.resolver, hrefs ? url.lastPathComponent : nil, calendars[url]))
            for o in expansion.occurrences(from: from, to: to, floatingZone: zone, includeCancelled: includeCancelled) {
                entries.append(Entry(occurrence: o, source: source))
            }
        }
        entries.sort { a, b in
            let x = a.occurrence, y = b.occurrence
            if x.startInstant != y.startInstant { return x.startInstant < y.startInstant }
            if x.uid != y.uid { return x.uid < y.uid }
            return x.endInstant < y.endInstant
        }
    }

    /// The JSON array of CLI.md.
    func records() -> [OccurrenceRecord] {
        entries.map {
            var record = OccurrenceRecord(
                $0.occurrence, resolver: sources[$0.source].resolver, href: sources[$0.source].href)
            record.calendar = sources[$0.source].calendar
            record.ownParticipationStatus = ownAnswer($0.occurrence.component)
            return record
        }
    }

    /// A compact table for people: date, time (in `zone`), the calendar when files have one,
    /// summary, location.
    func table(zone: any ZoneRules) -> [String] {
        let withCalendar = sources.contains { $0.calendar != nil }
        var rows: [[String]] = []
        for e in entries {
            let o = e.occurrence
            let date: String, time: String
            switch o.start.form {
            case .date:
                date = o.start.date.isoString
                let days = o.end.date.daysSinceEpoch - o.start.date.daysSinceEpoch
                time = days > 1 ? "all day (\(days) days)" : "all day"
            case .floating:
                date = o.start.date.isoString
                time = Self.hm(o.start.local) + "–" + Self.hm(o.end.local)
            case .utc, .zoned:
                let s = zone.local(atUTC: o.startInstant), en = zone.local(atUTC: o.endInstant)
                date = s.date.isoString
                time = Self.hm(s) + "–" + (en.date == s.date ? Self.hm(en) : en.date.isoString + " " + Self.hm(en))
            }
            let event = o.component
            let summary = [
                event["SUMMARY"]?.text ?? "(no title)",
                Self.answerMark(ownAnswer(event), cancelled: event["STATUS"]?.value.uppercased() == "CANCELLED"),
            ].compactMap { $0 }.joined(separator: " ")
            var row = [date, time, summary, event["LOCATION"]?.text ?? ""]
            if withCalendar { row.insert(sources[e.source].calendar ?? "-", at: 2) }
            rows.append(row)
        }
        let padded = withCalendar ? 4 : 3
        var widths = Array(repeating: 0, count: padded)
        for r in rows { for i in 0..<padded { widths[i] = max(widths[i], r[i].count) } }
        return rows.map { r in
            (0..<padded).map { r[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(
                separator: "  ")
                + (r[padded].isEmpty ? "" : "  " + r[padded])
        }.map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
    }

    static func hm(_ l: LocalDateTime) -> String {
        (l.time.hour < 10 ? "0" : "") + String(l.time.hour) + ":" + (l.time.minute < 10 ? "0" : "")
            + String(l.time.minute)
    }
}
