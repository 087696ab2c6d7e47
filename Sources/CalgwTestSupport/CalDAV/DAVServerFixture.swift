import CalDAV
import Foundation
import HTTP

/// A real server with a client signed in as its user, and a way to make calendars: what the
/// client and storage tests of every server start from.
///
/// ```swift
/// let fixture = try DAVServerFixture("radicale")
/// let calendar = try await fixture.newCalendar("crud")
/// _ = try await fixture.client.put(calendar.appendingPathComponent("a.ics"), data: event, condition: .createOnly)
/// ```
public struct DAVServerFixture: Sendable {
    /// The server, started once per test process (``TestServers/shared(_:)``).
    public let server: TestServer
    /// A client of the server, with the test user's credentials.
    public let client: CalDAVClient

    /// - Parameters:
    ///   - name: the server script's name (`radicale`, `xandikos`, `cyrus`, `davical`).
    ///   - configure: changes the client's configuration (timeouts, page sizes) before it is made.
    public init(_ name: String, configure: (inout CalDAVClient.Configuration) -> Void = { _ in }) throws {
        server = try TestServers.shared(name)
        var configuration = CalDAVClient.Configuration(
            http: HTTPClientConfiguration(authentication: .basic(username: server.username, password: server.password)))
        configure(&configuration)
        client = try CalDAVClient(configuration: configuration)
    }

    /// A new, empty calendar collection under the home.
    public func newCalendar(_ prefix: String = "t") async throws -> URL {
        let url = server.newCollectionURL(prefix: prefix)
        try await client.makeCalendar(url, displayName: "Test \(prefix)")
        return url
    }
}
