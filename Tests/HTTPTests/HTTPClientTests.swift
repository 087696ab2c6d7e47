import CalgwTestSupport
import Foundation
import Testing
@testable import CalDAV
import HTTP

@Suite(.serialized, .timeLimit(.minutes(10))) struct HTTPClientTests {
    @Test func testBodyOverTheCapFailsClearly() async throws {
        let fixture = try DAVServerFixture(TestServers.any())
        let collection = try await fixture.newCalendar("cap")
        let uid = TestEvent.uniqueUID()
        let item = collection.appendingPathComponent("\(uid).ics")
        try await fixture.client.put(
            item, data: TestEvent.data(uid: uid, summary: String(repeating: "x", count: 5000), end: "20260310T110000Z"),
            condition: .createOnly)
        var configuration = HTTPClientConfiguration(
            authentication: .basic(username: fixture.server.username, password: fixture.server.password))
        configuration.maxResponseBytes = 1000
        let small = try HTTPClient(configuration: configuration)
        do {
            _ = try await small.send(HTTPRequest(method: "GET", url: item))
            Issue.record("a body over the cap was accepted")
        } catch let error as HTTPError {
            #expect(error.code == .responseTooLarge)
            #expect(error.message.contains("1000 byte limit"))
        }
    }

    @Test func testUserAgentParallelRequestsAndReuse() async throws {
        let fixture = try DAVServerFixture(TestServers.any())
        let collection = try await fixture.newCalendar("par")
        let uid = TestEvent.uniqueUID()
        let item = collection.appendingPathComponent("\(uid).ics")
        try await fixture.client.put(
            item, data: TestEvent.data(uid: uid, end: "20260310T110000Z"), condition: .createOnly)
        let client = fixture.client.http
        #expect(client.configuration.userAgent == "calgw/\(HTTPVersions.calgwVersion)")
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<64 { group.addTask { try await client.send(HTTPRequest(method: "GET", url: item)).status } }
            var all: [Int] = []
            for try await status in group { all.append(status) }
            return all
        }
        #expect(statuses.count == 64 && statuses.allSatisfy { $0 == 200 })
    }

    @Test func testConnectionRefusedIsAConnectionError() async throws {
        var configuration = HTTPClientConfiguration()
        configuration.maxRetries = 1
        configuration.retryBaseDelay = 0.01
        let client = try HTTPClient(configuration: configuration)
        do {
            _ = try await client.send(HTTPRequest(method: "GET", url: URL(string: "http://127.0.0.1:1/")!))
            Issue.record("a request to a closed port succeeded")
        } catch let error as HTTPError {
            #expect(error.code == .connectionFailed)
            #expect(error.recovery != nil)
        }
    }

    /// libcurl is asked for HTTP(S) only: a URL of another scheme is never fetched, not even a
    /// local file.
    @Test(arguments: ["file:///etc/hostname", "dict://127.0.0.1:1/x", "gopher://127.0.0.1:1/_x"])
    func testOtherSchemesAreNotFetched(url: String) async throws {
        let client = try HTTPClient(configuration: HTTPClientConfiguration())
        let error = await #expect(throws: HTTPError.self) {
            _ = try await client.send(HTTPRequest(method: "GET", url: URL(string: url)!))
        }
        #expect(error?.code == .invalidRequest, "\(String(describing: error))")
    }
}

@Suite(.serialized, .timeLimit(.minutes(10))) struct HTTPClientCancellationTests {
    @Test func testCancellingATaskAbortsItsTransfer() async throws {
        let fixture = try DAVServerFixture(TestServers.any())
        // The answer waits far longer than the cancel below can be late on a loaded machine.
        let proxy = try TestProxies.fault(upstream: fixture.server.url, script: "slow", slowSeconds: 60)
        defer { proxy.stop() }
        let client = fixture.client.http
        let task = Task { try await client.send(HTTPRequest(method: "GET", url: proxy.proxied(fixture.server.home))) }
        try await Task.sleep(nanoseconds: 200_000_000)
        task.cancel()
        do {
            _ = try await task.value
            Issue.record("a cancelled request completed")
        } catch {
            #expect(error is CancellationError, "\(error)")
        }
        // The client still works afterwards.
        #expect(
            try await client.send(HTTPRequest(method: "PROPFIND", url: fixture.server.home, headers: [("Depth", "0")]))
                .status == 207)
    }
}
