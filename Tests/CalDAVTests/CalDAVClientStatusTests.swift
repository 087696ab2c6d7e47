import CalDAV
import CalgwTestSupport
import Foundation
import HTTP
import Testing

/// The error codes the client makes of a server's statuses and of a failed transfer, on
/// scripted answers (real servers give the same codes in `CalDAVClientTests` and `ProxyTests`).
@Suite struct CalDAVClientStatusTests {
    static let item = ScriptedDAV.collection.appendingPathComponent("a.ics")
    static let event = Data("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)

    @Test func testRefusedCredentialsAreAnAuthenticationFailure() async throws {
        let transport = ScriptedTransport([
            .init(
                status: 401, headers: [("WWW-Authenticate", "Basic realm=\"dav\"")],
                text: "<html><body>Unauthorized</body></html>")
        ])
        let error = await #expect(throws: HTTPError.self) {
            _ = try await ScriptedDAV.client(transport).listItems(in: ScriptedDAV.collection)
        }
        #expect(error?.code == .authenticationFailed)
        #expect(error?.status == 401)
        #expect(error.map { !"\($0.message) \($0.recovery ?? "")".contains(ScriptedDAV.password) } == true)
        #expect(transport.requests.count == 1, "Basic credentials refused once are not sent again")
    }

    @Test func testBearerTokenIsRefreshedOnceAfter401() async throws {
        let calls = Locked(0)
        let provider = BearerTokenProvider {
            calls.mutate { $0 += 1 }
            return "token-\(calls.value)"
        }
        let transport = ScriptedTransport([
            .init(status: 401), .init(status: 200, text: "BEGIN:VCALENDAR\r\n"),
        ])
        let client = ScriptedDAV.client(transport) { $0.authentication = .bearer(provider) }
        _ = try await client.get(Self.item)
        #expect(transport.transfers.map(\.bearerToken) == ["token-1", "token-2"])
        #expect(calls.value == 2)
    }

    @Test func testStaleConditionalPutIsAPreconditionFailure() async throws {
        let transport = ScriptedTransport([.init(status: 412, text: "etag mismatch")])
        let error = await #expect(throws: HTTPError.self) {
            try await ScriptedDAV.client(transport).put(
                Self.item, data: Self.event, condition: .ifMatch(ETag("\"old\"")))
        }
        #expect(error?.code == .preconditionFailed)
        #expect(error?.status == 412)
        let request = try #require(transport.requests.first)
        #expect(request.method == "PUT")
        #expect(request.header("If-Match") == "\"old\"")
        #expect(request.header("If-None-Match") == nil)
        #expect(request.body == Self.event)
        #expect(transport.requests.count == 1)
    }

    @Test func testTakenHrefOnCreateIsAPreconditionFailure() async throws {
        let transport = ScriptedTransport([.init(status: 412)])
        let error = await #expect(throws: HTTPError.self) {
            try await ScriptedDAV.client(transport).put(Self.item, data: Self.event, condition: .createOnly)
        }
        #expect(error?.code == .preconditionFailed)
        #expect(transport.requests.first?.header("If-None-Match") == "*")
    }

    @Test func testForbiddenWriteNamesTheServersPrecondition() async throws {
        let reason =
            "<?xml version=\"1.0\"?><d:error xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\"><c:valid-calendar-data/></d:error>"
        let transport = ScriptedTransport([
            .init(status: 403, headers: [("Content-Type", "application/xml")], text: reason)
        ])
        let error = await #expect(throws: HTTPError.self) {
            try await ScriptedDAV.client(transport).put(Self.item, data: Self.event, condition: .createOnly)
        }
        #expect(error?.code == .forbidden)
        #expect(error?.serverReason == "CALDAV:valid-calendar-data")
    }

    @Test func testBodyOverTheCapStopsTheTransfer() async throws {
        let transport = ScriptedTransport([.init(status: 200, text: String(repeating: "x", count: 1000), chunkSize: 10)]
        )
        let client = ScriptedDAV.client(transport) { $0.maxResponseBytes = 100 }
        let error = await #expect(throws: HTTPError.self) { _ = try await client.get(Self.item) }
        #expect(error?.code == .responseTooLarge)
        #expect(error?.message.contains("100 byte limit") == true, "\(String(describing: error))")
        #expect(transport.requests.count == 1, "a body over the cap was fetched again")
    }

    @Test func testTLSFailureIsNotRetried() async throws {
        let transport = ScriptedTransport { _, _ in .failure(.tls, "SSL certificate problem: self-signed certificate") }
        let error = await #expect(throws: HTTPError.self) {
            _ = try await ScriptedDAV.client(transport).get(URL(string: "https://dav.test/alice/cal/a.ics")!)
        }
        #expect(error?.code == .tlsVerificationFailed)
        #expect(error?.message.contains("self-signed") == true)
        #expect(transport.requests.count == 1)
    }
}
