import CalDAV
import CalgwTestSupport
import Foundation
import HTTP
import Testing

/// Auth, TLS, redirects and faults through the proxies of `Scripts/proxies/` in front of Radicale.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ProxyTests {
    /// Radicale with a fresh collection holding one event, reached directly.
    private func radicaleWithEvent() async throws -> (DAVServerFixture, URL, URL) {
        let fixture = try DAVServerFixture(TestServers.any())
        let collection = try await fixture.newCalendar("proxy")
        let uid = TestEvent.uniqueUID()
        let item = collection.appendingPathComponent("\(uid).ics")
        try await fixture.client.put(
            item, data: TestEvent.data(uid: uid, end: "20260310T110000Z"), condition: .createOnly)
        return (fixture, collection, item)
    }

    private func client(
        _ authentication: HTTPAuthentication, configure: (inout HTTPClientConfiguration) -> Void = { _ in }
    ) throws -> CalDAVClient {
        var http = HTTPClientConfiguration(authentication: authentication)
        http.retryBaseDelay = 0.05
        configure(&http)
        return try CalDAVClient(configuration: .init(http: http))
    }

    @Test(arguments: ["sha-256", "md5"])
    func testDigestAuthentication(algorithm: String) async throws {
        let (fixture, collection, item) = try await radicaleWithEvent()
        let proxy = try TestProxies.auth(
            upstream: fixture.server.url, mode: "digest", user: "dora", password: "digest-pw",
            algorithm: algorithm, upstreamUser: fixture.server.username,
            upstreamPassword: fixture.server.password)
        defer { proxy.stop() }
        let good = try client(.digest(username: "dora", password: "digest-pw"))
        let items = try await good.listItems(in: proxy.proxied(collection))
        #expect(items.map(\.href) == [HrefResolver.href(of: item)])
        let uid = TestEvent.uniqueUID()
        try await good.put(
            proxy.proxied(collection.appendingPathComponent("\(uid).ics")),
            data: TestEvent.data(uid: uid, end: "20260310T110000Z"),
            condition: .createOnly)
        #expect(proxy.logEntries().contains { $0["authorization"] as? String == "Digest" })

        let bad = try client(.digest(username: "dora", password: "wrong"))
        do {
            _ = try await bad.listItems(in: proxy.proxied(collection))
            Issue.record("a wrong Digest password was accepted")
        } catch let error as HTTPError {
            #expect(error.code == .authenticationFailed)
            #expect(!error.message.contains("wrong"), "the password leaked into: \(error.message)")
        }
    }

    @Test func testBearerTokenRefreshedOnceAfter401() async throws {
        let (fixture, collection, item) = try await radicaleWithEvent()
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let tokenFile = folder.file("token")
        try "first-token".write(to: tokenFile, atomically: true, encoding: .utf8)
        let proxy = try TestProxies.auth(
            upstream: fixture.server.url, mode: "bearer", tokenFile: tokenFile,
            upstreamUser: fixture.server.username, upstreamPassword: fixture.server.password)
        defer { proxy.stop() }
        let calls = Locked(0)
        let provider = BearerTokenProvider {
            calls.mutate { $0 += 1 }
            return try String(contentsOf: tokenFile, encoding: .utf8)
        }
        let bearer = try client(.bearer(provider))
        #expect(try await bearer.listItems(in: proxy.proxied(collection)).map(\.href) == [HrefResolver.href(of: item)])
        #expect(calls.value == 1)
        // The server rotates the token: the cached one gets a 401, the provider runs once more.
        try "second-token".write(to: tokenFile, atomically: true, encoding: .utf8)
        #expect(try await bearer.listItems(in: proxy.proxied(collection)).count == 1)
        #expect(calls.value == 2)

        let wrong = try client(.bearer(BearerTokenProvider { "not-the-token" }))
        await #expect(throws: HTTPError.self) { _ = try await wrong.listItems(in: proxy.proxied(collection)) }
    }

    @Test func testTLSWithThrowawayCA() async throws {
        let (fixture, collection, _) = try await radicaleWithEvent()
        let proxy = try TestProxies.tls(upstream: fixture.server.url)
        defer { proxy.stop() }
        let auth = HTTPAuthentication.basic(username: fixture.server.username, password: fixture.server.password)
        let target = proxy.proxied(collection)
        #expect(target.scheme == "https")

        do {
            _ = try await client(auth).listItems(in: target)
            Issue.record("the system CAs accepted a throwaway certificate")
        } catch let error as HTTPError {
            #expect(error.code == .tlsVerificationFailed, "\(error)")
        }
        let ca = try #require(proxy.values["PROXY_CA"])
        #expect(try await client(auth) { $0.caFile = ca }.listItems(in: target).count == 1)

        let pin = try #require(proxy.values["PROXY_SPKI_SHA256"])
        #expect(
            try await client(auth) {
                $0.caFile = ca; $0.pinnedPublicKey = "sha256//\(pin)"
            }.listItems(in: target).count == 1)
        do {
            _ = try await client(auth) {
                $0.caFile = ca
                $0.pinnedPublicKey = "sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
            }.listItems(in: target)
            Issue.record("a wrong public-key pin was accepted")
        } catch let error as HTTPError {
            #expect(error.code == .tlsVerificationFailed, "\(error)")
        }
    }

    @Test func testRedirectFollowedForPropfindButNotWithCredentialsToAnotherHost() async throws {
        let (fixture, collection, item) = try await radicaleWithEvent()
        let home = HrefResolver.href(of: fixture.server.home).path
        let auth = HTTPAuthentication.basic(username: fixture.server.username, password: fixture.server.password)
        let moved = try TestProxies.redirect(upstream: fixture.server.url, fromPrefix: "/old/", to: home, status: 308)
        defer { moved.stop() }
        let oldURL = moved.proxied(collection).absoluteString.replacingOccurrences(of: home, with: "/old/")
        let items = try await client(auth).listItems(in: URL(string: oldURL)!)
        #expect(items.count == 1)
        #expect(items.first?.href.path.hasSuffix(item.lastPathComponent) == true)
        #expect(moved.logEntries().contains { $0["action"] as? String == "redirect" })

        // The same proxy under another host name: credentials must not follow.
        let port = try #require(moved.url.port)
        let elsewhere = try TestProxies.redirect(
            upstream: fixture.server.url, fromPrefix: "/old/",
            to: "http://localhost:\(port)\(home)", status: 307)
        defer { elsewhere.stop() }
        let crossURL = elsewhere.proxied(collection).absoluteString.replacingOccurrences(of: home, with: "/old/")
        do {
            _ = try await client(auth).listItems(in: URL(string: crossURL)!)
            Issue.record("credentials were sent to another host")
        } catch let error as HTTPError {
            #expect(error.code == .authenticationFailed, "\(error)")
        }
        let followed = moved.logEntries().filter { ($0["path"] as? String)?.hasPrefix(home) == true }
        #expect(!followed.isEmpty)
        #expect(
            followed.last?["authorization"] is NSNull || followed.last?["authorization"] == nil,
            "the redirected request carried credentials: \(String(describing: followed.last))")
    }

    @Test func testFaultsRecoveredByRetries() async throws {
        let (fixture, collection, _) = try await radicaleWithEvent()
        let auth = HTTPAuthentication.basic(username: fixture.server.username, password: fixture.server.password)
        let proxy = try TestProxies.fault(
            upstream: fixture.server.url, script: "503,429,reset,502,truncate,ok", retryAfter: 1)
        defer { proxy.stop() }
        let started = Date()
        let items = try await client(auth) { $0.maxRetries = 6 }.listItems(in: proxy.proxied(collection))
        #expect(items.count == 1)
        let actions = proxy.logEntries().compactMap { $0["action"] as? String }
        #expect(Array(actions.prefix(6)) == ["503", "429", "reset", "502", "truncate", "ok"], "\(actions)")
        // Retry-After: 1 on the 503 and the 429 was honoured.
        #expect(Date().timeIntervalSince(started) >= 2)

        // A write without a condition is not retried.
        let once = try TestProxies.fault(upstream: fixture.server.url, script: "503")
        defer { once.stop() }
        do {
            try await client(auth).makeCalendar(once.proxied(fixture.server.newCollectionURL(prefix: "noretry")))
            Issue.record("a 503 on MKCALENDAR did not fail")
        } catch let error as HTTPError {
            #expect(error.status == 503)
        }
        #expect(once.logEntries().count == 1)
    }
}
