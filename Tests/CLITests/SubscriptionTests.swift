import Foundation
import Testing
import CalgwTestSupport

/// Subscription pairs end to end: the built binary pulling feeds from the feed server
/// (`Scripts/proxies/feed_server.py`) into a vdir.
@Suite(.timeLimit(.minutes(10))) struct SubscriptionTests {
    typealias F = SubscriptionFixture

    static let series =
        "BEGIN:VEVENT\r\nUID:series\r\nDTSTAMP:20260101T000000Z\r\nDTSTART;TZID=Europe/Berlin:20260302T090000\r\n"
        + "DURATION:PT15M\r\nRRULE:FREQ=WEEKLY;COUNT=4\r\nSUMMARY:Standup\r\nEND:VEVENT\r\n"
        + "BEGIN:VTODO\r\nUID:task\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:Taxes\r\nEND:VTODO\r\n"
        + "BEGIN:VEVENT\r\nUID:series\r\nDTSTAMP:20260101T000000Z\r\nRECURRENCE-ID;TZID=Europe/Berlin:20260309T090000\r\n"
        + "DTSTART;TZID=Europe/Berlin:20260309T110000\r\nDURATION:PT15M\r\nSUMMARY:Standup moved\r\nEND:VEVENT\r\n"

    static func feedWithSeries() -> String {
        F.feed([("a", "A"), ("b", "B")]).replacingOccurrences(of: "BEGIN:VTIMEZONE", with: series + "BEGIN:VTIMEZONE")
    }

    @Test func aFirstPullSplitsTheFeedAndAnUnchangedFeedCostsOne304() async throws {
        let f = try F()
        defer { f.remove() }
        try f.publish(Self.feedWithSeries())
        try f.configure()

        var r = try await f.calgw(["pull", "--json"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(F.count(try F.json(r), "created", "local") == 4, "\(r.stdoutText)")
        let files = try f.files()
        #expect(Set(files.keys) == ["a.ics", "b.ics", "series.ics", "task.ics"])
        let series = try #require(files["series.ics"])
        #expect(
            series.contains("SUMMARY:Standup\r\n")
                && series.contains("RECURRENCE-ID;TZID=Europe/Berlin:20260309T090000"),
            "the override stays with its series: \(series)")
        #expect(
            series.contains("BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin"),
            "the feed's VTIMEZONE goes with the event using it")
        #expect(files["a.ics"]?.contains("BEGIN:VTIMEZONE") == true)
        #expect(files["task.ics"]?.contains("BEGIN:VTODO") == true && files["task.ics"]?.contains("VTIMEZONE") == false)
        #expect(f.requests().count == 1)

        let before = try f.stamps()
        for command in ["pull", "sync"] {
            r = try await f.calgw([command, "--json"])
            #expect(r.status == 0, "\(command): \(r.stderrText)")
            let json = try F.json(r)
            for kind in ["created", "updated", "deleted"] {
                #expect(F.count(json, kind, "local") == 0, "\(command): \(r.stdoutText)")
            }
            let last = try #require(f.requests().last)
            #expect(last["status"] as? Int == 304 && last["ifNoneMatch"] is String, "\(command): \(last)")
        }
        #expect(f.requests().count == 3, "one request per run")
        #expect(try f.stamps() == before, "nothing written")

        r = try await f.calgw(["status", "--json"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(try F.json(r)["synced"] as? Int == 4, "\(r.stdoutText)")
        #expect(f.requests().count == 4 && f.requests().last?["status"] as? Int == 304)

        r = try await f.calgw(["list", "--json", "--from", "2026-03-01", "--to", "2026-03-31"])
        #expect(r.status == 0, "\(r.stderrText)")
        let summaries = ((try JSONSerialization.jsonObject(with: r.stdout)) as? [[String: Any]] ?? []).compactMap {
            $0["summary"] as? String
        }
        #expect(
            summaries.filter { $0.hasPrefix("Standup") }.count == 4 && summaries.contains("Standup moved")
                && summaries.contains("A"), "\(summaries)")

        r = try await f.calgw(["push"])
        #expect(r.status == 2 && r.stderrText.contains("nothing to push"), "\(r.status) \(r.stderrText)")
        #expect(f.requests().count == 4, "push asks the feed nothing")
    }

    @Test func aChangedFeedUpdatesCreatesAndDeletes() async throws {
        let f = try F()
        defer { f.remove() }
        try f.publish(F.feed([("a", "A"), ("b", "B"), ("c", "C")]))
        try f.configure(scheme: "http")
        #expect(try await f.calgw(["pull"]).status == 0)
        try f.publish(F.feed([("a", "A changed"), ("c", "C"), ("d", "D")]))
        let r = try await f.calgw(["pull", "--json"])
        #expect(r.status == 0, "\(r.stderrText)")
        let json = try F.json(r)
        #expect(
            [F.count(json, "created", "local"), F.count(json, "updated", "local"), F.count(json, "deleted", "local")]
                == [1, 1, 1], "\(r.stdoutText)")
        let files = try f.files()
        #expect(Set(files.keys) == ["a.ics", "c.ics", "d.ics"])
        #expect(files["a.ics"]?.contains("SUMMARY:A changed") == true)
    }

    @Test func aFeedWithoutUIDsKeepsItsFilesAcrossDownloads() async throws {
        let f = try F(validators: false)
        defer { f.remove() }
        func feed(_ stamp: String, _ summaries: [String]) -> String {
            F.feed(summaries.map { ("", $0) }, stamp: stamp).replacingOccurrences(of: "UID:\r\n", with: "")
        }
        try f.publish(feed("20260101T000000Z", ["Easter", "Christmas", "New Year"]))
        try f.configure()
        var r = try await f.calgw(["pull", "--json"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(F.count(try F.json(r), "created", "local") == 3, "\(r.stdoutText)")
        let first = try f.files(), stamps = try f.stamps()
        #expect(first.values.allSatisfy { $0.contains("UID:calgw-") }, "each event is given a UID derived from it")

        // Downloaded again, restamped by the publisher: the same files, none written.
        try f.publish(feed("20260505T050505Z", ["Easter", "Christmas", "New Year"]))
        r = try await f.calgw(["pull", "--json"])
        #expect(r.status == 0, "\(r.stderrText)")
        let json = try F.json(r)
        for kind in ["created", "updated", "deleted"] { #expect(F.count(json, kind, "local") == 0, "\(r.stdoutText)") }
        #expect(try f.files() == first)
        #expect(try f.stamps() == stamps)
        #expect(
            f.requests().allSatisfy { $0["status"] as? Int == 200 && $0["ifNoneMatch"] is NSNull },
            "a server without validators: \(f.requests())")

        try f.publish(feed("20260505T050505Z", ["Easter", "New Year"]))
        r = try await f.calgw(["pull", "--json"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(F.count(try F.json(r), "deleted", "local") == 1, "\(r.stdoutText)")
        #expect(try f.files().values.filter { $0.contains("Christmas") }.isEmpty)
    }

    @Test func aLocalEditIsKeptAsAConflictCopy() async throws {
        let f = try F()
        defer { f.remove() }
        try f.publish(F.feed([("a", "A"), ("b", "B")]))
        try f.configure()
        #expect(try await f.calgw(["pull"]).status == 0)
        let a = f.vdir.appendingPathComponent("a.ics")
        try Data(
            try String(contentsOf: a, encoding: .utf8).replacingOccurrences(of: "SUMMARY:A", with: "SUMMARY:A mine")
                .utf8
        ).write(to: a)

        // The feed did not change: the edit stays, reported as a local change a pull does not send.
        var r = try await f.calgw(["pull", "--json"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(F.count(try F.json(r), "pending", "remote") == 1, "\(r.stdoutText)")
        #expect(try f.files()["a.ics"]?.contains("SUMMARY:A mine") == true)
        r = try await f.calgw(["status"])
        #expect(
            r.status == 0 && r.stdoutText.contains("kept locally: 1 local change the read-only feed does not take"),
            "\(r.stdoutText)")
        r = try await f.calgw(["status", "--json"])
        #expect(try F.json(r)["keptLocally"] as? Int == 1, "\(r.stdoutText)")

        // The feed changed the same event: the edit is kept as a copy, the feed's version taken.
        try f.publish(F.feed([("a", "A v2"), ("b", "B")]))
        r = try await f.calgw(["status", "--json"])
        #expect(
            try F.json(r)["conflicts"].map { "\($0)" }?.contains("kept-as-copy") == true,
            "status says what pull will do: \(r.stdoutText)")
        r = try await f.calgw(["pull", "--json"])
        #expect(r.status == 0, "\(r.stderrText)")
        let conflicts = try F.json(r)["conflicts"] as? [[String: String]]
        #expect(conflicts == [["uid": "a", "resolution": "kept-as-copy"]], "\(r.stdoutText)")
        let files = try f.files()
        #expect(files["a.ics"]?.contains("SUMMARY:A v2") == true)
        let copy = try #require(files.first { $0.key.hasPrefix("a-conflict-") }, "\(files.keys)")
        #expect(copy.value.contains("SUMMARY:A mine") && copy.value.contains("UID:a-conflict-"))

        // Later runs keep the copy, and report it.
        r = try await f.calgw(["pull", "--json"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(F.count(try F.json(r), "pending", "remote") == 1, "\(r.stdoutText)")
        #expect(try f.files().keys.contains(copy.key))
    }

    @Test func remoteWinsTakesTheFeedsVersionWithoutACopy() async throws {
        let f = try F()
        defer { f.remove() }
        try f.publish(F.feed([("a", "A"), ("b", "B")]))
        try f.configure(extra: "conflict = \"remote-wins\"")
        #expect(try await f.calgw(["pull"]).status == 0)
        let a = f.vdir.appendingPathComponent("a.ics")
        try Data(
            try String(contentsOf: a, encoding: .utf8).replacingOccurrences(of: "SUMMARY:A", with: "SUMMARY:A mine")
                .utf8
        ).write(to: a)
        try f.publish(F.feed([("a", "A v2"), ("b", "B")]))
        let r = try await f.calgw(["pull", "--json"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(
            try F.json(r)["conflicts"] as? [[String: String]] == [["uid": "a", "resolution": "remote-wins"]],
            "\(r.stdoutText)")
        #expect(Set(try f.files().keys) == ["a.ics", "b.ics"])
        #expect(try f.files()["a.ics"]?.contains("SUMMARY:A v2") == true)
    }

    @Test func anEventAddedToASubscribedCalendarStaysInTheVdir() async throws {
        let f = try F()
        defer { f.remove() }
        try f.publish(F.feed([("a", "A")]))
        try f.configure()
        #expect(try await f.calgw(["pull"]).status == 0)
        let requests = f.requests().count
        let r = try await f.calgw(["event", "add", "--summary", "Mine", "--start", "2026-03-11T10:00", "--tz", "UTC"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(r.stderrText.contains("read-only feed"), "\(r.stderrText)")
        #expect(f.requests().count == requests, "nothing is sent to the feed")
        #expect(try f.files().values.contains { $0.contains("SUMMARY:Mine") })
        let pull = try await f.calgw(["pull", "--json"])
        #expect(pull.status == 0, "\(pull.stderrText)")
        #expect(F.count(try F.json(pull), "pending", "remote") == 1, "\(pull.stdoutText)")
        // An edit says it stays in the vdir, not that a push would send it (push refuses).
        let uid = r.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let edit = try await f.calgw(["event", "edit", uid, "--summary", "Mine, edited"])
        #expect(
            edit.status == 0 && edit.stdoutText.contains("in the vdir only: the feed is read-only"),
            "\(edit.stdoutText)")
        #expect(!edit.stdoutText.contains("calgw push"), "\(edit.stdoutText)")
    }

    @Test func aWebcalsFeedOverTLSStillCostsOne304() async throws {
        let f = try F()
        defer { f.remove() }
        let tls = try TestProxies.tls(upstream: f.server.url)
        defer { tls.stop() }
        let ca = try #require(tls.values["PROXY_CA"], "the TLS proxy gives its CA")
        try f.publish(F.feed([("a", "A"), ("b", "B")]))
        try f.configure(remote: "webcals://\(tls.url.host!):\(tls.url.port!)/feed.ics", extra: "ca_file = \"\(ca)\"")
        var r = try await f.calgw(["pull", "--json"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(F.count(try F.json(r), "created", "local") == 2, "\(r.stdoutText)")
        r = try await f.calgw(["pull"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(f.requests().map { $0["status"] as? Int } == [200, 304], "\(f.requests())")
    }

    /// Outside calendars from the shared corpus, pulled as feeds and listed: a custom time zone
    /// defined after the event using it, several zones in one calendar, times at a DST transition.
    @Test func realCalendarsPulledAndListed() async throws {
        let f = try F()
        defer { f.remove() }
        let corpus = TestPaths.corpora.appendingPathComponent("icalendar")
        #expect(
            FileManager.default.fileExists(atPath: corpus.appendingPathComponent("calendars").path),
            "the corpus at \(corpus.path) is missing")
        let server = try TestProxies.feed(root: corpus)
        defer { server.stop() }
        let cases: [(String, String, String, String)] = [
            ("america_new_york_forward_reference.ics", "2014-08-01", "2014-09-30", "2014-08-29T08:00:00-04:00"),
            ("multiple_timezones.ics", "2000-01-01", "2030-12-31", ""),
            ("issue_722_timezone_transition_ambiguity.ics", "1990-01-01", "2030-12-31", ""),
        ]
        for (name, from, to, start) in cases {
            try? FileManager.default.removeItem(at: f.vdir)
            try? FileManager.default.removeItem(at: f.folder.appendingPathComponent("feed.sqlite"))
            try f.configure(remote: server.url.absoluteString + "calendars/" + name)
            let source = try String(contentsOf: corpus.appendingPathComponent("calendars/" + name), encoding: .utf8)
            var r = try await f.calgw(["pull", "--json"])
            #expect(r.status == 0, "\(name): \(r.stderrText)")
            let events = source.components(separatedBy: "BEGIN:VEVENT").count - 1
            #expect(
                try f.files().values.map { $0.components(separatedBy: "BEGIN:VEVENT").count - 1 }.reduce(0, +)
                    == events,
                "\(name): every VEVENT is in the vdir")
            for (file, text) in try f.files() {
                for line in text.components(separatedBy: "\r\n") where line.contains(";TZID=") {
                    let tzid = line.components(separatedBy: ";TZID=")[1].components(
                        separatedBy: CharacterSet(charactersIn: ";:"))[0]
                    if source.contains("TZID:\(tzid)") {
                        #expect(
                            text.contains("TZID:\(tzid)\r\n"), "\(name): \(file) uses \(tzid) without its VTIMEZONE")
                    }
                }
            }
            r = try await f.calgw(["list", "--json", "--from", from, "--to", to])
            #expect(r.status == 0, "\(name): \(r.stderrText)")
            let starts = ((try? JSONSerialization.jsonObject(with: r.stdout)) as? [[String: Any]] ?? []).compactMap {
                $0["start"] as? String
            }
            #expect(!starts.isEmpty, "\(name): \(r.stdoutText)")
            if !start.isEmpty { #expect(starts.contains(start), "\(name): \(starts)") }
        }
    }

    /// A feed of a few megabytes arrives in many chunks, compressed and not: every event lands
    /// whole, with the line folded across chunk boundaries intact.
    @Test(arguments: [true, false])
    func aLargeFeedIsSplitAsItArrives(gzip: Bool) async throws {
        let f = try F(gzip: gzip)
        defer { f.remove() }
        let description = String(repeating: "A long description, folded over many lines: café, 日本語. ", count: 20)
        var feed = F.feed((0..<2000).map { ("e\($0)", "Event \($0)") })
        feed = feed.replacingOccurrences(
            of: "DURATION:PT1H\r\n", with: "DURATION:PT1H\r\nDESCRIPTION:" + Self.fold(description) + "\r\n")
        #expect(feed.utf8.count > 2_000_000)
        try f.publish(feed)
        try f.configure()
        let r = try await f.calgw(["pull", "--json"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(F.count(try F.json(r), "created", "local") == 2000, "\(r.stdoutText)")
        let files = try f.files()
        #expect(files.count == 2000)
        let unfolded = files["e1234.ics"]?.replacingOccurrences(of: "\r\n ", with: "")
        #expect(unfolded?.contains("DESCRIPTION:" + description + "\r\n") == true, "\(files["e1234.ics"] ?? "missing")")
        #expect(files.values.allSatisfy { $0.contains("BEGIN:VTIMEZONE") && $0.hasSuffix("END:VCALENDAR\r\n") })
    }

    /// `text` folded at 75 octets (the content line's name is counted as 12).
    static func fold(_ text: String) -> String {
        var lines: [String] = [], current = "", width = 12
        for c in text {
            let size = String(c).utf8.count
            if width + size > 75 { lines.append(current); current = ""; width = 1 }
            current.append(c); width += size
        }
        return (lines + [current]).joined(separator: "\r\n ")
    }

    /// A broken feed, how to serve it, and what the error says.
    struct BadFeed: Sendable, CustomStringConvertible {
        var description: String
        var feed: String?
        var remote = "feed.ics"
        var extra = ""
        var status: Int32 = 1
        var says: String
    }

    static let badFeeds: [BadFeed] = [
        BadFeed(
            description: "an HTML login page",
            feed: "<!DOCTYPE html>\n<html><head><title>Sign in</title></head></html>\n", says: "web page"),
        BadFeed(description: "a 404", feed: nil, says: "HTTP 404"),
        BadFeed(description: "an empty 200", feed: "", says: "the feed is empty"),
        BadFeed(
            description: "a body cut short", feed: F.feed([("a", "A"), ("b", "B changed"), ("c", "C")]),
            remote: "short/feed.ics", says: "cut short"),
        BadFeed(
            description: "a transfer broken midway", feed: F.feed([("a", "A"), ("b", "B changed"), ("c", "C")]),
            remote: "cut/feed.ics", says: "remote side"),
        BadFeed(
            description: "invalid iCalendar",
            feed: F.feed([("a", "A")]).replacingOccurrences(of: "END:VEVENT", with: "END:VTODO"),
            says: "END:VTODO where END:VEVENT should be"),
        BadFeed(
            description: "a line over max_line_length",
            feed: F.feed([("a", "A"), ("b", "B " + String(repeating: "x", count: 5000)), ("c", "C")]),
            extra: "max_line_length = 2000",
            says: "longer than 2000 bytes"),
        BadFeed(
            description: "a body over max_response_size",
            feed: F.feed((0..<200).map { ("e\($0)", "Event \($0)") }), extra: "max_response_size = 10000",
            says: "larger than 10000 bytes"),
        BadFeed(description: "a calendar with no events", feed: F.feed([]), status: 4, says: "--allow-mass-delete"),
    ]

    @Test(arguments: badFeeds)
    func aBadFeedChangesNothingAndARerunConverges(bad: BadFeed) async throws {
        let f = try F()
        defer { f.remove() }
        try f.publish(F.feed([("a", "A"), ("b", "B"), ("c", "C")]))
        try f.configure()
        #expect(try await f.calgw(["pull"]).status == 0)
        let before = try f.files(), stamps = try f.stamps()

        if let feed = bad.feed {
            try f.publish(feed)
        } else {
            try FileManager.default.removeItem(at: f.feeds.appendingPathComponent("feed.ics"))
        }
        try f.configure(remote: bad.remote, extra: bad.extra)
        let r = try await f.calgw(["pull"])
        #expect(r.status == bad.status, "\(bad): \(r.stdoutText) \(r.stderrText)")
        #expect(r.stderrText.contains(bad.says), "\(bad): \(r.stderrText)")
        #expect(try f.files() == before, "\(bad): nothing changed locally")
        #expect(try f.stamps() == stamps, "\(bad): nothing written")
        let status = try await f.calgw(["status"])
        #expect(
            status.status != 0 || status.stdoutText.contains("not known") || status.stdoutText.contains("warning: "),
            "\(bad): status reports the feed: \(status.stdoutText) \(status.stderrText)")

        // The publisher fixes the feed: the next run converges.
        try f.publish(F.feed([("a", "A"), ("b", "B fixed"), ("c", "C")]))
        try f.configure()
        let fixed = try await f.calgw(["pull", "--json"])
        #expect(fixed.status == 0, "\(bad): \(fixed.stderrText)")
        #expect(F.count(try F.json(fixed), "updated", "local") == 1, "\(bad): \(fixed.stdoutText)")
        #expect(try f.files()["b.ics"]?.contains("SUMMARY:B fixed") == true)
    }

    @Test func aGzippedFeedBehindARedirect() async throws {
        let f = try F()
        defer { f.remove() }
        let feed = F.feed((0..<50).map { ("e\($0)", "Event \($0)") })
        try f.publish(feed)
        try f.configure(remote: "redirect/feed.ics")
        let r = try await f.calgw(["pull", "--json"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(F.count(try F.json(r), "created", "local") == 50, "\(r.stdoutText)")
        let requests = f.requests()
        #expect(requests.map { $0["status"] as? Int } == [302, 200], "\(requests)")
        let served = try #require(requests.last)
        #expect((served["acceptEncoding"] as? String)?.contains("gzip") == true)
        #expect((served["bytes"] as? Int ?? .max) < feed.utf8.count / 2, "the body went compressed: \(served)")
        // The redirect is followed again next time, and the target answers 304.
        #expect(try await f.calgw(["pull"]).status == 0)
        #expect(f.requests().suffix(2).map { $0["status"] as? Int } == [302, 304], "\(f.requests())")
    }
}
