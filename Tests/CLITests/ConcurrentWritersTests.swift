import CalDAV
import CalgwTestSupport
import Foundation
import Testing

/// Other programs at work while calgw syncs, against a real server: an editor rewriting a
/// file, and a second calgw on the same pair. Nothing torn reaches the server, nothing is lost
/// or doubled, and the next run converges.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ConcurrentWritersTests {
    /// A pair on a fresh collection of the first test server, with three quiet events.
    struct Pair {
        let server: TestServer
        let folder: TemporaryFolder
        let collection: URL
        let vdir: URL
        let config: URL

        init(prefix: String) async throws {
            server = try TestServers.shared(TestServers.any())
            folder = try TemporaryFolder()
            collection = server.newCollectionURL(prefix: prefix)
            vdir = folder.file("vdir")
            try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
            for i in 0..<3 {
                try Data(
                    ConcurrentWritersTests.event(uid: "quiet-\(i)-\(UUID().uuidString)", version: 0, padding: 1).utf8
                )
                .write(to: vdir.appendingPathComponent("quiet\(i).ics"))
            }
            config = folder.file("config.toml")
            try TestPairConfig(
                name: "busy", local: vdir, collection: collection,
                journal: folder.file("state/journal.sqlite"), server: server
            ).write(to: config)
            try await client().makeCalendar(collection, components: ["VEVENT"])
        }

        func client() throws -> CalDAVClient {
            try CalDAVClient(
                configuration: .init(
                    http: .init(authentication: .basic(username: server.username, password: server.password))))
        }

        func sync(_ extra: [String] = []) async throws -> ProcessRunner.Result {
            try await CalgwBinary.run(
                ["sync", "--config", config.path] + extra, environment: ["CALGW_TEST_PASSWORD": server.password])
        }

        /// Every resource's text on the server, lines unfolded.
        func serverTexts() async throws -> [String] {
            let client = try client()
            let listed = try await client.listItems(in: collection)
            guard !listed.isEmpty else { return [] }
            return try await client.multiget(collection, hrefs: listed.map(\.href)).map {
                String(decoding: $0.data, as: UTF8.self).replacingOccurrences(of: "\r\n ", with: "")
                    .replacingOccurrences(of: "\n ", with: "")
            }
        }
    }

    /// An event whose SUMMARY and long DESCRIPTION both name `version`: a copy mixing two
    /// versions, or cut short, shows at once.
    static func event(uid: String, version: Int, padding: Int) -> String {
        let description = String(repeating: "v\(version)-", count: padding)
        return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calgw//tests//EN\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\n"
            + "DTSTAMP:20260101T000000Z\r\nDTSTART:20260301T100000Z\r\nDTEND:20260301T110000Z\r\n"
            + "SUMMARY:version \(version)\r\nDESCRIPTION:\(description)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    }

    /// The version a server copy of the busy event holds, nil when it is not one whole version.
    static func wholeVersion(in text: String, padding: Int) -> Int? {
        let lines = text.components(separatedBy: CharacterSet.newlines)
        guard let summary = lines.first(where: { $0.hasPrefix("SUMMARY:version ") }),
            let version = Int(summary.dropFirst("SUMMARY:version ".count)),
            let description = lines.first(where: { $0.hasPrefix("DESCRIPTION:") })
        else { return nil }
        return description == "DESCRIPTION:" + String(repeating: "v\(version)-", count: padding) ? version : nil
    }

    /// A writer rewrites one file in place, truncating it and writing it back in small pieces
    /// (as `cat > file` or an editor saving in place does), and now and then saves by rename
    /// (as khal does), all the while calgw syncs. No run uploads a torn or mixed copy.
    @Test func aFileRewrittenDuringSyncsNeverReachesTheServerTorn() async throws {
        let pair = try await Pair(prefix: "busy")
        defer { pair.folder.remove() }
        let padding = 20_000  // about 80 KB: a save takes many writes
        let uid = "busy-\(UUID().uuidString)"
        let path = pair.vdir.appendingPathComponent("busy.ics").path
        try Data(Self.event(uid: uid, version: 0, padding: padding).utf8).write(to: URL(fileURLWithPath: path))

        let writer = FileRewriter(path: path) { Self.event(uid: uid, version: $0, padding: padding) }
        writer.start()
        var outcomes: [Int32] = []
        var seenVersions: Set<Int> = []
        for _ in 0..<8 {
            let run = try await pair.sync()
            outcomes.append(run.status)
            #expect(run.status == 0 || (run.status == 1 && run.stderrText.contains("busy.ics")), "\(run.stderrText)")
            for text in try await pair.serverTexts() where text.contains("UID:\(uid)") {
                let version = Self.wholeVersion(in: text, padding: padding)
                #expect(version != nil, "the server holds a torn copy: \(text.prefix(400))")
                if let version { seenVersions.insert(version) }
            }
        }
        let last = writer.stop()
        print(
            "concurrent writer: \(writer.saves) saves, sync exits \(outcomes), versions seen on the server \(seenVersions.sorted())"
        )
        #expect(writer.saves > 20, "the writer saved \(writer.saves) times")

        let settle = try await pair.sync()
        #expect(settle.status == 0, "\(settle.stderrText)")
        let texts = try await pair.serverTexts()
        #expect(texts.count == 4, "\(texts.count) resources on the server")
        let busy = texts.filter { $0.contains("UID:\(uid)") }
        #expect(
            busy.count == 1 && busy.first.flatMap { Self.wholeVersion(in: $0, padding: padding) } == last,
            "the server should hold version \(last), runs: \(outcomes), seen: \(seenVersions.sorted())")
        let local = try String(contentsOfFile: path, encoding: .utf8)
        #expect(Self.wholeVersion(in: local, padding: padding) == last, "the writer's file was changed by calgw")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: pair.vdir.path).filter { $0.hasSuffix(".ics") }.count
                == 4)
    }

    /// Two `calgw sync` on one pair at once: the test holds the pair's lock until both runs
    /// are waiting for it (each has the lock file open), then lets go. One runs; the other
    /// waits for it (or gives up with a clear message), and the result is what one run would
    /// have made.
    @Test func twoRunsOnOnePairAtOnceDoNotInterleave() async throws {
        let pair = try await Pair(prefix: "twice")
        defer { pair.folder.remove() }
        for i in 0..<30 {
            try Data(Self.event(uid: "twice-\(i)-\(UUID().uuidString)", version: i, padding: 10).utf8)
                .write(to: pair.vdir.appendingPathComponent("t\(i).ics"))
        }
        let lockPath = pair.folder.file("state/journal.sqlite.lock").path
        try FileManager.default.createDirectory(at: pair.folder.file("state"), withIntermediateDirectories: true)
        let held = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        try #require(held >= 0 && flock(held, LOCK_EX) == 0, "could not take \(lockPath)")
        // Both runs are waited for as tasks of their own, holding no thread meanwhile.
        async let first = pair.sync()
        async let second = pair.sync()
        var waiting = 0
        for _ in 0..<600 {
            waiting = Self.processes(holding: lockPath)
            if waiting >= 2 { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        flock(held, LOCK_UN)
        close(held)
        let runs = [try await first, try await second]
        #expect(waiting == 2, "\(waiting) runs waited for the lock together")
        for run in runs {
            #expect(
                run.status == 0 || (run.status == 1 && run.stderrText.contains("another calgw run")),
                "\(run.stderrText)")
        }
        #expect(runs.contains { $0.status == 0 })
        let settle = try await pair.sync(["--json"])
        #expect(settle.status == 0, "\(settle.stderrText)")
        let report = try JSONSerialization.jsonObject(with: settle.stdout) as? [String: Any]
        let created = report?["created"] as? [String: Int]
        #expect(
            created?["local"] == 0 && created?["remote"] == 0,
            "the run after both had more to create: \(settle.stdoutText)")
        let texts = try await pair.serverTexts()
        #expect(texts.count == 33, "\(texts.count) resources on the server")
        let uids = texts.compactMap { $0.components(separatedBy: CharacterSet.newlines).first { $0.hasPrefix("UID:") } }
        #expect(Set(uids).count == 33, "a UID is on the server twice")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: pair.vdir.path).filter { $0.hasSuffix(".ics") }.count
                == 33)
    }

    /// How many other processes have `path` open (from /proc/PID/fd).
    static func processes(holding path: String) -> Int {
        let me = String(getpid())
        let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).filter {
            $0 != me && Int($0) != nil
        }
        return pids.filter { pid in
            let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
            return fds.contains {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) == path
            }
        }.count
    }
}

/// Rewrites a file over and over on a thread of its own until stopped: mostly in place
/// (truncate, then 4 KB writes with short pauses), every fifth save by write-and-rename.
final class FileRewriter: @unchecked Sendable {
    let path: String
    let content: @Sendable (Int) -> String
    private let lock = NSLock()
    private var running = true
    private var version = 0
    private(set) var saves = 0
    private let done = DispatchSemaphore(value: 0)

    init(path: String, content: @escaping @Sendable (Int) -> String) {
        self.path = path
        self.content = content
    }

    func start() {
        Thread { [self] in
            while lock.withLock({ running }) {
                let next = lock.withLock { version + 1 }
                let bytes = Array(content(next).utf8)
                if next % 5 == 0 { saveByRename(bytes) } else { saveInPlace(bytes) }
                lock.withLock {
                    version = next; saves += 1
                }
                usleep(20_000)
            }
            done.signal()
        }.start()
    }

    /// Stops after the save under way; returns the version the file holds.
    func stop() -> Int {
        lock.withLock { running = false }
        done.wait()
        return lock.withLock { version }
    }

    private func saveInPlace(_ bytes: [UInt8]) {
        let fd = open(path, O_WRONLY | O_TRUNC)
        guard fd >= 0 else { return }
        var offset = 0
        while offset < bytes.count {
            let n = min(4096, bytes.count - offset)
            _ = bytes[offset..<offset + n].withUnsafeBytes { write(fd, $0.baseAddress, n) }
            offset += n
            usleep(200)
        }
        close(fd)
    }

    private func saveByRename(_ bytes: [UInt8]) {
        let temporary = path + ".tmp-save"
        _ = FileManager.default.createFile(atPath: temporary, contents: Data(bytes))
        rename(temporary, path)
    }
}
