import CalgwTestSupport
import Foundation
import Testing
@testable import CalDAV
import HTTP

/// The multistatus reader on the seed corpus of `Scripts/fuzz multistatus` and on what fuzzing
/// found: every input either parses or throws `HTTPError.invalidResponse`, never traps.
@Suite struct MultistatusReaderTests {
    static func fixture(_ folder: String, _ name: String) throws -> Data {
        try Data(contentsOf: TestPaths.fixtures.appendingPathComponent(folder).appendingPathComponent(name))
    }

    @Test func testSeedCorpusParses() throws {
        let listing = try Multistatus(Self.fixture("multistatus", "propfind-depth1.xml"))
        #expect(
            listing.responses.map(\.href) == ["/dav/calendars/alice/work/", "/dav/calendars/alice/work/standup.ics"])
        #expect(listing.responses[0].hasResourceType(XMLNamespace.caldav, "calendar"))
        #expect(
            listing.responses[0].property(XMLNamespace.caldav, "calendar-color") == nil,
            "a 404 propstat is not a property")
        #expect(listing.responses[1].text(XMLNamespace.dav, "getetag") == "\"a1b2\"")

        let multiget = try Multistatus(Self.fixture("multistatus", "multiget.xml"))
        #expect(multiget.responses.count == 2)
        #expect(
            multiget.responses[0].text(XMLNamespace.caldav, "calendar-data")?.contains("SUMMARY:Review &amp; plan")
                == true)
        #expect(multiget.responses[1].status == 404)

        let sync = try Multistatus(Self.fixture("multistatus", "sync-collection.xml"))
        #expect(sync.syncToken == "data:,42")
        #expect(sync.responses.map(\.status) == [nil, 404])

        #expect(
            ServerReason.extract(from: try Self.fixture("multistatus", "error-precondition.xml"))
                == "CALDAV:valid-calendar-data (DTSTART is missing)")
    }

    /// Found by fuzzing FoundationXML's reader, which trapped on them: an element name with a
    /// byte that is not UTF-8, a processing instruction without data (`<?xmlA?>`), also behind
    /// an XML declaration that ends in `>` instead of `?>`. The streaming reader refuses each
    /// with libxml2's reason and where it found it.
    @Test(arguments: [
        ("invalid-utf8-element-name.xml", "line 2"),
        ("processing-instruction-without-data.xml", "processing instruction"),
        ("processing-instruction-after-broken-declaration.xml", "XML declaration"),
    ])
    func testFuzzFindingsThrowInsteadOfTrapping(name: String, problem: String) throws {
        let body = try Self.fixture("multistatus-regressions", name)
        let error = #expect(throws: HTTPError.self) { _ = try Multistatus(body) }
        #expect(error?.code == .invalidResponse)
        #expect(
            error?.message.contains("cannot be read") == true && error?.message.contains(problem) == true,
            "\(String(describing: error))")
        #expect(error?.recovery?.contains("URL") == false, "a 207 that cannot be read is no sign of a wrong URL")
        _ = ServerReason.extract(from: body)
    }

    @Test(arguments: [
        "<?x?><d:multistatus xmlns:d=\"DAV:\"/>", "<d:multistatus xmlns:d=\"DAV:\"><?pi?></d:multistatus>",
        "<?xml version=\"1.0\"?>\n<d:multistatus xmlns:d=\"DAV:\"/><?tail data?>",
    ])
    func testProcessingInstructionsAreRefused(body: String) {
        #expect(XMLDocumentParser.firstProcessingInstruction(Data(body.utf8)) != nil)
        #expect(throws: HTTPError.self) { _ = try Multistatus(Data(body.utf8)) }
    }

    @Test func testXMLDeclarationCommentsAndCDATAAreNotProcessingInstructions() throws {
        let body =
            "\u{FEFF}<?xml version=\"1.0\" encoding=\"utf-8\"?><!-- <?no pi?> --><d:multistatus xmlns:d=\"DAV:\">"
            + "<d:sync-token><![CDATA[<?also not?>]]></d:sync-token></d:multistatus>"
        #expect(XMLDocumentParser.firstProcessingInstruction(Data(body.utf8)) == nil)
        #expect(try Multistatus(Data(body.utf8)).syncToken == "<?also not?>")
    }

    /// Found by fuzzing FoundationXML (2.6 million executions): in its recovery mode the `<!--`
    /// after a broken start tag was no comment, and the `<?u?>` behind it reached a callback
    /// with a null pointer. The streaming reader has no recovery mode: broken markup is an
    /// error, and a comment or CDATA section is text, whatever it holds.
    @Test func testProcessingInstructionsInsideCommentsAndCDATAAreText() throws {
        let broken = #expect(throws: HTTPError.self) { _ = try Multistatus(Data("<x<!--\u{0B}<?u?>\n".utf8)) }
        #expect(broken?.code == .invalidResponse)
        #expect(
            try Multistatus(Data("<d:multistatus xmlns:d=\"DAV:\"><!-- <?u?> --></d:multistatus>".utf8)).responses
                .isEmpty)
        let cdata =
            "<d:multistatus xmlns:d=\"DAV:\"><d:response><d:href>/c/a.ics</d:href><d:propstat><d:prop>"
            + "<d:x><![CDATA[<?xml?>]]></d:x></d:prop></d:propstat></d:response></d:multistatus>"
        #expect(try Multistatus(Data(cdata.utf8)).responses.first?.text(XMLNamespace.dav, "x") == "<?xml?>")
    }

    @Test func testProcessingInstructionsWithDataAreNotTakenForDataless() {
        for body in [
            "<?xml version=\"1.0\"?><a/>", "<a><![CDATA[<?php echo 1; ?>]]></a>", "<a>x <? ?> <?? ?></a>", "<?",
        ] {
            #expect(XMLDocumentParser.firstDatalessProcessingInstruction(Data(body.utf8)) == nil, "\(body)")
        }
    }

    static func bytes(_ before: String, _ bad: [UInt8], _ after: String) -> Data {
        var data = Data(before.utf8)
        data.append(contentsOf: bad)
        data.append(contentsOf: Array(after.utf8))
        return data
    }

    static let notUTF8: [Data] = [
        bytes("<m xmlns=\"DAV:\"><x", [0xCF], "/></m>"),
        bytes("<d:multistatus xmlns:d=\"DAV:\"><d:href>", [0xC0, 0xAF], "</d:href></d:multistatus>"),
        bytes("<d:multistatus xmlns:d=\"DAV:\" ", [0xED, 0xA0, 0x80], "=\"1\"/>"),
    ]

    @Test(arguments: notUTF8)
    func testBytesThatAreNotUTF8AreRefused(body: Data) {
        #expect(XMLDocumentParser.firstInvalidUTF8(body) != nil)
        #expect(throws: HTTPError.self) { _ = try Multistatus(body) }
    }

    @Test func testUTF8IsAccepted() throws {
        let body = Data(
            "<d:multistatus xmlns:d=\"DAV:\"><d:response><d:href>/c/é€😀.ics</d:href></d:response></d:multistatus>".utf8)
        #expect(XMLDocumentParser.firstInvalidUTF8(body) == nil)
        #expect(try Multistatus(body).responses.first?.href == "/c/é€😀.ics")
    }

    /// A DTD after a long comment used to pass the check of the first 4 KB; the whole prolog is
    /// read now, and an entity declaration stops the parser in any case.
    @Test func testDoctypeAfterALongPrologIsRefused() {
        let bomb =
            "<?xml version=\"1.0\"?>\n<!--" + String(repeating: " ", count: 8192) + "-->\n"
            + "<!DOCTYPE d:multistatus [ <!ENTITY a \"aaaaaaaaaa\"> <!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;\"> ]>"
            + "<d:multistatus xmlns:d=\"DAV:\"><d:sync-token>&b;</d:sync-token></d:multistatus>"
        #expect(XMLDocumentParser.containsDoctype(Data(bomb.utf8)))
        let error = #expect(throws: HTTPError.self) { _ = try Multistatus(Data(bomb.utf8)) }
        #expect(error?.message.contains("DTD") == true)
    }

    @Test func testDoctypeTextInsideCalendarDataIsNotADTD() throws {
        let body =
            "<?xml version=\"1.0\"?><d:multistatus xmlns:d=\"DAV:\"><d:sync-token><![CDATA[<!DOCTYPE html>]]></d:sync-token></d:multistatus>"
        #expect(!XMLDocumentParser.containsDoctype(Data(body.utf8)))
        #expect(try Multistatus(Data(body.utf8)).syncToken == "<!DOCTYPE html>")
    }
}
