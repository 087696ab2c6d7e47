import Foundation
import Testing
import CalgwTestSupport

/// `calgw sync` against a hostile server (`Scripts/proxies/hostile_server.py`): hrefs that
/// climb out of the collection, point at another host, hold NUL or are 10,000 characters long;
/// a DTD with an external entity; an entity-expansion bomb; a body over `max_response_size`.
/// Each run ends (within a timeout) with an error naming the problem, changes nothing in the
/// folder around the vdir, and a later run against the same server, sane again, converges.
@Suite(.serialized, .timeLimit(.minutes(10))) struct HostileServerTests {
    /// A pair in its own folder: `vdir/`, `pair.toml`, and the journal under `state/`.
    struct Setup {
        let root: TemporaryFolder
        let control: TemporaryFolder
        let server: TestProxy
        var vdir: URL { root.file("vdir") }
        var config: URL { root.file("pair.toml") }
        var scenarioFile: URL { control.file("scenario") }

        init() throws {
            root = try TemporaryFolder(prefix: "calgw-hostile")
            control = try TemporaryFolder(prefix: "calgw-hostile-control")
            try Data("sane\n".utf8).write(to: control.file("scenario"))
            server = try TestProxies.hostile(scenarioFile: control.file("scenario"))
            try FileManager.default.createDirectory(at: root.file("vdir"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: root.file("state"), withIntermediateDirectories: true)
            try Data(
                """
                [pair.hostile]
                local = "\(root.file("vdir").path)"
                remote = "\(server.url.absoluteString)cal/"
                username = "alice"
                password_env = "CALGW_TEST_PASSWORD"
                journal = "\(root.file("state/journal.sqlite").path)"
                max_response_size = 65536
                """.utf8
            ).write(to: root.file("pair.toml"))
        }

        func remove() {
            server.stop()
            root.remove()
            control.remove()
        }

        func serve(_ scenario: String) throws { try Data("\(scenario)\n".utf8).write(to: scenarioFile) }

        /// `calgw sync`, killed after 120 s (status 137) so a hang fails the test instead of hanging it.
        func sync() async throws -> ProcessRunner.Result {
            try await ProcessRunner.run(
                "timeout", ["-s", "KILL", "120", CalgwBinary.url.path, "sync", "--config", config.path],
                environment: ["CALGW_TEST_PASSWORD": "secret", "NO_COLOR": "1"])
        }

        /// Every file and folder under the pair's folder except the journal's, with its bytes.
        func snapshot() throws -> [String: Data] {
            var out: [String: Data] = [:]
            let base = root.url.resolvingSymlinksInPath().path
            guard let walker = FileManager.default.enumerator(atPath: base) else { return out }
            while let relative = walker.nextObject() as? String {
                if relative == "state" || relative.hasPrefix("state/") { continue }
                let path = base + "/" + relative
                var isFolder: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
                out[relative] = isFolder.boolValue ? Data() : try Data(contentsOf: URL(fileURLWithPath: path))
            }
            return out
        }
    }

    /// Each scenario of the server and a piece of the error that must name its problem.
    static let scenarios: [(String, String)] = [
        ("dotdot", "/cal/../escape.ics"),
        ("encoded-dotdot", "contains a dot segment"),
        ("encoded-slash", "contains a dot segment"),
        ("other-host", "points at another server"),
        ("nul", "control character"),
        ("nul-raw", "XML response cannot be read"),
        ("long-name", "over the 4096 byte limit"),
        ("xxe", "declares a DTD"),
        ("bomb", "declares a DTD"),
        ("big", "larger than the 65536 byte limit"),
        ("bad-encoding", "input conversion failed"),
    ]

    @Test(arguments: scenarios)
    func testHostileAnswerFailsCleanlyAndASaneOneConverges(scenario: String, problem: String) async throws {
        let setup = try Setup()
        defer { setup.remove() }

        let first = try await setup.sync()
        #expect(first.status == 0, "sane server: \(first.stderrText)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: setup.vdir.path).filter { $0.hasSuffix(".ics") } == [
                "good-1.ics"
            ])
        let before = try setup.snapshot()

        try setup.serve(scenario)
        let hostile = try await setup.sync()
        #expect(hostile.status != 137, "\(scenario): calgw sync did not end within 120 s")
        #expect(hostile.status != 0, "\(scenario): \(hostile.stdoutText)")
        let output = hostile.stderrText + hostile.stdoutText
        #expect(output.contains("error:") && output.contains(problem), "\(scenario): \(output)")
        #expect(!output.contains("root:"), "\(scenario): the contents of /etc/passwd reached the output")
        #expect(output.count < 4000, "\(scenario): an error of \(output.count) characters")
        // The reason is calgw's message; libxml2 prints nothing of its own.
        #expect(
            !output.contains("xmlParseChunk") && !output.contains("I/O error :") && !output.hasPrefix("encoding error"),
            "\(scenario): \(output)")
        #expect(try setup.snapshot() == before, "\(scenario): files changed around or in the vdir")
        for escaped in [
            setup.root.file("escape.ics"),
            setup.root.url.deletingLastPathComponent().appendingPathComponent("escape.ics"),
        ] {
            #expect(!FileManager.default.fileExists(atPath: escaped.path), "\(scenario): \(escaped.path) was written")
        }

        try setup.serve("sane")
        let recovered = try await setup.sync()
        #expect(recovered.status == 0, "\(scenario), sane again: \(recovered.stderrText)")
        let settled = try await setup.sync()
        #expect(settled.status == 0, "\(scenario), settled: \(settled.stderrText)")
        #expect(
            settled.stdoutText.contains(
                "local: 0 created, 0 updated, 0 deleted; remote: 0 created, 0 updated, 0 deleted"),
            "\(scenario), settled: \(settled.stdoutText)")
        #expect(try setup.snapshot() == before, "\(scenario): the vdir is not what the sane server holds")
    }

    /// A hostile first contact: nothing is written, and the sane server is then synced in full.
    @Test func testHostileFirstContactWritesNothing() async throws {
        let setup = try Setup()
        defer { setup.remove() }
        let empty = try setup.snapshot()
        try setup.serve("encoded-dotdot")
        let hostile = try await setup.sync()
        #expect(hostile.status != 0 && hostile.status != 137, "\(hostile.stdoutText)")
        #expect(try setup.snapshot() == empty)
        try setup.serve("sane")
        let sane = try await setup.sync()
        #expect(sane.status == 0, "\(sane.stderrText)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: setup.vdir.path).filter { $0.hasSuffix(".ics") } == [
                "good-1.ics"
            ])
    }

    @Test(arguments: ["0", "-5", "\"64k\""])
    func testMaxResponseSizeMustBeAPositiveNumber(value: String) async throws {
        let setup = try Setup()
        defer { setup.remove() }
        let text = try String(contentsOf: setup.config, encoding: .utf8)
            .replacingOccurrences(of: "max_response_size = 65536", with: "max_response_size = \(value)")
        try Data(text.utf8).write(to: setup.config)
        let result = try await setup.sync()
        #expect(result.status != 0 && result.status != 137)
        #expect(
            result.stderrText.contains("max_response_size must be a positive number of bytes"), "\(result.stderrText)")
    }
}
