import Foundation
import Testing
import ICalendar
import CalgwTestSupport
@testable import Recurrence

/// The real-world calendars of the shared corpus expand to the occurrences that
/// recurring-ical-events computes for them over 1995–2035.
@Suite struct CorpusExpansionTests {
    struct Request: Encodable {
        var kind = "calendars"
        var files: [String] = []
        var texts: [String] = []
        var from: String
        var to: String
    }

    struct Item: Decodable, Hashable, CustomStringConvertible {
        var uid: String
        var recurrenceId: String?
        var start: String?
        var end: String?
        var summary: String
        var description: String { "\(uid) \(start ?? "-")–\(end ?? "-")" }
    }

    enum Answer: Decodable {
        case items([Item])
        case error(String)
        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let items = try? c.decode([Item].self) { self = .items(items); return }
            struct E: Decodable { var error: String }
            self = .error(try c.decode(E.self).error)
        }
    }

    /// Occurrences of `calendars` from the reference, one answer per calendar.
    static func reference(files: [URL] = [], texts: [String] = [], from: String, to: String) async throws -> [Answer] {
        try await ProcessRunner.python(
            RuleOracleTests.script,
            input: Request(files: files.map(\.path), texts: texts, from: from, to: to),
            as: [Answer].self)
    }

    /// calgw's occurrences in the reference's notation.
    static func ours(_ components: [Component], from: LocalDate, to: LocalDate) -> [Item] {
        let zone = FixedOffsetZone.utc
        let expansion = CalendarExpansion(components: components)
        let f = Int64(from.daysSinceEpoch) * 86_400, t = Int64(to.daysSinceEpoch) * 86_400
        return expansion.occurrences(from: f, to: t, floatingZone: zone).map { o in
            Item(
                uid: o.uid, recurrenceId: nil,
                start: OccurrenceTime.utcText(o.start, instant: o.startInstant, resolver: expansion.resolver),
                end: OccurrenceTime.utcText(o.end, instant: o.endInstant, resolver: expansion.resolver),
                summary: o.component["SUMMARY"]?.text ?? "")
        }
    }

    /// Files where calgw differs from the reference, each with the reason; everything else
    /// must match exactly.
    static let knownDifferences: [String: String] = [
        "issue_526_calendar_with_different_events.ics":
            "TZID \"Western/Central Europe\" (no VTIMEZONE): python icalendar guesses a zone, calgw reads it as floating",
        "issue_526_calendar_with_event_subset.ics": "TZID \"Western/Central Europe\" read as floating (see above)",
        "issue_526_calendar_with_events.ics": "TZID \"Western/Central Europe\" read as floating (see above)",
        "issue_526_calendar_with_shuffeled_events.ics": "TZID \"Western/Central Europe\" read as floating (see above)",
        "issue_156_RDATE_with_PERIOD_TZID_khal_2.ics": "custom TZID without a known zone read as floating",
        "issue_1633_rdate_with_dates.ics":
            "RDATE;VALUE=PERIOD made of two DATEs is not a valid PERIOD (RFC 5545 §3.3.9) and is left out",
        "issue_1633_rdate_with_dates_and_tzid.ics": "RDATE;VALUE=PERIOD made of two DATEs is left out (see above)",
        "issue_178_custom_component_contains_other.ics":
            "a VEVENT nested in an X- component is not an event of the calendar (RFC 5545 §3.6)",
        "issue_168_input.ics": "intentionally broken file: the parser refuses it",
        "issue_348_exception_parsing_value.ics": "intentionally broken file: the parser refuses it",
        "timezone_rdate.ics": "the parser refuses it",
        "issue_104_mark_events_broken.ics": "intentionally broken file: the parser refuses it",
        "broken_ical.ics":
            "DTSTART;;VALUE=DATE-TIME (an empty parameter): python icalendar drops the event, calgw reads its value",
    ]

    @Test func corpusCalendarsMatchRecurringIcalEvents() async throws {
        let files = CorpusFiles.icsFiles(under: TestPaths.corpora.appendingPathComponent("icalendar"))
        try #require(!files.isEmpty, "no .ics files under \(TestPaths.corpora.path)/icalendar")
        let answers = try await Self.reference(files: files, from: "1995-01-01", to: "2036-01-01")
        var compared = 0, unreadable = 0, failures = 0, occurrences = 0, known = 0
        for (file, answer) in zip(files, answers) {
            guard case .items(let expected) = answer else { unreadable += 1; continue }
            if Self.knownDifferences[file.lastPathComponent] != nil { known += 1; continue }
            // Read as `expand` and `list` read it: a misspelled END (END:VCALENDARD) is read past.
            let parser = ICalendarParser(readsPastMisspelledEnds: true)
            guard let parsed = try? parser.parse(Data(contentsOf: file)), !parsed.components.isEmpty else {
                if !expected.isEmpty { Issue.record("\(CorpusFiles.name(of: file)): calgw cannot parse it") }
                continue
            }
            compared += 1
            occurrences += expected.count
            let got = Self.ours(
                parsed.components, from: LocalDate(year: 1995, month: 1, day: 1),
                to: LocalDate(year: 2036, month: 1, day: 1))
            // Floating times are read in UTC here, so "…T10:00:00" and "…T10:00:00Z" are one instant.
            let plain = { (t: String?) in (t ?? "").hasSuffix("Z") ? String((t ?? "").dropLast()) : (t ?? "") }
            let key = { (i: Item) in "\(i.uid)|\(plain(i.start))|\(plain(i.end))" }
            let g = got.map(key).sorted(), e = expected.map(key).sorted()
            if g != e {
                failures += 1
                let missing = Set(e).subtracting(g).sorted().prefix(3), extra = Set(g).subtracting(e).sorted().prefix(3)
                Issue.record(
                    "\(CorpusFiles.name(of: file)): \(got.count) occurrences, reference \(expected.count); missing \(Array(missing)); extra \(Array(extra))"
                )
            }
        }
        print(
            "corpus: \(compared) calendars compared (\(occurrences) occurrences), \(unreadable) the reference cannot read, \(known) known differences, \(failures) differ"
        )
        #expect(compared > 50)
        #expect(failures == 0)
    }
}
