import CalgwTestSupport
import Foundation
import ICalendar
import Recurrence
import Testing
@testable import CalendarSync

/// An event's edit saved the whole way without a command line: written to the vdir, pushed,
/// and reported.
@Suite struct EventSaveTests {
    /// A pair of two vdirs, both holding the event `uid` after a first sync.
    func syncedPair(_ folder: TemporaryFolder, uid: String) async throws -> (Pair, URL) {
        let local = folder.file("local"), remote = folder.file("remote")
        for url in [local, remote] {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        try TestEvent.data(uid: uid, summary: "Review").write(to: local.appendingPathComponent("\(uid).ics"))
        let pair = Pair(name: "p", local: .vdir(local), remote: .vdir(remote), journal: folder.file("p.sqlite"))
        _ = try await PairRun(pair: pair).run()
        return (pair, remote)
    }

    func remoteFiles(_ remote: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: remote.path).filter { $0.hasSuffix(".ics") }
    }

    @Test func aDeletionIsWrittenPushedAndReported() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (pair, remote) = try await syncedPair(folder, uid: "review")
        #expect(try remoteFiles(remote).count == 1)
        let calendar = try PairRun(pair: pair).calendar(nil)
        let files = calendar.eventFiles(cache: nil)
        let file = try files.find(uid: "review")
        let saved = try await EventSave(pair: pair, calendar: calendar, files: files).save(
            SpanEditResult(resource: nil, newSeries: nil), replacing: file, uid: "review")
        #expect(saved.deleted && saved.push.pushed && saved.push.pendingReason == nil)
        #expect(saved.scheduling == nil && saved.undelivered == nil && saved.acting.isEmpty)
        #expect(try remoteFiles(remote).isEmpty, "the deletion reached the other side")
    }

    @Test func anOfflineEditWaitsInTheVdir() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (pair, remote) = try await syncedPair(folder, uid: "plan")
        let calendar = try PairRun(pair: pair).calendar(nil)
        let files = calendar.eventFiles(cache: nil)
        let file = try files.find(uid: "plan")
        var edited = file.calendar
        for index in edited.components.indices where edited.components[index].name == "VEVENT" {
            edited.components[index].properties.removeAll { $0.name == "SUMMARY" }
            edited.components[index].properties.append(Property(name: "SUMMARY", value: "Plan (moved)"))
        }
        var save = EventSave(pair: pair, calendar: calendar, files: files)
        save.offline = true
        let saved = try await save.save(SpanEditResult(resource: edited, newSeries: nil), replacing: file, uid: "plan")
        #expect(!saved.deleted && !saved.push.pushed && saved.push.pendingReason == nil)
        let local = String(decoding: try files.find(uid: "plan").data, as: UTF8.self)
        #expect(local.contains("SUMMARY:Plan (moved)"))
        let there = try remoteFiles(remote).map {
            try String(contentsOf: remote.appendingPathComponent($0), encoding: .utf8)
        }
        #expect(there.count == 1 && there.allSatisfy { $0.contains("SUMMARY:Review") }, "nothing was sent")
    }
}
