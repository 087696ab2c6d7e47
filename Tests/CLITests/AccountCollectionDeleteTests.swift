import Foundation
import Testing
import CalgwTestSupport

/// A calendar deleted on one side: by default reported with what it held and left alone on
/// the other side; with `--allow-collection-delete` deleted there too.
@Suite(.timeLimit(.minutes(10))) struct AccountCollectionDeleteTests {
    @Test(arguments: TestServers.selected)
    func deletedCalendarsAreKeptUnlessAllowed(server name: String) async throws {
        let server = try TestServers.start(name)
        defer { server.stop() }
        let account = try AccountFixture(server: server)
        defer { account.remove() }
        let gone = "gone-\(account.id)", dropped = "dropped-\(account.id)"
        let goneURL = try await account.makeCalendar(gone), droppedURL = try await account.makeCalendar(dropped)
        try await account.put(
            TestEvent.ics(uid: "g-\(account.id)", summary: "Gone", start: "20260301T100000Z", duration: "PT1H"),
            name: "g", in: goneURL)
        try await account.put(
            TestEvent.ics(uid: "d1-\(account.id)", summary: "Dropped 1", start: "20260301T100000Z", duration: "PT1H"),
            name: "d1", in: droppedURL)
        try await account.put(
            TestEvent.ics(uid: "d2-\(account.id)", summary: "Dropped 2", start: "20260301T100000Z", duration: "PT1H"),
            name: "d2", in: droppedURL)
        var r = try await account.calgw(["sync"])
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        #expect(account.files(gone).count == 1 && account.files(dropped).count == 2, "\(name): \(account.subfolders())")

        // Gone from the server: reported with its item count, the folder kept.
        _ = try await account.curl(["-X", "DELETE", goneURL.absoluteString])
        r = try await account.calgw(["sync"])
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        #expect(r.stderrText.contains("\(gone)/ (1 item)"), "\(name): not reported: \(r.stderrText)")
        #expect(account.files(gone).count == 1, "\(name): the folder of a deleted calendar was touched")

        // Allowed: the folder and its event go.
        r = try await account.calgw(["sync", "--json", "--allow-collection-delete"])
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        #expect(AccountFixture.number(r.stdoutText, ["deleted", "local"]) == 1, "\(name): \(r.stdoutText)")
        #expect(
            AccountFixture.number(r.stdoutText, ["collections", gone, "deleted", "local"]) == 1,
            "\(name): \(r.stdoutText)")
        #expect(
            !FileManager.default.fileExists(atPath: account.local.appendingPathComponent(gone).path),
            "\(name): folder kept")
        #expect(account.mapping()[gone] == nil, "\(name): \(account.mapping())")

        // A folder deleted here: reported, the calendar kept on the server.
        try FileManager.default.removeItem(at: account.local.appendingPathComponent(dropped))
        r = try await account.calgw(["sync"])
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        #expect(
            r.stderrText.contains("\(dropped)/ is gone") && r.stderrText.contains("2 items"),
            "\(name): not reported: \(r.stderrText)")
        // Listed in the home (Xandikos answers a PROPFIND of a deleted collection with 207).
        func exists(_ url: URL) async throws -> Bool {
            let answer = try await account.curl(["-X", "PROPFIND", "-H", "Depth: 1", server.home.absoluteString])
            return answer.stdoutText.contains(url.path)
        }
        let kept = try await exists(droppedURL)
        #expect(kept, "\(name): the calendar was deleted without --allow-collection-delete")
        // A pull never deletes on the server, even when allowed.
        r = try await account.calgw(["pull", "--allow-collection-delete"])
        let keptByPull = try await exists(droppedURL)
        #expect(r.status == 0 && keptByPull, "\(name): \(r.stderrText)")

        r = try await account.calgw(["sync", "--json", "--allow-collection-delete"])
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        #expect(AccountFixture.number(r.stdoutText, ["deleted", "remote"]) == 2, "\(name): \(r.stdoutText)")
        let stillThere = try await exists(droppedURL)
        #expect(!stillThere, "\(name): the calendar is still on the server")
        #expect(!account.subfolders().contains(dropped), "\(name): the folder came back: \(account.subfolders())")
        r = try await account.calgw(["sync", "--json"])
        #expect(r.status == 0 && AccountFixture.allZero(r.stdoutText), "\(name): \(r.stdoutText) \(r.stderrText)")
    }
}

/// A calendar emptied on one side trips the mass-deletion guard of that calendar alone: the
/// others sync, the run exits 4, and the server keeps the emptied calendar's events.
@Suite(.timeLimit(.minutes(10))) struct AccountMassDeletionTests {
    @Test(arguments: TestServers.selected)
    func anEmptiedFolderIsRefusedAloneAndTheOthersSync(server name: String) async throws {
        let server = try TestServers.start(name)
        defer { server.stop() }
        let account = try AccountFixture(server: server)
        defer { account.remove() }
        let emptied = "emptied-\(account.id)", kept = "kept-\(account.id)"
        let emptiedURL = try await account.makeCalendar(emptied), keptURL = try await account.makeCalendar(kept)
        for n in 0..<3 {
            try await account.put(
                TestEvent.ics(
                    uid: "e\(n)-\(account.id)", summary: "E\(n)", start: "20260301T100000Z", duration: "PT1H"),
                name: "e\(n)", in: emptiedURL)
        }
        try await account.put(
            TestEvent.ics(uid: "k-\(account.id)", summary: "K", start: "20260301T100000Z", duration: "PT1H"), name: "k",
            in: keptURL)
        var r = try await account.calgw(["sync"])
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        // A second run records the folder as it is after the download (the first recorded it
        // empty, as it was when scanned).
        r = try await account.calgw(["sync"])
        #expect(r.status == 0, "\(name): \(r.stderrText)")
        for file in account.files(emptied) {
            try FileManager.default.removeItem(at: account.local.appendingPathComponent("\(emptied)/\(file)"))
        }
        try Data(
            TestEvent.ics(uid: "k2-\(account.id)", summary: "K2", start: "20260301T100000Z", duration: "PT1H").utf8
        )
        .write(to: account.local.appendingPathComponent("\(kept)/k2.ics"))
        r = try await account.calgw(["sync", "--json"])
        #expect(r.status == 4, "\(name): exit \(r.status): \(r.stderrText) \(r.stdoutText)")
        #expect(r.stderrText.contains(emptied), "\(name): \(r.stderrText)")
        #expect(
            AccountFixture.number(r.stdoutText, ["collections", kept, "created", "remote"]) == 1,
            "\(name): \(r.stdoutText)")
        let items = try await account.server.itemHrefs(in: emptiedURL)
        #expect(items.count == 3, "\(name): the server lost events: \(items)")
    }
}
