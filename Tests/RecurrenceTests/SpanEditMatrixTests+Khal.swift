import Foundation
import Testing
import CalgwTestSupport

/// khal (pip) as a third reader of the span-edit results: every case's files go into a vdir of
/// their own, one `khal list` to the end of 2027 lists them all, and each case's list must be what
/// recurring-ical-events expands from the same files, apart from the departures below.
///
/// khal runs with `local_timezone = UTC` and `default_timezone = UTC`, so a zoned or UTC start
/// prints as its instant in UTC and a floating one as its own wall-clock time; the reference's
/// occurrences are put in the same form (`KhalOccurrence(reference:)`) before comparing.
extension SpanEditMatrixTests {
    /// A way khal reads a valid file differently from RFC 5545. Each one names the rule, says
    /// what khal does, and picks out exactly the reference occurrences khal is known to leave
    /// out; any other difference fails the test.
    struct KhalDeparture: Sendable {
        var section: String
        var behaviour: String
        /// Whether khal leaves out this occurrence of the reference (start as the reference
        /// prints it: in the event's own zone, or a date).
        var leavesOut: @Sendable (OracleOccurrence) -> Bool
    }

    /// None within the window. The one known beyond it: khal expands a rule without COUNT or
    /// UNTIL only up to 2037-12-31T00:00 in the event's own zone (khal/icalendar.py `expand`:
    /// rrule._until = 2037-12-31), against RFC 5545 §3.3.10 (such a rule repeats forever); the
    /// window ends in 2028, where the edits' effects are all in view, so khal must agree exactly.
    static let khalDepartures: [KhalDeparture] = []

    /// What the khal reader answers for a batch of cases.
    struct KhalAnswer: Decodable {
        var lists: [[KhalOccurrence]]
        var warnings: [String]
    }

    static let khalScript = TestPaths.packageRoot.appendingPathComponent("Scripts/oracles/khal_list.py")

    /// `khal list` from `from` to 2027-12-31 (both days included; recurring-ical-events expands
    /// to 2028-01-01) of every case, each case's files in a vdir of its own.
    static func khalLists(_ cases: [[String]], from: String) async throws -> KhalAnswer {
        struct Request: Encodable { var cases: [[String]]; var from: String; var to = "2027-12-31" }
        return try await ProcessRunner.python(khalScript, input: Request(cases: cases, from: from), as: KhalAnswer.self)
    }

    /// The day khal's list starts: the day before the reference's first occurrence (an instant
    /// in another zone can fall on the day before in UTC). `khal list` asks its database day by
    /// day, so each day of the range costs khal a query per calendar: listed from 2020, the
    /// years before the series begin (March 2026) were half of khal's time (9.6 s against 4.8 s)
    /// and two fifths of this suite's processor time. Whatever the written files hold shows in
    /// the reference, which expands them from 2020, so the range still covers every occurrence
    /// the files make.
    static func khalStart(_ reference: [[OracleOccurrence]]) throws -> String {
        let first = try #require(reference.joined().map { String($0.start.prefix(10)) }.min(), "no occurrences")
        return try KhalOccurrence.dayBefore(first)
    }

    /// Compares khal's list of every case with the reference's occurrences of the same files;
    /// returns how many reference occurrences each departure accounted for.
    func checkKhal(cases: [Case], written: [[String]], reference: [[OracleOccurrence]]) async throws -> [Int] {
        let started = Date()
        let answer = try await Self.khalLists(written, from: try Self.khalStart(reference))
        let seconds = Date().timeIntervalSince(started)
        #expect(
            answer.lists.count == cases.count, "khal listed \(answer.lists.count) calendars for \(cases.count) cases")
        #expect(answer.warnings.isEmpty, "khal warned: \(answer.warnings.prefix(5))")
        #expect(answer.lists.count == cases.count, "khal listed \(answer.lists.count) of \(cases.count) cases")
        var departed = Array(repeating: 0, count: Self.khalDepartures.count)
        var compared = 0
        for (c, (khal, occurrences)) in zip(cases, zip(answer.lists, reference)) {
            var expected: [KhalOccurrence] = []
            for occurrence in occurrences {
                if let index = Self.khalDepartures.firstIndex(where: { $0.leavesOut(occurrence) }) {
                    departed[index] += 1
                } else {
                    expected.append(try KhalOccurrence(reference: occurrence))
                }
            }
            compared += expected.count
            let sortedExpected = expected.sorted { ($0.start, $0.uid) < ($1.start, $1.uid) }
            let same = khal == sortedExpected
            #expect(
                same,
                """
                khal lists \(c.name) differently: only khal \(khal.filter { !sortedExpected.contains($0) }.prefix(4)); \
                only the reference \(sortedExpected.filter { !khal.contains($0) }.prefix(4))
                """)
        }
        print(
            "khal (\(String(format: "%.1f", seconds)) s, one run per core): \(cases.count) cases, \(compared) occurrences equal to the reference; departures: "
                + zip(Self.khalDepartures, departed).map { "\($0.section): \($1) occurrences" }.joined(separator: "; "))
        return departed
    }
}

/// One line of `khal list` as the khal reader returns it.
struct KhalOccurrence: Decodable, Equatable, CustomStringConvertible {
    var uid: String
    var start: String
    var end: String
    var allDay: Bool
    var summary: String

    var description: String { "\(start)–\(end) \(uid) \(summary)" }

    init(uid: String, start: String, end: String, allDay: Bool, summary: String) {
        (self.uid, self.start, self.end, self.allDay, self.summary) = (uid, start, end, allDay, summary)
    }

    /// A recurring-ical-events occurrence as khal prints it with UTC as its local zone: an
    /// instant as UTC minutes, a floating time as its own wall-clock minutes, an all-day one as
    /// its first and last day (khal's end is inclusive).
    init(reference o: OracleOccurrence) throws {
        let allDay = o.start.count == 10
        let end = try #require(o.end, "\(o.uid) \(o.start) has no end")
        self.init(
            uid: o.uid, start: try Self.khalForm(o.start),
            end: allDay ? try Self.dayBefore(end) : try Self.khalForm(end),
            allDay: allDay, summary: o.summary)
    }

    private static func utcFormatter(_ format: String) -> DateFormatter {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = format
        return f
    }

    static func khalForm(_ iso: String) throws -> String {
        if iso.count == 10 { return iso }
        if iso.count == 19 { return String(iso.prefix(16)) }  // floating: the wall-clock time
        let instant = try #require(ISO8601DateFormatter().date(from: iso), "not an ISO 8601 time: \(iso)")
        return utcFormatter("yyyy-MM-dd'T'HH:mm").string(from: instant)
    }

    static func dayBefore(_ day: String) throws -> String {
        let f = utcFormatter("yyyy-MM-dd")
        let date = try #require(f.date(from: day), "not a date: \(day)")
        return f.string(from: date.addingTimeInterval(-86_400))
    }
}
