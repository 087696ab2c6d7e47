@testable import CalendarSync
import CalgwTestSupport
import Foundation
import Synchronization
import Testing
@testable import calgw

/// The transfer progress bar: drawn on stderr only when it is a terminal (here a real
/// pseudo-terminal made by util-linux `script`), against a real Radicale with 200 events.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ProgressBarTests {
    /// Runs `calgw ARGS` on a pseudo-terminal; returns what it wrote on stderr (stdout goes to
    /// /dev/null) as the result's stdout. `color` false sets NO_COLOR, true unsets it.
    static func onTerminal(_ arguments: [String], color: Bool = false, environment: [String: String]) async throws
        -> ProcessRunner.Result
    {
        let quoted = ([CalgwBinary.url.path] + arguments).map {
            "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        let command =
            (color ? "env -u NO_COLOR " : "env NO_COLOR=1 ") + quoted.joined(separator: " ") + " 2>&1 >/dev/null"
        return try await ProcessRunner.run("script", ["-qfec", command, "/dev/null"], environment: environment)
    }

    @Test func pushAndPullOf200EventsShowABarOnATerminalOnly() async throws {
        let server = try TestServers.shared(TestServers.any())
        let collection = server.newCollectionURL(prefix: "progress")
        try await server.makeCalendar(collection)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let up = try ServerPair(folder, "up", server: server, collection: collection)
        let id = UUID().uuidString.prefix(8).lowercased()
        for i in 0..<200 {
            try TestEvent.data(uid: "bar\(i)-\(id)", summary: "event \(i)", end: "20260310T110000Z", location: "Room 1")
                .write(to: up.vdir.appendingPathComponent("e\(i).ics"))
        }
        let env = ["CALGW_TEST_PASSWORD": server.password, "TERM": "xterm"]

        let push = try await Self.onTerminal(["push", "--config", up.config.path], environment: env)
        #expect(push.status == 0, "\(push.stdoutText)")
        let pushed = push.stdoutText
        #expect(pushed.contains("push ["), "\(pushed)")
        #expect(pushed.contains(" 0/200"), "\(pushed)")
        #expect(pushed.contains(" 200/200"), "the last state is drawn: \(pushed)")
        #expect(pushed.contains("/s"), "a rate is shown: \(pushed)")
        #expect(pushed.hasSuffix("\r\u{1B}[K"), "the bar is cleared at the end: \(pushed.suffix(40).debugDescription)")
        #expect(!pushed.contains("\u{1B}[32m"), "NO_COLOR is respected: \(pushed)")

        // A second vdir pulls them all, on a terminal with colour.
        let down = try ServerPair(folder, "down", server: server, collection: collection)
        let pull = try await Self.onTerminal(["pull", "--config", down.config.path], color: true, environment: env)
        #expect(pull.status == 0, "\(pull.stdoutText)")
        #expect(pull.stdoutText.contains("pull ["), "\(pull.stdoutText)")
        #expect(pull.stdoutText.contains(" 200/200"), "\(pull.stdoutText)")
        #expect(pull.stdoutText.contains("\u{1B}[32m"), "colour on a terminal without NO_COLOR: \(pull.stdoutText)")
        #expect(try down.summaries().count == 200)

        // Not a terminal: the summary on stdout, nothing on stderr.
        let plain = try ServerPair(folder, "plain", server: server, collection: collection)
        let run = try await plain.run("pull", password: server.password)
        #expect(run.status == 0, "\(run.stderrText)")
        #expect(run.stderrText.isEmpty, "\(run.stderrText)")
        #expect(!run.stdoutText.contains("/200") && !run.stdoutText.contains("\r"), "\(run.stdoutText)")
        #expect(try plain.summaries().count == 200)

        // On a terminal but with -q or --json: no bar either.
        for (name, flag) in [("quiet", "-q"), ("json", "--json")] {
            let pair = try ServerPair(folder, name, server: server, collection: collection)
            let quiet = try await Self.onTerminal(["pull", "--config", pair.config.path, flag], environment: env)
            #expect(quiet.status == 0, "\(quiet.stdoutText)")
            #expect(
                !quiet.stdoutText.contains("pull [") && !quiet.stdoutText.contains("/200"),
                "\(flag): \(quiet.stdoutText)")
            #expect(try pair.summaries().count == 200)
        }
    }

    /// An account pair's calendars sync side by side under one bar: its total adds each
    /// calendar's as its transfer starts (drawn totals never shrink, done never passes total),
    /// and it ends with all of them done.
    @Test func anAccountPairShowsOneBarForItsCalendars() async throws {
        let server = try TestServers.start(TestServers.any())
        defer { server.stop() }
        // The two folders alone: a server's own calendars (DAViCal's and Cyrus's users have one)
        // are left out of the count.
        let account = try AccountFixture(server: server, collections: "[\"home\", \"work\"]")
        defer { account.remove() }
        let local = account.local, config = account.config
        for name in ["home", "work"] {
            let calendar = local.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: calendar, withIntermediateDirectories: true)
            for i in 0..<30 {
                try TestEvent.data(
                    uid: "\(name)\(i)-\(UUID().uuidString.prefix(6))", summary: "\(name) \(i)", end: "20260310T110000Z",
                    location: "Room 1"
                )
                .write(to: calendar.appendingPathComponent("e\(i).ics"))
            }
        }
        let run = try await Self.onTerminal(
            ["sync", "--config", config.path],
            environment: ["CALGW_TEST_PASSWORD": server.password, "TERM": "xterm"])
        #expect(run.status == 0, "\(run.stdoutText)")
        #expect(run.stdoutText.contains("sync 2 calendars ["), "\(run.stdoutText)")
        #expect(run.stdoutText.contains(" 60/60"), "the last state, both calendars done, is drawn: \(run.stdoutText)")
        #expect(!run.stdoutText.contains("/90"), "a calendar counted twice: \(run.stdoutText)")
        let drawn = Self.counts(in: run.stdoutText)
        #expect(!drawn.isEmpty, "no count drawn: \(run.stdoutText)")
        #expect(zip(drawn, drawn.dropFirst()).allSatisfy { $0.total <= $1.total }, "a total shrank: \(drawn)")
        #expect(drawn.allSatisfy { $0.done <= $0.total && [30, 60].contains($0.total) }, "\(drawn)")
        #expect(run.stdoutText.hasSuffix("\r\u{1B}[K"), "\(run.stdoutText.suffix(40).debugDescription)")
    }

    /// The `done/total` pairs of each redraw, in order.
    static func counts(in output: String) -> [(done: Int, total: Int)] {
        output.components(separatedBy: "\r").compactMap { draw in
            guard let match = draw.firstMatch(of: /(\d+)\/(\d+)/), let done = Int(match.1), let total = Int(match.2)
            else { return nil }
            return (done, total)
        }
    }

    @Test func lineShowsCountsRateAndFailures() {
        let half = ProgressBar.line(
            SyncProgress(total: 200, done: 100), label: "sync", rate: 42, columns: 80, color: false)
        #expect(
            half == "sync [" + String(repeating: "=", count: 20) + ">" + String(repeating: " ", count: 19)
                + "] 100/200  42.0/s")
        let failed = ProgressBar.line(
            SyncProgress(total: 10, done: 10, failed: 2), label: "push", rate: nil, columns: 80, color: true)
        #expect(failed.contains("\u{1B}[32m") && failed.hasSuffix(" 10/10  2 failed"), "\(failed)")
        let narrow = ProgressBar.line(
            SyncProgress(total: 200, done: 7), label: "pull", rate: 3, columns: 20, color: false)
        #expect(narrow == "pull 7/200  3.0/s")
    }

    @Test func redrawsAreThrottledAndTheEndIsAlwaysDrawnThenCleared() {
        let written = Mutex<[String]>([])
        // An hour between redraws: only the first state and the complete one are drawn.
        let bar = ProgressBar(label: "sync", color: false, interval: 3600) { text in
            written.withLock { $0.append(text) }
        }
        for done in 0...200 { bar.update(SyncProgress(total: 200, done: done)) }
        bar.finish()
        bar.update(SyncProgress(total: 200, done: 200))
        let lines = written.withLock { $0 }
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.first?.contains(" 0/200") == true)
        #expect(lines.dropFirst().first?.contains(" 200/200") == true)
        #expect(lines.last == "\r\u{1B}[K")
    }

    @Test func nothingPlannedDrawsNothingAndClearsNothing() {
        let written = Mutex<[String]>([])
        let bar = ProgressBar(label: "sync", color: false) { text in written.withLock { $0.append(text) } }
        bar.update(SyncProgress(total: 0))
        bar.finish()
        #expect(written.withLock { $0 }.isEmpty)
    }

    @Test func engineReportsTotalThenEveryWriteInOrder() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let local = VDirStorage(url: folder.file("l")), remote = VDirStorage(url: folder.file("r"))
        try local.directory.createIfMissing()
        try remote.directory.createIfMissing()
        for i in 0..<300 {
            try TestEvent.data(uid: "p\(i)", summary: "event \(i)", end: "20260310T110000Z", location: "Room 1").write(
                to: folder.file("r/p\(i).ics"))
        }
        let seen = Mutex<[SyncProgress]>([])
        let report = try await SyncSession.run(
            journalAt: folder.file("j.sqlite"), local: local, remote: remote, policy: SyncPolicy(),
            progress: { p in seen.withLock { $0.append(p) } })
        #expect(report.created.local == 300)
        let values = seen.withLock { $0 }
        #expect(values.first == SyncProgress(total: 300, done: 0))
        #expect(values.map(\.done) == Array(0...300))
        #expect(values.allSatisfy { $0.total == 300 && $0.failed == 0 })
        // Nothing to do: a total of zero, and nothing else.
        seen.withLock { $0 = [] }
        _ = try await SyncSession.run(
            journalAt: folder.file("j.sqlite"), local: local, remote: remote, policy: SyncPolicy(),
            progress: { p in seen.withLock { $0.append(p) } })
        #expect(seen.withLock { $0 } == [SyncProgress(total: 0)])
    }
}
