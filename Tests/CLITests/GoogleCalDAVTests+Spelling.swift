import Foundation
import Testing
import CalgwTestSupport

/// `@` written `%40` in some of Google's answers and `@` in others, for the same calendar and
/// item (DAVx5 #2817; vdirsyncer #745): one href either way.
extension GoogleCalDAVTests {
    /// Through a server that writes `%40` in PROPFIND answers and calendar-queries, `@` in a
    /// multiget's and both by turns in a sync-collection's, while the pair names the account
    /// with `@`: items made, changed and deleted on each side arrive once, nothing is deleted
    /// that was not, no listed item is taken for unreadable, and each next run changes nothing.
    @Test(arguments: ["account", "calendar"]) func atAndPercent40AreOneHref(_ remote: String) async throws {
        let g = try await GoogleAccount(atSpelling: "mixed")
        defer { g.remove() }
        let config = g.account.folder.file("google.toml"), local = g.account.local
        let address = GoogleAccount.address
        // The calendar's folder: the account's, or the single calendar's vdir.
        let folder = remote == "account" ? local.appendingPathComponent(address) : local
        for name in ["g1@google.com", "g2@google.com", "g3@google.com"] {
            try await g.account.put(
                TestEvent.ics(uid: name, summary: "Theirs \(name)", end: "20260310T110000Z"), name: name,
                in: g.primary)
        }
        try await g.account.put(
            TestEvent.ics(uid: "t1@google.com", summary: "Team", end: "20260311T110000Z"), name: "t1@google.com",
            in: g.second)
        if remote == "account" {
            let r = try await g.initPair(config, local: local)
            #expect(r.status == 0, "\(Self.said(r))")
        } else {
            try FileManager.default.createDirectory(at: local, withIntermediateDirectories: true)
            try TestPairConfig(
                name: "google", local: local, collection: g.url(TestProxies.GoogleShape.calendarPath(address)),
                journal: g.account.folder.file("google.sqlite"), server: g.account.server
            ).write(to: config)
        }

        /// One run: it succeeds and says nothing of unreadable or missing items.
        func sync(_ step: String) async throws -> ProcessRunner.Result {
            let r = try await g.sync(config)
            #expect(r.status == 0, "\(step): \(Self.said(r))")
            #expect(!Self.said(r).contains("could not be read"), "\(step): \(Self.said(r))")
            #expect(!Self.said(r).contains("missing"), "\(step): \(Self.said(r))")
            return r
        }
        /// A run after `step` that changes nothing.
        func settled(_ step: String) async throws {
            let r = try await sync(step + ", again")
            #expect(AccountFixture.allZero(r.stdoutText), "\(step): the next run changed something: \(r.stdoutText)")
        }
        func localSummary(_ name: String) -> String? {
            let text = try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            return text?.components(separatedBy: "\r\n").first { $0.hasPrefix("SUMMARY:") }.map {
                String($0.dropFirst(8))
            }
        }
        func files() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".ics") }
                .sorted()
        }

        // Made on each side.
        var r = try await sync("first")
        #expect(
            AccountFixture.number(r.stdoutText, ["created", "local"]) == (remote == "account" ? 4 : 3),
            "\(r.stdoutText)")
        try TestEvent.data(uid: "l1@example.com", summary: "Mine", end: "20260312T110000Z")
            .write(to: folder.appendingPathComponent("l1@example.com.ics"))
        try TestEvent.data(uid: "l2", summary: "Mine too", end: "20260312T110000Z")
            .write(to: folder.appendingPathComponent("l2.ics"))
        r = try await sync("created locally")
        #expect(AccountFixture.number(r.stdoutText, ["created", "remote"]) == 2, "\(r.stdoutText)")
        try await settled("created")
        let all = ["g1@google.com.ics", "g2@google.com.ics", "g3@google.com.ics", "l1@example.com.ics", "l2.ics"]
        #expect(files() == all)
        await #expect(try g.serverItems(g.primary) == all)
        if remote == "account" {
            // The kept mapping names the calendars with `%40`, as the listings write them.
            try Self.respellKeptCalendars(g.account.folder.file("state/calgw/google.d/collections.json"))
            try await settled("the kept calendars spelled with %40")
            #expect(g.account.subfolders() == [GoogleAccount.team, address], "a calendar taken in twice")
        }

        // Changed on each side.
        try await g.account.put(
            TestEvent.ics(uid: "g1@google.com", summary: "Theirs changed", end: "20260310T110000Z"),
            name: "g1@google.com", in: g.primary)
        try TestEvent.data(uid: "l1@example.com", summary: "Mine changed", end: "20260312T110000Z")
            .write(to: folder.appendingPathComponent("l1@example.com.ics"))
        try TestEvent.data(uid: "g2@google.com", summary: "Theirs changed here", end: "20260310T110000Z")
            .write(to: folder.appendingPathComponent("g2@google.com.ics"))
        r = try await sync("changed")
        #expect(AccountFixture.number(r.stdoutText, ["updated", "local"]) == 1, "\(r.stdoutText)")
        #expect(AccountFixture.number(r.stdoutText, ["updated", "remote"]) == 2, "\(r.stdoutText)")
        try await settled("changed")
        #expect(localSummary("g1@google.com.ics") == "Theirs changed")
        let l1 = try await g.serverSummary(g.primary, "l1@example.com.ics")
        #expect(l1 == "Mine changed", "\(String(describing: l1))")
        await #expect(try g.serverSummary(g.primary, "g2@google.com.ics") == "Theirs changed here")
        #expect(files() == all)

        // Deleted on each side.
        let deleted = try await g.account.curl([
            "-o", "/dev/null", "-w", "%{http_code}", "-X", "DELETE",
            g.primary.appendingPathComponent("g3@google.com.ics").absoluteString,
        ])
        #expect(["200", "204"].contains(deleted.stdoutText), "DELETE: \(deleted.stdoutText)")
        try FileManager.default.removeItem(at: folder.appendingPathComponent("l1@example.com.ics"))
        r = try await sync("deleted")
        #expect(AccountFixture.number(r.stdoutText, ["deleted", "local"]) == 1, "\(r.stdoutText)")
        #expect(AccountFixture.number(r.stdoutText, ["deleted", "remote"]) == 1, "\(r.stdoutText)")
        try await settled("deleted")
        let left = ["g1@google.com.ics", "g2@google.com.ics", "l2.ics"]
        #expect(files() == left)
        await #expect(try g.serverItems(g.primary) == left)
        if remote == "account" {
            #expect(g.account.subfolders() == [GoogleAccount.team, address], "a calendar taken in twice")
            #expect(g.account.files(GoogleAccount.team) == ["t1@google.com.ics"])
        }
        #expect(g.count("MKCALENDAR") == 0)
    }

    /// Rewrites `@` as `%40` in the calendars' hrefs of an account pair's `collections.json`.
    static func respellKeptCalendars(_ file: URL) throws {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let entries = try #require(object["entries"] as? [[String: Any]], "no entries: \(object)")
        #expect(entries.contains { ($0["href"] as? String)?.contains("@") == true }, "\(entries)")
        object["entries"] = entries.map { entry in
            var entry = entry
            entry["href"] = (entry["href"] as? String)?.replacingOccurrences(of: "@", with: "%40")
            return entry
        }
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: file)
    }
}
