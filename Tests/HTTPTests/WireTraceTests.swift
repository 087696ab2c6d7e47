import CCurl
import Foundation
import Testing
@testable import HTTP

/// The header lines of a traced transfer keep what helps a person and blank every credential.
@Suite struct WireTraceTests {
    @Test(arguments: [
        ("Authorization: Basic YWxpY2U6c2VjcmV0", "Authorization: Basic <redacted>"),
        ("authorization:Bearer abc.def.ghi", "authorization: Bearer <redacted>"),
        ("Authorization: Digest username=\"alice\", response=\"6629fae4\"", "Authorization: Digest <redacted>"),
        ("Proxy-Authorization: Basic cHJveHk6cHc=", "Proxy-Authorization: Basic <redacted>"),
        ("Cookie: session=42; theme=dark", "Cookie: <redacted>"),
        ("Set-Cookie: session=42; HttpOnly", "Set-Cookie: <redacted>"),
        ("Content-Type: text/calendar", "Content-Type: text/calendar"),
        ("WWW-Authenticate: Digest realm=\"x\", nonce=\"n\"", "WWW-Authenticate: Digest realm=\"x\", nonce=\"n\""),
        ("PUT /cal/a.ics HTTP/1.1", "PUT /cal/a.ics HTTP/1.1"),
    ])
    func credentialHeadersAreBlanked(line: String, expected: String) {
        #expect(WireTrace.redacted(line) == expected)
    }

    @Test func linesAreMarkedBySideAndBodiesLeftOut() {
        var trace = WireTrace()
        func record(_ type: curl_infotype, _ text: String) {
            Array(text.utf8).withUnsafeBytes { trace.record(type, $0) }
        }
        record(CURLINFO_HEADER_OUT, "GET /cal/ HTTP/1.1\r\nAuthorization: Basic c2VjcmV0\r\n\r\n")
        record(CURLINFO_DATA_OUT, "BEGIN:VCALENDAR")
        record(CURLINFO_HEADER_IN, "HTTP/1.1 200 OK\r\n")
        record(CURLINFO_TEXT, "Connected to 127.0.0.1\n")
        #expect(
            trace.lines == [
                "> GET /cal/ HTTP/1.1", "> Authorization: Basic <redacted>", "< HTTP/1.1 200 OK",
                "* Connected to 127.0.0.1",
            ])
    }

    @Test func knownSecretsAreScrubbedWhereverTheyStand() {
        var trace = WireTrace()
        Array("we used hunter22 here\n".utf8).withUnsafeBytes { trace.record(CURLINFO_TEXT, $0) }
        #expect(trace.scrubbed(of: ["hunter22"]) == ["* we used <redacted> here"])
        #expect(trace.scrubbed(of: [""]) == ["* we used hunter22 here"])
    }
}
