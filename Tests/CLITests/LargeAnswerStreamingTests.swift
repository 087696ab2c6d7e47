import Foundation
import Testing
import CalgwTestSupport
import CalgwTestTraits

/// A first pull whose answer is far larger than any buffer on its way (libcurl hands over
/// 16 KB at a time; the XML reader reads what it is fed), from a real server: every item
/// arrives whole, and an answer cut in the middle keeps the items read before the cut (each
/// file whole, each in the journal), writes no half file, and the rerun pulls the rest.
///
/// 400 events (about 120 KB, past the first written batch at half the answer, four multiget
/// pages); 1,500 in the load run.
@Suite(.serialized, .needsServer("cyrus"), .timeLimit(.minutes(10))) struct LargeAnswerStreamingTests {
    static let events = TestLoad.size(400, load: 1500)

    /// A Cyrus collection filled with `events` events by PUT.
    static func filledCollection(_ server: TestServer, prefix: String, start: Int = 0) async throws -> URL {
        let collection = server.newCollectionURL(prefix: prefix)
        try await server.makeCalendar(collection)
        let fill = try await ProcessRunner.run(
            "python3",
            [
                TestPaths.packageRoot.appendingPathComponent("Scripts/bench/fill_caldav.py").path,
                collection.absoluteString, server.username, server.password, String(Self.events),
                "--start", String(start),
            ])
        #expect(fill.status == 0, "\(fill.stderrText)")
        return collection
    }

    @Test func aLargeAnswerCutMidwayKeepsWholeFilesAndTheRerunPullsTheRest() async throws {
        let server = try TestServers.shared("cyrus")
        let collection = try await Self.filledCollection(server, prefix: "large")

        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // The calendar-query (REPORT) is cut after half its body; everything else passes.
        let proxy = try TestProxies.fault(upstream: server.url, script: "truncate", onlyMethods: "REPORT")
        defer { proxy.stop() }
        let cut = try ServerPair(folder, "cut", server: server, collection: proxy.proxied(collection))
        let broken = try await cut.run("pull", password: server.password)
        #expect(broken.status == 1, "\(broken.stdoutText)\(broken.stderrText)")
        #expect(broken.stderrText.contains("error:") && broken.stderrText.contains("REPORT"), "\(broken.stderrText)")
        // Items are written in batches while the answer arrives (128, then 256, …): the cut
        // falls after the first batches and before the end.
        let early = try FileManager.default.contentsOfDirectory(atPath: cut.vdir.path).filter { $0.hasSuffix(".ics") }
        #expect(!early.isEmpty && early.count < Self.events, "\(early.count) files after a cut answer")
        for name in early {
            let text = try String(contentsOf: cut.vdir.appendingPathComponent(name), encoding: .utf8)
            #expect(text.hasSuffix("END:VCALENDAR\r\n"), "\(name) was written half")
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: cut.vdir.path).allSatisfy { !$0.hasSuffix(".tmp") },
            "a temporary file was left behind")
        #expect(
            proxy.logEntries().contains { ($0["action"] as? String) == "truncate" }, "the proxy never cut an answer")

        // The same pair, now through the proxy's later requests (the script is used up): whole.
        let rerun = try await cut.run("pull", ["--json"], password: server.password)
        #expect(rerun.status == 0, "\(rerun.stderrText)")
        let names = try FileManager.default.contentsOfDirectory(atPath: cut.vdir.path).filter { $0.hasSuffix(".ics") }
        #expect(names.count == Self.events)
        var uids = Set<String>(), bytes = 0
        for name in names {
            let data = try Data(contentsOf: cut.vdir.appendingPathComponent(name))
            bytes += data.count
            let text = String(decoding: data, as: UTF8.self)
            #expect(
                text.hasPrefix("BEGIN:VCALENDAR\r\n") && text.hasSuffix("END:VCALENDAR\r\n"), "\(name) is not whole")
            if let line = text.components(separatedBy: "\r\n").first(where: { $0.hasPrefix("UID:") }) {
                uids.insert(String(line.dropFirst(4)))
            }
        }
        #expect(uids == Set((0..<Self.events).map { "bench-\($0)@calgw.example" }))
        #expect(bytes > Self.events * 260, "the answer was only \(bytes) bytes")
        let again = try await cut.run("sync", password: server.password)
        #expect(
            again.status == 0 && again.stdoutText.contains("local: 0 created, 0 updated, 0 deleted; remote: 0 created"),
            "\(again.stdoutText)\(again.stderrText)")
    }

    /// A server that refuses the calendar-query of every item (here with 507, as one out of
    /// memory might) is read in pages: the listing, then multigets of at most 100 hrefs, every
    /// file whole, and the next run finds nothing to do.
    @Test func aServerThatRefusesTheWholeQueryIsReadInPages() async throws {
        let server = try TestServers.shared("cyrus")
        // Cyrus refuses a UID another calendar of the account holds: these events have their own.
        let collection = try await Self.filledCollection(server, prefix: "paged", start: 10_000)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let proxy = try TestProxies.fault(upstream: server.url, script: "507", onlyMethods: "REPORT")
        defer { proxy.stop() }
        let pair = try ServerPair(folder, "paged", server: server, collection: proxy.proxied(collection))
        let pulled = try await pair.run("pull", password: server.password)
        #expect(pulled.status == 0, "\(pulled.stdoutText)\(pulled.stderrText)")
        let names = try FileManager.default.contentsOfDirectory(atPath: pair.vdir.path).filter { $0.hasSuffix(".ics") }
        #expect(names.count == Self.events)
        for name in names {
            let text = try String(contentsOf: pair.vdir.appendingPathComponent(name), encoding: .utf8)
            #expect(
                text.hasPrefix("BEGIN:VCALENDAR\r\n") && text.hasSuffix("END:VCALENDAR\r\n"), "\(name) is not whole")
        }
        let reports = proxy.logEntries().filter { ($0["method"] as? String) == "REPORT" }
        #expect(
            (reports.first?["action"] as? String) == "507",
            "the proxy did not refuse the query: \(reports.first ?? [:])")
        // One multiget per 100 hrefs, each page split so.
        #expect(reports.count - 1 >= Self.events / 100, "\(reports.count - 1) multigets for \(Self.events) events")
        let again = try await pair.run("sync", password: server.password)
        #expect(
            again.status == 0 && again.stdoutText.contains("local: 0 created, 0 updated, 0 deleted; remote: 0 created"),
            "\(again.stdoutText)\(again.stderrText)")
    }
}
