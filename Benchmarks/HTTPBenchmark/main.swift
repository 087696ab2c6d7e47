// GETs per second through `HTTPClient` and through the `curl` command, on the same URL of a
// local Radicale, one request in flight and eight in flight, with and without gzip. Run by
// `Scripts/bench/http [COUNT]`; every answer is checked, no time is asserted.
import CalDAV
import CalgwTestSupport
import Foundation
import HTTP

/// A failed check: the benchmark stops, a wrong answer makes its rate meaningless.
struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
}

func check(_ condition: Bool, _ what: @autoclosure () -> String) throws {
    if !condition { throw BenchmarkFailure(description: what()) }
}

func rate(_ count: Int, _ seconds: TimeInterval) -> String {
    String(format: "%8.0f/s (%6.2f s)", Double(count) / seconds, seconds)
}

/// Seconds for `count` GETs one at a time, then eight at a time.
func measureClient(_ client: HTTPClient, url: URL, count: Int) async throws -> (TimeInterval, TimeInterval) {
    var started = Date()
    for _ in 0..<count {
        let status = try await client.send(HTTPRequest(method: "GET", url: url)).status
        try check(status == 200, "HTTPClient GET answered \(status)")
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
    try check(statuses.count == count && statuses.allSatisfy { $0 == 200 }, "parallel HTTPClient GETs failed")
    return (sequential, Date().timeIntervalSince(started))
}

/// Seconds for the `curl` command to GET `url` `count` times on one connection, then with
/// `--parallel --parallel-max 8`.
func measureCurl(url: URL, server: TestServer, count: Int, compressed: Bool) throws -> (TimeInterval, TimeInterval) {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let config = folder.file("curl.config")
    var lines = "user = \"\(server.username):\(server.password)\"\nsilent\n" + (compressed ? "compressed\n" : "")
    for _ in 0..<count { lines += "url = \"\(url.absoluteString)\"\noutput = \"/dev/null\"\n" }
    try lines.write(to: config, atomically: true, encoding: .utf8)
    var started = Date()
    let one = try ProcessRunner.runBlocking("curl", ["-K", config.path, "-w", "%{http_code}\n"])
    let sequential = Date().timeIntervalSince(started)
    started = Date()
    let many = try ProcessRunner.runBlocking(
        "curl", ["--parallel", "--parallel-max", "8", "-K", config.path, "-w", "%{http_code}\n"])
    let parallel = Date().timeIntervalSince(started)
    try check(one.stdoutText.split(separator: "\n").filter { $0 == "200" }.count == count, "curl GETs failed")
    try check(many.stdoutText.split(separator: "\n").filter { $0 == "200" }.count == count, "parallel curl GETs failed")
    return (sequential, parallel)
}

func event(uid: String) -> Data {
    Data(
        [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//calgw//bench//EN", "BEGIN:VEVENT", "UID:\(uid)",
            "DTSTAMP:20260101T000000Z", "DTSTART:20260301T100000Z", "DTEND:20260301T110000Z", "SUMMARY:Meeting",
            "END:VEVENT", "END:VCALENDAR", "",
        ].joined(separator: "\r\n").utf8)
}

func run() async throws {
    let count = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 5000
    let server = try TestServers.shared("radicale")
    let http = HTTPClientConfiguration(authentication: .basic(username: server.username, password: server.password))
    let dav = try CalDAVClient(configuration: .init(http: http))
    let collection = server.newCollectionURL(prefix: "bench")
    try await dav.makeCalendar(collection, displayName: "Benchmark")
    let uid = "bench-\(UUID().uuidString.lowercased())"
    let item = collection.appendingPathComponent("\(uid).ics")
    try await dav.put(item, data: event(uid: uid), condition: .createOnly)
    var rows: [String] = []
    for compressed in [true, false] {
        var configuration = http
        configuration.acceptCompressedResponses = compressed
        let client = try HTTPClient(configuration: configuration)
        let calgw = try await measureClient(client, url: item, count: count)
        let curl = try measureCurl(url: item, server: server, count: count, compressed: compressed)
        let label = compressed ? "gzip" : "identity"
        rows.append(
            "| calgw HTTPClient (\(label))".padding(toLength: 32, withPad: " ", startingAt: 0)
                + "| \(rate(count, calgw.0)) | \(rate(count, calgw.1)) |")
        rows.append(
            "| curl command (\(label))".padding(toLength: 32, withPad: " ", startingAt: 0)
                + "| \(rate(count, curl.0)) | \(rate(count, curl.1)) |")
    }
    print(
        """
        HTTP GET benchmark, \(count) requests on Radicale, libcurl \(HTTPVersions.curlVersion)
        | client                        | 1 in flight           | 8 in flight           |
        | ----------------------------- | --------------------- | --------------------- |
        \(rows.joined(separator: "\n"))
        """)
}

do {
    try await run()
} catch {
    FileHandle.standardError.write(Data("benchmark failed: \(error)\n".utf8))
    exit(1)
}
