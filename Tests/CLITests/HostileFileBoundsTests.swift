import Foundation
import Testing
import CalgwTestSupport

/// Files built to hurt a parser, read by the real command in a process of its own: `calgw
/// lint` ends by itself (no crash, no signal, within the run's deadline), says what it found,
/// and the most memory it held stays within a bound linear in the file's size. The parser's
/// answers on the same inputs are checked in `ICalendarTests.HostileInputTests`.
@Suite(.timeLimit(.minutes(10))) struct HostileFileBoundsTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        /// A word lint's output must hold (a problem it reports), or nil for a clean file.
        var says: String?
        var make: @Sendable () -> String
        var description: String { name }
    }

    static func calendar(_ body: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//x//EN\r\n" + body + "END:VCALENDAR\r\n"
    }

    static let event = "UID:e@calgw.test\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260301T100000Z\r\n"

    static let cases: [Case] = [
        Case(name: "a million properties", says: nil) {
            var body = "BEGIN:VEVENT\r\n" + event
            body.reserveCapacity(12_000_000)
            for i in 0..<1_000_000 { body += "X-N:\(i)\r\n" }
            return calendar(body + "END:VEVENT\r\n")
        },
        Case(name: "a ten-megabyte line", says: nil) {
            calendar(
                "BEGIN:VEVENT\r\n" + event + "DESCRIPTION:" + String(repeating: "abcdefghé", count: 1_000_000)
                    + "\r\nEND:VEVENT\r\n")
        },
        Case(name: "components nested 100,000 deep", says: "deeper than") {
            String(repeating: "BEGIN:X-NEST\r\n", count: 100_000) + String(repeating: "END:X-NEST\r\n", count: 100_000)
        },
        Case(name: "a rule of a million occurrences", says: nil) {
            calendar("BEGIN:VEVENT\r\n" + event + "RRULE:FREQ=SECONDLY;COUNT=1000000\r\nEND:VEVENT\r\n")
        },
        Case(name: "a hundred thousand overrides of one series", says: nil) {
            var body = "BEGIN:VEVENT\r\n" + event + "RRULE:FREQ=DAILY\r\nEND:VEVENT\r\n"
            for day in 0..<100_000 {
                let date = Date(timeIntervalSince1970: 1_772_359_200 + Double(day) * 86_400)
                let stamp = Self.stamp(date)
                body +=
                    "BEGIN:VEVENT\r\nUID:e@calgw.test\r\nDTSTAMP:20260101T000000Z\r\nRECURRENCE-ID:\(stamp)\r\nDTSTART:\(stamp)\r\nSUMMARY:o\(day)\r\nEND:VEVENT\r\n"
            }
            return calendar(body)
        },
        Case(name: "a megabyte of unterminated quoted parameter", says: "line") {
            calendar(
                "BEGIN:VEVENT\r\n" + event + "ATTENDEE;CN=\"" + String(repeating: "x", count: 1_000_000)
                    + ":mailto:a@b.c\r\nEND:VEVENT\r\n")
        },
    ]

    /// `date` as an iCalendar UTC DATE-TIME (`20270301T100000Z`).
    static func stamp(_ date: Date) -> String {
        date.ISO8601Format(.iso8601.year().month().day().time(includingFractionalSeconds: false))
            .filter { $0 != "-" && $0 != ":" } + "Z"
    }

    /// The bound: the debug binary's own footprint (its libraries and the runtime: 33 MB here
    /// for a small file) plus a small multiple of the file's size. Measured: 150 MB for the
    /// 11 MB of a million properties (each a value of its own), 107 MB for the 14 MB of
    /// 100,000 overrides, 61 MB for a 10 MB line.
    static func bound(forSize size: Int) -> Int { 48 << 20 + 16 * size }

    @Test(arguments: cases)
    func hostileFilesAreReadWithinBoundedMemory(_ hostile: Case) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.file("hostile.ics")
        let text = hostile.make()
        try Data(text.utf8).write(to: file)
        let size = text.utf8.count
        let (lint, peak) = try await Self.measured(["lint", file.path], in: folder)
        let said = lint.stdoutText + lint.stderrText
        print("\(hostile.name): \(size / 1024) KB read with a peak of \(peak >> 20) MB, exit \(lint.status)")
        #expect(lint.status == 0 || lint.status == 1, "\(hostile.name): exit \(lint.status): \(said.prefix(600))")
        if let word = hostile.says {
            #expect(lint.status == 1 && said.contains(word), "\(hostile.name): \(said.prefix(600))")
        }
        #expect(
            peak > 0 && peak < Self.bound(forSize: size),
            "\(hostile.name): \(peak >> 20) MB for a file of \(size >> 20) MB")
    }

    /// Runs `calgw ARGUMENTS` from a small python parent that forks it and reads its peak
    /// resident set from the kernel (`ru_maxrss` of its children). The test process cannot read
    /// it itself: a child it spawns inherits the test process's own peak at exec.
    static func measured(_ arguments: [String], in folder: TemporaryFolder) async throws -> (ProcessRunner.Result, Int)
    {
        let report = folder.file("peak")
        let script = """
            import os, resource, sys
            pid = os.fork()
            if pid == 0:
                os.execv(sys.argv[2], sys.argv[2:])
            _, status = os.waitpid(pid, 0)
            open(sys.argv[1], "w").write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
            sys.exit(os.waitstatus_to_exitcode(status) if os.waitstatus_to_exitcode(status) >= 0 else 128 - os.waitstatus_to_exitcode(status))
            """
        let result = try await ProcessRunner.run(
            "python3", ["-c", script, report.path, CalgwBinary.url.path] + arguments,
            environment: ["NO_COLOR": "1"])
        let kilobytes = Int((try? String(contentsOf: report, encoding: .utf8)) ?? "") ?? 0
        return (result, kilobytes * 1024)
    }
}
