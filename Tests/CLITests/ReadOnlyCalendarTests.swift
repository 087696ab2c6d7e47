import Foundation
import Testing
import CalgwTestSupport
import CalgwTestTraits

/// A calendar shared with the account read-only (Radicale's rights file: `ro-shared-*`
/// calendars may only be read) syncs one way, quietly: the first run that finds a local change
/// says once that the calendar is read-only and keeps the change in the vdir, exit 0; later
/// runs say nothing and send nothing; a local edit the server also changed is kept as a
/// conflict copy beside the server's version. `status` marks the calendar read-only.
@Suite(.timeLimit(.minutes(10)), .needsServer("radicale")) struct ReadOnlyCalendarTests {
    @Test func aReadOnlyCalendarSyncsOneWayAndSaysSoOnce() async throws {
        let server = try TestServers.shared("radicale")
        let id = UUID().uuidString.prefix(8).lowercased()
        // Made in Radicale's storage: the account itself may not make it (nor write into it).
        let name = "ro-shared-\(id)"
        let stored = server.stateFolder.appendingPathComponent("collections/collection-root/\(server.username)/\(name)")
        try FileManager.default.createDirectory(at: stored, withIntermediateDirectories: true)
        try Data(#"{"tag": "VCALENDAR", "D:displayname": "Shared"}"#.utf8).write(
            to: stored.appendingPathComponent(".Radicale.props"))
        for i in 0..<2 {
            try Data(
                TestEvent.ics(
                    uid: "ro\(i)-\(id)", summary: "shared \(i)", start: "20270301T100000Z", end: "20270301T110000Z"
                ).utf8
            )
            .write(to: stored.appendingPathComponent("ro\(i)-\(id).ics"))
        }
        let collection = server.home.appendingPathComponent("\(name)/", isDirectory: true)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pair = try ServerPair(folder, "ro", server: server, collection: collection)

        try await Self.checkOneWay(
            pair, password: server.password, id: id, label: "radicale",
            serverUnchanged: { () throws in
                let onServer = try FileManager.default.contentsOfDirectory(atPath: stored.path).filter {
                    $0.hasSuffix(".ics")
                }
                let text = try String(contentsOf: stored.appendingPathComponent("ro0-\(id).ics"), encoding: .utf8)
                #expect(onServer.count == 2, "the server got a write: \(onServer)")
                #expect(text.contains("SUMMARY:shared 0"))
            },
            ownerChanges: {
                try Data(
                    TestEvent.ics(
                        uid: "ro0-\(id)", summary: "changed by the owner", start: "20270301T100000Z",
                        end: "20270301T110000Z"
                    ).utf8
                )
                .write(to: stored.appendingPathComponent("ro0-\(id).ics"))
            })
    }

    /// The one-way sync of a calendar the account may only read, as every server must show
    /// it, on `pair` whose calendar holds `ro0-ID` and `ro1-ID`: the first sync pulls both; an
    /// edit and an addition made here are kept here and said once (`serverUnchanged` checks
    /// the server got nothing), later runs say nothing, `status` says it every time; and when
    /// the owner changes the edited event (`ownerChanges`), their version comes and the edit
    /// stays beside it as a conflict copy.
    static func checkOneWay(
        _ pair: ServerPair, password: String, id: String, label: String,
        serverUnchanged: () async throws -> Void, ownerChanges: () async throws -> Void
    ) async throws {
        let first = try await pair.run("sync", password: password)
        #expect(
            first.status == 0 && first.stdoutText.contains("local: 2 created"),
            "\(label): \(first.stdoutText)\(first.stderrText)")

        // Edited and added here: kept here, said once.
        try Data(
            TestEvent.ics(uid: "ro0-\(id)", summary: "edited here", start: "20270301T100000Z", end: "20270301T110000Z")
                .utf8
        )
        .write(to: try pair.file(uid: "ro0-\(id)"))
        try Data(
            TestEvent.ics(uid: "new-\(id)", summary: "new here", start: "20270301T100000Z", end: "20270301T110000Z")
                .utf8
        )
        .write(to: pair.vdir.appendingPathComponent("new-\(id).ics"))
        let kept = try await pair.run("sync", password: password)
        #expect(kept.status == 0, "\(label): \(kept.stdoutText)\(kept.stderrText)")
        #expect(kept.stdoutText.contains("the calendar is read-only for this account"), "\(label): \(kept.stdoutText)")
        #expect(!kept.stderrText.contains("error"), "\(label): \(kept.stderrText)")
        try await serverUnchanged()

        let again = try await pair.run("sync", password: password)
        #expect(
            again.status == 0 && !again.stdoutText.contains("read-only") && again.stderrText.isEmpty,
            "\(label): a later run says it again: \(again.stdoutText)\(again.stderrText)")
        #expect(try pair.summaries()["ro0-\(id)"] == "edited here" && pair.summaries()["new-\(id)"] == "new here")
        // `status` says it every time, with what waits.
        let status = try await pair.run("status", password: password)
        #expect(
            status.status == 0 && status.stdoutText.contains("read-only for this account"),
            "\(label): \(status.stdoutText)\(status.stderrText)")

        // The owner changes the event edited here: their version comes, the edit stays as a copy.
        try await ownerChanges()
        let conflict = try await pair.run("sync", password: password)
        #expect(conflict.status == 0, "\(label): \(conflict.stdoutText)\(conflict.stderrText)")
        let summaries = try pair.summaries()
        #expect(summaries["ro0-\(id)"] == "changed by the owner", "\(label): \(summaries)")
        #expect(
            summaries.contains { $0.key.hasPrefix("ro0-\(id)-conflict-") && $0.value == "edited here" },
            "\(label): \(summaries)")
        #expect(summaries["new-\(id)"] == "new here")
    }
}
