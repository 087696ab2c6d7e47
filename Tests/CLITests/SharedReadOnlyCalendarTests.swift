import Foundation
import Testing
import CalgwTestSupport
import CalgwTestTraits

/// A calendar that another user of the server (bob) shares with the account, synced by its URL
/// under bob's calendar home. Shared read-only, it syncs one way, quietly, as a calendar the
/// server's rights make read-only (`ReadOnlyCalendarTests`, on Radicale): the first run that
/// finds a local change says once that the calendar is read-only, keeps the change in the vdir
/// and exits 0; later runs say nothing and send nothing; bob's events stay as he wrote them; a
/// local edit bob also changed is kept as a conflict copy beside his version. Shared with write
/// access, the same calendar syncs both ways.
///
/// The servers share as their own clients do: Cyrus by IMAP `SETACL` on the calendar's mailbox
/// (`user.bob.#calendars.NAME`, rights `lr`, or `lrswipkxtecdn` with write access), DAViCal by
/// the WebDAV `ACL` method (RFC 3744) granting DAV:read and DAV:read-current-user-privilege-set
/// (and DAV:write) to the account's principal.
@Suite(.timeLimit(.minutes(10))) struct SharedReadOnlyCalendarTests {
    /// The servers with a second user and a way to share, of those selected.
    static let sharing = TestServers.selected.filter { ["cyrus", "davical"].contains($0) }

    /// curl as bob.
    static func curl(_ bob: TestServer.Attendee, _ arguments: [String]) async throws -> ProcessRunner.Result {
        try await ProcessRunner.run(
            "curl", ["-s", "--max-time", "60", "-u", "\(bob.username):\(bob.password)"] + arguments)
    }

    /// Makes bob's calendar `name` holding `events` (uid, summary), as bob; returns its URL.
    static func bobsCalendar(_ bob: TestServer.Attendee, _ name: String, events: [(String, String)]) async throws -> URL
    {
        let calendar = bob.home.appendingPathComponent("\(name)/", isDirectory: true)
        let made = try await curl(
            bob, ["-o", "/dev/null", "-w", "%{http_code}", "-X", "MKCALENDAR", calendar.absoluteString])
        try #require(["200", "201"].contains(made.stdoutText), "MKCALENDAR as bob: \(made.stdoutText)")
        for (uid, summary) in events {
            try await put(
                bob, TestEvent.ics(uid: uid, summary: summary, start: "20270301T100000Z", end: "20270301T110000Z"),
                uid: uid, in: calendar)
        }
        return calendar
    }

    /// PUTs an event as bob into `calendar/<uid>.ics`.
    static func put(_ bob: TestServer.Attendee, _ ics: String, uid: String, in calendar: URL) async throws {
        let put = try await curl(
            bob,
            [
                "-o", "/dev/null", "-w", "%{http_code}", "-X", "PUT", "-H", "Content-Type: text/calendar",
                "--data-binary", ics,
                calendar.appendingPathComponent("\(uid).ics").absoluteString,
            ])
        try #require(["201", "204"].contains(put.stdoutText), "PUT \(uid) as bob: \(put.stdoutText)")
    }

    /// The event `uid` of bob's `calendar` as bob reads it.
    static func bobsEvent(_ bob: TestServer.Attendee, _ uid: String, in calendar: URL) async throws -> String {
        try await curl(bob, [calendar.appendingPathComponent("\(uid).ics").absoluteString]).stdoutText
    }

    /// The `.ics` names in bob's `calendar`, as bob lists it.
    static func bobsNames(_ bob: TestServer.Attendee, in calendar: URL) async throws -> [String] {
        let listing = try await curl(bob, ["-X", "PROPFIND", "-H", "Depth: 1", calendar.absoluteString]).stdoutText
        return listing.matches(of: /([^\/<>]+\.ics)<\//).map { String($0.1) }.sorted()
    }

    /// Shares bob's calendar `name` with `server`'s user: read-only, or with write access.
    /// - Parameter showsPrivileges: grant DAV:read-current-user-privilege-set too (DAViCal), so
    ///   the account can read what it may do there.
    static func share(
        _ server: TestServer, _ bob: TestServer.Attendee, calendar name: String, writable: Bool,
        showsPrivileges: Bool = true
    ) async throws {
        switch server.name {
        case "cyrus":
            let port = try String(contentsOf: server.stateFolder.appendingPathComponent("imap-port"), encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let rights = writable ? "lrswipkxtecdn" : "lr"
            let r = try await curl(
                bob,
                [
                    "imap://127.0.0.1:\(port)/", "-X",
                    "SETACL \"user.\(bob.username).#calendars.\(name)\" \(server.username) \(rights)",
                ])
            try #require(r.status == 0, "IMAP SETACL as bob: curl exit \(r.status): \(r.stderrText)")
        default:
            // php's built-in server refuses the ACL method; DAViCal takes it as a POST override.
            let privileges =
                ["read"] + (showsPrivileges ? ["read-current-user-privilege-set"] : []) + (writable ? ["write"] : [])
            let body =
                "<?xml version=\"1.0\" encoding=\"utf-8\"?><D:acl xmlns:D=\"DAV:\"><D:ace><D:principal><D:href>\(server.home.path)/</D:href>"
                + "</D:principal><D:grant>" + privileges.map { "<D:privilege><D:\($0)/></D:privilege>" }.joined()
                + "</D:grant></D:ace></D:acl>"
            let r = try await curl(
                bob,
                [
                    "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", "-H", "X-HTTP-Method-Override: ACL",
                    "-H", "Content-Type: application/xml", "--data", body,
                    bob.home.appendingPathComponent("\(name)/").absoluteString,
                ])
            try #require(r.stdoutText == "200", "ACL as bob: \(r.stdoutText)")
        }
    }

    /// The URL the account reaches bob's shared `calendar` at: Cyrus answers a request for it
    /// under bob's home with a redirect (301) to its name in the account's own home
    /// (`…/user/<account>/bob.<name>/`); DAViCal serves it where it is.
    static func sharedURL(_ server: TestServer, _ calendar: URL) async throws -> URL {
        let r = try await ProcessRunner.run(
            "curl",
            [
                "-s", "--max-time", "60", "-u", "\(server.username):\(server.password)", "-o", "/dev/null",
                "-w", "%{http_code} %{redirect_url}", "-X", "PROPFIND", "-H", "Depth: 0", calendar.absoluteString,
            ])
        let parts = r.stdoutText.split(separator: " ", maxSplits: 1).map(String.init)
        try #require(
            parts.first.map { ["207", "301", "302", "307", "308"].contains($0) } == true,
            "PROPFIND of the shared calendar: \(r.stdoutText)")
        guard parts.count == 2, !parts[1].isEmpty else { return calendar }
        return try #require(URL(string: parts[1]), "redirect to \(parts[1])")
    }

    @Test(
        .enabled(
            if: !sharing.isEmpty,
            "needs a server that schedules (cyrus, davical, sabre), which CALGW_TEST_SERVERS leaves out"),
        arguments: sharing)
    func aCalendarSharedReadOnlySyncsOneWayAndSaysSoOnce(server name: String) async throws {
        let server = try TestServers.shared(name)
        let bob = try #require(server.attendee, "the \(name) script printed no second user")
        let id = UUID().uuidString.prefix(8).lowercased()
        let calendarName = "ro-\(id)"
        let calendar = try await Self.bobsCalendar(
            bob, calendarName, events: [("ro0-\(id)", "shared 0"), ("ro1-\(id)", "shared 1")])
        try await Self.share(server, bob, calendar: calendarName, writable: false)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pair = try ServerPair(folder, "ro", server: server, collection: try await Self.sharedURL(server, calendar))

        try await ReadOnlyCalendarTests.checkOneWay(
            pair, password: server.password, id: id, label: name,
            serverUnchanged: { () async throws in
                let names = try await Self.bobsNames(bob, in: calendar),
                    event = try await Self.bobsEvent(bob, "ro0-\(id)", in: calendar)
                #expect(names == ["ro0-\(id).ics", "ro1-\(id).ics"], "\(name): bob's calendar got a write")
                #expect(event.contains("SUMMARY:shared 0"), "\(name): bob's event changed")
            },
            ownerChanges: {
                try await Self.put(
                    bob,
                    TestEvent.ics(
                        uid: "ro0-\(id)", summary: "changed by the owner", start: "20270301T100000Z",
                        end: "20270301T110000Z"),
                    uid: "ro0-\(id)", in: calendar)
            })
        #expect(
            try await Self.bobsNames(bob, in: calendar) == ["ro0-\(id).ics", "ro1-\(id).ics"],
            "\(name): bob's calendar got a write")
    }

    @Test(
        .enabled(
            if: !sharing.isEmpty,
            "needs a server that schedules (cyrus, davical, sabre), which CALGW_TEST_SERVERS leaves out"),
        arguments: sharing)
    func aCalendarSharedWithWriteAccessSyncsBothWays(server name: String) async throws {
        let server = try TestServers.shared(name)
        let bob = try #require(server.attendee, "the \(name) script printed no second user")
        let id = UUID().uuidString.prefix(8).lowercased()
        let calendarName = "rw-\(id)"
        let calendar = try await Self.bobsCalendar(bob, calendarName, events: [("rw0-\(id)", "shared 0")])
        try await Self.share(server, bob, calendar: calendarName, writable: true)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pair = try ServerPair(folder, "rw", server: server, collection: try await Self.sharedURL(server, calendar))

        let first = try await pair.run("sync", password: server.password)
        #expect(
            first.status == 0 && first.stdoutText.contains("local: 1 created"),
            "\(name): \(first.stdoutText)\(first.stderrText)")
        try Data(
            TestEvent.ics(uid: "rw0-\(id)", summary: "edited here", start: "20270301T100000Z", end: "20270301T110000Z")
                .utf8
        )
        .write(to: try pair.file(uid: "rw0-\(id)"))
        let pushed = try await pair.run("sync", password: server.password)
        #expect(
            pushed.status == 0 && pushed.stdoutText.contains("remote: 0 created, 1 updated, 0 deleted")
                && !pushed.stdoutText.contains("read-only"), "\(name): \(pushed.stdoutText)\(pushed.stderrText)")
        #expect(
            try await Self.bobsEvent(bob, "rw0-\(id)", in: calendar).contains("SUMMARY:edited here"),
            "\(name): the edit did not reach bob")
    }

    /// Cyrus redirects a request for bob's shared calendar under bob's home to the account's
    /// name for it. A pair configured with the URL under bob's home lists through the redirect;
    /// its later fetches and writes must use the calendar's new location too, so that a local
    /// edit goes up and bob's next change comes down.
    @Test(.needsServer("cyrus")) func aSharedCalendarConfiguredByTheOwnersURLFollowsTheRedirect() async throws {
        let server = try TestServers.shared("cyrus")
        let bob = try #require(server.attendee, "the cyrus script printed no second user")
        let id = UUID().uuidString.prefix(8).lowercased()
        let calendar = try await Self.bobsCalendar(bob, "moved-\(id)", events: [("mv0-\(id)", "shared 0")])
        try await Self.share(server, bob, calendar: "moved-\(id)", writable: true)
        #expect(
            try await Self.sharedURL(server, calendar) != calendar, "cyrus no longer redirects: this test shows nothing"
        )
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pair = try ServerPair(folder, "mv", server: server, collection: calendar)

        let first = try await pair.run("sync", password: server.password)
        #expect(
            first.status == 0 && first.stdoutText.contains("local: 1 created"), "\(first.stdoutText)\(first.stderrText)"
        )
        try Data(
            TestEvent.ics(uid: "mv0-\(id)", summary: "edited here", start: "20270301T100000Z", end: "20270301T110000Z")
                .utf8
        )
        .write(to: try pair.file(uid: "mv0-\(id)"))
        let pushed = try await pair.run("sync", password: server.password)
        #expect(
            pushed.status == 0 && pushed.stdoutText.contains("remote: 0 created, 1 updated"),
            "\(pushed.stdoutText)\(pushed.stderrText)")
        #expect(
            try await Self.bobsEvent(bob, "mv0-\(id)", in: calendar).contains("SUMMARY:edited here"),
            "the edit did not reach bob")
        try await Self.put(
            bob,
            TestEvent.ics(
                uid: "mv1-\(id)", summary: "added by the owner", start: "20270301T100000Z", end: "20270301T110000Z"),
            uid: "mv1-\(id)", in: calendar)
        let pulled = try await pair.run("sync", password: server.password)
        #expect(
            pulled.status == 0 && pulled.stdoutText.contains("local: 1 created"),
            "\(pulled.stdoutText)\(pulled.stderrText)")
        // A new local event is made in the calendar's new location, where bob finds it.
        try Data(
            TestEvent.ics(uid: "mv2-\(id)", summary: "made here", start: "20270301T100000Z", end: "20270301T110000Z")
                .utf8
        )
        .write(to: pair.vdir.appendingPathComponent("mv2-\(id).ics"))
        let created = try await pair.run("sync", password: server.password)
        #expect(
            created.status == 0 && created.stdoutText.contains("remote: 1 created"),
            "\(created.stdoutText)\(created.stderrText)")
        #expect(try await Self.bobsNames(bob, in: calendar).contains("mv2-\(id).ics"), "bob does not see the new event")
        let quiet = try await pair.run("sync", ["--json"], password: server.password)
        #expect(quiet.status == 0 && JSONCounts.writes(in: quiet.stdoutText) == 0, "\(quiet.stdoutText)")
    }

    /// DAViCal withholds `current-user-privilege-set` from an account granted only DAV:read, so
    /// the listing cannot tell the calendar is read-only. The first write it refuses ("No write
    /// permission") is an error of that run, with a hint; from then on the calendar is synced
    /// one way, as one whose listing says so: the next run says it once and exits 0, later ones
    /// say nothing, and bob's calendar gets nothing.
    @Test(.enabled(if: sharing.contains("davical"), "needs davical, which CALGW_TEST_SERVERS leaves out"))
    func aCalendarWhosePrivilegesAreWithheldIsReadOnlyOnceAWriteIsRefused() async throws {
        let server = try TestServers.shared("davical")
        let bob = try #require(server.attendee, "the davical script printed no second user")
        let id = UUID().uuidString.prefix(8).lowercased()
        let calendar = try await Self.bobsCalendar(bob, "hidden-\(id)", events: [("h0-\(id)", "shared 0")])
        try await Self.share(server, bob, calendar: "hidden-\(id)", writable: false, showsPrivileges: false)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pair = try ServerPair(folder, "hidden", server: server, collection: calendar)
        let first = try await pair.run("sync", password: server.password)
        #expect(
            first.status == 0 && first.stdoutText.contains("local: 1 created"), "\(first.stdoutText)\(first.stderrText)"
        )

        try Data(
            TestEvent.ics(uid: "h0-\(id)", summary: "edited here", start: "20270301T100000Z", end: "20270301T110000Z")
                .utf8
        )
        .write(to: try pair.file(uid: "h0-\(id)"))
        let refused = try await pair.run("sync", password: server.password)
        #expect(
            refused.status == 1 && refused.stderrText.contains("may not write to this calendar"),
            "\(refused.stdoutText)\(refused.stderrText)")
        let kept = try await pair.run("sync", password: server.password)
        #expect(
            kept.status == 0 && kept.stdoutText.contains("the calendar is read-only for this account")
                && kept.stderrText.isEmpty,
            "\(kept.stdoutText)\(kept.stderrText)")
        let quiet = try await pair.run("sync", password: server.password)
        #expect(
            quiet.status == 0 && !quiet.stdoutText.contains("read-only") && quiet.stderrText.isEmpty,
            "\(quiet.stdoutText)\(quiet.stderrText)")
        #expect(
            try await Self.bobsEvent(bob, "h0-\(id)", in: calendar).contains("SUMMARY:shared 0"), "bob's event changed")
        #expect(try pair.summaries()["h0-\(id)"] == "edited here")
    }
}
