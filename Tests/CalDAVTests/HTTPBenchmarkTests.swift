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
        let client = fixture.client.http

        var started = Date()
        for _ in 0..<count {
            let response = try await client.send(HTTPRequest(method: "GET", url: item))
            #expect(response.status == 200)
        }
        let sequential = Date().timeIntervalSince(started)

        started = Date()
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            var all: [Int] = []
            var next = 0
            for _ in 0..<min(8, count) {
                group.addTask { try await client.send(HTTPRequest(method: "GET", url: item)).status }
                next += 1
            }
            while let status = try await group.next() {
                all.append(status)
                if next < count {
                    group.addTask { try await client.send(HTTPRequest(method: "GET", url: item)).status }
                    next += 1
                }
            }
            return all
        }
        let parallel = Date().timeIntervalSince(started)
        #expect(statuses.count == count && statuses.allSatisfy { $0 == 200 })

        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let config = folder.file("curl.config")
        var lines = "user = \"\(fixture.server.username):\(fixture.server.password)\"\nsilent\n"
        for _ in 0..<count { lines += "url = \"\(item.absoluteString)\"\noutput = \"/dev/null\"\n" }
        try lines.write(to: config, atomically: true, encoding: .utf8)
        started = Date()
        let curlOne = try ProcessRunner.run("curl", ["-K", config.path, "-w", "%{http_code}\n"])
        let curlSequential = Date().timeIntervalSince(started)
        started = Date()
        let curlMany = try ProcessRunner.run("curl", ["--parallel", "--parallel-max", "8", "-K", config.path, "-w", "%{http_code}\n"])
        let curlParallel = Date().timeIntervalSince(started)
        #expect(curlOne.stdoutText.split(separator: "\n").filter { $0 == "200" }.count == count)
        #expect(curlMany.stdoutText.split(separator: "\n").filter { $0 == "200" }.count == count)

        func rate(_ seconds: TimeInterval) -> String { String(format: "%8.0f/s (%6.2f s)", Double(count) / seconds, seconds) }
        print("""
        HTTP GET benchmark, \(count) requests on Radicale, libcurl \(CalDAVTransport.curlVersion)
        | client                      | 1 in flight           | 8 in flight           |
        | --------------------------- | --------------------- | --------------------- |
        | calgw HTTPClient            | \(rate(sequential)) | \(rate(parallel)) |
        | curl command                | \(rate(curlSequential)) | \(rate(curlParallel)) |
        """)
    }
}
