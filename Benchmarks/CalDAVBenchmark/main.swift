// CalDAV operations on a local Radicale: PUT COUNT events (8 in flight), list them (PROPFIND
// Depth 1), multiget them all (batches of the client's size; calgw sends them all at once, curl
// keeps 8 in flight) and GET them one by one, through `CalDAVClient` and through the `curl`
// command issuing the same requests, in one run. Run by `Scripts/bench/caldav [COUNT]`; every
// answer is checked, no time is asserted.
import CalDAV
import CalgwTestSupport
import Foundation
import HTTP

/// A failed check: the benchmark stops, a wrong answer makes its time meaningless.
struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
}

func check(_ condition: Bool, _ what: @autoclosure () -> String) throws {
    if !condition { throw BenchmarkFailure(description: what()) }
}

func event(uid: String) -> Data {
    Data(
        [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//calgw//bench//EN", "BEGIN:VEVENT", "UID:\(uid)",
            "DTSTAMP:20260101T000000Z", "DTSTART:20260301T100000Z", "DTEND:20260301T110000Z", "SUMMARY:Meeting",
            "END:VEVENT", "END:VCALENDAR", "",
        ].joined(separator: "\r\n").utf8)
}

func seconds(since start: Date) -> TimeInterval { Date().timeIntervalSince(start) }

/// Times of calgw's client for the four operations, and the bytes of calendar data multiget returned.
struct Times {
    var put: TimeInterval = 0
    var list: TimeInterval = 0
    var multiget: TimeInterval = 0
    var get: TimeInterval = 0
    var multigetBytes = 0
}

func measureClient(_ client: CalDAVClient, collection: URL, uids: [String]) async throws -> Times {
    var times = Times()
    var started = Date()
    try await withThrowingTaskGroup(of: Void.self) { group in
        var next = 0
        func add() {
            let uid = uids[next]
            next += 1
            group.addTask {
                try await client.put(
                    collection.appendingPathComponent("\(uid).ics"), data: event(uid: uid), condition: .createOnly)
            }
        }
        for _ in 0..<min(8, uids.count) { add() }
        while try await group.next() != nil { if next < uids.count { add() } }
    }
    times.put = seconds(since: started)
    started = Date()
    let listed = try await client.listItems(in: collection)
    times.list = seconds(since: started)
    try check(listed.count == uids.count, "the listing holds \(listed.count) of \(uids.count) events")
    started = Date()
    let fetched = try await client.multiget(collection, hrefs: listed.map(\.href))
    times.multiget = seconds(since: started)
    try check(fetched.count == uids.count, "multiget returned \(fetched.count) of \(uids.count) events")
    times.multigetBytes = fetched.reduce(0) { $0 + $1.data.count }
    started = Date()
    for item in listed {
        let resource = try await client.get(HrefResolver(base: collection).url(for: item.href))
        try check(!resource.data.isEmpty, "GET \(item.href.path) returned nothing")
    }
    times.get = seconds(since: started)
    return times
}

func multigetBody(_ hrefs: [Href]) -> Data {
    var text =
        #"<?xml version="1.0" encoding="utf-8"?><c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop>"#
    for href in hrefs { text += "<d:href>\(href.path)</d:href>" }
    return Data((text + "</c:calendar-multiget>").utf8)
}

/// The same requests through the `curl` command, each operation one curl run from a config file.
func measureCurl(server: TestServer, collection: URL, uids: [String], batchSize: Int, folder: TemporaryFolder) throws
    -> Times
{
    let count = uids.count
    let auth = "user = \"\(server.username):\(server.password)\"\nsilent\n"
    var put =
        auth
        + "header = \"Expect:\"\nheader = \"If-None-Match: *\"\nheader = \"Content-Type: text/calendar; charset=utf-8\"\n"
    var get = auth
    for uid in uids {
        let file = folder.file("\(uid).ics")
        try event(uid: uid).write(to: file)
        let url = collection.appendingPathComponent("\(uid).ics").absoluteString
        put += "url = \"\(url)\"\nupload-file = \"\(file.path)\"\noutput = \"/dev/null\"\n"
        get += "url = \"\(url)\"\noutput = \"/dev/null\"\n"
    }
    // A body is an option of the whole operation, so each REPORT is its own (`next`), and
    // each needs its own write-out: options given before `next` do not carry over.
    let reportOptions =
        auth
        + "request = \"REPORT\"\nheader = \"Depth: 1\"\nheader = \"Content-Type: application/xml; charset=utf-8\"\n"
        + "write-out = \"%{http_code} %{size_download}\\n\"\n"
    var report = ""
    let hrefs = uids.map { HrefResolver.href(of: collection.appendingPathComponent("\($0).ics")) }
    for (index, start) in stride(from: 0, to: count, by: batchSize).enumerated() {
        let body = folder.file("multiget-\(index).xml")
        try multigetBody(Array(hrefs[start..<min(start + batchSize, count)])).write(to: body)
        report +=
            (index == 0 ? "" : "next\n") + reportOptions
            + "url = \"\(collection.absoluteString)\"\ndata-binary = \"@\(body.path)\"\noutput = \"/dev/null\"\n"
    }
    let propfind = folder.file("propfind.xml")
    try Data(
        #"<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/><d:getetag/></d:prop></d:propfind>"#
            .utf8
    ).write(to: propfind)
    func curl(_ config: String, _ name: String, _ extra: [String], writeOut: String? = "%{http_code}\n") throws -> (
        TimeInterval, [Substring]
    ) {
        let file = folder.file(name)
        try config.write(to: file, atomically: true, encoding: .utf8)
        let started = Date()
        let result = try ProcessRunner.runBlocking(
            "curl", extra + ["-K", file.path] + (writeOut.map { ["-w", $0] } ?? []))
        return (seconds(since: started), result.stdoutText.split(separator: "\n"))
    }
    var times = Times()
    let putCodes: [Substring], listCodes: [Substring], reportCodes: [Substring], getCodes: [Substring]
    (times.put, putCodes) = try curl(put, "put.config", ["--parallel", "--parallel-max", "8"])
    try check(putCodes.filter { $0 == "201" }.count == count, "curl PUTs failed")
    (times.list, listCodes) = try curl(
        auth
            + "request = \"PROPFIND\"\nheader = \"Depth: 1\"\nurl = \"\(collection.absoluteString)\"\ndata-binary = \"@\(propfind.path)\"\noutput = \"/dev/null\"\n",
        "list.config", [])
    try check(listCodes == ["207"], "curl PROPFIND answered \(listCodes)")
    (times.multiget, reportCodes) = try curl(
        report, "report.config", ["--parallel", "--parallel-max", "8"], writeOut: nil)
    try check(
        reportCodes.count == (count + batchSize - 1) / batchSize && reportCodes.allSatisfy { $0.hasPrefix("207 ") },
        "curl multiget answered \(reportCodes)")
    times.multigetBytes = reportCodes.compactMap { Int($0.split(separator: " ").last ?? "") }.reduce(0, +)
    (times.get, getCodes) = try curl(get, "get.config", [])
    try check(getCodes.filter { $0 == "200" }.count == count, "curl GETs failed")
    return times
}

func run() async throws {
    let count = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 5000
    let server = try TestServers.shared("radicale")
    let client = try CalDAVClient(
        configuration: .init(
            http: HTTPClientConfiguration(authentication: .basic(username: server.username, password: server.password)))
    )
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let uids = (0..<count).map { _ in "b-\(UUID().uuidString.lowercased())" }

    let mine = server.newCollectionURL(prefix: "bench-calgw")
    try await client.makeCalendar(mine, displayName: "Benchmark calgw")
    let calgw = try await measureClient(client, collection: mine, uids: uids)
    let theirs = server.newCollectionURL(prefix: "bench-curl")
    try await client.makeCalendar(theirs, displayName: "Benchmark curl")
    let batchSize = client.configuration.multigetBatchSize
    let curl = try measureCurl(server: server, collection: theirs, uids: uids, batchSize: batchSize, folder: folder)
    // The same events came back (they differ only in their UIDs): curl's whole multistatus
    // bodies hold at least the calendar data calgw's client handed on.
    try check(
        curl.multigetBytes >= calgw.multigetBytes,
        "curl's multiget returned \(curl.multigetBytes) bytes, calgw's calendar data alone \(calgw.multigetBytes)")

    func row(_ name: String, _ requests: Int, _ calgw: TimeInterval, _ curl: TimeInterval) -> String {
        "| " + name.padding(toLength: 34, withPad: " ", startingAt: 0)
            + String(format: " | %8d | %8.2f s | %8.2f s | %5.2f× |", requests, calgw, curl, calgw / curl)
    }
    let batches = (count + batchSize - 1) / batchSize
    print(
        """
        CalDAV benchmark, \(count) events on Radicale
        | operation                          | requests | calgw      | curl       | ratio |
        | ---------------------------------- | -------- | ---------- | ---------- | ----- |
        \(row("PUT If-None-Match, 8 in flight", count, calgw.put, curl.put))
        \(row("PROPFIND Depth 1 listing", 1, calgw.list, curl.list))
        \(row("calendar-multiget, batches of \(batchSize)", batches, calgw.multiget, curl.multiget))
        \(row("GET one by one", count, calgw.get, curl.get))
        """)
}

do {
    try await run()
} catch {
    FileHandle.standardError.write(Data("benchmark failed: \(error)\n".utf8))
    exit(1)
}
