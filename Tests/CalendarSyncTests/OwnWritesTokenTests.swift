import CalDAV
import Foundation
import Testing
import CalgwTestSupport
@testable import CalendarSync

/// A run's own writes and the change token it keeps, on real servers: an event one run
/// uploads and another client deletes before the next run is deleted here too. (A token read
/// before the upload would make the next run ask for changes since then, and Radicale and
/// Xandikos, which diff two states, leave out an item that is in neither.)
@Suite(.serialized, .timeLimit(.minutes(10))) struct OwnWritesTokenTests {
    @Test(arguments: TestServers.selected)
    func anEventThisSideUploadedAndAnotherClientDeletedIsDeletedHere(server name: String) async throws {
        let server = try TestServers.shared(name)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let local = VDirStorage(url: folder.file("vdir"))
        try local.directory.createIfMissing()
        let client = try CalDAVClient(
            configuration: .init(
                http: .init(authentication: .basic(username: server.username, password: server.password))))
        let url = server.newCollectionURL(prefix: "own")
        try await client.makeCalendar(url)
        let remote = CalDAVStorage(client: client, collection: url)
        let journal = try Journal.open(at: folder.file("journal.sqlite"))
        func sync() async throws -> SyncReport {
            try await SyncEngine(local: local, remote: remote, journal: journal).run()
        }
        let id = UUID().uuidString.prefix(8).lowercased()

        try Data(TestEvent.ics(uid: "kept-\(id)", summary: "kept", end: "20260310T110000Z").utf8).write(
            to: folder.file("vdir/kept.ics"))
        #expect(try await sync().created.remote == 1, "\(name)")
        #expect(try await sync() == SyncReport(), "\(name): the run after the upload found work")
        try Data(TestEvent.ics(uid: "made-\(id)", summary: "made", end: "20260310T110000Z").utf8).write(
            to: folder.file("vdir/made.ics"))
        #expect(try await sync().created.remote == 1, "\(name)")

        let made = try #require(
            try await remote.fetchAll().items.first { String(decoding: $0.data, as: UTF8.self).contains("made-\(id)") },
            "\(name): the upload is not on the server")
        try await remote.delete(href: made.href, ifMatch: made.etag)
        let report = try await sync()
        #expect(report.deleted.local == 1, "\(name): \(report)")
        #expect(
            !FileManager.default.fileExists(atPath: folder.file("vdir/made.ics").path),
            "\(name): the deleted event is still here")
        #expect(FileManager.default.fileExists(atPath: folder.file("vdir/kept.ics").path), "\(name)")
    }
}
