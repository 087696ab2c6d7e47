import Foundation
import Testing
import CalgwTestSupport

/// Local faults met with a real vdir and a real Radicale: a vdir on a file system that fills up
/// mid-pull, one that is read-only, one whose folder is immutable (`chattr +i`, which binds
/// root too, where permission bits do not), a journal overwritten with garbage and one cut
/// short mid-page. Each time nothing is lost on either side, the errors of one cause are told
/// once with a hint, and a rerun once the fault is gone converges.
///
/// The mounts need root (tests run as root here); a test that cannot mount fails saying why.
@Suite(.serialized, .timeLimit(.minutes(10))) struct LocalFaultTests {
    struct Pair {
        let config: URL
        let vdir: URL
        let journal: URL
        let password: String
        func run(_ command: String, _ extra: [String] = []) async throws -> ProcessRunner.Result {
            try await CalgwBinary.run(
                [command, "--config", config.path] + extra, environment: ["CALGW_TEST_PASSWORD": password])
        }
    }

    /// A Radicale collection and a folder for pairs on it.
    struct Setup {
        let server: TestServer
        let collection: URL
        let folder: TemporaryFolder
        let id = UUID().uuidString.prefix(8).lowercased()

        init() async throws {
            server = try TestServers.shared(TestServers.any())
            collection = server.newCollectionURL(prefix: "fault")
            try await server.makeCalendar(collection)
            folder = try TemporaryFolder()
        }

        func pair(_ name: String, vdir: URL) throws -> Pair {
            try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
            let config = folder.file("\(name).toml"), journal = folder.file("state/\(name).sqlite")
            try TestPairConfig(
                name: name, local: vdir, collection: collection,
                journal: journal, server: server
            ).write(to: config)
            return Pair(config: config, vdir: vdir, journal: journal, password: server.password)
        }

        /// Puts events `uids` on the server through a pair of its own.
        func upload(_ uids: [String]) async throws {
            let seed = try pair("seed", vdir: folder.file("seed"))
            for uid in uids {
                try TestEvent.data(uid: uid, summary: "event", end: "20260310T110000Z").write(
                    to: seed.vdir.appendingPathComponent("\(uid).ics"))
            }
            let pushed = try await seed.run("push")
            guard pushed.status == 0 else {
                throw SetupFailure(reason: "seeding the server failed: \(pushed.stderrText)")
            }
        }

        /// The UIDs on the server, read by a fresh pair, and how many items the server lists.
        func serverUIDs() async throws -> (uids: Set<String>, count: Int) {
            let check = try pair(
                "check-\(UUID().uuidString.prefix(6))", vdir: folder.file("check-\(UUID().uuidString.prefix(6))"))
            let pulled = try await check.run("pull")
            #expect(pulled.status == 0, "\(pulled.stderrText)")
            let listing = try await ProcessRunner.run(
                "curl",
                [
                    "-s", "-u", "\(server.username):\(server.password)", "-X", "PROPFIND",
                    "-H", "Depth: 1", collection.absoluteString,
                ])
            let count = listing.stdoutText.components(separatedBy: ".ics</").count - 1
            return (try LocalFaultTests.uids(in: check.vdir), count)
        }
    }

    struct SetupFailure: Error, CustomStringConvertible { var reason: String; var description: String { reason } }

    /// The UIDs of the vdir's files (each file whole: it ends with END:VCALENDAR).
    static func uids(in vdir: URL) throws -> Set<String> {
        var out: Set<String> = []
        for name in try FileManager.default.contentsOfDirectory(atPath: vdir.path) where name.hasSuffix(".ics") {
            let text = try String(contentsOf: vdir.appendingPathComponent(name), encoding: .utf8).replacingOccurrences(
                of: "\r\n", with: "\n")
            #expect(text.hasSuffix("END:VCALENDAR\n"), "\(name) is not whole: \(text)")
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("UID:") }) {
                out.insert(String(line.dropFirst(4)))
            }
        }
        return out
    }

    static func icsCount(_ vdir: URL) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: vdir.path).filter { $0.hasSuffix(".ics") }.count
    }

    /// Runs a system command the test needs (mount, chattr); fails with its output if it fails.
    static func system(_ command: String, _ arguments: [String]) async throws {
        let result = try await ProcessRunner.run(command, arguments)
        guard result.status == 0 else {
            throw SetupFailure(
                reason:
                    "\(command) \(arguments.joined(separator: " ")) failed (tests need root): \(result.stderrText)\(result.stdoutText)"
            )
        }
    }

    static func json(_ result: ProcessRunner.Result) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any],
            "\(result.stdoutText) \(result.stderrText)")
    }

    /// A second sync changes nothing.
    static func expectSettled(_ pair: Pair) async throws {
        let again = try await pair.run("sync", ["--json"])
        #expect(again.status == 0, "\(again.stderrText)")
        let json = try json(again)
        for key in ["created", "updated", "deleted"] {
            #expect(json[key] as? [String: Int] == ["local": 0, "remote": 0], "\(key): \(again.stdoutText)")
        }
    }

    @Test func aPullOntoAFileSystemThatFillsUpToldOnceAndFinishedLater() async throws {
        let setup = try await Setup()
        defer { setup.folder.remove() }
        let uids = (0..<120).map { "full-\(setup.id)-\($0)" }
        try await setup.upload(uids)
        // 200 KiB: 50 pages, and each file takes at least one.
        let mount = setup.folder.file("small")
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
        try await Self.system("mount", ["-t", "tmpfs", "-o", "size=200k", "tmpfs", mount.path])
        defer { _ = try? ProcessRunner.runBlocking("umount", [mount.path]) }
        let pair = try setup.pair("full", vdir: mount.appendingPathComponent("cal"))

        let pulled = try await pair.run("pull")
        #expect(pulled.status == 1, "\(pulled.stderrText)")
        let written = try Self.icsCount(pair.vdir)
        #expect(written > 0 && written < uids.count, "\(written) files written")
        let lines = pulled.stderrText.split(separator: "\n").map(String.init)
        let full = lines.filter { $0.contains("No space left on device") }
        #expect(full.count == 4, "\(pulled.stderrText)")
        #expect(full.prefix(3).allSatisfy { $0.hasPrefix("error: full: full-\(setup.id)-") }, "\(full)")
        // The items and the collection's name file (`displayname`) alike.
        #expect(
            full.last
                == "error: full: … and \(uids.count - written - 3 + 1) more: No space left on device (the file system mounted at \(mount.path))",
            "\(full)")
        let hints = lines.filter { $0.hasPrefix("hint: ") }
        #expect(
            hints.count == 1
                && hints[0].hasPrefix(
                    "hint: free space on the file system mounted at \(mount.path) (df -h \(mount.path))"),
            "\(pulled.stderrText)")

        // --json keeps one error per item (and one for the collection's name file).
        let again = try await pair.run("pull", ["--json"])
        #expect(again.status == 1)
        let errors = try #require(try Self.json(again)["errors"] as? [String])
        let itemErrors = errors.filter { $0.hasPrefix("full-\(setup.id)-") }
        #expect(itemErrors.count == uids.count - (try Self.icsCount(pair.vdir)), "\(itemErrors.count) item errors")
        #expect(errors.allSatisfy { $0.contains("No space left on device") }, "\(errors.prefix(3))")

        // Nothing lost: the server keeps every event, the vdir only whole files of them.
        let server = try await setup.serverUIDs()
        #expect(server.uids == Set(uids) && server.count == uids.count, "\(server.count) on the server")
        #expect(try Self.uids(in: pair.vdir).isSubset(of: Set(uids)))

        // With room again, a sync finishes the work.
        try await Self.system("mount", ["-o", "remount,size=8m", mount.path])
        let synced = try await pair.run("sync")
        #expect(synced.status == 0, "\(synced.stderrText)")
        #expect(try Self.uids(in: pair.vdir) == Set(uids))
        #expect(try Self.icsCount(pair.vdir) == uids.count)
        #expect(try await setup.serverUIDs().count == uids.count)
        try await Self.expectSettled(pair)
    }

    @Test func aReadOnlyVdirToldOnceAndFinishedWhenWritable() async throws {
        let setup = try await Setup()
        defer { setup.folder.remove() }
        let first = (0..<5).map { "ro-\(setup.id)-\($0)" }, later = (5..<12).map { "ro-\(setup.id)-\($0)" }
        try await setup.upload(first)
        let mount = setup.folder.file("ro")
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
        try await Self.system("mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", mount.path])
        defer { _ = try? ProcessRunner.runBlocking("umount", [mount.path]) }
        let pair = try setup.pair("ro", vdir: mount.appendingPathComponent("cal"))
        #expect(try await pair.run("sync").status == 0)
        #expect(try Self.uids(in: pair.vdir) == Set(first))

        try await setup.upload(first + later)
        try await Self.system("mount", ["-o", "remount,ro", mount.path])
        let pulled = try await pair.run("pull")
        #expect(pulled.status == 1, "\(pulled.stderrText)")
        let lines = pulled.stderrText.split(separator: "\n").map(String.init)
        let readOnly = lines.filter { $0.contains("Read-only file system") }
        #expect(readOnly.count == 4, "\(pulled.stderrText)")
        #expect(
            readOnly.last
                == "error: ro: … and \(later.count - 3) more: Read-only file system (the file system mounted at \(mount.path))",
            "\(readOnly)")
        let hints = lines.filter { $0.hasPrefix("hint: ") }
        #expect(
            hints.count == 1
                && hints[0].contains("is read-only: remount it read-write (mount -o remount,rw \(mount.path))"),
            "\(pulled.stderrText)")
        #expect(try Self.uids(in: pair.vdir) == Set(first))
        #expect(try await setup.serverUIDs().uids == Set(first + later))

        try await Self.system("mount", ["-o", "remount,rw", mount.path])
        let synced = try await pair.run("sync")
        #expect(synced.status == 0, "\(synced.stderrText)")
        #expect(try Self.uids(in: pair.vdir) == Set(first + later))
        let server = try await setup.serverUIDs()
        #expect(server.uids == Set(first + later) && server.count == first.count + later.count)
        try await Self.expectSettled(pair)
    }

    /// Root writes through permission bits, so the folder is made immutable instead: no file can
    /// be created, changed or removed in it, by root either.
    @Test func anImmutableVdirFolderToldOnceAndFinishedWhenWritable() async throws {
        let setup = try await Setup()
        defer { setup.folder.remove() }
        let first = (0..<3).map { "imm-\(setup.id)-\($0)" }, later = (3..<9).map { "imm-\(setup.id)-\($0)" }
        try await setup.upload(first)
        let pair = try setup.pair("imm", vdir: setup.folder.file("imm"))
        #expect(try await pair.run("sync").status == 0)
        try await setup.upload(first + later)
        try await Self.system("chattr", ["+i", pair.vdir.path])
        defer { _ = try? ProcessRunner.runBlocking("chattr", ["-i", pair.vdir.path]) }

        let pulled = try await pair.run("pull")
        #expect(pulled.status == 1, "\(pulled.stderrText)")
        let lines = pulled.stderrText.split(separator: "\n").map(String.init)
        let denied = lines.filter { $0.contains("Operation not permitted") }
        #expect(denied.count == 4, "\(pulled.stderrText)")
        #expect(
            denied.last == "error: imm: … and \(later.count - 3) more: Operation not permitted (in \(pair.vdir.path))",
            "\(denied)")
        let hints = lines.filter { $0.hasPrefix("hint: ") }
        #expect(hints.count == 1 && hints[0].contains("lsattr \(pair.vdir.path)"), "\(pulled.stderrText)")
        #expect(try Self.uids(in: pair.vdir) == Set(first))

        try await Self.system("chattr", ["-i", pair.vdir.path])
        let synced = try await pair.run("sync")
        #expect(synced.status == 0, "\(synced.stderrText)")
        #expect(try Self.uids(in: pair.vdir) == Set(first + later))
        #expect(try await setup.serverUIDs().count == first.count + later.count)
        try await Self.expectSettled(pair)
    }

    enum Damage: String, CaseIterable { case garbage, truncated }

    @Test(arguments: Damage.allCases)
    func aDamagedJournalIsMovedAsideAndBothSidesMatchedAgain(damage: Damage) async throws {
        let setup = try await Setup()
        defer { setup.folder.remove() }
        let synced = (0..<40).map { "j-\(setup.id)-\($0)" }
        try await setup.upload(synced)
        let pair = try setup.pair("work", vdir: setup.folder.file("work"))
        #expect(try await pair.run("sync").status == 0)
        // A change pending on each side when the journal is lost.
        let localNew = "local-\(setup.id)", remoteNew = "remote-\(setup.id)"
        try TestEvent.data(uid: localNew, summary: "event", end: "20260310T110000Z").write(
            to: pair.vdir.appendingPathComponent("\(localNew).ics"))
        try await setup.upload(synced + [remoteNew])

        let size = try #require(try FileManager.default.attributesOfItem(atPath: pair.journal.path)[.size] as? Int)
        switch damage {
        case .garbage:
            try Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 17) }).write(to: pair.journal)
        case .truncated:
            #expect(size >= 4 * 4096, "journal of \(size) bytes")
            #expect(truncate(pair.journal.path, off_t(size / 2 + 1000)) == 0)
        }
        let damaged = try Data(contentsOf: pair.journal)

        // status and --dry-run say what a sync will do, and leave the file where it is.
        for (command, extra) in [("status", [String]()), ("sync", ["--dry-run"])] {
            let looked = try await pair.run(command, extra)
            #expect(
                (looked.stdoutText + looked.stderrText).contains(
                    "a sync will move it aside and match both sides again"),
                "\(command): \(looked.stdoutText)\(looked.stderrText)")
            #expect(try Data(contentsOf: pair.journal) == damaged, "\(command) changed the journal")
        }

        let result = try await pair.run("sync", ["--json"])
        #expect(result.status == 0, "\(result.stderrText)")
        let skipped = try #require(try Self.json(result)["skipped"] as? [String])
        let notice = try #require(skipped.first, "\(result.stdoutText)")
        #expect(
            notice.hasPrefix(
                "the journal \(pair.journal.path) \(damage == .garbage ? "is not a database" : "is damaged: ")"),
            "\(notice)")
        #expect(
            notice.contains("moved it aside to \(pair.journal.path).corrupt-")
                && notice.hasSuffix("and matched both sides again"), "\(notice)")
        #expect(result.stderrText.contains("warning: work: the journal \(pair.journal.path) "), "\(result.stderrText)")
        // The damaged file is kept, byte for byte.
        let aside = try FileManager.default.contentsOfDirectory(atPath: pair.journal.deletingLastPathComponent().path)
            .filter { $0.hasPrefix("work.sqlite.corrupt-") && !$0.hasSuffix("-wal") }
        #expect(aside.count == 1, "\(aside)")
        if let name = aside.first {
            #expect(
                name.range(of: #"^work\.sqlite\.corrupt-\d{8}T\d{6}Z$"#, options: .regularExpression) != nil, "\(name)")
            #expect(
                try Data(contentsOf: pair.journal.deletingLastPathComponent().appendingPathComponent(name)) == damaged)
        }

        // Nothing lost, nothing doubled.
        let all = Set(synced + [localNew, remoteNew])
        #expect(try Self.uids(in: pair.vdir) == all)
        #expect(try Self.icsCount(pair.vdir) == all.count)
        let server = try await setup.serverUIDs()
        #expect(server.uids == all && server.count == all.count, "\(server.count) on the server")
        try await Self.expectSettled(pair)
    }
}
