import Foundation
import Testing
import CalgwTestSupport

/// `calgw watch` with `notify_command`: each alarm fires once at its trigger, through restarts,
/// a kill, a stop (SIGSTOP, as a suspend looks to a process) and the files changing under it.
/// The command is a script that records its arguments; the triggers are a few seconds ahead,
/// so every wait is short and none is asserted on.
@Suite(.serialized, .timeLimit(.minutes(10))) struct AlarmFiringTests {
    /// A vdir pair, a state folder and a recording notify command.
    struct Setup {
        let folder: TemporaryFolder
        var vdir: URL { folder.file("vdir") }
        var config: URL { folder.file("config.toml") }
        var calls: URL { folder.file("calls") }
        var state: URL { folder.file("state") }

        /// - Parameters:
        ///   - exitStatus: what the notify command exits with after recording its call.
        ///   - notify: whether the config has `notify_command` at all.
        init(exitStatus: Int = 0, missed: String = "1h", notify: Bool = true) throws {
            folder = try TemporaryFolder(prefix: "calgw-reminders")
            for name in ["vdir", "remote", "state"] {
                try FileManager.default.createDirectory(at: folder.file(name), withIntermediateDirectories: true)
            }
            let script = folder.file("notify.sh")
            // One line per call: when (epoch seconds), then each argument, tab-separated.
            try Data(
                """
                #!/bin/sh
                line="$(date +%s)"
                for a in "$@"; do line="$line\t$a"; done
                printf '%s\\n' "$line" >> '\(calls.path)'
                exit \(exitStatus)

                """.utf8
            ).write(to: script)
            chmod(script.path, 0o755)
            let command =
                notify
                ? "notify_command = [\"\(script.path)\", \"{summary}\", \"{start}\", \"{trigger}\", \"{end}\", "
                    + "\"{location}\", \"{description}\"]\nmissed_alarms = \"\(missed)\"\n"
                : ""
            try Data(
                """
                \(command)
                [pair.me]
                local = "\(vdir.path)"
                remote = "file://\(folder.file("remote").path)"
                journal = "\(folder.file("state/me.sqlite").path)"
                """.utf8
            ).write(to: config)
        }

        func remove() { folder.remove() }

        /// Starts `calgw watch -v` on the pair, with the state folder as XDG_STATE_HOME.
        func watch() throws -> WatchProcess {
            try WatchProcess(
                ["--config", config.path, "--interval", "600", "-v"],
                environment: ["XDG_STATE_HOME": state.path, "TZ": "UTC"])
        }

        /// The calls so far: each one's time, then its arguments.
        func recorded() -> [(time: Int64, arguments: [String])] {
            let text = (try? String(contentsOf: calls, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").map { line in
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                return (Int64(fields[0]) ?? 0, Array(fields.dropFirst()))
            }
        }

        /// Writes `uid.ics`: an event starting at `start` (epoch seconds), an hour long, with one
        /// VALARM per (action, trigger, description).
        func event(_ uid: String, start: Int64, alarms: [(String, String, String)]) throws {
            let valarms = alarms.map {
                "BEGIN:VALARM\r\nACTION:\($0.0)\r\nTRIGGER:\($0.1)\r\nDESCRIPTION:\($0.2)\r\nEND:VALARM\r\n"
            }.joined()
            try Data(
                ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\n"
                    + "DTSTAMP:20260101T000000Z\r\nDTSTART:\(Self.ical(start))\r\nDURATION:PT1H\r\n"
                    + "SUMMARY:\(uid) summary\r\nLOCATION:Room \(uid)\r\n\(valarms)END:VEVENT\r\nEND:VCALENDAR\r\n")
                    .utf8
            ).write(to: vdir.appendingPathComponent("\(uid).ics"))
        }

        static func ical(_ t: Int64) -> String { format(t, "yyyyMMdd'T'HHmmss'Z'") }

        /// A time as the placeholders give it in UTC: `2026-03-29 09:45:30`.
        static func shown(_ t: Int64) -> String {
            let text = format(t, "yyyy-MM-dd HH:mm")
            let seconds = t % 60
            return seconds == 0 ? text : text + String(format: ":%02d", seconds)
        }

        static func format(_ t: Int64, _ pattern: String) -> String {
            let f = DateFormatter()
            f.timeZone = TimeZone(identifier: "UTC")
            f.locale = Locale(identifier: "en_US_POSIX")
            f.dateFormat = pattern
            return f.string(from: Date(timeIntervalSince1970: TimeInterval(t)))
        }
    }

    static func now() -> Int64 { Int64(Date().timeIntervalSince1970) }

    /// How many times `watch -v` said it looked at the alarms.
    static func looks(_ watch: WatchProcess) -> Int { watch.stderrText.components(separatedBy: "alarms: ").count - 1 }

    /// Sleeps until `t` (epoch seconds) has passed.
    static func sleep(until t: Int64) async throws {
        while Double(now()) < Double(t) + 0.2 { try await Task.sleep(for: .milliseconds(100)) }
    }

    /// A DISPLAY and an AUDIO alarm run the command at their triggers with the placeholders'
    /// values; an EMAIL alarm at the same time does not.
    @Test func eachAlarmRunsTheCommandAtItsTriggerWithItsValues() async throws {
        let setup = try Setup()
        defer { setup.remove() }
        let watch = try setup.watch()
        #expect(await WatchProcess.wait { Self.looks(watch) >= 1 }, "\(watch.stderrText)")
        let start = Self.now() + 4
        try setup.event(
            "meet", start: start,
            alarms: [("DISPLAY", "-PT1S", "look up"), ("AUDIO", "PT0S", "ring"), ("EMAIL", "-PT1S", "mail")])
        #expect(await WatchProcess.wait { setup.recorded().count >= 2 }, "\(watch.stderrText)")
        #expect(await watch.stop() == 0, "\(watch.stderrText)")
        // Each command is started without waiting for the one before: two alarms a loaded
        // machine fires in one wake-up may record in either order, so they are read by trigger.
        let calls = setup.recorded().sorted {
            ($0.arguments.count > 2 ? $0.arguments[2] : "") < ($1.arguments.count > 2 ? $1.arguments[2] : "")
        }
        let shownStart = Setup.shown(start), shownEnd = Setup.shown(start + 3600)
        #expect(
            calls.map(\.arguments) == [
                ["meet summary", shownStart, Setup.shown(start - 1), shownEnd, "Room meet", "look up"],
                ["meet summary", shownStart, shownStart, shownEnd, "Room meet", "ring"],
            ], "\(calls)")
        #expect(calls.map(\.time)[0] >= start - 1 && calls.map(\.time)[1] >= start, "never before the trigger")
        #expect(!watch.stderrText.contains("missed while"), "\(watch.stderrText)")
    }

    /// An alarm missed while nothing watched fires once when `watch` starts, if within
    /// missed_alarms, with its original time; an older one is let go; a restarted watch fires
    /// neither again.
    @Test func aMissedAlarmFiresOnceWhenSeenWithItsOriginalTime() async throws {
        let setup = try Setup()
        defer { setup.remove() }
        let now = Self.now()
        try setup.event("recent", start: now - 1800, alarms: [("DISPLAY", "PT0S", "recent")])
        try setup.event("old", start: now - 7200, alarms: [("DISPLAY", "PT0S", "old")])
        for round in 0..<2 {
            let watch = try setup.watch()
            #expect(await WatchProcess.wait { Self.looks(watch) >= 1 }, "\(watch.stderrText)")
            #expect(await watch.stop() == 0, "\(watch.stderrText)")
            if round == 0 {
                #expect(
                    watch.stderrText.contains("due at \(Setup.shown(now - 1800)); missed while"), "\(watch.stderrText)")
                #expect(watch.stderrText.contains("alarm let go: old summary"), "\(watch.stderrText)")
            }
        }
        #expect(
            setup.recorded().map(\.arguments) == [
                [
                    "recent summary", Setup.shown(now - 1800), Setup.shown(now - 1800), Setup.shown(now + 1800),
                    "Room recent", "recent",
                ]
            ])
    }

    /// A watch killed (SIGKILL) after its first alarm, and the one after it stopped and started
    /// again around the second: each alarm runs once.
    @Test func aWatchKilledAndRestartedAroundTriggersFiresEachOnce() async throws {
        let setup = try Setup()
        defer { setup.remove() }
        let rounds = TestLoad.size(1, load: 4)
        for round in 0..<rounds {
            var watch = try setup.watch()
            #expect(await WatchProcess.wait { Self.looks(watch) >= 1 }, "\(watch.stderrText)")
            let start = Self.now() + 3
            try setup.event(
                "k\(round)", start: start, alarms: [("DISPLAY", "PT0S", "first"), ("DISPLAY", "PT2S", "second")])
            let before = setup.recorded().count
            #expect(await WatchProcess.wait { setup.recorded().count >= before + 1 }, "\(watch.stderrText)")
            _ = await watch.stop(SIGKILL)
            watch = try setup.watch()
            // Up before it is stopped: the killed one may have fired both when the test came late.
            #expect(await WatchProcess.wait { Self.looks(watch) >= 1 }, "\(watch.stderrText)")
            #expect(await WatchProcess.wait { setup.recorded().count >= before + 2 }, "\(watch.stderrText)")
            #expect(await watch.stop(SIGTERM) == 0, "\(watch.stderrText)")
            // Once more after both triggers: nothing is due again.
            watch = try setup.watch()
            #expect(await WatchProcess.wait { Self.looks(watch) >= 1 }, "\(watch.stderrText)")
            #expect(await watch.stop() == 0, "\(watch.stderrText)")
            #expect(setup.recorded().map { $0.arguments.last } == (0...round).flatMap { _ in ["first", "second"] })
        }
    }

    /// A watch stopped (SIGSTOP) past a trigger and continued fires the alarm once on waking,
    /// saying when it was due: the timer is set to the wall clock.
    @Test func aStoppedWatchFiresOnceOnWakingWithTheOriginalTime() async throws {
        let setup = try Setup()
        defer { setup.remove() }
        let watch = try setup.watch()
        #expect(await WatchProcess.wait { Self.looks(watch) >= 1 }, "\(watch.stderrText)")
        // Time enough to be stopped before the trigger on a loaded machine, where a look of the
        // watch's can come seconds late.
        let start = Self.now() + 8
        try setup.event("nap", start: start, alarms: [("DISPLAY", "PT0S", "wake")])
        // Once the watch has read the new file (its second look), stop it before the trigger.
        #expect(await WatchProcess.wait { Self.looks(watch) >= 2 }, "\(watch.stderrText)")
        kill(watch.process.processIdentifier, SIGSTOP)
        let stoppedAt = Self.now()
        try await Self.sleep(until: start + Int64(TestLoad.size(3, load: 20)))
        #expect(setup.recorded().isEmpty)
        kill(watch.process.processIdentifier, SIGCONT)
        #expect(await WatchProcess.wait { !setup.recorded().isEmpty }, "\(watch.stderrText)")
        #expect(await watch.stop() == 0, "\(watch.stderrText)")
        let calls = setup.recorded()
        #expect(calls.count == 1, "\(calls)")
        #expect(calls.first?.arguments[2] == Setup.shown(start), "{trigger} is the original time")
        if stoppedAt < start {
            #expect(watch.stderrText.contains("due at \(Setup.shown(start)); missed while"), "\(watch.stderrText)")
        }
    }

    /// An event moved re-schedules its alarm (at the new time, not the old); one deleted
    /// cancels it; one retitled keeps it.
    @Test func aMovedEventReschedulesAndADeletedOneCancels() async throws {
        let setup = try Setup()
        defer { setup.remove() }
        let watch = try setup.watch()
        #expect(await WatchProcess.wait { Self.looks(watch) >= 1 }, "\(watch.stderrText)")
        let soon = Self.now() + 5
        try setup.event("moved", start: soon, alarms: [("DISPLAY", "PT0S", "moved")])
        try setup.event("gone", start: soon, alarms: [("DISPLAY", "PT0S", "gone")])
        #expect(await WatchProcess.wait { Self.looks(watch) >= 2 }, "\(watch.stderrText)")
        let later = soon + 2
        try setup.event("moved", start: later, alarms: [("DISPLAY", "PT0S", "moved")])
        try FileManager.default.removeItem(at: setup.vdir.appendingPathComponent("gone.ics"))
        #expect(await WatchProcess.wait { !setup.recorded().isEmpty }, "\(watch.stderrText)")
        try await Self.sleep(until: later + 1)
        #expect(await watch.stop() == 0, "\(watch.stderrText)")
        let calls = setup.recorded()
        #expect(calls.map { $0.arguments.last } == ["moved"], "\(calls)")
        #expect(calls.first?.arguments[2] == Setup.shown(later))
        #expect((calls.first?.time ?? 0) >= later)
    }

    /// A notify command that fails is said once and not run again for the same alarm; the
    /// next alarm runs it again.
    @Test func aFailingNotifyCommandIsSaidOnceAndNotRetried() async throws {
        let setup = try Setup(exitStatus: 3)
        defer { setup.remove() }
        let watch = try setup.watch()
        #expect(await WatchProcess.wait { Self.looks(watch) >= 1 }, "\(watch.stderrText)")
        let start = Self.now() + 3
        try setup.event("fail", start: start, alarms: [("DISPLAY", "PT0S", "one"), ("AUDIO", "PT1S", "two")])
        #expect(await WatchProcess.wait { setup.recorded().count >= 2 }, "\(watch.stderrText)")
        #expect(await WatchProcess.wait { watch.stderrText.contains("exited with 3") }, "\(watch.stderrText)")
        try await Self.sleep(until: Self.now() + 1)
        #expect(await watch.stop() == 0, "\(watch.stderrText)")
        #expect(setup.recorded().count == 2)
        #expect(watch.stderrText.components(separatedBy: "exited with 3").count - 1 == 1, "\(watch.stderrText)")
    }

    /// Without notify_command, watch reads no alarm and records nothing.
    @Test func withoutNotifyCommandWatchFiresNothing() async throws {
        let setup = try Setup(notify: false)
        defer { setup.remove() }
        try setup.event("quiet", start: Self.now() - 60, alarms: [("DISPLAY", "PT0S", "quiet")])
        let watch = try setup.watch()
        #expect(await WatchProcess.wait { watch.stderrText.contains("polling every") }, "\(watch.stderrText)")
        #expect(await WatchProcess.wait { watch.stderrText.contains("me: ") }, "\(watch.stderrText)")
        #expect(await watch.stop() == 0, "\(watch.stderrText)")
        #expect(!watch.stderrText.contains("alarm"), "\(watch.stderrText)")
        #expect(setup.recorded().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: setup.state.appendingPathComponent("calgw/alarms.json").path))
    }
}
