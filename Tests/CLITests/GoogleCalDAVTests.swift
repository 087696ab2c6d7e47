import Foundation
import Testing
import CalgwTestSupport

/// `calgw sync` against a server that answers as Google Calendar's CalDAV endpoint does where
/// it departs from the RFCs (`Scripts/proxies/google_proxy.py` in front of Radicale), one
/// behaviour per test, each named after the guide's line or the report it follows. Each test
/// checks what the person sees (exit status, message), the vdir and the server, and that a
/// second run converges with nothing lost or doubled.
@Suite(.timeLimit(.minutes(10))) struct GoogleCalDAVTests {
    /// A pair whose remote is a fresh collection reached through the proxy, and a second pair
    /// straight on the collection that reads what the server holds.
    struct Setup {
        let server: TestServer
        let proxy: TestProxy
        let folder: TemporaryFolder
        let pair: ServerPair
        let direct: ServerPair
        let collection: URL

        /// `extra`: more lines of the proxied pair's config (`api = "google"`).
        init(
            _ prefix: String, extra: [String] = [], _ configure: (inout TestProxies.GoogleBehaviours, URL) -> Void
        ) async throws {
            server = try TestServers.shared("radicale")
            collection = server.newCollectionURL(prefix: prefix)
            try await server.makeCalendar(collection)
            var behaviours = TestProxies.GoogleBehaviours()
            configure(&behaviours, collection)
            proxy = try TestProxies.google(upstream: server.url, behaviours)
            folder = try TemporaryFolder()
            pair = try ServerPair(folder, "google", server: server, collection: proxy.proxied(collection), extra: extra)
            direct = try ServerPair(folder, "direct", server: server, collection: collection)
        }

        func remove() {
            proxy.stop()
            folder.remove()
        }

        func sync() async throws -> ProcessRunner.Result { try await pair.run("sync", password: server.password) }

        /// UID → SUMMARY of what the server holds, read by the direct pair.
        func serverSummaries() async throws -> [String: String] {
            let r = try await direct.run("sync", password: server.password)
            #expect(r.status == 0, "reading the server: \(r.stdoutText) \(r.stderrText)")
            return try direct.summaries()
        }

        func write(_ uid: String, _ data: Data) throws {
            try data.write(to: pair.vdir.appendingPathComponent("\(uid).ics"))
        }

        func icsFiles() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: pair.vdir.path).filter { $0.hasSuffix(".ics") }.sorted()
        }

        /// PUTs `data` as `name` into the collection (or `calendar`) by curl, as another client would.
        func putOnServer(_ data: Data, name: String, in calendar: URL? = nil) async throws {
            let file = folder.file("upload-\(name)")
            try data.write(to: file)
            let put = try await ProcessRunner.run(
                "curl",
                [
                    "-s", "-o", "/dev/null", "-w", "%{http_code}", "-u", "\(server.username):\(server.password)",
                    "-T", file.path, "-H", "Expect:", "-H", "Content-Type: text/calendar",
                    (calendar ?? collection).appendingPathComponent(name).absoluteString,
                ])
            #expect(["201", "204"].contains(put.stdoutText), "PUT \(name): \(put.stdoutText)")
        }

        func count(_ action: String) -> Int { proxy.logEntries().filter { ($0["action"] as? String) == action }.count }
    }

    static func said(_ r: ProcessRunner.Result) -> String { r.stdoutText + r.stderrText }

    /// The run wrote nothing on either side.
    static func changedNothing(_ r: ProcessRunner.Result) -> Bool {
        r.stdoutText.contains("local: 0 created, 0 updated, 0 deleted; remote: 0 created, 0 updated, 0 deleted")
    }
}
