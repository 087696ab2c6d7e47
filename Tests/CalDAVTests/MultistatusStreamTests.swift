import Foundation
import Testing
@testable import CalDAV
import HTTP

/// The multistatus read as it arrives: any split of the bytes reads the same, responses are
/// handed over before the answer ends, an answer far larger than any buffer reads in pieces,
/// and a broken or cut answer says what failed and where.
@Suite struct MultistatusStreamTests {
    static func answer(_ count: Int, token: String? = "data:,7") -> Data {
        var text =
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<d:multistatus xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\">\n"
        for i in 0..<count {
            text +=
                "<d:response><d:href>/dav/cal/event-\(i).ics</d:href><d:propstat><d:prop><d:getetag>\"e\(i)\"</d:getetag>"
                + "<c:calendar-data>BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:event-\(i)\r\nSUMMARY:Review &amp; plan \(i) é\r\n"
                + "END:VEVENT\r\nEND:VCALENDAR\r\n</c:calendar-data></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>\n"
        }
        if let token { text += "<d:sync-token>\(token)</d:sync-token>\n" }
        return Data((text + "</d:multistatus>\n").utf8)
    }

    func read(_ data: Data, pieces: Int) throws -> (hrefs: [String], texts: [String], token: String?) {
        var hrefs: [String] = [], texts: [String] = []
        let reader = try MultistatusReader { response in
            hrefs.append(response.href)
            texts.append(response.text(XMLNamespace.caldav, "calendar-data") ?? "")
        }
        let size = max(1, data.count / pieces)
        var start = 0
        while start < data.count {
            try reader.feed(data[start..<min(start + size, data.count)])
            start += size
        }
        return (hrefs, texts, try reader.finish())
    }

    @Test(arguments: [1, 3, 17, 1000, 5000])
    func anySplitReadsTheSame(pieces: Int) throws {
        let data = Self.answer(40)
        let whole = try read(data, pieces: 1)
        let split = try read(data, pieces: pieces)
        #expect(whole.hrefs == (0..<40).map { "/dav/cal/event-\($0).ics" })
        #expect(split.hrefs == whole.hrefs && split.texts == whole.texts && split.token == "data:,7")
        #expect(whole.texts[3].contains("SUMMARY:Review & plan 3 é"), "\(whole.texts[3])")
    }

    @Test func responsesArriveBeforeTheAnswerEnds() throws {
        let data = Self.answer(100)
        var seen = 0
        let reader = try MultistatusReader { _ in seen += 1 }
        try reader.feed(data[0..<(data.count / 2)])
        #expect(seen > 40 && seen < 60, "\(seen) responses after half the bytes")
        try reader.feed(data[(data.count / 2)...])
        try reader.finish()
        #expect(seen == 100)
    }

    /// 60,000 responses (about 19 MB) in 16 KB pieces, as libcurl hands them over.
    @Test func anAnswerLargerThanAnyBufferReadsInPieces() throws {
        let data = Self.answer(60_000)
        #expect(data.count > 15_000_000)
        var count = 0, last = ""
        let reader = try MultistatusReader { response in
            count += 1
            last = response.href
        }
        var start = 0
        while start < data.count {
            try reader.feed(data[start..<min(start + 16_384, data.count)])
            start += 16_384
        }
        #expect(try reader.finish() == "data:,7")
        #expect(count == 60_000 && last == "/dav/cal/event-59999.ics")
    }

    @Test func aCutAnswerSaysWhereItEnded() throws {
        let data = Self.answer(10)
        let cut = data[0..<(data.count * 2 / 3)]
        let reader = try MultistatusReader { _ in }
        try reader.feed(cut)
        let error = #expect(throws: HTTPError.self) { try reader.finish() }
        #expect(error?.code == .invalidResponse)
        let message = error?.message ?? ""
        #expect(
            message.contains("at byte") && message.contains("<multistatus/response")
                && message.contains("complete responses"), "\(message)")
        #expect(error?.recovery?.contains("URL") == false)
    }

    @Test func anotherRootIsRefusedByName() throws {
        let error = #expect(throws: HTTPError.self) {
            _ = try Multistatus(Data("<html><body>Login</body></html>".utf8))
        }
        #expect(error?.message.contains("<html>") == true, "\(String(describing: error))")
    }

    @Test func aDTDAndEntitiesAreRefused() throws {
        let bodies = [
            "<!DOCTYPE m [<!ENTITY a \"x\">]><d:multistatus xmlns:d=\"DAV:\">&a;</d:multistatus>",
            "<!DOCTYPE d:multistatus SYSTEM \"http://127.0.0.1:1/x.dtd\"><d:multistatus xmlns:d=\"DAV:\"/>",
            "<d:multistatus xmlns:d=\"DAV:\"><d:sync-token>&nope;</d:sync-token></d:multistatus>",
        ]
        for body in bodies {
            let error = #expect(throws: HTTPError.self) { _ = try Multistatus(Data(body.utf8)) }
            #expect(error?.code == .invalidResponse, "\(body)")
        }
    }

    @Test func oneRunawayResponseIsRefused() throws {
        let reader = try MultistatusReader(maxResponseBytes: 1000) { _ in }
        let body =
            "<d:multistatus xmlns:d=\"DAV:\"><d:response><d:href>/a</d:href><d:x>" + String(repeating: "y", count: 5000)
            + "</d:x></d:response></d:multistatus>"
        let error = #expect(throws: HTTPError.self) {
            try reader.feed(Data(body.utf8)); try reader.finish()
        }
        #expect(error?.code == .responseTooLarge)
    }
}
