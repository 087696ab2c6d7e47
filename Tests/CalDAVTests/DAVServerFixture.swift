import CalDAV
import CalgwTestSupport
import Foundation
import Testing

/// A real server with a client authenticated for its user, and helpers to make collections.
struct DAVServerFixture {
    let server: TestServer
    let client: CalDAVClient

    init(_ name: String, configure: (inout CalDAVClient.Configuration) -> Void = { _ in }) throws {
        server = try TestServers.shared(name)
        var configuration = CalDAVClient.Configuration(
            http: HTTPClientConfiguration(authentication: .basic(username: server.username, password: server.password)))
        configure(&configuration)
        client = try CalDAVClient(configuration: configuration)
    }

    /// A new, empty calendar collection under the home.
    func newCalendar(_ prefix: String = "t") async throws -> URL {
        let url = server.newCollectionURL(prefix: prefix)
        try await client.makeCalendar(url, displayName: "Test \(prefix)")
        return url
    }
}

/// Calendar objects for tests; UIDs are unique per call (Cyrus wants them unique per user).
enum Sample {
    static func uid(_ stem: String = "ev") -> String { "\(stem)-\(UUID().uuidString.lowercased())" }

    static func event(uid: String, summary: String = "Meeting", day: Int = 1) -> Data {
        let date = String(format: "202603%02dT100000Z", max(1, min(28, day)))
        let end = String(format: "202603%02dT110000Z", max(1, min(28, day)))
        return Data("""
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//calgw//tests//EN\r
        BEGIN:VEVENT\r
        UID:\(uid)\r
        DTSTAMP:20260101T000000Z\r
        DTSTART:\(date)\r
        DTEND:\(end)\r
        SUMMARY:\(summary)\r
        END:VEVENT\r
        END:VCALENDAR\r

        """.utf8)
    }
}

extension TestServers {
    /// The servers tests run on, for `@Test(arguments:)`.
    static var names: [String] { selected }
}
