import Foundation
import Testing
import CalgwTestSupport

/// A whole Google account over Google's URL shape (`/caldav/v2/<calendar id>/events/`, the
/// principal `/caldav/v2/<address>/user`): discovered, taken in with `collections = "all"`, and
/// synced, with no calendar made for a folder made only in the vdir.
extension GoogleCalDAVTests {
    /// Two calendars of one account on the server behind Google's URL shape: the primary one,
    /// named by the account's address, and a second one, `abc123@group.calendar.google.com`,
    /// whose collection lies outside the calendar home's path.
    struct GoogleAccount {
        static let address = "alice@example.com"
        static let team = "abc123@group.calendar.google.com"
        let account: AccountFixture
        let proxy: TestProxy
        let primary: URL
        let second: URL

        init(atSpelling: String = "encoded") async throws {
            let server = try TestServers.shared("radicale")
            account = try AccountFixture(server: server)
            primary = try await account.makeCalendar("gprimary-\(account.id)", displayName: Self.address)
            second = try await account.makeCalendar("gteam-\(account.id)", displayName: "Team")
            var shape = TestProxies.GoogleShape(
                account: Self.address, upstreamHome: server.home.path,
                calendars: [(Self.address, primary.path + "/"), (Self.team, second.path + "/")])
            shape.atSpelling = atSpelling
            var behaviours = TestProxies.GoogleBehaviours()
            behaviours.noMkcalendar = true
            behaviours.ifNoneMatch = "refuse"
            behaviours.noPutETag = true
            behaviours.shape = shape
            proxy = try TestProxies.google(upstream: server.url, behaviours)
        }

        func remove() {
            proxy.stop()
            account.remove()
        }

        /// A path on the proxy as a URL, the path written as given (`@` stays `@`).
        func url(_ path: String) -> URL {
            URL(string: String(proxy.url.absoluteString.dropLast()) + path)!
        }

        /// The principal's URL, `/caldav/v2/alice@example.com/user`, as a person would paste it.
        var principal: URL { url("/caldav/v2/\(Self.address)/user") }

        var environment: [String: String] {
            ["CALGW_TEST_PASSWORD": account.server.password, "XDG_STATE_HOME": account.folder.file("state").path]
        }

        /// `calgw init --all-collections` of the pair `google` on the principal, into `local`.
        func initPair(_ config: URL, local: URL) async throws -> ProcessRunner.Result {
            try await CalgwBinary.run(
                [
                    "init", "--all-collections", "--pair", "google", "--remote", principal.absoluteString,
                    "--local", local.path, "--username", account.server.username,
                    "--password-env", "CALGW_TEST_PASSWORD", "--config", config.path,
                ], environment: environment)
        }

        func sync(_ config: URL) async throws -> ProcessRunner.Result {
            try await CalgwBinary.run(["sync", "--json", "--config", config.path], environment: environment)
        }

        /// The `.ics` names the server holds in `calendar`, read straight from it.
        func serverItems(_ calendar: URL) async throws -> [String] {
            let listing = try await account.curl(["-X", "PROPFIND", "-H", "Depth: 1", calendar.absoluteString + "/"])
            return listing.stdoutText.components(separatedBy: "<").compactMap { part -> String? in
                guard part.hasPrefix("href>") || part.contains(":href>") else { return nil }
                let href = String(part.split(separator: ">", maxSplits: 1).last ?? "")
                guard href.hasSuffix(".ics") else { return nil }
                let name = href.split(separator: "/").last.map(String.init) ?? ""
                return name.removingPercentEncoding ?? name
            }.sorted()
        }

        /// The SUMMARY of the server's item `name` in `calendar`.
        func serverSummary(_ calendar: URL, _ name: String) async throws -> String? {
            let got = try await account.curl([calendar.appendingPathComponent(name).absoluteString])
            return got.stdoutText.split(whereSeparator: \.isNewline).first { $0.hasPrefix("SUMMARY:") }
                .map { String($0.dropFirst("SUMMARY:".count)) }
        }

        /// The requests of `method` the proxy was sent.
        func count(_ method: String) -> Int {
            proxy.logEntries().filter { ($0["method"] as? String) == method }.count
        }
    }

    /// `calgw discover` on the principal lists both calendars with their names; `calgw init
    /// --all-collections` takes them in, each into a folder named by its calendar id; the
    /// first sync copies every calendar, the second changes nothing with one request (the home
    /// was kept); a folder made only in the vdir is not made a calendar (no MKCALENDAR is
    /// sent) and stays with a note.
    @Test func anAccountOverGooglesURLShapeIsDiscoveredAndSyncedWhole() async throws {
        let g = try await GoogleAccount()
        defer { g.remove() }
        try await g.account.put(
            TestEvent.ics(uid: "p1", summary: "Primary one", end: "20260310T110000Z"), name: "p1", in: g.primary)
        try await g.account.put(
            TestEvent.ics(uid: "g1@google.com", summary: "Google's own", end: "20260311T110000Z"),
            name: "g1@google.com", in: g.primary)
        try await g.account.put(
            TestEvent.ics(uid: "t1", summary: "Team one", end: "20260312T110000Z"), name: "t1", in: g.second)

        let discovered = try await CalgwBinary.run(
            [
                "discover", g.principal.absoluteString, "--username", g.account.server.username,
                "--password-env", "CALGW_TEST_PASSWORD",
            ], environment: g.environment)
        #expect(discovered.status == 0, "\(Self.said(discovered))")
        let rows = discovered.stdoutText.split(separator: "\n").filter { $0.contains("/events/") }
        #expect(rows.count == 2, "not the two calendars: \(discovered.stdoutText)")
        #expect(
            rows.contains { $0.contains("/caldav/v2/\(GoogleAccount.address)/events/") && $0.contains("VEVENT") }
                || rows.contains { $0.contains(GoogleAccount.address) },
            "\(discovered.stdoutText)")
        #expect(
            rows.contains { $0.contains("/caldav/v2/\(GoogleAccount.team)/events/") && $0.contains("Team") },
            "the calendar outside the home is missing: \(discovered.stdoutText)")

        let config = g.account.folder.file("google.toml"), local = g.account.local
        var r = try await g.initPair(config, local: local)
        #expect(r.status == 0, "\(Self.said(r))")
        #expect(r.stdoutText.contains("Team"), "\(r.stdoutText)")
        r = try await g.sync(config)
        #expect(r.status == 0, "\(Self.said(r))")
        #expect(g.account.subfolders() == [GoogleAccount.team, GoogleAccount.address])
        #expect(g.account.files(GoogleAccount.address) == ["g1@google.com.ics", "p1.ics"])
        #expect(g.account.files(GoogleAccount.team) == ["t1.ics"])

        let before = g.proxy.logEntries().count
        r = try await g.sync(config)
        #expect(r.status == 0, "\(Self.said(r))")
        #expect(AccountFixture.allZero(r.stdoutText), "a second run changed something: \(r.stdoutText)")
        // The home was kept: one PROPFIND of it, no discovery again.
        #expect(g.proxy.logEntries().count - before == 1, "\(g.proxy.logEntries().suffix(4))")

        // A folder made only in the vdir: Google makes no calendars over CalDAV.
        let holidays = local.appendingPathComponent("holidays")
        try FileManager.default.createDirectory(at: holidays, withIntermediateDirectories: true)
        try TestEvent.data(uid: "h1", summary: "Holiday", end: "20260313T110000Z")
            .write(to: holidays.appendingPathComponent("h1.ics"))
        try TestEvent.data(uid: "l1", summary: "Mine", end: "20260314T110000Z")
            .write(to: local.appendingPathComponent(GoogleAccount.address).appendingPathComponent("l1.ics"))
        r = try await g.sync(config)
        #expect(r.status == 0, "\(Self.said(r))")
        #expect(Self.said(r).contains("holidays/ stays in the vdir"), "\(Self.said(r))")
        #expect(Self.said(r).contains("Google Calendar"), "\(Self.said(r))")
        #expect(g.count("MKCALENDAR") == 0 && g.count("MKCOL") == 0, "a calendar was asked for")
        #expect(try await g.serverItems(g.primary) == ["g1@google.com.ics", "l1.ics", "p1.ics"])
        #expect(try await g.serverItems(g.second) == ["t1.ics"])
        #expect(g.account.files("holidays") == ["h1.ics"])
        r = try await g.sync(config)
        #expect(r.status == 0 && AccountFixture.allZero(r.stdoutText), "\(Self.said(r))")
        #expect(g.count("MKCALENDAR") == 0)
        #expect(g.account.subfolders() == [GoogleAccount.team, GoogleAccount.address, "holidays"])
    }
}
