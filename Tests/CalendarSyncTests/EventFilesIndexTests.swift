import CalgwTestSupport
import Foundation
import Testing
import VDir

@testable import CalendarSync

/// A search by UID through the index of UIDs reads only the files it does not know to hold
/// other UIDs, and still finds what reading every file finds after a file's UID changed with
/// its size and modification time kept.
@Suite struct EventFilesIndexTests {
    /// A vdir of `count` files `f<n>.ics` holding `e<n>`, and a cache, left alone past the racy margin.
    static func vdir(_ count: Int) async throws -> (TemporaryFolder, EventFiles, EventFiles) {
        let folder = try TemporaryFolder()
        let vdir = folder.file("vdir")
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        for n in 0..<count {
            try Data(TestEvent.ics(uid: "e\(n)", summary: "s\(n)", start: "20260310T100000Z").utf8).write(
                to: vdir.appendingPathComponent("f\(n).ics"))
        }
        try await Task.sleep(for: .seconds(2.1))
        let cache = ListingCache(folder: folder.file("cache"), fingerprint: ZoneDataFingerprint(digest: [6, 8]))
        return (
            folder, EventFiles(directory: VDirectory(url: vdir), cache: cache.of(.uids)),
            EventFiles(directory: VDirectory(url: vdir))
        )
    }

    @Test func aWarmIndexReadsOnlyTheFileHoldingTheUID() async throws {
        let (folder, indexed, plain) = try await Self.vdir(30)
        defer { folder.remove() }
        var read = 0
        #expect(try indexed.find(uid: "e5", filesRead: &read).name == "f5.ics")
        #expect(read == 30)
        read = 0
        #expect(try indexed.find(uid: "e7", filesRead: &read).name == "f7.ics")
        #expect(read == 1)
        read = 0
        #expect(throws: EventEditError.notFound(uid: "e99", folder: plain.directory.url.path)) {
            try indexed.find(uid: "e99", filesRead: &read)
        }
        #expect(read == 0)
        read = 0
        _ = try plain.find(uid: "e7", filesRead: &read)
        #expect(read == 30)
    }

    @Test func aUIDChangedWithSizeAndTimeKeptIsFound() async throws {
        let (folder, indexed, plain) = try await Self.vdir(12)
        defer { folder.remove() }
        _ = try indexed.find(uid: "e1")
        // f8 now holds e9 too: the same size, its modification time put back.
        let path = plain.directory.url.appendingPathComponent("f8.ics")
        let before = try #require(
            try FileManager.default.attributesOfItem(atPath: path.path)[.modificationDate] as? Date)
        let text = try String(contentsOf: path, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "UID:e8", with: "UID:e9").utf8).write(to: path)
        try FileManager.default.setAttributes([.modificationDate: before], ofItemAtPath: path.path)
        for uid in ["e8", "e9", "e3"] {
            let expected = (try? plain.find(uid: uid).name) ?? "\(Result { try plain.find(uid: uid) })"
            let got = (try? indexed.find(uid: uid).name) ?? "\(Result { try indexed.find(uid: uid) })"
            #expect(got == expected, "\(uid)")
        }
        #expect(throws: EventEditError.self) { try indexed.find(uid: "e9") }
    }
}
