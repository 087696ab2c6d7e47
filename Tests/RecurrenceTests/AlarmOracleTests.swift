import Foundation
import Testing
import CalgwTestSupport
import ICalendar
@testable import Recurrence

/// Alarm instants as recurring-ical-events 3.8 computes them
/// (`of(calendar, components=["VALARM"]).between(a, b)`, through `Scripts/oracles/alarms.py`),
/// on the real-world calendars of the shared corpus and on generated ones; every difference
/// is one docs/recurrence.md names ("Alarms").
@Suite struct AlarmOracleTests {
    static let script = TestPaths.packageRoot.appendingPathComponent("Scripts/oracles/alarms.py")

    struct Request: Encodable {
        var files: [String] = []
        var texts: [String] = []
        var from: String
        var to: String
    }

    struct Item: Decodable, Hashable {
        var uid: String
        var recurrenceId: String?
        var trigger: String
        var start: String?
        var action: String?
        var description: String?
        var acknowledged: String?
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

    static func reference(files: [URL] = [], texts: [String] = [], from: String, to: String) async throws -> [Answer] {
        try await ProcessRunner.python(
            script, input: Request(files: files.map(\.path), texts: texts, from: from, to: to), as: [Answer].self)
    }

    /// Floating times are read in UTC here, so "…T10:00:00" and "…T10:00:00Z" are one instant.
    static func plain(_ t: String?) -> String { (t ?? "-").hasSuffix("Z") ? String((t ?? "").dropLast()) : (t ?? "-") }

    /// The comparison key: UID, trigger, the start of the occurrence reminded of, action and
    /// the alarm's description.
    static func key(_ i: Item) -> String {
        "\(i.uid)|\(plain(i.trigger))|\(plain(i.start))|\(i.action ?? "-")|\(i.description ?? "-")"
    }

    /// calgw's alarm instants of `components` in [from, to), acknowledged ones kept (the
    /// reference does not read ACKNOWLEDGED), with whether each is acknowledged.
    static func ours(_ components: [Component], from: LocalDate, to: LocalDate) -> [(item: Item, acknowledged: Bool)] {
        let calendar = CalendarAlarms(components: components)
        let resolver = calendar.resolver
        let f = Int64(from.daysSinceEpoch) * 86_400, t = Int64(to.daysSinceEpoch) * 86_400
        return calendar.alarms(from: f, to: t, floatingZone: FixedOffsetZone.utc, includeAcknowledged: true).map { a in
            let start: String? =
                a.occurrence.map { OccurrenceTime.utcText($0.start, instant: $0.startInstant, resolver: resolver) }
                ?? a.component["DTSTART"]?.dateTime.map {
                    OccurrenceTime.utcText($0, instant: Self.instant(of: $0, resolver: resolver), resolver: resolver)
                }
            let trigger = OccurrenceTime.utcText(a.triggerValue, instant: a.trigger, resolver: resolver)
            return (
                Item(
                    uid: a.uid, recurrenceId: nil, trigger: trigger, start: start, action: a.view.action,
                    description: a.view.description, acknowledged: nil), a.isAcknowledged
            )
        }
    }

    /// The instant of a value, floating times read in UTC.
    static func instant(of v: DateTimeValue, resolver: TimeZoneResolver) -> Int64 {
        if case .zoned(let tzid) = v.form, let zone = resolver.zone(for: tzid) { return zone.utc(forLocal: v.local) }
        return v.local.secondsSinceEpoch
    }

    /// The keys of the reference's alarm instants that RFC 9074 says are acknowledged: an
    /// ACKNOWLEDGED at or after the trigger (compared as UTC texts of one shape).
    static func acknowledgedKeys(_ items: [Item]) -> [String] {
        items.filter { i in i.acknowledged.map { plain($0) >= plain(i.trigger) } ?? false }.map(key).sorted()
    }

    /// Files where calgw differs from the reference, each with the reason (docs/recurrence.md).
    static let knownDifferences: [String: String] = [
        "issue_348_exception_parsing_value.ics": "intentionally broken file: calgw's parser refuses it",
        "rfc_9074_example_proximity.ics":
            "a VEVENT without DTSTART: recurring-ical-events raises KeyError; calgw gives its absolute (1976) alarm",
    ]

    @Test func corpusAlarmsMatchRecurringIcalEvents() async throws {
        let files = CorpusFiles.icsFiles(under: TestPaths.corpora.appendingPathComponent("icalendar"))
        try #require(!files.isEmpty, "no .ics files under \(TestPaths.corpora.path)/icalendar")
        let answers = try await Self.reference(files: files, from: "1970-01-01T00:00:00Z", to: "2040-01-01T00:00:00Z")
        var compared = 0, alarms = 0, acknowledged = 0, failures = 0, known = 0, unreadable = 0
        for (file, answer) in zip(files, answers) {
            let parsed = try? ICalendarParser().parse(Data(contentsOf: file))
            let got =
                parsed.map {
                    Self.ours(
                        $0.components, from: LocalDate(year: 1970, month: 1, day: 1),
                        to: LocalDate(year: 2040, month: 1, day: 1))
                } ?? []
            if Self.knownDifferences[file.lastPathComponent] != nil { known += 1; continue }
            guard case .items(let expected) = answer else {
                unreadable += 1
                if !got.isEmpty { Issue.record("the reference cannot read \(CorpusFiles.name(of: file)): \(answer)") }
                continue
            }
            guard !got.isEmpty || !expected.isEmpty else { continue }
            compared += 1
            alarms += expected.count
            acknowledged += got.filter(\.acknowledged).count
            let g = got.map { Self.key($0.item) }.sorted(), e = expected.map(Self.key).sorted()
            #expect(got.filter(\.acknowledged).map { Self.key($0.item) }.sorted() == Self.acknowledgedKeys(expected))
            if g != e {
                failures += 1
                let missing = Set(e).subtracting(g).sorted(), extra = Set(g).subtracting(e).sorted()
                Issue.record("\(CorpusFiles.name(of: file)): missing \(missing); extra \(extra)")
            }
        }
        print(
            "alarm corpus: \(compared) calendars with alarms compared (\(alarms) alarm instants, "
                + "\(acknowledged) of them acknowledged), \(unreadable) the reference cannot read, "
                + "\(known) known differences, \(failures) differ"
        )
        #expect(compared >= 15)
        #expect(acknowledged >= 3, "the RFC 9074 examples acknowledge alarms")
        #expect(failures == 0)
    }
}
