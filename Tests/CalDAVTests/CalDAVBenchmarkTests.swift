import CalDAV
import CalgwTestSupport
import Foundation
import Testing

/// PUT, list, multiget and GET of N events on a local Radicale through `CalDAVClient`, and the
/// same requests through the `curl` command, in one run. A normal test run uses 50 events and
/// checks the answers; `Scripts/bench/caldav` sets `CALGW_BENCH_CALDAV_COUNT` and reads the
/// printed table. Nothing here asserts a time.
@Suite(.serialized) struct CalDAVBenchmarkTests {
    @Test func testOperationsAgainstCurl() async throws {
        let count = Int(ProcessInfo.processInfo.environment["CALGW_BENCH_CALDAV_COUNT"] ?? "") ?? 50
        let fixture = try DAVServerFixture("radicale")
        let client = fixture.client
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let uids = (0..<count).map { _ in Sample.uid("b") }

        // calgw
        let mine = try await fixture.newCalendar("bench-calgw")
        var started = Date()
        try await withThrowingTaskGroup(of: Void.self) { group in
            var next = 0
            func add() {
                let uid = uids[next]
                next += 1
                group.addTask { try await client.put(mine.appendingPathComponent("\(uid).ics"), data: Sample.event(uid: uid), condition: .createOnly) }
            }
            for _ in 0..<min(8, count) { add() }
            while try await group.next() != nil { if next < count { add() } }
        }
        let calgwPut = Date().timeIntervalSince(started)
        started = Date()
        let listed = try await client.listItems(in: mine)
        let calgwList = Date().timeIntervalSince(started)
        #expect(listed.count == count)
        started = Date()
        let fetched = try await client.multiget(mine, hrefs: listed.map(\.href))
        let calgwMultiget = Date().timeIntervalSince(started)
        #expect(fetched.count == count)
        started = Date()
        for item in listed { _ = try await client.get(HrefResolver(base: mine).url(for: item.href)) }
        let calgwGet = Date().timeIntervalSince(started)

        // curl, the same requests
        let theirs = try await fixture.newCalendar("bench-curl")
        let auth = "user = \"\(fixture.server.username):\(fixture.server.password)\"\nsilent\n"
        var put = auth + "header = \"Expect:\"\nheader = \"If-None-Match: *\"\nheader = \"Content-Type: text/calendar; charset=utf-8\"\n"
        var get = auth
        for uid in uids {
            let file = folder.file("\(uid).ics")
            try Sample.event(uid: uid).write(to: file)
            let url = theirs.appendingPathComponent("\(uid).ics").absoluteString
            put += "url = \"\(url)\"\nupload-file = \"\(file.path)\"\noutput = \"/dev/null\"\n"
            get += "url = \"\(url)\"\noutput = \"/dev/null\"\n"
        }
        // A body is an option of the whole operation, so each REPORT is its own (`next`).
        let reportOptions = auth + "request = \"REPORT\"\nheader = \"Depth: 1\"\nheader = \"Content-Type: application/xml; charset=utf-8\"\n"
        var report = ""
        let hrefs = uids.map { HrefResolver.href(of: theirs.appendingPathComponent("\($0).ics")) }
        for (index, start) in stride(from: 0, to: count, by: client.configuration.multigetBatchSize).enumerated() {
            let body = folder.file("multiget-\(index).xml")
            try multigetBody(Array(hrefs[start..<min(start + client.configuration.multigetBatchSize, count)])).write(to: body)
            report += (index == 0 ? "" : "next\n") + reportOptions + "url = \"\(theirs.absoluteString)\"\ndata-binary = \"@\(body.path)\"\noutput = \"/dev/null\"\n"
        }
        let propfind = folder.file("propfind.xml")
        try Data(#"<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/><d:getetag/></d:prop></d:propfind>"#.utf8).write(to: propfind)
        func curl(_ config: String, _ name: String, _ extra: [String], writeOut: String = "%{http_code}\n") throws -> (TimeInterval, [Substring]) {
            let file = folder.file(name)
            try config.write(to: file, atomically: true, encoding: .utf8)
            let started = Date()
            let result = try ProcessRunner.run("curl", extra + ["-K", file.path, "-w", writeOut])
            return (Date().timeIntervalSince(started), result.stdoutText.split(separator: "\n"))
        }
        let (curlPut, putCodes) = try curl(put, "put.config", ["--parallel", "--parallel-max", "8"])
        #expect(putCodes.filter { $0 == "201" }.count == count)
        let (curlList, listCodes) = try curl(auth + "request = \"PROPFIND\"\nheader = \"Depth: 1\"\nurl = \"\(theirs.absoluteString)\"\ndata-binary = \"@\(propfind.path)\"\noutput = \"/dev/null\"\n",
                                            "list.config", [])
        #expect(listCodes == ["207"])
        let (curlMultiget, reportCodes) = try curl(report, "report.config", ["--parallel", "--parallel-max", "8"],
                                                   writeOut: "%{http_code} %{size_download}\n")
        #expect(reportCodes.allSatisfy { $0.hasPrefix("207 ") })
        // The same bytes came back as for calgw (the events differ only in their UIDs).
        let calgwBytes = fetched.reduce(0) { $0 + $1.data.count }
        let curlBytes = reportCodes.compactMap { Int($0.split(separator: " ").last ?? "") }.reduce(0, +)
        #expect(curlBytes >= calgwBytes, "curl's multiget returned \(curlBytes) bytes, calgw's calendar data alone \(calgwBytes)")
        let (curlGet, getCodes) = try curl(get, "get.config", [])
        #expect(getCodes.filter { $0 == "200" }.count == count)

        func row(_ name: String, _ requests: Int, _ calgw: TimeInterval, _ curl: TimeInterval) -> String {
            "| " + name.padding(toLength: 34, withPad: " ", startingAt: 0)
                + String(format: " | %8d | %8.2f s | %8.2f s | %5.2f× |", requests, calgw, curl, calgw / curl)
        }
        let batches = (count + client.configuration.multigetBatchSize - 1) / client.configuration.multigetBatchSize
        print("""
        CalDAV benchmark, \(count) events on Radicale
        | operation                          | requests | calgw      | curl       | ratio |
        | ---------------------------------- | -------- | ---------- | ---------- | ----- |
        \(row("PUT If-None-Match, 8 in flight", count, calgwPut, curlPut))
        \(row("PROPFIND Depth 1 listing", 1, calgwList, curlList))
        \(row("calendar-multiget, 8 in flight", batches, calgwMultiget, curlMultiget))
        \(row("GET one by one", count, calgwGet, curlGet))
        end of CalDAV benchmark
        """)
    }

    private func multigetBody(_ hrefs: [Href]) -> Data {
        var text = #"<?xml version="1.0" encoding="utf-8"?><c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop>"#
        for href in hrefs { text += "<d:href>\(href.path)</d:href>" }
        return Data((text + "</c:calendar-multiget>").utf8)
    }
}
