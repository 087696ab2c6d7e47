import CalDAV
import CalgwTestSupport
import Foundation
import HTTP
import Testing

/// What the client makes of a 207 as a transport delivers it: hostile member hrefs refuse the
/// answer, and a body in many tiny chunks reads as it does in one, both collected and streamed.
@Suite struct CalDAVClientMultistatusTests {
    static let members = (0..<30).map { ("/alice/cal/event-\($0).ics", "\"e\($0)\"", "uid-\($0)") }

    @Test(arguments: [
        "/alice/other/x.ics", "/alice/cal/../other/x.ics", "http://evil.test/alice/cal/x.ics", "/alice/cal/%00.ics",
    ])
    func testListingWithAMemberOutsideTheCollectionIsRefused(href: String) async throws {
        let transport = ScriptedTransport([
            .multistatus(ScriptedDAV.listing("/alice/cal/", [("/alice/cal/a.ics", "\"1\""), (href, "\"2\"")]))
        ])
        let error = await #expect(throws: HTTPError.self) {
            _ = try await ScriptedDAV.client(transport).listItems(in: ScriptedDAV.collection)
        }
        #expect(error?.code == .unsafeHref)
    }

    /// A multiget answered with an href outside the collection fails: skipping it would make
    /// the item asked for look deleted.
    @Test(arguments: ["/alice/other/a.ics", "/alice/cal/../other/a.ics", "http://evil.test/alice/cal/a.ics"])
    func testMultigetWithAMemberOutsideTheCollectionIsRefused(href: String) async throws {
        let transport = ScriptedTransport([
            .multistatus(ScriptedDAV.query([("/alice/cal/b.ics", "\"1\"", "b"), (href, "\"2\"", "a")]))
        ])
        let client = ScriptedDAV.client(transport)
        let error = await #expect(throws: HTTPError.self) {
            _ = try await client.multiget(
                ScriptedDAV.collection,
                hrefs: [
                    Href(canonicalPath: "/alice/cal/a.ics"),
                    Href(canonicalPath: "/alice/cal/b.ics"),
                ])
        }
        #expect(error?.code == .unsafeHref)
    }

    @Test func testMultigetLeavesOutOnlyWhatTheServerDoesNotHave() async throws {
        let transport = ScriptedTransport([.multistatus(ScriptedDAV.query([("/alice/cal/b.ics", "\"1\"", "b")]))])
        let found = try await ScriptedDAV.client(transport).multiget(
            ScriptedDAV.collection,
            hrefs: [
                Href(canonicalPath: "/alice/cal/a.ics"), Href(canonicalPath: "/alice/cal/b.ics"),
            ])
        #expect(found.map(\.href.path) == ["/alice/cal/b.ics"])
    }

    @Test func testSyncCollectionWithAMemberOutsideTheCollectionIsRefused() async throws {
        let answer = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:multistatus xmlns:d="DAV:">
            <d:response><d:href>/alice/cal/a.ics</d:href><d:propstat><d:prop><d:getetag>"1"</d:getetag></d:prop>\
            <d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
            <d:response><d:href>/alice/../bob/b.ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>
            <d:sync-token>data:,2</d:sync-token>
            </d:multistatus>
            """
        let transport = ScriptedTransport([.multistatus(answer)])
        let error = await #expect(throws: HTTPError.self) {
            _ = try await ScriptedDAV.client(transport).syncCollection(
                ScriptedDAV.collection, token: SyncToken("data:,1"))
        }
        #expect(error?.code == .unsafeHref)
    }

    @Test func testSyncCollectionReadsChangesRemovalsAndToken() async throws {
        let answer = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:multistatus xmlns:d="DAV:">
            <d:response><d:href>/alice/cal/a.ics</d:href><d:propstat><d:prop><d:getetag>"1"</d:getetag></d:prop>\
            <d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
            <d:response><d:href>/alice/cal/gone.ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>
            <d:sync-token>data:,2</d:sync-token>
            </d:multistatus>
            """
        let transport = ScriptedTransport([.multistatus(answer, chunkSize: 1)])
        let result = try await ScriptedDAV.client(transport).syncCollection(
            ScriptedDAV.collection, token: SyncToken("data:,1"))
        #expect(result.changed.map(\.href.path) == ["/alice/cal/a.ics"])
        #expect(result.removed.map(\.path) == ["/alice/cal/gone.ics"])
        #expect(result.token == SyncToken("data:,2"))
        #expect(transport.requests.first?.body.map { String(decoding: $0, as: UTF8.self).contains("data:,1") } == true)
    }

    @Test(arguments: [1, 7])
    func testListingInTinyChunksReadsAsInOne(chunkSize: Int) async throws {
        let body = ScriptedDAV.listing("/alice/cal/", Self.members.map { ($0.0, $0.1) })
        let whole = ScriptedTransport([.multistatus(body)])
        let chunked = ScriptedTransport([.multistatus(body, chunkSize: chunkSize)])
        let expected = try await ScriptedDAV.client(whole).listItems(in: ScriptedDAV.collection)
        let read = try await ScriptedDAV.client(chunked).listItems(in: ScriptedDAV.collection)
        #expect(expected.count == Self.members.count)
        #expect(read == expected)
    }

    @Test(arguments: [1, 7])
    func testStreamedAnswerInTinyChunksReadsAsInOne(chunkSize: Int) async throws {
        let body = ScriptedDAV.query(Self.members)
        func read(_ response: ScriptedResponse) async throws -> (
            members: [DAVMember], response: HTTPResponse, reader: MultistatusReader
        ) {
            let transport = ScriptedTransport([response])
            var members: [DAVMember] = []
            let reader = try MultistatusReader.members { members.append($0) }
            let answer = try await ScriptedDAV.client(transport).http.send(
                HTTPRequest(method: "REPORT", url: ScriptedDAV.collection, headers: [("Depth", "1")]),
                streamingTo: reader)
            try reader.finish()
            return (members, answer, reader)
        }
        let whole = try await read(.multistatus(body))
        let chunked = try await read(.multistatus(body, chunkSize: chunkSize))
        #expect(whole.members.map(\.href) == Self.members.map(\.0))
        #expect(chunked.members == whole.members)
        #expect(
            chunked.members.first?.calendarData.map { String(decoding: $0, as: UTF8.self) }?.contains(
                "SUMMARY:Plan & review é\r\n") == true)
        // The streamed body went to the reader only: the response holds none of it.
        #expect(chunked.response.status == 207)
        #expect(chunked.response.body.isEmpty)
        #expect(chunked.reader.sourceURL == ScriptedDAV.collection)
    }

    @Test func testWhatTheSinkThrowsEndsTheTransfer() async throws {
        struct Enough: Error {}
        let transport = ScriptedTransport([.multistatus(ScriptedDAV.query(Self.members), chunkSize: 16)])
        let reader = try MultistatusReader.members { _ in throw Enough() }
        await #expect(throws: Enough.self) {
            _ = try await ScriptedDAV.client(transport).http.send(
                HTTPRequest(method: "REPORT", url: ScriptedDAV.collection),
                streamingTo: reader)
        }
        #expect(transport.requests.count == 1)
    }

    @Test func testAnErrorAnswerIsNotStreamed() async throws {
        // Only a 2xx body reaches the sink; an error page is kept for the message.
        let transport = ScriptedTransport([
            .init(status: 500, text: "<html><body>Internal trouble</body></html>", chunkSize: 4)
        ])
        let reader = try MultistatusReader.members { _ in Issue.record("an error page reached the reader") }
        let response = try await ScriptedDAV.client(transport) { $0.maxRetries = 0 }.http.send(
            HTTPRequest(method: "REPORT", url: ScriptedDAV.collection), streamingTo: reader)
        #expect(response.status == 500)
        #expect(response.text.contains("Internal trouble"))
        #expect(reader.sourceURL == nil)
    }
}
