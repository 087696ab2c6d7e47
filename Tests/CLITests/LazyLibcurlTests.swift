import Foundation
import Testing
import CalgwTestSupport
import CalgwTestTraits

/// calgw is not linked against libcurl: it loads libcurl the first time a request needs it.
/// A command that makes no request (`list`, `event add --offline`, `fmt`) never maps libcurl
/// and the thirty libraries it needs, which took about 6 ms of every start; one that does loads
/// it when it first asks.
@Suite struct LazyLibcurlTests {
    @Test func theExecutableNamesNoLibcurlAmongItsLibraries() async throws {
        let result = try await ProcessRunner.run("/usr/bin/readelf", ["-d", CalgwBinary.url.path])
        #expect(result.status == 0, "\(result.stderrText)")
        let needed = result.stdoutText.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(needed.contains { $0.contains("libsqlite3") }, "readelf lists what calgw needs: \(needed)")
        #expect(!needed.contains { $0.contains("libcurl") }, "\(needed)")
    }

    @Test func commandsWithoutRequestsNeverLoadItAndASyncDoes() async throws {
        let server = try TestServers.shared("radicale")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let collection = server.newCollectionURL(prefix: "lazy")
        try await server.makeCalendar(collection)
        let pair = try ServerPair(folder, "p", server: server, collection: collection)
        try TestEvent.data(uid: "e1", summary: "Planning").write(to: pair.vdir.appendingPathComponent("e1.ics"))
        // LD_DEBUG=libs: the loader names each library as it loads it, on stderr.
        let traced = ["CALGW_TEST_PASSWORD": server.password, "LD_DEBUG": "libs"]
        let config = ["--config", pair.config.path]

        let sync = try await CalgwBinary.run(["sync"] + config, environment: traced)
        #expect(sync.status == 0, "\(sync.stderrText.suffix(2_000))")
        #expect(sync.stderrText.contains("libcurl.so.4"), "a sync loads libcurl")
        #expect(sync.stdoutText.contains("remote: 1 created"), "and uploads with it: \(sync.stdoutText)")

        for command in [
            ["list", "--from", "2026-01-01", "--to", "2027-01-01"] + config,
            ["event", "add", "--offline", "--summary", "Review", "--start", "2026-03-12T10:00", "--duration", "1h"]
                + config,
            ["fmt", "--check", pair.vdir.path],
        ] {
            let result = try await CalgwBinary.run(command, environment: traced)
            #expect(result.status == 0, "\(command[0]): \(result.stderrText.suffix(2_000))")
            #expect(!result.stderrText.contains("libcurl"), "\(command.prefix(2)) loaded libcurl")
            #expect(result.stderrText.contains("libsqlite3"), "\(command[0]): the loader's trace is there")
        }
    }
}
