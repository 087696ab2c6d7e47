import CalDAV
import CalgwTestSupport
import Foundation
import HTTP
import Testing

/// Redirects as the client follows or refuses them, on scripted answers: the real-server
/// side (a redirecting proxy in front of Radicale) is in `ProxyTests`.
@Suite struct HTTPClientRedirectTests {
    @Test(arguments: [301, 302, 307, 308])
    func testRedirectedCollectionIsListedAtItsNewPlace(status: Int) async throws {
        let old = URL(string: "http://dav.test/alice/old/")!
        let transport = ScriptedTransport([
            .redirect(status, to: "/alice/cal/"),
            .multistatus(ScriptedDAV.listing("/alice/cal/", [("/alice/cal/a.ics", "\"1\"")])),
        ])
        let client = ScriptedDAV.client(transport)
        let items = try await client.listItems(in: old)
        // Members are resolved against the new place: against the old one they would be outside it.
        #expect(items.map(\.href.path) == ["/alice/cal/a.ics"])
        let requests = transport.requests
        #expect(requests.map(\.url) == [old, ScriptedDAV.collection])
        #expect(requests.map(\.method) == ["PROPFIND", "PROPFIND"])
        #expect(requests.map { $0.header("Depth") } == ["1", "1"])
        #expect(requests[1].body == requests[0].body && requests[1].body?.isEmpty == false)
        // Same origin: the credentials go along.
        #expect(transport.transfers.map(\.authentication.description) == ["basic(alice)", "basic(alice)"])
        #expect(client.traits.relocation(of: old) == ScriptedDAV.collection)
    }

    @Test func testRedirectToAnotherHostDropsTheCredentials() async throws {
        let transport = ScriptedTransport([
            .redirect(307, to: "http://elsewhere.test/alice/cal/"),
            .multistatus(ScriptedDAV.listing("/alice/cal/", [("/alice/cal/a.ics", "\"1\"")])),
        ])
        let items = try await ScriptedDAV.client(transport).listItems(in: ScriptedDAV.collection)
        #expect(items.count == 1)
        #expect(transport.requests.last?.url.host == "elsewhere.test")
        #expect(transport.transfers.map(\.authentication.description) == ["basic(alice)", "none"])
    }

    /// A server that moves every client to TLS keeps its credentials: they go on over https.
    @Test func testUpgradeToHTTPSOnTheSameHostKeepsTheCredentials() async throws {
        let transport = ScriptedTransport([
            .redirect(301, to: "https://dav.test/alice/cal/"),
            .multistatus(ScriptedDAV.listing("/alice/cal/", [("/alice/cal/a.ics", "\"1\"")])),
        ])
        let items = try await ScriptedDAV.client(transport).listItems(in: ScriptedDAV.collection)
        #expect(items.count == 1)
        #expect(transport.requests.last?.url.scheme == "https")
        #expect(transport.transfers.map(\.authentication.description) == ["basic(alice)", "basic(alice)"])
    }

    @Test(arguments: ["https://elsewhere.test/alice/cal/", "https://dav.test:8443/alice/cal/"])
    func testUpgradeToAnotherHostOrPortDropsTheCredentials(location: String) async throws {
        let transport = ScriptedTransport([
            .redirect(301, to: location),
            .multistatus(ScriptedDAV.listing("/alice/cal/", [])),
        ])
        _ = try await ScriptedDAV.client(transport).listItems(in: ScriptedDAV.collection)
        #expect(transport.transfers.map(\.authentication.description) == ["basic(alice)", "none"])
    }

    @Test func testHTTPSToHTTPRedirectIsRefused() async throws {
        let secure = URL(string: "https://dav.test/alice/cal/")!
        let transport = ScriptedTransport([
            .redirect(301, to: "http://dav.test/alice/cal/"),
            .multistatus(ScriptedDAV.listing("/alice/cal/", [])),
        ])
        let error = await #expect(throws: HTTPError.self) {
            _ = try await ScriptedDAV.client(transport).listItems(in: secure)
        }
        #expect(error?.code == .redirectRefused)
        #expect(error?.message.contains("does not downgrade") == true, "\(String(describing: error))")
        #expect(transport.requests.count == 1, "the plain-HTTP location was requested")
    }

    @Test(arguments: [
        "file:///etc/passwd", "gopher://127.0.0.1:25/_HELO", "ftp://dav.test/alice/cal/",
        "webcal://dav.test/alice/cal/",
    ])
    func testRedirectToAnotherSchemeIsRefused(location: String) async throws {
        let transport = ScriptedTransport([.redirect(302, to: location), .init(status: 200, text: "root:x:0:0")])
        let error = await #expect(throws: HTTPError.self) {
            _ = try await ScriptedDAV.client(transport).http.send(
                HTTPRequest(method: "GET", url: ScriptedDAV.collection))
        }
        #expect(error?.code == .redirectRefused)
        #expect(error?.message.contains("not an HTTP URL") == true, "\(String(describing: error))")
        #expect(transport.requests.count == 1, "\(location) was requested")
    }

    @Test func testEndlessRedirectsAreRefusedAfterTheLimit() async throws {
        // Every answer sends the client one step further.
        let transport = ScriptedTransport { _, index in .redirect(302, to: "/alice/hop\(index)/") }
        let client = ScriptedDAV.client(transport) { $0.maxRedirects = 3 }
        let error = await #expect(throws: HTTPError.self) {
            _ = try await client.listItems(in: ScriptedDAV.collection)
        }
        #expect(error?.code == .redirectRefused)
        #expect(error?.message.contains("more than 3 times") == true, "\(String(describing: error))")
        #expect(transport.requests.count == 4)
    }

    @Test func testAWriteIsNotRedirected() async throws {
        // PUT keeps no redirect: the write fails as redirected, and nothing is sent again.
        let transport = ScriptedTransport([.redirect(308, to: "/alice/moved/a.ics"), .init(status: 201)])
        let error = await #expect(throws: HTTPError.self) {
            try await ScriptedDAV.client(transport).put(
                ScriptedDAV.collection.appendingPathComponent("a.ics"),
                data: Data("BEGIN:VCALENDAR\r\n".utf8), condition: .createOnly)
        }
        #expect(error?.code == .redirectRefused)
        #expect(error?.status == 308)
        #expect(error?.message.contains("/alice/moved/a.ics") == true, "\(String(describing: error))")
        #expect(transport.requests.count == 1)
    }
}
