import Foundation
import Testing
import CalgwTestSupport
@testable import ICalendar

/// Every .ics file of the shared corpora round-trips without loss: parse, serialize, parse again
/// gives an equal tree, and python's `icalendar` (an outside reader) finds every content line of
/// the original in calgw's output. Files that are genuinely broken are listed with the error
/// they must produce.
@Suite struct CorpusRoundTripTests {
    /// Broken on purpose upstream: the reason calgw must give, by file name.
    static let expectedErrors: [String: String] = [
        "big_bad_calendar.ics": "has no END:VCALENDAR",
        "small_bad_calendar.ics": "has no END:VCALENDAR",
        "pr_480_summary_with_colon.ics": "has no END:VCALENDAR",
        "fuzz_testcase_0_char_in_component_name.ics": "is not a component name",
        "fuzz_testcase_invalid_month.ics": "has no END:V",
        "issue_104_broken_calendar.ics": "has no ':'",
        "issue_104_mark_events_broken.ics": "has no ':'",
        "issue_168_input.ics": "has no ':'",
        "issue_348_exception_parsing_value.ics": "has no ':'",
        "timezone_rdate.ics": "has no ':'",
        "timezone_same_start_and_offset.ics": "END:VCALENDARD closes BEGIN:VCALENDAR",
    ]

    static let files = CorpusFiles.icsFiles()

    @Test func corpusIsPresent() {
        #expect(Self.files.count >= 150, "expected the shared corpora at \(TestPaths.corpora.path)")
    }

    @Test(arguments: files)
    func roundTripsToAnEqualTree(_ url: URL) throws {
        let data = try Data(contentsOf: url)
        let name = url.lastPathComponent
        if let expected = Self.expectedErrors[name] {
            let error = #expect(throws: ICalendarSyntaxError.self) { try ICalendarParser().parse(data) }
            #expect(error?.reason.contains(expected) == true, "\(name): \(String(describing: error))")
            #expect(error.map { $0.line >= 1 } == true)
            return
        }
        let parsed = try ICalendarParser().parse(data)
        let output = ICalendarSerializer().serialize(parsed.components)
        let reparsed = try ICalendarParser().parse(Data(output))
        #expect(reparsed.components == parsed.components, "\(CorpusFiles.name(of: url)) changed in a round trip")
        // Canonical output is a fixed point: serializing it again changes no byte.
        #expect(ICalendarSerializer().serialize(reparsed.components) == output)
    }

    @Test func outsideReaderFindsEveryContentLineInTheOutput() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var pairs: [[String]] = []
        for (index, url) in Self.files.enumerated() where Self.expectedErrors[url.lastPathComponent] == nil {
            let parsed = try ICalendarParser().parse(Data(contentsOf: url))
            let out = folder.file("\(index).ics")
            try Data(ICalendarSerializer().serialize(parsed.components)).write(to: out)
            pairs.append([url.path, out.path])
        }
        let script = TestPaths.packageRoot.appendingPathComponent("Scripts/oracles/contentlines.py")
        let report = try await ProcessRunner.python(script, input: pairs, as: [String: [String]].self)
        #expect(report.count == pairs.count)
        for (file, missing) in report.sorted(by: { $0.key < $1.key }) {
            #expect(missing.isEmpty, "\(file): lines missing after the round trip: \(missing.prefix(5))")
        }
    }
}
