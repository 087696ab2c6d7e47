import CalgwTestSupport
import Foundation
import Testing
@testable import CalDAV
import HTTP

/// The members reader (`MultistatusReader.members`) gives, for every response, what the
/// element reader's `DAVResponse` gives: on the seed corpus, on answers shaped the odd ways
/// RFC 4918 allows, and on thousands of randomly shaped ones.
@Suite struct MultistatusMemberTests {
    /// The member the element reader's response stands for.
    static func expected(_ response: DAVResponse) -> DAVMember {
        let text = response.property(XMLNamespace.caldav, "calendar-data")?.text
        return DAVMember(
            href: response.href, status: response.status, etag: response.text(XMLNamespace.dav, "getetag"),
            calendarData: text.flatMap {
                $0.isEmpty ? nil : LineEnds.terminated(LineEnds.restoringCRLF(Data($0.utf8)))
            },
            isCollection: response.hasResourceType(XMLNamespace.dav, "collection"))
    }

    /// Both readers on one body: the same members and token (returned), or both refusing it.
    /// - Parameter mayRefuse: the body may be one both readers refuse (a random shape); without
    ///   it, a refusal fails the test, so that a body nobody reads cannot pass for one both read alike.
    /// - Returns: the members read, nil when both readers refused the body.
    @discardableResult
    static func compare(_ body: Data, _ comment: Comment? = nil, mayRefuse: Bool = false) throws -> [DAVMember]? {
        let tree: Multistatus
        do { tree = try Multistatus(body) } catch {
            #expect(throws: HTTPError.self, comment) { _ = try Multistatus.members(of: body) }
            #expect(mayRefuse, "the reference reader refused the body: \(error)")
            return nil
        }
        let read = try Multistatus.members(of: body)
        #expect(read.members == tree.responses.map(expected), comment)
        #expect(read.syncToken == tree.syncToken, comment)
        return read.members
    }

    @Test(arguments: ["propfind-depth1.xml", "multiget.xml", "sync-collection.xml", "hostile-hrefs.xml"])
    func theSeedCorpusReadsAsItsResponses(name: String) throws {
        let body = try Data(
            contentsOf: TestPaths.fixtures.appendingPathComponent("multistatus").appendingPathComponent(name))
        let members = try Self.compare(body, "\(name)")
        #expect(members?.isEmpty == false, "\(name) read as no member")
    }

    /// A `DAV:error` body (a refused precondition) is no multistatus: both readers refuse it.
    @Test func anErrorBodyIsRefusedByBoth() throws {
        let body = try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("multistatus/error-precondition.xml"))
        #expect(try Self.compare(body, mayRefuse: true) == nil)
    }

    @Test func theOddShapesReadAsTheirResponses() throws {
        let calendar = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\nSUMMARY:Plan &amp; review\nEND:VEVENT\nEND:VCALENDAR\n"
        let shapes = [
            // The propstat's status before its prop; a 404 propstat before the 200 one.
            "<d:response><d:href>/c/a.ics</d:href><d:propstat><d:status>HTTP/1.1 404 Not Found</d:status><d:prop><c:calendar-data/><d:getetag/></d:prop></d:propstat>"
                + "<d:propstat><d:status>HTTP/1.1 200 OK</d:status><d:prop><d:getetag> \"1\" </d:getetag><c:calendar-data>\(calendar)</c:calendar-data></d:prop></d:propstat></d:response>",
            // Two hrefs and two statuses (the first counts); a response without an href.
            "<d:response><d:href> /c/b.ics </d:href><d:href>/c/other.ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status><d:status>HTTP/1.1 200 OK</d:status></d:response>"
                + "<d:response><d:status>HTTP/1.1 200 OK</d:status></d:response>",
            // An empty etag first, then a full one in a second 2xx propstat; two props in one propstat.
            "<d:response><d:href>/c/c.ics</d:href><d:propstat><d:prop><d:getetag></d:getetag></d:prop><d:prop><c:calendar-data>\(calendar)</c:calendar-data></d:prop></d:propstat>"
                + "<d:propstat><d:prop><d:getetag>\"2\"</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>",
            // Text inside children is not the element's own; a collection; an unknown status line.
            "<d:response><d:href>/c/<x:b xmlns:x=\"urn:x\">skipped</x:b>d/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/><c:calendar/></d:resourcetype>"
                + "<d:getetag>\"3\"<x:i xmlns:x=\"urn:x\">not etag</x:i></d:getetag></d:prop><d:status>garbled</d:status></d:propstat></d:response>",
            // Non-ASCII white space at the ends, CDATA, CRLF and lone CR inside calendar-data.
            "<d:response><d:href>\u{00A0}/c/e.ics\u{2028}</d:href><d:propstat><d:prop><d:getetag>\u{3000}\"é\"</d:getetag>"
                + "<c:calendar-data><![CDATA[BEGIN:VCALENDAR\r\nX:<&>\rEND:VCALENDAR]]></c:calendar-data></d:prop></d:propstat></d:response>",
            // Properties in the wrong namespace, and at the wrong depth.
            "<d:response><d:href>/c/f.ics</d:href><d:propstat><d:prop><x:getetag xmlns:x=\"urn:x\">no</x:getetag><d:calendar-data>no</d:calendar-data>"
                + "<x:wrap xmlns:x=\"urn:x\"><d:getetag>deep</d:getetag></x:wrap></d:prop></d:propstat><d:getetag>outside</d:getetag></d:response>",
        ]
        for shape in shapes {
            let body =
                "<?xml version=\"1.0\"?><d:multistatus xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\">\(shape)"
                + "<d:sync-token> data:,9 </d:sync-token></d:multistatus>"
            try Self.compare(Data(body.utf8), "\(shape)")
        }
    }

    /// Random answers from a vocabulary of the elements a member is read from, nested at random
    /// (also where they do not belong): both readers agree on each. The seed is in the failure.
    @Test func randomlyShapedAnswersReadAsTheirResponses() throws {
        var random = SeededRandom(seed: 0x6d65_6d62_6572)
        let names = [
            "d:response", "d:href", "d:status", "d:propstat", "d:prop", "d:getetag", "c:calendar-data",
            "d:resourcetype", "d:collection", "d:sync-token", "x:other",
        ]
        let texts = [
            "", " ", "/c/a.ics", "/c/b.ics", "HTTP/1.1 200 OK", "HTTP/1.1 404 Not Found", "HTTP/1.1 507 x",
            "\"e1\"", "BEGIN:VCALENDAR\nEND:VCALENDAR\n", "a\r\nb\rc", "&amp;", "\u{00A0}x",
        ]
        // Mostly the element that belongs at each depth, sometimes any.
        let likely = [
            2: ["d:response", "d:response", "d:sync-token"], 3: ["d:href", "d:status", "d:propstat", "d:propstat"],
            4: ["d:prop", "d:prop", "d:status"], 5: ["d:getetag", "c:calendar-data", "d:resourcetype"],
            6: ["d:collection"],
        ]
        func element(_ depth: Int) -> String {
            let choices = Int.random(in: 0..<4, using: &random) == 0 ? names : likely[depth] ?? names
            let name = choices[Int.random(in: 0..<choices.count, using: &random)]
            var inner = ""
            // A sync-token holds text only (the element reader keeps the text of its children too).
            let leaf = depth >= 6 || name == "d:sync-token"
            for _ in 0..<Int.random(in: 0...(depth < 5 ? 4 : 1), using: &random) {
                inner +=
                    leaf || (depth == 5 && name != "d:resourcetype") || Int.random(in: 0..<4, using: &random) == 0
                    ? texts[Int.random(in: 0..<texts.count, using: &random)] : element(depth + 1)
            }
            return "<\(name)>\(inner)</\(name)>"
        }
        var withEtag = 0, withData = 0, collections = 0, gone = 0, refused = 0
        for round in 0..<2000 {
            let seed = random.state
            var body = "<d:multistatus xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\" xmlns:x=\"urn:x\">"
            for _ in 0..<Int.random(in: 1...4, using: &random) { body += element(2) }
            body += "</d:multistatus>"
            guard
                let members = try Self.compare(
                    Data(body.utf8), "round \(round), seed \(seed): \(body)", mayRefuse: true)
            else {
                refused += 1
                continue
            }
            for member in members {
                if member.etag != nil { withEtag += 1 }
                if member.calendarData != nil { withData += 1 }
                if member.isCollection { collections += 1 }
                if !member.isPresent { gone += 1 }
            }
        }
        // The shapes reach every field, so the agreement above means something.
        #expect(
            withEtag > 20 && withData > 20 && collections > 10 && gone > 5,
            "\(withEtag) \(withData) \(collections) \(gone)")
        // Most shapes are read, not refused by both: agreement on refusals alone proves little.
        #expect(refused < 200, "\(refused) of 2000 random answers refused by both readers")
    }

    @Test(arguments: [1, 7, 1000])
    func anySplitReadsTheSameMembers(pieces: Int) throws {
        let data = MultistatusStreamTests.answer(40)
        var members: [DAVMember] = []
        let reader = try MultistatusReader.members { members.append($0) }
        let size = max(1, data.count / pieces)
        for start in stride(from: 0, to: data.count, by: size) {
            try reader.feed(data[start..<min(start + size, data.count)])
        }
        #expect(try reader.finish() == "data:,7")
        #expect(members == (try Multistatus(data)).responses.map(Self.expected))
        #expect(
            members.count == 40
                && members[3].calendarData.map { String(decoding: $0, as: UTF8.self) }?.contains(
                    "SUMMARY:Review & plan 3 é\r\n") == true
        )
    }

    @Test func aCutAnswerSaysWhereItEnded() throws {
        let data = MultistatusStreamTests.answer(10)
        let reader = try MultistatusReader.members { _ in }
        try reader.feed(data[0..<(data.count * 2 / 3)])
        let error = #expect(throws: HTTPError.self) { try reader.finish() }
        let message = error?.message ?? ""
        #expect(
            message.contains("at byte") && message.contains("<multistatus/response")
                && message.contains("complete responses"), "\(message)")
    }

    @Test func aRunawayCalendarDataIsRefused() throws {
        let reader = try MultistatusReader.members(maxResponseBytes: 1000) { _ in }
        let body =
            "<d:multistatus xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\"><d:response><d:href>/a</d:href><d:propstat><d:prop><c:calendar-data>"
            + String(repeating: "y", count: 5000)
            + "</c:calendar-data></d:prop></d:propstat></d:response></d:multistatus>"
        let error = #expect(throws: HTTPError.self) {
            try reader.feed(Data(body.utf8)); try reader.finish()
        }
        #expect(error?.code == .responseTooLarge)
    }

    @Test(
        arguments: [
            ("HTTP/1.1 200 OK", 200), (" HTTP/1.1  404  Not Found", 404), ("HTTP/1.1 207", 207), ("HTTP/1.1", nil),
            ("HTTP/1.1 2x0 OK", nil), ("", nil), ("HTTP/1.1 +201 Created", 201), ("HTTP/1.1 -7 X", -7),
            ("HTTP/1.1 + OK", nil), ("HTTP/1.1 9223372036854775807 X", Int.max),
            ("HTTP/1.1 9223372036854775808 X", nil), ("HTTP/1.1 -9223372036854775808 X", Int.min),
            ("HTTP/1.1 200\tOK", nil), ("\u{A0}HTTP/1.1 404 Not Found", 404),
        ] as [(String, Int?)])
    func aStatusLineGivesItsCode(line: String, code: Int?) {
        #expect(Multistatus.statusCode(line) == code)
        // As the split and `Int(_:)` of the words read it.
        let words = line.split(separator: " ")
        #expect(words.count > 1 ? Int(words[1]) == code : code == nil)
    }
}
