import CalDAV
import CalgwTestSupport
import Foundation
import HTTP
import Testing

/// Retries after busy answers and lost connections, counted on scripted answers (waits are
/// capped at 10 ms by `ScriptedDAV.client`; the real Retry-After wait is timed in `ProxyTests`).
@Suite struct HTTPClientRetryTests {
    @Test(arguments: [503, 429])
    func testBusyAnswerWithRetryAfterIsRetried(status: Int) async throws {
        let transport = ScriptedTransport([
            .init(status: status, headers: [("Retry-After", "1")], text: "busy"),
            .multistatus(ScriptedDAV.listing("/alice/cal/", [("/alice/cal/a.ics", "\"1\"")])),
        ])
        let items = try await ScriptedDAV.client(transport).listItems(in: ScriptedDAV.collection)
        #expect(items.map(\.etag.value) == ["\"1\""])
        #expect(transport.requests.count == 2)
        #expect(transport.requests.allSatisfy { $0.method == "PROPFIND" && $0.url == ScriptedDAV.collection })
    }

    @Test func testBusyAnswersStopAfterTheConfiguredRetries() async throws {
        let transport = ScriptedTransport { _, _ in
            .init(status: 503, headers: [("Retry-After", "120")], text: "down for maintenance")
        }
        let client = ScriptedDAV.client(transport) { $0.maxRetries = 2 }
        let error = await #expect(throws: HTTPError.self) {
            _ = try await client.listItems(in: ScriptedDAV.collection)
        }
        #expect(error?.code == .unexpectedStatus)
        #expect(error?.status == 503)
        #expect(error?.serverReason == "down for maintenance")
        #expect(transport.requests.count == 3)
    }

    @Test func testUnconditionalWriteIsNotRetried() async throws {
        let transport = ScriptedTransport([.init(status: 503), .init(status: 201)])
        let error = await #expect(throws: HTTPError.self) {
            try await ScriptedDAV.client(transport).makeCalendar(URL(string: "http://dav.test/alice/new/")!)
        }
        #expect(error?.status == 503)
        #expect(transport.requests.map(\.method) == ["MKCALENDAR"])
    }

    @Test func testConnectionFailureIsRetriedThenReported() async throws {
        let transport = ScriptedTransport { _, _ in .connectionFailure("Connection refused") }
        let client = ScriptedDAV.client(transport) { $0.maxRetries = 2 }
        let error = await #expect(throws: HTTPError.self) {
            _ = try await client.listItems(in: ScriptedDAV.collection)
        }
        #expect(error?.code == .connectionFailed)
        #expect(error?.message.contains("Connection refused") == true, "\(String(describing: error))")
        #expect(error?.recovery != nil)
        #expect(transport.requests.count == 3)
    }

    @Test func testConnectionFailureThenAnswerSucceeds() async throws {
        let transport = ScriptedTransport([
            .connectionFailure(),
            .init(status: 200, text: "x").cut(after: 0),
            .init(
                status: 200, headers: [("ETag", "\"7\"")], text: "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", chunkSize: 5),
        ])
        let resource = try await ScriptedDAV.client(transport).get(
            ScriptedDAV.collection.appendingPathComponent("a.ics"))
        #expect(resource.etag.value == "\"7\"")
        #expect(resource.data == Data("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".utf8))
        #expect(transport.requests.count == 3)
    }

    @Test func testConnectionLostMidStreamIsNotRetried() async throws {
        // Bytes already reached the sink: sending again would hand it the same bytes twice.
        let body = ScriptedDAV.query((0..<5).map { ("/alice/cal/\($0).ics", "\"\($0)\"", "uid-\($0)") })
        let transport = ScriptedTransport([.multistatus(body, chunkSize: 64).cut(after: 300), .multistatus(body)])
        let client = ScriptedDAV.client(transport)
        let reader = try MultistatusReader.members { _ in }
        let error = await #expect(throws: HTTPError.self) {
            _ = try await client.http.send(
                HTTPRequest(method: "REPORT", url: ScriptedDAV.collection), streamingTo: reader)
        }
        #expect(error?.code == .connectionFailed)
        #expect(transport.requests.count == 1)
    }
}
