import CalgwTestSupport
import Foundation
import Testing

/// `list` from its index shows exactly what a full expansion of the files shows now
/// (`CALGW_LIST_INDEX=off`), whatever happened to the files since the index was written:
/// edits in place, replacements by rename, edits with the modification time put back and of
/// the same size, files added and removed, folders swapped, another zone to show times in,
/// other time-zone data, syncs and `event` commands. Over a folder given
/// with `--local` (with subfolders), an account pair (a calendar column, the person's answers
/// to meetings), a vdir pair and a single-file pair, in text and JSON, cancelled occurrences
/// shown or not, windows near and far.
@Suite(.timeLimit(.minutes(20))) struct ListIndexConsistencyTests {
    static let own = "mailto:me@example.org"

    /// The folders and files a history works on, and how to run `calgw list` over them.
    struct Calendars {
        let folder: TemporaryFolder
        let seed: UInt64
        var random: SeededRandom
        var calendars: RandomCalendar
        var next = 0
        /// The zones `list` shows times in, by `--tz` or by `TZ`.
        let zones = ["UTC", "Europe/Berlin", "Pacific/Apia", "America/St_Johns", "Asia/Kathmandu"]
        var environment: [String: String]
        /// Files passed over by the index so far, from `-v`.
        var passedOver = 0
        var restarts = 0
        /// Listings printed from their memo.
        var recalled = 0

        init(seed: UInt64) throws {
            folder = try TemporaryFolder()
            self.seed = seed
            random = SeededRandom(seed: seed)
            calendars = RandomCalendar(seed: seed &+ 1, dense: false)
            environment = [
                "XDG_CACHE_HOME": folder.file("cache").path, "XDG_STATE_HOME": folder.file("state").path,
                "TZDIR": folder.file("tzdir").path,
            ]
            let fm = FileManager.default
            for path in ["local/a", "local/b", "acct/work", "acct/home", "vdir", "state/calgw", "tzdir"] {
                try fm.createDirectory(at: folder.file(path), withIntermediateDirectories: true)
            }
            try Data("# tzdata 2026a".utf8).write(to: folder.file("tzdir/tzdata.zi"))
            try Data(#"{"addresses":["\#(Self.ownAddress)"],"autoSchedules":false}"#.utf8).write(
                to: folder.file("state/calgw/acct.account.json"))
            for folder in ["local", "local/a", "local/b", "acct/work", "acct/home", "vdir"] {
                for _ in 0..<6 { try add(in: folder) }
            }
            try write(single(), to: "single.ics")
            try Data(
                """
                [pair.acct]
                local = "\(folder.file("acct").path)"
                remote = "https://dav.example.com/home/"
                collections = "all"
                [pair.plain]
                local = "\(folder.file("vdir").path)"
                remote = "file://\(folder.file("mirror").path)"
                [pair.one]
                local = "\(folder.file("single.ics").path)"
                remote = "https://dav.example.com/one/"
                """.utf8
            ).write(to: folder.file("config.toml"))
        }

        static let ownAddress = ListIndexConsistencyTests.own

        /// A calendar: mostly a random series, sometimes one that cannot be parsed, or with
        /// an RRULE no reader takes.
        mutating func content(uid: String) -> String {
            switch Int.random(in: 0..<25, using: &random) {
            case 0: return "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\nEND:VCALENDAR\r\n"
            case 1:
                return TestEvent.ics(uid: uid, summary: uid, start: "20260310T100000Z", extra: ["RRULE:FREQ=SOMETIMES"])
            default: return calendars.calendar(uid: uid, attendee: Self.ownAddress)
            }
        }

        /// A single-file calendar of several series.
        mutating func single() -> String {
            let bodies = (0..<4).map { i -> String in
                let text = calendars.calendar(uid: "single-\(next)-\(i)", attendee: Self.ownAddress)
                return text.components(separatedBy: "\r\n").filter {
                    !["BEGIN:VCALENDAR", "END:VCALENDAR", "VERSION:2.0", "PRODID:-//calgw//random//EN", ""].contains($0)
                }.joined(separator: "\r\n")
            }
            next += 1
            return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n" + bodies.joined(separator: "\r\n")
                + "\r\nEND:VCALENDAR\r\n"
        }

        func url(_ path: String) -> URL { folder.file(path) }

        func write(_ text: String, to path: String) throws { try Data(text.utf8).write(to: url(path)) }

        /// The item files now, as paths below the test's folder.
        func files() -> [String] {
            var found: [String] = ["single.ics"]
            for folder in ["local", "local/a", "local/b", "acct/work", "acct/home", "vdir"] {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: url(folder).path)) ?? []
                found += names.filter { $0.hasSuffix(".ics") }.sorted().map { "\(folder)/\($0)" }
            }
            return found
        }

        mutating func add(in folder: String) throws {
            let uid = "e\(next)"
            next += 1
            try write(content(uid: uid), to: "\(folder)/\(uid).ics")
        }

        /// New content for the file at `path`: a single-file pair's file stays one of many series.
        mutating func newContent(for path: String) -> String {
            path == "single.ics" ? single() : content(uid: "e\(next)x")
        }

        /// The modification time of `path`.
        func modified(_ path: String) throws -> Date {
            try #require(try FileManager.default.attributesOfItem(atPath: url(path).path)[.modificationDate] as? Date)
        }

        func putBack(_ date: Date, on path: String) throws {
            try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: url(path).path)
        }

        /// One random change to the files or to what `list` is run with; its name, for failures.
        mutating func change() async throws -> String {
            let files = files()
            let path = files[Int.random(in: 0..<files.count, using: &random)]
            switch Int.random(in: 0..<12, using: &random) {
            case 0:
                // In place: the same inode, written over.
                let handle = try FileHandle(forWritingTo: url(path))
                try handle.truncate(atOffset: 0)
                try handle.write(contentsOf: Data(newContent(for: path).utf8))
                try handle.close()
                return "edited \(path) in place"
            case 1:
                try write(newContent(for: path), to: path + ".tmp")
                _ = rename(url(path + ".tmp").path, url(path).path)
                return "replaced \(path) by a rename"
            case 2:
                let before = try modified(path)
                try write(newContent(for: path), to: path)
                try putBack(before, on: path)
                return "edited \(path), its modification time put back"
            case 3:
                // The same size and modification time, in place: one letter of its text changed.
                let before = try modified(path)
                var bytes = try Data(contentsOf: url(path))
                guard let at = bytes.firstRange(of: Data("SUMMARY:".utf8))?.upperBound, at < bytes.count else {
                    return "nothing"
                }
                bytes[at] = bytes[at] == UInt8(ascii: "Z") ? UInt8(ascii: "Y") : UInt8(ascii: "Z")
                let handle = try FileHandle(forWritingTo: url(path))
                try handle.write(contentsOf: bytes)
                try handle.close()
                try putBack(before, on: path)
                return "changed a letter of \(path), same size and time"
            case 4:
                let folder = ["local", "local/a", "local/b", "acct/work", "acct/home", "vdir"][
                    Int.random(in: 0..<6, using: &random)]
                try add(in: folder)
                return "added a file to \(folder)"
            case 5:
                guard path != "single.ics" else { return "nothing" }
                try FileManager.default.removeItem(at: url(path))
                return "removed \(path)"
            case 6:
                let (a, b) = Bool.random(using: &random) ? ("local/a", "local/b") : ("acct/work", "acct/home")
                _ = rename(url(a).path, url("swap").path)
                _ = rename(url(b).path, url(a).path)
                _ = rename(url("swap").path, url(b).path)
                return "swapped \(a) and \(b)"
            case 7:
                // The whole vdir for a copy of it with one file changed, same size and times.
                try FileManager.default.copyItem(at: url("vdir"), to: url("vdir.new"))
                let names = try FileManager.default.contentsOfDirectory(atPath: url("vdir.new").path).sorted()
                if let name = names.first {
                    let before = try modified("vdir/\(name)")
                    var bytes = try Data(contentsOf: url("vdir.new/\(name)"))
                    if let at = bytes.firstRange(of: Data("SUMMARY:".utf8))?.upperBound, at < bytes.count {
                        bytes[at] = bytes[at] == UInt8(ascii: "Q") ? UInt8(ascii: "R") : UInt8(ascii: "Q")
                    }
                    try bytes.write(to: url("vdir.new/\(name)"))
                    try putBack(before, on: "vdir.new/\(name)")
                }
                try FileManager.default.removeItem(at: url("vdir"))
                _ = rename(url("vdir.new").path, url("vdir").path)
                return "swapped the vdir for a changed copy"
            case 8:
                environment["TZ"] = zones[Int.random(in: 0..<zones.count, using: &random)]
                return "TZ=\(environment["TZ"]!)"
            case 9:
                try Data("# tzdata \(next)".utf8).write(to: url("tzdir/tzdata.zi"))
                next += 1
                return "new time-zone data"
            case 10, 11:
                return try await runCommand()
            default:
                return "nothing"
            }
        }

        /// calgw's own writes to the vdir pair (its remote is another vdir, `mirror`): a sync
        /// (after an event was put in the mirror, sometimes), or an `event` command.
        mutating func runCommand() async throws -> String {
            let config = ["--config", url("config.toml").path, "--pair", "plain"]
            let uids = (try? FileManager.default.contentsOfDirectory(atPath: url("vdir").path)) ?? []
            let uid = uids.isEmpty ? "none" : String(uids[Int.random(in: 0..<uids.count, using: &random)].dropLast(4))
            let arguments: [String]
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                try? FileManager.default.createDirectory(at: url("mirror"), withIntermediateDirectories: true)
                if Bool.random(using: &random) {
                    try write(calendars.calendar(uid: "m\(next)"), to: "mirror/m\(next).ics")
                    next += 1
                }
                arguments = ["sync"] + config
            case 1:
                arguments =
                    [
                        "event", "add", "--summary", "added \(next)", "--start", "2026-03-1\(next % 10)T09:30",
                        "--duration",
                        "PT1H",
                    ] + config + (Bool.random(using: &random) ? ["--rrule", "FREQ=WEEKLY;COUNT=5"] : [])
                next += 1
            case 2:
                arguments =
                    ["event", "edit", uid, "--summary", "edited \(next)", "--start", "2026-04-02T08:00"] + config
            case 3: arguments = ["event", "delete", uid] + config
            default: arguments = ["event", "edit", uid, "--location", "room \(next)", "--offline"] + config
            }
            let result = try await CalgwBinary.run(arguments, environment: environment)
            return "\(arguments.prefix(2).joined(separator: " ")) (exit \(result.status))"
        }

        /// Lists with the index and without, and compares everything `list` says.
        mutating func compare(after history: [String]) async throws {
            var arguments = ["list", "--config", url("config.toml").path]
            switch Int.random(in: 0..<4, using: &random) {
            case 0: arguments += ["--local", url("local").path]
            case 1: arguments += ["--all"]
            case 2: arguments += ["--pair", "acct"]
            default: arguments += ["--pair", ["plain", "one"][Int.random(in: 0..<2, using: &random)]]
            }
            let year = [1850, 2019, 2025, 2026, 2026, 2027, 2031, 2150][Int.random(in: 0..<8, using: &random)]
            let month = Int.random(in: 1...12, using: &random)
            let from = String(format: "%04d-%02d-01", year, month)
            let to: String
            // A day, four weeks, a year; in the load run four years too.
            switch Int.random(in: 0..<(TestLoad.isOn ? 4 : 3), using: &random) {
            case 0: to = String(format: "%04d-%02d-02", year, month)
            case 1: to = String(format: "%04d-%02d-01", year + 1, month)
            case 3: to = String(format: "%04d-%02d-01", year + 4, month)
            default: to = String(format: "%04d-%02d-28", year, month)
            }
            arguments += ["--from", from, "--to", to]
            if Bool.random(using: &random) {
                arguments += ["--tz", zones[Int.random(in: 0..<zones.count, using: &random)]]
            }
            if Bool.random(using: &random) { arguments.append("--json") }
            if Bool.random(using: &random) { arguments.append("--include-cancelled") }
            try await check(arguments, after: history)
            // The same listing again, after a change or none: printed from its memo when no file
            // it lists changed (`ListingMemo`), else read as any other.
            if Int.random(in: 0..<3, using: &random) == 0 {
                var history = history
                if Bool.random(using: &random) { history.append(try await change()) }
                try await check(arguments, after: history)
            }
        }

        /// Runs one listing with the index and without, and compares everything `list` says.
        mutating func check(_ arguments: [String], after history: [String]) async throws {
            let indexed = try await CalgwBinary.run(arguments + ["-v"], environment: environment)
            let full = try await CalgwBinary.run(
                arguments, environment: environment.merging(["CALGW_LIST_INDEX": "off"]) { $1 })
            let notes = indexed.stderrText.split(separator: "\n").filter { $0.contains("passed over by the index") }
            for note in notes {
                // "ROOT: N of M files passed over by the index, …"
                let counts = note.components(separatedBy: ": ").dropFirst().first ?? ""
                passedOver += Int(counts.split(separator: " ").first ?? "") ?? 0
                if note.contains("index started again") { restarts += 1 }
            }
            if indexed.stderrText.contains("no file changed: printed as kept in") { recalled += 1 }
            let stderr = indexed.stderrText.split(separator: "\n", omittingEmptySubsequences: false).filter {
                !$0.contains("passed over by the index") && !$0.hasSuffix(" occurrences")
                    && !$0.contains("no file changed: printed as kept in")
            }.joined(separator: "\n")
            let said =
                "seed \(seed): \(arguments.joined(separator: " ")) after: \(history.suffix(6).joined(separator: "; "))"
            #expect(indexed.status == full.status, "\(said)\n\(indexed.stderrText)\n\(full.stderrText)")
            #expect(indexed.stdoutText == full.stdoutText, "\(said)")
            #expect(stderr == full.stderrText, "\(said)")
        }
    }

    @Test func indexedListingsEqualFullExpansionsThroughRandomChanges() async throws {
        let seed = UInt64(TestLoad.isOn ? UInt64.random(in: 0..<1_000_000) : 55)
        var calendars = try Calendars(seed: seed)
        defer { calendars.folder.remove() }
        var history: [String] = ["seed \(seed)"]
        let steps = TestLoad.isOn ? 400 : 20
        for step in 0..<steps {
            // Folders and files left alone for more than the racy margin are vouched for by the
            // index (their names and stamps taken from it) from then on: one pause lets some be.
            if step == steps / 2 { try await Task.sleep(for: .seconds(2.1)) }
            for _ in 0..<Int.random(in: 0...2, using: &calendars.random) {
                history.append(try await calendars.change())
            }
            try await calendars.compare(after: history)
        }
        // The index did its work: files were passed over, and new time-zone data started it again.
        #expect(calendars.passedOver > 0)
        print("seed \(seed): \(calendars.recalled) listings printed from their memo")
        #expect(calendars.restarts > 0 || !history.contains("new time-zone data"))
    }
}
