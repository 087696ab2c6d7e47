import CalDAV
import CalgwTestSupport
import Foundation
import Testing

/// `calgw event edit --span this` and `--span future` (and a `delete --span this`) on zoned,
/// all-day and floating recurring events of a real pair (Radicale): khal, reading the vdir,
/// lists the same occurrences as recurring-ical-events expands from the copies the server holds.
@Suite(.serialized, .timeLimit(.minutes(10))) struct KhalSpanEditTests {
    static let oracles = TestPaths.packageRoot.appendingPathComponent("Scripts/oracles")

    /// One line of `khal list` as Scripts/oracles/khal_list.py returns it (UTC as khal's zone).
    struct Line: Codable, Equatable, CustomStringConvertible {
        var uid: String
        var start: String
        var end: String
        var allDay: Bool
        var summary: String
        var description: String { "\(start)–\(end) \(summary)" }
    }

    /// An occurrence as recurring-ical-events gives it (Scripts/oracles/span_edits.py).
    struct Occurrence: Decodable {
        var uid: String
        var start: String
        var end: String?
        var summary: String
    }

    /// khal's lines for the vdir, over 2020–2039.
    static func khalLines(_ vdir: URL) async throws -> (lines: [Line], warnings: [String]) {
        struct Request: Encodable { var folders: [String]; var from = "2020-01-01"; var to = "2039-12-31" }
        struct Answer: Decodable { var lists: [[Line]]; var warnings: [String] }
        let answer = try await ProcessRunner.python(
            oracles.appendingPathComponent("khal_list.py"), input: Request(folders: [vdir.path]),
            as: Answer.self)
        return (try #require(answer.lists.first), answer.warnings)
    }

    /// recurring-ical-events' occurrences of `calendars` over [2020, 2040), in khal's form: an
    /// instant as UTC minutes, a floating time as its wall-clock minutes, an all-day one as its
    /// first and last day.
    static func referenceLines(_ calendars: [String]) async throws -> [Line] {
        struct Request: Encodable {
            var kind = "occurrences"; var calendars: [String]; var from = "2020-01-01"; var to = "2040-01-01"
        }
        let answer = try await ProcessRunner.python(
            oracles.appendingPathComponent("span_edits.py"), input: [Request(calendars: calendars)],
            as: [[Occurrence]].self)
        let utc = DateFormatter()
        utc.locale = Locale(identifier: "en_US_POSIX")
        utc.timeZone = TimeZone(identifier: "UTC")
        func khalForm(_ iso: String) throws -> String {
            if iso.count == 10 { return iso }
            if iso.count == 19 { return String(iso.prefix(16)) }
            utc.dateFormat = "yyyy-MM-dd'T'HH:mm"
            return utc.string(from: try #require(ISO8601DateFormatter().date(from: iso), "not a time: \(iso)"))
        }
        func dayBefore(_ day: String) throws -> String {
            utc.dateFormat = "yyyy-MM-dd"
            return utc.string(from: try #require(utc.date(from: day)).addingTimeInterval(-86_400))
        }
        return try answer[0].map { o in
            let allDay = o.start.count == 10
            let end = try #require(o.end)
            return Line(
                uid: o.uid, start: try khalForm(o.start), end: allDay ? try dayBefore(end) : try khalForm(end),
                allDay: allDay, summary: o.summary)
        }.sorted { ($0.start, $0.uid) < ($1.start, $1.uid) }
    }

    /// `calgw event …` on the pair, pushed to the server.
    func event(_ pair: InteropPair, _ arguments: [String]) async throws -> ProcessRunner.Result {
        try await CalgwBinary.run(
            ["event"] + arguments + ["--config", pair.config.path], environment: pair.environment)
    }

    struct Added: Decodable { var uid: String; var pushed: Bool }
    struct Edited: Decodable { var newSeries: String? }

    @Test func khalOnTheVdirListsWhatTheServerCopiesExpandTo() async throws {
        let pair = try await InteropPair(prefix: "khal-span", withSamples: false)
        defer { pair.remove() }
        var r = try await pair.calgw("pull")
        #expect(r.status == 0, "\(r.stderrText)")

        // A weekly 09:30 Berlin stand-up of 8 across the March DST change, and a weekly all-day
        // review until June.
        r = try await event(
            pair,
            [
                "add", "--summary", "Standup", "--start", "2026-03-16T09:30", "--duration", "30m",
                "--tz", "Europe/Berlin", "--rrule", "FREQ=WEEKLY;COUNT=8", "--json",
            ])
        #expect(r.status == 0, "\(r.stderrText)")
        let standup = try JSONDecoder().decode(Added.self, from: r.stdout)
        #expect(standup.pushed)
        r = try await event(
            pair,
            [
                "add", "--summary", "Review", "--start", "2026-03-20", "--all-day",
                "--rrule", "FREQ=WEEKLY;UNTIL=20260601", "--json",
            ])
        #expect(r.status == 0, "\(r.stderrText)")
        let review = try JSONDecoder().decode(Added.self, from: r.stdout)
        #expect(review.pushed)

        // This: one occurrence renamed. Future: the series split, the rest renamed.
        r = try await event(
            pair, ["edit", standup.uid, "--occurrence", "2026-03-30T09:30", "--span", "this", "--summary", "Planning"])
        #expect(r.status == 0, "\(r.stderrText)")
        r = try await event(
            pair,
            [
                "edit", standup.uid, "--occurrence", "2026-04-20T09:30", "--span", "future",
                "--summary", "Standup (room 4)", "--json",
            ])
        #expect(r.status == 0, "\(r.stderrText)")
        let standupSplit = try #require(try JSONDecoder().decode(Edited.self, from: r.stdout).newSeries)
        r = try await event(
            pair, ["edit", review.uid, "--occurrence", "2026-04-03", "--span", "this", "--summary", "Review (short)"])
        #expect(r.status == 0, "\(r.stderrText)")
        r = try await event(
            pair,
            [
                "edit", review.uid, "--occurrence", "2026-05-01", "--span", "future", "--summary", "Review (new team)",
                "--json",
            ])
        #expect(r.status == 0, "\(r.stderrText)")
        let reviewSplit = try #require(try JSONDecoder().decode(Edited.self, from: r.stdout).newSeries)

        // A floating daily class: one occurrence deleted, the last two renamed.
        r = try await event(
            pair,
            [
                "add", "--summary", "Yoga", "--start", "2026-06-01T18:00", "--tz", "floating",
                "--rrule", "FREQ=DAILY;COUNT=6", "--json",
            ])
        #expect(r.status == 0, "\(r.stderrText)")
        let yoga = try JSONDecoder().decode(Added.self, from: r.stdout)
        r = try await event(pair, ["delete", yoga.uid, "--occurrence", "2026-06-03T18:00", "--span", "this"])
        #expect(r.status == 0, "\(r.stderrText)")
        r = try await event(
            pair,
            [
                "edit", yoga.uid, "--occurrence", "2026-06-05T18:00", "--span", "future", "--summary", "Yoga (park)",
                "--json",
            ])
        #expect(r.status == 0, "\(r.stderrText)")
        let yogaSplit = try #require(try JSONDecoder().decode(Edited.self, from: r.stdout).newSeries)

        // The server's copies, as it serves them.
        var served: [String] = []
        for item in try await pair.client.listItems(in: pair.collection) {
            served.append(String(decoding: try await pair.client.get(pair.url(of: item.href)).data, as: UTF8.self))
        }
        #expect(served.count == 6, "the server holds \(served.count) resources")
        let reference = try await Self.referenceLines(served)
        let (khal, warnings) = try await Self.khalLines(pair.vdir)
        #expect(warnings.isEmpty, "khal warned: \(warnings)")
        #expect(
            khal == reference,
            "only khal: \(khal.filter { !reference.contains($0) }); only the server: \(reference.filter { !khal.contains($0) })"
        )

        // And what both list is what the edits asked for: 8 stand-ups (09:30 in Berlin is 08:30
        // UTC before the change to summer time on 29 March, 07:30 after), 11 reviews, 5 classes
        // at 18:00 wherever one is (khal's zone is UTC).
        let expected: [Line] =
            [
                Line(
                    uid: standup.uid, start: "2026-03-16T08:30", end: "2026-03-16T09:00", allDay: false,
                    summary: "Standup"),
                Line(
                    uid: standup.uid, start: "2026-03-23T08:30", end: "2026-03-23T09:00", allDay: false,
                    summary: "Standup"),
                Line(
                    uid: standup.uid, start: "2026-03-30T07:30", end: "2026-03-30T08:00", allDay: false,
                    summary: "Planning"),
                Line(
                    uid: standup.uid, start: "2026-04-06T07:30", end: "2026-04-06T08:00", allDay: false,
                    summary: "Standup"),
                Line(
                    uid: standup.uid, start: "2026-04-13T07:30", end: "2026-04-13T08:00", allDay: false,
                    summary: "Standup"),
            ]
            + ["2026-04-20", "2026-04-27", "2026-05-04"].map {
                Line(
                    uid: standupSplit, start: "\($0)T07:30", end: "\($0)T08:00", allDay: false,
                    summary: "Standup (room 4)")
            }
            + ["2026-03-20", "2026-03-27", "2026-04-03", "2026-04-10", "2026-04-17", "2026-04-24"].map {
                Line(
                    uid: review.uid, start: $0, end: $0, allDay: true,
                    summary: $0 == "2026-04-03" ? "Review (short)" : "Review")
            }
            + ["2026-05-01", "2026-05-08", "2026-05-15", "2026-05-22", "2026-05-29"].map {
                Line(uid: reviewSplit, start: $0, end: $0, allDay: true, summary: "Review (new team)")
            }
            + ["2026-06-01", "2026-06-02", "2026-06-04", "2026-06-05", "2026-06-06"].map {
                Line(
                    uid: $0 < "2026-06-05" ? yoga.uid : yogaSplit, start: "\($0)T18:00", end: "\($0)T19:00",
                    allDay: false,
                    summary: $0 < "2026-06-05" ? "Yoga" : "Yoga (park)")
            }
        #expect(khal == expected.sorted { ($0.start, $0.uid) < ($1.start, $1.uid) }, "\(khal)")
    }
}
