import CalDAV
import CalgwTestSupport
import Foundation
import Testing

/// khal (from pip) as a real client of the vdir calgw keeps in sync with a real Radicale.
@Suite(.serialized, .timeLimit(.minutes(10))) struct KhalInteropTests {
    /// A khal config pointing at the pair's vdir, times printed in UTC.
    static func khalConfig(_ pair: InteropPair) throws -> URL {
        let url = pair.folder.file("khal.conf")
        try Data(
            """
            [calendars]
            [[cal]]
            path = \(pair.vdir.path)
            type = calendar
            [sqlite]
            path = \(pair.folder.file("khal.db").path)
            [locale]
            timeformat = %H:%M
            dateformat = %Y-%m-%d
            longdateformat = %Y-%m-%d
            datetimeformat = %Y-%m-%d %H:%M
            longdatetimeformat = %Y-%m-%d %H:%M
            local_timezone = UTC
            default_timezone = UTC
            [default]
            default_calendar = cal
            """.utf8
        ).write(to: url)
        return url
    }

    static func khal(_ config: URL, _ arguments: [String]) async throws -> ProcessRunner.Result {
        try await ProcessRunner.run("khal", ["-c", config.path] + arguments, environment: ["TZ": "UTC"])
    }

    /// `start<TAB>summary` lines (summary prefixed `CANCELLED ` as khal's `{cancelled}` does) of `calgw list --json`, starts in UTC as khal prints them.
    static func calgwLines(_ json: Data) throws -> [String] {
        let rows = try #require(try JSONSerialization.jsonObject(with: json) as? [[String: Any]])
        let parser = ISO8601DateFormatter()
        let printer = DateFormatter()
        printer.timeZone = TimeZone(identifier: "UTC")
        printer.dateFormat = "yyyy-MM-dd HH:mm"
        return try rows.map { row in
            let start = try #require(row["start"] as? String)
            let summary =
                (row["status"] as? String == "CANCELLED" ? "CANCELLED " : "") + (row["summary"] as? String ?? "")
            if row["allDay"] as? Bool == true { return "\(start.prefix(10))\t\(summary)" }
            let date = try #require(parser.date(from: start), "start \(start)")
            return "\(printer.string(from: date))\t\(summary)"
        }.sorted()
    }

    @Test func khalListShowsWhatCalgwListShowsAfterPull() async throws {
        let pair = try await InteropPair(prefix: "khal-list")
        defer { pair.remove() }
        let pull = try await pair.calgw("pull", ["--json"])
        #expect(pull.status == 0, "\(pull.stderrText)")
        #expect(try pair.vdirUIDs().count == pair.samples.count)
        let config = try Self.khalConfig(pair)
        // 2026-02-28 and 2026-03-01 hold no event, so khal's inclusive end and calgw's
        // exclusive one cover the same occurrences.
        let khal = try await Self.khal(
            config, ["list", "--format", "{start}\t{cancelled}{title}", "--day-format", "", "2025-12-01", "2026-02-28"])
        #expect(khal.status == 0, "\(khal.stderrText)")
        let khalLines = khal.stdoutText.split(separator: "\n").map(String.init).filter { !$0.isEmpty }.sorted()
        let list = try await pair.calgw(
            "list", ["--from", "2025-12-01", "--to", "2026-03-01", "--include-cancelled", "--json"])
        #expect(list.status == 0, "\(list.stderrText)")
        let calgwLines = try Self.calgwLines(list.stdout)
        #expect(calgwLines.count > 20, "\(calgwLines)")
        #expect(
            khalLines == calgwLines,
            "only khal: \(Set(khalLines).subtracting(calgwLines)); only calgw: \(Set(calgwLines).subtracting(khalLines))"
        )
        #expect(calgwLines.contains("2026-01-07 10:00\tTeam stand-up (moved for the all-hands)"))
        #expect(calgwLines.contains("2025-12-10\tAda's birthday"))
        #expect(calgwLines.contains("2026-02-27 20:00\tCANCELLED Monthly review"))
    }

    @Test func eventMadeWithKhalNewIsPushedUnchanged() async throws {
        let pair = try await InteropPair(prefix: "khal-new")
        defer { pair.remove() }
        #expect(try await pair.calgw("pull").status == 0)
        let config = try Self.khalConfig(pair)
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: pair.vdir.path))
        let one = try await Self.khal(
            config,
            ["new", "-a", "cal", "-l", "Main St 5", "2026-03-12", "14:00", "15:00", "Dentist", "::", "Bring the forms"])
        #expect(one.status == 0, "\(one.stderrText)")
        let two = try await Self.khal(
            config,
            ["new", "-a", "cal", "-r", "weekly", "-u", "2026-05-01", "2026-03-16", "08:00", "09:00", "Swimming"])
        #expect(two.status == 0, "\(two.stderrText)")
        let made = Set(try FileManager.default.contentsOfDirectory(atPath: pair.vdir.path)).subtracting(before).filter {
            $0.hasSuffix(".ics")
        }
        #expect(made.count == 2, "\(made)")

        let push = try await pair.calgw("push", ["--json"])
        #expect(push.status == 0, "\(push.stderrText)")
        let report = try #require(try JSONSerialization.jsonObject(with: push.stdout) as? [String: Any])
        #expect(report["created"] as? [String: Int] == ["local": 0, "remote": 2], "\(push.stdoutText)")

        let onServer = try await pair.client.listItems(in: pair.collection)
        #expect(onServer.count == pair.samples.count + 2)
        for name in made {
            let local = try Data(contentsOf: pair.vdir.appendingPathComponent(name))
            let uid = try #require(InteropPair.uid(of: local))
            var remote: Data?
            for item in onServer {
                let resource = try await pair.client.get(pair.url(of: item.href))
                if InteropPair.uid(of: resource.data) == uid { remote = resource.data }
            }
            let copy = try #require(remote, "\(uid) not on the server")
            let want = try await InteropPair.canonicalProperties(local)
            #expect(want.contains("SUMMARY"))
            #expect(try await InteropPair.canonicalProperties(copy) == want)
        }
        // And khal still lists them from the vdir after calgw's push.
        let khal = try await Self.khal(
            config, ["list", "--format", "{start}\t{title}", "--day-format", "", "2026-03-12", "2026-03-17"])
        #expect(
            khal.stdoutText.contains("2026-03-12 14:00\tDentist")
                && khal.stdoutText.contains("2026-03-16 08:00\tSwimming"), "\(khal.stdoutText)")
    }
}
