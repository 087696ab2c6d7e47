import CalgwTestSupport
import Foundation
import Testing

/// `alarms`, `invitations` and the `event` commands' search by UID answer from their indexes
/// exactly what reading every file answers (`CALGW_LIST_INDEX=off`), whatever happened to the
/// files since the indexes were written: edits in place, replacements by rename, edits with
/// the modification time put back, edits of the same size and time (a UID's letter, an
/// alarm's trigger, a meeting's answer), files added, removed and copied, and calgw's own
/// edits. The files are not named after their UIDs, so a search by UID looks past the name.
@Suite(.timeLimit(.minutes(20))) struct ReadingIndexConsistencyTests {
    static let own = "mailto:me@example.org"

    struct Calendars {
        let folder: TemporaryFolder
        let seed: UInt64
        var random: SeededRandom
        var calendars: RandomCalendar
        var next = 0
        var environment: [String: String]
        /// Files `alarms` passed over, and files `invitations` read and had, from `-v`.
        var alarmsPassedOver = 0
        var invitationsRead = 0
        var invitationsFiles = 0

        init(seed: UInt64) throws {
            folder = try TemporaryFolder()
            self.seed = seed
            random = SeededRandom(seed: seed)
            calendars = RandomCalendar(seed: seed &+ 1, dense: false)
            environment = [
                "XDG_CACHE_HOME": folder.file("cache").path, "XDG_STATE_HOME": folder.file("state").path, "TZ": "UTC",
            ]
            try FileManager.default.createDirectory(at: folder.file("vdir"), withIntermediateDirectories: true)
            for _ in 0..<24 { try add() }
            try Data(
                """
                [pair.plain]
                local = "\(folder.file("vdir").path)"
                remote = "file://\(folder.file("mirror").path)"
                """.utf8
            ).write(to: folder.file("config.toml"))
        }

        func url(_ path: String) -> URL { folder.file(path) }

        /// A random calendar, sometimes broken, often with an alarm.
        mutating func content(uid: String) -> String {
            if Int.random(in: 0..<20, using: &random) == 0 {
                return
                    "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\nATTENDEE:\(Self.ownAddress)\r\nEND:VCALENDAR\r\n"
            }
            let text = calendars.calendar(uid: uid, attendee: ReadingIndexConsistencyTests.own)
            guard Int.random(in: 0..<3, using: &random) > 0, let end = text.range(of: "END:VEVENT") else { return text }
            let trigger = [
                "TRIGGER:-PT15M", "TRIGGER;RELATED=END:PT1H", "TRIGGER:-P1D",
                "TRIGGER;VALUE=DATE-TIME:20260310T090000Z",
                "TRIGGER:-PT10M\r\nREPEAT:3\r\nDURATION:PT5M",
            ][Int.random(in: 0..<5, using: &random)]
            return text.replacingCharacters(
                in: end.lowerBound..<end.lowerBound,
                with: "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:r\r\n\(trigger)\r\nEND:VALARM\r\n")
        }

        static let ownAddress = ReadingIndexConsistencyTests.own

        /// A file named otherwise than its UID says.
        mutating func add() throws {
            try Data(content(uid: "e\(next)").utf8).write(to: url("vdir/f\(next).ics"))
            next += 1
        }

        func files() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: url("vdir").path)) ?? []).filter {
                $0.hasSuffix(".ics")
            }.sorted()
        }

        /// A UID that is in a file now, or was, or never was.
        mutating func someUID() -> String {
            "e\(Int.random(in: 0..<(next + 2), using: &random))"
        }

        func modified(_ path: URL) throws -> Date {
            try #require(try FileManager.default.attributesOfItem(atPath: path.path)[.modificationDate] as? Date)
        }

        /// Changes one byte after the first `marker` of the file, keeping its size and times.
        func changeByte(after marker: String, in path: URL, to pick: (UInt8) -> UInt8) throws -> Bool {
            let before = try modified(path)
            var bytes = try Data(contentsOf: path)
            guard let at = bytes.firstRange(of: Data(marker.utf8))?.upperBound, at < bytes.count else { return false }
            bytes[at] = pick(bytes[at])
            let handle = try FileHandle(forWritingTo: path)
            try handle.write(contentsOf: bytes)
            try handle.close()
            try FileManager.default.setAttributes([.modificationDate: before], ofItemAtPath: path.path)
            return true
        }

        /// One random change to the files.
        mutating func change() async throws -> String {
            let files = files()
            guard !files.isEmpty else {
                try add()
                return "added a file"
            }
            let name = files[Int.random(in: 0..<files.count, using: &random)]
            let path = url("vdir/\(name)")
            switch Int.random(in: 0..<10, using: &random) {
            case 0:
                let handle = try FileHandle(forWritingTo: path)
                try handle.truncate(atOffset: 0)
                try handle.write(contentsOf: Data(content(uid: someUID()).utf8))
                try handle.close()
                return "edited \(name) in place"
            case 1:
                try Data(content(uid: someUID()).utf8).write(to: url("vdir/.tmp"))
                _ = rename(url("vdir/.tmp").path, path.path)
                return "replaced \(name) by a rename"
            case 2:
                let before = try modified(path)
                try Data(content(uid: someUID()).utf8).write(to: path)
                try FileManager.default.setAttributes([.modificationDate: before], ofItemAtPath: path.path)
                return "edited \(name), its modification time put back"
            case 3:
                // A UID's last letter: e12 becomes e13 (or e10 at 9), same size and time.
                let done = try changeByte(after: "UID:e", in: path) { $0 == UInt8(ascii: "9") ? 48 : $0 + 1 }
                return done ? "changed the UID of \(name), same size and time" : "nothing"
            case 4:
                // An alarm's trigger moves by hours (or an absolute one by days), same size and time.
                let done =
                    try changeByte(after: "TRIGGER", in: path) { $0 == UInt8(ascii: "-") ? 43 : $0 }
                    || changeByte(after: "VALUE=DATE-TIME:202603", in: path) { $0 == 49 ? 50 : 49 }
                return done ? "moved an alarm of \(name), same size and time" : "nothing"
            case 5:
                // A meeting's answer: NEEDS-ACTION and the others, same size and time.
                let done = try changeByte(after: "PARTSTAT=", in: path) { $0 == UInt8(ascii: "N") ? 77 : 78 }
                return done ? "changed the answer in \(name), same size and time" : "nothing"
            case 6:
                try add()
                return "added a file"
            case 7:
                try FileManager.default.removeItem(at: path)
                return "removed \(name)"
            case 8:
                try FileManager.default.copyItem(at: path, to: url("vdir/f\(next).ics"))
                next += 1
                return "copied \(name)"
            default:
                let arguments = [
                    "event", "edit", someUID(), "--location", "room \(next)", "--offline", "--config",
                    url("config.toml").path,
                ]
                next += 1
                let result = try await CalgwBinary.run(arguments, environment: environment)
                return "event edit (exit \(result.status))"
            }
        }

        /// Runs `arguments` with the indexes and without, and compares what each says.
        func compare(_ arguments: [String], said: String) async throws -> String {
            let indexed = try await CalgwBinary.run(arguments, environment: environment)
            let full = try await CalgwBinary.run(
                arguments, environment: environment.merging(["CALGW_LIST_INDEX": "off"]) { $1 })
            let notes = indexed.stderrText.split(separator: "\n", omittingEmptySubsequences: false)
            let stderr = notes.filter { !$0.contains("passed over by the index") && !$0.contains(" files read") }
            let fullStderr = full.stderrText.split(separator: "\n", omittingEmptySubsequences: false).filter {
                !$0.contains(" files read")
            }
            #expect(indexed.status == full.status, "\(said)\n\(indexed.stderrText)\n\(full.stderrText)")
            #expect(indexed.stdoutText == full.stdoutText, "\(said)")
            #expect(stderr == fullStderr, "\(said)")
            return notes.filter { $0.contains("passed over by the index") || $0.contains(" files read") }.joined(
                separator: "\n")
        }

        /// `alarms` over a random window, `invitations`, and a search by UID (an edit whose
        /// --start cannot be read: it fails after the search, saying what the search found).
        mutating func compareAll(after history: [String]) async throws {
            let config = ["--config", url("config.toml").path]
            let said = "seed \(seed) after: \(history.suffix(6).joined(separator: "; "))"
            let year = [2019, 2025, 2026, 2026, 2027, 2150][Int.random(in: 0..<6, using: &random)]
            let month = Int.random(in: 1...12, using: &random)
            let from = String(format: "%04d-%02d-01", year, month)
            let to =
                Bool.random(using: &random)
                ? String(format: "%04d-%02d-02", year, month) : String(format: "%04d-%02d-01", year + 1, month)
            var alarms = ["alarms", "-v", "--from", from, "--to", to] + config
            if Bool.random(using: &random) { alarms += ["--tz", "Pacific/Apia"] }
            if Bool.random(using: &random) { alarms.append("--json") }
            let alarmNotes = try await compare(alarms, said: "\(alarms.joined(separator: " ")) \(said)")
            // "ROOT: N of M files passed over by the index, …"
            alarmsPassedOver +=
                Int(alarmNotes.components(separatedBy: ": ").dropFirst().first?.split(separator: " ").first ?? "") ?? 0
            let invitations = ["invitations", "-v", "--json", "--address", Self.ownAddress] + config
            let invitationNotes = try await compare(invitations, said: "invitations \(said)")
            // "plain: N files read"
            invitationsRead += Int(invitationNotes.split(separator: " ").dropFirst().first ?? "") ?? 0
            invitationsFiles += files().count
            let edit = ["event", "edit", someUID(), "--start", "not a time", "--offline"] + config
            _ = try await compare(edit, said: "\(edit.joined(separator: " ")) \(said)")
        }
    }

    /// The stamp's status-change time at work, alone: files last written long enough ago that no
    /// margin makes them read again, one of them rewritten in place with its size and
    /// modification time kept, its event moved into tomorrow. `alarms` finds the alarm it now
    /// has (an index that trusted size and modification time would pass the file over).
    @Test func anAlarmMovedWithSizeAndTimeKeptIsFound() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let vdir = folder.file("vdir")
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        let old = Date(timeIntervalSinceNow: -30 * 86_400)
        for n in 0..<3 {
            let path = vdir.appendingPathComponent("a\(n).ics")
            try Data(
                ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:a\(n)\r\n"
                    + "DTSTAMP:20260101T000000Z\r\nDTSTART:20991201T100000Z\r\nSUMMARY:Alpha\r\nBEGIN:VALARM\r\n"
                    + "ACTION:DISPLAY\r\nDESCRIPTION:r\r\nTRIGGER:-PT15M\r\nEND:VALARM\r\nEND:VEVENT\r\n"
                    + "END:VCALENDAR\r\n").utf8
            ).write(to: path)
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: path.path)
        }
        try Data("[pair.p]\nlocal = \"\(vdir.path)\"\nremote = \"file://\(folder.file("mirror").path)\"\n".utf8)
            .write(to: folder.file("config.toml"))
        let environment = [
            "XDG_CACHE_HOME": folder.file("cache").path, "XDG_STATE_HOME": folder.file("state").path, "TZ": "UTC",
        ]
        // Past the racy margin of every file's status change, then the index is made and used.
        try await Task.sleep(for: .seconds(2.2))
        let alarms = ["alarms", "--config", folder.file("config.toml").path, "-v"]
        var result = try await CalgwBinary.run(alarms, environment: environment)
        #expect(result.status == 0 && result.stderrText.contains("0 alarms"), "\(result.stderrText)")
        result = try await CalgwBinary.run(alarms, environment: environment)
        #expect(result.stderrText.contains("3 of 3 files passed over"), "\(result.stderrText)")

        let path = vdir.appendingPathComponent("a1.ics")
        let tomorrow = Date(timeIntervalSinceNow: 86_400)
        let day = ISO8601DateFormatter.string(
            from: tomorrow, timeZone: TimeZone(identifier: "UTC")!,
            formatOptions: [.withYear, .withMonth, .withDay, .withDashSeparatorInDate])
        let bytes = try String(contentsOf: path, encoding: .utf8)
            .replacingOccurrences(
                of: "DTSTART:20991201T100000Z", with: "DTSTART:\(day.replacingOccurrences(of: "-", with: ""))T100000Z")
        let handle = try FileHandle(forWritingTo: path)
        try handle.write(contentsOf: Data(bytes.utf8))
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: path.path)

        result = try await CalgwBinary.run(
            ["alarms", "--config", folder.file("config.toml").path, "--from", day, "--to", day + "T23:59"],
            environment: environment)
        #expect(
            result.status == 0 && result.stdoutText.contains("starts 10:00"),
            "\(result.stdoutText) \(result.stderrText)")
    }

    /// Meetings for other addresses are counted and the first five named, the same from the
    /// index (no file read) as from the files; the invitations awaiting come from the index too.
    @Test func unclaimedMeetingsAndInvitationsComeFromTheIndex() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let vdir = folder.file("vdir")
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        func meeting(_ uid: String, for attendee: String) -> String {
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\n"
                + "DTSTAMP:20260101T000000Z\r\nDTSTART;TZID=Europe/Berlin:20270301T100000\r\nSUMMARY:M \(uid)\r\n"
                + "ORGANIZER:mailto:boss@example.org\r\nATTENDEE;PARTSTAT=NEEDS-ACTION:\(attendee)\r\n"
                + "END:VEVENT\r\nEND:VCALENDAR\r\n"
        }
        for n in 0..<8 {
            try Data(meeting("other\(n)", for: "mailto:x\(n)@example.org").utf8).write(
                to: vdir.appendingPathComponent("a\(n).ics"))
        }
        for n in 0..<2 {
            try Data(meeting("mine\(n)", for: Self.own).utf8).write(to: vdir.appendingPathComponent("b\(n).ics"))
        }
        try Data("[pair.p]\nlocal = \"\(vdir.path)\"\nremote = \"file://\(folder.file("mirror").path)\"\n".utf8)
            .write(to: folder.file("config.toml"))
        let environment = [
            "XDG_CACHE_HOME": folder.file("cache").path, "XDG_STATE_HOME": folder.file("state").path, "TZ": "UTC",
        ]
        let arguments = [
            "invitations", "-v", "--json", "--address", Self.own, "--config", folder.file("config.toml").path,
        ]
        try await Task.sleep(for: .seconds(2.2))
        let full = try await CalgwBinary.run(
            arguments, environment: environment.merging(["CALGW_LIST_INDEX": "off"]) { $1 })
        _ = try await CalgwBinary.run(arguments, environment: environment)
        let indexed = try await CalgwBinary.run(arguments, environment: environment)
        #expect(indexed.stderrText.contains("p: 0 files read"), "\(indexed.stderrText)")
        #expect(
            full.stderrText.contains(
                "note: 8 meetings in your calendars name none of your addresses (\(Self.own)): "
                    + "other0, other1, other2, other3, other4, …"), "\(full.stderrText)")
        #expect(indexed.stdoutText == full.stdoutText && indexed.stdoutText.contains("mine1"))
        #expect(indexed.stdoutText.contains("2027-03-01T10:00:00+01:00"), "\(indexed.stdoutText)")
        let notes = { (text: String) in text.split(separator: "\n").filter { !$0.contains(" files read") } }
        #expect(notes(indexed.stderrText) == notes(full.stderrText))
    }

    @Test func indexedReadsEqualFullReadsThroughRandomChanges() async throws {
        let seed = UInt64(TestLoad.isOn ? UInt64.random(in: 0..<1_000_000) : 68)
        var calendars = try Calendars(seed: seed)
        defer { calendars.folder.remove() }
        var history: [String] = ["seed \(seed)"]
        let steps = TestLoad.isOn ? 300 : 16
        for step in 0..<steps {
            // Files left alone for more than the racy margin are vouched for by the indexes.
            if step == steps / 2 || step == 1 { try await Task.sleep(for: .seconds(2.1)) }
            for _ in 0..<Int.random(in: 1...2, using: &calendars.random) {
                history.append(try await calendars.change())
            }
            try await calendars.compareAll(after: history)
        }
        // The indexes did their work: files passed over by `alarms`, not all read by `invitations`.
        #expect(calendars.alarmsPassedOver > 0)
        #expect(calendars.invitationsRead < calendars.invitationsFiles)
    }
}
