import Foundation
import Testing
import CalgwTestSupport

/// Several writes at once into one server collection (a first push tries two and more where
/// they are faster; `CALGW_WRITE_CONCURRENCY` fixes the number here, so that the test does not
/// depend on timing): every item lands once on every server, and a write the server fails
/// while others are in flight is made again alone.
///
/// 80 items (the failing writes come after the 40th); 300 in the load run.
@Suite(.timeLimit(.minutes(10))) struct ConcurrentServerWritesTests {
    static let count = TestLoad.size(80, load: 300)

    @Test(arguments: TestServers.selected)
    func severalWritesAtOnceAllLand(server name: String) async throws {
        let server = try TestServers.shared(name)
        try await pushAndPullBack(server, concurrency: 4, proxy: nil)
    }

    /// Two writes in flight get 502 on each of their attempts (the HTTP layer's retries
    /// included): each is made again once the others are done, alone, and lands.
    @Test func aServerFailureAmongConcurrentWritesIsMadeAgainAlone() async throws {
        let name = TestServers.any()
        let server = try TestServers.shared(name)
        let script = Array(repeating: "ok", count: 40) + Array(repeating: "502", count: 8)
        let proxy = try TestProxies.fault(
            upstream: server.url, script: script.joined(separator: ","), onlyMethods: "PUT")
        defer { proxy.stop() }
        try await pushAndPullBack(server, concurrency: 2, proxy: proxy)
        let failed = proxy.logEntries().filter { ($0["status"] as? Int) == 502 }
        #expect(failed.count == 8, "\(name): \(failed.count) PUTs answered 502")
    }

    private func pushAndPullBack(_ server: TestServer, concurrency: Int, proxy: TestProxy?) async throws {
        let collection = server.newCollectionURL(prefix: "concurrent")
        try await server.makeCalendar(collection)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pushed = folder.file("pushed"), pulled = folder.file("pulled")
        for vdir in [pushed, pulled] {
            try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        }
        let run = UUID().uuidString.prefix(8)
        var uids: Set<String> = []
        for i in 0..<Self.count {
            let uid = "concurrent-\(run)-\(i)"
            uids.insert(uid)
            try Data(
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calgw//tests//EN\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260301T100000Z\r\nDURATION:PT1H\r\nSUMMARY:n\(i)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
                    .utf8
            )
            .write(to: pushed.appendingPathComponent("e\(i).ics"))
        }
        let environment = ["CALGW_TEST_PASSWORD": server.password, "CALGW_WRITE_CONCURRENCY": String(concurrency)]
        let pushConfig = folder.file("push.toml"), pullConfig = folder.file("pull.toml")
        try TestPairConfig(
            name: "push", local: pushed, collection: proxy?.proxied(collection) ?? collection,
            journal: folder.file("push.sqlite"), server: server
        ).write(to: pushConfig)
        try TestPairConfig(
            name: "pull", local: pulled, collection: collection, journal: folder.file("pull.sqlite"), server: server
        )
        .write(to: pullConfig)

        let push = try await CalgwBinary.run(["sync", "--config", pushConfig.path], environment: environment)
        #expect(push.status == 0, "\(server.name): \(push.stderrText)")
        #expect(push.stdoutText.contains("remote: \(Self.count) created"), "\(server.name): \(push.stdoutText)")
        let pull = try await CalgwBinary.run(["sync", "--config", pullConfig.path], environment: environment)
        #expect(pull.status == 0, "\(server.name): \(pull.stderrText)")
        var found: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: pulled.path) where name.hasSuffix(".ics") {
            let text = try String(contentsOf: pulled.appendingPathComponent(name), encoding: .utf8)
            found += text.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("UID:") }.map {
                String($0.dropFirst(4))
            }
        }
        #expect(
            found.count == Self.count && Set(found) == uids,
            "\(server.name): \(found.count) items pulled back, \(uids.subtracting(found).count) missing")
        // The pushing pair has nothing left to do.
        let again = try await CalgwBinary.run(["sync", "--config", pushConfig.path], environment: environment)
        #expect(
            again.status == 0 && again.stdoutText.contains("remote: 0 created, 0 updated, 0 deleted"),
            "\(server.name): \(again.stdoutText) \(again.stderrText)")
    }
}
