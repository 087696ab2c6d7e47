import Foundation
import Testing
import CalgwTestSupport
@testable import calgw

/// How the config names a subscription, and `calgw init` / `calgw discover` on a feed.
extension ConfigFileTests {
    @Test func webcalAndIcsRemotesAreSubscriptions() throws {
        let config = try parse(
            """
            [pair.holidays]
            local = "~/calendars/holidays"
            remote = "webcal://example.org/holidays.ics"

            [pair.secure]
            local = "/v/s"
            remote = "webcals://example.org/feed"
            max_line_length = 100000

            [pair.ics]
            local = "/v/i"
            remote = "https://example.org/cal/basic.ICS"

            [pair.flagged]
            local = "/v/f"
            remote = "https://example.org/export?format=ical"
            subscription = true

            [pair.dav]
            local = "/v/d"
            remote = "https://dav.example.com/calendars/alice/personal/"

            [pair.notafeed]
            local = "/v/n"
            remote = "https://dav.example.com/calendars/alice/odd.ics"
            subscription = false
            """)
        func pair(_ name: String) throws -> PairConfiguration { try #require(config.pairs.first { $0.name == name }) }
        #expect(
            try pair("holidays").subscription
                && pair("holidays").remote.absoluteString == "http://example.org/holidays.ics")
        #expect(try pair("secure").subscription && pair("secure").remote.absoluteString == "https://example.org/feed")
        #expect(try pair("secure").maxLineLength == 100000)
        #expect(try pair("ics").subscription)
        #expect(try pair("flagged").subscription)
        #expect(try !pair("dav").subscription)
        #expect(try !pair("notafeed").subscription)
        if case .subscription(let url, _) = try pair("holidays").pair.remote {
            #expect(url.scheme == "http")
        } else {
            Issue.record("a webcal remote makes a subscription endpoint")
        }
        if case .server = try pair("notafeed").pair.remote {} else { Issue.record("subscription = false keeps CalDAV") }
    }

    @Test(arguments: [
        (
            "[pair.p]\nlocal = \"/v\"\nremote = \"webcal://x/a.ics\"\nsubscription = false",
            "a webcal:// remote is always a subscription"
        ),
        (
            "[pair.p]\nlocal = \"/v\"\nremote = \"https://x/a.ics\"\nsubscription = \"yes\"",
            "pair.p.subscription must be true or false"
        ),
        (
            "[pair.p]\nlocal = \"/v\"\nremote = \"https://x/cal/\"\nmax_line_length = 10",
            "applies to a subscription only"
        ),
        ("[pair.p]\nlocal = \"/v\"\nremote = \"webcal://x/a.ics\"\nmax_line_length = 0", "positive number"),
        (
            "[pair.p]\nlocal = \"/v\"\nremote = \"webcal://x/a.ics\"\ncollections = \"all\"",
            "does not apply to a subscription"
        ),
        ("[pair.p]\nlocal = \"https://dav/x/\"\nremote = \"webcal://x/a.ics\"", "does not apply to a subscription"),
    ])
    func refusesSubscriptionMistakes(_ text: String, _ expected: String) {
        let error = #expect(throws: ConfigError.self) { try parse(text) }
        #expect(error?.message.contains(expected) == true, "\(String(describing: error))")
    }

    @Test func initWritesAWorkingSubscriptionAndDiscoverSaysItIsAFeed() async throws {
        let f = try SubscriptionFixture()
        defer { f.remove() }
        try f.publish(SubscriptionFixture.feed([("a", "A"), ("b", "B")]))
        try f.publish(SubscriptionFixture.feed([("c", "C")]), as: "export")
        let port = f.server.url.port!
        let state = ["XDG_STATE_HOME": f.folder.appendingPathComponent("state").path]

        var r = try await CalgwBinary.run([
            "init", "--config", f.config.path, "--pair", "holidays", "--local", f.vdir.path,
            "--remote", "webcal://127.0.0.1:\(port)/feed.ics",
        ])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(
            r.stdoutText.contains("read-only subscription") && r.stdoutText.contains("calgw pull --pair holidays"),
            "\(r.stdoutText)")
        r = try await CalgwBinary.run(["sync", "--config", f.config.path, "--json"], environment: state)
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(SubscriptionFixture.count(try SubscriptionFixture.json(r), "created", "local") == 2, "\(r.stdoutText)")

        // A feed whose URL does not say so: --subscription writes subscription = true.
        let other = f.folder.appendingPathComponent("other")
        r = try await CalgwBinary.run([
            "init", "--config", f.config.path, "--pair", "export", "--local", other.path,
            "--remote", "http://127.0.0.1:\(port)/export", "--subscription",
        ])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(try String(contentsOf: f.config, encoding: .utf8).contains("subscription = true"))
        r = try await CalgwBinary.run(["pull", "--config", f.config.path, "--pair", "export"], environment: state)
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: other.path).contains("c.ics"))

        r = try await CalgwBinary.run(["discover", "webcal://127.0.0.1:\(port)/feed.ics"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(
            r.stdoutText.contains("is an iCalendar feed") && r.stdoutText.contains("2 items (VEVENT)"),
            "\(r.stdoutText)")
        #expect(r.stdoutText.contains("calgw init --local DIR --remote webcal://"), "\(r.stdoutText)")
        r = try await CalgwBinary.run(["discover", "http://127.0.0.1:\(port)/export", "--json"])
        #expect(r.status == 0, "\(r.stderrText)")
        let rows = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [[String: Any]], "\(r.stdoutText)")
        #expect(rows.first?["subscription"] as? Bool == true && rows.first?["items"] as? Int == 1, "\(r.stdoutText)")
        r = try await CalgwBinary.run(["discover", "http://127.0.0.1:\(port)/missing.ics"])
        #expect(r.status == 1 && r.stderrText.contains("HTTP 404"), "\(r.status) \(r.stderrText)")
    }
}
