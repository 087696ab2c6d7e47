import CalDAV
import CalgwTestSupport
import Foundation
import Testing

/// GETs per second through `HTTPClient` and through the `curl` command, on the same URL of a
/// local Radicale. A normal test run does 200 of each and checks every answer; the
/// `Scripts/bench/http` benchmark sets `CALGW_BENCH_HTTP_COUNT` and reads the printed rates.
/// Nothing here asserts a time.
@Suite(.serialized) struct HTTPBenchmarkTests {
    @Test func testGETRateAgainstCurl() async throws {
        let count = Int(ProcessInfo.processInfo.environment["CALGW_BENCH_HTTP_COUNT"] ?? "") ?? 200
        let fixture = try DAVServerFixture("radicale")
        let collection = try await fixture.newCalendar("bench")
        let uid = Sample.uid()
        let item = collection.appendingPathComponent("\(uid).ics")
        try await fixture.client.put(item, data: Sample.event(uid: uid), condition: .createOnly)
        var rows: [String] = []
        for compressed in [true, false] {
            var configuration = fixture.client.http.configuration
            configuration.acceptCompressedResponses = compressed
            let client = try HTTPClient(configuration: configuration)
            let calgw = try await Self.measureClient(client, url: item, count: count)
            let curl = try Self.measureCurl(url: item, server: fixture.server, count: count, compressed: compressed)
            let label = compressed ? "gzip" : "identity"
            rows.append("| calgw HTTPClient (\(label))".padding(toLength: 32, withPad: " ", startingAt: 0)
                        + "| \(Self.rate(count, calgw.0)) | \(Self.rate(count, calgw.1)) |")
            rows.append("| curl command (\(label))".padding(toLength: 32, withPad: " ", startingAt: 0)
                        + "| \(Self.rate(count, curl.0)) | \(Self.rate(count, curl.1)) |")
        }
        print("""
        HTTP GET benchmark, \(count) requests on Radicale, libcurl \(CalDAVTransport.curlVersion)
        | client                        | 1 in flight           | 8 in flight           |
        | ----------------------------- | --------------------- | --------------------- |
        \(rows.joined(separator: "\n"))
        end of HTTP GET benchmark
        """)
    }

    static func rate(_ count: Int, _ seconds: TimeInterval) -> String {
        String(format: "%8.0f/s (%6.2f s)", Double(count) / seconds, seconds)
    }

    /// Seconds for `count` GETs one at a time, then eight at a time.
    static func measureClient(_ client: HTTPClient, url: URL, count: Int) async throws -> (TimeInterval, TimeInterval) {
        var started = Date()
        for _ in 0..<count {
            let response = try await client.send(HTTPRequest(method: "GET", url: url))
            #expect(response.status == 200)
        }
        let sequential = Date().timeIntervalSince(started)
        started = Date()
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            var all: [Int] = []
            var next = 0
            for _ in 0..<min(8, count) {
                group.addTask { try await client.send(HTTPRequest(method: "GET", url: url)).status }
                next += 1
            }
            while let status = try await group.next() {
                all.append(status)
                if next < count {
                    group.addTask { try await client.send(HTTPRequest(method: "GET", url: url)).status }
                    next += 1
                }
            }
            return all
        }
        #expect(statuses.count == count && statuses.allSatisfy { $0 == 200 })
        return (sequential, Date().timeIntervalSince(started))
    }

    /// Seconds for the `curl` command to GET `url` `count` times on one connection, then with
    /// `--parallel --parallel-max 8`.
    static func measureCurl(url: URL, server: TestServer, count: Int, compressed: Bool) throws -> (TimeInterval, TimeInterval) {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let config = folder.file("curl.config")
        var lines = "user = \"\(server.username):\(server.password)\"\nsilent\n" + (compressed ? "compressed\n" : "")
        for _ in 0..<count { lines += "url = \"\(url.absoluteString)\"\noutput = \"/dev/null\"\n" }
        try lines.write(to: config, atomically: true, encoding: .utf8)
        var started = Date()
        let one = try ProcessRunner.run("curl", ["-K", config.path, "-w", "%{http_code}\n"])
        let sequential = Date().timeIntervalSince(started)
        started = Date()
        let many = try ProcessRunner.run("curl", ["--parallel", "--parallel-max", "8", "-K", config.path, "-w", "%{http_code}\n"])
        let parallel = Date().timeIntervalSince(started)
        #expect(one.stdoutText.split(separator: "\n").filter { $0 == "200" }.count == count)
        #expect(many.stdoutText.split(separator: "\n").filter { $0 == "200" }.count == count)
        return (sequential, parallel)
    }
}
