import CalgwTestSupport
import Foundation
import Testing

/// Busy time projected between real servers' calendars through `sync` and `calgw busy`: a
/// block carries the times and nothing else, follows its source, comes back when edited by
/// hand, goes with `--remove`; two projections both ways converge with no echo.
@Suite(.timeLimit(.minutes(10))) struct BusyProjectionTests {
    /// A config with the pairs `work` and `home`, each on a calendar of its own on its server,
    /// and the `busy` tables given; the passwords in WORK_PW and HOME_PW.
    struct Setup {
        let folder: TemporaryFolder
        let config: URL
        let work: URL, home: URL
        let workServer: TestServer, homeServer: TestServer
        let workCollection: URL, homeCollection: URL

        init(work workName: String, home homeName: String, busy: String) async throws {
            folder = try TemporaryFolder()
            workServer = try TestServers.shared(workName)
            homeServer = try TestServers.shared(homeName)
            workCollection = workServer.newCollectionURL(prefix: "busy-work")
            homeCollection = homeServer.newCollectionURL(prefix: "busy-home")
            try await workServer.makeCalendar(workCollection)
            try await homeServer.makeCalendar(homeCollection)
            work = folder.file("work")
            home = folder.file("home")
            for vdir in [work, home] {
                try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
            }
            let pairs = [
                TestPairConfig(
                    name: "work", local: work, remote: workCollection, journal: folder.file("work.sqlite"),
                    username: workServer.username, passwordEnv: "WORK_PW",
                    extra: ["addresses = [\"mailto:bob@example.net\"]"]),
                TestPairConfig(
                    name: "home", local: home, remote: homeCollection, journal: folder.file("home.sqlite"),
                    username: homeServer.username, passwordEnv: "HOME_PW",
                    extra: ["addresses = [\"mailto:bob@example.net\"]"]),
            ]
            config = folder.file("config.toml")
            try Data((pairs.map(\.toml).joined(separator: "\n") + "\n" + busy).utf8).write(to: config)
        }

        func calgw(_ arguments: [String]) async throws -> ProcessRunner.Result {
            try await CalgwBinary.run(
                arguments + ["--config", config.path],
                environment: ["WORK_PW": workServer.password, "HOME_PW": homeServer.password, "TZ": "UTC"])
        }

        func write(_ vdir: URL, _ name: String, _ lines: [String]) throws {
            let text =
                (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "BEGIN:VEVENT"] + lines
                + ["END:VEVENT", "END:VCALENDAR", ""]).joined(separator: "\r\n")
            try Data(text.utf8).write(to: vdir.appendingPathComponent("\(name).ics"))
        }

        /// The block files of a vdir, by name.
        func blocks(in vdir: URL) throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: vdir.path).filter { $0.hasPrefix("calgw-busy-") }
                .sorted()
        }
    }

    static let oneWay = """
        [busy.work-to-home]
        from = ["work"]
        to = "home"

        """

    /// Each server as the target (and the source): the blocks reach it with nothing of the
    /// events but their times, follow their sources, come back after a hand edit, and go with
    /// `--remove`, leaving the calendar's own events.
    @Test(arguments: TestServers.selected)
    func blocksReachTheServerWithTheTimesAlone(server name: String) async throws {
        let setup = try await Setup(work: name, home: name, busy: Self.oneWay)
        defer { setup.folder.remove() }
        try setup.write(
            setup.work, "review",
            [
                "UID:review", "DTSTAMP:20270101T000000Z", "DTSTART:20270310T090000Z", "DTEND:20270310T100000Z",
                "SUMMARY:Salary review", "DESCRIPTION:Confidential", "LOCATION:Room 4", "CATEGORIES:HR",
            ])
        try setup.write(
            setup.work, "weekly",
            [
                "UID:weekly", "DTSTAMP:20270101T000000Z", "DTSTART:20270311T090000Z", "DTEND:20270311T093000Z",
                "RRULE:FREQ=WEEKLY;COUNT=8", "SUMMARY:Standup",
            ])
        try setup.write(
            setup.work, "declined",
            [
                "UID:declined", "DTSTAMP:20270101T000000Z", "DTSTART:20270312T090000Z", "DTEND:20270312T100000Z",
                "SUMMARY:Offsite", "ORGANIZER:mailto:alice@example.org",
                "ATTENDEE;PARTSTAT=DECLINED:mailto:bob@example.net",
            ])
        try setup.write(
            setup.work, "free",
            [
                "UID:free", "DTSTAMP:20270101T000000Z", "DTSTART:20270313T090000Z", "DTEND:20270313T100000Z",
                "SUMMARY:Reading", "TRANSP:TRANSPARENT",
            ])
        try setup.write(
            setup.home, "dentist",
            [
                "UID:dentist", "DTSTAMP:20270101T000000Z", "DTSTART:20270314T090000Z", "DTEND:20270314T100000Z",
                "SUMMARY:Dentist",
            ])
        var result = try await setup.calgw(["sync", "--all"])
        #expect(result.status == 0, "\(result.stdoutText) \(result.stderrText)")
        #expect(result.stdoutText.contains("busy work-to-home: 2 made, 0 changed, 0 removed"), "\(result.stdoutText)")
        let stored = try await setup.homeServer.text(of: setup.homeCollection)
        #expect(stored.components(separatedBy: "X-CALGW-BUSY").count - 1 >= 2, "\(stored)")
        for leak in [
            "Salary", "Confidential", "Room 4", "HR", "Standup", "Offsite", "Reading", "ATTENDEE", "ORGANIZER",
        ] {
            #expect(!stored.contains(leak), "\(leak) reached the home calendar: \(stored)")
        }
        #expect(stored.contains("Dentist") && stored.contains("FREQ=WEEKLY"))

        // Nothing new: nothing written.
        result = try await setup.calgw(["sync", "--all"])
        #expect(
            result.stdoutText.contains("busy work-to-home: 0 made, 0 changed, 0 removed, 2 unchanged"),
            "\(result.stdoutText)")

        // The review is gone, and the standup block edited by hand: the one removed, the other put back.
        try FileManager.default.removeItem(at: setup.work.appendingPathComponent("review.ics"))
        let blocks = try setup.blocks(in: setup.home)
        #expect(blocks.count == 2, "\(blocks)")
        for block in blocks {
            let url = setup.home.appendingPathComponent(block)
            let text = try String(contentsOf: url, encoding: .utf8)
            if text.contains("FREQ=WEEKLY") {
                try Data(text.replacingOccurrences(of: "SUMMARY:Busy", with: "SUMMARY:Lunch").utf8).write(to: url)
            }
        }
        result = try await setup.calgw(["sync", "--all"])
        #expect(
            result.stdoutText.contains("busy work-to-home: 0 made, 1 changed, 1 removed, 0 unchanged"),
            "\(result.stdoutText)")
        let after = try await setup.homeServer.text(of: setup.homeCollection)
        #expect(!after.contains("SUMMARY:Lunch") && after.components(separatedBy: "X-CALGW-BUSY").count - 1 >= 1)

        // --remove: the blocks go, the dentist stays.
        result = try await setup.calgw(["busy", "work-to-home", "--remove"])
        #expect(
            result.status == 0 && result.stdoutText.contains("1 removed"), "\(result.stdoutText) \(result.stderrText)")
        #expect(try setup.blocks(in: setup.home).isEmpty)
        #expect(FileManager.default.fileExists(atPath: setup.home.appendingPathComponent("dentist.ics").path))
    }

    static let bothWays = """
        [busy.work-to-home]
        from = ["work"]
        to = "home"
        title = "Busy (work)"

        [busy.home-to-work]
        from = ["home"]
        to = "work"
        title = "Busy (home)"

        """

    /// Two projections both ways, work on Cyrus and home on DAViCal, through ten rounds of
    /// random changes on both sides (events added, moved, declined, deleted; blocks edited and
    /// deleted by hand): after each round's sync the next sync writes nothing (no echo), every
    /// block has a source that blocks (no orphan), every such source has its block, and no
    /// block carries a word of its source.
    @Test(.enabled(if: TestServers.runs("cyrus") && TestServers.runs("davical"), "needs cyrus and davical"))
    func twoProjectionsBothWaysConverge() async throws {
        let setup = try await Setup(work: "cyrus", home: "davical", busy: Self.bothWays)
        defer { setup.folder.remove() }
        var random = SeededRandom(seed: 80_082)
        var serial = 0
        func event(_ vdir: URL) throws {
            serial += 1
            let day = 10 + Int.random(in: 0..<15, using: &random), hour = 8 + Int.random(in: 0..<9, using: &random)
            let start = String(format: "202703%02dT%02d0000Z", day, hour),
                end = String(format: "202703%02dT%02d3000Z", day, hour)
            let rule = Bool.random(using: &random) ? ["RRULE:FREQ=WEEKLY;COUNT=4"] : []
            try setup.write(
                vdir, "e\(serial)",
                [
                    "UID:e\(serial)", "DTSTAMP:20270101T000000Z", "DTSTART:\(start)", "DTEND:\(end)",
                    "SUMMARY:secret-\(serial)", "DESCRIPTION:secret-\(serial) notes",
                ] + rule)
        }
        func sources(_ vdir: URL) throws -> [URL] {
            try FileManager.default.contentsOfDirectory(atPath: vdir.path).filter {
                $0.hasPrefix("e") && $0.hasSuffix(".ics")
            }
            .sorted().map { vdir.appendingPathComponent($0) }
        }
        func change(_ url: URL, _ edit: (String) -> String) throws {
            let text = try String(contentsOf: url, encoding: .utf8)
            try Data(edit(text).utf8).write(to: url)
        }
        for vdir in [setup.work, setup.home] { for _ in 0..<3 { try event(vdir) } }
        for round in 1...10 {
            for vdir in [setup.work, setup.home] {
                let files = try sources(vdir)
                switch Int.random(in: 0..<6, using: &random) {
                case 0, 1: try event(vdir)
                case 2:
                    if let file = files.randomElement(using: &random) {
                        try change(file) { $0.replacingOccurrences(of: "0000Z", with: "1500Z") }
                    }
                case 3:
                    if let file = files.randomElement(using: &random) {
                        try change(file) {
                            $0.replacingOccurrences(
                                of: "END:VEVENT",
                                with:
                                    "ORGANIZER:mailto:alice@example.org\r\nATTENDEE;PARTSTAT=DECLINED:mailto:bob@example.net\r\nEND:VEVENT"
                            )
                        }
                    }
                case 4:
                    if let file = files.randomElement(using: &random) { try FileManager.default.removeItem(at: file) }
                default:
                    if let block = try setup.blocks(in: vdir).randomElement(using: &random) {
                        let url = vdir.appendingPathComponent(block)
                        if Bool.random(using: &random) {
                            try FileManager.default.removeItem(at: url)
                        } else {
                            try change(url) { $0.replacingOccurrences(of: "SUMMARY:Busy", with: "SUMMARY:Edited") }
                        }
                    }
                }
            }
            let first = try await setup.calgw(["sync", "--all"])
            #expect(first.status == 0, "round \(round): \(first.stdoutText) \(first.stderrText)")
            let second = try await setup.calgw(["sync", "--all"])
            #expect(
                second.stdoutText.components(separatedBy: "0 made, 0 changed, 0 removed").count == 3,
                "round \(round): an echo: \(second.stdoutText) \(second.stderrText)")
            for (from, into) in [(setup.work, setup.home), (setup.home, setup.work)] {
                let blocking = try sources(from).filter {
                    !(try String(contentsOf: $0, encoding: .utf8)).contains("PARTSTAT=DECLINED")
                }.count
                let blocks = try setup.blocks(in: into)
                #expect(blocks.count == blocking, "round \(round): \(blocks.count) blocks for \(blocking) events")
                for block in blocks {
                    let text = try String(contentsOf: into.appendingPathComponent(block), encoding: .utf8)
                    #expect(!text.contains("secret") && !text.contains("ATTENDEE"), "round \(round): a leak: \(text)")
                }
            }
        }
    }

    /// A run with nothing new reads no file: a source rewritten in place behind calgw's back
    /// with its size, time and inode kept (a change no listing can see) makes no change; once
    /// its time moves, the run reads it and the block follows.
    @Test func aRunWithNothingNewReadsNoFile() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var lines: [String] = []
        for name in ["work", "home"] {
            for side in [name, "\(name)-remote"] {
                try FileManager.default.createDirectory(at: folder.file(side), withIntermediateDirectories: true)
            }
            lines.append(
                TestPairConfig(
                    name: name, local: folder.file(name), remote: folder.file("\(name)-remote"),
                    journal: folder.file("\(name).sqlite")
                ).toml)
        }
        let config = folder.file("config.toml")
        try Data((lines + [Self.oneWay]).joined(separator: "\n").utf8).write(to: config)
        let source = folder.file("work").appendingPathComponent("review.ics")
        func write(_ start: String) throws {
            try TestEvent.data(uid: "review", summary: "Review", start: start, end: "20270310T160000Z").write(
                to: source)
        }
        func busy() async throws -> String {
            let result = try await CalgwBinary.run(["busy", "--config", config.path], environment: ["TZ": "UTC"])
            #expect(result.status == 0, "\(result.stderrText)")
            return result.stdoutText
        }
        try write("20270310T090000Z")
        #expect(try await busy().contains("1 made"))
        // In place (the same inode and size), its time put back to the nanosecond.
        let rewrite = try await ProcessRunner.run(
            "/usr/bin/env",
            [
                "python3", "-c",
                "import os, sys; p = sys.argv[1]; st = os.stat(p); t = open(p, 'rb').read()"
                    + ".replace(b'DTSTART:20270310T090000Z', b'DTSTART:20270310T100000Z'); f = open(p, 'r+b'); "
                    + "f.write(t); f.close(); os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))",
                source.path,
            ])
        #expect(rewrite.status == 0, "\(rewrite.stderrText)")
        #expect(try await busy().contains("0 made, 0 changed, 0 removed, 1 unchanged"), "the source was read")
        try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: source.path)
        #expect(try await busy().contains("0 made, 1 changed, 0 removed"), "the moved source was not read")
    }
}
