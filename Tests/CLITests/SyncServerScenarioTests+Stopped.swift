import Foundation
import Testing
import CalgwTestSupport

/// `calgw sync` stopped part-way on a real server (SIGKILL, SIGTERM or SIGINT sent after a
/// given side effect), then the other side changes: another client deletes and edits some of
/// the items the stopped run was copying, and adds new ones. The next runs must end where runs
/// never stopped would: no deleted item back, no edit undone, nothing lost, nothing doubled.
///
/// The default run takes one stop per shape on each server, the signals and stop points
/// rotating; `CALGW_LOAD=1` runs every signal at every stop point (the campaign).
extension SyncServerScenarioTests {
    /// What is stopped: a first pull into an empty vdir, a later pull of new items, or a push
    /// of new local files.
    enum StoppedShape: String, CaseIterable, Sendable { case firstPull = "first pull", laterPull = "later pull", push }

    struct Stop: Sendable, CustomStringConvertible {
        var signal: String
        /// Stopped after this share of the items' writes: 1 / 3, 2 / 3, or 1 (all written).
        var share: Double
        var description: String { "SIG\(signal) at \(share == 1 ? "all" : share < 0.5 ? "1/3" : "2/3")" }
    }

    /// 30 items (150 in the load run): a third, two thirds and all of them are distinct stop points.
    static let stoppedItems = TestLoad.size(30, load: 150)

    static var stops: [StoppedShape: [Stop]] {
        let signals = ["KILL", "TERM", "INT"], shares = [1.0 / 3, 2.0 / 3, 1]
        if TestLoad.isOn {
            let all = signals.flatMap { s in shares.map { Stop(signal: s, share: $0) } }
            return Dictionary(uniqueKeysWithValues: StoppedShape.allCases.map { ($0, all) })
        }
        return [
            .firstPull: [Stop(signal: "TERM", share: 1.0 / 3)], .laterPull: [Stop(signal: "INT", share: 2.0 / 3)],
            .push: [Stop(signal: "KILL", share: 1)],
        ]
    }

    @Test(arguments: TestServers.selected, StoppedShape.allCases)
    func aStoppedRunThenChangesOnTheOtherSide(server name: String, shape: StoppedShape) async throws {
        let server = try TestServers.shared(name)
        for stop in Self.stops[shape] ?? [] {
            try await stoppedRun(server: server, shape: shape, stop: stop)
        }
    }

    private func stoppedRun(server: TestServer, shape: StoppedShape, stop: Stop) async throws {
        let context = "\(server.name), \(shape.rawValue), \(stop)"
        // a: the run that is stopped; b: another client of the same calendar (a phone).
        let (folder, a, b) = try await twoPairs(on: server, prefix: "stop")
        defer { folder.remove() }
        let id = UUID().uuidString.prefix(6).lowercased()
        let uids = (0..<Self.stoppedItems).map { "s\($0)-\(id)" }
        func write(_ uids: some Sequence<String>, _ summary: String, into pair: ServerPair) throws {
            for uid in uids {
                try TestEvent.data(uid: uid, summary: summary, end: "20260310T110000Z", location: "Room 1")
                    .write(to: pair.vdir.appendingPathComponent("\(uid).ics"))
            }
        }
        let known = (0..<4).map { "k\($0)-\(id)" }
        if shape == .laterPull {
            try write(known, "known", into: b)
            #expect(try await b.run("sync", password: server.password).status == 0, "\(context)")
            #expect(try await a.run("sync", password: server.password).status == 0, "\(context)")
        }
        // Where the items come from, and who changes them after the stop.
        let source = shape == .push ? a : b
        try write(uids, "v1", into: source)
        if shape != .push { #expect(try await b.run("sync", password: server.password).status == 0, "\(context)") }

        // Writes come after a run's first commits (its intents); k counts side effects.
        let k = max(2, Int(Double(Self.stoppedItems) * stop.share) + (stop.share == 1 ? 1 : 0))
        let stopped = try await CalgwBinary.run(
            ["sync", "--config", a.config.path],
            environment: [
                "CALGW_TEST_PASSWORD": server.password,
                "CALGW_TEST_KILL_AFTER": "\(k)", "CALGW_TEST_SIGNAL": stop.signal,
            ])
        let signal: Int32 = stop.signal == "KILL" ? 9 : stop.signal == "TERM" ? 15 : 2
        #expect(stopped.status == 128 + signal, "\(context): \(stopped.status) \(stopped.stderrText)")
        if stop.signal != "KILL" {
            // A signal after the last safe point lets the run finish; the process still ends by it.
            let said = stopped.stderrText.contains("stopped by SIG\(stop.signal) at a safe point")
            let finished = stopped.stdoutText.contains("\(Self.stoppedItems) created")
            #expect(
                stop.share == 1 ? said || finished : said, "\(context): \(stopped.stderrText) \(stopped.stdoutText)")
        }

        // The other side changes: 1 in 5 deleted, 1 in 5 edited, two new.
        let deleted = uids.enumerated().filter { $0.offset % 5 == 0 }.map(\.element)
        let edited = uids.enumerated().filter { $0.offset % 5 == 1 }.map(\.element)
        let added = ["n0-\(id)", "n1-\(id)"]
        for uid in deleted { try FileManager.default.removeItem(at: try source.file(uid: uid)) }
        for uid in edited {
            try TestEvent.data(uid: uid, summary: "edited after the stop", end: "20260310T110000Z", location: "Room 1")
                .write(to: try source.file(uid: uid))
        }
        try write(added, "new after the stop", into: source)
        if shape != .push { #expect(try await b.run("sync", password: server.password).status == 0, "\(context)") }

        let rerun = try await a.run("sync", password: server.password)
        #expect(rerun.status == 0, "\(context): \(rerun.stderrText)")
        #expect(!rerun.stdoutText.contains("conflict"), "\(context): \(rerun.stdoutText)")
        #expect(try await b.run("sync", password: server.password).status == 0, "\(context)")

        var expected: [String: String] = [:]
        for uid in uids { expected[uid] = "v1" }
        for uid in deleted { expected[uid] = nil }
        for uid in edited { expected[uid] = "edited after the stop" }
        for uid in added { expected[uid] = "new after the stop" }
        if shape == .laterPull { for uid in known { expected[uid] = "known" } }
        for (pairName, pair) in [("a", a), ("b", b)] {
            let found = try pair.summaries()
            let back = deleted.filter { found[$0] != nil }, undone = edited.filter { found[$0] != expected[$0] }
            #expect(back.isEmpty, "\(context): \(back.count) deleted items back in \(pairName)")
            #expect(undone.isEmpty, "\(context): \(undone.count) edits undone in \(pairName)")
            #expect(found == expected, "\(context): \(pairName) holds \(found.count) items, \(expected.count) expected")
            let files = try FileManager.default.contentsOfDirectory(atPath: pair.vdir.path).filter {
                $0.hasSuffix(".ics")
            }
            #expect(files.count == expected.count, "\(context): \(pairName) has \(files.count) files (doubled?)")
        }
    }
}
