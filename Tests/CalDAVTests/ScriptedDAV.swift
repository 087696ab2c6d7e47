import CalDAV
import CalgwTestSupport
import Foundation
import HTTP

/// Clients on a `ScriptedTransport` and the answers a CalDAV server would give them, for the
/// tests of what the client makes of answers without a server.
enum ScriptedDAV {
    /// A collection on a host no test reaches (the transport answers every request).
    static let collection = URL(string: "http://dav.test/alice/cal/")!
    static let user = "alice"
    static let password = "s3cret-pw"

    /// A CalDAV client sending through `transport`, with Basic credentials, retries quick
    /// enough for a test (waits of at most 10 ms, even after a Retry-After), and `configure`.
    static func client(
        _ transport: ScriptedTransport,
        configure: (inout HTTPClientConfiguration) -> Void = { _ in }
    ) -> CalDAVClient {
        var http = HTTPClientConfiguration(authentication: .basic(username: user, password: password))
        http.retryBaseDelay = 0.001
        http.maxRetryDelay = 0.01
        configure(&http)
        return CalDAVClient(configuration: .init(http: http), transport: transport)
    }

    /// A Depth 1 PROPFIND answer for the collection at `path`: the collection itself, then one
    /// member per href with its etag.
    static func listing(_ path: String, _ members: [(href: String, etag: String)]) -> String {
        var xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
            <d:response><d:href>\(path)</d:href><d:propstat><d:prop><d:resourcetype><d:collection/><c:calendar/></d:resourcetype>\
            </d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>

            """
        for member in members {
            xml +=
                "<d:response><d:href>\(member.href)</d:href><d:propstat><d:prop><d:resourcetype/>"
                + "<d:getetag>\(member.etag)</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>\n"
        }
        return xml + "</d:multistatus>\n"
    }

    /// A calendar-query answer with each member's etag and calendar data, as a bulk fetch reads it.
    static func query(_ members: [(href: String, etag: String, uid: String)]) -> String {
        var xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">

            """
        for member in members {
            xml +=
                "<d:response><d:href>\(member.href)</d:href><d:propstat><d:prop><d:getetag>\(member.etag)</d:getetag>"
                + "<c:calendar-data>BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:\(member.uid)\r\nSUMMARY:Plan &amp; review é\r\n"
                + "END:VEVENT\r\nEND:VCALENDAR\r\n</c:calendar-data></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>\n"
        }
        return xml + "</d:multistatus>\n"
    }
}
