import Foundation
import Testing
@testable import CalDAV
@testable import HTTP

@Suite struct HrefResolverTests {
    let resolver = HrefResolver(base: URL(string: "http://127.0.0.1:5232/alice/work/")!)

    @Test func testRelativeAbsoluteAndEncodedHrefsAreOneHref() throws {
        let forms = [
            "/alice/work/a%40b.ics", "/alice/work/a@b.ics", "a@b.ics", "http://127.0.0.1:5232/alice/work/a%40b.ics",
            "/alice//work/a@b.ics",
        ]
        let hrefs = try forms.map { try #require(try resolver.member($0)).href }
        #expect(Set(hrefs).count == 1, "\(hrefs)")
        #expect(hrefs.first?.path == "/alice/work/a@b.ics")
    }

    @Test func testCollectionItselfIsNotAMember() throws {
        #expect(try resolver.member("/alice/work/") == nil)
        #expect(try resolver.member("/alice/work") == nil)
    }

    @Test(arguments: [
        "/alice/work/../bob/x.ics", "/alice/work/%2e%2e/bob/x.ics", "/alice/work/%2E%2E/x.ics",
        "http://evil.example/alice/work/x.ics", "https://127.0.0.1:5232/alice/work/x.ics",
        "/alice/other/x.ics", "/alice/workshop/x.ics", "/alice/work/..%2F..%2Fx.ics",
        "/alice/work/a%00b.ics", "/alice/work/a\u{0}b.ics", "/alice/work/a%0Ab.ics",
        "/alice/work/" + String(repeating: "n", count: 10_000) + ".ics",
    ])
    func testUnsafeHrefsAreRefused(raw: String) {
        #expect(throws: HTTPError.self) { _ = try resolver.member(raw) }
    }

    @Test func testRefusalNamesTheHrefPrintably() {
        let error = #expect(throws: HTTPError.self) { _ = try resolver.member("/alice/work/a\u{0}b.ics") }
        #expect(
            error?.message == "the server listed the href /alice/work/a\\u{0}b.ics, which contains a control character")
        let long = #expect(throws: HTTPError.self) {
            _ = try resolver.member("/alice/work/" + String(repeating: "n", count: 10_000))
        }
        #expect(long?.message.contains("over the 4096 byte limit") == true)
        #expect((long?.message.count ?? .max) < 400)
    }

    /// Plain absolute paths skip the general resolution; a leading space (trimmed) forces it, and
    /// both must agree on every href, refused or not.
    @Test(arguments: [
        "/alice/work/a.ics", "/alice/work/", "/alice/work", "/alice/work/a@b:c;d=e.ics", "/alice/work/.hidden.ics",
        "/alice/work/.../x.ics", "/alice/work/./x.ics", "/alice/work/../x.ics", "/alice/work/..", "/alice/work/.",
        "/alice//work/a.ics", "/alice/other/a.ics", "/", "/alice/work/a..ics",
        "/alice/work/" + String(repeating: "n", count: 5000),
    ])
    func testThePlainPathShortcutAgreesWithTheGeneralResolution(raw: String) throws {
        func outcome(_ href: String) -> String {
            do {
                return try resolver.member(href).map { "\($0.href.path) \($0.url.absoluteString)" } ?? "collection"
            } catch { return "refused" }
        }
        #expect(outcome(raw) == outcome(" " + raw))
        #expect(
            HrefResolver.isPlainPath(raw)
                == (raw.count < 100 && !raw.contains("//") && !raw.hasSuffix("/..") && !raw.hasSuffix("/.")
                    && !raw.contains("/../") && !raw.contains("/./")))
    }

    /// A plain path's bytes are those the canonical form leaves unescaped, each of the 256
    /// checked in a member's name.
    @Test func thePlainPathsBytesAreTheUnescapedOnes() {
        let unescaped = Set(
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/!$&'()*+,;=:@".utf8)
        for byte in UInt8.min...UInt8.max {
            let path = String(decoding: Array("/alice/work/a".utf8) + [byte, UInt8(ascii: "b")], as: UTF8.self)
            #expect(HrefResolver.isPlainPath(path) == unescaped.contains(byte), "byte \(byte)")
        }
    }

    /// The href-only resolution answers as the full one does, for every kind of href: plain,
    /// encoded, relative, absolute, the collection, and refused ones.
    @Test(arguments: [
        "/alice/work/a.ics", "/alice/work/a%40b.ics", "a@b.ics", "http://127.0.0.1:5232/alice/work/x.ics",
        "/alice/work/", "/alice/work", "/alice//work/a.ics", "/alice/work/../x.ics", "/alice/other/a.ics",
        "/alice/workshop/x.ics", "http://evil.example/alice/work/x.ics", "/alice/work/a%00b.ics",
        "/alice/work/caf%C3%A9%20party.ics", " /alice/work/a.ics", "/alice/work//x.ics", "/alice/work/./x.ics",
        "/alice/work/..", "/alice/work/sub/", "/alice/work/sub/.", "/alice/work/a b.ics", "/alice/work/x/../../y.ics",
        "/alice/work/" + String(repeating: "n", count: 5000),
    ])
    func testTheHrefOnlyResolutionAgreesWithTheFullOne(raw: String) {
        func full() -> String {
            do { return try resolver.member(raw)?.href.path ?? "collection" } catch { return "refused" }
        }
        func hrefOnly() -> String {
            do { return try resolver.memberHref(raw)?.path ?? "collection" } catch { return "refused" }
        }
        #expect(hrefOnly() == full(), "\(raw)")
    }

    /// A URL's href takes its path as it is when the path is plain, and is taken apart and
    /// escaped again otherwise: both give the same href.
    @Test(arguments: [
        "http://h/alice/work/a.ics", "http://h/alice/work/", "http://h/a/b@c:d;e=f.ics",
        "http://h/alice/work/a%40b.ics",
        "http://h/alice/work/caf%C3%A9%20party.ics", "http://h/alice//work/a.ics", "http://h/alice/./work/a.ics",
        "http://h/alice/work/a..ics", "http://h", "http://h/",
        "http://h:8080/dav/calendars/user/x/bench-1@calgw.example.ics",
        "http://h/alice/work/a%2fb.ics", "http://h/alice/work/a~b_c-d.ics?x=1",
    ])
    func testTheHrefOfAURLIsItsCanonicalPath(text: String) throws {
        let url = try #require(URL(string: text))
        #expect(
            HrefResolver.href(of: url).path == HrefResolver.canonicalPath(HrefResolver.decodedPath(of: url) ?? "/"),
            "\(text)")
    }

    @Test func testSpacesAndUnicodeRoundTrip() throws {
        let member = try #require(try resolver.member("/alice/work/caf%C3%A9%20party.ics"))
        #expect(member.href.path == "/alice/work/caf%C3%A9%20party.ics")
        #expect(member.url.absoluteString == "http://127.0.0.1:5232/alice/work/caf%C3%A9%20party.ics")
    }
}

@Suite struct MultistatusTests {
    @Test func testPrefixedAndDefaultNamespacesReadAlike() throws {
        let prefixed = """
            <?xml version="1.0"?><D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
            <D:response><D:href>/c/a.ics</D:href><D:propstat><D:prop><D:getetag>"1"</D:getetag>
            <C:calendar-data>BEGIN:VCALENDAR&#13;
            END:VCALENDAR</C:calendar-data></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>
            <D:response><D:href>/c/gone.ics</D:href><D:status>HTTP/1.1 404 Not Found</D:status></D:response>
            <D:sync-token>data:,7</D:sync-token></D:multistatus>
            """
        let defaulted = """
            <multistatus xmlns="DAV:"><response><href>/c/a.ics</href><propstat><prop><getetag>"1"</getetag>
            <calendar-data xmlns="urn:ietf:params:xml:ns:caldav"><![CDATA[BEGIN:VCALENDAR\r
            END:VCALENDAR]]></calendar-data></prop><status>HTTP/1.1 200 OK</status></propstat></response>
            <response><href>/c/gone.ics</href><status>HTTP/1.1 404 Not Found</status></response>
            <sync-token>data:,7</sync-token></multistatus>
            """
        for body in [prefixed, defaulted] {
            let answer = try Multistatus(Data(body.utf8))
            #expect(answer.syncToken == "data:,7")
            #expect(answer.responses.count == 2)
            #expect(answer.responses[0].text(XMLNamespace.dav, "getetag") == "\"1\"")
            #expect(
                answer.responses[0].property(XMLNamespace.caldav, "calendar-data")?.text
                    == "BEGIN:VCALENDAR\r\nEND:VCALENDAR")
            #expect(answer.responses[1].status == 404)
        }
    }

    @Test func testWrongNamespaceIsNotDAV() throws {
        let body = #"<x:multistatus xmlns:x="urn:other"><x:response/></x:multistatus>"#
        #expect(throws: HTTPError.self) { _ = try Multistatus(Data(body.utf8)) }
    }

    @Test func testDTDAndEntitiesAreRefused() {
        let body = """
            <?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>
            <d:multistatus xmlns:d="DAV:"><d:response><d:href>&x;</d:href></d:response></d:multistatus>
            """
        #expect(throws: HTTPError.self) { _ = try Multistatus(Data(body.utf8)) }
    }

    @Test func testFailedPropstatIsLeftOut() throws {
        let body = """
            <d:multistatus xmlns:d="DAV:"><d:response><d:href>/c/</d:href>
            <d:propstat><d:prop><d:displayname>Work</d:displayname></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>
            <d:propstat><d:prop><d:sync-token/></d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat>
            </d:response></d:multistatus>
            """
        let response = try #require(try Multistatus(Data(body.utf8)).responses.first)
        #expect(response.text(XMLNamespace.dav, "displayname") == "Work")
        #expect(response.property(XMLNamespace.dav, "sync-token") == nil)
    }

    @Test func testServerReasonNamesThePrecondition() {
        let body =
            #"<D:error xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><C:no-uid-conflict><D:href>/c/other.ics</D:href></C:no-uid-conflict></D:error>"#
        #expect(ServerReason.extract(from: Data(body.utf8)) == "CALDAV:no-uid-conflict (/c/other.ics)")
    }

    @Test func testBuilderEscapesText() {
        let body = String(decoding: XMLBuilder.document(.text("d:href", "/c/a&b<c>.ics")), as: UTF8.self)
        #expect(body.contains("<d:href xmlns:d=\"DAV:\""))
        #expect(body.contains(">/c/a&amp;b&lt;c&gt;.ics</d:href>"))
    }

    @Test func testRetryAfterSecondsAndDate() {
        #expect(HTTPClient.retryAfter([("Retry-After", "3")]) == 3)
        let future = Date().addingTimeInterval(60)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let seconds = HTTPClient.retryAfter([("retry-after", formatter.string(from: future))]) ?? 0
        #expect(seconds > 50 && seconds <= 60)
        #expect(HTTPClient.retryAfter([]) == nil)
    }
}
